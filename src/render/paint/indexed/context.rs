//! The palette context of one (board, piece set, square size): the palette its base layers
//! and pieces share, the base as indices, and each piece on each plain square colour as
//! a tile of indices; built once ([`Context::build`]) from the scene without painting the
//! image in RGBA, then read by every render of that board. Also the palette builder it is
//! made with, and the box around a label's ink (`ink_box`), which composition reads too.

use crate::cache::Weight;
use crate::chess::piece::Piece;
use crate::render::art::font::LabelFont;
use crate::render::art::pieces::PieceSet;
use crate::render::paint::palette::{Boxes, ColorMap};
use crate::render::paint::raster::{self, SpriteCache};
use crate::render::scene::{Rect, Scene, Shape};

/// The palette, base and tiles of one (board, piece set, square size).
#[derive(Debug)]
pub struct Context {
    /// RGB triplets, at most 256.
    pub(super) palette: Vec<u8>,
    /// Every exact colour (RGBA as a little-endian `u32`) met while building, with the
    /// entry that draws it.
    colors: ColorMap,
    /// The base layers as indices, `width` × `height`.
    pub(super) base: Vec<u8>,
    pub(super) width: usize,
    /// The board's grid.
    grid: Rect,
    pub(super) square: u32,
    files: u32,
    /// Per board cell (row-major from the top left), the opaque colour it is filled with in
    /// the base, or 0 when it is not one colour.
    pub(super) cells: Vec<u32>,
    /// Per plain-cell colour, per piece index, the piece on that colour as indices
    /// (`square` rows of `square`), when its colours fit the palette.
    tiles: Vec<(u32, Vec<Option<Tile>>)>,
    /// The entries the base uses.
    pub(super) base_uses: Entries,
    /// The palette's boxes (box `i` is entry `i`), which a render may grow.
    pub(super) boxes: Boxes,
}

/// A piece on a plain colour as indices, and the entries it uses.
#[derive(Debug, Clone)]
pub(super) struct Tile {
    pub(super) indices: Vec<u8>,
    pub(super) uses: Entries,
}

/// A set of palette entries.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub(super) struct Entries([u64; 4]);

impl Entries {
    pub(super) fn insert(&mut self, i: u8) {
        self.0[usize::from(i >> 6)] |= 1 << (i & 63);
    }
    pub(super) fn contains(&self, i: u8) -> bool {
        self.0[usize::from(i >> 6)] & (1 << (i & 63)) != 0
    }
    pub(super) fn union(&mut self, other: &Entries) {
        for (a, b) in self.0.iter_mut().zip(other.0) {
            *a |= b;
        }
    }
}

impl Context {
    /// Bytes held (for the cache's weigher).
    pub fn bytes(&self) -> usize {
        use std::mem::size_of;
        self.base.capacity()
            + self.palette.capacity()
            + self.colors.slots.capacity() * size_of::<(u32, u16)>()
            + self.cells.capacity() * 4
            + self.tiles.capacity() * size_of::<(u32, Vec<Option<Tile>>)>()
            + self
                .tiles
                .iter()
                .map(|(_, row)| {
                    row.capacity() * size_of::<Option<Tile>>()
                        + row
                            .iter()
                            .flatten()
                            .map(|t| t.indices.capacity())
                            .sum::<usize>()
                })
                .sum::<usize>()
            + self.boxes.heap_bytes()
            + size_of::<Context>()
    }

