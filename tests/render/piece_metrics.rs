//! Measuring piece artwork through the public library: each piece rendered alone on a
//! plain board, cut out square by square. Shared by the proportion and decoding tests and
//! by `examples/piece_metrics.rs` (which includes this file by path).
//!
//! - Ink: a pixel with any channel at most [`INK_MAX`] (255 − 48) on a white square; the
//!   ink box is the smallest rectangle holding every ink pixel.
//! - Margin: two tiles of the same square differ by the number of pixels whose luminance
//!   differs by at least [`MARGIN_LUMA`]; a set is legible at a size when every standard
//!   piece's tile differs from every other's on the same square colour by at least
//!   [`required_margin`] such pixels.

#![allow(dead_code)]

use staunton::render::theme::{Rgba, Theme};
use staunton::{Color, Coordinates, Piece, Position, RenderOptions, Renderer, Role, Square};

/// A pixel is ink when one of its channels is at most this (255 − 48): clearly darker than
/// white, so anti-aliased fringes lighter than that do not count.
pub const INK_MAX: u8 = 255 - 48;

/// Pixels whose luminance differs by at least this much tell two tiles apart.
pub const MARGIN_LUMA: f32 = 64.0;

/// The twelve standard pieces: white K Q R B N P, then black.
pub fn standard() -> Vec<Piece> {
    Color::ALL
        .into_iter()
        .flat_map(|color| {
            Role::ALL[..6]
                .iter()
                .map(move |&role| Piece { color, role })
        })
        .collect()
}

/// One square's pixels, RGB, row by row.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Tile {
    /// Side in pixels.
    pub px: u32,
    /// `px` × `px` pixels.
    pub rgb: Vec<[u8; 3]>,
}

/// Which squares of an 8 × 8 board hold which piece: each standard piece on a dark and a
/// light square (white on ranks 8 and 7, black on 6 and 5, files a–f).
fn spread() -> Vec<(Square, Piece)> {
    standard()
        .into_iter()
        .enumerate()
        .flat_map(|(i, piece)| {
            let file = (i % 6) as u8;
            let rank = if i < 6 { 7 } else { 5 };
            [rank, rank - 1].map(|r| (Square::new(file, r), piece))
        })
        .collect()
}

/// Render `position` from `set` with squares of `px` pixels, no coordinates, `theme`; the
/// tile of every square asked for.
fn tiles_of(
    renderer: &Renderer,
    set: &str,
    theme: Theme,
    px: u32,
    squares: &[(Square, Piece)],
) -> Vec<Tile> {
    let mut position = Position::empty(8);
    for &(square, piece) in squares {
        position.set(square, Some(piece));
    }
    let options = RenderOptions {
        size: px * 8,
        coordinates: Coordinates::None,
        piece_set: set.to_string(),
        theme,
        ..RenderOptions::default()
    };
    let pixmap = renderer.pixmap(&position, &options).expect("renders");
    let width = pixmap.width() as usize;
    squares
        .iter()
        .map(|&(square, _)| {
            let (x0, y0) = (
                u32::from(square.file) * px,
                (7 - u32::from(square.rank)) * px,
            );
            let rgb = (y0..y0 + px)
                .flat_map(|y| (x0..x0 + px).map(move |x| (x, y)))
                .map(|(x, y)| {
                    let at = (y as usize * width + x as usize) * 4;
                    let p = &pixmap.data()[at..at + 3];
                    [p[0], p[1], p[2]]
                })
                .collect();
            Tile { px, rgb }
        })
        .collect()
}

/// A theme whose squares are all `color`.
fn plain(color: Rgba) -> Theme {
    let mut theme = Theme::named("brown").expect("a built-in theme");
    theme.light = color;
    theme.dark = color;
    theme
}

/// The ink box of a tile: left, top, width, height in pixels; `None` if there is no ink.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct InkBox {
    /// First column with ink.
    pub left: u32,
    /// First row with ink.
    pub top: u32,
    /// Columns from the first to the last with ink.
    pub width: u32,
    /// Rows from the first to the last with ink.
    pub height: u32,
}

