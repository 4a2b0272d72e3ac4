//! Encoding pixels: a tiny-skia pixmap into PNG bytes.
//!
//! The last stage, the drawn image written as a file. This file is the PNG encoder (the
//! format the pipeline is built for); beside it, `deflate` (its compressor), `convert`
//! (the other formats: PDF from the SVG, WebP and GIF from the indexed pixels) and `lzw`
//! (GIF's compressor). Reads `ground` and `paint`'s palette (the entries the indexed
//! composer made), nothing of the layouts.
//!
//! Owns the PNG settings. Diagrams have few colours (flat squares, a few hundred
//! anti-aliasing shades), so an opaque image is written as an 8-bit palette PNG whenever a
//! palette of at most 256 colours reproduces every pixel within [`PALETTE_TOLERANCE`] per
//! channel: exact when the image has 256 colours or fewer, and visually lossless otherwise.
//! That is a third of the bytes to filter and deflate of RGB. Images that do not fit fall
//! back to 8-bit RGB (RGBA when translucent). Deflate uses the fast settings.

use resvg::tiny_skia::{Pixmap, PremultipliedColorU8};

internal_mod!(convert, deflate, lzw);

pub use crate::render::paint::palette::PALETTE_TOLERANCE;
use crate::render::paint::palette::{ColorMap, boxed};

/// More distinct colours than this and the image is written as RGB: no palette is tried.
const MAX_DISTINCT: usize = 32_768;

/// Buffers an encode needs, kept between encodes (one per thread in the service) so that a
/// render allocates little beyond the PNG it returns.
#[derive(Default)]
pub struct Scratch {
    colors: Option<Colors>,
    runs: Vec<(u16, u32)>,
    indices: Vec<u8>,
    raw: Vec<u8>,
    filtered: Vec<u8>,
    deflated: Vec<u8>,
    deflater: crate::render::encode::deflate::Deflater,
}

impl std::fmt::Debug for Scratch {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Scratch")
            .field("bytes", &self.capacity())
            .finish()
    }
}

impl Scratch {
    /// Bytes held.
    pub fn capacity(&self) -> usize {
        self.runs.capacity() * 8
            + self.indices.capacity()
            + self.raw.capacity()
            + self.filtered.capacity()
            + self.deflated.capacity()
            + self.deflater.capacity()
            + self.colors.as_ref().map_or(0, |c| c.map.slots.len() * 8)
    }
}

/// Encode `pixmap` as PNG.
pub fn png(pixmap: &Pixmap) -> Vec<u8> {
    png_with(
        pixmap.data(),
        pixmap.width(),
        pixmap.height(),
        &mut Scratch::default(),
    )
}

/// Encode premultiplied RGBA `data` of `w` × `h` pixels as PNG, using `scratch`'s buffers.
/// The only allocation that grows with the image is the returned PNG, sized exactly.
pub fn png_with(data: &[u8], w: u32, h: u32, scratch: &mut Scratch) -> Vec<u8> {
    // Without an early exit, so the check vectorises.
    let opaque = data.chunks_exact(4).fold(255, |alpha, px| alpha & px[3]) == 255;
    if opaque {
        if let Some(palette) = palettise(data, w as usize, scratch) {
            let indices = std::mem::take(&mut scratch.indices);
            let out = write(w, h, COLOR_INDEXED, 1, Some(&palette), &indices, scratch);
            scratch.indices = indices;
            return out;
        }
        let mut rgb = std::mem::take(&mut scratch.raw);
        rgb.clear();
        for px in data.chunks_exact(4) {
            rgb.extend_from_slice(&px[..3]);
        }
        let out = write(w, h, COLOR_RGB, 3, None, &rgb, scratch);
        scratch.raw = rgb;
        return out;
    }
    let mut rgba = std::mem::take(&mut scratch.raw);
    rgba.clear();
    for px in data.chunks_exact(4) {
        match PremultipliedColorU8::from_rgba(px[0], px[1], px[2], px[3]) {
            Some(c) => {
                let c = c.demultiply();
                rgba.extend_from_slice(&[c.red(), c.green(), c.blue(), c.alpha()]);
            }
            None => rgba.extend_from_slice(&[0, 0, 0, 0]),
        }
    }
    let out = write(w, h, COLOR_RGBA, 4, None, &rgba, scratch);
    scratch.raw = rgba;
    out
}

