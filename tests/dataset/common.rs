//! What the dataset tests share: scratch folders, a piece set and pictures in folders,
//! and decoding an image to RGB.

use std::path::{Path, PathBuf};

/// A fresh folder for one test.
pub fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("staunton-dataset-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("scratch dir");
    dir
}

/// `bytes` (PNG or JPEG) as width, height and RGB pixels.
pub fn decode(bytes: &[u8]) -> (u32, u32, Vec<u8>) {
    let image = image::load_from_memory(bytes).expect("an image").to_rgb8();
    (image.width(), image.height(), image.into_raw())
}

/// A folder holding one piece set, `folder-set`: the built-in classic drawings under
/// lichess's file names.
pub fn piece_folder() -> PathBuf {
    let dir = scratch("pieces");
    let set = dir.join("folder-set");
    std::fs::create_dir_all(&set).unwrap();
    let assets = Path::new(env!("CARGO_MANIFEST_DIR")).join("assets/pieces/staunton-classic");
    for color in ['w', 'b'] {
        for role in ['K', 'Q', 'R', 'B', 'N', 'P'] {
            let name = format!("{color}{role}.svg");
            std::fs::copy(assets.join(&name), set.join(&name)).unwrap();
        }
    }
    dir
}

/// A folder of two background pictures (a gradient and stripes), PNG and JPEG.
pub fn bg_folder() -> PathBuf {
    let dir = scratch("pictures");
    let gradient = image::RgbImage::from_fn(300, 200, |x, y| {
        image::Rgb([(x % 256) as u8, (y % 256) as u8, 90])
    });
    gradient.save(dir.join("gradient.png")).unwrap();
    let stripes = image::RgbImage::from_fn(120, 240, |x, _| {
        if x / 10 % 2 == 0 {
            image::Rgb([30, 30, 30])
        } else {
            image::Rgb([220, 200, 160])
        }
    });
    stripes.save(dir.join("stripes.jpg")).unwrap();
    dir
}
