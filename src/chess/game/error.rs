//! Game errors: [`GameError`], its kinds, why a move is illegal and why a position cannot be
//! played, and their one-sentence messages.

use crate::chess::fen::FenError;
use crate::chess::letters::Letters;
use crate::chess::pgn::PgnError;
use crate::chess::piece::Color;
use crate::chess::position::CastlingType;
use crate::echo::{Echo, Token};
use thiserror::Error;

/// Why a game could not be read or played: one sentence, without the parameter's name.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error("{kind}")]
pub struct GameError {
    /// What was wrong, with the details the message shows.
    pub kind: GameErrorKind,
}

impl From<GameErrorKind> for GameError {
    fn from(kind: GameErrorKind) -> GameError {
        GameError { kind }
    }
}

impl From<crate::chess::pgn::PgnErrorKind> for GameError {
    fn from(kind: crate::chess::pgn::PgnErrorKind) -> Self {
        PgnError::from(kind).into()
    }
}

impl From<PgnError> for GameError {
    fn from(e: PgnError) -> Self {
        GameErrorKind::Pgn(e).into()
    }
}

/// The kinds of [`GameError`]. Every `text` field holds the offending input as written,
/// cut to 41 characters (the message shows at most 40, quoted, non-printable characters as
/// `?`).
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[non_exhaustive]
pub enum GameErrorKind {
    /// The PGN text (or the SAN movetext) could not be read.
    #[error(transparent)]
    Pgn(#[from] PgnError),
    /// A `[Variant]` tag naming a variant other than standard chess or Chess960.
    #[error(
        "the variant {} is not supported: standard chess and Chess960 only",
        Echo(.text)
    )]
    Variant {
        /// The tag's value.
        text: String,
    },
    /// The `[FEN]` tag does not parse.
    #[error("the FEN tag {} is not a valid FEN: {error}", Echo(.text))]
    FenTag {
        /// The tag's value.
        text: String,
        /// Why the FEN reader rejected it.
        error: FenError,
    },
    /// The `[FEN]` tag's position cannot be played.
    #[error("the FEN tag {0}")]
    UnplayableFenTag(Unplayable),
    /// The start position cannot be played.
    #[error("the position {0}")]
    UnplayablePosition(Unplayable),
    /// A tag pair in SAN moves.
    #[error("{} is a tag pair, not a move", Echo(.text))]
    TagPair {
        /// The tag pair, as `[Name "value"]`.
        text: String,
    },
    /// Text after the result token of SAN moves.
    #[error("{} comes after the result {result}: the moves end there", Echo(.text))]
    AfterResult {
        /// The text after the result.
        text: String,
        /// The result token.
        result: String,
    },
    /// Text left over after SAN moves that is not a move.
    #[error("{} is not a move", Echo(.text))]
    NotAMove {
        /// The text left over.
        text: String,
    },
    /// More plies than allowed.
    #[error("the game has {plies} plies: at most {max} are allowed")]
    TooLong {
        /// Plies in the game.
        plies: usize,
        /// The most allowed.
        max: usize,
    },
    /// Piece letters that mean other pieces on a 10×8 board (Capablanca chess).
    #[error(
        "{} piece letters (lang={}) cannot be read on a 10×8 board, where {}",
        .letters.name(),
        .letters.code(),
        clash_pieces(*.letters)
    )]
    LettersOn10x8 {
        /// The letters asked for.
        letters: Letters,
    },
    /// More moves in the whole tree (main line and variations) than allowed.
    #[error("the game has more than {max} moves with its variations")]
    TooManyMoves {
        /// The most allowed.
        max: usize,
    },
    /// Variations nested deeper than allowed.
    #[error("variations nest deeper than {max} levels")]
    TooDeep {
        /// The deepest nesting allowed.
        max: usize,
    },
    /// A move that cannot be played next.
    #[error(
        "{} {why} for {} {}",
        move_label(*.number, *.side, .written),
        side_name(*.side),
        after_text(.after)
    )]
    Move {
        /// The move number of the position it is played in.
        number: u16,
        /// The side to move.
        side: Color,
        /// The move as written (cut to 41 characters).
        written: String,
        /// The ply before it, numbered as written (`3...Bg4`), or `None` at the start.
        after: Option<String>,
        /// Why it cannot be played.
        why: IllegalMove,
    },
}

