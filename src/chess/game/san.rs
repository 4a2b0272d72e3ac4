//! Moves as text: reading SAN (in any language's piece letters, typeset or not) and UCI
//! into a legal move of a board, and writing a move back as standard SAN.

use super::board::{after, castle_side, cc_piece, cc_square, legal_moves, letter};
use super::error::IllegalMove;
use crate::chess::letters::Letters;
use crate::chess::position::Square;
use cozy_chess as cc;

/// `san` with `letters`' piece letters as English ones, or `None` when it has a capital
/// letter that is none of them. The chosen language's letters win: under Italian `R` is
/// the king, and English letters it lacks (`N`, `B`, `Q`) are not read. Figurines are
/// left for `pasted::fold`.
fn english_letters(san: &str, letters: Letters) -> Option<std::borrow::Cow<'_, str>> {
    if letters == Letters::English {
        return Some(san.into());
    }
    let mut previous = ' ';
    san.chars()
        .map(|c| {
            // After `=` a small letter is a promotion piece too (`e8=d`).
            let promotion = std::mem::replace(&mut previous, c) == '=';
            match c.is_ascii_uppercase() || (promotion && c.is_ascii_lowercase()) {
                true => letters.to_english(c.to_ascii_uppercase()),
                false => Some(c),
            }
        })
        .collect::<Option<String>>()
        .map(Into::into)
}

/// The legal move `san` (in `letters`) names on `board`, or why there is none.
pub(crate) fn read_san(
    board: &cc::Board,
    san: &str,
    letters: Letters,
) -> Result<cc::Move, IllegalMove> {
    let folded = crate::chess::pasted::fold(san);
    let text = folded.trim_end_matches(['+', '#']);
    let castle = crate::chess::pasted::castling(text);
    let moves = legal_moves(board);
    if let Some(short) = castle {
        let found = moves
            .iter()
            .find(|&&mv| castle_side(board, mv) == Some(short));
        return found.copied().ok_or(IllegalMove::NoCastling { short });
    }
    let not_san = match letters {
        Letters::English => IllegalMove::NotSan,
        _ => IllegalMove::NotSanIn { letters },
    };
    let english = english_letters(san, letters).ok_or(not_san.clone())?;
    let folded = crate::chess::pasted::fold(&english);
    let text = folded.trim_end_matches(['+', '#']);
    read_piece_move(board, text, moves).map_err(|why| match why {
        IllegalMove::NotSan => not_san,
        IllegalMove::Ambiguous { candidates } => IllegalMove::Ambiguous {
            candidates: candidates.iter().map(|c| letters.from_english(c)).collect(),
        },
        other => other,
    })
}

/// The legal move (not castling) among `moves` that folded English SAN `text` names.
fn read_piece_move(
    board: &cc::Board,
    text: &str,
    moves: Vec<cc::Move>,
) -> Result<cc::Move, IllegalMove> {
    let chars: Vec<char> = text.chars().filter(|&c| c != 'x' && c != ':').collect();
    let (piece, rest) = match chars.first() {
        Some(&c) if "NBRQK".contains(c) => (cc_piece(c).expect("a piece letter"), &chars[1..]),
        Some(_) => (cc::Piece::Pawn, &chars[..]),
        None => return Err(IllegalMove::NotSan),
    };
    // Promotion: `=Q`, `Q`, or `(Q)` at the end.
    let mut rest = rest.to_vec();
    if rest.last() == Some(&')') && rest.len() >= 3 && rest[rest.len() - 3] == '(' {
        rest.remove(rest.len() - 1);
        rest.remove(rest.len() - 2);
    }
    let promotion = match rest.last() {
        Some(&c) if piece == cc::Piece::Pawn && "NBRQnbrq".contains(c) && rest.len() >= 3 => {
            rest.pop();
            if rest.last() == Some(&'=') {
                rest.pop();
            }
            Some(cc_piece(c).expect("a piece letter"))
        }
        _ => None,
    };
    if rest.len() < 2 || rest.len() > 4 {
        return Err(IllegalMove::NotSan);
    }
    let (hint, target) = rest.split_at(rest.len() - 2);
    let file = |c: char| ('a'..='h').contains(&c).then(|| c as u8 - b'a');
    let rank = |c: char| ('1'..='8').contains(&c).then(|| c as u8 - b'1');
    let (Some(to_file), Some(to_rank)) = (file(target[0]), rank(target[1])) else {
        return Err(IllegalMove::NotSan);
    };
    let to = cc_square(Square::new(to_file, to_rank));
    let (mut from_file, mut from_rank) = (None, None);
    for &c in hint {
        match (file(c), rank(c)) {
            (Some(f), _) if from_file.is_none() => from_file = Some(f),
            (_, Some(r)) if from_rank.is_none() => from_rank = Some(r),
            _ => return Err(IllegalMove::NotSan),
        }
    }
    let matches: Vec<cc::Move> = moves
        .into_iter()
        .filter(|&mv| {
            mv.to == to
                && board.piece_on(mv.from) == Some(piece)
                && castle_side(board, mv).is_none()
                && mv.promotion == promotion
                && from_file.is_none_or(|f| mv.from.file() as u8 == f)
                && from_rank.is_none_or(|r| mv.from.rank() as u8 == r)
        })
        .collect();
    match matches.as_slice() {
        [mv] => Ok(*mv),
        [] if piece == cc::Piece::Pawn && promotion.is_none() && matches!(to_rank, 0 | 7) => {
            Err(IllegalMove::MustPromote)
        }
        [] => Err(IllegalMove::Illegal),
        several => {
            let candidates = several
                .iter()
                .map(|&mv| write_san(board, mv, &after(board, mv)))
                .collect();
            Err(IllegalMove::Ambiguous { candidates })
        }
    }
}

