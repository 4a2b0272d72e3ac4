//! The raster backend: paints a [`Scene`] into a tiny-skia pixmap.
//!
//! Owns pixels (its stamps in `stamp`). Pieces are sprites: each piece is rasterised by resvg once per
//! (set, piece, square size) and kept in a [`SpriteCache`] bounded by bytes; every other
//! shape (marks, arrows, circles, crosses) is a stamp, painted once at its origin and kept
//! there too. A render is copies and blends of cached pixels and a few small glyph fills:
//! never an SVG parse.

use crate::cache::{ByteCache, Usage, Weight};
use crate::chess::fairy::Figure;
use crate::render::art::font::LabelFont;
use crate::render::art::pieces::PieceSet;
use crate::render::scene::figure::{self, Half, Ink, PlacedFigure};
use crate::render::scene::{Label, Rect, Run, Scene, Shape};
use crate::render::spec::theme::Rgba;
use resvg::tiny_skia::{Color, FillRule, Pixmap, PixmapMut, Rect as SkRect, Transform};
use shapes::{blend_into, clip, paint_of, paint_shape, reach, touches};
use stamp::Stamps;
use std::sync::Arc;

mod shapes;
mod stamp;
pub(crate) use shapes::cut_at_edges;
pub(crate) use stamp::{describe, holding_stamps};
use stamp::{moved, stamp};

#[derive(Debug, Clone, PartialEq, Eq, Hash)]
struct SpriteKey {
    set: Arc<str>,
    piece: u8,
    px: u32,
    hinted: bool,
}

impl Weight for SpriteKey {
    fn weight(&self) -> usize {
        0
    }
}

/// What a figure's square of pixels is painted from: the figure itself (what it is, whose,
/// how turned; never its FEN letter, which a letter piece and a Fairy marker share), the
/// set and square size its pieces are drawn from, and its ink.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
struct FigureKey {
    set: Arc<str>,
    figure: Figure,
    px: u32,
    square: u32,
    ink: [u8; 4],
}

impl Weight for FigureKey {
    fn weight(&self) -> usize {
        0
    }
}

/// Painted pixels kept between renders: pieces rasterised per (set, piece, square size),
/// and stamps, shapes painted once at the origin of the pixels they reach and blended
/// where a scene puts them (arrows, circles, crosses, glows), keyed by their exact
/// description relative to that origin.
#[derive(Debug, Clone)]
pub struct SpriteCache {
    pieces: ByteCache<SpriteKey, Option<Arc<Pixmap>>>,
    figures: ByteCache<FigureKey, Option<Arc<Pixmap>>>,
    stamps: Stamps,
}

impl Weight for Pixmap {
    fn weight(&self) -> usize {
        self.data().len()
    }
}

impl SpriteCache {
    /// Caches of at most `pieces` bytes of sprites and `stamps` bytes of stamps.
    pub fn new(pieces: u64, stamps: u64) -> SpriteCache {
        SpriteCache {
            pieces: ByteCache::new("sprites", pieces),
            figures: ByteCache::new("figures", pieces / 4),
            stamps: Stamps::new(stamps),
        }
    }

    /// The sprite of `piece` from `set` at `px` × `px`, rasterised on first use, in the
    /// drawing for a board of `square` px squares (the set's hinted drawing under
    /// [`HINT_BELOW_PX`](crate::render::art::pieces::HINT_BELOW_PX), when it has one): the
    /// board's square size picks the drawing for every piece of a diagram, pockets too, as
    /// in the SVG backend.
    pub fn sprite(
        &self,
        set: &PieceSet,
        piece: crate::chess::piece::Piece,
        px: u32,
        square: u32,
    ) -> Option<Arc<Pixmap>> {
        let art = set.art_at(piece, square);
        let key = SpriteKey {
            set: set.shared_name().clone(),
            piece: piece.index() as u8,
            px,
            hinted: !std::ptr::eq(art, set.art(piece)),
        };
        self.pieces.get_with(key, || rasterise(art, px))
    }

