//! Indexed rendering: a diagram composed directly as palette indices.
//!
//! Most diagrams are one of a few boards with pieces standing on plain squares. For each
//! (board, piece set, square size), a [`Context`], the base layers (background, frame,
//! squares, margin labels) and every piece on every plain square colour are converted to
//! palette indices once, into one palette they share. A render is then a copy of the base's
//! indices and, per piece, a copy of its tile's rows: no RGBA pixels and no colour lookups.
//!
//! A marked square (last move, highlight, check glow, or any arrow, circle or cross
//! crossing it) with its piece is a cached [`CellTile`]: its own colours and each pixel's
//! number among them, converted by colour. What neither covers (labels over the board,
//! shapes reaching off the grid, pieces off it, figures) is *dirty*: exactly the row runs those
//! shapes' stamps paint, and boxes around labels. The caller paints just those runs in
//! RGBA (`raster::paint_within`), and they are converted against the context's palette,
//! extended for this render when new colours appear. Colours join the palette as in
//! `encode` (both through `palette`): a colour within `palette::PALETTE_TOLERANCE` of an entry is drawn by that entry,
//! so the result is the same visually lossless palette image the full-colour path makes.
//! When 256 entries are not enough, the caller falls back to that path.

use crate::cache::{ByteCache, Usage, Weight};
use crate::chess::piece::Piece;
use crate::render::art::font::LabelFont;
use crate::render::paint::palette::{Boxes, ColorMap};
use crate::render::art::pieces::PieceSet;
use crate::render::paint::raster::{self, SpriteCache};
use crate::render::scene::{Point, Rect, Run, Scene, Shape};
use std::sync::Arc;

/// Palette contexts and cell tiles kept between renders, each cache bounded by bytes.
#[derive(Debug, Clone)]
pub struct Tiles {
    contexts: ByteCache<Vec<u8>, Option<Arc<Context>>>,
    cells: ByteCache<Vec<u8>, Option<Arc<CellTile>>>,
}

impl Tiles {
    /// Caches of at most `contexts` bytes of contexts and `cells` bytes of cell tiles.
    pub fn new(contexts: u64, cells: u64) -> Tiles {
        Tiles {
            contexts: ByteCache::new("contexts", contexts),
            cells: ByteCache::new("cells", cells),
        }
    }

    /// How full each cache is.
    pub fn usage(&self) -> [Usage; 2] {
        [self.contexts.usage(), self.cells.usage()]
    }
}

impl Weight for Context {
    fn weight(&self) -> usize {
        self.bytes()
    }
}

impl Weight for CellTile {
    fn weight(&self) -> usize {
        self.bytes()
    }
}

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
    tiles: Vec<(u32, Vec<Option<Tile>>)>,
    /// The entries the base uses.
    base_uses: Entries,
    /// The palette's boxes (box `i` is entry `i`), which a render may grow.
    boxes: Boxes,
}

/// A piece on a plain colour as indices, and the entries it uses.
#[derive(Debug, Clone)]
struct Tile {
    indices: Vec<u8>,
    uses: Entries,
}

/// A set of palette entries.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
struct Entries([u64; 4]);