    /// Build the context of `scene`'s board with pieces from `set`; `None` when the base
    /// alone does not fit a palette (or is not opaque).
    ///
    /// Nothing here is painted in RGBA at the image's size: the base is written as indices
    /// directly (the background and every fill are exact entries of their own), labels in
    /// the margin are painted in small patches around their ink and converted, and each
    /// piece's tile on each square colour is worked out from its sprite's runs of equal
    /// pixels, each run blended over the colour once (`piece_tiles`).
    pub fn build(
        scene: &Scene,
        set: &PieceSet,
        sprites: &SpriteCache,
        font: &LabelFont,
        labels: bool,
    ) -> Option<Context> {
        let (width, height) = (scene.width as usize, scene.height as usize);
        let mut palette = Builder::default();
        // Background and fills: exact entries, never merged, so a cell's entry names its
        // colour exactly.
        let opaque = |c: crate::render::spec::theme::Rgba| {
            (c.a == 255).then(|| u32::from_le_bytes([c.r, c.g, c.b, 255]))
        };
        let background = palette.exact_entry(opaque(scene.background)?)?;
        let mut base = vec![background; width * height];
        for fill in &scene.fills {
            let entry = palette.exact_entry(opaque(fill.color)?)?;
            let r = fill.rect;
            let (x0, x1) = ((r.x as usize).min(width), ((r.x + r.w) as usize).min(width));
            for y in (r.y as usize).min(height)..((r.y + r.h) as usize).min(height) {
                base[y * width + x0..y * width + x1].fill(entry);
            }
        }
        if labels && !paint_labels(scene, font, &mut palette, &mut base) {
            return None;
        }

        // Every entry opened so far is the base's (a fill wholly painted over would only
        // be counted in use, which costs nothing but a free entry).
        let mut base_uses = Entries::default();
        (0..palette.boxes.len).for_each(|i| base_uses.insert(i as u8));
        let (grid, square) = (scene.board, scene.square.max(1));
        let (files, ranks) = (grid.w / square, grid.h / square);
        let mut cells = Vec::with_capacity((files * ranks) as usize);
        for row in 0..ranks {
            for col in 0..files {
                let (x, y) = (grid.x + col * square, grid.y + row * square);
                cells.push(
                    uniform(&base, width, x, y, square)
                        .map_or(0, |e| palette.exact_of[usize::from(e)]),
                );
            }
        }
        let mut colours: Vec<u32> = cells.iter().copied().filter(|&c| c != 0).collect();
        colours.sort_unstable();
        colours.dedup();

        let tiles = piece_tiles(&colours, set, sprites, square, &mut palette);
        palette.boxes.stop_recording();
        Some(Context {
            base_uses,
            palette: palette.boxes.palette(),
            colors: palette.exact.compact(),
            boxes: palette.boxes,
            base,
            width,
            grid,
            square,
            files,
            cells,
            tiles,
        })
    }

    /// The entry drawing `colour`, if the context met it.
    pub(super) fn entry(&self, colour: u32) -> Option<u8> {
        self.colors.get(colour).map(|i| i as u8)
    }

    /// The plain cell of the grid `rect` is exactly, by number.
    pub(super) fn cell_of(&self, rect: Rect) -> Option<usize> {
        let (g, sq) = (self.grid, self.square);
        if rect.w != sq || rect.h != sq || rect.x < g.x || rect.y < g.y {
            return None;
        }
        let (dx, dy) = (rect.x - g.x, rect.y - g.y);
        if dx % sq != 0 || dy % sq != 0 || dx + sq > g.w || dy + sq > g.h {
            return None;
        }
        let cell = ((dy / sq) * self.files + dx / sq) as usize;
        (self.cells[cell] != 0).then_some(cell)
    }

    /// Give `out` each plain cell the one-row rectangle `run` crosses; `false` when part
    /// of it lies off the grid or on a cell that is not plain.
    pub(super) fn cells_of_run(&self, run: Rect, out: &mut impl FnMut(usize)) -> bool {
        let (g, sq) = (self.grid, self.square.max(1));
        let inside = run.x >= g.x
            && run.y >= g.y
            && run.x + run.w <= g.x + g.w
            && run.y + run.h <= g.y + g.h
            && run.w > 0;
        if !inside {
            return false;
        }
        let row = ((run.y - g.y) / sq) as usize;
        let (first, last) = ((run.x - g.x) / sq, (run.x + run.w - 1 - g.x) / sq);
        for file in first..=last {
            let cell = row * self.files as usize + file as usize;
            if self.cells.get(cell).is_none_or(|&c| c == 0) {
                return false;
            }
            out(cell);
        }
        true
    }

