//! Piece requests: `/piece.svg` query parameters in, a validated [`PieceRequest`] out.
//!
//! Owns that route's two parameters and their one-sentence errors: which piece (`piece`,
//! a code such as `wN`) of which set (`pieces`, read as on a diagram). Whether the set is
//! loaded is the renderer's to say; drawing the piece is `render::pieces`.

use super::error::RequestError;
use super::key::KeyWriter;
use super::params::{Param, ParamKind, param};
use super::query::Query;
use super::values::parse_piece_set;
use crate::chess::piece::{Color, Piece, Role};
use crate::render::options::DEFAULT_PIECE_SET;

/// Every piece code `piece` takes: the standard twelve, then archbishop and chancellor.
pub const PIECE_CODES: [&str; 16] = [
    "wK", "wQ", "wR", "wB", "wN", "wP", "bK", "bQ", "bR", "bB", "bN", "bP", "wA", "wC", "bA", "bC",
];

/// The parameters of `/piece.svg`. Unlike on a diagram, `piece` names the piece here; the
/// set is `pieces` (or `pieceSet`).
pub const PIECE_PARAMS: &[Param] = &[
    param(
        "piece",
        &["piece"],
        ParamKind::Choice(&PIECE_CODES),
        "The piece: `w` or `b`, then `K`, `Q`, `R`, `B`, `N`, `P`, or `A` (archbishop) and `C` (chancellor) of 10×8 boards (case-insensitive).",
    ),
    param(
        "pieces",
        &["pieces", "pieceset", "piece_set"],
        ParamKind::PieceSet,
        "The piece set: `staunton` (the default) and `staunton-classic` (its first design) are built in; the others are those this service has loaded (`--pieces-dir`).",
    ),
];

/// A validated request for one piece of a set.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PieceRequest {
    /// The piece.
    pub piece: Piece,
    /// The set's name, lower case (not yet checked against the loaded sets).
    pub piece_set: String,
}

impl PieceRequest {
    /// Validate a URL query string (without the `?`); later pairs override earlier ones,
    /// unknown names are ignored.
    #[cfg(test)]
    pub fn from_query(query: &str) -> Result<PieceRequest, RequestError> {
        PieceRequest::read(&Query::parse(query))
    }

    /// The request in `query`'s pairs.
    pub fn read(query: &Query) -> Result<PieceRequest, RequestError> {
        let get = |name: &str| query.last(Param::of(PIECE_PARAMS, name));
        let piece = match get("piece") {
            Some(v) => parse_piece_code(v)?,
            None => {
                return Err(RequestError::missing(
                    "piece",
                    format!("give one of {}", PIECE_CODES.join(", ")),
                ));
            }
        };
        let piece_set = get("pieces")
            .map(parse_piece_set)
            .transpose()?
            .unwrap_or_else(|| DEFAULT_PIECE_SET.to_string());
        Ok(PieceRequest { piece, piece_set })
    }

    /// The cache key: the renderer version, the set and the piece.
    pub fn cache_key(&self) -> String {
        KeyWriter::new("piece")
            .field(&self.piece_set)
            .field(self.piece.code())
            .finish()
    }
}

/// `wN`, `bk`, …: a colour letter then a role letter, either case.
fn parse_piece_code(value: &str) -> Result<Piece, RequestError> {
    let bad = || {
        RequestError::bad_value(
            "piece",
            value,
            &format!("expected one of {}", PIECE_CODES.join(", ")),
        )
    };
    let mut chars = value.trim().chars();
    let (Some(color), Some(role), None) = (chars.next(), chars.next(), chars.next()) else {
        return Err(bad());
    };
    let color = match color.to_ascii_lowercase() {
        'w' => Color::White,
        'b' => Color::Black,
        _ => return Err(bad()),
    };
    let role = Role::from_letter(role.to_ascii_uppercase()).ok_or_else(bad)?;
    Ok(Piece { color, role })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_code_names_its_piece_and_the_set_defaults_to_the_built_in_one() {
        for code in PIECE_CODES {
            let r = PieceRequest::from_query(&format!("piece={code}")).expect(code);
            assert_eq!(r.piece.code(), code);
            assert_eq!(r.piece_set, DEFAULT_PIECE_SET);
        }
        let r = PieceRequest::from_query("PIECE=bn&pieceSet=Merida").expect("aliases");
        assert_eq!(r.piece.code(), "bN");
        assert_eq!(r.piece_set, "merida");
        assert_ne!(
            PieceRequest::from_query("piece=wK").map(|r| r.cache_key()),
            PieceRequest::from_query("piece=wQ").map(|r| r.cache_key())
        );
    }

    #[test]
    fn bad_pieces_name_the_parameter_and_the_codes() {
        for (query, param, words) in [
            ("", "piece", "piece is missing: give one of wK, wQ"),
            (
                "piece=wX",
                "piece",
                "piece \"wX\" is not allowed: expected one of wK",
            ),
            ("piece=K", "piece", "piece \"K\" is not allowed"),
            ("piece=wKK", "piece", "piece \"wKK\" is not allowed"),
            ("piece=rK", "piece", "piece \"rK\" is not allowed"),
            (
                "piece=wK&pieces=a/b",
                "pieces",
                "pieces \"a/b\" is not allowed",
            ),
        ] {
            let e = PieceRequest::from_query(query).expect_err(query);
            assert_eq!(e.param, param, "{query}");
            assert!(e.to_string().starts_with(words), "{query}: {e}");
        }
    }
}