    /// The square of pixels of `f` (see `scene/figure.rs`), painted on first use, its pieces in
    /// the drawing for a board of `square` px squares.
    fn figure(&self, set: &PieceSet, f: &PlacedFigure, square: u32) -> Option<Arc<Pixmap>> {
        let key = FigureKey {
            set: set.shared_name().clone(),
            figure: f.figure,
            px: f.rect.w,
            square,
            ink: [f.ink.r, f.ink.g, f.ink.b, f.ink.a],
        };
        self.figures
            .get_with(key, || paint_figure(self, set, f, square).map(Arc::new))
    }

    /// How full each cache is.
    pub fn usage(&self) -> [Usage; 2] {
        [self.pieces.usage(), self.stamps.usage()]
    }
}

/// The painted run of each row of `shape` inside `w` × `h` as one-row rectangles given to
/// `out`, from its stamp in `sprites`' cache; `false` (nothing given) when the shape has no
/// stamp, and the caller must bound it another way.
pub(crate) fn footprint(
    sprites: &SpriteCache,
    shape: &Shape,
    size: (u32, u32),
    out: &mut impl FnMut(Rect),
) -> bool {
    stamp::footprint(&sprites.stamps, shape, size, out)
}

/// Rasterise one drawing into a `px` × `px` pixmap.
fn rasterise(art: &crate::render::art::pieces::PieceArt, px: u32) -> Option<Arc<Pixmap>> {
    let mut pixmap = Pixmap::new(px, px)?;
    let (vw, vh) = art.view_box;
    let transform = Transform::from_scale(px as f32 / vw, px as f32 / vh);
    resvg::render(art.tree(), transform, &mut pixmap.as_mut());
    Some(Arc::new(pixmap))
}

/// The premultiplied pixel `pixel` over `ground` (both RGBA as little-endian `u32`s),
/// blended exactly as a render blends a sprite's pixel over what is under it.
pub(crate) fn over(pixel: u32, ground: u32) -> u32 {
    match pixel >> 24 {
        255 => pixel,
        0 => ground,
        _ => {
            let mut out = ground.to_le_bytes();
            blend_into(&mut out, 4, &pixel.to_le_bytes(), 4, 1);
            u32::from_le_bytes(out)
        }
    }
}

/// `sprite` over the opaque colour `ground` (premultiplied RGBA bytes), into `out`: one
/// square of pixels, as a full render paints a piece on a plain square (the tests' way
/// to check what the palette context works out run by run).
#[cfg(test)]
pub(crate) fn composite(sprite: &Pixmap, ground: [u8; 4], out: &mut Vec<u8>) {
    let stride = sprite.width() as usize * 4;
    out.clear();
    out.resize(sprite.data().len(), 0);
    for px in out.chunks_exact_mut(4) {
        px.copy_from_slice(&ground);
    }
    blend_into(out, stride, sprite.data(), stride, sprite.height() as usize);
}

/// Paint one label onto `pixels` (premultiplied RGBA, `w` × `h`), positioned as `label`
/// says relative to those pixels.
pub(crate) fn paint_label(label: &Label, font: &LabelFont, pixels: &mut [u8], (w, h): (u32, u32)) {
    if let Some(mut pixmap) = PixmapMut::from_bytes(pixels, w, h) {
        paint_one_label(label, font, &mut pixmap);
    }
}

/// Paint `scene` with pieces from `set` (sprites from `sprites`) and labels from `font`.
///
/// `None` only if the scene has no pixels (it always has: sizes are at least 16 px).
pub fn paint(
    scene: &Scene,
    set: &PieceSet,
    sprites: &SpriteCache,
    font: &LabelFont,
) -> Option<Pixmap> {
    let mut pixmap = Pixmap::new(scene.width, scene.height)?;
    paint_into(scene, set, sprites, font, None, &mut pixmap.as_mut());
    Some(pixmap)
}

