//! Composition: a diagram written as palette indices from its context ([`compose`]): the
//! base, pieces on plain cells from the context's tiles, marked cells from the cell cache;
//! and what neither covers listed as dirty row runs, for the caller to paint in RGBA.
//! Also the per-thread buffers ([`Scratch`]) that composition and conversion share.

use super::context::{Context, Entries, ink_box};
use super::tiles::{CellTile, Tiles, cell_tile};
use crate::chess::piece::Piece;
use crate::render::art::font::LabelFont;
use crate::render::art::pieces::PieceSet;
use crate::render::paint::palette::{Boxes, ColorMap};
use crate::render::paint::raster::{self, SpriteCache};
use crate::render::scene::{Point, Rect, Run, Scene, Shape};

/// Buffers of indexed renders, kept per thread.
#[derive(Debug, Default)]
pub struct Scratch {
    /// The diagram as palette indices.
    pub indices: Vec<u8>,
    /// The palette of this render (RGB triplets): the context's, plus colours of the
    /// marked cells and dirty pixels it lacked.
    pub palette: Vec<u8>,
    pub(super) dirty: Vec<Rect>,
    /// Marks and overlays on plain cells, as (cell, whether an overlay, number in the
    /// scene's marks or overlays), sorted: per cell, the marks then the overlays, in order.
    pub(super) marked: Vec<(usize, bool, usize)>,
    /// Marked cells a piece stands on.
    pub(super) occupied: Vec<usize>,
    /// The marked cells' tiles and where they go (top-left corner).
    pub(super) placed: Vec<(std::sync::Arc<CellTile>, usize, usize)>,
    /// Per colour of each placed tile in turn, its code in pass one of [`convert`](super::convert::convert).
    pub(super) cell_codes: Vec<u16>,
    /// A placed tile's colours' entries, by the tile's numbers.
    pub(super) lut: Vec<u8>,
    /// The dirty pixels as row runs, sorted, none overlapping.
    pub(super) spans: Vec<Run>,
    /// Entries the composed (clean) parts and the dirty pixels' known colours use.
    pub(super) used: Entries,
    /// Colours of the dirty pixels the context lacks: colour → number in `extra`.
    pub(super) unknown: ColorMap,
    pub(super) extra: Vec<Extra>,
    /// Each dirty pixel's code in pass one of [`convert`](super::convert::convert).
    pub(super) codes: Vec<u16>,
    /// The numbers of `extra`, most frequent first.
    pub(super) order: Vec<u16>,
    pub(super) boxes: Boxes,
    /// Whether the last [`compose`] met more colours the context lacks than
    /// [`MAX_EXTRA`] in the marked cells' tiles, and stopped: [`convert`](super::convert::convert)
    /// would refuse it.
    pub(super) too_many_colours: bool,
}

/// Most colours the marked cells and dirty pixels may add to the context's.
pub(super) const MAX_EXTRA: usize = 512;

/// A colour of the marked cells or dirty pixels that the context lacks.
#[derive(Debug, Clone, Copy)]
pub(super) struct Extra {
    pub(super) colour: u32,
    pub(super) count: u32,
    pub(super) entry: u8,
}

impl Scratch {
    /// Whether the last [`compose`] stopped because its marked cells have more colours
    /// than a palette can add to the context's: the render needs the full-colour path,
    /// and neither painting the dirty runs nor converting would help.
    pub fn too_many_colours(&self) -> bool {
        self.too_many_colours
    }

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
/// pieces from the cell cache, to be converted by colour in [`convert`](super::convert::convert); and list the
/// pixels it could not compose as row runs ([`Scratch::dirty`]). Returns whether there
/// are any: then the caller paints the RGBA pixels there before calling [`convert`](super::convert::convert).
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
        unknown,
        too_many_colours,
        ..
    } = scratch;
    occupied.clear();
    placed.clear();
    unknown.reset(1024);
    *too_many_colours = false;
    let mut new_colours = 0;
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
            Some(tile) => {
                // Colours the context lacks, counted as `convert` counts them: past
                // MAX_EXTRA it would refuse the render, so the other cells are not made.
                for &(colour, _) in &tile.colours {
                    if context.entry(colour).is_none() && unknown.get(colour).is_none() {
                        new_colours += 1;
                        if new_colours > MAX_EXTRA || !unknown.insert(colour, 0) {
                            *too_many_colours = true;
                            break;
                        }
                    }
                }
                placed.push((tile, rect.x as usize, rect.y as usize));
            }
            None => dirty.push(rect),
        }
        !*too_many_colours
    };
    let width = w as usize;
    for p in &scene.pieces {
        let cell = context.cell_of(p.rect);
        if let Some(cell) = cell.filter(|&c| !marks_on(c).is_empty()) {
            occupied.push(cell);
            if !place(cell, Some(p.piece), dirty) {
                return;
            }
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
        if occupied.binary_search(&cell).is_err() && !place(cell, None, dirty) {
            return;
        }
    }
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

#[cfg(test)]
mod tests {
    use super::*;

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
}
