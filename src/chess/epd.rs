//! EPD: one line of Extended Position Description read into a position and its operations.
//!
//! Owns the EPD line syntax: the four FEN fields (read by `fen/`, so X-FEN and 10×8
//! boards work as they do there) and the operations after them, `opcode operand …;`, with
//! bare or double-quoted operands. `hmvc` and `fmvn` set the position's clocks; every other
//! opcode is kept as written, for the caller to use. Reading a file's lines and numbering
//! them is the caller's.

use crate::chess::fen;
use crate::chess::fen::FenError;
use crate::chess::position::Position;
use crate::echo::{Echo, clip};
use thiserror::Error;

/// One EPD line: its position and its operations in order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Epd {
    /// The four FEN fields as written, joined by single spaces.
    pub fen: String,
    /// The position, with the clocks of `hmvc` and `fmvn` when the line has them.
    pub position: Position,
    /// The operations in order: opcode and operands (quoted ones unquoted).
    pub operations: Vec<(String, Vec<String>)>,
}

impl Epd {
    /// Operands of the first operation named `opcode` (case-sensitive, as EPD is).
    pub fn operands(&self, opcode: &str) -> Option<&[String]> {
        self.operations
            .iter()
            .find(|(name, _)| name == opcode)
            .map(|(_, operands)| operands.as_slice())
    }

    /// The first operand of `opcode` (e.g. `id`, `c0`).
    pub fn text(&self, opcode: &str) -> Option<&str> {
        self.operands(opcode)?.first().map(String::as_str)
    }
}

/// Why an EPD line could not be read: one sentence, without the line number.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error("{kind}")]
pub struct EpdError {
    /// What was wrong, with the details the message shows.
    pub kind: EpdErrorKind,
}

impl From<EpdErrorKind> for EpdError {
    fn from(kind: EpdErrorKind) -> EpdError {
        EpdError { kind }
    }
}

/// The kinds of [`EpdError`]. Every `text` field holds the offending input as written, cut
/// to 41 characters (the message shows at most 40, quoted, non-printable characters as `?`).
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[non_exhaustive]
pub enum EpdErrorKind {
    /// Fewer than the four FEN fields.
    #[error(
        "the EPD {} has {}, expected 4 FEN fields (placement, side to move, castling, en passant) before the operations",
        Echo(.text),
        fields_text(*.count)
    )]
    FieldCount {
        /// The whole line, trimmed.
        text: String,
        /// How many fields it has.
        count: usize,
    },
    /// The four FEN fields are not a valid position.
    #[error("the position {} is not a valid FEN: {}", Echo(.text), .error.kind)]
    Fen {
        /// The four fields joined by single spaces.
        text: String,
        /// Why the FEN reader rejected them.
        error: FenError,
    },
    /// `hmvc` or `fmvn` without one whole number.
    #[error(
        "{opcode} needs one whole number up to {} as its operand, not {}",
        u32::MAX,
        Echo(.operands)
    )]
    Clock {
        /// `hmvc` or `fmvn`.
        opcode: &'static str,
        /// Its operands joined by a space.
        operands: String,
    },
    /// A `;` with no opcode before it.
    #[error("expected an opcode before the \";\" in {}", Echo(.text))]
    MissingOpcode {
        /// The text from the `;` on.
        text: String,
    },
    /// An opcode that is not 1 to 15 letters, digits or `_` starting with a letter.
    #[error(
        "the opcode {} is not valid, expected 1 to 15 letters, digits or \"_\", starting with a letter",
        Echo(.text)
    )]
    Opcode {
        /// The opcode.
        text: String,
    },
    /// A quoted operand with no closing `"`.
    #[error("the quoted operand {} of {opcode} has no closing '\"'", Echo(.text))]
    UnclosedQuote {
        /// The text after the opening `"`.
        text: String,
        /// The operation's opcode.
        opcode: String,
    },
}

/// "1 field", "3 fields".
fn fields_text(count: usize) -> String {
    match count {
        1 => "1 field".to_string(),
        n => format!("{n} fields"),
    }
}