/// The straight RGBA pixels that [`png_with`] of premultiplied `data` (`w` pixels a row)
/// decodes to, into `out`: its palette's colours when it palettises (within
/// [`PALETTE_TOLERANCE`]), else `data` itself (opaque) or demultiplied.
pub fn rgba_of(data: &[u8], w: u32, scratch: &mut Scratch, out: &mut Vec<u8>) {
    out.clear();
    let opaque = data.chunks_exact(4).fold(255, |alpha, px| alpha & px[3]) == 255;
    if opaque {
        match palettise(data, w as usize, scratch) {
            Some(palette) => rgba_of_indexed(&scratch.indices, &palette, out),
            None => out.extend_from_slice(data),
        }
        return;
    }
    out.extend(data.chunks_exact(4).flat_map(|px| {
        match PremultipliedColorU8::from_rgba(px[0], px[1], px[2], px[3]) {
            Some(c) => {
                let c = c.demultiply();
                [c.red(), c.green(), c.blue(), c.alpha()]
            }
            None => [0, 0, 0, 0],
        }
    }));
}

/// Palette `indices` with `palette` (RGB triplets) as opaque straight RGBA, into `out`:
/// what [`indexed_png`] of them decodes to.
pub fn rgba_of_indexed(indices: &[u8], palette: &[u8], out: &mut Vec<u8>) {
    out.clear();
    out.reserve(indices.len() * 4);
    out.extend(indices.iter().flat_map(|&i| {
        let at = usize::from(i) * 3;
        match palette.get(at..at + 3) {
            Some(rgb) => [rgb[0], rgb[1], rgb[2], 255],
            // Not written by our encoders; a decoder would refuse it.
            None => [0, 0, 0, 255],
        }
    }));
}

/// Premultiplied, opaque RGBA `data` of `w` pixels a row as palette indices into `out`: as
/// [`png_with`] would palettise it, or, past 32,768 colours, on a fixed palette of
/// 256 colours (3 bits of red and green, 2 of blue).
pub fn indexed_of(data: &[u8], w: u32, scratch: &mut Scratch, out: &mut crate::render::ground::Indexed) {
    out.indices.clear();
    out.palette.clear();
    if let Some(palette) = palettise(data, w as usize, scratch) {
        out.indices.extend_from_slice(&scratch.indices);
        out.palette = palette;
        return;
    }
    out.indices.extend(
        data.chunks_exact(4)
            .map(|px| (px[0] & 0xe0) | ((px[1] & 0xe0) >> 3) | (px[2] >> 6)),
    );
    out.palette.extend((0..=255u8).flat_map(|i| {
        let spread = |bits: u8, levels: u8| (u16::from(bits) * 255 / u16::from(levels)) as u8;
        [spread(i >> 5, 7), spread((i >> 2) & 7, 7), spread(i & 3, 3)]
    }));
}

/// `png` made as small as a real search can: oxipng's preset 6 tries every filter and
/// colour type, compressing with libdeflate at its highest level. For files written once
/// and read many times (`staunton render --optimize`): on the golden cases it saves 43 % of
/// the bytes and takes about 400 times as long as rendering and encoding (zopfli saved 1.4
/// points more, sixteen times slower still: not worth it; the book's Print and other formats, "The smallest PNG").
/// Not on wasm32: libdeflate is C.
#[cfg(not(target_arch = "wasm32"))]
#[cfg_attr(not(feature = "cli"), allow(dead_code))]
pub fn optimize(png: &[u8]) -> Result<Vec<u8>, crate::render::ground::RenderError> {
    let mut options = oxipng::Options::from_preset(6);
    options.strip = oxipng::StripChunks::Safe;
    oxipng::optimize_from_memory(png, &options).map_err(|e| {
        crate::render::ground::RenderError::Encode(format!("the PNG could not be optimised: {e}"))
    })
}

