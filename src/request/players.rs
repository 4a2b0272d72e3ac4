//! The players of lila-gif's still route (`/image.gif`): `white` and `black` name the
//! players drawn in bars above and below the board; `comment` is accepted and not drawn.

use super::error::RequestError;
use super::params::{Param, text};
use super::query::Query;
use crate::echo::Echo;

/// Longest player name, in characters.
pub const MAX_PLAYER_CHARS: usize = 100;

/// The parameters `/image.gif` takes beside the diagram's, each with its spellings, what it
/// takes and one sentence.
pub const PLAYER_PARAMS: &[Param] = &[
    text(
        "white",
        &["white"],
        "Carlsen",
        "White's name, in a bar below the board (above, with Black at the bottom).",
    ),
    text(
        "black",
        &["black"],
        "Nakamura",
        "Black's name, in the other bar.",
    ),
    text(
        "comment",
        &["comment"],
        "",
        "Accepted for lila-gif's URLs; not drawn.",
    ),
];

/// The players' names a query gives, White's then Black's: trimmed, `None` when not given
/// or blank, at most [`MAX_PLAYER_CHARS`] characters, one line of printable text (as
/// written: a line break at its end is refused, not cut off) every character of which
/// some font draws.
pub fn players(query: &Query) -> Result<[Option<String>; 2], RequestError> {
    let name = |side: &'static str| -> Result<Option<String>, RequestError> {
        let Some(written) = query.last(Param::of(PLAYER_PARAMS, side)) else {
            return Ok(None);
        };
        let v = written.trim();
        if v.is_empty() {
            return Ok(None);
        }
        if v.chars().count() > MAX_PLAYER_CHARS {
            return Err(RequestError::new(
                side,
                format!(
                    "{side} {} is too long: at most {MAX_PLAYER_CHARS} characters are allowed",
                    Echo(v)
                ),
            ));
        }
        let rule = "a player's name is one line of printable text";
        RequestError::check_line(side, side, written, rule)?;
        Ok(Some(v.to_string()))
    };
    Ok([name("white")?, name("black")?])
}
