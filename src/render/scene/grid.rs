//! Where things go: the image's size, its margins and bands ([`Layout`]), and the board's
//! squares on screen ([`Grid`]: which are drawn, and the pixel rectangle of each).

use super::parts::{Point, Rect};
use super::region::Cut;
use crate::chess::piece::Color;
use crate::chess::position::Square;
use crate::render::spec::options::{Coordinates, Region};

/// Board and margin sizes for an image `size` px wide.
pub(super) struct Layout {
    pub(super) square: u32,
    /// Left edge of the board.
    pub(super) left: u32,
    /// Top edge of the board.
    pub(super) top: u32,
    /// Label band on each side of the board (coordinates outside), else 0.
    pub(super) margin: u32,
    /// Height of each pocket strip (crazyhouse), else 0.
    pub(super) pocket: u32,
    pub(super) width: u32,
    pub(super) height: u32,
    pub(super) frame: u32,
    /// Thickness of a region's cut-edge dashes.
    pub(super) cut: u32,
}

/// What besides the board needs room.
pub(super) struct Extras {
    /// Pieces in hand above and below the board.
    pub(super) pockets: bool,
    /// A side-to-move marker to the right of the board.
    pub(super) marker: bool,
    /// The cut edges of a region, on screen.
    pub(super) cut: Cut,
}

pub(super) fn layout(size: u32, files: u32, ranks: u32, coordinates: Coordinates, extras: Extras) -> Layout {
    let (square, margin, frame) = match coordinates {
        Coordinates::Outside => {
            // A margin of about 5 % of the width on every side holds the labels; the squares
            // take what is left, whole pixels each, and the rest goes back to the margins.
            let margin = size.div_ceil(20).max(1);
            let square = (size.saturating_sub(2 * margin) / files).max(1);
            let margin = size.saturating_sub(square * files) / 2;
            (square, margin, (square / 28).clamp(1, margin.max(1)))
        }
        Coordinates::Inside | Coordinates::None => ((size / files).max(1), 0, 0),
    };
    // Without a margin, a cut edge gets a band of its own for its dashes.
    let (square, cut, bands) = match coordinates {
        Coordinates::Outside => (square, frame.max(2).min(margin.max(1)), [0; 4]),
        _ => extras.cut.bands(size, files),
    };
    let [band_left, band_top, band_right, band_bottom] = bands;
    let pocket = if extras.pockets { square * 9 / 10 } else { 0 };
    // Outside, the marker sits in the margin; otherwise it gets a strip of its own.
    let marker = if extras.marker && margin == 0 {
        (square * 2 / 5).max(6)
    } else {
        0
    };
    let board_w = square * files;
    let width = match coordinates {
        Coordinates::Outside => size.max(board_w),
        _ => band_left + board_w + band_right + marker,
    };
    Layout {
        square,
        left: margin + band_left,
        top: pocket + margin + band_top,
        margin,
        pocket,
        width,
        height: 2 * pocket + 2 * margin + square * ranks + band_top + band_bottom,
        frame,
        cut,
    }
}

/// Where squares are on screen: the board rectangle (of the region drawn), the square
/// size and the turn.
#[derive(Debug, Clone, Copy)]
pub(super) struct Grid {
    pub(super) board: Rect,
    pub(super) square: u32,
    /// The squares drawn: the whole board, or a region of it.
    pub(super) region: Region,
    pub(super) files: u32,
    pub(super) ranks: u32,
    pub(super) bottom: Color,
}

impl Grid {
    /// Whether `s` is drawn.
    pub(super) fn shows(&self, s: Square) -> bool {
        self.region.contains(s)
    }

    /// The pixel rectangle of `s` (a square the grid shows).
    pub(super) fn rect(&self, s: Square) -> Rect {
        let low = self.region.low;
        let f = u32::from(s.file.saturating_sub(low.file));
        let r = u32::from(s.rank.saturating_sub(low.rank));
        let (col, row) = match self.bottom {
            Color::White => (f, self.ranks - 1 - r),
            Color::Black => (self.files - 1 - f, r),
        };
        Rect {
            x: self.board.x + col * self.square,
            y: self.board.y + row * self.square,
            w: self.square,
            h: self.square,
        }
    }
}

pub(super) fn centre(grid: &Grid, s: Square) -> Point {
    let r = grid.rect(s);
    let half = grid.square as f32 / 2.0;
    (r.x as f32 + half, r.y as f32 + half)
}