/// [`paint`] into `pixels` (premultiplied RGBA, resized to the scene), so a caller can keep
/// one buffer per thread instead of allocating an image per render. `false` only if the
/// scene has no pixels.
pub fn paint_buffer(
    scene: &Scene,
    set: &PieceSet,
    sprites: &SpriteCache,
    font: &LabelFont,
    pixels: &mut Vec<u8>,
) -> bool {
    paint_within(scene, set, sprites, font, None, pixels)
}

/// [`paint_buffer`], but only correct inside `within` when given (sorted row runs, none
/// overlapping): the base, marks, pieces and overlays are painted there only (labels on
/// the board whole); what lies outside is left as the buffer held it or half-painted. For
/// the indexed path, which reads pixels only there.
pub fn paint_within(
    scene: &Scene,
    set: &PieceSet,
    sprites: &SpriteCache,
    font: &LabelFont,
    within: Option<&[Run]>,
    pixels: &mut Vec<u8>,
) -> bool {
    let len = scene.width as usize * scene.height as usize * 4;
    pixels.resize(len, 0);
    match PixmapMut::from_bytes(pixels, scene.width, scene.height) {
        Some(mut pixmap) => {
            paint_into(scene, set, sprites, font, within, &mut pixmap);
            true
        }
        None => false,
    }
}

/// Paint every layer of `scene` over the whole of `pixmap` (the background covers it all,
/// so what the buffer held before does not matter), or only inside `within` (see
/// [`paint_within`]).
fn paint_into(
    scene: &Scene,
    set: &PieceSet,
    sprites: &SpriteCache,
    font: &LabelFont,
    within: Option<&[Run]>,
    pixmap: &mut PixmapMut,
) {
    paint_base(scene, within, pixmap);
    if scene.labels_in_margin {
        paint_labels(scene, font, pixmap);
    }
    for shape in &scene.marks {
        // A checkpoint: an arrow over a large board is milliseconds of work.
        if crate::render::cancel::requested() {
            return;
        }
        if touches(within, reach(shape)) {
            draw_shape(pixmap, sprites, shape, within);
        }
    }
    for p in &scene.pieces {
        if touches(within, p.rect) {
            place_piece(pixmap, (set, scene.square), sprites, p, within);
        }
    }
    for f in &scene.figures {
        if touches(within, f.rect)
            && let Some(sprite) = sprites.figure(set, f, scene.square)
        {
            blend_sprite(pixmap, &sprite, f.rect, within);
        }
    }
    for shape in &scene.overlays {
        if crate::render::cancel::requested() {
            return;
        }
        draw_shape(pixmap, sprites, shape, within);
    }
    if !scene.labels_in_margin {
        paint_labels(scene, font, pixmap);
    }
    paint_caption(scene, pixmap);
}

/// Fill `path` in `color`, anti-aliased, as it stands.
fn fill_path(pixmap: &mut PixmapMut, path: &resvg::tiny_skia::Path, color: Rgba) {
    pixmap.fill_path(path, &paint_of(color), FillRule::Winding, Transform::identity(), None);
}

/// The caption's lines, with the same outlines the SVG writes.
fn paint_caption(scene: &Scene, pixmap: &mut PixmapMut) {
    let Some(face) = crate::render::scene::caption::face() else {
        return;
    };
    for line in &scene.caption {
        if let Some(path) = face.svg_outline(&line.text, line.px, (line.x, line.baseline)) {
            fill_path(pixmap, &path, line.color);
        }
    }
}

