//! Movetext as people paste it from books and web pages, folded into the PGN standard's
//! spelling before it is read: any dash for `-` (typeset castling `0–0`, results `1–0`,
//! `½–½`), figurines for piece letters (`♘f3`, `♞c6`, `exd8=♕`), castling with the letter
//! O, the digit zero or a small o.
//!
//! Owns the folding only; what a folded move means is `game/`, what a folded result is
//! `pgn.rs`. Anything that folds to nothing known stays as written, so errors quote what
//! the user wrote.

use std::borrow::Cow;

/// The dashes typeset text uses where PGN has `-`: hyphen, non-breaking hyphen, figure
/// dash, en dash, em dash, horizontal bar and minus sign.
const DASHES: [char; 7] = [
    '\u{2010}', '\u{2011}', '\u{2012}', '\u{2013}', '\u{2014}', '\u{2015}', '\u{2212}',
];

/// The piece letter of a figurine, white (U+2654–2659) or black (U+265A–265F): either
/// colour is read for either side, as books print both. A pawn's figurine has no letter.
fn figurine(c: char) -> Option<&'static str> {
    Some(match c {
        '♔' | '♚' => "K",
        '♕' | '♛' => "Q",
        '♖' | '♜' => "R",
        '♗' | '♝' => "B",
        '♘' | '♞' => "N",
        '♙' | '♟' => "",
        _ => return None,
    })
}

/// `text` with dashes as `-`, figurines as letters, and the emoji and text variation
/// selectors (U+FE0E, U+FE0F, which may follow `♟`) removed; borrowed when there is
/// nothing to fold (printable ASCII, the usual case).
pub fn fold(text: &str) -> Cow<'_, str> {
    if text.is_ascii() {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match (c, figurine(c)) {
            (_, Some(letter)) => out.push_str(letter),
            ('\u{FE0E}' | '\u{FE0F}', _) => {}
            (c, _) if DASHES.contains(&c) => out.push('-'),
            (c, _) => out.push(c),
        }
    }
    Cow::Owned(out)
}

/// Which castling a folded move names: `Some(true)` for the king's side (`O-O`, `0-0`,
/// `o-o`, mixed alike), `Some(false)` for the queen's side, `None` for any other text.
pub fn castling(folded: &str) -> Option<bool> {
    let mut parts = 0;
    for part in folded.split('-') {
        if !matches!(part, "O" | "0" | "o") {
            return None;
        }
        parts += 1;
    }
    match parts {
        2 => Some(true),
        3 => Some(false),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dashes_figurines_and_selectors_fold_and_ascii_is_borrowed() {
        assert!(matches!(fold("Nf3"), Cow::Borrowed("Nf3")));
        assert_eq!(fold("0–0"), "0-0");
        assert_eq!(fold("O—O−O"), "O-O-O");
        assert_eq!(fold("♘f3"), "Nf3");
        assert_eq!(fold("♞xc6"), "Nxc6");
        assert_eq!(fold("exd8=♕+"), "exd8=Q+");
        assert_eq!(fold("♙e4"), "e4");
        assert_eq!(fold("♟\u{FE0F}e5"), "e5");
        assert_eq!(fold("½–½"), "½-½");
        // Other characters stay, for the error to quote.
        assert_eq!(fold("Žf3"), "Žf3");
    }

    #[test]
    fn castling_in_every_spelling_and_nothing_else() {
        for short in ["O-O", "0-0", "o-o", "O-0"] {
            assert_eq!(castling(short), Some(true), "{short}");
        }
        for long in ["O-O-O", "0-0-0", "o-o-o"] {
            assert_eq!(castling(long), Some(false), "{long}");
        }
        for other in ["O", "0-0-0-0", "OO", "O-", "-O", "0-1", "Oo-O", ""] {
            assert_eq!(castling(other), None, "{other}");
        }
    }
}