    /// The cell's rectangle.
    pub(super) fn cell_rect(&self, cell: usize) -> Rect {
        let (g, sq, files) = (self.grid, self.square, self.files as usize);
        Rect {
            x: g.x + (cell % files) as u32 * sq,
            y: g.y + (cell / files) as u32 * sq,
            w: sq,
            h: sq,
        }
    }

    /// The plain cell a mark covers exactly, when it paints the same wherever it is: a
    /// fill of the whole cell, or a glow on it (stamped: `raster::paint_cell`).
    pub(super) fn cell_mark(&self, shape: &Shape) -> Option<usize> {
        match shape {
            Shape::Rect { rect, .. } => self.cell_of(*rect),
            Shape::Glow { center, radius, .. } => {
                let (x, y, side) = (center.0 - radius, center.1 - radius, radius * 2.0);
                if x < 0.0 || y < 0.0 || side != self.square as f32 {
                    return None;
                }
                let rect = Rect {
                    x: x as u32,
                    y: y as u32,
                    w: self.square,
                    h: self.square,
                };
                let whole = rect.x as f32 == x && rect.y as f32 == y;
                self.cell_of(rect).filter(|_| whole)
            }
            _ => None,
        }
    }

    /// The tile of a piece standing exactly on a plain cell of the grid.
    pub(super) fn tile(&self, piece: Piece, rect: Rect) -> Option<&Tile> {
        let colour = self.cells[self.cell_of(rect)?];
        let (_, row) = self.tiles.iter().find(|(c, _)| *c == colour)?;
        row[piece.index()].as_ref()
    }
}

impl Weight for Context {
    fn weight(&self) -> usize {
        self.bytes()
    }
}

/// Per plain-cell colour (in order), per piece, the piece on that colour as a tile, each
/// tile's colours given entries of `palette` in turn (most frequent first, all or none).
///
/// Each sprite is read as runs of equal pixels, each run blended over the colour once; a
/// tile's colours, their counts and its indices are then worked out run by run (a square's
/// pixels are mostly long runs of the ground and of the fills), never pixel by pixel.
fn piece_tiles(
    colours: &[u32],
    set: &PieceSet,
    sprites: &SpriteCache,
    square: u32,
    palette: &mut Builder,
) -> Vec<(u32, Vec<Option<Tile>>)> {
    if colours.is_empty() {
        return Vec::new();
    }
    let drawn: Vec<_> = Piece::all()
        .map(|piece| sprites.sprite(set, piece, square, square))
        .collect();
    // One buffer for every tile's runs, blended over its colour.
    let (mut blended, mut counts) = (Vec::new(), ColorMap::default());
    let mut tiles = Vec::with_capacity(colours.len());
    for &colour in colours {
        let mut row = vec![None; drawn.len()];
        for (slot, sprite) in row.iter_mut().zip(&drawn) {
            let Some(sprite) = sprite else {
                continue;
            };
            blended.clear();
            blended.extend(runs_of(sprite.data()).map(|(p, n)| (raster::over(p, colour), n)));
            let Some(found) = by_frequency(blended.iter().copied(), &mut counts) else {
                continue;
            };
            if palette.add(&found, false) {
                let mut indices = Vec::with_capacity((square * square) as usize);
                palette.convert(blended.iter().copied(), &mut indices);
                // The entries its colours were given: each colour is some pixel's.
                let mut uses = Entries::default();
                for &c in &found {
                    uses.insert(palette.exact.get(c).unwrap_or(0) as u8);
                }
                *slot = Some(Tile { indices, uses });
            }
        }
        tiles.push((colour, row));
    }
    tiles
}