impl Entries {
    fn insert(&mut self, i: u8) {
        self.0[usize::from(i >> 6)] |= 1 << (i & 63);
    }
    fn contains(&self, i: u8) -> bool {
        self.0[usize::from(i >> 6)] & (1 << (i & 63)) != 0
    }
    fn union(&mut self, other: &Entries) {
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
    /// piece is composited on each square colour in a buffer of one square.
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

        let (mut rgba, mut counts) = (Vec::new(), ColorMap::default());
        let mut tiles = Vec::with_capacity(colours.len());
        for &colour in &colours {
            let mut row = vec![None; Piece::all().count()];
            for piece in Piece::all() {
                let Some(sprite) = sprites.sprite(set, piece, square, square) else {
                    continue;
                };
                raster::composite(&sprite, colour.to_le_bytes(), &mut rgba);
                let Some(colours) = by_frequency(&rgba, &mut counts) else {
                    continue;
                };
                if palette.add(&colours, false) {
                    let mut indices = Vec::with_capacity(rgba.len() / 4);
                    palette.convert(&rgba, &mut indices);
                    // The entries its colours were given: each colour is some pixel's.
                    let mut uses = Entries::default();
                    for &c in &colours {
                        uses.insert(palette.exact.get(c).unwrap_or(0) as u8);
                    }
                    row[piece.index()] = Some(Tile { indices, uses });
                }
            }
            tiles.push((colour, row));
        }
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
    fn entry(&self, colour: u32) -> Option<u8> {
        self.colors.get(colour).map(|i| i as u8)
    }

    /// The plain cell of the grid `rect` is exactly, by number.
    fn cell_of(&self, rect: Rect) -> Option<usize> {
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
    fn cells_of_run(&self, run: Rect, out: &mut impl FnMut(usize)) -> bool {
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
    fn cell_rect(&self, cell: usize) -> Rect {
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
    fn cell_mark(&self, shape: &Shape) -> Option<usize> {
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
    fn tile(&self, piece: Piece, rect: Rect) -> Option<&Tile> {
        let colour = self.cells[self.cell_of(rect)?];
        let (_, row) = self.tiles.iter().find(|(c, _)| *c == colour)?;
        row[piece.index()].as_ref()
    }
}

/// A marked cell (last move, highlight, check glow; with or without a piece) as the
/// colours it is painted in and each pixel's number among them: converted per render by
/// colour, not by pixel.
#[derive(Debug)]
pub struct CellTile {
    /// Colours (RGBA as a little-endian `u32`) and how many pixels have each.
    colours: Vec<(u32, u32)>,
    /// Each pixel's number in `colours`, `square` rows of `square`.
    local: Vec<u16>,
}

impl CellTile {
    /// Bytes held (for the cache's weigher).
    pub fn bytes(&self) -> usize {
        self.local.capacity() * 2 + self.colours.capacity() * 8 + std::mem::size_of::<CellTile>()
    }

    /// `rgba` as a tile; `None` if a pixel is translucent or it has 65,535 colours or more.
    fn of(rgba: &[u8]) -> Option<CellTile> {
        let mut map = ColorMap::default();
        // Room for every pixel a colour of its own at most half full.
        map.reset((rgba.len() / 2).clamp(512, 1 << 17).next_power_of_two());
        let mut colours: Vec<(u32, u32)> = Vec::new();
        let mut local = Vec::with_capacity(rgba.len() / 4);
        for p in rgba.chunks_exact(4) {
            let colour = u32::from_le_bytes([p[0], p[1], p[2], p[3]]);
            if colour >> 24 != 255 {
                return None;
            }
            let n = match map.get(colour) {
                Some(n) => n,
                None => {
                    let n = colours.len() as u16;
                    if n == u16::MAX || !map.insert(colour, n) {
                        return None;
                    }
                    colours.push((colour, 0));
                    n
                }
            };
            colours[usize::from(n)].1 += 1;
            local.push(n);
        }
        Some(CellTile { colours, local })
    }
}

/// The tile of `cell` of `context` with `marks` (the scene's, in order) and `piece` on it
/// and `overlays` (the scene's, in order) over them, from the cell cache.
fn cell_tile(
    context: &Context,
    (set, sprites, tiles): (&PieceSet, &SpriteCache, &Tiles),
    cell: usize,
    (marks, piece, overlays): (&[&Shape], Option<Piece>, &[&Shape]),
    (w, h): (u32, u32),
) -> Option<std::sync::Arc<CellTile>> {
    let (rect, colour) = (context.cell_rect(cell), context.cells[cell]);
    let mut key = Vec::with_capacity(64);
    key.extend_from_slice(set.shared_name().as_bytes());
    key.push(0);
    key.extend_from_slice(&context.square.to_le_bytes());
    key.extend_from_slice(&colour.to_le_bytes());
    key.push(piece.map_or(u8::MAX, |p| p.index() as u8));
    key.extend_from_slice(&(marks.len() as u32).to_le_bytes());
    for mark in marks {
        raster::describe(mark, (rect.x as f32, rect.y as f32), &mut key);
    }
    if !overlays.is_empty() {
        // Overlays come from their stamps in the image, which are cut where the image
        // ends: one cut there is described where it is, not only relative to the cell.
        key.extend_from_slice(&w.to_le_bytes());
        key.extend_from_slice(&h.to_le_bytes());
        for overlay in overlays {
            raster::describe(overlay, (rect.x as f32, rect.y as f32), &mut key);
            if raster::cut_at_edges(overlay, (w, h)) {
                key.push(1);
                key.extend_from_slice(&rect.x.to_le_bytes());
                key.extend_from_slice(&rect.y.to_le_bytes());
            } else {
                key.push(0);
            }
        }
    }
    tiles.cells.get_with(key, || {
        let at = (rect.x, rect.y, rect.w);
        let layers = (marks, piece, overlays);
        let rgba = raster::paint_cell(set, sprites, at, colour, layers, (w, h));
        CellTile::of(&rgba).map(std::sync::Arc::new)
    })
}

/// The context of `scene`'s board with pieces from `set`, from the context cache (`None`,
/// also cached, when the board does not fit a palette).
pub fn context(
    scene: &Scene,
    set: &PieceSet,
    (sprites, tiles): (&SpriteCache, &Tiles),
    font: &LabelFont,
    labels: bool,
) -> Option<std::sync::Arc<Context>> {
    // A caption is painted in RGBA (its glyphs are not the label font's).
    if !scene.caption.is_empty() {
        return None;
    }
    tiles
        .contexts
        .get_with(context_key(scene, set, labels), || {
            Context::build(scene, set, sprites, font, labels).map(std::sync::Arc::new)
        })
}

/// Whether the context of `scene`'s board with pieces from `set` is held (so a render of
/// it costs a composition and an encoding, not a context build).
pub fn has_context(scene: &Scene, set: &PieceSet, tiles: &Tiles, labels: bool) -> bool {
    scene.caption.is_empty()
        && tiles
            .contexts.contains(&context_key(scene, set, labels))
}

/// The key of a context: the base's description, the square size, the piece set.
fn context_key(scene: &Scene, set: &PieceSet, labels: bool) -> Vec<u8> {
    let mut key = crate::render::scene::base_key(scene, labels);
    key.extend_from_slice(&scene.square.to_le_bytes());
    key.extend_from_slice(set.shared_name().as_bytes());
    key
}

/// Buffers of indexed renders, kept per thread.
#[derive(Debug, Default)]
pub struct Scratch {
    /// The diagram as palette indices.
    pub indices: Vec<u8>,
    /// The palette of this render (RGB triplets): the context's, plus colours of the
    /// marked cells and dirty pixels it lacked.
    pub palette: Vec<u8>,
    dirty: Vec<Rect>,
    /// Marks and overlays on plain cells, as (cell, whether an overlay, number in the
    /// scene's marks or overlays), sorted: per cell, the marks then the overlays, in order.
    marked: Vec<(usize, bool, usize)>,
    /// Marked cells a piece stands on.
    occupied: Vec<usize>,
    /// The marked cells' tiles and where they go (top-left corner).
    placed: Vec<(std::sync::Arc<CellTile>, usize, usize)>,
    /// Per colour of each placed tile in turn, its code in pass one of [`convert`].
    cell_codes: Vec<u16>,
    /// A placed tile's colours' entries, by the tile's numbers.
    lut: Vec<u8>,
    /// The dirty pixels as row runs, sorted, none overlapping.
    spans: Vec<Run>,
    /// Entries the composed (clean) parts and the dirty pixels' known colours use.
    used: Entries,
    /// Colours of the dirty pixels the context lacks: colour → number in `extra`.
    unknown: ColorMap,
    extra: Vec<Extra>,
    /// Each dirty pixel's code in pass one of [`convert`].
    codes: Vec<u16>,
    /// The numbers of `extra`, most frequent first.
    order: Vec<u16>,
    boxes: Boxes,
}

/// Most colours the marked cells and dirty pixels may add to the context's.
const MAX_EXTRA: usize = 512;

/// A colour of the marked cells or dirty pixels that the context lacks.
#[derive(Debug, Clone, Copy)]
struct Extra {
    colour: u32,
    count: u32,
    entry: u8,
}

impl Scratch {
    /// The pixels the last [`compose`] could not compose, as sorted row runs, none
    /// overlapping.
    pub fn dirty(&self) -> &[Run] {
        &self.spans
    }

    /// Bytes held.
    pub fn capacity(&self) -> usize {
        self.indices.capacity()
            + self.palette.capacity()
            + self.unknown.slots.len() * 8
            + self.extra.capacity() * 12
            + self.dirty.capacity() * 16
            + (self.marked.capacity() + self.placed.capacity()) * 24
            + self.occupied.capacity() * 8
            + self.cell_codes.capacity() * 2
            + self.spans.capacity() * 12
            + self.codes.capacity() * 2
            + self.order.capacity() * 2
            + self.lut.capacity()
    }
}

/// Compose `scene` from `context` into `scratch.indices`: plain cells and pieces on them
/// from the context's tiles; marked cells (fills of a whole cell, check glows) with their
/// pieces from the cell cache, to be converted by colour in [`convert`]; and list the
/// pixels it could not compose as row runs ([`Scratch::dirty`]). Returns whether there
/// are any: then the caller paints the RGBA pixels there before calling [`convert`].
pub fn compose(
    context: &Context,
    scene: &Scene,
    caches: (&PieceSet, &SpriteCache, &Tiles),
    font: &LabelFont,
    labels_in_margin: bool,
    scratch: &mut Scratch,
) -> bool {
    scratch.indices.clear();
    scratch.indices.extend_from_slice(&context.base);
    scratch.palette.clear();
    scratch.palette.extend_from_slice(&context.palette);
    scratch.used = context.base_uses;
    scratch.dirty.clear();
    mark_cells(context, scene, caches.1, scratch);
    place_pieces(context, scene, caches, scratch);
    // Figures have no tiles: their squares are painted in RGBA (`scene/figure.rs`).
    scratch.dirty.extend(scene.figures.iter().map(|f| f.rect));
    if !labels_in_margin {
        let (w, h) = (scene.width, scene.height);
        for l in &scene.labels {
            if let Some(ink) = ink_box(font, l) {
                push_clipped(&mut scratch.dirty, ink, w, h);
            }
        }
    }
    cover(&scratch.dirty, &mut scratch.spans);
    !scratch.dirty.is_empty()
}

/// The pixels `shape` paints, as the runs of its stamp or else boxes around it, onto
/// `dirty`.
fn bound(sprites: &SpriteCache, shape: &Shape, scene: &Scene, dirty: &mut Vec<Rect>) {
    let (w, h) = (scene.width, scene.height);
    if !raster::footprint(sprites, shape, (w, h), &mut |r| dirty.push(r)) {
        let square = scene.square.max(1) as f32;
        shape_bounds(shape, square, &mut |b| push_clipped(dirty, b, w, h));
    }
}

/// Sort the marks and overlays: onto the plain cells they lie on (`scratch.marked`), or
/// dirty.
fn mark_cells(context: &Context, scene: &Scene, sprites: &SpriteCache, scratch: &mut Scratch) {
    let (marked, dirty) = (&mut scratch.marked, &mut scratch.dirty);
    marked.clear();
    for (i, shape) in scene.marks.iter().enumerate() {
        match context.cell_mark(shape) {
            Some(cell) => marked.push((cell, false, i)),
            None => bound(sprites, shape, scene, dirty),
        }
    }
    // An overlay whose painted pixels all lie on plain cells goes onto those cells' tiles;
    // any other is dirty.
    for (i, shape) in scene.overlays.iter().enumerate() {
        let before = marked.len();
        let mut on_cells = true;
        let size = (scene.width, scene.height);
        let stamped = raster::footprint(sprites, shape, size, &mut |run| {
            on_cells &= context.cells_of_run(run, &mut |cell| marked.push((cell, true, i)));
        });
        if !stamped || !on_cells {
            marked.truncate(before);
            bound(sprites, shape, scene, dirty);
        }
    }
    marked.sort_unstable();
    marked.dedup();
}

/// The pieces from the context's tiles, and the marked cells (with their pieces) from the
/// cell cache into `scratch.placed`; what neither has is dirty.
fn place_pieces(
    context: &Context,
    scene: &Scene,
    (set, sprites, tiles): (&PieceSet, &SpriteCache, &Tiles),
    scratch: &mut Scratch,
) {
    let (w, h) = (scene.width, scene.height);
    let Scratch {
        indices,
        used,
        dirty,
        marked,
        occupied,
        placed,
        ..
    } = scratch;
    occupied.clear();
    placed.clear();
    let marks_on = |cell: usize| {
        let from = marked.partition_point(|&(c, _, _)| c < cell);
        let to = marked.partition_point(|&(c, _, _)| c <= cell);
        &marked[from..to]
    };
    let (mut under, mut over): (Vec<&Shape>, Vec<&Shape>) = (Vec::new(), Vec::new());
    // A marked cell goes into `placed`, or is dirty when its tile has too many colours.
    let mut place = |cell: usize, piece: Option<Piece>, dirty: &mut Vec<Rect>| {
        under.clear();
        over.clear();
        for &(_, overlay, i) in marks_on(cell) {
            match overlay {
                false => under.push(&scene.marks[i]),
                true => over.push(&scene.overlays[i]),
            }
        }
        let rect = context.cell_rect(cell);
        let layers = (&under[..], piece, &over[..]);
        match cell_tile(context, (set, sprites, tiles), cell, layers, (w, h)) {
            Some(tile) => placed.push((tile, rect.x as usize, rect.y as usize)),
            None => dirty.push(rect),
        }
    };
    let width = w as usize;
    for p in &scene.pieces {
        let cell = context.cell_of(p.rect);
        if let Some(cell) = cell.filter(|&c| !marks_on(c).is_empty()) {
            occupied.push(cell);
            place(cell, Some(p.piece), dirty);
            continue;
        }
        match context.tile(p.piece, p.rect) {
            Some(tile) => {
                let (x, y, sq) = (p.rect.x as usize, p.rect.y as usize, p.rect.w as usize);
                for (row, src) in tile.indices.chunks_exact(sq).enumerate() {
                    indices[(y + row) * width + x..][..sq].copy_from_slice(src);
                }
                used.union(&tile.uses);
            }
            None => dirty.push(p.rect),
        }
    }
    occupied.sort_unstable();
    let mut cells: Vec<usize> = marked.iter().map(|&(c, _, _)| c).collect();
    cells.dedup();
    for cell in cells {
        if occupied.binary_search(&cell).is_err() {
            place(cell, None, dirty);
        }
    }
}

/// The box around the ink of `label`'s glyph, in pixels (left, top, right, bottom); `None`
/// when it has no ink.
fn ink_box(font: &LabelFont, label: &crate::render::scene::Label) -> Option<(f32, f32, f32, f32)> {
    let ink = font.glyph(label.ch)?.path.as_ref()?.bounds();
    let s = label.scale;
    Some((
        label.x + ink.left() * s,
        label.y - ink.bottom() * s,
        label.x + ink.right() * s,
        label.y - ink.top() * s,
    ))
}

/// The pixels of `rects` as row runs in `runs`, sorted, none overlapping: the
/// rectangles overlap (a piece on a highlighted square, an arrow over pieces), and this
/// way each dirty pixel is converted once.
fn cover(rects: &[Rect], runs: &mut Vec<Run>) {
    runs.clear();
    for r in rects {
        runs.extend((r.y..r.y + r.h).map(|y| Run {
            y,
            x0: r.x,
            x1: r.x + r.w,
        }));
    }
    runs.sort_unstable();
    let mut kept = 0usize;
    for i in 0..runs.len() {
        let run = runs[i];
        match kept.checked_sub(1) {
            Some(k) if runs[k].y == run.y && run.x0 <= runs[k].x1 => {
                runs[k].x1 = runs[k].x1.max(run.x1);
            }
            _ => {
                runs[kept] = run;
                kept += 1;
            }
        }
    }
    runs.truncate(kept);
}

/// Finish the last [`compose`]: convert the marked cells' tiles by colour, and the dirty
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
            // In horizontal bands: each band is covered from the leftmost to the rightmost
            // point of the outline within it, so a diagonal arrow is a staircase of thin
            // boxes rather than its bounding box.
            let (top, bottom) = points
                .iter()
                .fold((f32::MAX, f32::MIN), |(t, b), p| (t.min(p.1), b.max(p.1)));
            let band = (square / 4.0).max(8.0);
            let bands = ((bottom - top) / band).ceil().clamp(1.0, 256.0) as u32;
            let band = (bottom - top) / bands as f32;
            for i in 0..bands {
                let (y0, y1) = (top + band * i as f32, top + band * (i + 1) as f32);
                let (mut left, mut right) = (f32::MAX, f32::MIN);
                let edges = points.iter().zip(points.iter().cycle().skip(1));
                for (&(ax, ay), &(bx, by)) in edges {
                    let (lo, hi) = (ay.min(by).max(y0), ay.max(by).min(y1));
                    if lo > hi {
                        continue;
                    }
                    // x where the edge is at height y (either end when it is horizontal).
                    let at = |y: f32| {
                        if ay == by {
                            (ax.min(bx), ax.max(bx))
                        } else {
                            let x = ax + (bx - ax) * ((y - ay) / (by - ay));
                            (x, x)
                        }
                    };
                    for (l, r) in [at(lo), at(hi)] {
                        (left, right) = (left.min(l), right.max(r));
                    }
                }
                if left <= right {
                    out((left, y0, right, y1));
                }
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

/// The distinct colours of opaque `rgba`, most frequent first, counted in `counts` (run by
/// run: most pixels continue a run); `None` if any pixel is translucent.
fn by_frequency(rgba: &[u8], counts: &mut ColorMap) -> Option<Vec<u32>> {
    counts.reset(1024);
    let mut order: Vec<(u32, u32)> = Vec::new();
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
        let Some(colours) = by_frequency(&patch, &mut counts) else {
            return false;
        };
        if !palette.add(&colours, true) {
            return false;
        }
        let mut converted = Vec::with_capacity(pw * ph);
        palette.convert(&patch, &mut converted);
        for (row, src) in converted.chunks_exact(pw).enumerate() {
            let y = y0 as usize + row;
            indices[y * w as usize + x0 as usize..][..pw].copy_from_slice(src);
        }
    }
    true
}

/// A palette being built: boxes (box `i` is entry `i`) and the exact colours each draws.
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

    /// `rgba`'s pixels as indices onto `out` (every colour must have been added).
    fn convert(&self, rgba: &[u8], out: &mut Vec<u8>) {
        let (mut last, mut entry) = (0u32, 0u8);
        out.extend(rgba.chunks_exact(4).map(|p| {
            let colour = u32::from_le_bytes([p[0], p[1], p[2], p[3]]);
            if colour != last {
                (last, entry) = (colour, self.exact.get(colour).unwrap_or(0) as u8);
            }
            entry
        }));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Renderer;
    use crate::render::paint::palette::PALETTE_TOLERANCE;
    use crate::request::Request;

    /// Compose `query` the way `Renderer::png` does; the scratch and whether it was dirty.
    fn composed(renderer: &Renderer, query: &str) -> (Scratch, bool) {
        let r = Request::from_query(query, None).expect("valid");
        let set = renderer.set(&r.options).expect("set");
        let scene = renderer.scene(&r.position, &r.options);
        let font = LabelFont::builtin();
        let labels = scene.labels_in_margin;
        let caches = (renderer.sprites(), renderer.tiles());
        let context = context(&scene, set, caches, font, labels).expect("fits");
        let mut scratch = Scratch::default();
        let layers = (set, renderer.sprites(), renderer.tiles());
        let dirty = compose(&context, &scene, layers, font, labels, &mut scratch);
        // Stale, translucent pixels: outside the dirty runs nothing may read them.
        let mut rgba = vec![0x7f; scene.width as usize * scene.height as usize * 4];
        if dirty {
            let within = Some(scratch.dirty());
            let sprites = renderer.sprites();
            assert!(raster::paint_within(
                &scene, set, sprites, font, within, &mut rgba
            ));
        }
        assert!(
            convert(&context, &rgba, &mut scratch),
            "{query}: no palette"
        );
        (scratch, dirty)
    }

    /// Largest channel difference between the indexed image and the full-colour render.
    fn max_difference(renderer: &Renderer, query: &str, scratch: &Scratch) -> u8 {
        let r = Request::from_query(query, None).expect("valid");
        let full = renderer.pixmap(&r.position, &r.options).expect("renders");
        let mut worst = 0;
        for (i, px) in full.pixels().iter().enumerate() {
            let e = scratch.indices[i] as usize * 3;
            let c = px.demultiply();
            let want = [c.red(), c.green(), c.blue()];
            for (k, w) in want.iter().enumerate() {
                worst = worst.max(scratch.palette[e + k].abs_diff(*w));
            }
        }
        worst
    }

    #[test]
    fn overlapping_rectangles_cover_each_pixel_once() {
        let rect = |x, y, w, h| Rect { x, y, w, h };
        let rects = [
            rect(10, 10, 5, 2),
            rect(12, 11, 6, 2),
            rect(0, 11, 3, 1),
            rect(3, 11, 2, 1),
        ];
        let mut spans = Vec::new();
        cover(&rects, &mut spans);
        let got: Vec<_> = spans.iter().map(|r| (r.y, r.x0, r.x1)).collect();
        let want = [(10, 10, 15), (11, 0, 5), (11, 10, 18), (12, 12, 18)];
        assert_eq!(got, want);
    }

    #[test]
    fn a_plain_position_is_only_tiles() {
        let renderer = Renderer::default();
        let query = "fen=r1bqkb1r/pppp1ppp/2n2n2/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR";
        let (scratch, dirty) = composed(&renderer, query);
        assert!(!dirty, "a plain diagram needed painting");
        assert!(max_difference(&renderer, query, &scratch) <= PALETTE_TOLERANCE);
    }

    #[test]
    fn arrows_circles_and_crosses_on_the_board_are_cell_tiles_not_dirty() {
        let renderer = Renderer::default();
        for query in [
            "fen=rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR_w_KQkq_-_1_3\
             &lastMove=d8h4&check=auto&arrows=Gh4e1,Rg2g3,Yb1c3&highlight=Ge5,Rf3",
            "fen=start&arrows=Ga1h8,Rb1c3,Yd4&squares=e5,d2&orientation=black&size=333",
        ] {
            let (scratch, dirty) = composed(&renderer, query);
            assert!(!dirty, "{query}: arrows needed painting");
            assert!(!scratch.placed.is_empty(), "{query}: no cell tiles");
            assert!(max_difference(&renderer, query, &scratch) <= PALETTE_TOLERANCE);
        }
    }

    #[test]
    fn labels_on_the_board_are_dirty_and_converted() {
        let renderer = Renderer::default();
        let query = "fen=start&coordinates=inside&arrows=Ge2e4,Ra1a8&size=360";
        let (scratch, dirty) = composed(&renderer, query);
        assert!(dirty, "labels on the board were not seen as dirty");
        assert!(max_difference(&renderer, query, &scratch) <= PALETTE_TOLERANCE);
    }

    #[test]
    fn marked_squares_are_cell_tiles_not_dirty() {
        // Last move, a check glow, highlights (two marks on f3: last move and highlight,
        // and one on an empty square) come from the cell cache: nothing is painted.
        let renderer = Renderer::default();
        for query in [
            "fen=rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR_w_KQkq_-_1_3\
             &lastMove=d8h4&check=auto&highlight=Ge5,Rf3,Yh4",
            "fen=start&lastMove=g1f3&highlight=Rf3&orientation=black&size=333",
        ] {
            let (scratch, dirty) = composed(&renderer, query);
            assert!(!dirty, "{query}: marked squares needed painting");
            assert!(!scratch.placed.is_empty(), "{query}: no cell tiles");
            assert!(max_difference(&renderer, query, &scratch) <= PALETTE_TOLERANCE);
        }
    }

    #[test]
    fn inside_coordinates_are_dirty_and_converted() {
        let renderer = Renderer::default();
        let query = "fen=start&coordinates=inside&orientation=black&size=333";
        let (scratch, dirty) = composed(&renderer, query);
        assert!(dirty, "labels on the board were not seen as dirty");
        assert!(max_difference(&renderer, query, &scratch) <= PALETTE_TOLERANCE);
    }
}
