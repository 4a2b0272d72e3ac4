//! Conversion: the end of a composition ([`convert`]). The marked cells' tiles are
//! converted by colour and the dirty runs pixel by pixel, against the context's palette,
//! extended for this render when new colours appear; `false` sends the caller back to the
//! full-colour path.

use super::compose::{Extra, MAX_EXTRA, Scratch};
use super::context::{Context, Entries};
use crate::render::paint::palette::ColorMap;

/// Finish the last [`compose`](super::compose::compose): convert the marked cells' tiles by colour, and the dirty
/// runs from `rgba` (the same diagram painted in premultiplied RGBA there; not read when
/// there are none) pixel by pixel, into indices. `false` when a pixel is translucent
/// or the colours need more than 256 entries.
///
/// Colours the context knows keep their entries. The others, most frequent first, take an
/// entry within tolerance among those in use, or join a box of colours at most
/// `2 × tolerance` wide per channel (drawn by its centre, as `encode`'s second try does),
/// or open a box in an entry nothing in this diagram uses.
pub fn convert(context: &Context, rgba: &[u8], scratch: &mut Scratch) -> bool {
    if scratch.spans.is_empty() && scratch.placed.is_empty() {
        return true;
    }
    scratch.unknown.reset(1024);
    scratch.extra.clear();
    scratch.codes.clear();
    scratch.cell_codes.clear();
    if !code_colours(context, rgba, scratch) {
        return false;
    }
    if !scratch.extra.is_empty() && !open_entries(context, scratch) {
        return false;
    }
    write_indices(context, scratch);
    true
}

/// Pass one of [`convert`]'s colours: each colour's code, its entry if the context knows
/// it, else 256 + its number among the unknown ones.
struct Coder<'a> {
    context: &'a Context,
    used: &'a mut Entries,
    unknown: &'a mut ColorMap,
    extra: &'a mut Vec<Extra>,
}

impl Coder<'_> {
    /// The code of `colour`, counting `run` pixels of it; `None` when it is translucent or
    /// there are too many unknown colours.
    fn code(&mut self, colour: u32, run: u32) -> Option<u16> {
        if colour >> 24 != 255 {
            return None;
        }
        if let Some(i) = self.context.entry(colour) {
            self.used.insert(i);
            return Some(u16::from(i));
        }
        if let Some(n) = self.unknown.get(colour) {
            self.extra[usize::from(n)].count += run;
            return Some(256 + n);
        }
        let n = self.extra.len() as u16;
        if self.extra.len() >= MAX_EXTRA || !self.unknown.insert(colour, n) {
            return None;
        }
        self.extra.push(Extra {
            colour,
            count: run,
            entry: 0,
        });
        Some(256 + n)
    }
}

/// Pass one: the codes of the marked cells' colours, then of the dirty pixels, run by run.
fn code_colours(context: &Context, rgba: &[u8], scratch: &mut Scratch) -> bool {
    let width = context.width;
    let Scratch {
        spans,
        placed,
        cell_codes,
        used,
        unknown,
        extra,
        codes,
        ..
    } = scratch;
    let mut coder = Coder {
        context,
        used,
        unknown,
        extra,
    };
    for (tile, _, _) in placed.iter() {
        for &(colour, count) in &tile.colours {
            let Some(code) = coder.code(colour, count) else {
                return false;
            };
            cell_codes.push(code);
        }
    }
    for run in spans.iter() {
        let (y, x0, x1) = (run.y as usize, run.x0 as usize, run.x1 as usize);
        let row = &rgba[(y * width + x0) * 4..(y * width + x1) * 4];
        let mut pixels = row
            .chunks_exact(4)
            .map(|p| u32::from_le_bytes([p[0], p[1], p[2], p[3]]));
        let (mut last, mut run) = (0u32, 0u32);
        loop {
            let next = pixels.next();
            if next == Some(last) {
                run += 1;
                continue;
            }
            if run > 0 {
                let Some(code) = coder.code(last, run) else {
                    return false;
                };
                codes.extend(std::iter::repeat_n(code, run as usize));
            }
            match next {
                Some(c) => (last, run) = (c, 1),
                None => break,
            }
        }
    }
    true
}

/// Entries for the colours the context lacks, most frequent first: in a box of an entry
/// in use, or in a new box in a free entry, whose colour the palette then gets. `false`
/// when there are no free entries left.
fn open_entries(context: &Context, scratch: &mut Scratch) -> bool {
    let Scratch {
        palette,
        used,
        extra,
        order,
        boxes,
        ..
    } = scratch;
    order.clear();
    order.extend(0..extra.len() as u16);
    order.sort_unstable_by(|&a, &b| {
        let (a, b) = (&extra[usize::from(a)], &extra[usize::from(b)]);
        b.count.cmp(&a.count).then(a.colour.cmp(&b.colour))
    });
    boxes.clear();
    for i in 0..context.boxes.len {
        if used.contains(i as u8) {
            let (lo, hi) = context.boxes.bounds(i);
            boxes.push(lo, hi, context.boxes.exact[i], i as u8);
        }
    }
    let mut free = (0..=255u8).filter(|&i| !used.contains(i));
    for &n in order.iter() {
        let e = &mut extra[usize::from(n)];
        let [r, g, b, _] = e.colour.to_le_bytes();
        e.entry = match boxes.join([r, g, b]) {
            Some(i) => i,
            None => match free.next() {
                Some(i) => {
                    boxes.push([r, g, b], [r, g, b], false, i);
                    boxes.grown[boxes.len - 1] = true;
                    i
                }
                None => return false,
            },
        };
    }
    for j in (0..boxes.len).filter(|&j| boxes.grown[j]) {
        let at = usize::from(boxes.entries[j]) * 3;
        if palette.len() < at + 3 {
            palette.resize(at + 3, 0);
        }
        palette[at..at + 3].copy_from_slice(&boxes.colour(j));
    }
    true
}

/// Pass two: the marked cells' and the dirty pixels' indices, from their codes.
fn write_indices(context: &Context, scratch: &mut Scratch) {
    let width = context.width;
    let Scratch {
        indices,
        spans,
        placed,
        cell_codes,
        extra,
        codes,
        lut,
        ..
    } = scratch;
    let mut entry_of = [0u8; 256 + MAX_EXTRA];
    for (i, e) in entry_of.iter_mut().enumerate().take(256) {
        *e = i as u8;
    }
    for (e, x) in entry_of[256..].iter_mut().zip(extra.iter()) {
        *e = x.entry;
    }
    // The marked cells, through a table from their colours to entries.
    let (square, mut at) = (context.square as usize, 0);
    for (tile, x, y) in placed.iter() {
        let n = tile.colours.len();
        lut.clear();
        lut.extend(
            cell_codes[at..at + n]
                .iter()
                .map(|&c| entry_of[usize::from(c)]),
        );
        at += n;
        for (row, src) in tile.local.chunks_exact(square).enumerate() {
            let out = &mut indices[(y + row) * width + x..][..square];
            for (o, &l) in out.iter_mut().zip(src) {
                *o = lut[usize::from(l)];
            }
        }
    }
    // The dirty pixels (over the cells: arrows are drawn over marks), from their codes.
    let mut codes = codes.iter();
    for run in spans.iter() {
        let (y, x0, x1) = (run.y as usize, run.x0 as usize, run.x1 as usize);
        let out = &mut indices[y * width + x0..y * width + x1];
        for (o, &code) in out.iter_mut().zip(codes.by_ref()) {
            *o = entry_of[usize::from(code)];
        }
    }
}
