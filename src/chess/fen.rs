//! FEN: reading and writing positions as Forsyth–Edwards Notation.
//!
//! Owns the text form of a [`Position`]: [`parse`] (also [`Position`]'s `FromStr`), the
//! canonical writer ([`Position`]'s `Display`), [`placement`], and [`FenError`]. It does not
//! own the board model (`position.rs`) nor the request limits (the HTTP layer caps the
//! length at 256 bytes; the parser itself is linear and allocates O(input)).
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
//! - 8 files, or 10 files (Capablanca X-FEN, with `A` archbishop and `C` chancellor): the
//!   first rank decides, every other rank must match; digits next to each other form one
//!   number, so `10` counts ten empty squares;
//! - crazyhouse: `~` right after a piece marks it promoted; the pieces in hand either in
//!   brackets right after the placement (`…/RNBQKBNR[Qn]`, `[]` for none) or as a ninth
//!   `/`-rank of piece letters (`…/RNBQKBNR/Qn`, empty for none);
//! - castling as `KQkq` in any order, X-FEN or Shredder-FEN file letters (`HAha`, `A`–`H`,
//!   or `A`–`J` on 10 files), stored in a canonical order: white first, `K`, `Q`, then file
//!   letters from a; each letter at most once;
//! - an X-FEN castling type as the first character of the castling field, on 8 and 10
//!   files: `s` symmetric castling (Janus chess), `m` modern castling (Embassy chess), then
//!   the letters or `-` (`sKQkq`, `m-`); kept and written back, drawn the same; a type alone
//!   or anywhere else is an error;
//! - leading zeros in the clocks, and a full-move number of 0.
//!
//! Everything present is validated; no legality rules apply (a diagram may lack kings, show
//! nine queens or pawns on the first rank). Errors name the field, the rank and the column,
//! repeat at most 40 characters of the input (non-printable and non-ASCII characters shown
//! as `?`), and say what is allowed.

use crate::chess::piece::{Color, Piece};
use crate::chess::position::{CastlingType, Pocket, Position, RANKS, Square};
use std::fmt;
use std::str::FromStr;
use thiserror::Error;

/// How many characters of a bad piece of text an error repeats, `…` included.
const ECHO: usize = 40;

/// Counts of empty squares saturate here, so no digit string can overflow.
const COUNT_CAP: u32 = 1000;

/// The widest rank we store pieces for.
const MAX_FILES: usize = crate::chess::position::MAX_FILES as usize;

/// Why a FEN was rejected.
///
/// The message is one line: `invalid FEN: ` and a sentence naming the field, the rank and
/// column where relevant, the offending text (shortened) and what is allowed.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error("invalid FEN: {kind}")]
pub struct FenError {
    /// What was wrong, with the details the message shows.
    pub kind: FenErrorKind,
}

impl From<FenErrorKind> for FenError {
    fn from(kind: FenErrorKind) -> FenError {
        FenError { kind }
    }
}