/// Encode `indices` (`w` × `h` palette indices) with `palette` (RGB triplets) as an 8-bit
/// palette PNG, using `scratch`'s buffers.
pub fn indexed_png(
    indices: &[u8],
    palette: &[u8],
    w: u32,
    h: u32,
    scratch: &mut Scratch,
) -> Vec<u8> {
    write(w, h, COLOR_INDEXED, 1, Some(palette), indices, scratch)
}

const COLOR_RGB: u8 = 2;
const COLOR_INDEXED: u8 = 3;
const COLOR_RGBA: u8 = 6;

/// One PNG chunk: length, type, data, CRC.
pub(crate) fn chunk(out: &mut Vec<u8>, kind: &[u8; 4], data: &[u8]) {
    out.extend_from_slice(&(data.len() as u32).to_be_bytes());
    out.extend_from_slice(kind);
    out.extend_from_slice(data);
    let mut crc = crc32fast::Hasher::new();
    crc.update(kind);
    crc.update(data);
    out.extend_from_slice(&crc.finalize().to_be_bytes());
}

/// Write the PNG: every row with the Up filter (measured on diagrams: it deflates in half
/// the time of adaptive filtering, for about 15 % more bytes), deflated by
/// [`crate::render::encode::deflate`] (runs and a Huffman code fitted to each block) into `scratch`, then
/// copied into an output of exactly the PNG's size.
fn write(
    w: u32,
    h: u32,
    color: u8,
    bytes_per_pixel: usize,
    palette: Option<&[u8]>,
    pixels: &[u8],
    scratch: &mut Scratch,
) -> Vec<u8> {
    let stride = (w as usize * bytes_per_pixel).max(1);
    zlib_rows(pixels, stride, scratch);
    let deflated = &scratch.deflated;

    let mut ihdr = [0u8; 13];
    ihdr[..4].copy_from_slice(&w.to_be_bytes());
    ihdr[4..8].copy_from_slice(&h.to_be_bytes());
    ihdr[8] = 8; // bits per sample
    ihdr[9] = color;
    let size = 8 + (12 + 13) + palette.map_or(0, |p| 12 + p.len()) + (12 + deflated.len()) + 12;
    let mut out = Vec::with_capacity(size);
    out.extend_from_slice(b"\x89PNG\r\n\x1a\n");
    chunk(&mut out, b"IHDR", &ihdr);
    if let Some(palette) = palette {
        chunk(&mut out, b"PLTE", palette);
    }
    chunk(&mut out, b"IDAT", deflated);
    chunk(&mut out, b"IEND", &[]);
    debug_assert_eq!(out.len(), size);
    out
}

/// Filter `pixels` (rows of `stride` bytes) with PNG's Up filter and compress them as a
/// zlib stream into `scratch.deflated`, which it returns: an image's IDAT (or an
/// animation frame's fdAT) data.
pub(crate) fn zlib_rows<'a>(pixels: &[u8], stride: usize, scratch: &'a mut Scratch) -> &'a [u8] {
    let filtered = &mut scratch.filtered;
    filtered.clear();
    // Appended row by row, not zeroed first and then overwritten: one pass over the bytes.
    filtered.reserve(pixels.len() + pixels.len() / stride);
    let mut previous: &[u8] = &[];
    for row in pixels.chunks_exact(stride) {
        filtered.push(2);
        if previous.is_empty() {
            filtered.extend_from_slice(row);
        } else {
            filtered.extend(row.iter().zip(previous).map(|(a, b)| a.wrapping_sub(*b)));
        }
        previous = row;
    }
    let deflated = &mut scratch.deflated;
    deflated.clear();
    scratch.deflater.zlib(filtered, deflated);
    deflated
}

/// A pixel of an opaque image as one number (its bytes as they lie, alpha included).
fn key(px: &[u8]) -> u32 {
    u32::from_le_bytes([px[0], px[1], px[2], px[3]])
}

/// Distinct colours of an image, numbered in order of appearance.
struct Colors {
    map: ColorMap,
    colors: Vec<u32>,
    counts: Vec<u32>,
}

impl Colors {
    /// Slots of the table: at most half full, it holds [`MAX_DISTINCT`] colours.
    const SLOTS: usize = 2 * MAX_DISTINCT;

    fn clear(&mut self) {
        self.map.reset(Self::SLOTS);
        self.colors.clear();
        self.counts.clear();
    }

