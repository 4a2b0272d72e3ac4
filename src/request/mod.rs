//! Requests: query parameters (or command-line options) in, a validated [`Request`] out.
//!
//! Owns the boundary: parameter names and their aliases, the accepted values, the limits,
//! and the one-sentence error for every bad value. Everything after this module works on
//! domain types and cannot fail on user input. This file holds what every part shares (the
//! error, the limits); the parameter tables are in `params`, the diagram request in
//! `diagram`, the game a request names in `chosen`, the whole-game request in `game`, and the
//! parsers of single values in `values`.

pub use crate::echo::Echo;
#[doc(no_inline)]
pub use crate::render::animate::Play;
use crate::render::options::MAX_SIZE;
use thiserror::Error;

internal_mod!(key);
// The query syntax of the service's other routes (move lists, pieces, lila-gif's players).
#[cfg(feature = "server")]
internal_mod!(move_list, piece, players);
mod fen_url;
mod marks;
mod page;
pub use page::{BACKGROUNDS, MAX_CAPTION_CHARS};
pub mod article;
pub mod puzzles;
mod query;
mod region;
pub mod share_card;
pub mod sheet;
mod unknown;

pub use query::{Query, names as query_names};
pub use unknown::{Known, SERVICE_PARAMS, Unknown, Unknowns, warning};

mod chosen;
mod diagram;
mod game;
mod params;
mod values;

pub(crate) use chosen::check_pgn_text;
pub use chosen::{Chosen, Described, annotations_at, comment_marks_at};
pub use diagram::Request;
pub use game::{GameRequest, MAX_DELAY};
pub(crate) use params::named;
pub use params::{GAME_PARAMS, PARAMS, Param, ParamKind};
pub use values::{Annotations, parse_lang};
pub(crate) use values::{command_size, parse_annotations, parse_fen, parse_flag, parse_reading};
// What the other parts of the request (sheets, cards, marks, pages) read through `super::`.
use params::{param, text};
use values::{items, parse_arrow, parse_color};
#[cfg(feature = "server")]
use {chosen::choose_game, values::parse_piece_set};

/// Longest accepted `fen` value, in bytes: room for a 16×16 board in Fairy FEN.
pub const MAX_FEN_BYTES: usize = 1024;
/// Longest accepted piece-set name, in bytes.
const MAX_NAME_BYTES: usize = 64;
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

/// A bad parameter: its name, the value as sent (shortened), and what is allowed.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error("{message}")]
pub struct RequestError {
    /// The parameter at fault (canonical name).
    pub param: &'static str,
    message: String,
}

/// What a one-line text parameter (a sheet's `caption`, a card's `title`) must be.
const ONE_LINE: &str =
    "expected one line of printable text, without control characters (tabs, line breaks)";

impl RequestError {
    /// The error of `param` saying `message`, in which a character a sentence may not repeat
    /// as itself (a control, a separator, a bidirectional control, one no font draws) is
    /// written as its code point (see [`crate::echo::tame`]).
    pub(crate) fn new(param: &'static str, message: impl Into<String>) -> RequestError {
        let message = message.into();
        let message = match crate::echo::tame(&message) {
            std::borrow::Cow::Borrowed(_) => message,
            std::borrow::Cow::Owned(tamed) => tamed,
        };
        RequestError { param, message }
    }

    /// `param` was not given: "{param} is missing: {hint}".
    pub(crate) fn missing(param: &'static str, hint: impl std::fmt::Display) -> RequestError {
        RequestError::new(param, format!("{param} is missing: {hint}"))
    }

    /// Two parameters that exclude each other were both given, named by `param`:
    /// "{both} cannot both be given: {why}".
    pub(crate) fn not_both(param: &'static str, both: &str, why: &str) -> RequestError {
        RequestError::new(param, format!("{both} cannot both be given: {why}"))
    }

    pub(crate) fn bad_value(param: &'static str, value: &str, allowed: &str) -> RequestError {
        RequestError::new(
            param,
            format!("{param} {} is not allowed: {allowed}", Echo(value)),
        )
    }

    /// `text` is one line of printable text, or the error of `param` naming its first
    /// character that may not stand in one ([`crate::echo::unfit_in_line`]: a control
    /// character, a line or paragraph separator, a bidirectional control): "`label` `value`
    /// has the character U+2028 at character 3, a line separator, which breaks the line:
    /// `rule`". `value` is what was written, `text` what is checked (often the same).
    pub(crate) fn check_printable(
        param: &'static str,
        label: &str,
        value: &str,
        text: &str,
        rule: &str,
    ) -> Result<(), RequestError> {
        match crate::echo::first_unfit_in_line(text) {
            Some((at, c, why)) => Err(RequestError::new(
                param,
                format!(
                    "{label} {} has the character {} at character {at}, {why}: {rule}",
                    Echo(value),
                    crate::echo::CodePoint(c)
                ),
            )),
            None => Ok(()),
        }
    }

    /// Every character of `text` is drawn by some face (the built-in one, an added font,
    /// an installed one), or the error of `param` naming the first that is not: "`label`
    /// `value` has the character U+767D at character 3, which cannot be drawn: …".
    /// `value` is what was written, `text` what is drawn (often the same).
    pub(crate) fn check_drawable(
        param: &'static str,
        label: &str,
        value: &str,
        text: &str,
    ) -> Result<(), RequestError> {
        use crate::render::scene::caption;
        let Some(c) = caption::missing_glyph(text) else {
            return Ok(());
        };
        let at = text.chars().position(|t| t == c).map_or(1, |i| i + 1);
        Err(RequestError::new(
            param,
            format!(
                "{label} {} has the character {} at character {at}, which cannot be drawn: {}",
                Echo(value),
                crate::echo::CodePoint(c),
                caption::no_glyph_reason()
            ),
        ))
    }

    /// [`RequestError::check_printable`], then [`RequestError::check_drawable`], of `value`
    /// itself: one line of text every character of which is drawn.
    pub(crate) fn check_line(
        param: &'static str,
        label: &str,
        value: &str,
        rule: &str,
    ) -> Result<(), RequestError> {
        RequestError::check_printable(param, label, value, value, rule)?;
        RequestError::check_drawable(param, label, value, value)
    }
}