/// The pixels of `rgba` (4 bytes each, read as little-endian `u32`s) as runs of equal
/// pixels: (pixel, length), in order, running on across rows. A run is followed sixteen
/// bytes at a time (four pixels compared at once), then pixel by pixel.
fn runs_of(rgba: &[u8]) -> impl Iterator<Item = (u32, u32)> + '_ {
    let mut at = 0;
    std::iter::from_fn(move || {
        let rest = rgba.get(at..)?;
        let first: [u8; 4] = rest.get(..4)?.try_into().ok()?;
        // The pixel four times over, as sixteen little-endian bytes read.
        let four = u128::from(u32::from_le_bytes(first)) * 0x0000_0001_0000_0001_0000_0001_0000_0001;
        let mut len = 4;
        while let Some(chunk) = rest.get(len..len + 16) {
            if u128::from_le_bytes(chunk.try_into().ok()?) != four {
                break;
            }
            len += 16;
        }
        while rest.get(len..len + 4) == Some(&first[..]) {
            len += 4;
        }
        at += len;
        Some((u32::from_le_bytes(first), (len / 4) as u32))
    })
}

/// The box around the ink of `label`'s glyph, in pixels (left, top, right, bottom); `None`
/// when it has no ink.
pub(super) fn ink_box(font: &LabelFont, label: &crate::render::scene::Label) -> Option<(f32, f32, f32, f32)> {
    let ink = font.glyph(label.ch)?.path.as_ref()?.bounds();
    let s = label.scale;
    Some((
        label.x + ink.left() * s,
        label.y - ink.bottom() * s,
        label.x + ink.right() * s,
        label.y - ink.top() * s,
    ))
}

/// The entry filling the `square` × `square` cell at (`x`, `y`) of `indices`, if one.
fn uniform(indices: &[u8], width: usize, x: u32, y: u32, square: u32) -> Option<u8> {
    let (x, y, sq) = (x as usize, y as usize, square as usize);
    let first = *indices.get(y * width + x)?;
    // Whole rows compared at once (memcmp) rather than byte by byte.
    let row = vec![first; sq];
    let all = (0..sq)
        .all(|r| indices.get((y + r) * width + x..(y + r) * width + x + sq) == Some(&row[..]));
    all.then_some(first)
}

/// The distinct colours of opaque pixels given as `runs` (colour, length), most frequent
/// first (ties by colour), counted in `counts`; `None` if any pixel is translucent.
fn by_frequency(runs: impl IntoIterator<Item = (u32, u32)>, counts: &mut ColorMap) -> Option<Vec<u32>> {
    counts.reset(1024);
    let mut order: Vec<(u32, u32)> = Vec::new();
    for (colour, run) in runs {
        if colour >> 24 != 255 {
            return None;
        }
        match counts.get(colour) {
            Some(n) => order[usize::from(n)].1 += run,
            None => {
                counts.insert_growing(colour, order.len() as u16);
                order.push((colour, run));
            }
        }
    }
    order.sort_unstable_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
    Some(order.into_iter().map(|(c, _)| c).collect())
}

/// Paint the labels of `scene` onto the base `indices`, each in a patch of RGBA around its
/// ink (read from the entries under it, painted, converted back); `false` when their
/// colours do not fit the palette.
fn paint_labels(
    scene: &Scene,
    font: &LabelFont,
    palette: &mut Builder,
    indices: &mut [u8],
) -> bool {
    let (w, h) = (scene.width, scene.height);
    let (mut patch, mut counts) = (Vec::new(), ColorMap::default());
    for label in &scene.labels {
        let Some((left, top, right, bottom)) = ink_box(font, label) else {
            continue;
        };
        let clamp = |v: f32, max: u32| (v.max(0.0) as u32).min(max);
        let (x0, x1) = (clamp(left.floor() - 1.0, w), clamp(right.ceil() + 1.0, w));
        let (y0, y1) = (clamp(top.floor() - 1.0, h), clamp(bottom.ceil() + 1.0, h));
        if x0 >= x1 || y0 >= y1 {
            continue;
        }
        let (pw, ph) = ((x1 - x0) as usize, (y1 - y0) as usize);
        patch.clear();
        for y in y0 as usize..y1 as usize {
            let row = &indices[y * w as usize + x0 as usize..][..pw];
            patch.extend(row.iter().flat_map(|&e| palette.colour_of(e).to_le_bytes()));
        }
        let moved = crate::render::scene::Label {
            x: label.x - x0 as f32,
            y: label.y - y0 as f32,
            ..*label
        };
        raster::paint_label(&moved, font, &mut patch, (pw as u32, ph as u32));
        let Some(colours) = by_frequency(runs_of(&patch), &mut counts) else {
            return false;
        };
        if !palette.add(&colours, true) {
            return false;
        }
        let mut converted = Vec::with_capacity(pw * ph);
        palette.convert(runs_of(&patch), &mut converted);
        for (row, src) in converted.chunks_exact(pw).enumerate() {
            let y = y0 as usize + row;
            indices[y * w as usize + x0 as usize..][..pw].copy_from_slice(src);
        }
    }
    true
}

