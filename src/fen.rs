//! FEN: reading and writing positions as Forsyth–Edwards Notation.
//!
//! Owns the text form of a [`Position`]. What is accepted, beyond plain FEN:
//!
//! - the placement field alone (the other fields default to `w - - 0 1`);
//! - `_` standing for a space (URLs), and fields separated by several spaces;
//! - surrounding white space, a PGN tag `[FEN "…"]`, or the whole FEN in `[…]`;
//! - `start` and `empty` (any case) for the start position and the empty board;
//! - 8 files, or 10 files (Capablanca X-FEN, with `A` archbishop and `C` chancellor);
//!   digits may form `10`;
//! - crazyhouse: `~` after a promoted piece, and the pocket either in brackets after the
//!   placement (`…/RNBQKBNR[Qn]`) or as a ninth `/`-rank of piece letters;
//! - castling as `KQkq`, X-FEN or Shredder-FEN file letters (`HAha`), in any order;
//! - a full-move number of 0.
//!
//! Everything present is validated; no legality rules apply (a diagram may lack kings).
//! Errors name the field, the rank and the column, and say what is allowed.

use crate::piece::{Color, Piece};
use crate::position::{Pocket, Position, RANKS, Square};
use std::fmt;
use std::str::FromStr;
use thiserror::Error;

/// How much of a bad piece of text an error repeats.
const ECHO: usize = 40;

/// Text made safe to repeat in a message: shortened, non-printable characters replaced.
fn echo(text: &str) -> String {
    let mut out: String = text
        .chars()
        .take(ECHO)
        .map(|c| {
            if c.is_ascii_graphic() || c == ' ' {
                c
            } else {
                '?'
            }
        })
        .collect();
    if text.chars().count() > ECHO {
        out.push('…');
    }
    out
}

/// Why a FEN was rejected. The message is one sentence starting with `invalid FEN: `.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error("invalid FEN: {0}")]
pub struct FenError(String);

impl FenError {
    fn new(message: String) -> FenError {
        FenError(message)
    }
}

/// The placement field only: `rnbqkbnr/pppppppp/8/…`, without pocket or promotion marks
/// (what stands where). [`Position`]'s `Display` writes the full FEN, marks included.
pub fn placement(pos: &Position) -> String {
    board_text(pos, false)
}

fn board_text(pos: &Position, marks: bool) -> String {
    let mut out = String::with_capacity(90);
    for rank in (0..pos.ranks()).rev() {
        let mut empty = 0;
        for file in 0..pos.files() {
            let sq = Square::new(file, rank);
            match pos.get(sq) {
                None => empty += 1,
                Some(piece) => {
                    if empty > 0 {
                        out.push_str(&empty.to_string());
                        empty = 0;
                    }
                    out.push(piece.fen_char());
                    if marks && pos.is_promoted(sq) {
                        out.push('~');
                    }
                }
            }
        }
        if empty > 0 {
            out.push_str(&empty.to_string());
        }
        if rank > 0 {
            out.push('/');
        }
    }
    out
}

impl fmt::Display for Position {
    /// The full canonical FEN: placement, pocket (if any), side, castling, en passant, clocks.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&board_text(self, true))?;
        if let Some(pocket) = &self.pocket {
            f.write_str("[")?;
            for (piece, n) in pocket.iter() {
                for _ in 0..n {
                    write!(f, "{}", piece.fen_char())?;
                }
            }
            f.write_str("]")?;
        }
        let ep = self.en_passant.map_or("-".to_string(), |s| s.to_string());
        write!(
            f,
            " {} {} {} {} {}",
            self.turn.letter(),
            self.castling,
            ep,
            self.halfmove,
            self.fullmove
        )
    }
}

impl FromStr for Position {
    type Err = FenError;
    fn from_str(s: &str) -> Result<Position, FenError> {
        parse(s)
    }
}

/// Remove the tolerated wrappers: white space, `[FEN "…"]`, `[…]`.
fn unwrap(text: &str) -> &str {
    let t = text.trim();
    if let Some(inner) = t.strip_prefix("[FEN").and_then(|r| r.strip_suffix(']')) {
        let inner = inner.trim();
        if let Some(quoted) = inner.strip_prefix('"').and_then(|r| r.strip_suffix('"')) {
            return quoted.trim();
        }
        return inner;
    }
    if let Some(inner) = t.strip_prefix('[').and_then(|r| r.strip_suffix(']')) {
        return inner.trim();
    }
    t
}

