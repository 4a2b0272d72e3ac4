//! The ground floor of `render`: the types every stage shares and hands on, [`RenderError`]
//! (why a render failed), [`Indexed`] (an image as palette indices) and [`RgbaImage`]
//! (straight RGBA pixels), and the one conversion more than one stage runs, SVG to PDF
//! ([`pdf`]), with the structure tree that tags a PDF ([`pdf_tags`]). Every other file of
//! `render` may import these; this file imports nothing of `render`. `render` re-exports
//! the three types, which is their public path.

internal_mod!(pdf);
internal_mod!(pdf_tags);

use thiserror::Error;

/// Why a render failed. User input never reaches these when it went through `request/`.
#[derive(Debug, Error)]
pub enum RenderError {
    /// The options name a piece set this renderer does not have.
    #[error("pieces {} is not allowed: expected one of {}", crate::echo::Echo(.0), .1.join(", "))]
    UnknownPieceSet(String, Vec<String>),
    /// The image could not be allocated.
    #[error("cannot allocate a {0}×{1} image")]
    Allocate(u32, u32),
    /// An encoder failed (an animation without frames, or frames of different sizes).
    #[error("{0}")]
    Encode(String),
    /// The render was stopped because nobody waits for it any more (see `render::cancel`).
    #[error("the render was stopped: its request was abandoned")]
    Cancelled,
}

/// An image as palette indices (one byte per pixel, rows top to bottom) and its palette
/// (RGB triplets, at most 256).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Indexed {
    /// Width in pixels.
    pub width: u32,
    /// Height in pixels.
    pub height: u32,
    /// One palette index per pixel.
    pub indices: Vec<u8>,
    /// RGB triplets.
    pub palette: Vec<u8>,
}

/// An image as straight (not premultiplied) RGBA: four bytes a pixel, rows top to bottom.
/// What [`Renderer::rgba`](crate::render::Renderer::rgba) returns, and what its PNG decodes to.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct RgbaImage {
    /// Width in pixels.
    pub width: u32,
    /// Height in pixels.
    pub height: u32,
    /// `width × height × 4` bytes: red, green, blue, alpha.
    pub pixels: Vec<u8>,
}
