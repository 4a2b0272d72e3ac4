//! Squares and positions: what stands where, plus the FEN's other fields.
//!
//! Owns the board model (8 or 10 files by 8 ranks) and nothing about text: reading and
//! writing FEN is `fen.rs`, drawing is `scene.rs`.

use crate::chess::piece::{Color, Piece, Role};
use std::fmt;

/// Ranks on every supported board.
pub const RANKS: u8 = 8;
/// The widest supported board (Capablanca chess).
pub const MAX_FILES: u8 = 10;

/// A square: `file` 0 = a, `rank` 0 = rank 1.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Square {
    /// 0-based file (0 = a).
    pub file: u8,
    /// 0-based rank (0 = rank 1).
    pub rank: u8,
}

impl Square {
    /// A square from 0-based file and rank.
    pub const fn new(file: u8, rank: u8) -> Square {
        Square { file, rank }
    }

    /// Parse algebraic `e4` on a board `files` wide (`a`..`j`, `1`..`8`).
    pub fn parse(text: &str, files: u8) -> Option<Square> {
        let bytes = text.as_bytes();
        if bytes.len() != 2 {
            return None;
        }
        let file = bytes[0].wrapping_sub(b'a');
        let rank = bytes[1].wrapping_sub(b'1');
        (file < files && rank < RANKS).then_some(Square { file, rank })
    }

    /// The file letter, `a`…`j`.
    pub fn file_char(self) -> char {
        (b'a' + self.file) as char
    }

    /// The rank digit, `1`…`8`.
    pub fn rank_char(self) -> char {
        (b'1' + self.rank) as char
    }

    /// True on dark squares (a1 is dark).
    pub fn is_dark(self) -> bool {
        (self.file + self.rank).is_multiple_of(2)
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.file_char(), self.rank_char())
    }
}

/// Pieces in hand (crazyhouse), counted per piece.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Pocket {
    counts: [u16; 16],
}

impl Pocket {
    /// How many of `piece` are in hand.
    pub fn count(&self, piece: Piece) -> u16 {
        self.counts[piece.index()]
    }

    /// Add one `piece` (saturating).
    pub fn add(&mut self, piece: Piece) {
        let c = &mut self.counts[piece.index()];
        *c = c.saturating_add(1);
    }

    /// True when no piece is in hand.
    pub fn is_empty(&self) -> bool {
        self.counts.iter().all(|c| *c == 0)
    }

    /// Pieces in hand with their counts, white first, in role order.
    pub fn iter(&self) -> impl Iterator<Item = (Piece, u16)> + '_ {
        Piece::all()
            .map(|p| (p, self.count(p)))
            .filter(|(_, n)| *n > 0)
    }
}

/// The castling type of an X-FEN castling field: how castling moves the king and rook.
/// It changes no square of the diagram; it is kept so the FEN is written back as read.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash)]
pub enum CastlingType {
    /// No prefix: the king moves to the c and g files (or the rules of the variant).
    #[default]
    Standard,
    /// `s`: symmetric castling (e.g. Janus chess), the king ends one square from the edge.
    Symmetric,
    /// `m`: modern castling (e.g. Embassy chess).
    Modern,
}

impl CastlingType {
    /// The prefix of the castling field: `""`, `"s"` or `"m"`.
    pub fn prefix(self) -> &'static str {
        match self {
            CastlingType::Standard => "",
            CastlingType::Symmetric => "s",
            CastlingType::Modern => "m",
        }
    }

    /// The castling type of a prefix letter, `s` or `m`.
    pub fn from_prefix(c: char) -> Option<CastlingType> {
        match c {
            's' => Some(CastlingType::Symmetric),
            'm' => Some(CastlingType::Modern),
            _ => None,
        }
    }
}

/// A position as a diagram needs it: the placement and the FEN's other fields.
///
/// No legality rules: a position may lack kings or hold nine queens.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Position {
    files: u8,
    board: [Option<Piece>; (MAX_FILES * RANKS) as usize],
    promoted: u128,
    /// Pieces in hand, when the FEN had a pocket (`[Qn]` or a ninth rank).
    pub pocket: Option<Pocket>,
    /// Side to move (`w` when the FEN had only a placement).
    pub turn: Color,
    /// Castling rights, canonical: `-`, or letters from `KQkq`, `A`–`J`, `a`–`j` (the X-FEN
    /// castling type is [`Position::castling_type`]).
    pub castling: String,
    /// The castling type the castling field started with (X-FEN `s` or `m`), if any.
    pub castling_type: CastlingType,
    /// En-passant target square.
    pub en_passant: Option<Square>,
    /// Half-move clock.
    pub halfmove: u32,
    /// Full-move number.
    pub fullmove: u32,
}

impl Position {
    /// An empty board `files` wide (8 or 10), white to move.
    pub fn empty(files: u8) -> Position {
        assert!(files == 8 || files == 10, "boards are 8 or 10 files wide");
        Position {
            files,
            board: [None; (MAX_FILES * RANKS) as usize],
            promoted: 0,
            pocket: None,
            turn: Color::White,
            castling: "-".to_string(),
            castling_type: CastlingType::Standard,
            en_passant: None,
            halfmove: 0,
            fullmove: 1,
        }
    }

