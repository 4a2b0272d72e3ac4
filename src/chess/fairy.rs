//! Figures: what a square may hold beyond an orthodox piece.
//!
//! Owns the vocabulary of chess problems and variants: Fairy FEN's neutral pieces (drawn
//! half white, half black), pieces turned by a quarter, a half or three quarters (a
//! grasshopper is an upside-down queen), one or two characters of text, the four markers
//! (circle, cross, square, triangle), and letter pieces (a variant's `e` or `z`, drawn as
//! a round token). Reading them is `fen/`; where they stand is `position.rs`; drawing
//! them is `render/scene/figure.rs`.

use crate::chess::piece::{Color, Role};
use std::fmt;

/// How far a figure is turned, clockwise, as Fairy FEN's `*1`, `*2`, `*3`.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Turn {
    /// Upright.
    #[default]
    None,
    /// 90° clockwise (`*1`): lying on its right side.
    Quarter,
    /// 180° (`*2`): upside down.
    Half,
    /// 270° clockwise (`*3`): lying on its left side.
    ThreeQuarters,
}

impl Turn {
    /// The turn of Fairy FEN's digit after `*` (0 to 3).
    pub fn from_digit(d: u32) -> Option<Turn> {
        match d {
            0 => Some(Turn::None),
            1 => Some(Turn::Quarter),
            2 => Some(Turn::Half),
            3 => Some(Turn::ThreeQuarters),
            _ => None,
        }
    }

    /// Quarter turns clockwise, 0 to 3.
    pub fn quarters(self) -> u8 {
        self as u8
    }

    /// Degrees clockwise: 0, 90, 180 or 270.
    pub fn degrees(self) -> u16 {
        u16::from(self.quarters()) * 90
    }
}

/// Whose a figure is: a side, or neither (a neutral piece belongs to both).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Side {
    /// Drawn white (upper case in FEN).
    White,
    /// Drawn black (lower case).
    Black,
    /// Drawn half white, half black (`-` before the letter).
    Neutral,
}

impl Side {
    /// The side of an orthodox colour.
    pub fn of(color: Color) -> Side {
        match color {
            Color::White => Side::White,
            Color::Black => Side::Black,
        }
    }

    /// `white`, `black` or `neutral`.
    pub fn name(self) -> &'static str {
        match self {
            Side::White => "white",
            Side::Black => "black",
            Side::Neutral => "neutral",
        }
    }
}

/// The markers of Fairy FEN, which stand on a square as a piece does.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum FairyMarker {
    /// `c`: a circle.
    Circle,
    /// `x`: a cross.
    Cross,
    /// `s`: a square.
    Square,
    /// `t`: a triangle.
    Triangle,
}

impl FairyMarker {
    /// Every marker.
    pub const ALL: [FairyMarker; 4] = [
        FairyMarker::Circle,
        FairyMarker::Cross,
        FairyMarker::Square,
        FairyMarker::Triangle,
    ];

    /// The marker's Fairy FEN letter, lower case.
    pub fn letter(self) -> char {
        match self {
            FairyMarker::Circle => 'c',
            FairyMarker::Cross => 'x',
            FairyMarker::Square => 's',
            FairyMarker::Triangle => 't',
        }
    }

    /// The marker of a Fairy FEN letter, either case.
    pub fn from_letter(c: char) -> Option<FairyMarker> {
        let lower = c.to_ascii_lowercase();
        FairyMarker::ALL.into_iter().find(|m| m.letter() == lower)
    }

    /// English name, lower case.
    pub fn name(self) -> &'static str {
        match self {
            FairyMarker::Circle => "circle",
            FairyMarker::Cross => "cross",
            FairyMarker::Square => "square",
            FairyMarker::Triangle => "triangle",
        }
    }
}

/// One or two characters written on a square (Fairy FEN `'A`, `''12`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct SquareText {
    chars: [char; 2],
    len: u8,
}

