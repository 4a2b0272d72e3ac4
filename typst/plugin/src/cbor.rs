//! The one shape of CBOR (RFC 8949) the plugin reads: an array of `[name, value]` arrays
//! of text strings, definite lengths, as Typst's `cbor.encode` writes an array of pairs of
//! strings. Anything else is `None`. (typst/test/check.py calls the plugin with each
//! shape it must refuse.)

/// The pairs of `bytes`, or `None` when they are not exactly that shape.
pub fn pairs(bytes: &[u8]) -> Option<Vec<(String, String)>> {
    let mut reader = Reader { bytes, at: 0 };
    let count = reader.head(4)?;
    let mut out = Vec::with_capacity(count.min(64));
    for _ in 0..count {
        if reader.head(4)? != 2 {
            return None;
        }
        let name = reader.text()?;
        let value = reader.text()?;
        out.push((name, value));
    }
    (reader.at == bytes.len()).then_some(out)
}

struct Reader<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl Reader<'_> {
    /// The argument of an item of major type `major` (an array's or a text's length).
    fn head(&mut self, major: u8) -> Option<usize> {
        let first = *self.bytes.get(self.at)?;
        self.at += 1;
        if first >> 5 != major {
            return None;
        }
        let width = match first & 0x1f {
            n @ 0..=23 => return Some(usize::from(n)),
            24 => 1,
            25 => 2,
            26 => 4,
            27 => 8,
            _ => return None, // indefinite lengths and reserved values
        };
        let field = self.bytes.get(self.at..self.at + width)?;
        self.at += width;
        let value = field.iter().fold(0u64, |n, b| n << 8 | u64::from(*b));
        usize::try_from(value)
            .ok()
            .filter(|n| *n <= self.bytes.len())
    }

    /// A text string.
    fn text(&mut self) -> Option<String> {
        let len = self.head(3)?;
        let field = self.bytes.get(self.at..self.at.checked_add(len)?)?;
        self.at += len;
        String::from_utf8(field.to_vec()).ok()
    }
}