/// A palette being built: boxes (box `i` is entry `i`) and the exact colours each draws.
#[derive(Clone)]
struct Builder {
    boxes: Boxes,
    exact: ColorMap,
    /// Per entry, the colour it was opened for when that is exactly what it draws (the
    /// background and fills), else 0.
    exact_of: [u32; 256],
    /// The colours the last [`Builder::add`] added (to take back when they do not fit).
    added: Vec<u32>,
}

impl Default for Builder {
    fn default() -> Self {
        let mut exact = ColorMap::default();
        exact.reset(1024);
        Builder {
            boxes: Boxes::default(),
            exact,
            exact_of: [0; 256],
            added: Vec::new(),
        }
    }
}

impl Builder {
    /// An entry of its own drawing exactly `colour` (opaque), opened unless one is;
    /// `None` past 256 entries.
    fn exact_entry(&mut self, colour: u32) -> Option<u8> {
        if let Some(i) = self.exact.get(colour) {
            let i = i as u8;
            return (self.exact_of[usize::from(i)] == colour).then_some(i);
        }
        let entry = u8::try_from(self.boxes.len).ok()?;
        let [r, g, b, _] = colour.to_le_bytes();
        self.boxes.push([r, g, b], [r, g, b], true, entry)?;
        self.exact.insert_growing(colour, u16::from(entry));
        self.exact_of[usize::from(entry)] = colour;
        Some(entry)
    }

    /// The colour entry `i` draws, as opaque RGBA (a little-endian `u32`).
    fn colour_of(&self, i: u8) -> u32 {
        let [r, g, b] = self.boxes.colour(usize::from(i));
        u32::from_le_bytes([r, g, b, 255])
    }

    /// Give every colour of `colours` (most frequent first) an entry, all or none: `false`,
    /// and nothing added, when they would take the palette past 256 entries. New boxes are
    /// `exact` or not.
    fn add(&mut self, colours: &[u32], exact: bool) -> bool {
        self.boxes.record();
        self.added.clear();
        for &colour in colours {
            if self.exact.get(colour).is_some() {
                continue;
            }
            let [r, g, b, _] = colour.to_le_bytes();
            let c = [r, g, b];
            match self.boxes.entry(c, exact) {
                Some(i) => {
                    self.exact.insert_growing(colour, u16::from(i));
                    self.added.push(colour);
                }
                None => {
                    self.boxes.rollback();
                    for &c in &self.added {
                        self.exact.remove(c);
                    }
                    return false;
                }
            }
        }
        true
    }

