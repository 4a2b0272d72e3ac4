//! Render options: how a position is drawn, as domain values that cannot be invalid.
//!
//! Owns the option types and their defaults. Reading them from text (query strings,
//! command-line flags) and the error messages for bad values are `request.rs`.

use crate::piece::Color;
use std::fmt;

/// Smallest accepted image width in pixels.
pub const MIN_SIZE: u32 = 16;
/// Largest accepted image width in pixels.
pub const MAX_SIZE: u32 = 2048;
/// Default image width in pixels.
pub const DEFAULT_SIZE: u32 = 400;
/// Name of the built-in piece set.
pub const DEFAULT_PIECE_SET: &str = "staunton";

/// Which side is at the bottom of the diagram.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum Orientation {
    /// White at the bottom.
    #[default]
    White,
    /// Black at the bottom.
    Black,
    /// The side to move at the bottom.
    Turn,
}

impl Orientation {
    /// The colour at the bottom for a position with `turn` to move.
    pub fn bottom(self, turn: Color) -> Color {
        match self {
            Orientation::White => Color::White,
            Orientation::Black => Color::Black,
            Orientation::Turn => turn,
        }
    }
}

/// Where coordinate labels go.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum Coordinates {
    /// In a margin around the board, with a thin frame.
    #[default]
    Outside,
    /// On the edge squares; the image is exactly the board.
    Inside,
    /// No labels; the image is exactly the board.
    None,
}

impl fmt::Display for Coordinates {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Coordinates::Outside => "outside",
            Coordinates::Inside => "inside",
            Coordinates::None => "none",
        })
    }
}

/// Output encoding.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum Format {
    /// PNG, 8-bit RGB.
    #[default]
    Png,
    /// Self-contained SVG.
    Svg,
}

impl Format {
    /// The MIME type of the encoding.
    pub fn content_type(self) -> &'static str {
        match self {
            Format::Png => "image/png",
            Format::Svg => "image/svg+xml",
        }
    }

    /// The usual file extension, without the dot.
    pub fn extension(self) -> &'static str {
        match self {
            Format::Png => "png",
            Format::Svg => "svg",
        }
    }
}

/// Everything that decides how a position looks.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct RenderOptions {
    /// Width of the whole image in pixels, [`MIN_SIZE`]..=[`MAX_SIZE`].
    pub size: u32,
    /// Which side is at the bottom.
    pub orientation: Orientation,
    /// Where labels go.
    pub coordinates: Coordinates,
    /// Name of the piece set.
    pub piece_set: String,
}

impl Default for RenderOptions {
    fn default() -> Self {
        RenderOptions {
            size: DEFAULT_SIZE,
            orientation: Orientation::White,
            coordinates: Coordinates::Outside,
            piece_set: DEFAULT_PIECE_SET.to_string(),
        }
    }
}

impl RenderOptions {
    /// The same options with `size` clamped into the accepted range.
    pub fn clamped(mut self) -> Self {
        self.size = self.size.clamp(MIN_SIZE, MAX_SIZE);
        self
    }
}
