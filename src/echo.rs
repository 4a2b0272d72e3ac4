//! User text made safe to repeat in an error message: quoted, shortened, printable; and
//! the characters no user text may carry into an image, a header or a sentence.

use std::fmt;

/// Whether `c` may not travel in user text: the C0 and C1 control characters and DEL
/// (tab and line breaks too: a text that takes them says so and lets them through first),
/// and the non-characters (U+FDD0–U+FDEF, and U+FFFE, U+FFFF and their kin in every
/// plane), of which U+FFFE and U+FFFF may not stand in XML at all.
pub(crate) fn forbidden(c: char) -> bool {
    let code = u32::from(c);
    c.is_control() || (0xFDD0..=0xFDEF).contains(&code) || code & 0xFFFE == 0xFFFE
}

/// The first [`forbidden`] character of `text` and its place (1-based, in characters).
pub(crate) fn first_forbidden(text: &str) -> Option<(usize, char)> {
    text.chars()
        .enumerate()
        .find(|(_, c)| forbidden(*c))
        .map(|(i, c)| (i + 1, c))
}

/// Whether XML 1.0 allows `c` in a document (tab, line feed, carriage return, and
/// everything from U+0020 but U+FFFE and U+FFFF; surrogates cannot be a `char`).
pub(crate) fn xml_char(c: char) -> bool {
    matches!(c, '\t' | '\n' | '\r') || (c >= ' ' && !matches!(c, '\u{FFFE}' | '\u{FFFF}'))
}

/// A character by its code point, for messages: `U+0000`.
pub(crate) struct CodePoint(pub char);

impl fmt::Display for CodePoint {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "U+{:04X}", u32::from(self.0))
    }
}

/// `text` with every [`forbidden`] character as `?`: a sentence safe to send whatever
/// went into it.
#[cfg_attr(not(feature = "server"), allow(dead_code))] // the service's error sentences
pub(crate) fn tame(text: &str) -> std::borrow::Cow<'_, str> {
    match text.chars().any(forbidden) {
        false => std::borrow::Cow::Borrowed(text),
        true => text
            .chars()
            .map(|c| if forbidden(c) { '?' } else { c })
            .collect::<String>()
            .into(),
    }
}

/// How much of a bad value an error message repeats.
const ECHO_CHARS: usize = 40;

/// A user value made safe to repeat: quoted, control and non-ASCII characters replaced,
/// and shortened to 40 characters.
pub struct Echo<'a>(pub &'a str);

impl fmt::Display for Echo<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("\"")?;
        for (i, c) in self.0.chars().enumerate() {
            if i == ECHO_CHARS {
                f.write_str("…")?;
                break;
            }
            let c = if c.is_ascii_graphic() || c == ' ' {
                c
            } else {
                '?'
            };
            write!(f, "{c}")?;
        }
        f.write_str("\"")
    }
}

/// `text` cut to the characters [`Echo`] and [`Token`] can show (41: one more than they
/// repeat, so they still add `…`), for an error to keep without holding a huge input.
pub(crate) fn clip(text: &str) -> String {
    match text.char_indices().nth(ECHO_CHARS + 1) {
        Some((end, _)) => text[..end].to_string(),
        None => text.to_string(),
    }
}

/// A move as the user wrote it, for messages: bare when it looks like a move (at most 12
/// letters, digits and `+#=-!?@`, and the figurines, dashes and `½` of typeset moves:
/// `0–0`, `♘f3`), else as [`Echo`] would show it (quoted, shortened, printable), so a
/// 15 KB "move" or one with control bytes comes back tamed.
pub struct Token<'a>(pub &'a str);

/// A character of a move as books print it, beyond ASCII: figurines (U+2654–265F), the
/// dashes of typeset castling and results, and `½`.
fn typeset(c: char) -> bool {
    matches!(c, '\u{2654}'..='\u{265F}' | '\u{2010}'..='\u{2015}' | '\u{2212}' | '½')
}

impl fmt::Display for Token<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let plain = self.0.chars().count() <= 12
            && !self.0.is_empty()
            && self
                .0
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || "+#=-!?@".contains(c) || typeset(c));
        match plain {
            true => f.write_str(self.0),
            false => Echo(self.0).fmt(f),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn moves_show_bare_and_anything_else_tamed() {
        assert_eq!(Token("Nxf7+").to_string(), "Nxf7+");
        assert_eq!(Token("e7e8q").to_string(), "e7e8q");
        assert_eq!(Token("<script>").to_string(), "\"<script>\"");
        assert_eq!(Token("a\u{1b}b").to_string(), "\"a?b\"");
        assert_eq!(Token("0–0").to_string(), "0–0");
        assert_eq!(Token("♕xd8+").to_string(), "♕xd8+");
        assert_eq!(Token("e4\u{202e}").to_string(), "\"e4?\"", "a bidi override is tamed");
        let long = "N".repeat(15_000);
        assert!(Token(&long).to_string().chars().count() < 50);
    }

    #[test]
    fn forbidden_characters_are_controls_and_non_characters() {
        for c in ['\0', '\t', '\n', '\u{1b}', '\u{7f}', '\u{85}', '\u{9f}'] {
            assert!(forbidden(c), "{}", CodePoint(c));
        }
        for c in ['\u{FDD0}', '\u{FFFE}', '\u{FFFF}', '\u{1FFFF}', '\u{10FFFE}'] {
            assert!(forbidden(c), "{}", CodePoint(c));
        }
        for c in ['a', ' ', 'é', '\u{A0}', '\u{202E}', '\u{FFFD}', '\u{1F986}', '王'] {
            assert!(!forbidden(c), "{}", CodePoint(c));
        }
        assert_eq!(first_forbidden("ab\u{FFFF}c"), Some((3, '\u{FFFF}')));
        assert_eq!(first_forbidden("abc"), None);
        assert!(!xml_char('\0') && !xml_char('\u{FFFF}') && xml_char('\n'));
        assert!(xml_char('\u{85}'), "XML 1.0 allows C1; forbidden() does not");
        assert_eq!(tame("a\0b\u{1b}c"), "a?b?c");
        assert_eq!(CodePoint('\0').to_string(), "U+0000");
    }
}
