//! Which face draws each character of free text, worked out once for every character the
//! faces have (the merged map): DejaVu and the fonts added with `--fonts` first, then the
//! system's installed faces, nearest in weight, then first in their folders' order.
//!
//! Owns the map only. Asking it is one array read for a character of the Basic
//! Multilingual Plane and a binary search above it, with no lock and nothing remembered:
//! its cost does not grow with use, and it is what prices text and names the faces in a
//! cache key. The faces themselves are `font_held.rs`'s; the scan is `font_system.rs`'s.

/// Where a character is drawn from, in book or bold text.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Source {
    /// No face has it (drawn as DejaVu's `?`).
    None,
    /// DejaVu, or a font added with `--fonts`.
    Fixed,
    /// The system face of this index (in the scan's order).
    System(u16),
}

/// One weight's code: 0 none, 1 fixed, 2 + i system face `i`.
type Code = u16;

const NONE: Code = 0;
const FIXED: Code = 1;

fn source(code: Code) -> Source {
    match code {
        NONE => Source::None,
        FIXED => Source::Fixed,
        i => Source::System(i - 2),
    }
}

/// A face whose characters the map takes in: its characters (sorted) and weight.
pub(crate) struct Covered<'a> {
    /// The characters it maps to a glyph.
    pub characters: &'a [u32],
    /// Its OS/2 weight.
    pub weight: u16,
}

/// The merged map: for each character, the face that draws it in book and in bold text.
pub(crate) struct Coverage {
    /// U+0000–U+FFFF, [book, bold] each.
    bmp: Box<[[Code; 2]]>,
    /// Above: runs of characters with one answer, (first, last, [book, bold]), sorted.
    astral: Vec<(u32, u32, [Code; 2])>,
}

impl Coverage {
    /// The map of `fixed` (the book and bold faces' characters that DejaVu and the added
    /// fonts draw) and `system` (the installed faces in their order).
    pub fn build(fixed: [&[u32]; 2], system: &[Covered]) -> Coverage {
        let mut bmp = vec![[NONE; 2]; 0x1_0000].into_boxed_slice();
        let mut astral: std::collections::BTreeMap<u32, [Code; 2]> = Default::default();
        for (w, characters) in fixed.iter().enumerate() {
            for &c in characters.iter() {
                slot(&mut bmp, &mut astral, c)[w] = FIXED;
            }
        }
        for (i, face) in system.iter().enumerate().take(usize::from(u16::MAX - 2)) {
            let code = i as Code + 2;
            for &c in face.characters {
                let slots = slot(&mut bmp, &mut astral, c);
                for (w, target) in [400u16, 700].into_iter().enumerate() {
                    let better = match slots[w] {
                        NONE => true,
                        FIXED => false,
                        held => {
                            let weight = system[usize::from(held - 2)].weight;
                            face.weight.abs_diff(target) < weight.abs_diff(target)
                        }
                    };
                    if better {
                        slots[w] = code;
                    }
                }
            }
        }
        let mut runs: Vec<(u32, u32, [Code; 2])> = Vec::new();
        for (c, codes) in astral {
            match runs.last_mut() {
                Some((_, last, held)) if *last + 1 == c && *held == codes => *last = c,
                _ => runs.push((c, c, codes)),
            }
        }
        Coverage { bmp, astral: runs }
    }

    /// Where `c` is drawn from in book (`bold` false) or bold text.
    pub fn get(&self, c: char, bold: bool) -> Source {
        let c = u32::from(c);
        let codes = match self.bmp.get(c as usize) {
            Some(codes) => *codes,
            None => {
                let at = self.astral.partition_point(|run| run.1 < c);
                match self.astral.get(at) {
                    Some(&(first, _, codes)) if first <= c => codes,
                    _ => [NONE; 2],
                }
            }
        };
        source(codes[usize::from(bold)])
    }
}

/// The [book, bold] codes of `c`, in the array or the map above it.
fn slot<'a>(
    bmp: &'a mut [[Code; 2]],
    astral: &'a mut std::collections::BTreeMap<u32, [Code; 2]>,
    c: u32,
) -> &'a mut [Code; 2] {
    match bmp.get_mut(c as usize) {
        Some(codes) => codes,
        None => astral.entry(c).or_insert([NONE; 2]),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fixed_faces_come_first_then_the_nearest_weight_then_the_first() {
        let light = [0x3042, 0x3044, 0x2_0000, 0x2_0001, 0x2_0003];
        let bold = [0x3042, 0x2_0001];
        let regular = [0x3042, 0x3044, 0x3046, 0x2_0001];
        let system = [
            Covered { characters: &light, weight: 300 },
            Covered { characters: &bold, weight: 700 },
            Covered { characters: &regular, weight: 400 },
        ];
        let map = Coverage::build([&[0x41, 0x3044], &[0x41]], &system);
        let at = |c: u32, b| map.get(char::from_u32(c).unwrap(), b);
        assert_eq!(at(0x41, false), Source::Fixed);
        assert_eq!(at(0x41, true), Source::Fixed);
        assert_eq!(at(0x42, false), Source::None);
        // The book face draws あ in book text, the bold one in bold text.
        assert_eq!(at(0x3042, false), Source::System(2));
        assert_eq!(at(0x3042, true), Source::System(1));
        // い: the book face of the fixed ones has it, the bold one not; in bold text the
        // regular face draws it (400 is nearer 700 than the light face's 300).
        assert_eq!(at(0x3044, false), Source::Fixed);
        assert_eq!(at(0x3044, true), Source::System(2));
        assert_eq!(at(0x3046, false), Source::System(2));
        // Above the BMP: runs, found by search.
        assert_eq!(at(0x2_0000, false), Source::System(0));
        assert_eq!(at(0x2_0001, false), Source::System(2));
        assert_eq!(at(0x2_0001, true), Source::System(1));
        assert_eq!(at(0x2_0002, false), Source::None);
        assert_eq!(at(0x2_0003, true), Source::System(0));
        assert_eq!(at(0x10_FFFF, true), Source::None);
        // Two faces of one weight: the first in order keeps the character.
        let twice = [Covered { characters: &[0x5000], weight: 400 }, Covered { characters: &[0x5000], weight: 400 }];
        let map = Coverage::build([&[], &[]], &twice);
        assert_eq!(map.get('\u{5000}', false), Source::System(0));
    }
}