/// Parse a FEN (see the module documentation for what is accepted).
pub fn parse(text: &str) -> Result<Position, FenError> {
    let empty = || {
        FenError::new(
            "fen is empty, expected a position such as \"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1\", \"start\" or \"empty\"".to_string(),
        )
    };
    let unwrapped = unwrap(text);
    if unwrapped.eq_ignore_ascii_case("start") {
        return Ok(Position::start());
    }
    if unwrapped.eq_ignore_ascii_case("empty") {
        return Ok(Position::empty(8));
    }
    let spaced = unwrapped.replace('_', " ");
    let fields: Vec<&str> = spaced.split_whitespace().collect();
    if let Some(extra) = fields.get(6) {
        return Err(FenError::new(format!(
            "unexpected 7th field \"{}\", a FEN has at most 6 fields",
            echo(extra)
        )));
    }
    let mut pos = parse_board(fields.first().ok_or_else(empty)?)?;
    if let Some(side) = fields.get(1) {
        pos.turn = match *side {
            "w" => Color::White,
            "b" => Color::Black,
            other => {
                return Err(FenError::new(format!(
                    "side to move \"{}\", expected \"w\" or \"b\"",
                    echo(other)
                )));
            }
        };
    }
    if let Some(castling) = fields.get(2) {
        pos.castling = parse_castling(castling, pos.files())?;
    }
    if let Some(ep) = fields.get(3) {
        pos.en_passant = parse_en_passant(ep, pos.files())?;
    }
    if let Some(n) = fields.get(4) {
        pos.halfmove = parse_number(n, "half-move clock")?;
    }
    if let Some(n) = fields.get(5) {
        pos.fullmove = parse_number(n, "full-move number")?;
    }
    Ok(pos)
}

fn parse_number(text: &str, what: &str) -> Result<u32, FenError> {
    let digits = !text.is_empty() && text.len() <= 10 && text.bytes().all(|b| b.is_ascii_digit());
    match text.parse::<u32>() {
        Ok(n) if digits => Ok(n),
        _ => Err(FenError::new(format!(
            "{what} \"{}\", expected a whole number",
            echo(text)
        ))),
    }
}

fn parse_en_passant(text: &str, files: u8) -> Result<Option<Square>, FenError> {
    if text == "-" {
        return Ok(None);
    }
    match Square::parse(text, files) {
        Some(sq) if sq.rank == 2 || sq.rank == 5 => Ok(Some(sq)),
        _ => Err(FenError::new(format!(
            "en passant square \"{}\", expected \"-\" or a square on rank 3 or 6",
            echo(text)
        ))),
    }
}

fn parse_castling(text: &str, files: u8) -> Result<String, FenError> {
    if text == "-" {
        return Ok("-".to_string());
    }
    let last_file = (b'A' + files - 1) as char;
    let bad = || {
        FenError::new(format!(
            "castling field \"{}\", expected \"-\" or letters from KQkq (X-FEN/Shredder file letters A-{last_file}/a-{} also allowed, each once)",
            echo(text),
            last_file.to_ascii_lowercase()
        ))
    };
    // Canonical order: white before black; K, Q, then files a..j.
    let rank_of = |c: char| -> Option<(u8, u8)> {
        let color = u8::from(c.is_ascii_lowercase());
        let upper = c.to_ascii_uppercase();
        let order = match upper {
            'K' => 0,
            'Q' => 1,
            'A'..='J' if (upper as u8 - b'A') < files => 2 + (upper as u8 - b'A'),
            _ => return None,
        };
        Some((color, order))
    };
    let mut keys = Vec::with_capacity(text.len());
    for c in text.chars() {
        let key = rank_of(c).ok_or_else(bad)?;
        if keys.iter().any(|(k, _)| *k == key) {
            return Err(bad());
        }
        keys.push((key, c));
    }
    keys.sort();
    Ok(keys.into_iter().map(|(_, c)| c).collect())
}

