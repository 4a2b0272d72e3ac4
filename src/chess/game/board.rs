//! The bridge to cozy-chess: our positions, squares and pieces to its boards and back, a
//! game's start board from its tags, the legal moves of a board and the board after one.

use super::error::{GameError, GameErrorKind, Unplayable};
use crate::chess::fen;
use crate::chess::letters::Letters;
use crate::chess::pgn::tag_value;
use crate::chess::piece::{Color, Piece, Role};
use crate::chess::position::{CastlingType, Position, Square};
use crate::echo::{Token, clip};
use cozy_chess as cc;

/// The variants a `[Variant]` tag may name for a game we can play.
fn playable_variant(name: &str) -> Option<bool> {
    let n: String = name
        .chars()
        .filter(|c| c.is_ascii_alphanumeric())
        .collect::<String>()
        .to_ascii_lowercase();
    match n.as_str() {
        "" | "standard" | "chess" | "normal" | "fromposition" => Some(false),
        "chess960" | "fischerandom" | "fischerrandom" | "960" | "frc" => Some(true),
        _ => None,
    }
}

/// The start of a game with tag pairs `headers` (its `[Variant]` and `[FEN]`), its moves
/// written in `letters`.
pub(crate) fn start_board(
    headers: &[(String, String)],
    letters: Letters,
) -> Result<cc::Board, GameError> {
    let header = |name: &str| tag_value(headers, name);
    if let Some(variant) = header("Variant")
        && playable_variant(variant).is_none()
    {
        return Err(GameErrorKind::Variant {
            text: clip(variant),
        }
        .into());
    }
    let Some(text) = header("FEN") else {
        return Ok(cc::Board::default());
    };
    let position = fen::parse(text).map_err(|error| GameErrorKind::FenTag {
        text: clip(text),
        error,
    })?;
    // Named before "cannot be played": the letters would be wrong even if it could.
    if position.files() == 10 && letters.clash_on_10x8() {
        return Err(GameErrorKind::LettersOn10x8 { letters }.into());
    }
    Ok(board_of(&position).map_err(GameErrorKind::UnplayableFenTag)?)
}

/// `san` (as written or as played) numbered as played on `board`: `3. Nf3` or `3...Nf3`.
pub(crate) fn numbered(board: &cc::Board, san: &str) -> String {
    let number = board.fullmove_number();
    match board.side_to_move() {
        cc::Color::White => format!("{number}. {}", Token(san)),
        cc::Color::Black => format!("{number}...{}", Token(san)),
    }
}

/// The squares of `mv` on `board` as drawn (from, to; castling: the king's squares).
pub(crate) fn move_squares(board: &cc::Board, mv: cc::Move) -> (Square, Square) {
    let to = match castle_side(board, mv) {
        Some(short) => {
            let file = if short { 6 } else { 2 };
            Square::new(file, mv.from.rank() as u8)
        }
        None => square(mv.to),
    };
    (square(mv.from), to)
}

fn square(sq: cc::Square) -> Square {
    Square::new(sq.file() as u8, sq.rank() as u8)
}

pub(super) fn cc_square(sq: Square) -> cc::Square {
    cc::Square::new(
        cc::File::index(usize::from(sq.file)),
        cc::Rank::index(usize::from(sq.rank)),
    )
}

pub(crate) fn color_of(c: cc::Color) -> Color {
    match c {
        cc::Color::White => Color::White,
        cc::Color::Black => Color::Black,
    }
}

fn role_of(p: cc::Piece) -> Role {
    match p {
        cc::Piece::Pawn => Role::Pawn,
        cc::Piece::Knight => Role::Knight,
        cc::Piece::Bishop => Role::Bishop,
        cc::Piece::Rook => Role::Rook,
        cc::Piece::Queen => Role::Queen,
        cc::Piece::King => Role::King,
    }
}

pub(super) fn cc_piece(letter: char) -> Option<cc::Piece> {
    Some(match letter.to_ascii_uppercase() {
        'N' => cc::Piece::Knight,
        'B' => cc::Piece::Bishop,
        'R' => cc::Piece::Rook,
        'Q' => cc::Piece::Queen,
        'K' => cc::Piece::King,
        'P' => cc::Piece::Pawn,
        _ => return None,
    })
}

pub(super) fn letter(p: cc::Piece) -> char {
    match p {
        cc::Piece::Pawn => 'P',
        cc::Piece::Knight => 'N',
        cc::Piece::Bishop => 'B',
        cc::Piece::Rook => 'R',
        cc::Piece::Queen => 'Q',
        cc::Piece::King => 'K',
    }
}

/// Whether `mv` castles on `board` (king takes own rook): `Some(true)` short.
pub(super) fn castle_side(board: &cc::Board, mv: cc::Move) -> Option<bool> {
    let us = board.side_to_move();
    (board.piece_on(mv.from) == Some(cc::Piece::King) && board.colors(us).has(mv.to))
        .then(|| mv.to.file() > mv.from.file())
}

