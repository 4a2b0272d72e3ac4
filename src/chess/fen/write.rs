//! Writing FEN: the placement field alone ([`placement`]) and the whole FEN,
//! [`Position`]'s `Display`, in canonical form.

use crate::chess::position::{Position, Square};
use std::fmt;

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
