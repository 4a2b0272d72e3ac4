//! Renders the contact sheet of the built-in piece set: every piece on a light and a dark
//! square at 24, 48 and 120 px squares, stacked into one PNG.
//!
//! `cargo run --release --example contact_sheet -- docs/src/img/pieces.png`

use image::{Rgba, RgbaImage};
use staunton::{Color, Coordinates, Piece, Position, RenderOptions, Renderer, Role, Square};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let out = std::env::args()
        .nth(1)
        .unwrap_or_else(|| "contact-sheet.png".to_string());
    let renderer = Renderer::default();
    let mut position = Position::empty(8);
    // Rank 8 and 7: the white pieces, each on both square colours; ranks 6 and 5: black.
    for (file, role) in Role::ALL.into_iter().enumerate() {
        let file = file as u8;
        for (color, ranks) in [(Color::White, [7, 6]), (Color::Black, [5, 4])] {
            for rank in ranks {
                position.set(Square::new(file, rank), Some(Piece { color, role }));
            }
        }
    }
    let strips: Vec<RgbaImage> = [24u32, 48, 120]
        .into_iter()
        .map(|square| {
            let options = RenderOptions {
                size: square * 8,
                coordinates: Coordinates::None,
                ..RenderOptions::default()
            };
            let png = renderer.png(&position, &options)?;
            let board = image::load_from_memory(&png)?.to_rgba8();
            Ok(image::imageops::crop_imm(&board, 0, 0, square * 8, square * 4).to_image())
        })
        .collect::<Result<_, Box<dyn std::error::Error>>>()?;
    let gap = 12;
    let width = strips.iter().map(|s| s.width()).max().unwrap_or(0);
    let height = strips.iter().map(|s| s.height() + gap).sum::<u32>() - gap;
    let mut sheet = RgbaImage::from_pixel(width, height, Rgba([255, 255, 255, 255]));
    let mut y = 0;
    for strip in &strips {
        image::imageops::overlay(&mut sheet, strip, 0, i64::from(y));
        y += strip.height() + gap;
    }
    sheet.save(&out)?;
    println!("wrote {out}");
    Ok(())
}
