//! The limits of a request: how long a `fen`, a `pgn` or a game may be, how many arrows and
//! squares one diagram marks. The constants are the defaults; [`Limits`] carries the ones a
//! caller (the service's flags, the command line) sets. Owns no parsing: the parsers in
//! `values`, `chosen` and `marks` read these.

use crate::render::options::MAX_SIZE;

/// Longest accepted `fen` value, in bytes: room for a 16×16 board in Fairy FEN.
pub const MAX_FEN_BYTES: usize = 1024;
/// Longest accepted piece-set name, in bytes.
pub(crate) const MAX_NAME_BYTES: usize = 64;
/// Most arrows and circles in one diagram (`arrows` and `[%cal]` together).
pub const MAX_ARROWS: usize = 64;
/// Most marked squares in one list (`squares`, `highlight`, `[%csl]`).
pub const MAX_SQUARES: usize = 80;
/// Longest accepted `pgn` (or `moves`) value, in bytes: a longer game needs POST.
pub const MAX_PGN_BYTES: usize = 16 * 1024;
/// Longest game text read at all, in bytes: the service's longest POSTed body (a PGN), and
/// the longest game a door of [`crate::embed`] takes, as a value or as a text.
pub const MAX_BODY_BYTES: usize = 64 * 1024;
/// Most plies in a game (`pgn`, `moves`, a POSTed PGN).
pub const MAX_PLIES: usize = 1000;

/// The per-parameter limits of a request. The defaults are the constants of this module;
/// the service can set its own (flags of `staunton serve`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    /// Longest `fen`, in bytes.
    pub fen_bytes: usize,
    /// Most arrows and circles (with `[%cal]`).
    pub arrows: usize,
    /// Most squares in `squares`, and in `highlight` with `[%csl]`.
    pub squares: usize,
    /// Largest `size`, at most [`MAX_SIZE`].
    pub max_size: u32,
    /// Longest `pgn` or `moves` in a query, in bytes.
    pub pgn_bytes: usize,
    /// Most plies in a game.
    pub plies: usize,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            fen_bytes: MAX_FEN_BYTES,
            arrows: MAX_ARROWS,
            squares: MAX_SQUARES,
            max_size: MAX_SIZE,
            pgn_bytes: MAX_PGN_BYTES,
            plies: MAX_PLIES,
        }
    }
}