    /// The standard starting position.
    pub fn start() -> Position {
        let mut pos = Position::empty(8);
        let back = [
            Role::Rook,
            Role::Knight,
            Role::Bishop,
            Role::Queen,
            Role::King,
            Role::Bishop,
            Role::Knight,
            Role::Rook,
        ];
        for (file, role) in back.into_iter().enumerate() {
            let file = file as u8;
            let (w, b) = (Color::White, Color::Black);
            pos.set(Square::new(file, 0), Some(Piece { color: w, role }));
            pos.set(
                Square::new(file, 1),
                Some(Piece {
                    color: w,
                    role: Role::Pawn,
                }),
            );
            pos.set(
                Square::new(file, 6),
                Some(Piece {
                    color: b,
                    role: Role::Pawn,
                }),
            );
            pos.set(Square::new(file, 7), Some(Piece { color: b, role }));
        }
        pos.castling = "KQkq".to_string();
        pos
    }

    /// Number of files: 8, or 10 for Capablanca chess.
    pub fn files(&self) -> u8 {
        self.files
    }

    /// Number of ranks: always 8.
    pub fn ranks(&self) -> u8 {
        RANKS
    }

    fn index(&self, sq: Square) -> usize {
        debug_assert!(sq.file < self.files && sq.rank < RANKS);
        sq.rank as usize * MAX_FILES as usize + sq.file as usize
    }

    /// The piece on `sq`, if any. Squares off the board are empty.
    pub fn get(&self, sq: Square) -> Option<Piece> {
        if sq.file >= self.files || sq.rank >= RANKS {
            return None;
        }
        self.board[self.index(sq)]
    }

    /// Put `piece` on `sq` (or clear it with `None`); clears the promoted mark.
    pub fn set(&mut self, sq: Square, piece: Option<Piece>) {
        if sq.file >= self.files || sq.rank >= RANKS {
            return;
        }
        let i = self.index(sq);
        self.board[i] = piece;
        self.promoted &= !(1u128 << i);
    }

    /// True when the piece on `sq` carries a crazyhouse promotion mark (`~`).
    pub fn is_promoted(&self, sq: Square) -> bool {
        sq.file < self.files && sq.rank < RANKS && self.promoted & (1u128 << self.index(sq)) != 0
    }

    /// Mark or unmark the piece on `sq` as promoted. Empty squares are never marked.
    pub fn set_promoted(&mut self, sq: Square, promoted: bool) {
        if self.get(sq).is_none() {
            return;
        }
        let bit = 1u128 << self.index(sq);
        if promoted {
            self.promoted |= bit;
        } else {
            self.promoted &= !bit;
        }
    }

    /// Every square of the board, a1 first, rank by rank.
    pub fn squares(&self) -> impl Iterator<Item = Square> + use<> {
        let files = self.files;
        (0..RANKS).flat_map(move |rank| (0..files).map(move |file| Square::new(file, rank)))
    }

    /// Every occupied square with its piece.
    pub fn pieces(&self) -> impl Iterator<Item = (Square, Piece)> + '_ {
        self.squares()
            .filter_map(|sq| self.get(sq).map(|p| (sq, p)))
    }

    /// The square of `color`'s king, if there is exactly one... or the first found.
    pub fn king(&self, color: Color) -> Option<Square> {
        self.pieces()
            .find(|(_, p)| p.color == color && p.role == Role::King)
            .map(|(sq, _)| sq)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn squares_parse_within_the_board() {
        assert_eq!(Square::parse("a1", 8), Some(Square::new(0, 0)));
        assert_eq!(Square::parse("h8", 8), Some(Square::new(7, 7)));
        assert_eq!(Square::parse("j8", 8), None);
        assert_eq!(Square::parse("j8", 10), Some(Square::new(9, 7)));
        for bad in ["", "e", "e9", "e0", "z1", "e44", "E4"] {
            assert_eq!(Square::parse(bad, 10), None, "{bad}");
        }
        assert_eq!(Square::new(4, 3).to_string(), "e4");
    }

    #[test]
    fn start_position_has_32_pieces() {
        let pos = Position::start();
        assert_eq!(pos.pieces().count(), 32);
        assert_eq!(pos.king(Color::White), Some(Square::new(4, 0)));
        assert_eq!(pos.king(Color::Black), Some(Square::new(4, 7)));
        assert!(Square::new(0, 0).is_dark());
    }

    #[test]
    fn promoted_marks_follow_the_piece() {
        let mut pos = Position::start();
        let e2 = Square::new(4, 1);
        pos.set_promoted(e2, true);
        assert!(pos.is_promoted(e2));
        pos.set(e2, None);
        assert!(!pos.is_promoted(e2));
        pos.set_promoted(e2, true);
        assert!(!pos.is_promoted(e2), "empty squares are never marked");
    }
}