/// A `px` × `px` cell of the opaque colour `colour` (premultiplied RGBA, little-endian)
/// at (`x`, `y`) of a `w` × `h` scene, with `marks` (the scene's, in place) and `piece`
/// painted on it, and `overlays` (the scene's) over them, as a full render paints them
/// there: premultiplied RGBA, `px` rows of `px` pixels. Marks must be fills of the whole
/// cell or glows on it (which paint the same at any position); others are left out.
/// Overlays are blended from their stamps in the scene, cut where the cell ends; one
/// without a stamp is left out (the caller does not put such overlays on cells).
pub(crate) fn paint_cell(
    set: &PieceSet,
    sprites: &SpriteCache,
    (x, y, px): (u32, u32, u32),
    colour: u32,
    (marks, piece, overlays): (&[&Shape], Option<crate::chess::piece::Piece>, &[&Shape]),
    (w, h): (u32, u32),
) -> Vec<u8> {
    let mut pixels = colour.to_le_bytes().repeat((px * px) as usize);
    let Some(mut pixmap) = PixmapMut::from_bytes(&mut pixels, px, px) else {
        return pixels;
    };
    let (dx, dy) = (x as f32, y as f32);
    let cell_marks = marks
        .iter()
        .filter(|s| matches!(s, Shape::Rect { .. } | Shape::Glow { .. }));
    for shape in cell_marks {
        draw_shape(&mut pixmap, sprites, &moved(shape, dx, dy), None);
    }
    if let Some(piece) = piece {
        let rect = Rect {
            x: 0,
            y: 0,
            w: px,
            h: px,
        };
        let placed = crate::render::scene::PlacedPiece { piece, rect };
        place_piece(&mut pixmap, (set, px), sprites, &placed, None);
    }
    for shape in overlays {
        if let Some((stamp, sx, sy)) = stamp(&sprites.stamps, shape, (w, h)) {
            let at = (i64::from(sx) - i64::from(x), i64::from(sy) - i64::from(y));
            stamp.blend_at(&mut pixmap, at);
        }
    }
    pixels
}

/// Background, frame and squares, over the whole pixmap or only inside `within` (as
/// opaque fills: the rows of a run are written directly).
fn paint_base(scene: &Scene, within: Option<&[Run]>, pixmap: &mut PixmapMut) {
    let (w, h) = (pixmap.width(), pixmap.height());
    let stride = w as usize * 4;
    let data = pixmap.data_mut();
    let rgba = |c: Rgba| -> [u8; 4] {
        let p = Color::from_rgba8(c.r, c.g, c.b, c.a)
            .premultiply()
            .to_color_u8();
        [p.red(), p.green(), p.blue(), p.alpha()]
    };
    let whole = Rect { x: 0, y: 0, w, h };
    let layers = std::iter::once((whole, rgba(scene.background)))
        .chain(scene.fills.iter().map(|f| (f.rect, rgba(f.color))));
    let translucent = scene.background.a != 255 || scene.fills.iter().any(|f| f.color.a != 255);
    if translucent {
        // Not met with the built-in themes: paint with tiny-skia, which blends.
        let bg = scene.background;
        pixmap.fill(Color::from_rgba8(bg.r, bg.g, bg.b, bg.a));
        for fill in &scene.fills {
            let r = fill.rect;
            if let Some(rect) = SkRect::from_xywh(r.x as f32, r.y as f32, r.w as f32, r.h as f32) {
                pixmap.fill_rect(rect, &paint_of(fill.color), Transform::identity(), None);
            }
        }
        return;
    }
    for (rect, colour) in layers {
        let rect = Rect {
            w: rect.w.min(w.saturating_sub(rect.x)),
            h: rect.h.min(h.saturating_sub(rect.y)),
            ..rect
        };
        clip(within, rect, &mut |y, x0, x1| {
            let row = &mut data[y as usize * stride..][x0 as usize * 4..x1 as usize * 4];
            for px in row.chunks_exact_mut(4) {
                px.copy_from_slice(&colour);
            }
        });
    }
}

/// The label glyphs.
fn paint_labels(scene: &Scene, font: &LabelFont, pixmap: &mut PixmapMut) {
    for label in &scene.labels {
        paint_one_label(label, font, pixmap);
    }
}

/// One label glyph.
fn paint_one_label(label: &Label, font: &LabelFont, pixmap: &mut PixmapMut) {
    let Some(path) = font.glyph(label.ch).and_then(|g| g.path.as_ref()) else {
        return;
    };
    let s = label.scale;
    pixmap.fill_path(
        path,
        &paint_of(label.color),
        FillRule::Winding,
        Transform::from_row(s, 0.0, 0.0, -s, label.x, label.y),
        None,
    );
}

