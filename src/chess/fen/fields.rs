//! The FEN fields after the placement and the side to move: castling rights (with X-FEN's
//! castling types), the en passant square, and the two clocks.

use super::error::{FenError, FenErrorKind, NumberField, echo};
use crate::chess::position::{BoardSize, CastlingType, Square};

pub(super) fn parse_number(text: &str, field: NumberField) -> Result<u32, FenError> {
    if text.is_empty() || !text.bytes().all(|b| b.is_ascii_digit()) {
        return Err(FenErrorKind::NotANumber {
            field,
            text: echo(text),
        }
        .into());
    }
    // Only digits: the parse can only fail by overflow.
    text.parse::<u32>().map_err(|_| {
        FenErrorKind::NumberTooLarge {
            field,
            text: echo(text),
        }
        .into()
    })
}

pub(super) fn parse_en_passant(text: &str, board: BoardSize) -> Result<Option<Square>, FenError> {
    if text == "-" {
        return Ok(None);
    }
    match Square::parse(text, board) {
        Some(sq) if board.ranks != 8 || sq.rank == 2 || sq.rank == 5 => Ok(Some(sq)),
        _ => Err(FenErrorKind::EnPassant { text: echo(text) }.into()),
    }
}

/// The castling type (X-FEN prefix `s` or `m`, else standard) and the castling rights in
/// canonical order: white before black; `K`, `Q`, then files a, b, ….
pub(super) fn parse_castling(text: &str, files: u8) -> Result<(CastlingType, String), FenError> {
    let mut chars = text.chars();
    let castling_type = match chars.next().and_then(CastlingType::from_prefix) {
        Some(castling_type) => castling_type,
        None => {
            chars = text.chars();
            CastlingType::Standard
        }
    };
    let rights = chars.as_str();
    let skipped = text.len() - rights.len(); // 0 or 1: the prefix is one ASCII letter
    if rights.is_empty() {
        // Only a prefix could leave nothing: a field is never empty.
        return Err(FenErrorKind::CastlingTypeAlone {
            text: echo(text),
            letter: text.chars().next().unwrap_or('?'),
        }
        .into());
    }
    // A castling type out of place is named before any other bad character (`-m`, `Ks`).
    if let Some((i, letter)) = rights
        .chars()
        .enumerate()
        .find(|(_, c)| CastlingType::from_prefix(*c).is_some())
    {
        return Err(FenErrorKind::CastlingTypePlace {
            text: echo(text),
            letter,
            column: skipped + i + 1,
        }
        .into());
    }
    if rights == "-" {
        return Ok((castling_type, "-".to_string()));
    }
    const PER_COLOR: u32 = 2 + crate::chess::position::MAX_FILES as u32; // 18: both colours fit in a u64
    // The bit of a letter: colour × PER_COLOR + (0 K, 1 Q, 2.. file letters).
    let bit_of = |c: char| -> Option<u32> {
        let color = u32::from(c.is_ascii_lowercase());
        let order = match c.to_ascii_uppercase() {
            'K' => 0,
            'Q' => 1,
            upper @ 'A'..='P' if (upper as u32 - 'A' as u32) < u32::from(files) => {
                2 + (upper as u32 - 'A' as u32)
            }
            _ => return None,
        };
        Some(color * PER_COLOR + order)
    };
    let mut seen: u64 = 0;
    for c in rights.chars() {
        let Some(bit) = bit_of(c) else {
            return Err(FenErrorKind::Castling {
                text: echo(text),
                last_file: char::from(b'A' + files.saturating_sub(1)),
            }
            .into());
        };
        if seen & (1 << bit) != 0 {
            return Err(FenErrorKind::CastlingRepeated {
                text: echo(text),
                letter: c,
            }
            .into());
        }
        seen |= 1 << bit;
    }
    let letter = |bit: u32| -> char {
        let upper = match bit % PER_COLOR {
            0 => 'K',
            1 => 'Q',
            file => char::from_u32('A' as u32 + file - 2).unwrap_or('?'),
        };
        if bit >= PER_COLOR {
            upper.to_ascii_lowercase()
        } else {
            upper
        }
    };
    let canonical = (0..2 * PER_COLOR)
        .filter(|bit| seen & (1 << bit) != 0)
        .map(letter)
        .collect();
    Ok((castling_type, canonical))
}
