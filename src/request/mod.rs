//! Requests: query parameters (or command-line options) in, a validated [`Request`] out.
//!
//! Owns the boundary: parameter names and their aliases, the accepted values, the limits,
//! and the one-sentence error for every bad value. Everything after this module works on
//! domain types and cannot fail on user input. This file only declares the parts and hands
//! on the names that the rest of the crate uses; the parts import each other as
//! `super::part::Name`, never through this file. The ground floor, which every part may use:
//! `error` (the error), `limits` (the limits), `params` (the parameter tables), `query` (the
//! query read once), `key` (cache keys), `values` (the parsers of single values). Above it:
//! `chosen` (the game a request names), `diagram` (the diagram request), `game` (the
//! whole-game request), and the requests of the other routes.

pub use crate::echo::Echo;
#[doc(no_inline)]
pub use crate::render::animate::Play;

mod error;
internal_mod!(key);
mod limits;
// The query syntax of the service's other routes (move lists, pieces, lila-gif's players).
#[cfg(feature = "server")]
internal_mod!(move_list, piece, players);
pub mod article;
mod fen_url;
mod marks;
mod page;
pub mod puzzles;
mod query;
mod region;
pub mod share_card;
pub mod sheet;
mod unknown;

mod chosen;
mod diagram;
mod game;
mod params;
mod values;

pub use chosen::{Chosen, Described, annotations_at, comment_marks_at};
pub use diagram::Request;
pub use error::RequestError;
pub use game::{GameRequest, MAX_DELAY};
pub use limits::{
    Limits, MAX_ARROWS, MAX_BODY_BYTES, MAX_FEN_BYTES, MAX_PGN_BYTES, MAX_PLIES, MAX_SQUARES,
};
pub use page::{BACKGROUNDS, MAX_CAPTION_CHARS};
#[cfg(feature = "server")]
pub(crate) use params::named;
pub use params::{GAME_PARAMS, PARAMS, Param, ParamKind};
#[cfg(test)]
pub(crate) use query::owned;
pub use query::{Query, names as query_names};
pub use unknown::{Known, SERVICE_PARAMS, Unknown, Unknowns, warning};
pub(crate) use values::parse_flag;
pub use values::{Annotations, parse_format, parse_lang};
