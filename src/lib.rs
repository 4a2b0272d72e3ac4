//! Staunton turns a chess position written in FEN into a diagram, PNG or SVG.

#![forbid(unsafe_code)]
#![warn(missing_docs)]

pub mod attacks;
pub mod fen;
pub mod piece;
pub mod position;

pub use fen::FenError;
pub use piece::{Color, Piece, Role};
pub use position::{Position, Square};