/// Draw one piece inside `within`: its sprite, in the drawing for the board's `square`
/// size, blended over what is there.
fn place_piece(
    pixmap: &mut PixmapMut,
    (set, square): (&PieceSet, u32),
    sprites: &SpriteCache,
    p: &crate::render::scene::PlacedPiece,
    within: Option<&[Run]>,
) {
    if let Some(sprite) = sprites.sprite(set, p.piece, p.rect.w, square) {
        blend_sprite(pixmap, &sprite, p.rect, within);
    }
}

/// Blend `sprite` (`r`'s size) over `r` inside `within`.
fn blend_sprite(pixmap: &mut PixmapMut, sprite: &Pixmap, r: Rect, within: Option<&[Run]>) {
    let (w, h) = (pixmap.width(), pixmap.height());
    if r.w == 0 || r.x + r.w > w || r.y + r.h > h || sprite.width() != r.w {
        return;
    }
    let stride = w as usize * 4;
    let data = pixmap.data_mut();
    let px = r.w as usize;
    let sprite = sprite.data();
    clip(within, r, &mut |y, x0, x1| {
        let (row, at) = ((y - r.y) as usize * px, (x0 - r.x) as usize);
        let src = &sprite[(row + at) * 4..(row + at + (x1 - x0) as usize) * 4];
        let dst = y as usize * stride + x0 as usize * 4;
        blend_into(&mut data[dst..], stride, src, src.len(), 1);
    });
}

/// Paint the figure `f` on a transparent square of its size: its layers upright (a
/// neutral figure's halves each on a square of their own, joined at the split), then
/// turned by whole quarters, which moves pixels without resampling them.
fn paint_figure(
    sprites: &SpriteCache,
    set: &PieceSet,
    f: &PlacedFigure,
    square: u32,
) -> Option<Pixmap> {
    let px = f.rect.w;
    let (mut left, mut right) = (Pixmap::new(px, px)?, Pixmap::new(px, px)?);
    let stride = px as usize * 4;
    let mut halved = false;
    for layer in figure::layers(f) {
        halved |= layer.half == Half::Right;
        let target = match layer.half {
            Half::Right => &mut right,
            _ => &mut left,
        };
        match &layer.ink {
            Ink::Piece(piece) => {
                if let Some(sprite) = sprites.sprite(set, *piece, px, square) {
                    let rows = px as usize;
                    blend_into(target.data_mut(), stride, sprite.data(), stride, rows);
                }
            }
            Ink::Shape(shape) => paint_shape(&mut target.as_mut(), shape),
            Ink::Text {
                text,
                bold,
                px: size,
                origin,
                color: c,
            } => {
                if let Some(path) = figure::face(*bold).and_then(|f| f.svg_outline(text, *size, *origin)) {
                    fill_path(&mut target.as_mut(), &path, *c);
                }
            }
        }
    }
    if halved {
        let from = figure::split(px) as usize * 4;
        let src = right.data();
        for (d, s) in left.data_mut().chunks_exact_mut(stride).zip(src.chunks_exact(stride)) {
            d[from..].copy_from_slice(&s[from..]);
        }
    }
    let quarters = f.quarters();
    if quarters == 0 {
        return Some(left);
    }
    let mut turned = Pixmap::new(px, px)?;
    let src = left.data();
    for (i, dst) in turned.data_mut().chunks_exact_mut(4).enumerate() {
        let at = (i as u32 % px, i as u32 / px);
        let (x, y) = figure::turned_from(quarters, px, at);
        let from = (y as usize * px as usize + x as usize) * 4;
        dst.copy_from_slice(&src[from..from + 4]);
    }
    Some(turned)
}