/// Parse the placement field, with an optional bracketed or ninth-rank pocket.
fn parse_board(field: &str) -> Result<Position, FenError> {
    // A bracketed pocket: `…/RNBQKBNR[Qn]`.
    let (board_text, bracket_pocket) = match field.find('[') {
        Some(open) => {
            let rest = &field[open + 1..];
            let Some(inner) = rest.strip_suffix(']') else {
                return Err(FenError::new(format!(
                    "pocket \"{}\" is not closed, expected pieces in hand between [ and ]",
                    echo(&field[open..])
                )));
            };
            (&field[..open], Some(inner))
        }
        None => (field, None),
    };
    let ranks: Vec<&str> = board_text.split('/').collect();
    let count = ranks.len();
    let (ranks, ninth) = match (count, bracket_pocket) {
        (8, _) => (&ranks[..], None),
        (9, None) => (&ranks[..8], Some(ranks[8])),
        _ => {
            // A bad character says more than a bad count (`<svg>`, `start x`).
            for (i, text) in ranks.iter().take(8).enumerate() {
                if !text.is_empty() {
                    rank_width(text, RANKS as usize - i)?;
                }
            }
            return Err(FenError::new(format!(
                "placement has {count} rank{}, expected 8 ranks separated by \"/\"{}",
                if count == 1 { "" } else { "s" },
                if bracket_pocket.is_none() {
                    " (or a ninth holding the pieces in hand)"
                } else {
                    ""
                }
            )));
        }
    };
    // The first rank decides the width: 8 or 10 files.
    let width = rank_width(ranks[0], 8)?;
    let files = match width {
        8 | 10 => width,
        n => {
            return Err(FenError::new(format!(
                "rank 8 \"{}\" has {n} squares, expected 8 or 10",
                echo(ranks[0])
            )));
        }
    };
    let mut pos = Position::empty(files as u8);
    for (i, text) in ranks.iter().enumerate() {
        let rank_number = RANKS as usize - i;
        let width = rank_width(text, rank_number)?;
        if width != files {
            return Err(FenError::new(format!(
                "rank {rank_number} \"{}\" has {width} squares, expected {files}",
                echo(text)
            )));
        }
        fill_rank(&mut pos, text, (rank_number - 1) as u8);
    }
    if let Some(pocket) = bracket_pocket.or(ninth) {
        pos.pocket = Some(parse_pocket(pocket)?);
    }
    Ok(pos)
}

/// Count the squares of one rank's text, checking every character.
fn rank_width(text: &str, rank_number: usize) -> Result<usize, FenError> {
    if text.is_empty() {
        return Err(FenError::new(format!(
            "rank {rank_number} is empty, expected pieces and digits such as \"8\" or \"pppppppp\""
        )));
    }
    let mut width: usize = 0;
    let mut run: usize = 0; // digits of the current number
    let mut after_piece = false;
    for (column, c) in text.chars().enumerate() {
        let column = column + 1;
        match c {
            '0'..='9' => {
                let d = c as usize - '0' as usize;
                if run == 0 && d == 0 {
                    return Err(FenError::new(format!(
                        "rank {rank_number} \"{}\" has '0' at column {column}, expected a count of empty squares from 1 to 10",
                        echo(text)
                    )));
                }
                // `10` is one number; larger runs are capped so they cannot overflow.
                let previous = if run > 0 { run } else { 0 };
                let number = if run > 0 { (run * 10 + d).min(99) } else { d };
                width = width - previous + number;
                run = number;
                after_piece = false;
            }
            '~' if after_piece => {
                after_piece = false;
                run = 0;
            }
            _ if Piece::from_fen_char(c).is_some() => {
                width += 1;
                run = 0;
                after_piece = true;
            }
            _ => {
                let what = if c == '~' {
                    "'~' not after a piece".to_string()
                } else {
                    format!("'{}'", echo(&c.to_string()))
                };
                return Err(FenError::new(format!(
                    "rank {rank_number} \"{}\" has {what} at column {column}, expected a piece letter (KQRBNPAC, lower case for black) or a digit",
                    echo(text)
                )));
            }
        }
        if width > 99 {
            width = 99;
        }
    }
    Ok(width)
}

