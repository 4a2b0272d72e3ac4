//! FEN: reading and writing positions as Forsyth–Edwards Notation.
//!
//! Owns the text form of a [`Position`]: [`parse`] (also [`Position`]'s `FromStr`), the
//! canonical writer ([`Position`]'s `Display`), [`placement`], and [`FenError`]. It does not
//! own the board model (`position.rs`) nor the request limits (the HTTP layer caps the
//! length at 1024 bytes; the parser itself is linear and allocates O(input)).
//!
//! What is accepted, beyond plain six-field FEN:
//!
//! - the placement field alone, or any prefix of the six fields (the missing fields default
//!   to `w - - 0 1`);
//! - `_` standing for a space (URLs), and fields separated by several spaces;
//! - surrounding white space, a PGN tag `[FEN "…"]` (or `[FEN '…']`), or the whole FEN in
//!   `[…]` as the Italian Wikipedia writes it; a wrapper starts at the very first character,
//!   so a pocket `[…]` right after the placement is not one;
//! - `start` and `empty`, in any case, for the start position and the empty 8×8 board;
//! - any board from 1×1 to 16×16: the ranks are the `/`-separated parts, the first rank's
//!   width sets the files and every other rank must match; digits next to each other form
//!   one number, so `10` counts ten empty squares; `A` archbishop and `C` chancellor
//!   (Capablanca X-FEN, grand chess) on any board;
//! - crazyhouse: `~` right after a piece marks it promoted; the pieces in hand either in
//!   brackets right after the placement (`…/RNBQKBNR[Qn]`, `[]` for none) or, on a board 8
//!   or 10 files wide, as a ninth `/`-rank of piece letters without digits
//!   (`…/RNBQKBNR/Qn`, empty for none);
//! - castling as `KQkq` in any order, X-FEN or Shredder-FEN file letters (`HAha`, `A`–`H`,
//!   `A`–`J` on 10 files, up to `A`–`P`), stored in a canonical order: white first, `K`, `Q`, then file
//!   letters from a; each letter at most once;
//! - an X-FEN castling type as the first character of the castling field, on 8 and 10
//!   files: `s` symmetric castling (Janus chess), `m` modern castling (Embassy chess), then
//!   the letters or `-` (`sKQkq`, `m-`); kept and written back, drawn the same; a type alone
//!   or anywhere else is an error;
//! - leading zeros in the clocks, and a full-move number of 0.
//!
//! Two other dialects are read when asked for ([`Dialect`], [`parse_with`]), because their
//! letters mean other things: **Fairy FEN** (Joost de Heer's, as MuTsunTsai's fen-tool
//! reads it: `-k` neutral, `*1`–`*3` turned, `'A` and `''12` text, the markers `c` circle,
//! `x` cross, `s` square and `t` triangle; `~` may stand for `-`), and **letters**, where
//! a letter with no artwork (`e`, `z`) is a letter piece.
//!
//! Everything present is validated; no legality rules apply (a diagram may lack kings, show
//! nine queens or pawns on the first rank). Errors name the field, the rank and the column,
//! repeat at most 40 characters of the input (non-printable and non-ASCII characters shown
//! as `?`), and say what is allowed.
//!
//! The parts: `dialect` names the dialects, `error` holds [`FenError`] and its sentences,
//! `placement` reads the placement field and its pocket (`rank` reads one rank of it),
//! `fields` reads the castling, en passant and clock fields, and `write` writes a position
//! back. This file reads a whole FEN with them.

use crate::chess::piece::Color;
use crate::chess::position::{BoardSize, Position};
use std::str::FromStr;

mod dialect;
mod error;
mod fields;
mod placement;
mod rank;
mod write;

pub use dialect::Dialect;
pub use error::{FenError, FenErrorKind, NumberField};
pub use write::placement;

use error::echo;
use fields::{parse_castling, parse_en_passant, parse_number};
use placement::parse_placement;

impl FromStr for Position {
    type Err = FenError;

    /// Same as [`parse`].
    fn from_str(s: &str) -> Result<Position, FenError> {
        parse(s)
    }
}

/// Parse a FEN, X-FEN or Shredder-FEN, with the leniencies listed in the module
/// documentation.
///
/// ```
/// use staunton::chess::fen;
///
/// let pos = fen::parse("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR_b_KQkq_e3_0_1")?;
/// assert_eq!(pos.to_string(), "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1");
/// let err = fen::parse("8/8/8/8/8/8/8").unwrap_err();
/// assert!(err.to_string().starts_with("invalid FEN: placement has 7 ranks, expected 8 ranks"));
/// # Ok::<(), fen::FenError>(())
/// ```
pub fn parse(text: &str) -> Result<Position, FenError> {
    parse_with(text, Dialect::Standard)
}

