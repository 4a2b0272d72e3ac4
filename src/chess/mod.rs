//! The chess model: what a position is, read from FEN, and what can be said of it.
//!
//! Knows nothing of pixels or HTTP. `piece`, `fairy` and `position` are the vocabulary
//! (`fairy`: neutral and turned pieces, text, markers, letter pieces), `fen` reads
//! and writes positions, `attacks` finds a king in check, `describe` puts a position into
//! words (alt text and SVG titles). `epd` reads an EPD line into a position and its
//! operations. `pgn` reads a game's text and `game` plays its moves by the rules (from PGN,
//! SAN or UCI), giving the position after any ply, and `destinations` where one piece may move; `pasted` folds typeset movetext (`0–0`,
//! `♘f3`, `½–½`) into PGN's spelling for both. `annotated` is a game's whole tree
//! (variations, comments, NAGs, diagram markers), every move played: what articles print;
//! `letters` the piece letters moves are written in, by language.

internal_mod!(attacks);
pub mod annotated;
pub mod describe;
pub mod destinations;
pub mod epd;
pub mod fairy;
pub mod fen;
pub mod game;
pub mod letters;
mod pasted;
pub mod pgn;
pub mod piece;
pub mod position;
