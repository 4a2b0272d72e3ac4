//! The caches an indexed render reads ([`Tiles`]): the palette contexts, by board, and the
//! marked cells' tiles ([`CellTile`]: a cell's colours and each pixel's number among
//! them), by what is painted on them; with the look-ups that fill them on a miss
//! ([`context`], `cell_tile`) and [`has_context`].

use super::context::Context;
use crate::cache::{ByteCache, Usage, Weight};
use crate::chess::piece::Piece;
use crate::render::art::font::LabelFont;
use crate::render::art::pieces::PieceSet;
use crate::render::paint::palette::ColorMap;
use crate::render::paint::raster::{self, SpriteCache};
use crate::render::scene::{Scene, Shape};
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

/// A marked cell (last move, highlight, check glow; with or without a piece) as the
/// colours it is painted in and each pixel's number among them: converted per render by
/// colour, not by pixel.
#[derive(Debug)]
pub struct CellTile {
    /// Colours (RGBA as a little-endian `u32`) and how many pixels have each.
    pub(super) colours: Vec<(u32, u32)>,
    /// Each pixel's number in `colours`, `square` rows of `square`.
    pub(super) local: Vec<u16>,
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
        // The previous pixel's colour and number: a cell is mostly runs of one colour, so
        // the map is asked once a run.
        let mut last: Option<(u32, u16)> = None;
        for p in rgba.chunks_exact(4) {
            let colour = u32::from_le_bytes([p[0], p[1], p[2], p[3]]);
            if let Some((c, n)) = last
                && c == colour
            {
                colours[usize::from(n)].1 += 1;
                local.push(n);
                continue;
            }
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
            last = Some((colour, n));
        }
        Some(CellTile { colours, local })
    }
}

impl Weight for CellTile {
    fn weight(&self) -> usize {
        self.bytes()
    }
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

/// The tile of `cell` of `context` with `marks` (the scene's, in order) and `piece` on it
/// and `overlays` (the scene's, in order) over them, from the cell cache.
pub(super) fn cell_tile(
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