    /// Pixels given as `runs` (colour, length) as indices onto `out` (every colour must
    /// have been added).
    fn convert(&self, runs: impl IntoIterator<Item = (u32, u32)>, out: &mut Vec<u8>) {
        let (mut last, mut entry) = (0u32, 0u8);
        for (colour, run) in runs {
            if colour != last {
                (last, entry) = (colour, self.exact.get(colour).unwrap_or(0) as u8);
            }
            out.resize(out.len() + run as usize, entry);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashMap;

    /// The tiles the way they were first made, pixel by pixel: each piece composited on
    /// each colour, its colours counted in a hash map, then converted pixel by pixel.
    fn by_pixels(
        palette: &mut Builder,
        (set, sprites): (&PieceSet, &SpriteCache),
        (colours, square): (&[u32], u32),
) -> Vec<(u32, Vec<Option<Tile>>)> {
        let mut rgba = Vec::new();
        let mut tiles = Vec::new();
        for &colour in colours {
            let mut row = vec![None; Piece::all().count()];
            for piece in Piece::all() {
                let sprite = sprites.sprite(set, piece, square, square).expect("drawn");
                raster::composite(&sprite, colour.to_le_bytes(), &mut rgba);
                let pixels: Vec<u32> = rgba
                    .chunks_exact(4)
                    .map(|p| u32::from_le_bytes([p[0], p[1], p[2], p[3]]))
                    .collect();
                let mut count: HashMap<u32, u32> = HashMap::new();
                pixels.iter().for_each(|&p| *count.entry(p).or_default() += 1);
                assert!(count.keys().all(|c| c >> 24 == 255), "translucent");
                let mut found: Vec<(u32, u32)> = count.into_iter().collect();
                found.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
                let found: Vec<u32> = found.into_iter().map(|(c, _)| c).collect();
                if palette.add(&found, false) {
                    let entry = |c: u32| palette.exact.get(c).expect("added") as u8;
                    let indices = pixels.iter().map(|&p| entry(p)).collect();
                    let mut uses = Entries::default();
                    found.iter().for_each(|&c| uses.insert(entry(c)));
                    row[piece.index()] = Some(Tile { indices, uses });
                }
            }
            tiles.push((colour, row));
        }
        tiles
    }

    /// A builder holding the two square colours and `more` other exact colours.
    fn builder(squares: [u32; 2], more: usize) -> Builder {
        let mut palette = Builder::default();
        for colour in squares {
            palette.exact_entry(colour).expect("room");
        }
        for i in 0..more as u32 {
            // Spread over the cube, apart from one another by more than the tolerance.
            let c = [(i * 37) % 256, (i * 101) % 256, (i * 13) % 256].map(|v| v as u8);
            palette.exact_entry(u32::from_le_bytes([c[0], c[1], c[2], 255]));
        }
        palette
    }

    #[test]
    fn tiles_made_run_by_run_are_the_tiles_made_pixel_by_pixel() {
        let squares = [0xff_b5_d9_f0_u32, 0xff_63_88_b5];
        let sprites = SpriteCache::new(1 << 26, 1 << 20);
        let (mut compared, mut left_out) = (0, 0);
        for set in [PieceSet::builtin(), PieceSet::builtin_classic()] {
            // Small (hinted), odd and large squares; a palette with room for every colour,
            // and one nearly full, where some tiles do not fit and are taken back.
            for (square, more) in [(13, 0), (31, 0), (57, 0), (120, 0), (57, 200), (120, 230)] {
                let (mut runs, mut pixels) = (builder(squares, more), builder(squares, more));
                let a = piece_tiles(&squares, &set, &sprites, square, &mut runs);
                let b = by_pixels(&mut pixels, (&set, &sprites), (&squares, square));
                assert_eq!(runs.boxes.palette(), pixels.boxes.palette(), "{square} {more}");
                for ((ca, ra), (cb, rb)) in a.iter().zip(&b) {
                    assert_eq!(ca, cb);
                    for (ta, tb) in ra.iter().zip(rb) {
                        match (ta, tb) {
                            (Some(ta), Some(tb)) => {
                                assert!(ta.indices == tb.indices, "{square} {more}");
                                assert_eq!(ta.uses, tb.uses, "{square} {more}");
                                compared += 1;
                            }
                            (None, None) => left_out += 1,
                            _ => panic!("{square} {more}: a tile made one way only"),
                        }
                    }
                }
            }
        }
        assert!(compared > 100 && left_out > 5, "{compared} compared, {left_out} left out");
    }
}
