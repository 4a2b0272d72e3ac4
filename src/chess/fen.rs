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

use crate::chess::fairy::{Figure, Marker, Shape, Side, SquareText, Turn};
use crate::chess::piece::{Color, Piece, Role};
use crate::chess::position::{BoardSize, CastlingType, MAX_RANKS, Pocket, Position, Square};
use std::fmt;
use std::str::FromStr;
use thiserror::Error;

/// How many characters of a bad piece of text an error repeats, `…` included.
const ECHO: usize = 40;

/// Counts of empty squares saturate here, so no digit string can overflow.
const COUNT_CAP: u32 = 1000;

/// The widest rank we store pieces for.
const MAX_FILES: usize = crate::chess::position::MAX_FILES as usize;

/// What a standard FEN's rank may hold, as its errors say.
const STANDARD_CHARACTERS: &str = "a piece letter (KQRBNPAC, lower case for black) or a digit";
/// What a rank may hold in the `letters` dialect.
const LETTERS_CHARACTERS: &str = "a letter (upper case for white) or a digit";
/// What a rank may hold in Fairy FEN.
const FAIRY_CHARACTERS: &str = "a piece letter (KQRBNP), a marker (C X S T), text ('A or ''AB), '-' for neutral or '*1' to '*3' for turned, lower case for black, or a digit";

/// The FEN dialect a text is read in. They differ in what letters mean, so one is chosen;
/// the default reads every FEN, X-FEN and crazyhouse FEN the service has always read.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash)]
pub enum Dialect {
    /// FEN, X-FEN (`A` archbishop, `C` chancellor), Shredder-FEN and crazyhouse.
    #[default]
    Standard,
    /// Joost de Heer's Fairy FEN: neutral (`-k`), turned (`*2q`), text (`'A`, `''12`) and
    /// markers (`c`, `x`, `s`, `t`); no archbishop or chancellor, no crazyhouse marks.
    Fairy,
    /// The standard dialect, and any other letter a piece drawn as a lettered token.
    Letters,
}