    fn new() -> Colors {
        let mut map = ColorMap::default();
        map.reset(Self::SLOTS);
        Colors {
            map,
            colors: Vec::with_capacity(512),
            counts: Vec::with_capacity(512),
        }
    }

    /// The number of `color`, adding it if new; `None` once there are too many colours.
    fn id(&mut self, color: u32) -> Option<u16> {
        if let Some(id) = self.map.get(color) {
            return Some(id);
        }
        let id = self.colors.len() as u16;
        if !self.map.insert(color, id) {
            return None;
        }
        self.colors.push(color);
        self.counts.push(0);
        Some(id)
    }
}

/// Colours covering at least this share of the pixels (1/`PINNED_SHARE`) keep an entry of
/// their own, exactly: the squares, the margin, the pieces' bodies.
const PINNED_SHARE: u64 = 200;

/// The nearest of a list of colours (squared distance), searched outward from the entries
/// of the closest red: most colours look at a few entries, not all.
struct Nearest<'a> {
    entries: &'a [[i32; 3]],
    /// Entry numbers by red, and their reds.
    by_red: Vec<(i32, usize)>,
}

impl<'a> Nearest<'a> {
    fn new(entries: &'a [[i32; 3]]) -> Self {
        let mut by_red: Vec<(i32, usize)> = entries.iter().map(|e| e[0]).zip(0..).collect();
        by_red.sort_unstable();
        Nearest { entries, by_red }
    }

    fn of(&self, c: [i32; 3]) -> usize {
        let d = |e: &[i32; 3]| (0..3).map(|k| (e[k] - c[k]).pow(2)).sum::<i32>();
        let start = self.by_red.partition_point(|&(r, _)| r < c[0]);
        let (mut best, mut best_d) = (0, i32::MAX);
        let (mut down, mut up) = (start, start);
        loop {
            let below = down.checked_sub(1).map(|i| self.by_red[i]);
            let above = self.by_red.get(up).copied();
            let gap = |r: i32| (r - c[0]).pow(2);
            let below = below.filter(|&(r, _)| gap(r) < best_d);
            let above = above.filter(|&(r, _)| gap(r) < best_d);
            if below.is_none() && above.is_none() {
                return best;
            }
            for (_, i) in below.into_iter().chain(above) {
                let di = d(&self.entries[i]);
                if di < best_d || (di == best_d && i < best) {
                    (best, best_d) = (i, di);
                }
            }
            if below.is_some() {
                down -= 1;
            }
            if above.is_some() {
                up += 1;
            }
        }
    }
}

/// The last try, for images whose shades no palette keeps within tolerance (heavy
/// markup: many translucent arrows and highlights over pieces): a quantiser. Frequent
/// colours are pinned as exact entries; the others are split by weighted median cut into
/// the remaining entries (always the box with the most pixels times its widest channel,
/// along that channel), and refined by Lloyd iterations (each colour to its nearest
/// entry, each free entry to the weighted mean of its colours) while the work stays
/// small. Colours are given in `order`, most frequent first.
fn quantised(order: &[u16], colors: &[u32], counts: &[u32]) -> (Vec<u8>, Vec<u8>) {
    let shades = Shades { colors, counts };
    let total: u64 = order.iter().map(|&id| shades.weight(id)).sum();
    let pinned: Vec<u16> = order
        .iter()
        .copied()
        .take(128)
        .take_while(|&id| shades.weight(id) * PINNED_SHARE >= total)
        .collect();
    let mut rest: Vec<u16> = order[pinned.len()..].to_vec();
    let boxes = shades.median_cut(&mut rest, 256 - pinned.len());
    let mut entries: Vec<[i32; 3]> = pinned.iter().map(|&id| shades.rgb(id)).collect();
    entries.extend(
        boxes
            .iter()
            .map(|b| shades.mean(rest[b.clone()].iter().copied())),
    );
    let mut index_of = vec![0u8; colors.len()];
    for (e, &id) in pinned.iter().enumerate() {
        index_of[usize::from(id)] = e as u8;
    }
    for (b, range) in boxes.iter().enumerate() {
        for &id in &rest[range.clone()] {
            index_of[usize::from(id)] = (pinned.len() + b) as u8;
        }
    }
    shades.refine(&rest, pinned.len(), &mut entries, &mut index_of);
    let palette = entries
        .iter()
        .flat_map(|e| e.map(|v| v.clamp(0, 255) as u8))
        .collect();
    (palette, index_of)
}

