//! Chess, one test binary (each module was a test binary of its own; one binary links the
//! crate once): the FEN corpus and the parser's properties (`fen_fixtures`), games against
//! python-chess (`games`), check against cozy-chess (`check_vs_cozy`), descriptions and
//! text boards against golden texts (`describe_golden`, `text_board`).
//!
//! Proptest keeps the failures it found in `tests/proptest-regressions/MODULE.txt` (beside
//! the folder holding this `main.rs`, as proptest looks for them).

#[path = "../common/mod.rs"]
mod common;

mod check_vs_cozy;
mod describe_figures;
mod describe_golden;
mod fairy;
mod fen_fixtures;
mod games;
mod text_board;
