//! The FEN placement field: its ranks, the board's shape they give, and a crazyhouse pocket
//! (in brackets or as a ninth rank), read into a [`Position`].

use super::dialect::Dialect;
use super::error::{FenError, FenErrorKind, clean, echo};
use super::rank::{Cell, read_rank};
use crate::chess::piece::Piece;
use crate::chess::position::{BoardSize, MAX_RANKS, Pocket, Position, Square};

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

/// A one-rank placement with a character no rank may hold is no board at all (`not a
/// fen`, `<svg …>`), unless the character is a mark Fairy FEN reads (its error names the
/// dialect) or the text is `start` or `empty` followed by more fields.
fn not_a_board(e: FenError, count: usize, text: &str) -> FenError {
    let word = ["start", "empty"].contains(&text.to_ascii_lowercase().as_str());
    match e.kind {
        FenErrorKind::RankCharacter { found, .. }
            if count == 1 && !word && !matches!(found, '-' | '*' | '\'') =>
        {
            FenErrorKind::NotABoard { text: echo(text) }.into()
        }
        _ => e,
    }
}

/// Parse the placement field, with an optional bracketed or ninth-rank pocket.
pub(super) fn parse_placement(
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
        let read = read_rank(text, rank, dialect).map_err(|e| not_a_board(e, count, text))?;
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
