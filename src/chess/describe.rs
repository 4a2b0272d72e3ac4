//! Positions in words: the alt text of a diagram, for screen readers and search engines.
//!
//! Owns the English description of a position. `/describe` answers it, the SVG carries it as
//! its `<title>`, and the front page puts it in the `alt` of the tags it writes.

use crate::chess::piece::{Color, Piece, Role};
use crate::chess::position::{Position, Square};
use std::fmt::Write as _;

/// The order pieces are listed in: most valuable first, pawns last.
const ROLES: [Role; 8] = [
    Role::King,
    Role::Queen,
    Role::Rook,
    Role::Bishop,
    Role::Knight,
    Role::Archbishop,
    Role::Chancellor,
    Role::Pawn,
];

/// A plain-English description of `position`: each side's pieces by kind with their
/// squares, what each side holds in hand (crazyhouse), and the side to move, e.g.
/// `White: King g1, Rooks a1 and f1, Pawns f2, g2 and h2. Black: King g8, Pawns f7, g7
/// and h7. White to move.`
pub fn describe(position: &Position) -> String {
    let mut text = String::with_capacity(256);
    // Both sides' pieces in one pass over the board, in the order they are listed: side,
    // kind (most valuable first), file, rank.
    let mut pieces: Vec<(Color, usize, Square)> = position
        .pieces()
        .map(|(sq, p)| (p.color, role_order(p.role), sq))
        .collect();
    pieces.sort_unstable_by_key(|&(color, order, sq)| (color, order, sq.file, sq.rank));
    if pieces.is_empty() {
        text.push_str("Empty board.");
    }
    for color in [Color::White, Color::Black] {
        let start = pieces.partition_point(|p| p.0 < color);
        let end = pieces.partition_point(|p| p.0 <= color);
        let side = &pieces[start..end];
        if !side.is_empty() {
            sep(&mut text);
            text.push_str(color.name());
            text.push_str(": ");
            for (i, kind) in side.chunk_by(|a, b| a.1 == b.1).enumerate() {
                if i > 0 {
                    text.push_str(", ");
                }
                text.push_str(&noun(ROLES[kind[0].1], kind.len()));
                text.push(' ');
                listed_squares(&mut text, position, kind.iter().map(|p| p.2), kind.len());
            }
            text.push('.');
        } else if !pieces.is_empty() {
            sep(&mut text);
            let _ = write!(text, "{}: no pieces.", color.name());
        }
        if let Some(hand) = in_hand(position, color) {
            sep(&mut text);
            let _ = write!(text, "{} in hand: {hand}.", color.name());
        }
    }
    sep(&mut text);
    let _ = write!(text, "{} to move.", position.turn.name());
    text
}

/// Where `role` comes in [`ROLES`].
fn role_order(role: Role) -> usize {
    ROLES.iter().position(|&r| r == role).unwrap_or(ROLES.len())
}

fn sep(text: &mut String) {
    if !text.is_empty() {
        text.push(' ');
    }
}

/// `Rook` or `Rooks`.
fn noun(role: Role, count: usize) -> String {
    let name = role.name();
    let mut noun = String::with_capacity(name.len() + 1);
    let mut chars = name.chars();
    if let Some(first) = chars.next() {
        noun.extend(first.to_uppercase().chain(chars));
    }
    if count != 1 {
        noun.push('s');
    }
    noun
}

/// `a, b and c`.
fn listed(items: &[String]) -> String {
    match items {
        [] => String::new(),
        [one] => one.clone(),
        [init @ .., last] => format!("{} and {last}", init.join(", ")),
    }
}

/// `a2, b2 and c2`, each square marked `(promoted)` where its piece is.
fn listed_squares(
    text: &mut String,
    position: &Position,
    squares: impl Iterator<Item = Square>,
    count: usize,
) {
    for (i, sq) in squares.enumerate() {
        if i > 0 {
            text.push_str(if i + 1 == count { " and " } else { ", " });
        }
        text.push(sq.file_char());
        text.push(sq.rank_char());
        if position.is_promoted(sq) {
            text.push_str(" (promoted)");
        }
    }
}

/// What `color` holds in hand, if anything: `2 Pawns and Knight`.
fn in_hand(position: &Position, color: Color) -> Option<String> {
    let pocket = position.pocket.as_ref()?;
    let items: Vec<String> = ROLES
        .iter()
        .filter_map(|&role| {
            let count = usize::from(pocket.count(Piece { color, role }));
            match count {
                0 => None,
                1 => Some(noun(role, 1)),
                n => Some(format!("{n} {}", noun(role, n))),
            }
        })
        .collect();
    (!items.is_empty()).then(|| listed(&items))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::chess::fen;

    fn text(fen: &str) -> String {
        describe(&fen::parse(fen).expect("valid FEN"))
    }

    #[test]
    fn the_start_position() {
        assert_eq!(
            text("start"),
            "White: King e1, Queen d1, Rooks a1 and h1, Bishops c1 and f1, Knights b1 and g1, \
             Pawns a2, b2, c2, d2, e2, f2, g2 and h2. \
             Black: King e8, Queen d8, Rooks a8 and h8, Bishops c8 and f8, Knights b8 and g8, \
             Pawns a7, b7, c7, d7, e7, f7, g7 and h7. White to move."
        );
    }

    #[test]
    fn sides_without_pieces_pockets_promotions_and_turn() {
        assert_eq!(text("empty"), "Empty board. White to move.");
        assert_eq!(
            text("8/8/8/4k3/8/8/8/8 b - - 0 1"),
            "White: no pieces. Black: King e5. Black to move."
        );
        assert_eq!(
            text("2Q~4k/8/8/8/8/8/8/K7[PPNr] w - - 0 1"),
            "White: King a1, Queen c8 (promoted). White in hand: Knight and 2 Pawns. \
             Black: King h8. Black in hand: Rook. White to move."
        );
        assert_eq!(
            text("rnabqkbcnr/pppppppppp/10/10/10/10/PPPPPPPPPP/RNABQKBCNR w KQkq - 0 1")
                .split(". ")
                .next()
                .map(|w| w.contains("Archbishop c1") && w.contains("Chancellor h1")),
            Some(true)
        );
    }

    #[test]
    fn every_piece_is_named_once_by_its_square() {
        for fen in [
            "start",
            "r1bq1rk1/pp3ppp/3n4/2p1N3/2B5/7P/PPP2PP1/R1BQR1K1 w - - 0 1",
            "rnabqkbcnr/pppppppppp/10/10/10/10/PPPPPPPPPP/RNABQKBCNR w KQkq - 0 1",
        ] {
            let position = fen::parse(fen).expect("valid FEN");
            let words = describe(&position);
            assert!(words.is_ascii());
            for (sq, _) in position.pieces() {
                let name = format!("{}{}", sq.file_char(), sq.rank_char());
                let hits = words
                    .split(|c: char| !c.is_ascii_alphanumeric())
                    .filter(|w| *w == name)
                    .count();
                assert_eq!(hits, 1, "{fen}: {name} in {words}");
            }
        }
    }
}
