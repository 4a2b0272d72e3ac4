//! The parts a scene is made of: rectangles and row runs on whole pixels, fills, placed
//! pieces, label glyphs and the vector shapes both backends draw alike.
//!
//! Plain data, the floor of `scene/`: every other file here and the painters read it.

use crate::chess::piece::Piece;
use crate::render::spec::theme::Rgba;

/// An axis-aligned rectangle on whole pixels.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Rect {
    /// Left edge.
    pub x: u32,
    /// Top edge.
    pub y: u32,
    /// Width.
    pub w: u32,
    /// Height.
    pub h: u32,
}

impl Rect {
    /// Whether the two share a pixel (the tests' measure of overlap).
    #[cfg(any(test, feature = "bench-internals"))]
    pub fn intersects(&self, other: &Rect) -> bool {
        self.x < other.x + other.w
            && other.x < self.x + self.w
            && self.y < other.y + other.h
            && other.y < self.y + self.h
    }
}

/// Pixels `x0..x1` of row `y`. Sorted lists of runs, none overlapping, say where a
/// partial paint must be right (the indexed path's dirty pixels).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub struct Run {
    /// Row.
    pub y: u32,
    /// First pixel.
    pub x0: u32,
    /// One past the last pixel.
    pub x1: u32,
}

/// A filled rectangle.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Fill {
    /// Where.
    pub rect: Rect,
    /// What colour.
    pub color: Rgba,
}

/// A piece drawn into a square.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct PlacedPiece {
    /// Which piece.
    pub piece: Piece,
    /// The square's top-left corner and side, in pixels.
    pub rect: Rect,
}

/// One character of a coordinate label.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Label {
    /// The character (`a`–`j`, `1`–`8`).
    pub ch: char,
    /// Glyph origin (left end of the baseline), in pixels.
    pub x: f32,
    /// Baseline, in pixels.
    pub y: f32,
    /// Pixels per font unit.
    pub scale: f32,
    /// Colour.
    pub color: Rgba,
}

/// A point in pixels.
pub type Point = (f32, f32);

/// A vector shape, drawn identically by both backends.
#[derive(Debug, Clone, PartialEq)]
pub enum Shape {
    /// A filled rectangle (possibly translucent).
    Rect {
        /// Where.
        rect: Rect,
        /// Colour.
        color: Rgba,
    },
    /// A filled polygon.
    Polygon {
        /// Corners, in order.
        points: Vec<Point>,
        /// Colour.
        color: Rgba,
    },
    /// An open polyline stroked `width` wide, butt ends, mitred corners.
    Line {
        /// Vertices, in order.
        points: Vec<Point>,
        /// Stroke width.
        width: f32,
        /// Colour.
        color: Rgba,
    },
    /// A circle outline.
    Ring {
        /// Centre.
        center: Point,
        /// Radius (to the middle of the stroke).
        radius: f32,
        /// Stroke width.
        width: f32,
        /// Colour.
        color: Rgba,
    },
    /// A filled disc.
    Disc {
        /// Centre.
        center: Point,
        /// Radius.
        radius: f32,
        /// Colour.
        color: Rgba,
    },
    /// A disc filled with a radial gradient, `stops` as (offset 0–1, colour).
    Glow {
        /// Centre.
        center: Point,
        /// Radius.
        radius: f32,
        /// Gradient stops.
        stops: Vec<(f32, Rgba)>,
    },
}