impl SquareText {
    /// The text of `text`, if it is one or two characters.
    pub fn new(text: &str) -> Option<SquareText> {
        let mut it = text.chars();
        let first = it.next()?;
        let second = it.next();
        if it.next().is_some() {
            return None;
        }
        Some(SquareText {
            chars: [first, second.unwrap_or(' ')],
            len: 1 + u8::from(second.is_some()),
        })
    }

    /// The characters, one or two.
    pub fn chars(&self) -> &[char] {
        &self.chars[..usize::from(self.len)]
    }
}

impl fmt::Display for SquareText {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.chars().iter().try_for_each(|c| write!(f, "{c}"))
    }
}

/// What a figure is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum FigureKind {
    /// An orthodox piece's artwork (neutral, or turned, or both).
    Piece(Role),
    /// A piece Staunton has no artwork for, drawn as a round token with its letter
    /// (lower case `a`–`z`).
    Letter(char),
    /// A Fairy FEN marker.
    Marker(FairyMarker),
    /// Text, drawn in the label font.
    Text(SquareText),
}

/// What stands on a square when it is not an orthodox piece.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Figure {
    /// What it is.
    pub shape: FigureKind,
    /// Whose it is (text is drawn in ink, whatever its side).
    pub side: Side,
    /// How far it is turned.
    pub turn: Turn,
}

impl Figure {
    /// The Fairy FEN of the figure (`-*2q`, `*1'A`, `''12`, `C`); letter pieces as their
    /// letter (the `letters` dialect).
    pub fn fen(&self) -> String {
        let mut out = String::new();
        if self.side == Side::Neutral && !matches!(self.shape, FigureKind::Text(_)) {
            out.push('-');
        }
        if self.turn != Turn::None {
            out.push('*');
            out.push(char::from(b'0' + self.turn.quarters()));
        }
        let cased = |c: char| match self.side {
            Side::White => c.to_ascii_uppercase(),
            _ => c.to_ascii_lowercase(),
        };
        match self.shape {
            FigureKind::Piece(role) => out.push(cased(role.letter())),
            FigureKind::Letter(c) => out.push(cased(c)),
            FigureKind::Marker(m) => out.push(cased(m.letter())),
            FigureKind::Text(text) => {
                out.push_str(if text.chars().len() == 2 { "''" } else { "'" });
                out.push_str(&text.to_string());
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_is_one_or_two_characters() {
        assert_eq!(
            SquareText::new("A").map(|t| t.to_string()),
            Some("A".into())
        );
        assert_eq!(
            SquareText::new("12").map(|t| t.to_string()),
            Some("12".into())
        );
        assert_eq!(SquareText::new("王").map(|t| t.chars().len()), Some(1));
        assert_eq!(SquareText::new(""), None);
        assert_eq!(SquareText::new("abc"), None);
    }

    #[test]
    fn figures_write_their_fairy_fen() {
        let fig = |shape, side, turn| Figure { shape, side, turn }.fen();
        assert_eq!(
            fig(FigureKind::Piece(Role::Queen), Side::Neutral, Turn::Half),
            "-*2q"
        );
        assert_eq!(
            fig(FigureKind::Piece(Role::Knight), Side::White, Turn::Quarter),
            "*1N"
        );
        assert_eq!(
            fig(
                FigureKind::Marker(FairyMarker::Circle),
                Side::White,
                Turn::None
            ),
            "C"
        );
        let text = SquareText::new("12").unwrap();
        assert_eq!(fig(FigureKind::Text(text), Side::White, Turn::None), "''12");
        let a = SquareText::new("A").unwrap();
        assert_eq!(fig(FigureKind::Text(a), Side::Black, Turn::Quarter), "*1'A");
        assert_eq!(fig(FigureKind::Letter('e'), Side::Black, Turn::None), "e");
        assert_eq!(Turn::from_digit(3).map(Turn::degrees), Some(270));
        assert_eq!(Turn::from_digit(4), None);
    }
}