/// The colours of an image being quantised, by number: their values and pixel counts.
struct Shades<'a> {
    colors: &'a [u32],
    counts: &'a [u32],
}

impl Shades<'_> {
    fn rgb(&self, id: u16) -> [i32; 3] {
        let [r, g, b, _] = self.colors[usize::from(id)].to_le_bytes();
        [i32::from(r), i32::from(g), i32::from(b)]
    }

    fn weight(&self, id: u16) -> u64 {
        u64::from(self.counts[usize::from(id)])
    }

    /// The widest channel of `ids` and its width.
    fn spread(&self, ids: &[u16]) -> (usize, i32) {
        let (mut lo, mut hi) = ([255; 3], [0; 3]);
        for &id in ids {
            let c = self.rgb(id);
            for k in 0..3 {
                lo[k] = lo[k].min(c[k]);
                hi[k] = hi[k].max(c[k]);
            }
        }
        (0..3)
            .map(|k| (k, hi[k] - lo[k]))
            .max_by_key(|&(_, r)| r)
            .unwrap_or((0, 0))
    }

    /// A box's priority: its pixels times its widest channel (0 when it cannot split).
    fn score(&self, ids: &[u16]) -> u64 {
        let pixels: u64 = ids.iter().map(|&id| self.weight(id)).sum();
        if ids.len() > 1 {
            pixels * self.spread(ids).1 as u64
        } else {
            0
        }
    }

    /// The weighted mean colour of `ids`, rounded.
    fn mean(&self, ids: impl Iterator<Item = u16>) -> [i32; 3] {
        let (mut sum, mut n) = ([0u64; 3], 0u64);
        for id in ids {
            let (c, w) = (self.rgb(id), self.weight(id));
            for k in 0..3 {
                sum[k] += c[k] as u64 * w;
            }
            n += w;
        }
        sum.map(|v| ((v + n / 2) / n.max(1)) as i32)
    }

    /// Weighted median cut of `ids` into at most `room` boxes, as ranges of `ids` (which
    /// it reorders): always the box with the highest score, along its widest channel.
    fn median_cut(&self, ids: &mut [u16], room: usize) -> Vec<std::ops::Range<usize>> {
        let mut boxes: Vec<std::ops::Range<usize>> = Vec::with_capacity(256);
        boxes.push(0..ids.len());
        let mut scores: Vec<u64> = vec![self.score(ids)];
        while boxes.len() < room {
            let best = scores
                .iter()
                .enumerate()
                .max_by_key(|&(i, &score)| (score, std::cmp::Reverse(i)));
            let Some((i, _)) = best.filter(|&(_, &score)| score > 0) else {
                break;
            };
            let range = boxes[i].clone();
            let cut = self.split(&mut ids[range.clone()]);
            boxes[i] = range.start..range.start + cut;
            boxes.push(range.start + cut..range.end);
            scores[i] = self.score(&ids[boxes[i].clone()]);
            scores.push(self.score(&ids[range.start + cut..range.end]));
        }
        boxes
    }

    /// Sort `ids` along their widest channel and find where half their pixels lie
    /// before: the cut, at least one colour from either end.
    fn split(&self, ids: &mut [u16]) -> usize {
        let (axis, _) = self.spread(ids);
        ids.sort_unstable_by_key(|&id| self.rgb(id)[axis]);
        let half: u64 = ids.iter().map(|&id| self.weight(id)).sum::<u64>() / 2;
        let mut seen = 0;
        for (j, &id) in ids.iter().enumerate() {
            seen += self.weight(id);
            if seen >= half {
                return (j + 1).clamp(1, ids.len() - 1);
            }
        }
        1
    }

    /// Lloyd passes over `rest`: each colour to its nearest entry, each entry after the
    /// first `pinned` to the weighted mean of its colours; then a last assignment.
    fn refine(&self, rest: &[u16], pinned: usize, entries: &mut [[i32; 3]], index_of: &mut [u8]) {
        const PASSES: usize = 4;
        let mut sums = vec![([0u64; 3], 0u64); entries.len()];
        for pass in 0..=PASSES {
            let near = Nearest::new(entries);
            for &id in rest {
                index_of[usize::from(id)] = near.of(self.rgb(id)) as u8;
            }
            if pass == PASSES {
                break;
            }
            sums.fill(([0; 3], 0));
            for &id in rest {
                let (c, w) = (self.rgb(id), self.weight(id));
                let (sum, n) = &mut sums[usize::from(index_of[usize::from(id)])];
                for k in 0..3 {
                    sum[k] += c[k] as u64 * w;
                }
                *n += w;
            }
            for (entry, (sum, n)) in entries.iter_mut().zip(&sums).skip(pinned) {
                if *n > 0 {
                    *entry = sum.map(|v| ((v + n / 2) / n) as i32);
                }
            }
        }
    }
}

