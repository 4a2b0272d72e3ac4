//! A laid-out scene drawn: as SVG text ([`svg`]; its portable form's pieces in
//! `svg_portable`, its numbers in `svg_number`, its ids made its own in `svg_ids`), or as
//! pixels, by the [`raster`] painter (piece sprites, mark stamps, anti-aliased shapes,
//! RGBA) and the [`indexed`] composer (a
//! board's tiles as palette indices, painting RGBA only where the tiles do not cover it),
//! over the [`palette`] both build and the PNG encoder reuses. Beside them, [`text_board`]
//! writes a position as text, no scene needed.
//!
//! Reads `spec`, `art` and `scene`; nothing here encodes a file.

internal_mod!(compose, indexed, palette, raster, svg);
mod svg_ids;
mod svg_number;
mod svg_portable;
pub mod text_board;
