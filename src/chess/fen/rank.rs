//! One rank of a FEN placement, read character by character: pieces, crazyhouse's `~`,
//! runs of empty squares, and in the other dialects Fairy FEN's figures and letter pieces.

use super::dialect::Dialect;
use super::error::{COUNT_CAP, FenError, FenErrorKind, clean, echo};
use crate::chess::fairy::{FairyMarker, Figure, FigureKind, Side, SquareText, Turn};
use crate::chess::piece::{Piece, Role};

/// The widest rank we store pieces for.
pub(super) const MAX_FILES: usize = crate::chess::position::MAX_FILES as usize;

/// What a rank's square holds.
#[derive(Clone, Copy)]
pub(super) enum Cell {
    /// An orthodox piece, and whether it carries the crazyhouse mark `~`.
    Piece(Piece, bool),
    /// Anything else (Fairy FEN, letter pieces).
    Figure(Figure),
}

/// One rank, read: its width and what stands on its first [`MAX_FILES`] squares.
pub(super) struct RankCells {
    pub(super) squares: u32,
    pub(super) cells: [Option<Cell>; MAX_FILES],
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
            expected: self.dialect.characters(found),
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
                shape: FigureKind::Letter(c.to_ascii_lowercase()),
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
                shape: FigureKind::Text(text),
                side,
                turn,
            }));
            return Ok(from + len - i);
        }
        let shape = match Role::from_letter(c.to_ascii_uppercase()) {
            Some(Role::Archbishop | Role::Chancellor) | None => FairyMarker::from_letter(c)
                .map(FigureKind::Marker)
                .ok_or_else(|| self.error_at(c, j + 1))?,
            Some(role) => FigureKind::Piece(role),
        };
        let side = match (neutral, c.is_ascii_uppercase()) {
            (true, _) => Side::Neutral,
            (false, true) => Side::White,
            (false, false) => Side::Black,
        };
        // An upright white or black piece is orthodox; `C` and `c` are circles here, not
        // chancellors.
        let orthodox = match (side, turn, shape) {
            (Side::White | Side::Black, Turn::None, FigureKind::Piece(_)) => {
                Piece::from_fen_char(c)
            }
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
pub(super) fn read_rank(text: &str, rank: u8, dialect: Dialect) -> Result<RankCells, FenError> {
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