/// The legal move UCI `text` names on `board` (castling as the king's two-square move or
/// as king takes rook), or why there is none.
pub(super) fn read_uci(board: &cc::Board, text: &str) -> Result<cc::Move, IllegalMove> {
    let mv: cc::Move = text
        .to_ascii_lowercase()
        .parse()
        .map_err(|_| IllegalMove::NotUci)?;
    let moves = legal_moves(board);
    if moves.contains(&mv) {
        return Ok(mv);
    }
    // `e1g1`: the king's two-square move stands for castling.
    if board.piece_on(mv.from) == Some(cc::Piece::King)
        && mv.from.rank() == mv.to.rank()
        && mv.promotion.is_none()
    {
        let short = mv.to.file() > mv.from.file();
        let target = if short { cc::File::G } else { cc::File::C };
        if mv.to.file() == target
            && let Some(&castle) = moves
                .iter()
                .find(|&&m| castle_side(board, m) == Some(short))
        {
            return Ok(castle);
        }
    }
    Err(IllegalMove::Illegal)
}

/// Standard SAN of `mv` on `board` (`next` is the position after it), with `+` or `#`.
pub(crate) fn write_san(board: &cc::Board, mv: cc::Move, next: &cc::Board) -> String {
    let mut san = match castle_side(board, mv) {
        Some(true) => "O-O".to_string(),
        Some(false) => "O-O-O".to_string(),
        None => {
            let piece = board.piece_on(mv.from).expect("a piece moves");
            let capture = board.occupied().has(mv.to)
                || (piece == cc::Piece::Pawn && mv.from.file() != mv.to.file());
            let mut san = String::with_capacity(8);
            let file_char = |sq: cc::Square| (b'a' + sq.file() as u8) as char;
            let rank_char = |sq: cc::Square| (b'1' + sq.rank() as u8) as char;
            if piece == cc::Piece::Pawn {
                if capture {
                    san.push(file_char(mv.from));
                }
            } else {
                san.push(letter(piece));
                let rivals: Vec<cc::Square> = legal_moves(board)
                    .into_iter()
                    .filter(|&m| {
                        m.to == mv.to
                            && m.from != mv.from
                            && board.piece_on(m.from) == Some(piece)
                            && castle_side(board, m).is_none()
                    })
                    .map(|m| m.from)
                    .collect();
                if !rivals.is_empty() {
                    let same_file = rivals.iter().any(|s| s.file() == mv.from.file());
                    let same_rank = rivals.iter().any(|s| s.rank() == mv.from.rank());
                    if !same_file {
                        san.push(file_char(mv.from));
                    } else if !same_rank {
                        san.push(rank_char(mv.from));
                    } else {
                        san.push(file_char(mv.from));
                        san.push(rank_char(mv.from));
                    }
                }
            }
            if capture {
                san.push('x');
            }
            san.push(file_char(mv.to));
            san.push(rank_char(mv.to));
            if let Some(p) = mv.promotion {
                san.push('=');
                san.push(letter(p));
            }
            san
        }
    };
    if !next.checkers().is_empty() {
        san.push(if legal_moves(next).is_empty() {
            '#'
        } else {
            '+'
        });
    }
    san
}
