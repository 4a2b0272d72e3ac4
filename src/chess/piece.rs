//! Pieces: colour, role, and their letters in FEN and file names.
//!
//! Owns the vocabulary only; where pieces stand is `position.rs`, how they look is
//! `render/art/pieces/` (piece sets).

use std::fmt;

/// The side a piece belongs to.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Color {
    /// White: upper-case letters in FEN.
    White,
    /// Black: lower-case letters in FEN.
    Black,
}

impl Color {
    /// Both colours, white first.
    pub const ALL: [Color; 2] = [Color::White, Color::Black];

    /// `w` or `b`, as in FEN and piece file names.
    pub fn letter(self) -> char {
        match self {
            Color::White => 'w',
            Color::Black => 'b',
        }
    }

    /// The other side.
    pub fn other(self) -> Color {
        match self {
            Color::White => Color::Black,
            Color::Black => Color::White,
        }
    }

    /// `White` or `Black`.
    pub fn name(self) -> &'static str {
        match self {
            Color::White => "White",
            Color::Black => "Black",
        }
    }
}

/// What a piece is, independent of its colour.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Role {
    /// King, `K`.
    King,
    /// Queen, `Q`.
    Queen,
    /// Rook, `R`.
    Rook,
    /// Bishop, `B`.
    Bishop,
    /// Knight, `N`.
    Knight,
    /// Pawn, `P`.
    Pawn,
    /// Archbishop (bishop + knight), `A`, Capablanca chess.
    Archbishop,
    /// Chancellor (rook + knight), `C`, Capablanca chess.
    Chancellor,
}

impl Role {
    /// Every role, in the order used for piece files and tables.
    pub const ALL: [Role; 8] = [
        Role::King,
        Role::Queen,
        Role::Rook,
        Role::Bishop,
        Role::Knight,
        Role::Pawn,
        Role::Archbishop,
        Role::Chancellor,
    ];

    /// The upper-case letter of the role (`K`, `Q`, `R`, `B`, `N`, `P`, `A`, `C`).
    pub fn letter(self) -> char {
        match self {
            Role::King => 'K',
            Role::Queen => 'Q',
            Role::Rook => 'R',
            Role::Bishop => 'B',
            Role::Knight => 'N',
            Role::Pawn => 'P',
            Role::Archbishop => 'A',
            Role::Chancellor => 'C',
        }
    }

    /// The role for an upper-case letter.
    pub fn from_letter(c: char) -> Option<Role> {
        Role::ALL.into_iter().find(|r| r.letter() == c)
    }

    /// English name, lower case (`king`, `archbishop`).
    pub fn name(self) -> &'static str {
        match self {
            Role::King => "king",
            Role::Queen => "queen",
            Role::Rook => "rook",
            Role::Bishop => "bishop",
            Role::Knight => "knight",
            Role::Pawn => "pawn",
            Role::Archbishop => "archbishop",
            Role::Chancellor => "chancellor",
        }
    }

    /// Index into [`Role::ALL`].
    pub fn index(self) -> usize {
        self as usize
    }
}

/// A coloured piece.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Piece {
    /// Whose piece it is.
    pub color: Color,
    /// What it is.
    pub role: Role,
}

impl Piece {
    /// Every piece: the white eight, then the black eight.
    pub fn all() -> impl Iterator<Item = Piece> {
        Color::ALL
            .into_iter()
            .flat_map(|color| Role::ALL.into_iter().map(move |role| Piece { color, role }))
    }

    /// The FEN letter: upper case for white, lower case for black.
    pub fn fen_char(self) -> char {
        match self.color {
            Color::White => self.role.letter(),
            Color::Black => self.role.letter().to_ascii_lowercase(),
        }
    }

    /// The piece for a FEN letter (`K`…`C` white, `k`…`c` black).
    pub fn from_fen_char(c: char) -> Option<Piece> {
        let role = Role::from_letter(c.to_ascii_uppercase())?;
        let color = if c.is_ascii_uppercase() {
            Color::White
        } else {
            Color::Black
        };
        Some(Piece { color, role })
    }

    /// File-name stem in the lichess layout: `wK`, `bN`, …
    pub fn code(self) -> String {
        format!("{}{}", self.color.letter(), self.role.letter())
    }

    /// Dense index 0..16 (white roles, then black roles).
    pub fn index(self) -> usize {
        (self.color as usize) * Role::ALL.len() + self.role.index()
    }
}

impl fmt::Display for Piece {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.fen_char())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fen_letters_round_trip() {
        for piece in Piece::all() {
            assert_eq!(Piece::from_fen_char(piece.fen_char()), Some(piece));
        }
        assert_eq!(Piece::from_fen_char('x'), None);
        assert_eq!(Piece::all().count(), 16);
    }

    #[test]
    fn indices_are_dense() {
        let mut seen = [false; 16];
        for piece in Piece::all() {
            seen[piece.index()] = true;
        }
        assert!(seen.iter().all(|s| *s));
    }
}