/// A palette (RGB triplets) and one index per pixel: within [`PALETTE_TOLERANCE`] when a
/// palette of 256 colours can be, else quantised; `None` past [`MAX_DISTINCT`] colours.
fn palettise(rgba: &[u8], width: usize, scratch: &mut Scratch) -> Option<Vec<u8>> {
    let stride = width * 4;
    if stride == 0 || !rgba.len().is_multiple_of(stride) {
        return None;
    }
    // Pass one numbers the colours run by run (diagrams are mostly runs of one colour, so
    // the table is consulted once per run) and records the runs; a row equal to the row
    // above (empty ranks, margins) is recorded as a repeat. Counts only rank the colours,
    // so repeated rows need not add to them.
    const REPEAT: u16 = u16::MAX;
    let colors = scratch.colors.get_or_insert_with(Colors::new);
    colors.clear();
    let runs = &mut scratch.runs;
    runs.clear();
    for (i, row) in rgba.chunks_exact(stride).enumerate() {
        if i > 0 && rgba[(i - 1) * stride..][..stride] == *row {
            runs.push((REPEAT, 0));
            continue;
        }
        // 0 marks a free slot of the colour table: transparent black (never drawn by
        // the callers, which refuse transparency) is counted as opaque black.
        let mut pixels = row
            .chunks_exact(4)
            .map(|px| match key(px) {
                0 => 0xff00_0000,
                k => k,
            })
            .peekable();
        let (mut last, mut last_id) = (0u32, 0u16);
        while let Some(color) = pixels.next() {
            let mut run = 1;
            while pixels.next_if_eq(&color).is_some() {
                run += 1;
            }
            if color != last || last == 0 {
                (last, last_id) = (color, colors.id(color)?);
            }
            colors.counts[usize::from(last_id)] += run;
            runs.push((last_id, run));
        }
    }
    let mut order: Vec<u16> = (0..colors.colors.len() as u16).collect();
    order.sort_unstable_by(|a, b| {
        let (a, b) = (usize::from(*a), usize::from(*b));
        colors.counts[b]
            .cmp(&colors.counts[a])
            .then(colors.colors[a].cmp(&colors.colors[b]))
    });
    // First try: exact boxes, each drawn by its first colour, so frequent colours
    // (squares, piece bodies) are reproduced exactly. Then, for images with more shades
    // (translucent arrows over pieces, glows), boxes drawn by their centres: the same
    // colours in about a fifth fewer entries.
    let (palette, index_of) = boxed(&order, &colors.colors, true)
        .or_else(|| boxed(&order, &colors.colors, false))
        .unwrap_or_else(|| quantised(&order, &colors.colors, &colors.counts));
    // Pass two expands the runs into palette indices.
    let indices = &mut scratch.indices;
    indices.clear();
    indices.reserve(rgba.len() / 4);
    for &(id, run) in runs.iter() {
        if id == REPEAT {
            let start = indices.len() - width;
            indices.extend_from_within(start..start + width);
        } else {
            indices.resize(indices.len() + run as usize, index_of[usize::from(id)]);
        }
    }
    Some(palette)
}

#[cfg(test)]
mod tests {
    use super::*;
    use resvg::tiny_skia::{Color, Paint, PathBuilder, Transform};

