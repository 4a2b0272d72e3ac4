//! User text made safe to repeat in an error message: quoted, shortened, printable; the
//! characters no user text may carry into an image, a header or a sentence; the characters
//! one line of text (a caption, a title, a name) may not carry; and the bytes of text that
//! is not UTF-8, written as `%XX` escapes.

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

/// Whether `c` is one of Unicode's line or paragraph separators (U+2028, U+2029): a line
/// break, to a browser, a PDF viewer or an XML reader, though not a control character.
pub(crate) fn separator(c: char) -> bool {
    matches!(c, '\u{2028}' | '\u{2029}')
}

/// Whether `c` is a bidirectional embedding, override or isolate (U+202A–U+202E,
/// U+2066–U+2069): characters that reorder the text around them when a viewer shows it
/// (a PDF's title bar, a browser), while the service draws text in the order written.
pub(crate) fn reorders(c: char) -> bool {
    matches!(c, '\u{202A}'..='\u{202E}' | '\u{2066}'..='\u{2069}')
}

/// Whether `c` is a bidirectional control: one that [`reorders`], or a mark (U+200E
/// left-to-right, U+200F right-to-left, U+061C Arabic letter mark), which changes where
/// the punctuation and digits beside it are shown.
pub(crate) fn bidi_control(c: char) -> bool {
    reorders(c) || matches!(c, '\u{200E}' | '\u{200F}' | '\u{061C}')
}

/// Why `c` may not stand in one line of user text (a caption, a title, a player's name),
/// as the end of a sentence naming it, or `None` when it may: a [`forbidden`] character
/// "is not printable", a [`separator`] "breaks the line", a [`bidi_control`] could show
/// the text in another order than it is drawn.
pub(crate) fn unfit_in_line(c: char) -> Option<&'static str> {
    if forbidden(c) {
        Some("which is not printable")
    } else if c == '\u{2028}' {
        Some("a line separator, which breaks the line")
    } else if c == '\u{2029}' {
        Some("a paragraph separator, which breaks the line")
    } else if bidi_control(c) {
        Some(
            "a bidirectional control, which could show the text (a title, a PDF's metadata) in another order than it is drawn",
        )
    } else {
        None
    }
}

/// The first character of `text` that may not stand in one line ([`unfit_in_line`]), its
/// place (1-based, in characters) and why.
pub(crate) fn first_unfit_in_line(text: &str) -> Option<(usize, char, &'static str)> {
    text.chars()
        .enumerate()
        .find_map(|(i, c)| Some((i + 1, c, unfit_in_line(c)?)))
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

/// Whether a sentence shows `c` by its code point ([`CodePoint`]) rather than as itself:
/// a [`forbidden`] character, a line or paragraph [`separator`], a [`bidi_control`], or a
/// character no font here draws (an error image draws the sentence; a reader could not
/// tell a box or a blank from another). Printable ASCII is always itself.
fn coded(c: char) -> bool {
    if c.is_ascii() {
        return forbidden(c);
    }
    unfit_in_line(c).is_some() || !drawable(c)
}

/// Whether the text face, a font added to it or an installed one draws `c`.
fn drawable(c: char) -> bool {
    crate::render::art::font::TextFace::builtin(false).is_some_and(|face| face.has_glyph(c))
}

/// `text` with every character a sentence may not repeat as itself ([`coded`]: a control,
/// a separator, a bidirectional control, one no font draws) written as its code point
/// (`U+202E`): a sentence safe to send, print and draw whatever went into it. Every
/// request error and every answer of the service passes through it.
pub(crate) fn tame(text: &str) -> std::borrow::Cow<'_, str> {
    match text.chars().any(coded) {
        false => std::borrow::Cow::Borrowed(text),
        true => {
            let mut out = String::with_capacity(text.len() + 8);
            for c in text.chars() {
                match coded(c) {
                    true => out.push_str(&CodePoint(c).to_string()),
                    false => out.push(c),
                }
            }
            out.into()
        }
    }
}

/// Bytes that are not UTF-8, as `%XX` escapes (`%ED%A0%80`): how a query writes them.
pub(crate) struct Escaped<'a>(pub &'a [u8]);

impl fmt::Display for Escaped<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.iter().try_for_each(|b| write!(f, "%{b:02X}"))
    }
}

/// The first bytes of `bytes` that are not UTF-8: where they start (0-based) and the
/// sequence, from the byte that is wrong through the continuation bytes (`%80`–`%BF`)
/// after it, at most 4 (`%ED%A0%80`, a lone surrogate; `%C0%AF`, an overlong `/`; `%E9`,
/// Latin-1's `é`). `None` for UTF-8.
pub(crate) fn not_utf8(bytes: &[u8]) -> Option<(usize, &[u8])> {
    let at = std::str::from_utf8(bytes).err()?.valid_up_to();
    let rest = &bytes[at..];
    let len = 1 + rest
        .iter()
        .skip(1)
        .take(3)
        .take_while(|b| (0x80..=0xBF).contains(*b))
        .count();
    Some((at, &rest[..len]))
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
        assert_eq!(CodePoint('\0').to_string(), "U+0000");
    }

    #[test]
    fn one_line_refuses_separators_and_bidirectional_controls() {
        for c in ['\u{2028}', '\u{2029}', '\u{202A}', '\u{202E}', '\u{2066}', '\u{2069}'] {
            assert!(unfit_in_line(c).is_some(), "{}", CodePoint(c));
        }
        for c in ['\u{200E}', '\u{200F}', '\u{061C}'] {
            assert!(bidi_control(c) && !reorders(c), "{}", CodePoint(c));
        }
        for c in ['a', ' ', 'é', '\u{A0}', '\u{2027}', '\u{202F}', '\u{2065}', '王'] {
            assert_eq!(unfit_in_line(c), None, "{}", CodePoint(c));
        }
        assert_eq!(unfit_in_line('\0'), Some("which is not printable"));
        assert_eq!(
            first_unfit_in_line("ab\u{2028}"),
            Some((3, '\u{2028}', "a line separator, which breaks the line"))
        );
    }

    #[test]
    fn sentences_show_what_they_cannot_repeat_as_code_points() {
        assert_eq!(tame("a\0b\u{1b}c"), "aU+0000bU+001Bc");
        assert_eq!(tame("x \u{202E}y\u{2028}"), "x U+202EyU+2028");
        assert_eq!(tame("\u{10FFFD}"), "U+10FFFD", "a private-use character no font has");
        assert!(matches!(tame("Weiß – ½ ♘"), std::borrow::Cow::Borrowed(_)));
    }

    #[test]
    fn bytes_that_are_not_utf8_are_found_and_escaped() {
        let shown = |b: &[u8]| not_utf8(b).map(|(at, bad)| format!("{at} {}", Escaped(bad)));
        assert_eq!(shown(b"ab\xED\xA0\x80c").as_deref(), Some("2 %ED%A0%80"));
        assert_eq!(shown(b"\xC0\xAF").as_deref(), Some("0 %C0%AF"));
        assert_eq!(shown(b"caf\xE9 au lait").as_deref(), Some("3 %E9"));
        assert_eq!(shown(b"\xE2\x82").as_deref(), Some("0 %E2%82"), "cut short");
        assert_eq!(shown("café".as_bytes()), None);
    }
}