/// Why a written move cannot be played next: the sentence's predicate.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[non_exhaustive]
pub enum IllegalMove {
    /// Not SAN at all.
    #[error("is not a move in SAN (such as Nf3, exd5, O-O, e8=Q)")]
    NotSan,
    /// Not SAN in the piece letters asked for (other than English).
    #[error(
        "is not a move in SAN with {} piece letters (such as {}f3, exd5, O-O, e8={})",
        .letters.name(),
        .letters.pieces()[4],
        .letters.pieces()[1]
    )]
    NotSanIn {
        /// The letters asked for.
        letters: Letters,
    },
    /// Not UCI at all.
    #[error("is not a move in UCI (such as e2e4, e7e8q)")]
    NotUci,
    /// Castling that is not legal now.
    #[error("is not legal (no castling on the {}'s side now)", if *.short { "king" } else { "queen" })]
    NoCastling {
        /// King's side (`O-O`) when true.
        short: bool,
    },
    /// A pawn move to the last rank without a promotion piece.
    #[error(
        "is not a legal move (a pawn reaching the last rank must promote: add =Q, =R, =B or =N)"
    )]
    MustPromote,
    /// No legal move matches.
    #[error("is not a legal move")]
    Illegal,
    /// Several legal moves match.
    #[error("is ambiguous (it could be {})", .candidates.join(" or "))]
    Ambiguous {
        /// The matching moves in standard SAN.
        candidates: Vec<String>,
    },
}

/// Why a position cannot be played from: the sentence's predicate after "the position" or
/// "the FEN tag".
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[non_exhaustive]
pub enum Unplayable {
    /// Not 8×8, or with pieces in hand.
    #[error(
        "is not on an 8×8 board without pieces in hand: only standard chess and Chess960 can be played"
    )]
    Board,
    /// A king missing (or several).
    #[error("needs one king of each colour to be played")]
    Kings,
    /// Symmetric or modern castling.
    #[error(
        "has castling type \"{}\" (symmetric or modern castling): only standard chess and Chess960 can be played",
        .castling_type.prefix()
    )]
    CastlingType {
        /// The position's castling type (not [`CastlingType::Standard`]).
        castling_type: CastlingType,
    },
    /// A castling right without its king and rook.
    #[error("has castling right {right} without a king and rook for it")]
    CastlingRight {
        /// The right's letter.
        right: char,
    },
    /// Not a legal position.
    #[error(
        "is not a legal position to play from (kings in check, pawns on the first or last rank, or an impossible en-passant square)"
    )]
    Illegal,
}

/// `3. Nf3` or `3... Nf3` (a space after the dots: what was written, not our SAN).
fn move_label(number: u16, side: Color, written: &str) -> String {
    match side {
        Color::White => format!("{number}. {}", Token(written)),
        Color::Black => format!("{number}... {}", Token(written)),
    }
}

/// The 10×8 pieces whose letters `letters` use for others.
fn clash_pieces(letters: Letters) -> &'static str {
    if letters.pieces().contains(&'A') {
        "A is the archbishop and C the chancellor"
    } else {
        "C is the chancellor"
    }
}

fn side_name(side: Color) -> &'static str {
    match side {
        Color::White => "White",
        Color::Black => "Black",
    }
}

fn after_text(after: &Option<String>) -> String {
    match after {
        None => "in the starting position".to_string(),
        Some(ply) => format!("after {ply}"),
    }
}

pub(super) fn too_long(plies: usize, max: usize) -> GameError {
    GameErrorKind::TooLong { plies, max }.into()
}
