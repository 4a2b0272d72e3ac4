//! Indexed rendering: a diagram composed directly as palette indices.
//!
//! Most diagrams are one of a few boards with pieces standing on plain squares. For each
//! (board, piece set, square size), a [`Context`], the base layers (background, frame,
//! squares, margin labels) and every piece on every plain square colour are converted to
//! palette indices once, into one palette they share. A render is then a copy of the base's
//! indices and, per piece, a copy of its tile's rows: no RGBA pixels and no colour lookups.
//!
//! What a context does not cover (marks, arrows, labels over the board, pieces off the
//! grid) is *dirty*: the caller paints the whole diagram in RGBA as usual, and only the
//! dirty rectangles are converted, against the context's palette, extended for this render
//! when new colours appear. Colours join the palette as in `encode`: a colour within
//! `encode::PALETTE_TOLERANCE` of an entry is drawn by that entry, so the result is the same
//! visually lossless palette image the full-colour path makes. When 256 entries are not
//! enough, the caller falls back to that path.

use crate::encode::close;
use crate::font::LabelFont;
use crate::piece::Piece;
use crate::pieces::PieceSet;
use crate::raster::{self, SpriteCache};
use crate::scene::{Point, Rect, Scene, Shape};
use std::collections::HashMap;

/// The palette, base and tiles of one (board, piece set, square size).
#[derive(Debug)]
pub struct Context {
    /// RGB triplets, at most 256.
    palette: Vec<u8>,
    /// Every exact colour (RGBA as a little-endian `u32`) met while building, with the
    /// entry that draws it.
    colors: ColorMap,
    /// The base layers as indices, `width` × `height`.
    base: Vec<u8>,
    width: usize,
    /// The board's grid.
    grid: Rect,
    square: u32,
    files: u32,
    /// Per board cell (row-major from the top left), the opaque colour it is filled with in
    /// the base, or 0 when it is not one colour.
    cells: Vec<u32>,
    /// Per plain-cell colour, per piece index, the piece on that colour as indices
    /// (`square` rows of `square`), when its colours fit the palette.
    tiles: Vec<(u32, Vec<Option<Vec<u8>>>)>,
}

impl Context {
    /// Bytes held (for the cache's weigher).
    pub fn bytes(&self) -> usize {
        self.base.len()
            + self.palette.len()
            + self.colors.slots.len() * 8
            + self.cells.len() * 4
            + self
                .tiles
                .iter()
                .flat_map(|(_, t)| t.iter().flatten())
                .map(Vec::len)
                .sum::<usize>()
    }

    /// The palette's entry count.
    pub fn palette_len(&self) -> usize {
        self.palette.len() / 3
    }

    /// Build the context of `scene`'s board with pieces from `set`; `None` when the base
    /// alone does not fit a palette (or is not opaque).
    pub fn build(
        scene: &Scene,
        set: &PieceSet,
        sprites: &SpriteCache,
        font: &LabelFont,
        labels: bool,
    ) -> Option<Context> {
        let base = raster::base(scene, font, sprites, labels);
        let width = scene.width as usize;
        let mut palette = Builder::default();
        if !palette.add(&by_frequency(&base)?) {
            return None;
        }
        let base_indices = palette.convert(&base);

        let (grid, square) = (scene.board, scene.square.max(1));
        let (files, ranks) = (grid.w / square, grid.h / square);
        let mut cells = Vec::with_capacity((files * ranks) as usize);
        for row in 0..ranks {
            for col in 0..files {
                let (x, y) = (grid.x + col * square, grid.y + row * square);
                cells.push(uniform(&base, width, x, y, square).unwrap_or(0));
            }
        }
        let mut colours: Vec<u32> = cells.iter().copied().filter(|&c| c != 0).collect();
        colours.sort_unstable();
        colours.dedup();

        let mut tiles = Vec::with_capacity(colours.len());
        for &colour in &colours {
            let mut row = vec![None; Piece::all().count()];
            for piece in Piece::all() {
                let Some(tile) = sprites.tile(set, piece, square, colour.to_le_bytes()) else {
                    continue;
                };
                let Some(colours) = by_frequency(&tile) else {
                    continue;
                };
                if palette.add(&colours) {
                    row[piece.index()] = Some(palette.convert(&tile));
                }
            }
            tiles.push((colour, row));
        }
        Some(Context {
            palette: palette.entries,
            colors: ColorMap::from(&palette.exact),
            base: base_indices,
            width,
            grid,
            square,
            files,
            cells,
            tiles,
        })
    }