/// Every legal move of `board`.
pub(super) fn legal_moves(board: &cc::Board) -> Vec<cc::Move> {
    let mut moves = Vec::with_capacity(48);
    board.generate_moves(|piece_moves| {
        moves.extend(piece_moves);
        false
    });
    moves
}

/// `board` after `mv`.
pub(crate) fn after(board: &cc::Board, mv: cc::Move) -> cc::Board {
    let mut next = board.clone();
    next.play_unchecked(mv);
    next
}

/// A cozy-chess board of `position`, or why it cannot be played ("…" completes "the
/// position …").
pub(crate) fn board_of(position: &Position) -> Result<cc::Board, Unplayable> {
    if position.files() != 8 || position.pocket.is_some() {
        return Err(Unplayable::Board);
    }
    let (Some(white_king), Some(black_king)) =
        (position.king(Color::White), position.king(Color::Black))
    else {
        return Err(Unplayable::Kings);
    };
    if position.castling_type != CastlingType::Standard && position.castling != "-" {
        return Err(Unplayable::CastlingType {
            castling_type: position.castling_type,
        });
    }
    let mut castling = String::new();
    for c in position.castling.chars().filter(|&c| c != '-') {
        let (color, king) = if c.is_ascii_uppercase() {
            (Color::White, white_king)
        } else {
            (Color::Black, black_king)
        };
        let back = if color == Color::White { 0 } else { 7 };
        let rook = Piece {
            color,
            role: Role::Rook,
        };
        let rooks = (0..8u8).filter(|&f| position.get(Square::new(f, back)) == Some(rook));
        let file = match c.to_ascii_lowercase() {
            'k' => rooks.filter(|&f| f > king.file).max(),
            'q' => rooks.filter(|&f| f < king.file).min(),
            f @ 'a'..='h' => Some(f as u8 - b'a'),
            _ => None,
        };
        let Some(file) = file.filter(|_| king.rank == back) else {
            return Err(Unplayable::CastlingRight { right: c });
        };
        let f = (b'a' + file) as char;
        castling.push(if color == Color::White {
            f.to_ascii_uppercase()
        } else {
            f
        });
    }
    if castling.is_empty() {
        castling.push('-');
    }
    let shredder = format!(
        "{} {} {} {} {} {}",
        fen::placement(position),
        position.turn.letter(),
        castling,
        position
            .en_passant
            .map_or("-".to_string(), |s| s.to_string()),
        position.halfmove.min(100),
        position.fullmove.clamp(1, u32::from(u16::MAX)),
    );
    cc::Board::from_fen(&shredder, true).map_err(|_| Unplayable::Illegal)
}

/// Our position of a cozy-chess board: X-FEN castling (`K`/`Q` for the outermost rook, the
/// file otherwise), the en-passant square only when a capture there is legal.
pub(crate) fn position_of(board: &cc::Board) -> Position {
    let mut position = Position::empty(8);
    for sq in cc::Square::ALL {
        if let (Some(p), Some(c)) = (board.piece_on(sq), board.color_on(sq)) {
            let piece = Piece {
                color: color_of(c),
                role: role_of(p),
            };
            position.set(square(sq), Some(piece));
        }
    }
    position.turn = color_of(board.side_to_move());
    let mut castling = String::new();
    for color in [cc::Color::White, cc::Color::Black] {
        let rights = board.castle_rights(color);
        let back = cc::Rank::First.relative_to(color);
        let rooks = board.colored_pieces(color, cc::Piece::Rook) & back.bitboard();
        let king = board.king(color).file();
        for (file, short) in [(rights.short, true), (rights.long, false)] {
            let Some(file) = file else { continue };
            let outermost = rooks.iter().all(|r| {
                let f = r.file();
                if short {
                    f <= file || f < king
                } else {
                    f >= file || f > king
                }
            });
            let c = match (outermost, short) {
                (true, true) => 'k',
                (true, false) => 'q',
                (false, _) => (b'a' + file as u8) as char,
            };
            castling.push(if color == cc::Color::White {
                c.to_ascii_uppercase()
            } else {
                c
            });
        }
    }
    position.castling = if castling.is_empty() {
        "-".to_string()
    } else {
        castling
    };
    position.en_passant = board.en_passant().and_then(|file| {
        let rank = cc::Rank::Sixth.relative_to(board.side_to_move());
        let target = cc::Square::new(file, rank);
        legal_moves(board)
            .iter()
            .any(|m| m.to == target && board.piece_on(m.from) == Some(cc::Piece::Pawn))
            .then(|| square(target))
    });
    position.halfmove = u32::from(board.halfmove_clock());
    position.fullmove = u32::from(board.fullmove_number());
    position
}