/// Read one EPD line; `None` for blank lines and lines starting with `#`.
pub fn parse_line(line: &str) -> Result<Option<Epd>, EpdError> {
    let line = line.trim();
    if line.is_empty() || line.starts_with('#') {
        return Ok(None);
    }
    let mut fields = Vec::with_capacity(4);
    let mut rest = line;
    while fields.len() < 4 {
        rest = rest.trim_start();
        if rest.is_empty() {
            return Err(EpdErrorKind::FieldCount {
                text: clip(line),
                count: fields.len(),
            }
            .into());
        }
        let end = rest.find(char::is_whitespace).unwrap_or(rest.len());
        fields.push(&rest[..end]);
        rest = &rest[end..];
    }
    let fen = fields.join(" ");
    let position = fen::parse(&fen).map_err(|error| EpdErrorKind::Fen {
        text: clip(&fen),
        error,
    })?;
    let mut epd = Epd {
        fen,
        position,
        operations: operations(rest)?,
    };
    if let Some(n) = clock(&epd, "hmvc")? {
        epd.position.halfmove = n;
    }
    if let Some(n) = clock(&epd, "fmvn")? {
        epd.position.fullmove = n;
    }
    Ok(Some(epd))
}

/// The number of the first `opcode` operation, if there is one.
fn clock(epd: &Epd, opcode: &'static str) -> Result<Option<u32>, EpdError> {
    let Some(operands) = epd.operands(opcode) else {
        return Ok(None);
    };
    match operands {
        [n] if n.bytes().all(|b| b.is_ascii_digit()) => {
            if let Ok(n) = n.parse() {
                return Ok(Some(n));
            }
        }
        _ => {}
    }
    Err(EpdErrorKind::Clock {
        opcode,
        operands: clip(&operands.join(" ")),
    }
    .into())
}

/// The operations of `text`, what follows the four FEN fields.
fn operations(mut text: &str) -> Result<Vec<(String, Vec<String>)>, EpdError> {
    let mut operations = Vec::new();
    loop {
        text = text.trim_start();
        if text.is_empty() {
            return Ok(operations);
        }
        let end = text
            .find(|c: char| c.is_whitespace() || c == ';')
            .unwrap_or(text.len());
        let opcode = &text[..end];
        if opcode.is_empty() {
            return Err(EpdErrorKind::MissingOpcode { text: clip(text) }.into());
        }
        if !valid_opcode(opcode) {
            return Err(EpdErrorKind::Opcode { text: clip(opcode) }.into());
        }
        text = &text[end..];
        let mut operands = Vec::new();
        loop {
            text = text.trim_start();
            match text.chars().next() {
                None => break,
                Some(';') => {
                    text = &text[1..];
                    break;
                }
                Some('"') => {
                    let (operand, after) = quoted(&text[1..]).ok_or_else(|| {
                        EpdError::from(EpdErrorKind::UnclosedQuote {
                            text: clip(&text[1..]),
                            opcode: opcode.to_string(),
                        })
                    })?;
                    operands.push(operand);
                    text = after;
                }
                Some(_) => {
                    let end = text
                        .find(|c: char| c.is_whitespace() || c == ';')
                        .unwrap_or(text.len());
                    operands.push(text[..end].to_string());
                    text = &text[end..];
                }
            }
        }
        operations.push((opcode.to_string(), operands));
    }
}

/// 1 to 15 ASCII letters, digits or `_`, starting with a letter.
fn valid_opcode(opcode: &str) -> bool {
    opcode.len() <= 15
        && opcode.starts_with(|c: char| c.is_ascii_alphabetic())
        && opcode
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'_')
}