impl Dialect {
    /// The names of the dialects, as the `dialect` parameter takes them.
    pub const NAMES: [&'static str; 3] = ["standard", "fairy", "letters"];

    /// The dialect of a name (`ffen` is `fairy`, `xfen` and `fen` are `standard`).
    pub fn from_name(name: &str) -> Option<Dialect> {
        match name.to_ascii_lowercase().as_str() {
            "standard" | "fen" | "xfen" | "x-fen" => Some(Dialect::Standard),
            "fairy" | "ffen" => Some(Dialect::Fairy),
            "letters" => Some(Dialect::Letters),
            _ => None,
        }
    }

    fn characters(self) -> &'static str {
        match self {
            Dialect::Standard => STANDARD_CHARACTERS,
            Dialect::Fairy => FAIRY_CHARACTERS,
            Dialect::Letters => LETTERS_CHARACTERS,
        }
    }
}

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
    /// The placement has more than 16 ranks.
    #[error("placement has {count} ranks, expected 1 to 16 ranks separated by \"/\"")]
    TooManyRanks {
        /// How many `/`-separated parts the placement has.
        count: usize,
    },
    /// A board that is neither square nor 8 ranks tall, without its size given; or not the
    /// size given.
    #[error("placement has {count} ranks, expected {expected} ranks separated by \"/\"{}", shape_hint(*.files, *.count, *.given))]
    RankCount {
        /// The ranks expected: 8, the files (a square board), or the size given.
        expected: String,
        /// Files of the first rank.
        files: u8,
        /// Whether the board's size was given.
        given: bool,
        /// How many `/`-separated parts the placement has.
        count: usize,
    },
    /// A rank with no text (`8/8//8…`).
    #[error("rank {rank} is empty, expected pieces and digits such as \"8\" or \"pppppppp\"")]
    EmptyRank {
        /// Chess rank number, 8 for the first rank of the text.
        rank: u8,
    },
    /// A character that is neither a piece letter nor a digit (in the dialect read).
    #[error("rank {rank} \"{text}\" has '{found}' at column {column}, expected {expected}")]
    RankCharacter {
        /// Chess rank number.
        rank: u8,
        /// The rank's text.
        text: String,
        /// The character found (`?` if not printable ASCII).
        found: char,
        /// 1-based character position within the rank's text.
        column: usize,
        /// What the dialect allows there.
        expected: &'static str,
    },
    /// A Fairy FEN turn that is not `*1`, `*2` or `*3` (`*0` is upright).
    #[error(
        "rank {rank} \"{text}\" has a turn '*{found}' at column {column}, expected *1 (90°), *2 (180°) or *3 (270°) before a piece"
    )]
    FairyTurn {
        /// Chess rank number.
        rank: u8,
        /// The rank's text.
        text: String,
        /// The character after `*` (`?` if not printable ASCII or missing).
        found: char,
        /// 1-based character position of the `*`.
        column: usize,
    },
    /// Fairy FEN text without its characters (`'` at the end of a rank, `''A/`).
    #[error(
        "rank {rank} \"{text}\" has text at column {column} without its characters, expected one character after ' or two after '' (at most two characters on a square)"
    )]
    FairyText {
        /// Chess rank number.
        rank: u8,
        /// The rank's text.
        text: String,
        /// 1-based character position of the first `'`.
        column: usize,
    },
    /// Text (`'A`, `''12`) with a control character or a non-character, which no font
    /// draws and XML cannot hold.
    #[error(
        "rank {rank} \"{text}\" has text at column {column} with the character U+{code:04X}, which is not printable: the text on a square is one or two printable characters"
    )]
    FairyTextUnprintable {
        /// Chess rank number.
        rank: u8,
        /// The rank's text.
        text: String,
        /// 1-based character position of the first `'`.
        column: usize,
        /// The character's code point.
        code: u32,
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
        "rank {rank} \"{text}\" has '0' at column {column}, expected a count of empty squares from 1 to 16"
    )]
    ZeroCount {
        /// Chess rank number.
        rank: u8,
        /// The rank's text.
        text: String,
        /// 1-based character position of the `0`.
        column: usize,
    },
    /// The first rank is wider than 16 squares.
    #[error(
        "rank {rank} \"{text}\" has {} squares, expected 1 to 16 (files a to p)",
        squares_text(*.squares)
    )]
    BoardWidth {
        /// Chess rank number of the first rank (the number of ranks).
        rank: u8,
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
        /// The board width set by the first rank.
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
    /// An en-passant field that is not `-` or a square on rank 3 or 6 of the board (any
    /// square of a board without 8 ranks).
    #[error(
        "en passant square \"{text}\", expected \"-\" or a square on rank 3 or 6 (any square of the board on a board without 8 ranks)"
    )]
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

