//! Squares and positions: what stands where, plus the FEN's other fields.
//!
//! Owns the board model (any board from 1×1 to 16×16, files a–p) and nothing about text:
//! reading and writing FEN is `fen/`, drawing is `render/scene/`. What a square holds beyond
//! an orthodox piece (Fairy FEN's neutral and turned pieces, text, markers; letter pieces)
//! is a [`Figure`] of `fairy.rs`.

use crate::chess::fairy::Figure;
use crate::chess::piece::{Color, Piece, Role};
use std::fmt;

/// Ranks of the chess board (and of every board before other sizes were read).
pub const RANKS: u8 = 8;
/// The most files a board may have (files a–p).
pub const MAX_FILES: u8 = 16;
/// The most ranks a board may have.
pub const MAX_RANKS: u8 = 16;
/// Squares of the largest board.
const MAX_SQUARES: usize = MAX_FILES as usize * MAX_RANKS as usize;

/// A board's size: files (columns, a…) by ranks (rows, 1…), each 1 to 16.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct BoardSize {
    /// Files, 1..=[`MAX_FILES`].
    pub files: u8,
    /// Ranks, 1..=[`MAX_RANKS`].
    pub ranks: u8,
}

impl BoardSize {
    /// The 8×8 chess board.
    pub const CHESS: BoardSize = BoardSize { files: 8, ranks: 8 };

    /// A board `files` × `ranks`, if both are 1 to 16.
    pub fn new(files: u8, ranks: u8) -> Option<BoardSize> {
        ((1..=MAX_FILES).contains(&files) && (1..=MAX_RANKS).contains(&ranks))
            .then_some(BoardSize { files, ranks })
    }

    /// Whether `sq` is on this board.
    pub fn contains(self, sq: Square) -> bool {
        sq.file < self.files && sq.rank < self.ranks
    }
}

impl fmt::Display for BoardSize {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}×{}", self.files, self.ranks)
    }
}

/// A square: `file` 0 = a, `rank` 0 = rank 1.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Square {
    /// 0-based file (0 = a).
    pub file: u8,
    /// 0-based rank (0 = rank 1).
    pub rank: u8,
}

/// A square named on an 8×8 board, for the crate's tests.
#[cfg(test)]
pub(crate) fn sq(name: &str) -> Square {
    Square::parse(name, BoardSize::CHESS).expect("a square of an 8×8 board")
}

impl Square {
    /// A square from 0-based file and rank.
    pub const fn new(file: u8, rank: u8) -> Square {
        Square { file, rank }
    }

    /// Parse algebraic `e4` (or `p16` on a large board) on `board`.
    pub fn parse(text: &str, board: BoardSize) -> Option<Square> {
        match Square::parse_prefix(text, board) {
            Some((sq, "")) => Some(sq),
            _ => None,
        }
    }

    /// Read a square at the start of `text` (a file letter, then a rank of one or two
    /// digits without a leading zero), on `board`; the square and the text after it.
    pub fn parse_prefix(text: &str, board: BoardSize) -> Option<(Square, &str)> {
        let bytes = text.as_bytes();
        let file = bytes.first()?.wrapping_sub(b'a');
        let digits = bytes[1..]
            .iter()
            .take(2)
            .take_while(|b| b.is_ascii_digit())
            .count();
        let number = text.get(1..1 + digits)?;
        if number.is_empty() || number.starts_with('0') {
            return None;
        }
        let rank = number.parse::<u8>().ok()?.checked_sub(1)?;
        let sq = Square { file, rank };
        board.contains(sq).then(|| (sq, &text[1 + digits..]))
    }

    /// The file letter, `a`…`p`.
    pub fn file_char(self) -> char {
        (b'a' + self.file) as char
    }

    /// The rank number, `1`…`16`.
    pub fn rank_number(self) -> u8 {
        self.rank + 1
    }

    /// True on dark squares (a1 is dark).
    pub fn is_dark(self) -> bool {
        (self.file + self.rank).is_multiple_of(2)
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.file_char(), self.rank_number())
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
/// No legality rules: a position may lack kings or hold nine queens. Orthodox pieces are
/// [`Position::get`]; whatever else stands on a square (a neutral or turned piece, a letter
/// piece, text, a marker) is [`Position::figure`], and such a square has no orthodox piece.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Position {
    size: BoardSize,
    board: [Option<Piece>; MAX_SQUARES],
    promoted: [u64; MAX_SQUARES / 64],
    /// Fairy figures by square, sorted by square; empty for an orthodox position.
    figures: Vec<(Square, Figure)>,
    /// Pieces in hand, when the FEN had a pocket (`[Qn]` or a ninth rank).
    pub pocket: Option<Pocket>,
    /// Side to move (`w` when the FEN had only a placement).
    pub turn: Color,
    /// Castling rights, canonical: `-`, or letters from `KQkq`, `A`–`P`, `a`–`p` (the X-FEN
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
    /// An empty board `files` wide by 8 ranks, white to move.
    ///
    /// # Panics
    /// When `files` is not 1 to 16.
    pub fn empty(files: u8) -> Position {
        let size = BoardSize::new(files, RANKS).expect("a board is 1 to 16 files wide");
        Position::blank(size)
    }