    fn decode(png: &[u8]) -> (png::ColorType, Vec<u8>) {
        let decoder = png::Decoder::new(std::io::Cursor::new(png));
        let mut reader = decoder.read_info().expect("header");
        let color = reader.info().color_type;
        let mut out = vec![0; reader.output_buffer_size().expect("size")];
        reader.next_frame(&mut out).expect("frame");
        (color, out)
    }

    #[test]
    fn few_colours_give_an_exact_palette_png() {
        let mut pm = Pixmap::new(64, 64).expect("pixmap");
        pm.fill(Color::from_rgba8(10, 200, 30, 255));
        let png = png(&pm);
        let (color, data) = decode(&png);
        assert_eq!(color, png::ColorType::Indexed);
        assert_eq!(data.len(), 64 * 64);
    }

    #[test]
    fn more_colours_than_the_quantiser_takes_fall_back_to_rgb() {
        let mut pm = Pixmap::new(256, 256).expect("pixmap");
        for (i, px) in pm.pixels_mut().iter_mut().enumerate() {
            let c = Color::from_rgba8((i % 256) as u8, (i / 256) as u8, (i % 7 * 30) as u8, 255);
            *px = c.premultiply().to_color_u8();
        }
        let (color, _) = decode(&png(&pm));
        assert_eq!(color, png::ColorType::Rgb);
    }

    #[test]
    fn many_colours_are_quantised_keeping_frequent_ones_exact() {
        // A flat colour over half the image (a board's squares), and 8,192 shades beside.
        let (w, h) = (128u32, 128u32);
        let mut pm = Pixmap::new(w, h).expect("pixmap");
        let flat = [181, 136, 99];
        let want: Vec<[u8; 3]> = (0..(w * h) as usize)
            .map(|i| match i % 2 {
                0 => flat,
                _ => [
                    (i / 2 % 128 * 2) as u8,
                    (i / 256 * 2) as u8,
                    (i % 7 * 30) as u8,
                ],
            })
            .collect();
        for (px, c) in pm.pixels_mut().iter_mut().zip(&want) {
            *px = Color::from_rgba8(c[0], c[1], c[2], 255)
                .premultiply()
                .to_color_u8();
        }
        let (color, data) = decode(&png(&pm));
        assert_eq!(color, png::ColorType::Indexed, "quantised to a palette");
        let mut decoded = png::Decoder::new(std::io::Cursor::new(png(&pm)));
        decoded.set_transformations(png::Transformations::EXPAND);
        let mut reader = decoded.read_info().expect("header");
        let mut rgb = vec![0; reader.output_buffer_size().expect("size")];
        reader.next_frame(&mut rgb).expect("frame");
        assert_eq!(data.len(), (w * h) as usize);
        let (mut worst, mut sum) = (0u32, 0u64);
        for (i, c) in want.iter().enumerate() {
            let got = &rgb[i * 3..i * 3 + 3];
            let d = (0..3)
                .map(|k| u32::from(got[k].abs_diff(c[k])))
                .max()
                .unwrap_or(0);
            if i % 2 == 0 {
                assert_eq!(got, flat, "the frequent colour is exact");
            }
            worst = worst.max(d);
            sum += u64::from(d);
        }
        let mean = sum as f64 / (want.len() / 2) as f64;
        // 8,192 shades spread evenly through a block of colour, in 255 entries: cells about
        // 28 levels wide, so about 7 levels off on average at best.
        assert!(
            mean < 12.0 && worst <= 24,
            "shades: mean {mean}, worst {worst}"
        );
    }

    #[test]
    fn translucent_images_keep_alpha() {
        let mut pm = Pixmap::new(8, 8).expect("pixmap");
        let mut paint = Paint::default();
        paint.set_color_rgba8(255, 0, 0, 128);
        let path = PathBuilder::from_rect(
            resvg::tiny_skia::Rect::from_xywh(0.0, 0.0, 4.0, 4.0).expect("rect"),
        );
        pm.fill_path(
            &path,
            &paint,
            resvg::tiny_skia::FillRule::Winding,
            Transform::identity(),
            None,
        );
        let (color, _) = decode(&png(&pm));
        assert_eq!(color, png::ColorType::Rgba);
    }
}