    /// The tile of a piece standing exactly on a plain cell of the grid.
    fn tile(&self, piece: Piece, rect: Rect) -> Option<&[u8]> {
        let (g, sq) = (self.grid, self.square);
        if rect.w != sq || rect.h != sq || rect.x < g.x || rect.y < g.y {
            return None;
        }
        let (dx, dy) = (rect.x - g.x, rect.y - g.y);
        if dx % sq != 0 || dy % sq != 0 || dx + sq > g.w || dy + sq > g.h {
            return None;
        }
        let colour = self.cells[((dy / sq) * self.files + dx / sq) as usize];
        let (_, row) = self
            .tiles
            .iter()
            .find(|(c, _)| *c == colour && colour != 0)?;
        row[piece.index()].as_deref()
    }
}

/// The context of `scene`'s board with pieces from `set`, from the context cache (`None`,
/// also cached, when the board does not fit a palette).
pub fn context(
    scene: &Scene,
    set: &PieceSet,
    sprites: &SpriteCache,
    font: &LabelFont,
    labels: bool,
) -> Option<std::sync::Arc<Context>> {
    let mut key = raster::base_key(scene, labels);
    key.extend_from_slice(&scene.square.to_le_bytes());
    key.extend_from_slice(set.shared_name().as_bytes());
    sprites.contexts.get_with(key, || {
        Context::build(scene, set, sprites, font, labels).map(std::sync::Arc::new)
    })
}

/// Buffers of indexed renders, kept per thread.
#[derive(Debug, Default)]
pub struct Scratch {
    /// The diagram as palette indices.
    pub indices: Vec<u8>,
    /// The palette of this render (RGB triplets): the context's, plus colours of the dirty
    /// rectangles it lacked.
    pub palette: Vec<u8>,
    extra: ColorMap,
    dirty: Vec<Rect>,
}

impl Scratch {
    /// Bytes held.
    pub fn capacity(&self) -> usize {
        self.indices.capacity()
            + self.palette.capacity()
            + self.extra.slots.len() * 8
            + self.dirty.capacity() * 16
    }
}

/// Compose `scene` from `context` into `scratch.indices`, and list the rectangles it could
/// not compose (returns whether there are any: then the caller paints the RGBA pixels and
/// calls [`convert_dirty`]).
pub fn compose(
    context: &Context,
    scene: &Scene,
    font: &LabelFont,
    labels_in_margin: bool,
    scratch: &mut Scratch,
) -> bool {
    let (w, h) = (scene.width, scene.height);
    scratch.indices.clear();
    scratch.indices.extend_from_slice(&context.base);
    scratch.palette.clear();
    scratch.palette.extend_from_slice(&context.palette);
    let dirty = &mut scratch.dirty;
    dirty.clear();
    let width = w as usize;
    for p in &scene.pieces {
        match context.tile(p.piece, p.rect) {
            Some(tile) => {
                let (x, y, sq) = (p.rect.x as usize, p.rect.y as usize, p.rect.w as usize);
                for (row, src) in tile.chunks_exact(sq).enumerate() {
                    scratch.indices[(y + row) * width + x..][..sq].copy_from_slice(src);
                }
            }
            None => dirty.push(p.rect),
        }
    }
    let square = scene.square.max(1) as f32;
    for shape in scene.marks.iter().chain(&scene.overlays) {
        shape_bounds(shape, square, &mut |b| push_clipped(dirty, b, w, h));
    }
    if !labels_in_margin {
        for l in &scene.labels {
            let Some(ink) = font
                .glyph(l.ch)
                .and_then(|g| g.path.as_ref())
                .map(|p| p.bounds())
            else {
                continue;
            };
            let s = l.scale;
            let b = (
                l.x + ink.left() * s,
                l.y - ink.bottom() * s,
                l.x + ink.right() * s,
                l.y - ink.top() * s,
            );
            push_clipped(dirty, b, w, h);
        }
    }
    !dirty.is_empty()
}

