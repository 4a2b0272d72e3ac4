//! Renders contact sheets of a piece set, one PNG per built-in theme: for each square size
//! of [`SIZES`], the twelve standard pieces (white K Q R B N P, then black) on light
//! squares, then on dark squares; a white gap between sizes.
//!
//! `cargo run --release --example contact_sheet -- <out-folder> [set-name] [pieces-dir]`
//!
//! Writes `<out-folder>/pieces-<theme>.png` for the default set `staunton`, and
//! `<set-name>-pieces-<theme>.png` for any other; `pieces-dir` loads more sets, as
//! `--pieces-dir` does.

use image::{Rgba, RgbaImage};
use staunton::render::pieces::PieceSets;
use staunton::render::theme::{THEME_NAMES, Theme};
use staunton::{Color, Coordinates, Piece, Position, RenderOptions, Renderer, Role, Square};

/// The square sizes drawn, in pixels.
const SIZES: [u32; 5] = [16, 24, 32, 64, 128];

/// White space between the sizes, in pixels.
const GAP: u32 = 12;

/// The twelve standard pieces, white first, each with a square of each colour for it: the
/// white pieces on files a–f of ranks 8 and 7, the black ones on ranks 6 and 5.
fn layout() -> Vec<(Piece, [Square; 2])> {
    Color::ALL
        .into_iter()
        .flat_map(|color| {
            Role::ALL[..6]
                .iter()
                .map(move |&role| Piece { color, role })
        })
        .enumerate()
        .map(|(i, piece)| {
            let (file, rank) = ((i % 6) as u8, if i < 6 { 7 } else { 5 });
            (
                piece,
                [Square::new(file, rank), Square::new(file, rank - 1)],
            )
        })
        .collect()
}

/// Two rows of tiles at `px`: the pieces on light squares, then on dark squares.
fn strip(
    renderer: &Renderer,
    set: &str,
    theme: Theme,
    px: u32,
) -> Result<RgbaImage, Box<dyn std::error::Error>> {
    let pieces = layout();
    let mut position = Position::empty(8);
    for (piece, squares) in &pieces {
        for square in squares {
            position.set(*square, Some(*piece));
        }
    }
    let options = RenderOptions {
        size: px * 8,
        coordinates: Coordinates::None,
        piece_set: set.to_string(),
        theme,
        ..RenderOptions::default()
    };
    let board = image::load_from_memory(&renderer.png(&position, &options)?)?.to_rgba8();
    let mut strip = RgbaImage::new(px * pieces.len() as u32, px * 2);
    for (i, (_, squares)) in pieces.iter().enumerate() {
        for square in squares {
            let (x, y) = (
                u32::from(square.file) * px,
                (7 - u32::from(square.rank)) * px,
            );
            let tile = image::imageops::crop_imm(&board, x, y, px, px).to_image();
            let row = u32::from(square.is_dark());
            image::imageops::replace(
                &mut strip,
                &tile,
                i64::from(i as u32 * px),
                i64::from(row * px),
            );
        }
    }
    Ok(strip)
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut args = std::env::args().skip(1);
    let out = std::path::PathBuf::from(
        args.next()
            .ok_or("usage: contact_sheet <out-folder> [set-name] [pieces-dir]")?,
    );
    let set = args
        .next()
        .unwrap_or_else(|| staunton::render::options::DEFAULT_PIECE_SET.to_string());
    let sets = match args.next() {
        Some(dir) => {
            let (sets, problems) = PieceSets::with_dir(std::path::Path::new(&dir));
            for problem in problems {
                eprintln!("{problem}");
            }
            sets
        }
        None => PieceSets::builtin(),
    };
    if sets.get(&set).is_none() {
        let known: Vec<&str> = sets.names().collect();
        return Err(format!("no set \"{set}\"; known: {}", known.join(", ")).into());
    }
    let renderer = Renderer::new(sets, 1 << 26);
    std::fs::create_dir_all(&out)?;
    let prefix = if set == staunton::render::options::DEFAULT_PIECE_SET {
        String::new()
    } else {
        format!("{set}-")
    };
    for name in THEME_NAMES {
        let theme = Theme::named(name).ok_or("a built-in theme")?;
        let strips = SIZES
            .iter()
            .map(|&px| strip(&renderer, &set, theme, px))
            .collect::<Result<Vec<_>, _>>()?;
        let width = strips.iter().map(RgbaImage::width).max().unwrap_or(0);
        let height = strips.iter().map(|s| s.height() + GAP).sum::<u32>() - GAP;
        let mut sheet = RgbaImage::from_pixel(width, height, Rgba([255, 255, 255, 255]));
        let mut y = 0;
        for strip in &strips {
            image::imageops::replace(&mut sheet, strip, 0, i64::from(y));
            y += strip.height() + GAP;
        }
        let path = out.join(format!("{prefix}pieces-{name}.png"));
        sheet.save(&path)?;
        println!("wrote {}", path.display());
    }
    Ok(())
}
