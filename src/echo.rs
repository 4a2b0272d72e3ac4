//! User text made safe to repeat in an error message: quoted, shortened, printable.

use std::fmt;

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