/// The kinds of [`FenError`]. Every `text` field holds the offending input already
/// shortened to 40 characters and cleaned of non-printable and non-ASCII characters.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[non_exhaustive]
pub enum FenErrorKind {
    /// Nothing but white space, underscores or an empty wrapper.
    #[error(
        "fen is empty, expected a position such as \"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1\", \"start\" or \"empty\""
    )]
    Empty,
    /// The input starts with `[` but does not end with `]`.
    #[error(
        "\"{text}\" starts with \"[\" but does not end with \"]\", expected the whole FEN in brackets or none"
    )]
    UnclosedBrackets {
        /// The whole input.
        text: String,
    },
    /// The placement does not have 8 ranks (9 when the ninth is a pocket).
    #[error("placement has {count} ranks, expected 8 ranks separated by \"/\"")]
    RankCount {
        /// How many `/`-separated parts the placement has.
        count: usize,
    },
    /// A rank with no text (`8/8//8…`).
    #[error("rank {rank} is empty, expected pieces and digits such as \"8\" or \"pppppppp\"")]
    EmptyRank {
        /// Chess rank number, 8 for the first rank of the text.
        rank: u8,
    },
    /// A character that is neither a piece letter nor a digit.
    #[error(
        "rank {rank} \"{text}\" has '{found}' at column {column}, expected a piece letter (KQRBNPAC, lower case for black) or a digit"
    )]
    RankCharacter {
        /// Chess rank number.
        rank: u8,
        /// The rank's text.
        text: String,
        /// The character found (`?` if not printable ASCII).
        found: char,
        /// 1-based character position within the rank's text.
        column: usize,
    },
    /// A `~` that does not follow a piece letter.
    #[error(
        "rank {rank} \"{text}\" has '~' at column {column}, expected '~' only right after a piece letter (a promoted piece)"
    )]
    StrayPromotion {
        /// Chess rank number.
        rank: u8,
        /// The rank's text.
        text: String,
        /// 1-based character position of the `~`.
        column: usize,
    },
    /// A count of empty squares starting with `0`.
    #[error(
        "rank {rank} \"{text}\" has '0' at column {column}, expected a count of empty squares from 1 to 10"
    )]
    ZeroCount {
        /// Chess rank number.
        rank: u8,
        /// The rank's text.
        text: String,
        /// 1-based character position of the `0`.
        column: usize,
    },
    /// The first rank (rank 8) is neither 8 nor 10 squares wide.
    #[error("rank 8 \"{text}\" has {} squares, expected 8 or 10", squares_text(*.squares))]
    BoardWidth {
        /// The rank's text.
        text: String,
        /// Squares counted (saturating at 1000).
        squares: u32,
    },
    /// A rank whose width differs from the first rank's.
    #[error("rank {rank} \"{text}\" has {} squares, expected {files}", squares_text(*.squares))]
    RankWidth {
        /// Chess rank number.
        rank: u8,
        /// The rank's text.
        text: String,
        /// Squares counted (saturating at 1000).
        squares: u32,
        /// The board width set by rank 8: 8 or 10.
        files: u8,
    },
    /// A character in the pocket that is not a piece letter.
    #[error(
        "pocket \"{text}\" has '{found}' at column {column}, expected piece letters (KQRBNPAC, lower case for black)"
    )]
    PocketCharacter {
        /// The pocket's text (with its brackets, when it had them).
        text: String,
        /// The character found (`?` if not printable ASCII).
        found: char,
        /// 1-based character position within the pocket's text.
        column: usize,
    },
    /// A pocket opened with `[` and never closed.
    #[error("pocket \"{text}\" is not closed, expected \"]\" after the pieces in hand")]
    UnclosedPocket {
        /// The pocket's text, from its `[`.
        text: String,
    },
    /// The side to move is not `w` or `b`.
    #[error("side to move \"{text}\", expected \"w\" or \"b\"")]
    SideToMove {
        /// The field's text.
        text: String,
    },
    /// A castling field with a letter that is not allowed.
    #[error(
        "castling field \"{text}\", expected \"-\" or letters from KQkq (X-FEN/Shredder file letters A-{last_file}/a-{} also allowed)",
        .last_file.to_ascii_lowercase()
    )]
    Castling {
        /// The field's text.
        text: String,
        /// The last file letter of the board, `H` or `J`.
        last_file: char,
    },
    /// A castling type (`s` or `m`) anywhere but at the start of the castling field.
    #[error(
        "castling field \"{text}\" has '{letter}' at column {column}, expected a castling type (s symmetric, m modern) only as the first character"
    )]
    CastlingTypePlace {
        /// The field's text.
        text: String,
        /// The castling type's letter, `s` or `m`.
        letter: char,
        /// 1-based character position of the letter.
        column: usize,
    },
    /// A castling field that is a castling type alone (`s`, `m`).
    #[error(
        "castling field \"{text}\" has only the castling type '{letter}', expected \"-\" or letters from KQkq after it"
    )]
    CastlingTypeAlone {
        /// The field's text.
        text: String,
        /// The castling type's letter, `s` or `m`.
        letter: char,
    },
    /// A castling field naming the same right twice.
    #[error("castling field \"{text}\" has '{letter}' twice, expected each letter at most once")]
    CastlingRepeated {
        /// The field's text.
        text: String,
        /// The repeated letter.
        letter: char,
    },
    /// An en-passant field that is not `-` or a square on rank 3 or 6 of the board.
    #[error("en passant square \"{text}\", expected \"-\" or a square on rank 3 or 6")]
    EnPassant {
        /// The field's text.
        text: String,
    },
    /// A clock that is not a whole number.
    #[error("{field} \"{text}\", expected a whole number")]
    NotANumber {
        /// Which clock.
        field: NumberField,
        /// The field's text.
        text: String,
    },
    /// A clock too large for 32 bits.
    #[error(
        "{field} \"{text}\" is too large, expected a whole number up to {}",
        u32::MAX
    )]
    NumberTooLarge {
        /// Which clock.
        field: NumberField,
        /// The field's text.
        text: String,
    },
    /// A seventh field.
    #[error("unexpected 7th field \"{text}\", a FEN has at most 6 fields")]
    ExtraField {
        /// The seventh field's text.
        text: String,
    },
}