/// Draw one shape as resvg draws its SVG form (same paths, same paint settings), inside
/// `within`: blended from its [`Stamp`] (painted once at the origin of the pixels it
/// reaches), or painted in place when it reaches too many pixels to keep.
fn draw_shape(
    pixmap: &mut PixmapMut,
    sprites: &SpriteCache,
    shape: &Shape,
    within: Option<&[Run]>,
) {
    match stamp(&sprites.stamps, shape, (pixmap.width(), pixmap.height())) {
        Some((stamp, x, y)) => stamp.blend(pixmap, x, y, within),
        None => paint_shape(pixmap, shape),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::render::scene::Point;

    /// A set loaded afresh from the files of `folder` in assets/pieces, without hints.
    fn assets_set(folder: &str) -> PieceSet {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("assets/pieces");
        PieceSet::from_sources(folder, |p| {
            std::fs::read_to_string(dir.join(folder).join(format!("{}.svg", p.code()))).ok()
        })
        .expect("loads")
    }

    #[test]
    fn small_squares_use_the_hinted_drawing_and_classic_never_hints() {
        use crate::render::art::pieces::HINT_BELOW_PX;
        let sprites = SpriteCache::new(1 << 24, 1 << 20);
        let set = PieceSet::builtin();
        let classic = PieceSet::builtin_classic();
        assert!(set.has_hints() && !classic.has_hints());
        let (full, hinted, old) = (
            assets_set("staunton"),
            assets_set("staunton/small"),
            assets_set("staunton-classic"),
        );
        let pixels = |sprite: Option<Arc<Pixmap>>| sprite.expect("drawn").data().to_vec();
        let small = HINT_BELOW_PX - 1;
        for piece in crate::chess::piece::Piece::all() {
            let drawn = pixels(sprites.sprite(&set, piece, small, small));
            assert!(drawn == pixels(rasterise(hinted.art(piece), small)), "{piece}");
            // Every hinted drawing is a silhouette, not the full drawing.
            assert!(drawn != pixels(rasterise(full.art(piece), small)), "{piece}");
            // A small piece (a pocket's) on a board of large squares: the board's drawing.
            let pocket = pixels(sprites.sprite(&set, piece, small, HINT_BELOW_PX));
            assert!(pocket == pixels(rasterise(full.art(piece), small)), "{piece}");
            for px in [HINT_BELOW_PX, HINT_BELOW_PX + 10] {
                let drawn = pixels(sprites.sprite(&set, piece, px, px));
                assert!(drawn == pixels(rasterise(full.art(piece), px)), "{piece} {px}");
            }
            for px in [8, small, HINT_BELOW_PX] {
                let drawn = pixels(sprites.sprite(&classic, piece, px, px));
                assert!(drawn == pixels(rasterise(old.art(piece), px)), "{piece} {px}");
            }
        }
    }

    fn glow(center: Point, radius: f32) -> Shape {
        let stops = vec![
            (0.0, Rgba::hex(0xff2a1a)),
            (0.3, Rgba::hex(0xe8200f).with_alpha(0xe0)),
            (1.0, Rgba::hex(0xa00000).with_alpha(0)),
        ];
        Shape::Glow {
            center,
            radius,
            stops,
        }
    }

    /// One of each stamped kind, at whole and fractional positions, some reaching over
    /// the edge of a 120 px image.
    fn shapes() -> Vec<Shape> {
        let green = Rgba::hex(0x15781b).with_alpha(0xcc);
        vec![
            glow((60.0, 47.0), 23.0),
            glow((30.5, 81.5), 20.5),
            glow((60.3, 47.0), 23.0),
            glow((110.0, 60.0), 20.0),
            Shape::Polygon {
                points: vec![(10.0, 10.0), (90.3, 70.6), (84.1, 78.9), (3.8, 18.3)],
                color: green,
            },
            Shape::Line {
                points: vec![(20.0, 100.0), (60.5, 60.0), (100.0, 100.0)],
                width: 5.5,
                color: Rgba::hex(0x882020).with_alpha(0xcc),
            },
            Shape::Ring {
                center: (112.5, 8.25),
                radius: 14.0,
                width: 3.0,
                color: green,
            },
            Shape::Disc {
                center: (40.0, 40.0),
                radius: 9.7,
                color: Rgba::hex(0x003088),
            },
        ]
    }

    /// `shape` on a grey 120 × 120 pixmap, through the stamp cache or painted in place.
    fn on_grey(shape: &Shape, sprites: Option<&SpriteCache>) -> Pixmap {
        let mut pixmap = Pixmap::new(120, 120).expect("pixmap");
        pixmap.fill(Color::from_rgba8(0x80, 0x90, 0xa0, 0xff));
        match sprites {
            Some(sprites) => draw_shape(&mut pixmap.as_mut(), sprites, shape, None),
            None => paint_shape(&mut pixmap.as_mut(), shape),
        }
        pixmap
    }

    fn worst(a: &Pixmap, b: &Pixmap) -> u8 {
        let diffs = a.data().iter().zip(b.data()).map(|(a, b)| a.abs_diff(*b));
        diffs.max().unwrap_or(0)
    }

    #[test]
    fn a_stamped_shape_matches_the_shape_painted_in_place() {
        let sprites = SpriteCache::new(1 << 20, 1 << 20);
        let grey = on_grey(&glow((0.0, 0.0), 0.0), None);
        for shape in shapes() {
            let stamped = on_grey(&shape, Some(&sprites));
            let painted = on_grey(&shape, None);
            assert!(
                stamp(&sprites.stamps, &shape, (120, 120)).is_some(),
                "{shape:?} was not stamped"
            );
            let worst = worst(&stamped, &painted);
            assert!(worst <= 2, "{shape:?}: stamp differs by {worst}");
            assert!(stamped.data() != grey.data(), "{shape:?} painted nothing");
        }
    }

    #[test]
    fn a_shape_moved_by_whole_pixels_reuses_its_stamp() {
        let sprites = SpriteCache::new(1 << 20, 1 << 20);
        let polygon = |dx: f32, dy: f32| Shape::Polygon {
            points: vec![
                (10.0 + dx, 10.5 + dy),
                (40.25 + dx, 30.0 + dy),
                (12.0 + dx, 33.0 + dy),
            ],
            color: Rgba::hex(0xe68f00).with_alpha(0xcc),
        };
        let (first, _, _) = stamp(&sprites.stamps, &polygon(0.0, 0.0), (120, 120)).expect("stamped");
        let (again, x, y) = stamp(&sprites.stamps, &polygon(50.0, 64.0), (120, 120)).expect("stamped");
        assert!(
            Arc::ptr_eq(&first, &again),
            "moved by whole pixels, painted again"
        );
        assert_eq!((x, y), (59, 73));
        let (other, _, _) = stamp(&sprites.stamps, &polygon(50.5, 64.0), (120, 120)).expect("stamped");
        assert!(
            !Arc::ptr_eq(&first, &other),
            "moved by half a pixel, same stamp"
        );
        let moved = polygon(50.0, 64.0);
        assert!(worst(&on_grey(&moved, Some(&sprites)), &on_grey(&moved, None)) <= 2);
    }

    #[test]
    fn a_render_holds_its_stamps_when_the_stamp_cache_cannot() {
        // A stamp cache of one byte keeps nothing: outside a render, every ask paints anew;
        // inside one, the first painting is held to its end.
        let sprites = SpriteCache::new(1 << 20, 1);
        let shape = &shapes()[4];
        let ask = || stamp(&sprites.stamps, shape, (120, 120)).expect("stamped").0;
        assert!(!Arc::ptr_eq(&ask(), &ask()), "the cache kept a stamp");
        let (first, again) = holding_stamps(|| (ask(), holding_stamps(ask)));
        assert!(Arc::ptr_eq(&first, &again), "painted twice in one render");
        assert!(!Arc::ptr_eq(&first, &ask()), "held after the render ended");
    }

    #[test]
    fn a_shape_reaching_too_many_pixels_is_painted_in_place() {
        let sprites = SpriteCache::new(1 << 20, 1 << 20);
        let huge = Shape::Disc {
            center: (600.0, 600.0),
            radius: 590.0,
            color: Rgba::hex(0x003088),
        };
        assert!(stamp(&sprites.stamps, &huge, (1200, 1200)).is_none());
        let mut out = Vec::new();
        assert!(!footprint(&sprites, &huge, (1200, 1200), &mut |r| out.push(r)));
        let mut pixmap = Pixmap::new(1200, 1200).expect("pixmap");
        draw_shape(&mut pixmap.as_mut(), &sprites, &huge, None);
        let centre = pixmap.pixel(600, 600).expect("inside");
        assert_eq!(
            (centre.red(), centre.green(), centre.blue()),
            (0x00, 0x30, 0x88)
        );
    }

    #[test]
    fn a_footprint_covers_every_painted_pixel() {
        let sprites = SpriteCache::new(1 << 20, 1 << 20);
        let grey = on_grey(&glow((0.0, 0.0), 0.0), None);
        for shape in shapes() {
            let mut rects = Vec::new();
            assert!(footprint(&sprites, &shape, (120, 120), &mut |r| rects.push(r)));
            assert!(
                rects
                    .iter()
                    .all(|r| r.h == 1 && r.x + r.w <= 120 && r.y + r.h <= 120)
            );
            let painted = on_grey(&shape, Some(&sprites));
            for (i, (a, b)) in painted.pixels().iter().zip(grey.pixels()).enumerate() {
                let (x, y) = ((i % 120) as u32, (i / 120) as u32);
                let at = Rect { x, y, w: 1, h: 1 };
                if a != b {
                    assert!(
                        rects.iter().any(|r| r.intersects(&at)),
                        "{shape:?}: ({x}, {y})"
                    );
                }
            }
        }
    }

    #[test]
    fn a_cell_with_overlays_matches_the_full_render_there() {
        use crate::request::Request;
        let renderer = crate::Renderer::default();
        let sprites = renderer.sprites();
        for query in [
            "fen=rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR_w_KQkq_-_1_3\
             &arrows=Gh4e1,Rg2g3,Yb1c3,Bd4&squares=f2",
            "fen=start&arrows=Ga1h8,Rb1c3&orientation=black&size=333",
        ] {
            let r = Request::from_query(query, None).expect("valid");
            let set = renderer.set(&r.options).expect("set");
            let scene = renderer.scene(&r.position, &r.options);
            let font = crate::render::art::font::LabelFont::builtin();
            let painted = |s: &Scene| paint(s, set, sprites, font).expect("paints");
            let full = painted(&scene);
            let mut bare = scene.clone();
            bare.overlays.clear();
            let plain = painted(&bare);
            let (w, h, sq) = (scene.width, scene.height, scene.square);
            let overlays: Vec<&Shape> = scene.overlays.iter().collect();
            let (mut compared, mut crossed) = (0, 0);
            for p in &scene.pieces {
                let rect = p.rect;
                let at = ((rect.y * w + rect.x) * 4) as usize;
                // The square's colour: the corner of the square in the render without
                // overlays (no piece reaches it).
                let colour = u32::from_le_bytes(plain.data()[at..at + 4].try_into().unwrap());
                let layers = (&[][..], Some(p.piece), &overlays[..]);
                let cell = paint_cell(set, sprites, (rect.x, rect.y, sq), colour, layers, (w, h));
                for row in 0..sq {
                    let from = (((rect.y + row) * w + rect.x) * 4) as usize;
                    let want = &full.data()[from..from + sq as usize * 4];
                    let got = &cell[(row * sq * 4) as usize..((row + 1) * sq * 4) as usize];
                    assert_eq!(got, want, "{query}: {} row {row}", p.piece);
                    crossed += usize::from(plain.data()[from..from + sq as usize * 4] != *want);
                }
                compared += 1;
            }
            assert!(compared > 10, "{query}: only {compared} squares compared");
            assert!(
                crossed > 20,
                "{query}: overlays cross only {crossed} rows of pieces"
            );
        }
    }
}
