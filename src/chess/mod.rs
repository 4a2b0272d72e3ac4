//! The chess model: what a position is, read from FEN, and what can be said of it.
//!
//! Knows nothing of pixels or HTTP. `piece` and `position` are the vocabulary, `fen` reads
//! and writes positions, `attacks` finds a king in check, `describe` puts a position into
//! words (alt text and SVG titles).

pub mod attacks;
pub mod describe;
pub mod fen;
pub mod piece;
pub mod position;