impl InkBox {
    /// The box of the ink in `tile`.
    pub fn of(tile: &Tile) -> Option<InkBox> {
        let ink = |p: &[u8; 3]| p.iter().any(|&c| c <= INK_MAX);
        let (mut x0, mut y0, mut x1, mut y1) = (u32::MAX, u32::MAX, 0, 0);
        for (i, _) in tile.rgb.iter().enumerate().filter(|(_, p)| ink(p)) {
            let (x, y) = (i as u32 % tile.px, i as u32 / tile.px);
            (x0, y0, x1, y1) = (x0.min(x), y0.min(y), x1.max(x), y1.max(y));
        }
        (x0 != u32::MAX).then(|| InkBox {
            left: x0,
            top: y0,
            width: x1 - x0 + 1,
            height: y1 - y0 + 1,
        })
    }

    /// The difference between the box's margins left and right on a `px` square, in
    /// pixels: twice how far its centre is from the square's (whole, where the distance
    /// may be a half).
    pub fn off_centre(&self, px: u32) -> u32 {
        let right = px - self.left - self.width;
        self.left.abs_diff(right)
    }
}

/// The ink box of each standard piece of `set` alone on a white `px` square (white K Q R
/// B N P, then black).
pub fn ink_boxes(renderer: &Renderer, set: &str, px: u32) -> Vec<(Piece, Option<InkBox>)> {
    let squares: Vec<(Square, Piece)> = spread().into_iter().step_by(2).collect();
    let tiles = tiles_of(renderer, set, plain(Rgba::hex(0xffffff)), px, &squares);
    squares
        .iter()
        .zip(&tiles)
        .map(|(&(_, piece), tile)| (piece, InkBox::of(tile)))
        .collect()
}

/// Each standard piece's tile of `set` on a dark and on a light square of the default
/// theme at `px`: (piece, dark square?, tile).
pub fn reference_tiles(renderer: &Renderer, set: &str, px: u32) -> Vec<(Piece, bool, Tile)> {
    let squares = spread();
    let theme = RenderOptions::default().theme;
    let tiles = tiles_of(renderer, set, theme, px, &squares);
    squares
        .iter()
        .zip(tiles)
        .map(|(&(square, piece), tile)| (piece, square.is_dark(), tile))
        .collect()
}

fn luma(p: &[u8; 3]) -> f32 {
    0.299 * f32::from(p[0]) + 0.587 * f32::from(p[1]) + 0.114 * f32::from(p[2])
}

/// The pixels of two tiles of one size whose luminance differs by at least
/// [`MARGIN_LUMA`].
pub fn margin(a: &Tile, b: &Tile) -> usize {
    a.rgb
        .iter()
        .zip(&b.rgb)
        .filter(|(p, q)| (luma(p) - luma(q)).abs() >= MARGIN_LUMA)
        .count()
}

/// The margin two tiles of `px` pixels a side must have: 1 % of the pixels, at least 4.
pub fn required_margin(px: u32) -> usize {
    ((px * px) as usize / 100).max(4)
}

/// The pairs of standard pieces of `set` at `px` closer than [`required_margin`], each as
/// (piece, other piece, dark square?, margin).
pub fn too_close(renderer: &Renderer, set: &str, px: u32) -> Vec<(Piece, Piece, bool, usize)> {
    let tiles = reference_tiles(renderer, set, px);
    let need = required_margin(px);
    let mut close = Vec::new();
    for (i, (a, dark, ta)) in tiles.iter().enumerate() {
        for (b, _, tb) in tiles[i + 1..].iter().filter(|(_, d, _)| d == dark) {
            let m = margin(ta, tb);
            if m < need {
                close.push((*a, *b, *dark, m));
            }
        }
    }
    close
}

/// The smallest square size in `sizes` from which up every size of `sizes` keeps all the
/// standard pieces of `set` apart; `None` if even the largest does not.
pub fn smallest_legible(
    renderer: &Renderer,
    set: &str,
    sizes: std::ops::RangeInclusive<u32>,
) -> Option<u32> {
    let mut smallest = None;
    for px in sizes.rev() {
        if !too_close(renderer, set, px).is_empty() {
            break;
        }
        smallest = Some(px);
    }
    smallest
}