/// How to draw a board of another shape: give its size.
fn shape_hint(files: u8, count: usize, given: bool) -> String {
    if given {
        String::new()
    } else {
        format!(
            " (a board that is neither square nor 8 ranks tall needs its size: board={files}x{count})"
        )
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
/// Figures are written in Fairy FEN (`-k`, `*2Q`, `'A`), letter pieces as their letter:
/// the text reads back in the dialect it was read in.
pub fn placement(pos: &Position) -> String {
    board_text(pos, false)
}

fn board_text(pos: &Position, marks: bool) -> String {
    let mut out = String::with_capacity(100);
    for rank in (0..pos.ranks()).rev() {
        let mut empty = 0u8;
        for file in 0..pos.files() {
            let sq = Square::new(file, rank);
            let piece = pos.get(sq);
            let figure = pos.figure(sq);
            if piece.is_none() && figure.is_none() {
                empty += 1;
                continue;
            }
            if empty > 0 {
                out.push_str(&empty.to_string());
                empty = 0;
            }
            if let Some(piece) = piece {
                out.push(piece.fen_char());
                if marks && pos.is_promoted(sq) {
                    out.push('~');
                }
            } else if let Some(figure) = figure {
                out.push_str(&figure.fen());
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
/// use staunton::fen::{self, Dialect};
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
/// use staunton::fen::{self, Dialect};
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

fn parse_en_passant(text: &str, board: BoardSize) -> Result<Option<Square>, FenError> {
    if text == "-" {
        return Ok(None);
    }
    match Square::parse(text, board) {
        Some(sq) if board.ranks != 8 || sq.rank == 2 || sq.rank == 5 => Ok(Some(sq)),
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
    const PER_COLOR: u32 = 2 + MAX_FILES as u32; // 18: both colours fit in a u64
    // The bit of a letter: colour × PER_COLOR + (0 K, 1 Q, 2.. file letters).
    let bit_of = |c: char| -> Option<u32> {
        let color = u32::from(c.is_ascii_lowercase());
        let order = match c.to_ascii_uppercase() {
            'K' => 0,
            'Q' => 1,
            upper @ 'A'..='P' if (upper as u32 - 'A' as u32) < u32::from(files) => {
                2 + (upper as u32 - 'A' as u32)
            }
            _ => return None,
        };
        Some(color * PER_COLOR + order)
    };
    let mut seen: u64 = 0;
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

/// What a rank's square holds.
#[derive(Clone, Copy)]
enum Cell {
    /// An orthodox piece, and whether it carries the crazyhouse mark `~`.
    Piece(Piece, bool),
    /// Anything else (Fairy FEN, letter pieces).
    Figure(Figure),
}

/// One rank, read: its width and what stands on its first [`MAX_FILES`] squares.
struct RankCells {
    squares: u32,
    cells: [Option<Cell>; MAX_FILES],
}

/// The rank being read, for messages and for placing what is read.
struct RankReader<'a> {
    text: &'a str,
    rank: u8,
    dialect: Dialect,
    cells: [Option<Cell>; MAX_FILES],
    /// Squares before the current number.
    base: u32,
    /// The file the previous piece went to, while a `~` may still follow it.
    last_piece: Option<Option<usize>>,
}

impl RankReader<'_> {
    fn error_at(&self, found: char, column: usize) -> FenError {
        FenErrorKind::RankCharacter {
            rank: self.rank,
            text: echo(self.text),
            found: clean(found),
            column,
            expected: self.dialect.characters(),
        }
        .into()
    }

    /// Put `cell` on the next square (stored only within [`MAX_FILES`]).
    fn place(&mut self, cell: Cell) {
        let file = self.base as usize;
        let stored = self.cells.get_mut(file).map(|slot| *slot = Some(cell));
        self.last_piece = match cell {
            Cell::Piece(..) => Some(stored.map(|()| file)),
            Cell::Figure(_) => None,
        };
        self.base = (self.base + 1).min(COUNT_CAP);
    }

    /// A `~` in the standard and letters dialects: marks the piece just read.
    fn promotion(&mut self, column: usize) -> Result<(), FenError> {
        match self.last_piece.take() {
            Some(Some(file)) => {
                if let Some(Some(Cell::Piece(_, promoted))) = self.cells.get_mut(file) {
                    *promoted = true;
                }
                Ok(())
            }
            Some(None) => Ok(()), // a piece off the stored width: the width check will fail
            None => Err(FenErrorKind::StrayPromotion {
                rank: self.rank,
                text: echo(self.text),
                column,
            }
            .into()),
        }
    }

    /// One letter of the standard or letters dialect.
    fn letter(&mut self, c: char, column: usize) -> Result<(), FenError> {
        if let Some(piece) = Piece::from_fen_char(c) {
            self.place(Cell::Piece(piece, false));
            return Ok(());
        }
        if self.dialect == Dialect::Letters && c.is_ascii_alphabetic() {
            let side = if c.is_ascii_uppercase() {
                Side::White
            } else {
                Side::Black
            };
            self.place(Cell::Figure(Figure {
                shape: Shape::Letter(c.to_ascii_lowercase()),
                side,
                turn: Turn::None,
            }));
            return Ok(());
        }
        Err(self.error_at(c, column))
    }

    /// One Fairy FEN token starting at `chars[i]`: `[-~]?(\*d)?(letter | 'c | ''cc)`.
    /// Returns how many characters it took.
    fn fairy(&mut self, chars: &[char], i: usize) -> Result<usize, FenError> {
        let mut j = i;
        let neutral = matches!(chars[j], '-' | '~');
        j += usize::from(neutral);
        let mut turn = Turn::None;
        if chars.get(j) == Some(&'*') {
            let digit = chars.get(j + 1).copied();
            turn = digit
                .and_then(|d| d.to_digit(10))
                .and_then(Turn::from_digit)
                .ok_or_else(|| FenErrorKind::FairyTurn {
                    rank: self.rank,
                    text: echo(self.text),
                    found: digit.map_or('?', clean),
                    column: j + 1,
                })?;
            j += 2;
        }
        let Some(&c) = chars.get(j) else {
            let last = chars.get(j.saturating_sub(1)).copied().unwrap_or('?');
            return Err(self.error_at(last, j));
        };
        if c == '\'' {
            let double = chars.get(j + 1) == Some(&'\'');
            let (from, len) = if double { (j + 2, 2) } else { (j + 1, 1) };
            let taken: String = chars.iter().skip(from).take(len).collect();
            let text = (taken.chars().count() == len && !taken.contains(['\'', '/']))
                .then(|| SquareText::new(&taken))
                .flatten()
                .ok_or_else(|| FenErrorKind::FairyText {
                    rank: self.rank,
                    text: echo(self.text),
                    column: j + 1,
                })?;
            if let Some((_, c)) = crate::echo::first_forbidden(&taken) {
                return Err(FenErrorKind::FairyTextUnprintable {
                    rank: self.rank,
                    text: echo(self.text),
                    column: j + 1,
                    code: u32::from(c),
                }
                .into());
            }
            let side = Side::White;
            self.place(Cell::Figure(Figure {
                shape: Shape::Text(text),
                side,
                turn,
            }));
            return Ok(from + len - i);
        }
        let shape = match Role::from_letter(c.to_ascii_uppercase()) {
            Some(Role::Archbishop | Role::Chancellor) | None => Marker::from_letter(c)
                .map(Shape::Marker)
                .ok_or_else(|| self.error_at(c, j + 1))?,
            Some(role) => Shape::Piece(role),
        };
        let side = match (neutral, c.is_ascii_uppercase()) {
            (true, _) => Side::Neutral,
            (false, true) => Side::White,
            (false, false) => Side::Black,
        };
        // An upright white or black piece is orthodox; `C` and `c` are circles here, not
        // chancellors.
        let orthodox = match (side, turn, shape) {
            (Side::White | Side::Black, Turn::None, Shape::Piece(_)) => Piece::from_fen_char(c),
            _ => None,
        };
        let cell = match orthodox {
            Some(piece) => Cell::Piece(piece, false),
            None => Cell::Figure(Figure { shape, side, turn }),
        };
        self.place(cell);
        Ok(j + 1 - i)
    }
}

/// Read one rank's text (`rank` is the chess rank number, for messages), checking every
/// character. Counts saturate at [`COUNT_CAP`].
fn read_rank(text: &str, rank: u8, dialect: Dialect) -> Result<RankCells, FenError> {
    if text.is_empty() {
        return Err(FenErrorKind::EmptyRank { rank }.into());
    }
    let mut reader = RankReader {
        text,
        rank,
        dialect,
        cells: [None; MAX_FILES],
        base: 0,
        last_piece: None,
    };
    let chars: Vec<char> = text.chars().collect();
    let mut run: u32 = 0; // the current number of empty squares
    let mut in_number = false;
    let mut i = 0;
    while let Some(&c) = chars.get(i) {
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
            reader.last_piece = None;
            i += 1;
            continue;
        }
        reader.base = (reader.base + run).min(COUNT_CAP);
        run = 0;
        in_number = false;
        match dialect {
            Dialect::Fairy => i += reader.fairy(&chars, i)?,
            _ if c == '~' => {
                reader.promotion(column)?;
                i += 1;
            }
            _ => {
                reader.letter(c, column)?;
                i += 1;
            }
        }
    }
    Ok(RankCells {
        squares: (reader.base + run).min(COUNT_CAP),
        cells: reader.cells,
    })
}

/// Split the placement into its ranks and its pocket's text: bracketed (`…/RNBQKBNR[Qn]`),
/// or, in the standard dialect on a board 8 or 10 files wide, a ninth part of piece letters
/// without digits (`…/RNBQKBNR/Qn`).
fn split_placement(field: &str, dialect: Dialect) -> (Vec<&str>, Option<&str>, Option<&str>) {
    let mut ranks: Vec<&str> = field.split('/').collect();
    let mut bracket = None;
    if dialect != Dialect::Fairy
        && let Some(last) = ranks.last_mut()
        && let Some((board, pocket)) = last.find('[').and_then(|open| last.split_at_checked(open))
    {
        *last = board;
        bracket = Some(pocket);
    }
    let first_width = ranks
        .first()
        .and_then(|t| read_rank(t, 9, dialect).ok())
        .map(|r| r.squares);
    let ninth = match (ranks.len(), bracket, first_width) {
        (9, None, Some(8 | 10)) if dialect == Dialect::Standard => ranks
            .get(8)
            .copied()
            .filter(|text| !text.bytes().any(|b| b.is_ascii_digit())),
        _ => None,
    };
    if ninth.is_some() {
        ranks.truncate(8);
    }
    (ranks, bracket, ninth)
}

/// A board's shape, read from its text: square, or 8 ranks tall (8 files, Capablanca's 10,
/// or any width), unless `board` gives it. A 7-rank 8-file placement is a rank left out, not
/// an 8×7 board.
fn check_shape(pos: &Position, count: usize, board: Option<BoardSize>) -> Result<(), FenError> {
    let files = pos.files();
    let expected = match board {
        Some(size) if size.ranks as usize != count => size.ranks.to_string(),
        Some(_) => return Ok(()),
        None if count == 8 || count == usize::from(files) => return Ok(()),
        None if files == 8 => "8".to_string(),
        None => format!("8 or {files}"),
    };
    Err(FenErrorKind::RankCount {
        count,
        expected,
        files,
        given: board.is_some(),
    }
    .into())
}

/// Parse the placement field, with an optional bracketed or ninth-rank pocket.
fn parse_placement(
    field: &str,
    dialect: Dialect,
    board: Option<BoardSize>,
) -> Result<Position, FenError> {
    let (ranks, bracket, ninth) = split_placement(field, dialect);
    let count = ranks.len();
    let numbers = |count: usize| (1..=count.min(usize::from(u8::MAX)) as u8).rev();
    if count > usize::from(MAX_RANKS) {
        // A bad character says more than a bad count (`<svg>`, `start x`).
        for (rank, text) in numbers(count).zip(&ranks) {
            if !text.is_empty() {
                read_rank(text, rank, dialect)?;
            }
        }
        return Err(FenErrorKind::TooManyRanks { count }.into());
    }
    let mut pos: Option<Position> = None;
    for (rank, text) in numbers(count).zip(&ranks) {
        let read = read_rank(text, rank, dialect)?;
        let files = match &pos {
            Some(pos) => pos.files(),
            None => {
                let inferred = || {
                    u8::try_from(read.squares)
                        .ok()
                        .and_then(|files| BoardSize::new(files, count as u8))
                };
                let size = board
                    .or_else(inferred)
                    .ok_or_else(|| FenErrorKind::BoardWidth {
                        rank,
                        text: echo(text),
                        squares: read.squares,
                    })?;
                pos.insert(Position::blank(size)).files()
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
                let sq = Square::new(file, rank - 1);
                match cell {
                    Some(Cell::Piece(piece, promoted)) => {
                        pos.set(sq, Some(piece));
                        pos.set_promoted(sq, promoted);
                    }
                    Some(Cell::Figure(figure)) => pos.set_figure(sq, figure),
                    None => {}
                }
            }
        }
    }
    // `ranks` has at least one entry (`split` never returns none), so the loop ran.
    let mut pos = pos.ok_or(FenErrorKind::TooManyRanks { count })?;
    check_shape(&pos, count, board)?;
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
            (
                "<svg onload=alert(1)>",
                "rank 1 \"<svg\" has '<' at column 1, expected a piece letter (KQRBNPAC, lower case for black) or a digit",
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
        let long = format!("{}\u{0}\n/8", "p".repeat(100));
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