/// Convert the dirty rectangles of the last [`compose`] from `rgba` (the same diagram
/// painted in premultiplied RGBA) into indices. `false` when a pixel is translucent or the
/// palette would need more than 256 entries.
pub fn convert_dirty(context: &Context, rgba: &[u8], scratch: &mut Scratch) -> bool {
    let width = context.width;
    let Scratch {
        indices,
        palette,
        extra,
        dirty,
    } = scratch;
    extra.reset(1024);
    for r in dirty.iter() {
        let (x0, x1) = (r.x as usize, (r.x + r.w) as usize);
        for y in r.y as usize..(r.y + r.h) as usize {
            let row = &rgba[(y * width + x0) * 4..(y * width + x1) * 4];
            let out = &mut indices[y * width + x0..y * width + x1];
            let (mut last, mut index) = (0u32, 0u8);
            for (px, o) in row.chunks_exact(4).zip(out.iter_mut()) {
                let colour = u32::from_le_bytes([px[0], px[1], px[2], px[3]]);
                if colour != last {
                    if px[3] != 255 {
                        return false;
                    }
                    index = match context.colors.get(colour).or_else(|| extra.get(colour)) {
                        Some(i) => i,
                        None => {
                            let Some(i) = entry_for(palette, colour) else {
                                return false;
                            };
                            if !extra.insert(colour, i) {
                                return false;
                            }
                            i
                        }
                    };
                    last = colour;
                }
                *o = index;
            }
        }
    }
    true
}

/// The entry of `palette` within tolerance of `colour`, appended if none is.
fn entry_for(palette: &mut Vec<u8>, colour: u32) -> Option<u8> {
    let found = palette
        .chunks_exact(3)
        .position(|e| close(u32::from_le_bytes([e[0], e[1], e[2], 255]), colour));
    match found {
        Some(i) => Some(i as u8),
        None if palette.len() < 256 * 3 => {
            let [r, g, b, _] = colour.to_le_bytes();
            palette.extend_from_slice(&[r, g, b]);
            Some((palette.len() / 3 - 1) as u8)
        }
        None => None,
    }
}

/// Add the pixel rectangle covering `(x0, y0, x1, y1)`, widened by a pixel for
/// anti-aliasing and clipped to the image, to `dirty`.
fn push_clipped(dirty: &mut Vec<Rect>, (x0, y0, x1, y1): (f32, f32, f32, f32), w: u32, h: u32) {
    let clip = |v: f32, max: u32| (v.max(0.0) as u32).min(max);
    let (x0, y0) = (clip((x0 - 1.0).floor(), w), clip((y0 - 1.0).floor(), h));
    let (x1, y1) = (clip((x1 + 1.0).ceil(), w), clip((y1 + 1.0).ceil(), h));
    if x1 > x0 && y1 > y0 {
        dirty.push(Rect {
            x: x0,
            y: y0,
            w: x1 - x0,
            h: y1 - y0,
        });
    }
}

/// Boxes covering every pixel `shape` may paint. A long stroke is cut into pieces about a
/// square long, so a diagonal arrow dirties a band along itself, not its bounding box.
fn shape_bounds(shape: &Shape, square: f32, out: &mut impl FnMut((f32, f32, f32, f32))) {
    let around = |(x, y): Point, r: f32| (x - r, y - r, x + r, y + r);
    match shape {
        Shape::Rect { rect: r, .. } => out((
            r.x as f32,
            r.y as f32,
            (r.x + r.w) as f32,
            (r.y + r.h) as f32,
        )),
        Shape::Polygon { points, .. } => {
            let mut b = (f32::MAX, f32::MAX, f32::MIN, f32::MIN);
            for &(x, y) in points {
                b = (b.0.min(x), b.1.min(y), b.2.max(x), b.3.max(y));
            }
            if b.0 <= b.2 {
                out(b);
            }
        }
        Shape::Line { points, width, .. } => {
            // Mitred corners reach at most 4 half-widths (tiny-skia's default limit) from
            // the vertex.
            let reach = width * 2.0;
            for pair in points.windows(2) {
                let ((ax, ay), (bx, by)) = (pair[0], pair[1]);
                let length = (bx - ax).hypot(by - ay);
                let pieces = (length / square).ceil().clamp(1.0, 64.0) as u32;
                for i in 0..pieces {
                    let (t0, t1) = (i as f32 / pieces as f32, (i + 1) as f32 / pieces as f32);
                    let (x0, y0) = (ax + (bx - ax) * t0, ay + (by - ay) * t0);
                    let (x1, y1) = (ax + (bx - ax) * t1, ay + (by - ay) * t1);
                    out((
                        x0.min(x1) - reach,
                        y0.min(y1) - reach,
                        x0.max(x1) + reach,
                        y0.max(y1) + reach,
                    ));
                }
            }
        }
        Shape::Ring {
            center,
            radius,
            width,
            ..
        } => out(around(*center, radius + width / 2.0)),
        Shape::Disc { center, radius, .. } | Shape::Glow { center, radius, .. } => {
            out(around(*center, *radius))
        }
    }
}

