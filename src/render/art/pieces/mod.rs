//! Piece sets: the artwork of each piece, parsed once, ready for both backends.
//!
//! A set holds, for each of the 16 pieces, a parsed usvg tree (rasterised into sprites by
//! `paint/raster/`) and a normalised `<symbol>` body (written once per used piece by
//! `paint/svg.rs`). The built-in sets are compiled into the binary. A set may also carry a
//! hinted drawing of each piece, which raster output uses for squares under
//! [`HINT_BELOW_PX`] (vector output, scaled by its viewer, always draws the full one).
//!
//! Every piece SVG goes through usvg, with a resolver that loads no external files or
//! images, and is written back by usvg's own writer: what reaches an SVG answer is usvg's
//! output (paths and groups), never the raw file, so a set cannot smuggle scripts or links.
//!
//! This file is the public face; the work is in three files, each using only those
//! before it:
//!
//! ```text
//!  drawing.rs   the artwork: PieceArt, ArtPath, usvg's output made into them, the built-in SVG
//!  vetting.rs   untrusted SVG checked: PieceSetError, the limits, the censuses, the trial
//!  sets.rs      PieceSet and PieceSets: loading (built in, from text, from a folder), lookup
//! ```

mod drawing;
mod sets;
mod vetting;

pub use drawing::{ArtPath, BUILTIN_PIECE_SETS, CLASSIC_PIECE_SET, HINT_BELOW_PX, PieceArt};
pub use sets::{PieceSet, PieceSets};
pub use vetting::{
    MAX_DRAWING_WORK, MAX_EXPANDED_BYTES, MAX_EXPANDED_NODES, MAX_GROUP_DEPTH, MAX_PIECE_BYTES,
    MAX_PIECE_NODES, MAX_TURBULENCE_OCTAVES, PieceSetError, TRIAL_BUDGET, TRIAL_PX,
};