/// Put one validated rank's pieces on the board.
fn fill_rank(pos: &mut Position, text: &str, rank: u8) {
    let mut file: u8 = 0;
    let mut number: u8 = 0;
    let mut last: Option<Square> = None;
    for c in text.chars() {
        if let Some(d) = c.to_digit(10) {
            number = number * 10 + d as u8;
            continue;
        }
        file += number;
        number = 0;
        if c == '~' {
            if let Some(sq) = last {
                pos.set_promoted(sq, true);
            }
            continue;
        }
        let sq = Square::new(file, rank);
        pos.set(sq, Piece::from_fen_char(c));
        last = Some(sq);
        file += 1;
    }
}

fn parse_pocket(text: &str) -> Result<Pocket, FenError> {
    let mut pocket = Pocket::default();
    for (column, c) in text.chars().enumerate() {
        match Piece::from_fen_char(c) {
            Some(piece) => pocket.add(piece),
            None => {
                return Err(FenError::new(format!(
                    "pocket \"{}\" has '{}' at column {}, expected piece letters (KQRBNPAC, lower case for black)",
                    echo(text),
                    echo(&c.to_string()),
                    column + 1
                )));
            }
        }
    }
    Ok(pocket)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn err(fen: &str) -> String {
        parse(fen).unwrap_err().to_string()
    }

    #[test]
    fn errors_name_field_rank_and_column() {
        let cases = [
            (
                "rnbqkbnr/ppp2pppp/8/8/8/8/PPPPPPPP/RNBQKBNR",
                "invalid FEN: rank 7 \"ppp2pppp\" has 9 squares, expected 8",
            ),
            (
                "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP",
                "invalid FEN: placement has 7 ranks, expected 8 ranks separated by \"/\" (or a ninth holding the pieces in hand)",
            ),
            (
                "rnbqkbnr/ppppxppp/8/8/8/8/PPPPPPPP/RNBQKBNR",
                "invalid FEN: rank 7 \"ppppxppp\" has 'x' at column 5, expected a piece letter (KQRBNPAC, lower case for black) or a digit",
            ),
            (
                "rnbqkbnrr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR",
                "invalid FEN: rank 8 \"rnbqkbnrr\" has 9 squares, expected 8 or 10",
            ),
            (
                "8/8/8/8/8/8/8/7",
                "invalid FEN: rank 1 \"7\" has 7 squares, expected 8",
            ),
            (
                "8/8/8//8/8/8/8",
                "invalid FEN: rank 5 is empty, expected pieces and digits such as \"8\" or \"pppppppp\"",
            ),
            (
                "8/8/8/8/8/8/8/~7",
                "invalid FEN: rank 1 \"~7\" has '~' not after a piece at column 1, expected a piece letter (KQRBNPAC, lower case for black) or a digit",
            ),
            (
                "8/8/8/8/8/8/8/08",
                "invalid FEN: rank 1 \"08\" has '0' at column 1, expected a count of empty squares from 1 to 10",
            ),
            (
                "start x",
                "invalid FEN: rank 8 \"start\" has 's' at column 1, expected a piece letter (KQRBNPAC, lower case for black) or a digit",
            ),
            (
                "8/8/8/8/8/8/8/8 x",
                "invalid FEN: side to move \"x\", expected \"w\" or \"b\"",
            ),
            (
                "8/8/8/8/8/8/8/8 w KQZq",
                "invalid FEN: castling field \"KQZq\", expected \"-\" or letters from KQkq (X-FEN/Shredder file letters A-H/a-h also allowed, each once)",
            ),
            (
                "8/8/8/8/8/8/8/8 w KK",
                "invalid FEN: castling field \"KK\", expected \"-\" or letters from KQkq (X-FEN/Shredder file letters A-H/a-h also allowed, each once)",
            ),
            (
                "8/8/8/8/8/8/8/8 w - e9",
                "invalid FEN: en passant square \"e9\", expected \"-\" or a square on rank 3 or 6",
            ),
            (
                "8/8/8/8/8/8/8/8 w - e4",
                "invalid FEN: en passant square \"e4\", expected \"-\" or a square on rank 3 or 6",
            ),
            (
                "8/8/8/8/8/8/8/8 w - - -3 1",
                "invalid FEN: half-move clock \"-3\", expected a whole number",
            ),
            (
                "8/8/8/8/8/8/8/8 w - - 0 x",
                "invalid FEN: full-move number \"x\", expected a whole number",
            ),
            (
                "8/8/8/8/8/8/8/8 w - - 0 99999999999",
                "invalid FEN: full-move number \"99999999999\", expected a whole number",
            ),
            (
                "8/8/8/8/8/8/8/8 w - - 0 1 extra",
                "invalid FEN: unexpected 7th field \"extra\", a FEN has at most 6 fields",
            ),
            (
                "8/8/8/8/8/8/8/8[Qx]",
                "invalid FEN: pocket \"Qx\" has 'x' at column 2, expected piece letters (KQRBNPAC, lower case for black)",
            ),
            (
                "8/8/8/8/8/8/8/8[Q",
                "invalid FEN: pocket \"[Q\" is not closed, expected pieces in hand between [ and ]",
            ),
            (
                "",
                "invalid FEN: fen is empty, expected a position such as \"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1\", \"start\" or \"empty\"",
            ),
            (
                "8/8/8/8/8/8/8/99999999999999999999",
                "invalid FEN: rank 1 \"99999999999999999999\" has 99 squares, expected 8",
            ),
        ];
        assert_eq!(err(""), err("[FEN \"\"]"));
        for (fen, message) in cases {
            assert_eq!(err(fen), message, "{fen}");
        }
    }

    #[test]
    fn long_and_strange_input_is_echoed_safely() {
        let msg = err(&format!("{}\u{0}\n/8", "p".repeat(100)));
        assert!(
            msg.contains('…') && !msg.contains('\n') && !msg.contains('\u{0}'),
            "{msg}"
        );
        assert!(msg.len() < 200);
    }

    #[test]
    fn leniencies() {
        let start = Position::start();
        for fen in [
            "start",
            " START ",
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR_w_KQkq_-_0_1",
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR   w  qkQK  -  0  1",
            "[FEN \"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1\"]",
            "[rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq]",
        ] {
            assert_eq!(parse(fen).as_ref(), Ok(&start), "{fen}");
        }
        let p = parse("8/8/8/8/8/8/8/8").unwrap();
        assert_eq!(p, Position::empty(8));
        assert_eq!(parse("empty").unwrap(), p);
        let shredder = parse("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w HAha - 0 1").unwrap();
        assert_eq!(shredder.castling, "AHah");
        let capa =
            parse("rnabqkbcnr/pppppppppp/10/10/10/10/PPPPPPPPPP/RNABQKBCNR w KQkq - 0 1").unwrap();
        assert_eq!(capa.files(), 10);
        assert_eq!(
            parse("10/10/10/10/10/10/10/10 w Jj - 0 1")
                .unwrap()
                .castling,
            "Jj"
        );
        assert!(
            parse("8/8/8/8/8/8/8/8 w Jj - 0 1").is_err(),
            "J is off an 8-file board"
        );
        let zh = parse("2Q~4k/8/8/8/8/8/8/4K3[Pp] b - - 0 30").unwrap();
        assert!(zh.is_promoted(Square::new(2, 7)));
        let pocket = zh.pocket.unwrap();
        assert_eq!(pocket.iter().count(), 2);
        let ninth = parse("8/8/8/8/8/8/8/8/NNbp").unwrap();
        assert_eq!(ninth.pocket.unwrap().iter().map(|(_, n)| n).sum::<u16>(), 4);
        assert_eq!(
            parse("8/8/8/8/8/8/8/8/").unwrap().pocket,
            Some(Pocket::default())
        );
        assert_eq!(parse("8/8/8/8/8/8/8/8 b - e3 0 0").unwrap().fullmove, 0);
    }

    #[test]
    fn display_round_trips() {
        for fen in [
            "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1",
            "2Q~4k/8/8/8/8/8/8/4K3[Pp] b - - 0 30",
            "rnabqkbcnr/pppppppppp/10/10/10/10/PPPPPPPPPP/RNABQKBCNR w KQkq - 0 1",
            "8/8/8/8/8/8/8/8[] w - - 0 1",
        ] {
            let pos = parse(fen).unwrap();
            assert_eq!(pos.to_string(), fen);
            assert_eq!(fen.parse::<Position>().unwrap(), pos);
        }
    }
}