/// The opaque colour filling the `square` × `square` cell at (`x`, `y`) of `rgba`, if one.
fn uniform(rgba: &[u8], width: usize, x: u32, y: u32, square: u32) -> Option<u32> {
    let (x, y, sq) = (x as usize, y as usize, square as usize);
    let first = rgba.get((y * width + x) * 4..(y * width + x) * 4 + 4)?;
    if first[3] != 255 {
        return None;
    }
    let all = (0..sq).all(|row| {
        rgba.get(((y + row) * width + x) * 4..((y + row) * width + x + sq) * 4)
            .is_some_and(|r| r.chunks_exact(4).all(|c| c == first))
    });
    all.then(|| u32::from_le_bytes([first[0], first[1], first[2], first[3]]))
}

/// The distinct colours of opaque `rgba`, most frequent first; `None` if any pixel is
/// translucent.
fn by_frequency(rgba: &[u8]) -> Option<Vec<u32>> {
    let mut counts: HashMap<u32, u64> = HashMap::new();
    let mut pixels = rgba
        .chunks_exact(4)
        .map(|p| u32::from_le_bytes([p[0], p[1], p[2], p[3]]))
        .peekable();
    while let Some(colour) = pixels.next() {
        if colour >> 24 != 255 {
            return None;
        }
        let mut run = 1;
        while pixels.next_if_eq(&colour).is_some() {
            run += 1;
        }
        *counts.entry(colour).or_default() += run;
    }
    let mut order: Vec<(u32, u64)> = counts.into_iter().collect();
    order.sort_unstable_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
    Some(order.into_iter().map(|(c, _)| c).collect())
}

/// A palette being built: entries and the exact colours each stands for.
#[derive(Default)]
struct Builder {
    entries: Vec<u8>,
    exact: HashMap<u32, u8>,
}

impl Builder {
    /// Give every colour of `colours` (most frequent first) an entry, all or none: `false`,
    /// and nothing added, when they would take the palette past 256 entries.
    fn add(&mut self, colours: &[u32]) -> bool {
        let (len, mut added) = (self.entries.len(), Vec::new());
        for &colour in colours {
            if self.exact.contains_key(&colour) {
                continue;
            }
            match entry_for(&mut self.entries, colour) {
                Some(i) => {
                    self.exact.insert(colour, i);
                    added.push(colour);
                }
                None => {
                    self.entries.truncate(len);
                    for c in added {
                        self.exact.remove(&c);
                    }
                    return false;
                }
            }
        }
        true
    }

    /// `rgba`'s pixels as indices (every colour must have been added).
    fn convert(&self, rgba: &[u8]) -> Vec<u8> {
        rgba.chunks_exact(4)
            .map(|p| self.exact[&u32::from_le_bytes([p[0], p[1], p[2], p[3]])])
            .collect()
    }
}

/// Colour → entry, open addressing over a power-of-two table (opaque colours are never 0,
/// which marks a free slot).
#[derive(Debug, Default, Clone)]
struct ColorMap {
    slots: Vec<(u32, u8)>,
    len: usize,
}

impl ColorMap {
    fn from(exact: &HashMap<u32, u8>) -> ColorMap {
        let mut map = ColorMap::default();
        map.reset((exact.len() * 2).next_power_of_two().max(16));
        for (&c, &i) in exact {
            map.insert(c, i);
        }
        map
    }

    /// Empty, with `slots` slots.
    fn reset(&mut self, slots: usize) {
        self.slots.clear();
        self.slots.resize(slots, (0, 0));
        self.len = 0;
    }

    fn slot(&self, colour: u32) -> usize {
        ((u64::from(colour).wrapping_mul(0x9e37_79b9_7f4a_7c15) >> 32) as usize)
            & (self.slots.len() - 1)
    }

    fn get(&self, colour: u32) -> Option<u8> {
        if self.slots.is_empty() {
            return None;
        }
        let mut slot = self.slot(colour);
        loop {
            let (key, index) = self.slots[slot];
            if key == colour {
                return Some(index);
            }
            if key == 0 {
                return None;
            }
            slot = (slot + 1) & (self.slots.len() - 1);
        }
    }

    /// `false` when the table is half full.
    fn insert(&mut self, colour: u32, index: u8) -> bool {
        if (self.len + 1) * 2 > self.slots.len() {
            return false;
        }
        let mut slot = self.slot(colour);
        while self.slots[slot].0 != 0 && self.slots[slot].0 != colour {
            slot = (slot + 1) & (self.slots.len() - 1);
        }
        if self.slots[slot].0 == 0 {
            self.len += 1;
        }
        self.slots[slot] = (colour, index);
        true
    }
}
