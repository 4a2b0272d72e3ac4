//! FEN errors: [`FenError`], its kinds and their one-line sentences, and how a bad piece of
//! the input is repeated in them (shortened, cleaned).

use std::fmt;
use thiserror::Error;

/// How many characters of a bad piece of text an error repeats, `…` included.
const ECHO: usize = 40;

/// Counts of empty squares saturate here, so no digit string can overflow.
pub(super) const COUNT_CAP: u32 = 1000;

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
    /// A placement of one rank holding a character no rank may hold: no board at all
    /// (`not a fen`, `<svg …>`).
    #[error(
        "\"{text}\" is not a board: a FEN starts with the board's ranks separated by \"/\", such as \"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1\", or is \"start\" or \"empty\""
    )]
    NotABoard {
        /// The placement's text.
        text: String,
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
pub(super) fn clean(c: char) -> char {
    if c.is_ascii_graphic() || c == ' ' {
        c
    } else {
        '?'
    }
}

/// Text made safe to repeat in a message: at most [`ECHO`] characters (the last one `…`
/// when shortened), non-printable and non-ASCII characters replaced by `?`.
pub(super) fn echo(text: &str) -> String {
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