/// A quoted string whose opening `"` was just read: its value (`\"` and `\\` unescaped)
/// and the text after its closing `"`, or `None` when it is not closed.
fn quoted(text: &str) -> Option<(String, &str)> {
    let mut value = String::new();
    let mut chars = text.char_indices();
    while let Some((i, c)) = chars.next() {
        match c {
            '"' => return Some((value, &text[i + 1..])),
            '\\' => match chars.clone().next() {
                Some((_, escaped @ ('"' | '\\'))) => {
                    value.push(escaped);
                    chars.next();
                }
                _ => value.push('\\'),
            },
            _ => value.push(c),
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::chess::piece::Color;
    use crate::chess::position::Square;
    use proptest::prelude::*;

    fn epd(line: &str) -> Epd {
        parse_line(line)
            .unwrap_or_else(|e| panic!("{line:?}: {e}"))
            .unwrap_or_else(|| panic!("{line:?} is a position"))
    }

    fn error(line: &str) -> String {
        parse_line(line).expect_err(line).to_string()
    }

    fn strings(items: &[&str]) -> Vec<String> {
        items.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn reads_the_position_and_the_operations() {
        let e = epd("1k1r4/pp1b1R2/3q2pp/4p3/2B5/4Q3/PPP2B2/2K5 b - - bm Qd1+; id \"BK.01\";");
        assert_eq!(e.fen, "1k1r4/pp1b1R2/3q2pp/4p3/2B5/4Q3/PPP2B2/2K5 b - -");
        assert_eq!(e.position.turn, Color::Black);
        assert_eq!(
            e.position.to_string(),
            "1k1r4/pp1b1R2/3q2pp/4p3/2B5/4Q3/PPP2B2/2K5 b - - 0 1"
        );
        assert_eq!(
            e.operations,
            [
                ("bm".to_string(), strings(&["Qd1+"])),
                ("id".to_string(), strings(&["BK.01"])),
            ]
        );
        assert_eq!(e.operands("bm"), Some(&strings(&["Qd1+"])[..]));
        assert_eq!(e.text("id"), Some("BK.01"));
        assert_eq!(e.text("ID"), None, "opcodes are case-sensitive");
        assert_eq!(e.operands("c0"), None);
    }

    #[test]
    fn operands_bare_quoted_escaped_and_missing() {
        let e = epd(
            "  8/8/8/8/8/8/8/8   w  -   -  am e4 d4 ;c0 \"say \\\"hi\\\" \\\\ a\\b;c\" ; noop;id x; id y\r\n",
        );
        assert_eq!(e.fen, "8/8/8/8/8/8/8/8 w - -");
        assert_eq!(e.operands("am"), Some(&strings(&["e4", "d4"])[..]));
        assert_eq!(e.text("c0"), Some("say \"hi\" \\ a\\b;c"));
        assert_eq!(e.operands("noop"), Some(&[][..]));
        assert_eq!(e.text("noop"), None);
        assert_eq!(e.text("id"), Some("x"), "the first operation of a name");
        assert_eq!(e.operations.len(), 5, "the last ';' may be missing");
        let e = epd("8/8/8/8/8/8/8/8 w - - pv e4 \"\" e5;bm \"x\"");
        assert_eq!(e.operands("pv"), Some(&strings(&["e4", "", "e5"])[..]));
        assert_eq!(e.text("bm"), Some("x"));
        assert!(epd("8/8/8/8/8/8/8/8 w - -").operations.is_empty());
    }

    #[test]
    fn clocks_come_from_hmvc_and_fmvn() {
        let e =
            epd("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 hmvc 0; fmvn 1; hmvc 7");
        assert_eq!(e.position.en_passant, Some(Square::new(4, 2)));
        assert_eq!((e.position.halfmove, e.position.fullmove), (0, 1));
        let e = epd("8/8/8/8/8/8/8/8 w - - fmvn 42; hmvc 17;");
        assert_eq!((e.position.halfmove, e.position.fullmove), (17, 42));
        assert_eq!(e.position.to_string(), "8/8/8/8/8/8/8/8 w - - 17 42");
        let e = epd("8/8/8/8/8/8/8/8 w - - id \"no clocks\";");
        assert_eq!((e.position.halfmove, e.position.fullmove), (0, 1));
    }

    #[test]
    fn ten_file_boards_and_x_fen_castling() {
        let e =
            epd("rnabqkbcnr/pppppppppp/10/10/4P5/10/PPPP1PPPPP/RNABQKBCNR b KQkq e3 id \"capa\";");
        assert_eq!(e.position.files(), 10);
        assert_eq!(e.position.castling, "KQkq");
        assert_eq!(e.position.en_passant, Some(Square::new(4, 2)));
        assert_eq!(e.text("id"), Some("capa"));
        let e = epd("r3k2r/8/8/8/8/8/8/R3K2R w HAha - bm O-O;");
        assert_eq!(e.position.castling, "AHah");
    }

    #[test]
    fn blank_lines_and_comments_are_skipped() {
        for line in ["", "   \t\r\n", "# a comment", "  # indented comment"] {
            assert_eq!(parse_line(line), Ok(None), "{line:?}");
        }
    }

    #[test]
    fn errors_name_the_bad_text() {
        assert_eq!(
            error("8/8/8/8/8/8/8/8 w -"),
            "the EPD \"8/8/8/8/8/8/8/8 w -\" has 3 fields, expected 4 FEN fields (placement, side to move, castling, en passant) before the operations"
        );
        assert!(error("start").contains("has 1 field,"));
        assert_eq!(
            error("8/8/8/8/8/8/8/8 x - - id \"a\";"),
            "the position \"8/8/8/8/8/8/8/8 x - -\" is not a valid FEN: side to move \"x\", expected \"w\" or \"b\""
        );
        assert_eq!(
            error("8/8/8/8/8/8/8 w - - id \"a\";"),
            "the position \"8/8/8/8/8/8/8 w - -\" is not a valid FEN: placement has 7 ranks, expected 8 ranks separated by \"/\" (a board that is neither square nor 8 ranks tall needs its size: board=8x7)"
        );
        assert_eq!(
            error("8/8/8/8/8/8/8/8 w - - id \"open; c0 x;"),
            "the quoted operand \"open; c0 x;\" of id has no closing '\"'"
        );
        assert_eq!(
            error("8/8/8/8/8/8/8/8 w - - c0 \"ends in a backslash\\\""),
            "the quoted operand \"ends in a backslash\\\"\" of c0 has no closing '\"'"
        );
        assert_eq!(
            error("8/8/8/8/8/8/8/8 w - - 1bm e4;"),
            "the opcode \"1bm\" is not valid, expected 1 to 15 letters, digits or \"_\", starting with a letter"
        );
        assert!(
            error("8/8/8/8/8/8/8/8 w - - abcdefghijklmnop x;").contains("\"abcdefghijklmnop\"")
        );
        assert!(error("8/8/8/8/8/8/8/8 w - - \"id\" x;").contains("opcode \"\"id\"\""));
        assert!(error("8/8/8/8/8/8/8/8 w - - bm\"x\";").contains("opcode \"bm\"x\"\""));
        assert_eq!(
            error("8/8/8/8/8/8/8/8 w - - id x;; bm e4"),
            "expected an opcode before the \";\" in \"; bm e4\""
        );
        assert_eq!(
            error("8/8/8/8/8/8/8/8 w - - hmvc x;"),
            "hmvc needs one whole number up to 4294967295 as its operand, not \"x\""
        );
        assert!(error("8/8/8/8/8/8/8/8 w - - fmvn;").ends_with("not \"\""));
        assert!(error("8/8/8/8/8/8/8/8 w - - fmvn 4294967296;").contains("fmvn needs"));
        // Opcodes of 15 characters, digits and `_` are fine.
        let long = epd("8/8/8/8/8/8/8/8 w - - a_2345678901234 x;");
        assert_eq!(long.text("a_2345678901234"), Some("x"));
    }

    proptest! {
        #[test]
        fn never_panics_on_any_line(line in "\\PC{0,80}") {
            let _ = parse_line(&line);
        }

        #[test]
        fn never_panics_on_epd_like_lines(
            ops in "[a-z0-9_ ;\"\\\\é\t]{0,60}",
        ) {
            let line = format!("8/8/8/8/8/8/8/8 w - - {ops}");
            if let Ok(Some(e)) = parse_line(&line) {
                prop_assert_eq!(e.fen.as_str(), "8/8/8/8/8/8/8/8 w - -");
                for (opcode, _) in &e.operations {
                    prop_assert!(valid_opcode(opcode));
                }
            }
        }
    }
}