    /// An empty board of `size`, white to move.
    pub fn blank(size: BoardSize) -> Position {
        Position {
            size,
            board: [None; MAX_SQUARES],
            promoted: [0; MAX_SQUARES / 64],
            figures: Vec::new(),
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
            let pawn = Role::Pawn;
            pos.set(Square::new(file, 0), Some(Piece { color: w, role }));
            pos.set(
                Square::new(file, 1),
                Some(Piece {
                    color: w,
                    role: pawn,
                }),
            );
            pos.set(
                Square::new(file, 6),
                Some(Piece {
                    color: b,
                    role: pawn,
                }),
            );
            pos.set(Square::new(file, 7), Some(Piece { color: b, role }));
        }
        pos.castling = "KQkq".to_string();
        pos
    }

    /// The board's size.
    pub fn size(&self) -> BoardSize {
        self.size
    }

    /// Number of files, 1 to 16 (8 for chess, 10 for Capablanca chess).
    pub fn files(&self) -> u8 {
        self.size.files
    }

    /// Number of ranks, 1 to 16.
    pub fn ranks(&self) -> u8 {
        self.size.ranks
    }

    /// Whether this is the 8×8 board.
    pub fn is_chess_board(&self) -> bool {
        self.size == BoardSize::CHESS
    }

    fn index(&self, sq: Square) -> usize {
        debug_assert!(self.size.contains(sq));
        sq.rank as usize * MAX_FILES as usize + sq.file as usize
    }

    /// The orthodox piece on `sq`, if any. Squares off the board are empty.
    pub fn get(&self, sq: Square) -> Option<Piece> {
        if !self.size.contains(sq) {
            return None;
        }
        self.board[self.index(sq)]
    }

    /// Put `piece` on `sq` (or clear it with `None`); clears the promoted mark and any
    /// figure there.
    pub fn set(&mut self, sq: Square, piece: Option<Piece>) {
        if !self.size.contains(sq) {
            return;
        }
        let i = self.index(sq);
        self.board[i] = piece;
        self.promoted[i / 64] &= !(1u64 << (i % 64));
        if !self.figures.is_empty() {
            self.figures.retain(|(s, _)| *s != sq);
        }
    }

    /// The fairy figure on `sq` (a neutral or turned piece, a letter piece, text, a marker).
    pub fn figure(&self, sq: Square) -> Option<&Figure> {
        self.figures
            .binary_search_by_key(&sq, |(s, _)| *s)
            .ok()
            .map(|i| &self.figures[i].1)
    }

    /// Put a figure on `sq`, replacing whatever stood there.
    pub fn set_figure(&mut self, sq: Square, figure: Figure) {
        if !self.size.contains(sq) {
            return;
        }
        self.set(sq, None);
        let at = self.figures.partition_point(|(s, _)| *s < sq);
        self.figures.insert(at, (sq, figure));
    }

    /// Every figure with its square, a1 first, rank by rank.
    pub fn figures(&self) -> impl Iterator<Item = (Square, &Figure)> + '_ {
        self.figures.iter().map(|(sq, f)| (*sq, f))
    }

    /// Whether anything but orthodox pieces stands on the board.
    pub fn has_figures(&self) -> bool {
        !self.figures.is_empty()
    }

    /// True when the piece on `sq` carries a crazyhouse promotion mark (`~`).
    pub fn is_promoted(&self, sq: Square) -> bool {
        if !self.size.contains(sq) {
            return false;
        }
        let i = self.index(sq);
        self.promoted[i / 64] & (1u64 << (i % 64)) != 0
    }

    /// Mark or unmark the piece on `sq` as promoted. Empty squares are never marked.
    pub fn set_promoted(&mut self, sq: Square, promoted: bool) {
        if self.get(sq).is_none() {
            return;
        }
        let i = self.index(sq);
        let bit = 1u64 << (i % 64);
        if promoted {
            self.promoted[i / 64] |= bit;
        } else {
            self.promoted[i / 64] &= !bit;
        }
    }

    /// Every square of the board, a1 first, rank by rank.
    pub fn squares(&self) -> impl Iterator<Item = Square> + use<> {
        let BoardSize { files, ranks } = self.size;
        (0..ranks).flat_map(move |rank| (0..files).map(move |file| Square::new(file, rank)))
    }

    /// Every occupied square with its orthodox piece.
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
        let chess = BoardSize::CHESS;
        let capablanca = BoardSize::new(10, 8).unwrap();
        let big = BoardSize::new(16, 16).unwrap();
        assert_eq!(Square::parse("a1", chess), Some(Square::new(0, 0)));
        assert_eq!(Square::parse("h8", chess), Some(Square::new(7, 7)));
        assert_eq!(Square::parse("j8", chess), None);
        assert_eq!(Square::parse("j8", capablanca), Some(Square::new(9, 7)));
        for bad in ["", "e", "e9", "e0", "z1", "e44", "E4", "a10", "e01"] {
            assert_eq!(Square::parse(bad, capablanca), None, "{bad}");
        }
        assert_eq!(Square::parse("p16", big), Some(Square::new(15, 15)));
        assert_eq!(Square::parse("a10", big), Some(Square::new(0, 9)));
        for bad in ["q1", "a17", "a0", "a016", "p160"] {
            assert_eq!(Square::parse(bad, big), None, "{bad}");
        }
        assert_eq!(
            Square::parse_prefix("a10b12", big),
            Some((Square::new(0, 9), "b12"))
        );
        assert_eq!(Square::new(4, 3).to_string(), "e4");
        assert_eq!(Square::new(15, 11).to_string(), "p12");
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
