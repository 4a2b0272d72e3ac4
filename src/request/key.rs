//! Cache keys: one encoder for every route, so that no two requests share a key unless
//! they share every output byte.
//!
//! A key is the renderer's version, the kind of answer, then fields, each written as its
//! length in bytes, `:`, and the text: `0.1.0|diagram|3:png|56:rnbqkbnr/…`. A field may hold
//! any text, separators included (a player called `a|b`, a caption with `|`), and still
//! cannot run into the next one: the length says where it ends.
//!
//! A position is written as its FEN and, when it holds figures, what each figure is
//! ([`KeyWriter::position`]): a FEN letter alone can name two things (`C` is a chancellor
//! in standard FEN and a circle in Fairy FEN, `x` a letter piece or a cross), so the
//! dialect a FEN was read in reaches the key through what it read.

use crate::chess::position::Position;
use std::fmt::{Display, Write as _};

/// A cache key being written (see the module's documentation).
#[derive(Debug, Clone)]
pub struct KeyWriter {
    key: String,
    scratch: String,
}

impl KeyWriter {
    /// A key for answers of `kind` (`diagram`, `game`, `sheet`, …).
    pub fn new(kind: &str) -> KeyWriter {
        let mut key = String::with_capacity(160);
        key.push_str(env!("CARGO_PKG_VERSION"));
        key.push('|');
        key.push_str(kind);
        KeyWriter {
            key,
            scratch: String::new(),
        }
    }

    /// Add `value` as the next field.
    pub fn field(&mut self, value: impl Display) -> &mut KeyWriter {
        self.scratch.clear();
        // Writing into a String cannot fail.
        let _ = write!(self.scratch, "{value}");
        let _ = write!(self.key, "|{}:{}", self.scratch.len(), self.scratch);
        self
    }

    /// Add an optional field: absent and present-but-empty are different keys.
    pub fn optional(&mut self, value: Option<impl Display>) -> &mut KeyWriter {
        match value {
            None => {
                self.key.push_str("|-");
                self
            }
            Some(v) => self.field(v),
        }
    }

    /// Add `position`: its FEN, then, only when it holds figures (Fairy FEN, letter
    /// pieces), their number and each one's square, shape, side and turn, which its FEN
    /// letters do not always tell apart. Keys of orthodox positions are their FEN alone.
    pub fn position(&mut self, position: &Position) -> &mut KeyWriter {
        self.field(position);
        if position.has_figures() {
            self.field("figures").field(position.figures().count());
            for (square, f) in position.figures() {
                self.field(format_args!(
                    "{square}{:?}{:?}{:?}",
                    f.shape, f.side, f.turn
                ));
            }
        }
        self
    }

    /// The key; when a character of it is drawn only by a system font (see
    /// `render::use_system_fonts`), a last field names which faces drew it.
    pub fn finish(&mut self) -> String {
        if let Some(faces) = crate::render::art::font::system_fonts_used(&self.key) {
            self.field(format_args!("system fonts {faces:016x}"));
        }
        self.finish_undrawn()
    }

    /// The key of an answer that draws no text (`/game.json`): no font is asked about it.
    pub fn finish_undrawn(&mut self) -> String {
        std::mem::take(&mut self.key)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fields_with_separators_cannot_run_together() {
        let key = |a: &str, b: &str| KeyWriter::new("t").field(a).field(b).finish();
        assert_ne!(key("a|b", "c"), key("a", "b|c"));
        assert_ne!(key("1:a", ""), key("1", ":a"));
        assert_ne!(key("", "3:abc"), key("3:abc", ""));
        assert_eq!(key("a|b", "c"), key("a|b", "c"));
        let optional = |v: Option<&str>| KeyWriter::new("t").optional(v).finish();
        assert_ne!(optional(None), optional(Some("")));
        assert_ne!(optional(None), optional(Some("-")));
    }

    #[test]
    fn one_fen_read_in_two_dialects_gives_two_keys() {
        use crate::chess::fen::{Dialect, parse_board};
        let key = |fen: &str, dialect| {
            let position = parse_board(fen, dialect, None).expect("valid");
            KeyWriter::new("t").position(&position).finish()
        };
        let fen = "8/8/8/3C4/8/8/8/8";
        assert_ne!(key(fen, Dialect::Standard), key(fen, Dialect::Fairy));
        assert_ne!(key("8/8/8/3x4/8/8/8/8", Dialect::Letters), key("8/8/8/3x4/8/8/8/8", Dialect::Fairy));
        assert_eq!(key("start", Dialect::Standard), key("start", Dialect::Fairy));
        let orthodox = parse_board("start", Dialect::Standard, None).expect("valid");
        assert_eq!(
            KeyWriter::new("t").position(&orthodox).finish(),
            KeyWriter::new("t").field(&orthodox).finish(),
            "an orthodox position keeps the key it had"
        );
    }
}
