//! Legal destinations: where the piece on one square may go, by the rules.
//!
//! Owns the question "where can this piece move?" for move dots (`legalMoves=e2`). The
//! moves are cozy-chess's, through `game/board.rs`'s board of a position: standard chess and
//! Chess960 on 8×8 boards. A piece of the side not to move gets the moves it would have
//! if it were its side's turn (the en-passant square, which belongs to the side to move,
//! is dropped).

use crate::chess::game::{Unplayable, board_of, move_squares};
use crate::chess::position::{Position, Square};
use cozy_chess as cc;
use thiserror::Error;

/// One square a piece may go to.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub struct Destination {
    /// Where the piece lands (castling: where the king lands; in Chess960, when the king
    /// stays where it is, the rook's square).
    pub to: Square,
    /// Whether the move takes a piece (en passant included).
    pub capture: bool,
}

/// Why the destinations of a square cannot be given: one sentence completing "the square
/// e4 …".
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum DestinationError {
    /// No piece stands there.
    #[error("is empty: expected a square with a piece on it")]
    Empty,
    /// The position cannot be played.
    #[error("is on a position that {0}")]
    Unplayable(Unplayable),
}

/// The squares the piece on `from` may move to, sorted, each once (a pawn's four
/// promotions are one destination).
pub fn destinations(
    position: &Position,
    from: Square,
) -> Result<Vec<Destination>, DestinationError> {
    if !position.is_chess_board() || position.has_figures() {
        return Err(DestinationError::Unplayable(Unplayable::Board));
    }
    let piece = position.get(from).ok_or(DestinationError::Empty)?;
    let mut asked = position.clone();
    if piece.color != position.turn {
        asked.turn = piece.color;
        asked.en_passant = None;
    }
    let board = board_of(&asked).map_err(DestinationError::Unplayable)?;
    let at = cc_square(from);
    let mut out = Vec::new();
    board.generate_moves_for(board.occupied() & at.bitboard(), |moves| {
        for mv in moves {
            let (_, mut to) = move_squares(&board, mv);
            if to == from {
                // A Chess960 king that castles without moving: the rook's square shows it.
                to = Square::new(mv.to.file() as u8, mv.to.rank() as u8);
            }
            let theirs = board.colors(!board.side_to_move());
            let en_passant = board.piece_on(mv.from) == Some(cc::Piece::Pawn)
                && mv.from.file() != mv.to.file()
                && !theirs.has(mv.to);
            out.push(Destination {
                to,
                capture: theirs.has(mv.to) || en_passant,
            });
        }
        false
    });
    out.sort_unstable();
    out.dedup();
    Ok(out)
}

fn cc_square(sq: Square) -> cc::Square {
    cc::Square::new(
        cc::File::index(usize::from(sq.file)),
        cc::Rank::index(usize::from(sq.rank)),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::chess::position::BoardSize;

    fn dests(fen: &str, from: &str) -> Result<Vec<String>, DestinationError> {
        let position = crate::chess::fen::parse(fen).expect("a FEN");
        let from = Square::parse(from, BoardSize::CHESS).expect("a square");
        Ok(destinations(&position, from)?
            .into_iter()
            .map(|d| format!("{}{}", d.to, if d.capture { "x" } else { "" }))
            .collect())
    }

    const START: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

    #[test]
    fn a_knight_and_a_pawn_at_the_start() {
        assert_eq!(dests(START, "g1").unwrap(), ["f3", "h3"]);
        assert_eq!(dests(START, "e2").unwrap(), ["e3", "e4"]);
        assert!(dests(START, "c1").unwrap().is_empty());
    }

    #[test]
    fn the_side_not_to_move_gets_the_moves_of_its_turn() {
        assert_eq!(dests(START, "b8").unwrap(), ["a6", "c6"]);
        assert_eq!(dests(START, "e4"), Err(DestinationError::Empty));
    }

    #[test]
    fn en_passant_is_a_capture() {
        let fen = "4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 2";
        assert_eq!(dests(fen, "e5").unwrap(), ["d6x", "e6"]);
    }

    #[test]
    fn captures_are_marked() {
        let fen = "4k3/8/8/3p4/4N3/8/8/4K3 w - - 0 1";
        let got = dests(fen, "e4").unwrap();
        assert_eq!(got.len(), 8);
        assert!(
            !got.contains(&"d5x".to_string()),
            "a knight does not take on d5"
        );
        let fen = "k7/8/8/3p4/4Q3/8/8/4K3 w - - 0 1";
        assert!(dests(fen, "e4").unwrap().contains(&"d5x".to_string()));
    }

    #[test]
    fn castling_goes_to_the_kings_square_or_in_chess960_where_it_lands() {
        // (position, king, squares it may go to, a square it may not)
        let cases = [
            (
                "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1",
                "e1",
                &["g1", "c1"][..],
                "b1",
            ),
            // Through an attacked square, no castling.
            (
                "r3k2r/8/8/8/8/8/5r2/R3K2R w KQkq - 0 1",
                "e1",
                &["c1"][..],
                "g1",
            ),
            // King on b1, rooks on a1 and h1: long castling lands the king on c1, short on g1.
            (
                "1k5r/8/8/8/8/8/8/RK5R w HA - 0 1",
                "b1",
                &["c1", "g1"][..],
                "b3",
            ),
            // King on g1 castling short stays: the rook's square shows it.
            ("6k1/8/8/8/8/8/8/6KR w H - 0 1", "g1", &["h1"][..], "g3"),
        ];
        for (fen, king, to, not) in cases {
            let got = dests(fen, king).unwrap();
            for square in to {
                assert!(
                    got.contains(&square.to_string()),
                    "{fen}: {square} in {got:?}"
                );
            }
            assert!(!got.contains(&not.to_string()), "{fen}: {not} in {got:?}");
        }
    }

    #[test]
    fn a_pinned_piece_stays() {
        let fen = "4r1k1/8/8/8/8/8/4N3/4K3 w - - 0 1";
        assert!(dests(fen, "e2").unwrap().is_empty());
        let fen = "k7/8/8/8/8/8/4R3/4K2r w - - 0 1";
        // In check from h1, and the rook on e2 can neither take nor block.
        assert!(dests(fen, "e2").unwrap().is_empty());
    }

    #[test]
    fn other_boards_are_refused() {
        let fen = "4k5/10/10/10/10/10/10/4K5 w - - 0 1";
        let e = dests(fen, "e1").unwrap_err();
        assert_eq!(e, DestinationError::Unplayable(Unplayable::Board));
    }
}