/// Parse a FEN in `dialect`: [`parse`] for [`Dialect::Standard`]; Fairy FEN's neutral and
/// turned pieces, text and markers for [`Dialect::Fairy`]; letter pieces for
/// [`Dialect::Letters`].
///
/// ```
/// use staunton::chess::fen::{self, Dialect};
///
/// let pos = fen::parse_with("4-k3/8/8/8/8/8/8/3*2Q4", Dialect::Fairy)?;
/// assert_eq!(pos.figures().count(), 2);
/// assert_eq!(fen::placement(&pos), "4-k3/8/8/8/8/8/8/3*2Q4");
/// # Ok::<(), fen::FenError>(())
/// ```
pub fn parse_with(text: &str, dialect: Dialect) -> Result<Position, FenError> {
    parse_board(text, dialect, None)
}

/// Parse a FEN in `dialect` on a board of the given size, or of the size the text gives
/// when `board` is `None`: square boards (1×1 to 16×16) and boards 8 ranks tall are read
/// from the text alone; other shapes (an 8×7 or a 9×10 board) need their size, so that a
/// rank left out of an 8×8 FEN stays an error.
///
/// ```
/// use staunton::chess::fen::{self, Dialect};
/// use staunton::BoardSize;
///
/// assert!(fen::parse("4k3/8/8/8/8/8/4K3").is_err());
/// let board = BoardSize::new(8, 7);
/// let pos = fen::parse_board("4k3/8/8/8/8/8/4K3", Dialect::Standard, board)?;
/// assert_eq!((pos.files(), pos.ranks()), (8, 7));
/// # Ok::<(), fen::FenError>(())
/// ```
pub fn parse_board(
    text: &str,
    dialect: Dialect,
    board: Option<BoardSize>,
) -> Result<Position, FenError> {
    let spaced = text.replace('_', " ");
    let inner = unwrap(&spaced)?;
    if inner.eq_ignore_ascii_case("start") {
        return Ok(Position::start());
    }
    if inner.eq_ignore_ascii_case("empty") {
        return Ok(Position::empty(8));
    }
    let mut fields = inner.split_whitespace();
    let Some(placement) = fields.next() else {
        return Err(FenErrorKind::Empty.into());
    };
    let mut pos = parse_placement(placement, dialect, board)?;
    if let Some(side) = fields.next() {
        pos.turn = match side {
            "w" => Color::White,
            "b" => Color::Black,
            _ => return Err(FenErrorKind::SideToMove { text: echo(side) }.into()),
        };
    }
    if let Some(castling) = fields.next() {
        (pos.castling_type, pos.castling) = parse_castling(castling, pos.files())?;
    }
    if let Some(ep) = fields.next() {
        pos.en_passant = parse_en_passant(ep, pos.size())?;
    }
    if let Some(n) = fields.next() {
        pos.halfmove = parse_number(n, NumberField::HalfmoveClock)?;
    }
    if let Some(n) = fields.next() {
        pos.fullmove = parse_number(n, NumberField::FullmoveNumber)?;
    }
    if let Some(extra) = fields.next() {
        return Err(FenErrorKind::ExtraField { text: echo(extra) }.into());
    }
    Ok(pos)
}