/// The two numeric fields of a FEN.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NumberField {
    /// The fifth field: half-moves since the last capture or pawn move.
    HalfmoveClock,
    /// The sixth field: the move number.
    FullmoveNumber,
}

impl fmt::Display for NumberField {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            NumberField::HalfmoveClock => "half-move clock",
            NumberField::FullmoveNumber => "full-move number",
        })
    }
}

fn squares_text(squares: u32) -> String {
    if squares >= COUNT_CAP {
        format!("more than {}", COUNT_CAP - 1)
    } else {
        squares.to_string()
    }
}

/// One character made safe to show: printable ASCII stays, anything else becomes `?`.
fn clean(c: char) -> char {
    if c.is_ascii_graphic() || c == ' ' {
        c
    } else {
        '?'
    }
}

/// Text made safe to repeat in a message: at most [`ECHO`] characters (the last one `…`
/// when shortened), non-printable and non-ASCII characters replaced by `?`.
fn echo(text: &str) -> String {
    let mut chars = text.chars();
    let mut out: String = chars.by_ref().take(ECHO - 1).map(clean).collect();
    let rest: Vec<char> = chars.take(2).collect();
    match rest.as_slice() {
        [] => {}
        [last] => out.push(clean(*last)),
        _ => out.push('…'),
    }
    out
}

/// The placement field only: `rnbqkbnr/pppppppp/8/…`, what stands where, without the
/// pocket and without promotion marks. [`Position`]'s `Display` writes the full FEN.
pub fn placement(pos: &Position) -> String {
    board_text(pos, false)
}

