//! Attacks: which squares a side attacks, for `check=auto`.
//!
//! Owns piece movement geometry on 8×8 and 10×8 boards, including the archbishop (bishop +
//! knight) and chancellor (rook + knight). Pins, castling and en passant do not matter for
//! "is this square attacked": only blockers do.

use crate::chess::piece::{Color, Role};
use crate::chess::position::{Position, Square};

const KNIGHT: [(i8, i8); 8] = [
    (1, 2),
    (2, 1),
    (2, -1),
    (1, -2),
    (-1, -2),
    (-2, -1),
    (-2, 1),
    (-1, 2),
];
const KING: [(i8, i8); 8] = [
    (1, 0),
    (1, 1),
    (0, 1),
    (-1, 1),
    (-1, 0),
    (-1, -1),
    (0, -1),
    (1, -1),
];
const ORTHOGONAL: [(i8, i8); 4] = [(1, 0), (0, 1), (-1, 0), (0, -1)];
const DIAGONAL: [(i8, i8); 4] = [(1, 1), (-1, 1), (-1, -1), (1, -1)];

fn offset(pos: &Position, sq: Square, (df, dr): (i8, i8)) -> Option<Square> {
    let file = i16::from(sq.file) + i16::from(df);
    let rank = i16::from(sq.rank) + i16::from(dr);
    let inside =
        (0..i16::from(pos.files())).contains(&file) && (0..i16::from(pos.ranks())).contains(&rank);
    inside.then(|| Square::new(file as u8, rank as u8))
}

/// True when a piece of `by` on one of the `steps` away from `sq` has a role in `roles`.
fn leaper(pos: &Position, sq: Square, by: Color, steps: &[(i8, i8)], roles: &[Role]) -> bool {
    steps.iter().any(|&d| {
        offset(pos, sq, d)
            .and_then(|s| pos.get(s))
            .is_some_and(|p| p.color == by && roles.contains(&p.role))
    })
}

/// True when the first piece along any of `rays` from `sq` belongs to `by` with a role in `roles`.
fn slider(pos: &Position, sq: Square, by: Color, rays: &[(i8, i8)], roles: &[Role]) -> bool {
    rays.iter().any(|&d| {
        let mut at = sq;
        while let Some(next) = offset(pos, at, d) {
            if let Some(p) = pos.get(next) {
                return p.color == by && roles.contains(&p.role);
            }
            at = next;
        }
        false
    })
}

/// True when `by` attacks `sq` in `pos`.
pub fn is_attacked(pos: &Position, sq: Square, by: Color) -> bool {
    // A pawn of `by` attacks diagonally forward, so it stands one rank behind `sq`.
    let behind: i8 = match by {
        Color::White => -1,
        Color::Black => 1,
    };
    leaper(pos, sq, by, &[(-1, behind), (1, behind)], &[Role::Pawn])
        || leaper(
            pos,
            sq,
            by,
            &KNIGHT,
            &[Role::Knight, Role::Archbishop, Role::Chancellor],
        )
        || leaper(pos, sq, by, &KING, &[Role::King])
        || slider(
            pos,
            sq,
            by,
            &ORTHOGONAL,
            &[Role::Rook, Role::Queen, Role::Chancellor],
        )
        || slider(
            pos,
            sq,
            by,
            &DIAGONAL,
            &[Role::Bishop, Role::Queen, Role::Archbishop],
        )
}

/// The square of the side to move's king when it is in check (the first king found, if a
/// diagram has several).
pub fn checked_king(pos: &Position) -> Option<Square> {
    let king = pos.king(pos.turn)?;
    is_attacked(pos, king, pos.turn.other()).then_some(king)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::chess::piece::Piece;

    fn board(files: u8, pieces: &[(&str, char)]) -> Position {
        let mut pos = Position::empty(files);
        for (sq, c) in pieces {
            pos.set(
                Square::parse(sq, pos.size()).expect("square"),
                Piece::from_fen_char(*c),
            );
        }
        pos
    }

    fn attacked(pos: &Position, sq: &str, by: Color) -> bool {
        is_attacked(pos, Square::parse(sq, pos.size()).expect("square"), by)
    }

    /// (files, pieces, target, attacker side, expected)
    type Case = (
        u8,
        &'static [(&'static str, char)],
        &'static str,
        Color,
        bool,
    );

    #[test]
    fn each_piece_attacks_its_squares() {
        use Color::{Black, White};
        let cases: &[Case] = &[
            (8, &[("e4", 'P')], "d5", White, true),
            (8, &[("e4", 'P')], "f5", White, true),
            (8, &[("e4", 'P')], "e5", White, false),
            (8, &[("e4", 'P')], "d3", White, false),
            (8, &[("e5", 'p')], "d4", Black, true),
            (8, &[("e5", 'p')], "d6", Black, false),
            (8, &[("g1", 'N')], "f3", White, true),
            (8, &[("g1", 'N')], "g3", White, false),
            (8, &[("a1", 'R')], "a8", White, true),
            (8, &[("a1", 'R'), ("a4", 'p')], "a8", White, false),
            (8, &[("a1", 'R'), ("a4", 'p')], "a4", White, true),
            (8, &[("a1", 'R')], "b2", White, false),
            (8, &[("c1", 'B')], "h6", White, true),
            (8, &[("c1", 'B'), ("e3", 'P')], "h6", White, false),
            (8, &[("c1", 'B')], "c2", White, false),
            (8, &[("d1", 'Q')], "d8", White, true),
            (8, &[("d1", 'Q')], "h5", White, true),
            (8, &[("d1", 'Q')], "e3", White, false),
            (8, &[("e1", 'K')], "f2", White, true),
            (8, &[("e1", 'K')], "e3", White, false),
            (10, &[("c1", 'A')], "j8", White, true),
            (10, &[("c1", 'A')], "d3", White, true),
            (10, &[("c1", 'A')], "c5", White, false),
            (10, &[("h1", 'C')], "h8", White, true),
            (10, &[("h1", 'C')], "g3", White, true),
            (10, &[("h1", 'C')], "i2", White, false),
            (10, &[("h1", 'C'), ("h5", 'P')], "h8", White, false),
            (10, &[("a1", 'R')], "j1", White, true),
            (8, &[("a1", 'r')], "a8", White, false),
        ];
        for (files, pieces, target, by, expected) in cases {
            let pos = board(*files, pieces);
            assert_eq!(
                attacked(&pos, target, *by),
                *expected,
                "{pieces:?} → {target} by {by:?}"
            );
        }
    }

    #[test]
    fn check_needs_the_side_to_move_in_check() {
        let mut pos = board(8, &[("e1", 'K'), ("e8", 'k'), ("e5", 'r')]);
        assert_eq!(checked_king(&pos), Square::parse("e1", crate::chess::position::BoardSize::CHESS));
        pos.turn = Color::Black;
        assert_eq!(checked_king(&pos), None);
        let pos = board(8, &[("e1", 'K'), ("e8", 'k'), ("e5", 'r'), ("e2", 'N')]);
        assert_eq!(checked_king(&pos), None, "a pinned blocker still blocks");
        let pos = board(8, &[("e8", 'k')]);
        assert_eq!(checked_king(&pos), None, "no white king, no check");
    }
}