/// Remove the tolerated wrappers: white space, `[FEN "…"]`, `[…]`.
fn unwrap(text: &str) -> Result<&str, FenError> {
    let t = text.trim();
    let Some(rest) = t.strip_prefix('[') else {
        return Ok(t);
    };
    let Some(inner) = rest.strip_suffix(']') else {
        return Err(FenErrorKind::UnclosedBrackets { text: echo(t) }.into());
    };
    // A PGN tag: `FEN` then nothing, white space or a quote.
    let tag = inner
        .get(..3)
        .filter(|name| name.eq_ignore_ascii_case("FEN"))
        .and_then(|_| inner.get(3..))
        .filter(|value| {
            value.is_empty()
                || value.starts_with(|c: char| c.is_whitespace() || c == '"' || c == '\'')
        });
    let Some(value) = tag else {
        return Ok(inner.trim());
    };
    let value = value.trim();
    for quote in ['"', '\''] {
        if let Some(quoted) = value
            .strip_prefix(quote)
            .and_then(|v| v.strip_suffix(quote))
        {
            return Ok(quoted.trim());
        }
    }
    Ok(value)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::chess::piece::{Piece, Role};
    use crate::chess::position::{CastlingType, Pocket, Square};

    fn message(fen: &str) -> String {
        match parse(fen) {
            Ok(pos) => panic!("{fen:?} parsed as {pos}"),
            Err(e) => e.to_string(),
        }
    }

    fn kind(fen: &str) -> FenErrorKind {
        match parse(fen) {
            Ok(pos) => panic!("{fen:?} parsed as {pos}"),
            Err(e) => e.kind,
        }
    }

    fn ok(fen: &str) -> Position {
        parse(fen).unwrap_or_else(|e| panic!("{fen:?}: {e}"))
    }

    const PIECES: &str = "expected a piece letter (KQRBNPAC, lower case for black) or a digit";

    #[test]
    fn every_error_kind_has_its_exact_message() {
        let cases: &[(&str, &str)] = &[
            // Empty input, however wrapped.
            (
                "",
                "fen is empty, expected a position such as \"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1\", \"start\" or \"empty\"",
            ),
            (
                "[8/8/8/8/8/8/8/8 w",
                "\"[8/8/8/8/8/8/8/8 w\" starts with \"[\" but does not end with \"]\", expected the whole FEN in brackets or none",
            ),
            // Placement shape.
            (
                "8/8/8/8/8/8/8/8/8/8/8/8/8/8/8/8/8",
                "placement has 17 ranks, expected 1 to 16 ranks separated by \"/\"",
            ),
            (
                "8/8/8/8/8/8/8/8/8/8/8/8/8/8/8/8/Q[n]",
                "placement has 17 ranks, expected 1 to 16 ranks separated by \"/\"",
            ),
            (
                "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP",
                "placement has 7 ranks, expected 8 ranks separated by \"/\" (a board that is neither square nor 8 ranks tall needs its size: board=8x7)",
            ),
            (
                "8/8/8/8/8/8/8/8/8",
                "placement has 9 ranks, expected 8 ranks separated by \"/\" (a board that is neither square nor 8 ranks tall needs its size: board=8x9)",
            ),
            (
                "10/10/10/10/10/10/10/10/10",
                "placement has 9 ranks, expected 8 or 10 ranks separated by \"/\" (a board that is neither square nor 8 ranks tall needs its size: board=10x9)",
            ),
            (
                "//////",
                "rank 7 is empty, expected pieces and digits such as \"8\" or \"pppppppp\"",
            ),
            (
                "8/8/8//8/8/8/8",
                "rank 5 is empty, expected pieces and digits such as \"8\" or \"pppppppp\"",
            ),
            (
                "rnbqkbnr/ppppxppp/8/8/8/8/PPPPPPPP/RNBQKBNR",
                "rank 7 \"ppppxppp\" has 'x' at column 5, expected a piece letter (KQRBNPAC, lower case for black) or a digit",
            ),
            (
                "rnbq[kbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR",
                "rank 8 \"rnbq[kbnr\" has '[' at column 5, expected a piece letter (KQRBNPAC, lower case for black) or a digit",
            ),
            (
                "8/8/8/8/8/8/8/7é",
                "rank 1 \"7?\" has '?' at column 2, expected a piece letter (KQRBNPAC, lower case for black) or a digit",
            ),
            (
                "8/8/8/8/8/8/8/~7",
                "rank 1 \"~7\" has '~' at column 1, expected '~' only right after a piece letter (a promoted piece)",
            ),
            (
                "8/8/8/8/8/8/8/Q~~7",
                "rank 1 \"Q~~7\" has '~' at column 3, expected '~' only right after a piece letter (a promoted piece)",
            ),
            (
                "8/8/8/8/8/8/8/08",
                "rank 1 \"08\" has '0' at column 1, expected a count of empty squares from 1 to 16",
            ),
            (
                "rnbqkbnr/ppp2pppp/8/8/8/8/PPPPPPPP/RNBQKBNR",
                "rank 7 \"ppp2pppp\" has 9 squares, expected 8",
            ),
            (
                "rnbqkbnrr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR",
                "rank 7 \"pppppppp\" has 8 squares, expected 9",
            ),
            (
                "17/8/8/8/8/8/8/8",
                "rank 8 \"17\" has 17 squares, expected 1 to 16 (files a to p)",
            ),
            ("8/8/8/8/8/8/8/7", "rank 1 \"7\" has 7 squares, expected 8"),
            (
                "10/10/10/10/10/8/10/10",
                "rank 3 \"8\" has 8 squares, expected 10",
            ),
            (
                "8/8/8/8/8/8/8/44",
                "rank 1 \"44\" has 44 squares, expected 8",
            ),
            (
                "8/8/8/8/8/8/8/99999999999999999999",
                "rank 1 \"99999999999999999999\" has more than 999 squares, expected 8",
            ),
            // Pocket.
            (
                "8/8/8/8/8/8/8/8[Qx]",
                "pocket \"[Qx]\" has 'x' at column 3, expected piece letters (KQRBNPAC, lower case for black)",
            ),
            (
                "8/8/8/8/8/8/8/8[Q]n",
                "pocket \"[Q]n\" has 'n' at column 4, expected piece letters (KQRBNPAC, lower case for black)",
            ),
            (
                "8/8/8/8/8/8/8/8[Q",
                "pocket \"[Q\" is not closed, expected \"]\" after the pieces in hand",
            ),
            (
                "8/8/8/8/8/8/8/8/Q~",
                "pocket \"Q~\" has '~' at column 2, expected piece letters (KQRBNPAC, lower case for black)",
            ),
            // Side to move.
            (
                "8/8/8/8/8/8/8/8 x",
                "side to move \"x\", expected \"w\" or \"b\"",
            ),
            (
                "8/8/8/8/8/8/8/8 W",
                "side to move \"W\", expected \"w\" or \"b\"",
            ),
            // Castling.
            (
                "8/8/8/8/8/8/8/8 w KQZq",
                "castling field \"KQZq\", expected \"-\" or letters from KQkq (X-FEN/Shredder file letters A-H/a-h also allowed)",
            ),
            (
                "8/8/8/8/8/8/8/8 w Jj",
                "castling field \"Jj\", expected \"-\" or letters from KQkq (X-FEN/Shredder file letters A-H/a-h also allowed)",
            ),
            (
                "10/10/10/10/10/10/10/10 w K-",
                "castling field \"K-\", expected \"-\" or letters from KQkq (X-FEN/Shredder file letters A-J/a-j also allowed)",
            ),
            (
                "8/8/8/8/8/8/8/8 w KqK",
                "castling field \"KqK\" has 'K' twice, expected each letter at most once",
            ),
            // Castling types: first, and followed by something.
            (
                "8/8/8/8/8/8/8/8 w KsQkq",
                "castling field \"KsQkq\" has 's' at column 2, expected a castling type (s symmetric, m modern) only as the first character",
            ),
            (
                "8/8/8/8/8/8/8/8 w Ks",
                "castling field \"Ks\" has 's' at column 2, expected a castling type (s symmetric, m modern) only as the first character",
            ),
            (
                "8/8/8/8/8/8/8/8 w ss",
                "castling field \"ss\" has 's' at column 2, expected a castling type (s symmetric, m modern) only as the first character",
            ),
            (
                "10/10/10/10/10/10/10/10 w smKQ",
                "castling field \"smKQ\" has 'm' at column 2, expected a castling type (s symmetric, m modern) only as the first character",
            ),
            (
                "8/8/8/8/8/8/8/8 w -m",
                "castling field \"-m\" has 'm' at column 2, expected a castling type (s symmetric, m modern) only as the first character",
            ),
            (
                "8/8/8/8/8/8/8/8 w s",
                "castling field \"s\" has only the castling type 's', expected \"-\" or letters from KQkq after it",
            ),
            (
                "10/10/10/10/10/10/10/10 w m - 0 1",
                "castling field \"m\" has only the castling type 'm', expected \"-\" or letters from KQkq after it",
            ),
            (
                "8/8/8/8/8/8/8/8 w s-K",
                "castling field \"s-K\", expected \"-\" or letters from KQkq (X-FEN/Shredder file letters A-H/a-h also allowed)",
            ),
            (
                "8/8/8/8/8/8/8/8 w SKQkq",
                "castling field \"SKQkq\", expected \"-\" or letters from KQkq (X-FEN/Shredder file letters A-H/a-h also allowed)",
            ),
            (
                "8/8/8/8/8/8/8/8 w sKk-",
                "castling field \"sKk-\", expected \"-\" or letters from KQkq (X-FEN/Shredder file letters A-H/a-h also allowed)",
            ),
            (
                "8/8/8/8/8/8/8/8 w mKK",
                "castling field \"mKK\" has 'K' twice, expected each letter at most once",
            ),
            // En passant.
            (
                "8/8/8/8/8/8/8/8 w - e9",
                "en passant square \"e9\", expected \"-\" or a square on rank 3 or 6 (any square of the board on a board without 8 ranks)",
            ),
            (
                "8/8/8/8/8/8/8/8 w - e4",
                "en passant square \"e4\", expected \"-\" or a square on rank 3 or 6 (any square of the board on a board without 8 ranks)",
            ),
            (
                "8/8/8/8/8/8/8/8 w - i3",
                "en passant square \"i3\", expected \"-\" or a square on rank 3 or 6 (any square of the board on a board without 8 ranks)",
            ),
            // Clocks.
            (
                "8/8/8/8/8/8/8/8 w - - -3 1",
                "half-move clock \"-3\", expected a whole number",
            ),
            (
                "8/8/8/8/8/8/8/8 w - - +3 1",
                "half-move clock \"+3\", expected a whole number",
            ),
            (
                "8/8/8/8/8/8/8/8 w - - 0 x",
                "full-move number \"x\", expected a whole number",
            ),
            (
                "8/8/8/8/8/8/8/8 w - - 0 1.5",
                "full-move number \"1.5\", expected a whole number",
            ),
            (
                "8/8/8/8/8/8/8/8 w - - 0 4294967296",
                "full-move number \"4294967296\" is too large, expected a whole number up to 4294967295",
            ),
            // Too many fields.
            (
                "8/8/8/8/8/8/8/8 w - - 0 1 extra",
                "unexpected 7th field \"extra\", a FEN has at most 6 fields",
            ),
            (
                "8/8/8/8/8/8/8/8_w_-_-_0_1_extra_more",
                "unexpected 7th field \"extra\", a FEN has at most 6 fields",
            ),
            // A bad character says more than a bad rank count.
            (
                "start x",
                "rank 1 \"start\" has 's' at column 1, expected a piece letter (KQRBNPAC, lower case for black) or a digit",
            ),
            // One rank that cannot be a rank: no board at all.
            (
                "<svg onload=alert(1)>",
                "\"<svg\" is not a board: a FEN starts with the board's ranks separated by \"/\", such as \"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1\", or is \"start\" or \"empty\"",
            ),
            (
                "not a fen",
                "\"not\" is not a board: a FEN starts with the board's ranks separated by \"/\", such as \"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1\", or is \"start\" or \"empty\"",
            ),
            // Fairy FEN's marks read without dialect=fairy: the error names the dialect.
            (
                "8/8/8/3-k4/8/8/8/4K3 w - - 0 1",
                "rank 5 \"3-k4\" has '-' at column 2, expected a piece letter (KQRBNPAC, lower case for black) or a digit; '-', '*' and ' mark Fairy FEN's neutral, turned and text pieces, read with dialect=fairy",
            ),
            (
                "8/8/8/3*2q3/8/8/8/4K3 w - - 0 1",
                "rank 5 \"3*2q3\" has '*' at column 2, expected a piece letter (KQRBNPAC, lower case for black) or a digit; '-', '*' and ' mark Fairy FEN's neutral, turned and text pieces, read with dialect=fairy",
            ),
            (
                "8/8/8/3'A4/8/8/8/4K3 w - - 0 1",
                "rank 5 \"3'A4\" has ''' at column 2, expected a piece letter (KQRBNPAC, lower case for black) or a digit; '-', '*' and ' mark Fairy FEN's neutral, turned and text pieces, read with dialect=fairy",
            ),
        ];
        for (fen, expected) in cases {
            assert_eq!(message(fen), format!("invalid FEN: {expected}"), "{fen:?}");
        }
    }

    #[test]
    fn errors_carry_their_kind() {
        assert_eq!(kind("   "), FenErrorKind::Empty);
        assert_eq!(kind("___"), FenErrorKind::Empty);
        assert_eq!(kind("[]"), FenErrorKind::Empty);
        assert_eq!(kind("[FEN \"\"]"), FenErrorKind::Empty);
        assert_eq!(kind("[FEN]"), FenErrorKind::Empty);
        assert_eq!(
            kind("8/8/8/8/8/8/8/8/8/8/8/8/8/8/8/8/8"),
            FenErrorKind::TooManyRanks { count: 17 }
        );
        assert_eq!(
            kind("8/8/8/8/8/8/8/8 w KQkq - 0 0 0"),
            FenErrorKind::ExtraField {
                text: "0".to_string()
            }
        );
        assert_eq!(
            kind("8/8/8/8/8/8/8/8 w - - 99999999999"),
            FenErrorKind::NumberTooLarge {
                field: NumberField::HalfmoveClock,
                text: "99999999999".to_string()
            }
        );
        assert_eq!(
            kind("8/8/8/8/8/8/8/8 w qq"),
            FenErrorKind::CastlingRepeated {
                text: "qq".to_string(),
                letter: 'q'
            }
        );
        assert!(matches!(
            kind("8/8/8/8/8/8/8/8 w - - 0 1 x"),
            FenErrorKind::ExtraField { .. }
        ));
    }

    #[test]
    fn errors_come_in_reading_order() {
        // The placement is read before the other fields, rank 8 before rank 1.
        assert!(matches!(
            kind("8/8/8/8/8/8/8/7 x"),
            FenErrorKind::RankWidth { rank: 1, .. }
        ));
        assert!(matches!(
            kind("17/8/8/8/8/8/8/x"),
            FenErrorKind::BoardWidth { squares: 17, .. }
        ));
        assert!(matches!(
            kind("8/8/8/8/8/8/8/8 x KZ e9"),
            FenErrorKind::SideToMove { .. }
        ));
        assert!(matches!(
            kind("8/8/8/8/8/8/8/8 w KQkq e9 0 1 extra"),
            FenErrorKind::EnPassant { .. }
        ));
    }

    #[test]
    fn echoed_text_is_short_and_clean() {
        let long = format!("8/{}\u{0}\n/8", "p".repeat(100));
        let msg = message(&long);
        assert_eq!(
            msg,
            format!(
                "invalid FEN: rank 1 \"{}…\" has '?' at column 101, {PIECES}",
                "p".repeat(39)
            )
        );
        assert!(!msg.contains('\n') && !msg.contains('\u{0}'));
        // Exactly 40 characters are repeated whole; 41 are shortened to 39 and `…`.
        let forty = format!("8/8/8/8/8/8/8/8 {}", "x".repeat(40));
        assert!(message(&forty).contains(&format!("\"{}\"", "x".repeat(40))));
        let forty_one = format!("8/8/8/8/8/8/8/8 {}", "x".repeat(41));
        assert!(message(&forty_one).contains(&format!("\"{}…\"", "x".repeat(39))));
        // Non-ASCII and control characters become `?`.
        assert_eq!(
            message("8/8/8/8/8/8/8/8 w\u{7f}"),
            "invalid FEN: side to move \"w?\", expected \"w\" or \"b\""
        );
        assert_eq!(
            message("8/8/8/8/8/8/8/8 w KQ\u{2603}"),
            "invalid FEN: castling field \"KQ?\", expected \"-\" or letters from KQkq (X-FEN/Shredder file letters A-H/a-h also allowed)"
        );
        let wrapped = message(&format!("[{}", "8".repeat(300)));
        assert!(wrapped.chars().count() < 160, "{wrapped}");
    }

    #[test]
    fn leniencies() {
        let start = Position::start();
        let start_fen = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
        for fen in [
            "start",
            " START ",
            "Start",
            "[start]",
            "_start_",
            start_fen,
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR_w_KQkq_-_0_1",
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR   w  qkQK  -  0  1",
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR__w__KQkq__-__0__1",
            "\t rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 \n",
            "[FEN \"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1\"]",
            "[FEN 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1']",
            "[fen \"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1\"]",
            "[FEN\"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1\"]",
            "[FEN_\"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR_w_KQkq_-_0_1\"]",
            "[rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq]",
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 00 001",
        ] {
            assert_eq!(parse(fen).as_ref(), Ok(&start), "{fen:?}");
        }
        // The placement alone, and any prefix of the fields.
        let placement_only = ok("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR");
        assert_eq!(placement_only.castling, "-");
        assert_eq!(
            placement_only.to_string(),
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w - - 0 1"
        );
        assert_eq!(ok("8/8/8/8/8/8/8/8 b").turn, Color::Black);
        assert_eq!(ok("8/8/8/8/8/8/8/8"), Position::empty(8));
        assert_eq!(ok("empty"), Position::empty(8));
        assert_eq!(ok(" Empty "), Position::empty(8));
        // No legality rules.
        ok("QQQQQQQQ/QQQQQQQQ/8/8/8/8/qqqqqqqq/qqqqqqqq w - - 0 1");
        ok("PPPPPPPP/8/8/8/8/8/8/pppppppp w - - 0 1");
        // Castling: any order, X-FEN and Shredder letters, stored canonically.
        assert_eq!(ok("8/8/8/8/8/8/8/8 w HAha").castling, "AHah");
        assert_eq!(ok("8/8/8/8/8/8/8/8 w qkQK").castling, "KQkq");
        assert_eq!(ok("8/8/8/8/8/8/8/8 w gKbq").castling, "Kqbg");
        assert_eq!(ok("10/10/10/10/10/10/10/10 w Jj").castling, "Jj");
        assert_eq!(ok("8/8/8/8/8/8/8/8 w - -").castling, "-");
        assert_eq!(
            ok("8/8/8/8/8/8/8/8 w - -").castling_type,
            CastlingType::Standard
        );
        // En passant on rank 3 or 6, within the board.
        assert_eq!(
            ok("8/8/8/8/8/8/8/8 b - e3").en_passant,
            Some(Square::new(4, 2))
        );
        assert_eq!(
            ok("10/10/10/10/10/10/10/10 w - j6").en_passant,
            Some(Square::new(9, 5))
        );
        // Clocks: whole numbers that fit 32 bits, a full-move number of 0.
        let clocks = ok("8/8/8/8/8/8/8/8 b - - 4294967295 0");
        assert_eq!((clocks.halfmove, clocks.fullmove), (u32::MAX, 0));
    }

    #[test]
    fn capablanca_boards_are_ten_files_wide() {
        let capa = ok("rnabqkbcnr/pppppppppp/10/10/10/10/PPPPPPPPPP/RNABQKBCNR w KQkq - 0 1");
        assert_eq!(capa.files(), 10);
        assert_eq!(
            capa.get(Square::new(2, 0)).map(|p| p.role),
            Some(Role::Archbishop)
        );
        assert_eq!(capa.get(Square::new(7, 7)).map(|p| p.fen_char()), Some('c'));
        assert_eq!(
            placement(&capa),
            "rnabqkbcnr/pppppppppp/10/10/10/10/PPPPPPPPPP/RNABQKBCNR"
        );
        ok("4k5/10/10/10/10/10/10/4K5");
        // Pieces A and C on an 8-file board are fine too.
        ok("a6c/8/8/8/8/8/8/A6C");
    }

    #[test]
    fn x_fen_castling_types_are_kept_and_written_back() {
        let cases = [
            ("sKQkq", CastlingType::Symmetric, "KQkq", "sKQkq"),
            ("mKQkq", CastlingType::Modern, "KQkq", "mKQkq"),
            ("sqkQK", CastlingType::Symmetric, "KQkq", "sKQkq"),
            ("mHAha", CastlingType::Modern, "AHah", "mAHah"),
            ("s-", CastlingType::Symmetric, "-", "s-"),
            ("m-", CastlingType::Modern, "-", "m-"),
            ("KQkq", CastlingType::Standard, "KQkq", "KQkq"),
        ];
        for (field, castling_type, rights, written) in cases {
            let fen = format!("4k3/8/8/8/8/8/8/4K3 w {field} - 0 1");
            let pos = ok(&fen);
            assert_eq!(pos.castling_type, castling_type, "{fen}");
            assert_eq!(pos.castling, rights, "{fen}");
            assert_eq!(
                pos.to_string(),
                format!("4k3/8/8/8/8/8/8/4K3 w {written} - 0 1")
            );
            assert_eq!(ok(&pos.to_string()), pos, "{fen}");
        }
        // On ten files, with the file letters up to J.
        let wide = ok("4k5/10/10/10/10/10/10/4K5 b mJj");
        assert_eq!(
            (wide.castling_type, wide.castling.as_str()),
            (CastlingType::Modern, "Jj")
        );
        assert_eq!(wide.to_string(), "4k5/10/10/10/10/10/10/4K5 b mJj - 0 1");
        // The type is part of the position, the board is not changed by it.
        let plain = ok("4k3/8/8/8/8/8/8/4K3 w KQkq - 0 1");
        let symmetric = ok("4k3/8/8/8/8/8/8/4K3 w sKQkq - 0 1");
        assert_ne!(plain, symmetric);
        assert_eq!(placement(&plain), placement(&symmetric));
    }

    #[test]
    fn german_x_fen_article_examples() {
        // The issue's 8×8 example with symmetric castling: the king on e1, queen on f1.
        let eight = ok("rnbnkqrb/pppppppp/8/8/8/8/PPPPPPPP/RNBNKQRB w sKQkq - 0 1");
        assert_eq!(eight.castling_type, CastlingType::Symmetric);
        assert_eq!(
            eight.to_string(),
            "rnbnkqrb/pppppppp/8/8/8/8/PPPPPPPP/RNBNKQRB w sKQkq - 0 1"
        );
        // Embassy chess with modern castling, on ten files: C chancellor, A archbishop.
        let embassy = ok("rnbqkcabnr/pppppppppp/10/10/10/10/PPPPPPPPPP/RNBQKCABNR w mKQkq - 0 1");
        assert_eq!(
            (embassy.files(), embassy.castling_type),
            (10, CastlingType::Modern)
        );
        assert_eq!(
            embassy.get(Square::new(5, 0)).map(|p| p.role),
            Some(Role::Chancellor)
        );
        assert_eq!(
            embassy.get(Square::new(6, 7)).map(|p| p.fen_char()),
            Some('a')
        );
        assert_eq!(
            embassy.to_string(),
            "rnbqkcabnr/pppppppppp/10/10/10/10/PPPPPPPPPP/RNBQKCABNR w mKQkq - 0 1"
        );
        // Janus chess writes its piece as J, which is not one of ours: the placement fails
        // first, naming it. With A (the same bishop–knight compound) it reads, type `s`.
        assert_eq!(
            message("rjnbkqbnjr/pppppppppp/10/10/10/10/PPPPPPPPPP/RJNBKQBNJR w sKQkq - 0 1"),
            format!("invalid FEN: rank 8 \"rjnbkqbnjr\" has 'j' at column 2, {PIECES}")
        );
        let janus = ok("ranbkqbnar/pppppppppp/10/10/10/10/PPPPPPPPPP/RANBKQBNAR w sKQkq - 0 1");
        assert_eq!(
            (janus.files(), janus.castling_type),
            (10, CastlingType::Symmetric)
        );
    }

    #[test]
    fn crazyhouse_marks_and_pockets() {
        let zh = ok("2Q~4k/8/8/8/8/8/8/4K3[Pp] b - - 0 30");
        assert!(zh.is_promoted(Square::new(2, 7)));
        assert!(!zh.is_promoted(Square::new(7, 7)));
        assert_eq!(placement(&zh), "2Q4k/8/8/8/8/8/8/4K3");
        let pocket = zh.pocket.unwrap_or_default();
        assert_eq!(pocket.iter().count(), 2);
        let ninth = ok("r1b1k2r/ppp2ppp/2n5/3q4/8/8/PPP2PPP/R1BQKB1R/NNbp w KQkq - 0 9");
        let pocket = ninth.pocket.unwrap_or_default();
        assert_eq!(pocket.iter().map(|(_, n)| n).sum::<u16>(), 4);
        assert_eq!(
            ok("8/8/8/8/8/8/8/8/").pocket,
            Some(Pocket::default()),
            "an empty ninth rank is an empty pocket"
        );
        assert_eq!(ok("8/8/8/8/8/8/8/8[]").pocket, Some(Pocket::default()));
        assert_eq!(ok("8/8/8/8/8/8/8/8").pocket, None);
        // A wrapped FEN with a pocket: the wrapper is the outer pair only.
        assert!(ok("[8/8/8/8/8/8/8/8[Qn] w]").pocket.is_some());
        // `~` marks on a ten-file board.
        let capa = ok("9A~/10/10/10/10/10/10/10");
        assert!(capa.is_promoted(Square::new(9, 7)));
    }

    #[test]
    fn display_writes_canonical_fen() {
        for fen in [
            "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1",
            "2Q~4k/8/8/8/8/8/8/4K3[Pp] b - - 0 30",
            "rnabqkbcnr/pppppppppp/10/10/10/10/PPPPPPPPPP/RNABQKBCNR w KQkq - 0 1",
            "8/8/8/8/8/8/8/8[] w - - 0 1",
            "8/8/8/8/8/8/8/8[QNpp] w AHah - 4294967295 0",
        ] {
            let pos = ok(fen);
            assert_eq!(pos.to_string(), fen);
            assert_eq!(fen.parse::<Position>().as_ref(), Ok(&pos));
        }
        // Pocket letters are written white first, whatever the input order.
        assert_eq!(
            ok("8/8/8/8/8/8/8/8/pNpQ").to_string(),
            "8/8/8/8/8/8/8/8[QNpp] w - - 0 1"
        );
        assert_eq!(
            ok("start").to_string(),
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
        );
    }

    #[test]
    fn huge_inputs_are_read_in_one_pass() {
        // Long inputs of every shape parse or fail without blowing up.
        let n = 200_000;
        for text in [
            "9".repeat(n),
            "/".repeat(n),
            "p".repeat(n),
            "Q~".repeat(n),
            "_".repeat(n),
            "[".repeat(n),
            format!("8/8/8/8/8/8/8/8[{}]", "Q".repeat(n)),
            format!("8/8/8/8/8/8/8/8 w {}", "K".repeat(n)),
            format!("8/8/8/8/8/8/8/8 w - - {}", "9".repeat(n)),
            "8 ".repeat(n),
        ] {
            if let Err(e) = parse(&text) {
                assert!(e.to_string().chars().count() < 300);
            }
        }
        let pocket = ok(&format!("8/8/8/8/8/8/8/8[{}]", "Q".repeat(n)))
            .pocket
            .unwrap_or_default();
        let queen = Piece {
            color: Color::White,
            role: Role::Queen,
        };
        assert_eq!(pocket.count(queen), u16::MAX, "counts saturate");
    }
}
