//! Helpers shared by the integration tests: decoding, pixel comparison (through
//! `staunton::snapshot`), golden files.
#![allow(dead_code)]

use image::{Rgba, RgbaImage};
use staunton::snapshot::{self, Diff, Tolerance};
use std::path::{Path, PathBuf};

/// Decode PNG bytes into RGBA pixels.
pub fn decode(png: &[u8]) -> RgbaImage {
    image::load_from_memory_with_format(png, image::ImageFormat::Png)
        .expect("the PNG decodes")
        .to_rgba8()
}

/// A tiny-skia pixmap (premultiplied) as straight RGBA.
pub fn from_pixmap(pixmap: &resvg::tiny_skia::Pixmap) -> RgbaImage {
    let mut img = RgbaImage::new(pixmap.width(), pixmap.height());
    for (dst, src) in img.pixels_mut().zip(pixmap.pixels()) {
        let c = src.demultiply();
        *dst = Rgba([c.red(), c.green(), c.blue(), c.alpha()]);
    }
    img
}

/// Rasterise SVG text with resvg at its own size.
pub fn rasterise_svg(svg: &str) -> RgbaImage {
    let tree =
        resvg::usvg::Tree::from_str(svg, &resvg::usvg::Options::default()).expect("the SVG parses");
    let size = tree.size().to_int_size();
    let mut pixmap = resvg::tiny_skia::Pixmap::new(size.width(), size.height()).expect("non-empty");
    resvg::render(
        &tree,
        resvg::tiny_skia::Transform::identity(),
        &mut pixmap.as_mut(),
    );
    from_pixmap(&pixmap)
}

/// An `image` buffer as the crate's own RGBA image, for `staunton::snapshot`.
pub fn rgba(img: &RgbaImage) -> staunton::render::RgbaImage {
    staunton::render::RgbaImage {
        width: img.width(),
        height: img.height(),
        pixels: img.as_raw().clone(),
    }
}

/// Compare `actual` with `expected` through the crate's snapshot code
/// ([`staunton::snapshot::compare`]); panics when their sizes differ.
pub fn compare(expected: &RgbaImage, actual: &RgbaImage, tolerance: Tolerance) -> Diff {
    snapshot::compare(&rgba(expected), &rgba(actual), tolerance).expect("image sizes differ")
}

/// Write `actual` and the snapshot code's picture of its `diff` from `expected`
/// ([`staunton::snapshot::diff_image`]) as PNG files.
pub fn write_mismatch(
    expected: &RgbaImage,
    actual: &RgbaImage,
    diff: &Diff,
    (actual_path, diff_path): (&Path, &Path),
) {
    let (expected, actual) = (rgba(expected), rgba(actual));
    snapshot::write_png(actual_path, &actual).expect("write actual");
    let picture = snapshot::diff_image(&expected, &actual, diff).expect("same size");
    snapshot::write_png(diff_path, &picture).expect("write diff");
}

/// Whether golden images are to be rewritten (`UPDATE_GOLDEN=1`).
pub fn updating_golden() -> bool {
    std::env::var_os("UPDATE_GOLDEN").is_some_and(|v| v == "1")
}

/// `png` against the golden image `dir/name.png`: `None` when it matches within
/// `tolerance` (or, when updating, once rewritten); else what is wrong, with the actual
/// image and a picture of the difference written beside the golden one.
pub fn check_golden(dir: &Path, name: &str, png: &[u8], tolerance: Tolerance) -> Option<String> {
    let path = dir.join(format!("{name}.png"));
    if updating_golden() {
        std::fs::write(&path, png).expect("write golden");
        return None;
    }
    let Ok(golden) = std::fs::read(&path) else {
        return Some(format!(
            "{name}: no golden image (run with UPDATE_GOLDEN=1)"
        ));
    };
    let (expected, actual) = (decode(&golden), decode(png));
    if expected.dimensions() != actual.dimensions() {
        return Some(format!(
            "{name}: size {:?}, golden {:?}",
            actual.dimensions(),
            expected.dimensions()
        ));
    }
    let diff = compare(&expected, &actual, tolerance);
    if diff.matches() {
        return None;
    }
    let (a, d) = (
        dir.join(format!("{name}.actual.png")),
        dir.join(format!("{name}.diff.png")),
    );
    write_mismatch(&expected, &actual, &diff, (&a, &d));
    Some(format!(
        "{name}: {} pixels differ (max {})",
        diff.differing, diff.largest
    ))
}

/// Directory of the golden images.
pub fn golden_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests")
        .join("golden")
}

/// Path of a fixture file.
pub fn fixture(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests")
        .join("fixtures")
        .join(name)
}

/// Lines of a fixture file: `(input, expected)` split on the tab, comments skipped.
pub fn fixture_cases(name: &str) -> Vec<(String, String)> {
    let text = std::fs::read_to_string(fixture(name)).expect("fixture file exists");
    text.lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .filter_map(|l| l.split_once('\t'))
        .map(|(a, b)| (a.to_string(), b.to_string()))
        .collect()
}

/// A small deterministic random number generator (xorshift64*), for reproducible cases.
pub struct Rng(pub u64);

impl Rng {
    /// Next 64 random bits.
    pub fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }

    /// A number below `n`.
    pub fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
}

/// A service on a loopback port, stopped by [`Served::stop`].
pub struct Served {
    /// Where it listens.
    pub addr: std::net::SocketAddr,
    stop: tokio::sync::oneshot::Sender<()>,
    handle: tokio::task::JoinHandle<std::io::Result<()>>,
}

impl Served {
    /// Serve `state` on 127.0.0.1 with a `grace` period for shutdown.
    pub async fn start(
        state: std::sync::Arc<staunton::http::AppState>,
        grace: std::time::Duration,
    ) -> Served {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
            .await
            .expect("bind");
        let addr = listener.local_addr().expect("addr");
        let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
        let handle = tokio::spawn(staunton::http::serve(
            listener,
            state,
            async move {
                let _ = stopped.await;
            },
            grace,
        ));
        Served { addr, stop, handle }
    }

    /// Signal shutdown without waiting for the server to stop.
    pub fn signal(self) -> tokio::task::JoinHandle<std::io::Result<()>> {
        let _ = self.stop.send(());
        self.handle
    }

    /// Signal shutdown and wait (at most 5 s) for the server to stop cleanly.
    pub async fn stop(self) {
        let _ = self.stop.send(());
        tokio::time::timeout(std::time::Duration::from_secs(5), self.handle)
            .await
            .expect("stops in time")
            .expect("join")
            .expect("clean shutdown");
    }
}

/// Every path under `dir`, relative, with `/` after folders (what a command left behind).
pub fn listing(dir: &Path) -> std::collections::BTreeSet<String> {
    fn walk(root: &Path, dir: &Path, into: &mut std::collections::BTreeSet<String>) {
        for entry in std::fs::read_dir(dir).expect("listable") {
            let path = entry.expect("entry").path();
            let name = path.strip_prefix(root).expect("under root").display();
            if path.is_dir() {
                into.insert(format!("{name}/"));
                walk(root, &path, into);
            } else {
                into.insert(name.to_string());
            }
        }
    }
    let mut all = std::collections::BTreeSet::new();
    walk(dir, dir, &mut all);
    all
}