fn board_text(pos: &Position, marks: bool) -> String {
    let mut out = String::with_capacity(100);
    for rank in (0..pos.ranks()).rev() {
        let mut empty = 0u8;
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
    /// The full canonical FEN: placement with `~` marks, the pocket in brackets when there
    /// is one (white pieces first, `[]` when empty), side, castling, en passant, clocks.
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
        let castling = if self.castling.is_empty() {
            "-"
        } else {
            &self.castling
        };
        write!(
            f,
            " {} {}{castling} ",
            self.turn.letter(),
            self.castling_type.prefix()
        )?;
        match self.en_passant {
            Some(sq) => write!(f, "{sq}")?,
            None => f.write_str("-")?,
        }
        write!(f, " {} {}", self.halfmove, self.fullmove)
    }
}

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
/// use staunton::fen;
///
/// let pos = fen::parse("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR_b_KQkq_e3_0_1")?;
/// assert_eq!(pos.to_string(), "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1");
/// let err = fen::parse("8/8/8/8/8/8/8").unwrap_err();
/// assert_eq!(err.to_string(), "invalid FEN: placement has 7 ranks, expected 8 ranks separated by \"/\"");
/// # Ok::<(), fen::FenError>(())
/// ```
pub fn parse(text: &str) -> Result<Position, FenError> {
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
    let mut pos = parse_placement(placement)?;
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
        pos.en_passant = parse_en_passant(ep, pos.files())?;
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

fn parse_number(text: &str, field: NumberField) -> Result<u32, FenError> {
    if text.is_empty() || !text.bytes().all(|b| b.is_ascii_digit()) {
        return Err(FenErrorKind::NotANumber {
            field,
            text: echo(text),
        }
        .into());
    }
    // Only digits: the parse can only fail by overflow.
    text.parse::<u32>().map_err(|_| {
        FenErrorKind::NumberTooLarge {
            field,
            text: echo(text),
        }
        .into()
    })
}

fn parse_en_passant(text: &str, files: u8) -> Result<Option<Square>, FenError> {
    if text == "-" {
        return Ok(None);
    }
    match Square::parse(text, files) {
        Some(sq) if sq.rank == 2 || sq.rank == 5 => Ok(Some(sq)),
        _ => Err(FenErrorKind::EnPassant { text: echo(text) }.into()),
    }
}

/// The castling type (X-FEN prefix `s` or `m`, else standard) and the castling rights in
/// canonical order: white before black; `K`, `Q`, then files a, b, ….
fn parse_castling(text: &str, files: u8) -> Result<(CastlingType, String), FenError> {
    let mut chars = text.chars();
    let castling_type = match chars.next().and_then(CastlingType::from_prefix) {
        Some(castling_type) => castling_type,
        None => {
            chars = text.chars();
            CastlingType::Standard
        }
    };
    let rights = chars.as_str();
    let skipped = text.len() - rights.len(); // 0 or 1: the prefix is one ASCII letter
    if rights.is_empty() {
        // Only a prefix could leave nothing: a field is never empty.
        return Err(FenErrorKind::CastlingTypeAlone {
            text: echo(text),
            letter: text.chars().next().unwrap_or('?'),
        }
        .into());
    }
    // A castling type out of place is named before any other bad character (`-m`, `Ks`).
    if let Some((i, letter)) = rights
        .chars()
        .enumerate()
        .find(|(_, c)| CastlingType::from_prefix(*c).is_some())
    {
        return Err(FenErrorKind::CastlingTypePlace {
            text: echo(text),
            letter,
            column: skipped + i + 1,
        }
        .into());
    }
    if rights == "-" {
        return Ok((castling_type, "-".to_string()));
    }
    const PER_COLOR: u32 = 2 + MAX_FILES as u32;
    // The bit of a letter: colour × PER_COLOR + (0 K, 1 Q, 2.. file letters).
    let bit_of = |c: char| -> Option<u32> {
        let color = u32::from(c.is_ascii_lowercase());
        let order = match c.to_ascii_uppercase() {
            'K' => 0,
            'Q' => 1,
            upper @ 'A'..='J' if (upper as u32 - 'A' as u32) < u32::from(files) => {
                2 + (upper as u32 - 'A' as u32)
            }
            _ => return None,
        };
        Some(color * PER_COLOR + order)
    };
    let mut seen: u32 = 0;
    for c in rights.chars() {
        let Some(bit) = bit_of(c) else {
            return Err(FenErrorKind::Castling {
                text: echo(text),
                last_file: char::from(b'A' + files.saturating_sub(1)),
            }
            .into());
        };
        if seen & (1 << bit) != 0 {
            return Err(FenErrorKind::CastlingRepeated {
                text: echo(text),
                letter: c,
            }
            .into());
        }
        seen |= 1 << bit;
    }
    let letter = |bit: u32| -> char {
        let upper = match bit % PER_COLOR {
            0 => 'K',
            1 => 'Q',
            file => char::from_u32('A' as u32 + file - 2).unwrap_or('?'),
        };
        if bit >= PER_COLOR {
            upper.to_ascii_lowercase()
        } else {
            upper
        }
    };
    let canonical = (0..2 * PER_COLOR)
        .filter(|bit| seen & (1 << bit) != 0)
        .map(letter)
        .collect();
    Ok((castling_type, canonical))
}

/// One rank, read: its width and the pieces on its first [`MAX_FILES`] squares.
struct RankCells {
    squares: u32,
    cells: [Option<(Piece, bool)>; MAX_FILES],
}

/// Read one rank's text (`rank` is the chess rank number, for messages), checking every
/// character. Counts saturate at [`COUNT_CAP`].
fn read_rank(text: &str, rank: u8) -> Result<RankCells, FenError> {
    if text.is_empty() {
        return Err(FenErrorKind::EmptyRank { rank }.into());
    }
    let mut cells = [None; MAX_FILES];
    let mut base: u32 = 0; // squares before the current number
    let mut run: u32 = 0; // the current number of empty squares
    let mut in_number = false;
    let mut last_piece: Option<Option<usize>> = None; // the previous character was a piece
    for (i, c) in text.chars().enumerate() {
        let column = i + 1;
        if let Some(d) = c.to_digit(10) {
            if !in_number && d == 0 {
                return Err(FenErrorKind::ZeroCount {
                    rank,
                    text: echo(text),
                    column,
                }
                .into());
            }
            run = (run * 10 + d).min(COUNT_CAP);
            in_number = true;
            last_piece = None;
            continue;
        }
        base = (base + run).min(COUNT_CAP);
        run = 0;
        in_number = false;
        if c == '~' {
            match last_piece.take() {
                Some(Some(file)) => {
                    if let Some(Some((_, promoted))) = cells.get_mut(file) {
                        *promoted = true;
                    }
                }
                Some(None) => {} // a piece off the stored width: the width check will fail
                None => {
                    return Err(FenErrorKind::StrayPromotion {
                        rank,
                        text: echo(text),
                        column,
                    }
                    .into());
                }
            }
            continue;
        }
        let Some(piece) = Piece::from_fen_char(c) else {
            return Err(FenErrorKind::RankCharacter {
                rank,
                text: echo(text),
                found: clean(c),
                column,
            }
            .into());
        };
        let file = base as usize;
        let stored = cells.get_mut(file).map(|cell| *cell = Some((piece, false)));
        last_piece = Some(stored.map(|()| file));
        base = (base + 1).min(COUNT_CAP);
    }
    Ok(RankCells {
        squares: (base + run).min(COUNT_CAP),
        cells,
    })
}

/// Parse the placement field, with an optional bracketed or ninth-rank pocket.
fn parse_placement(field: &str) -> Result<Position, FenError> {
    let mut ranks: Vec<&str> = field.split('/').collect();
    // A bracketed pocket can only follow the last rank: `…/RNBQKBNR[Qn]`.
    let mut bracket = None;
    if let Some(last) = ranks.last_mut()
        && let Some((board, pocket)) = last.find('[').and_then(|open| last.split_at_checked(open))
    {
        *last = board;
        bracket = Some(pocket);
    }
    let count = ranks.len();
    let ninth = match (count, bracket) {
        (9, None) => ranks
            .get(8)
            .copied()
            .filter(|text| !text.bytes().any(|b| b.is_ascii_digit())),
        _ => None,
    };
    if count != 8 && ninth.is_none() {
        // A bad character says more than a bad count (`<svg>`, `start x`).
        for (rank, text) in (1..=RANKS).rev().zip(&ranks) {
            if !text.is_empty() {
                read_rank(text, rank)?;
            }
        }
        return Err(FenErrorKind::RankCount { count }.into());
    }
    let mut pos: Option<Position> = None;
    for (rank, text) in (1..=RANKS).rev().zip(&ranks) {
        let read = read_rank(text, rank)?;
        let files = match &pos {
            Some(pos) => pos.files(),
            None => {
                let files = match read.squares {
                    8 => 8,
                    10 => 10,
                    squares => {
                        return Err(FenErrorKind::BoardWidth {
                            text: echo(text),
                            squares,
                        }
                        .into());
                    }
                };
                pos.insert(Position::empty(files)).files()
            }
        };
        if read.squares != u32::from(files) {
            return Err(FenErrorKind::RankWidth {
                rank,
                text: echo(text),
                squares: read.squares,
                files,
            }
            .into());
        }
        if let Some(pos) = &mut pos {
            for (file, cell) in (0..files).zip(read.cells) {
                if let Some((piece, promoted)) = cell {
                    let sq = Square::new(file, rank - 1);
                    pos.set(sq, Some(piece));
                    pos.set_promoted(sq, promoted);
                }
            }
        }
    }
    // `ranks` has at least 8 entries here, so the loop ran.
    let mut pos = pos.ok_or(FenErrorKind::RankCount { count })?;
    if let Some(text) = bracket {
        pos.pocket = Some(parse_bracket_pocket(text)?);
    } else if let Some(text) = ninth {
        pos.pocket = Some(parse_pocket_letters(text, text, 0)?);
    }
    Ok(pos)
}

/// A pocket in brackets, `text` starting with `[`.
fn parse_bracket_pocket(text: &str) -> Result<Pocket, FenError> {
    let inner = text.strip_prefix('[').unwrap_or(text);
    match inner.find(']') {
        None => Err(FenErrorKind::UnclosedPocket { text: echo(text) }.into()),
        Some(close) => {
            let (letters, after) = inner.split_at_checked(close).unwrap_or((inner, ""));
            let pocket = parse_pocket_letters(letters, text, 1)?;
            // `after` starts with the `]`; anything past it is out of place.
            if let Some((i, c)) = after.chars().enumerate().nth(1) {
                let column = 1 + letters.chars().count() + i + 1;
                return Err(FenErrorKind::PocketCharacter {
                    text: echo(text),
                    found: clean(c),
                    column,
                }
                .into());
            }
            Ok(pocket)
        }
    }
}

/// Piece letters of a pocket; `whole` is the pocket's text for messages, in which
/// `letters` starts after `offset` characters.
fn parse_pocket_letters(letters: &str, whole: &str, offset: usize) -> Result<Pocket, FenError> {
    let mut pocket = Pocket::default();
    for (i, c) in letters.chars().enumerate() {
        match Piece::from_fen_char(c) {
            Some(piece) => pocket.add(piece),
            None => {
                return Err(FenErrorKind::PocketCharacter {
                    text: echo(whole),
                    found: clean(c),
                    column: offset + i + 1,
                }
                .into());
            }
        }
    }
    Ok(pocket)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::chess::piece::Role;

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
                "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP",
                "placement has 7 ranks, expected 8 ranks separated by \"/\"",
            ),
            (
                "8/8/8/8/8/8/8/8/8",
                "placement has 9 ranks, expected 8 ranks separated by \"/\"",
            ),
            (
                "8/8/8/8/8/8/8/8/Q[n]",
                "placement has 9 ranks, expected 8 ranks separated by \"/\"",
            ),
            (
                "//////",
                "placement has 7 ranks, expected 8 ranks separated by \"/\"",
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
                "rank 1 \"08\" has '0' at column 1, expected a count of empty squares from 1 to 10",
            ),
            (
                "rnbqkbnr/ppp2pppp/8/8/8/8/PPPPPPPP/RNBQKBNR",
                "rank 7 \"ppp2pppp\" has 9 squares, expected 8",
            ),
            (
                "rnbqkbnrr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR",
                "rank 8 \"rnbqkbnrr\" has 9 squares, expected 8 or 10",
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
                "en passant square \"e9\", expected \"-\" or a square on rank 3 or 6",
            ),
            (
                "8/8/8/8/8/8/8/8 w - e4",
                "en passant square \"e4\", expected \"-\" or a square on rank 3 or 6",
            ),
            (
                "8/8/8/8/8/8/8/8 w - i3",
                "en passant square \"i3\", expected \"-\" or a square on rank 3 or 6",
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
                "rank 8 \"start\" has 's' at column 1, expected a piece letter (KQRBNPAC, lower case for black) or a digit",
            ),
            (
                "<svg onload=alert(1)>",
                "rank 8 \"<svg\" has '<' at column 1, expected a piece letter (KQRBNPAC, lower case for black) or a digit",
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
        assert_eq!(kind("8/8/8"), FenErrorKind::RankCount { count: 3 });
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
            kind("9/8/8/8/8/8/8/x"),
            FenErrorKind::BoardWidth { squares: 9, .. }
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
        let long = format!("{}\u{0}\n/8", "p".repeat(100));
        let msg = message(&long);
        assert_eq!(
            msg,
            format!(
                "invalid FEN: rank 8 \"{}…\" has '?' at column 101, {PIECES}",
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
