//! Rendering: position + options in, encoded image out.
//!
//! The folders are the pipeline, in the order the data goes; each reads only the ones
//! before it (`scripts/ci/check-structure.py` checks it):
//!
//! ```text
//!  ground/, cancel.rs    RenderError, Indexed, RgbaImage, SVG → PDF; the stop signal
//!  spec/      what is wanted: options, theme, frame (an animation's), cost (the price,
//!             known from them before anything is drawn)
//!  art/       what is drawn with: pieces (drawn, vetted, loaded), font, font_files,
//!             font_system, pdf_font, pathdata
//!  scene/     the diagram laid out in pixels: parts (the data), grid, region, marks,
//!             markers, labels, figure, caption; mod.rs builds it
//!  paint/     the scene drawn: svg (text), or compose (the pixels of a PNG): indexed
//!             (palette tiles) and raster (RGBA, for what tiles miss) over palette;
//!             text_board (a position as text, no scene)
//!  encode/    the file written: mod.rs (PNG, with deflate), convert (PDF, WebP, GIF, lzw)
//!  workspace.rs  the buffers paint and encode work in, kept per thread or pooled
//!  mod.rs     this file: the Renderer
//!  layouts/   on top of the Renderer: animate, sheet, article/, share_card, card, page_text
//! ```
//!
//! This file is the [`Renderer`] alone: it runs spec → scene → paint → encode for one
//! diagram, one way (each stage is called once and hands its result on), and owns the
//! long-lived state the stages use: piece sets, the painters' caches, a per-thread canvas.
//! No I/O and no caching of whole images (that is the service's job, `http/`).

// In pipeline order (see above).
internal_mod!(
    ground, cancel, spec, art, scene, paint, encode, workspace, layouts
);

// The public modules and types, at the paths they have always had.
pub use art::{font_files, pieces};
pub use ground::{Indexed, RenderError, RgbaImage};
pub use layouts::{animate, article, share_card, sheet};
pub use paint::text_board;
pub use scene::Frame;
pub use spec::{options, theme};
pub use workspace::{KEEP_BYTES, POOL_IDLE, release_buffers};

/// How full one of the renderer's caches is ([`Renderer::cache_usage`]).
pub use crate::cache::Usage as CacheUsage;
/// Fonts that free text falls back on (`--fonts DIR`).
pub use art::font::FallbackError;
#[cfg(feature = "cli")]
pub(crate) use art::font::system_fonts_on;
/// The system's installed fonts, after DejaVu and `--fonts DIR`; off unless asked for.
pub use art::font::{scan_system_fonts, use_system_fonts};
#[doc(no_inline)]
pub use art::font_files::{FontError, add_fonts};
/// The system fonts' byte budget (a part of the renderer's).
pub use art::font_held::{DEFAULT_SYSTEM_FONT_BYTES, hold_system_fonts_within};
#[doc(no_inline)]
pub use art::font_system::system_font_dirs;
/// The error of a render priced over the bound one request may cost ([`crate::Error::Cost`]).
pub use spec::cost::CostError;

use crate::cache::ByteCache;
use crate::chess::position::Position;
use art::font::LabelFont;
use art::pieces::PieceSet;
use art::pieces::PieceSets;
use encode::convert;
use paint::compose::{self, Painters, Pixels};
use paint::indexed::Tiles;
use paint::raster::{self, SpriteCache};
use paint::svg;
use scene::Scene;
use spec::cost;
use spec::options::{Format, RenderOptions};
use std::sync::{Arc, OnceLock};
use workspace::with_workspace;

/// The pixels of `scene`, which size the workspace its render needs.
fn scene_pixels(scene: &Scene) -> u64 {
    u64::from(scene.width) * u64::from(scene.height)
}

/// Default byte budget of all the renderer's caches together (sprites, stamps, contexts,
/// cell tiles, SVG parts): 64 MiB. What is not asked for goes after `cache::IDLE` (an idle time).
pub const DEFAULT_RENDER_CACHE_BYTES: u64 = 64 * 1024 * 1024;

/// A renderer with the built-in pieces, shared by the one-call functions
/// ([`crate::render_png`] and its kin) and the snapshot tests.
pub(crate) fn default_renderer() -> &'static Renderer {
    static RENDERER: OnceLock<Renderer> = OnceLock::new();
    RENDERER.get_or_init(Renderer::default)
}

/// Renders diagrams. Cheap to share (`Arc`) between threads.
///
/// Keep one for many renders: it holds the piece sets and the caches that make a second
/// render of a board cheap. [`Renderer::default`] has the built-in pieces;
/// [`Renderer::new`] takes sets loaded from a folder ([`PieceSets::with_dir`]).
///
/// ```
/// use staunton::chess::fen;
/// use staunton::{Format, RenderOptions, Renderer};
///
/// let renderer = Renderer::default();
/// let position = fen::parse("r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3")?;
/// let options = RenderOptions { size: 320, ..RenderOptions::default() };
///
/// let png = renderer.png(&position, &options)?;
/// let svg = renderer.svg(&position, &options)?;
/// let pdf = renderer.render(&position, &options, Format::Pdf)?;
/// assert!(png.starts_with(b"\x89PNG") && svg.starts_with("<svg") && pdf.starts_with(b"%PDF"));
/// # Ok::<(), staunton::Error>(())
/// ```
#[derive(Debug)]
pub struct Renderer {
    sets: PieceSets,
    sprites: SpriteCache,
    tiles: Tiles,
    svg_parts: ByteCache<Vec<u8>, Arc<str>>,
    font: &'static LabelFont,
}

impl Default for Renderer {
    fn default() -> Self {
        Renderer::new(PieceSets::builtin(), DEFAULT_RENDER_CACHE_BYTES)
    }
}

impl Renderer {
    /// A renderer over `sets` whose caches hold at most about `cache_bytes` together:
    /// half for palette contexts, a quarter for piece sprites, an eighth for cell tiles,
    /// a sixteenth each for stamps and SVG parts.
    pub fn new(sets: PieceSets, cache_bytes: u64) -> Renderer {
        let part = |n: u64| cache_bytes / 16 * n;
        Renderer {
            sets,
            sprites: SpriteCache::new(part(4), part(1)),
            tiles: Tiles::new(part(8), part(2)),
            svg_parts: ByteCache::new("svg_parts", part(1)),
            font: LabelFont::builtin(),
        }
    }

    /// How full each of the renderer's caches is (sprites, stamps, palette contexts, cell
    /// tiles, SVG parts), for metrics.
    pub fn cache_usage(&self) -> Vec<CacheUsage> {
        let mut all = Vec::with_capacity(5);
        all.extend(self.sprites.usage());
        all.extend(self.tiles.usage());
        all.push(self.svg_parts.usage());
        // The system's faces and glyphs: the process's, held within their own share.
        all.extend(art::font::system_usage());
        all
    }

    /// The piece sets this renderer knows.
    pub fn piece_sets(&self) -> &PieceSets {
        &self.sets
    }

    /// Lay out `position` as `options` ask.
    pub(crate) fn layout(&self, position: &Position, options: &RenderOptions) -> Scene {
        scene::build(position, options, self.font)
    }

    /// What `set` is painted with here.
    fn painters<'a>(&'a self, set: &'a PieceSet) -> Painters<'a> {
        Painters {
            set,
            sprites: &self.sprites,
            tiles: &self.tiles,
            font: self.font,
        }
    }

    /// Render `position` as SVG text, titled with its description in `options.lang` (for
    /// screen readers).
    pub fn svg(&self, position: &Position, options: &RenderOptions) -> Result<String, RenderError> {
        Ok(self.svg_with(self.set(options)?, position, options))
    }

    /// Where the board lies in `position`'s diagram drawn as `options` ask, and the
    /// coordinates along its edges (for a document that sets the labels itself).
    pub fn frame(&self, position: &Position, options: &RenderOptions) -> Frame {
        scene::frame(position, options)
    }

    /// [`Renderer::svg`] in `set`.
    fn svg_with(&self, set: &PieceSet, position: &Position, options: &RenderOptions) -> String {
        let title = crate::chess::describe::describe_in(position, options.lang);
        let scene = self.layout(position, options);
        svg::write_with(
            &scene,
            set,
            self.font,
            Some(&title),
            &self.svg_parts,
            options.svg_form,
        )
    }

    /// `position` as a text board in `options.text_style`, for terminals and text
    /// snapshots: see [`text_board`] for the format. Only the orientation and the
    /// coordinates of `options` apply; marks are not drawn.
    pub fn text(&self, position: &Position, options: &RenderOptions) -> String {
        text_board::write(position, options)
    }

    /// Render `position` into a pixmap (premultiplied RGBA).
    pub fn pixmap(
        &self,
        position: &Position,
        options: &RenderOptions,
    ) -> Result<resvg::tiny_skia::Pixmap, RenderError> {
        let set = self.set(options)?;
        let scene = self.layout(position, options);
        raster::paint(&scene, set, &self.sprites, self.font)
            .ok_or(RenderError::Allocate(scene.width, scene.height))
    }

    /// Render `position` as PNG bytes.
    ///
    /// The pixels and the encoder's buffers are kept per thread and reused, so a render
    /// allocates little beyond the PNG it returns (buffers over [`KEEP_BYTES`] go to a pool
    /// the threads share, which lets them go after two idle seconds).
    pub fn png(
        &self,
        position: &Position,
        options: &RenderOptions,
    ) -> Result<Vec<u8>, RenderError> {
        self.png_of(&self.layout(position, options), self.set(options)?)
    }

    /// `position` in `format` if that is quick: its estimated cost (`cost::diagram`, which
    /// counts pixels and marks) at most `max_units`, and for a PNG the board's context at
    /// this size held (a composition and an encoding, no sprites rasterised and no context
    /// built: 0.1–0.5 ms up to 1000 px unmarked). `None` otherwise, for the caller to
    /// render it where a long render blocks nothing.
    pub fn render_if_quick(
        &self,
        position: &Position,
        options: &RenderOptions,
        format: Format,
        max_units: u64,
    ) -> Option<Result<Vec<u8>, RenderError>> {
        if cost::position(position, options, format) > max_units {
            return None;
        }
        match self.set(options) {
            Ok(set) => self.render_if_held(set, position, options, format),
            Err(e) => Some(Err(e)),
        }
    }

    /// [`Renderer::render_if_quick`] in `set`, for a render its caller has already priced
    /// within its bound (the service, which prices every render for admission): `None`
    /// when its format or a context not yet held makes it slow.
    pub(crate) fn render_if_held(
        &self,
        set: &PieceSet,
        position: &Position,
        options: &RenderOptions,
        format: Format,
    ) -> Option<Result<Vec<u8>, RenderError>> {
        match format {
            Format::Svg | Format::Txt => {
                return Some(self.render_with(set, position, options, format));
            }
            Format::Png => {}
            // PDF conversion and the other encoders take longer: the pool.
            Format::Pdf | Format::Webp | Format::Gif => return None,
        }
        let scene = self.layout(position, options);
        compose::is_held(&scene, self.painters(set)).then(|| self.png_of(&scene, set))
    }

    /// The PNG of a laid-out scene: painted by `paint::compose` in this thread's canvas,
    /// then encoded.
    fn png_of(&self, scene: &Scene, set: &PieceSet) -> Result<Vec<u8>, RenderError> {
        let (w, h) = (scene.width, scene.height);
        with_workspace(scene_pixels(scene), |ws| {
            Ok(
                match compose::paint(scene, self.painters(set), &mut ws.canvas)? {
                    Pixels::Indexed { indices, palette } => {
                        encode::indexed_png(indices, palette, w, h, &mut ws.encode)
                    }
                    Pixels::Rgba(pixels) => encode::png_with(pixels, w, h, &mut ws.encode),
                },
            )
        })
    }

    /// Render `position` as palette indices and their palette, as its PNG holds them (for
    /// animations, whose frames are indexed). An image whose colours do not fit a palette
    /// (a piece set with gradients, painted very large) is mapped onto a fixed palette of
    /// 256 colours.
    pub fn indexed(
        &self,
        position: &Position,
        options: &RenderOptions,
        out: &mut Indexed,
    ) -> Result<(), RenderError> {
        self.indexed_with(self.set(options)?, position, options, out)
    }

    /// [`Renderer::indexed`] in `set`.
    fn indexed_with(
        &self,
        set: &PieceSet,
        position: &Position,
        options: &RenderOptions,
        out: &mut Indexed,
    ) -> Result<(), RenderError> {
        let scene = self.layout(position, options);
        out.width = scene.width;
        out.height = scene.height;
        with_workspace(scene_pixels(&scene), |ws| {
            match compose::paint(&scene, self.painters(set), &mut ws.canvas)? {
                // Handed over, not copied: the next composition refills the buffers.
                Pixels::Indexed { .. } => {
                    ws.canvas.take_indexed(&mut out.indices, &mut out.palette)
                }
                Pixels::Rgba(pixels) => {
                    encode::indexed_of(pixels, scene.width, &mut ws.encode, out)
                }
            }
            Ok(())
        })
    }

    /// Render `position` as straight RGBA pixels, for callers that compare images in
    /// memory: exactly the pixels its PNG ([`Renderer::png`]) decodes to, without encoding
    /// one.
    pub fn rgba(
        &self,
        position: &Position,
        options: &RenderOptions,
    ) -> Result<RgbaImage, RenderError> {
        let set = self.set(options)?;
        let scene = self.layout(position, options);
        let mut pixels = Vec::new();
        with_workspace(scene_pixels(&scene), |ws| {
            match compose::paint(&scene, self.painters(set), &mut ws.canvas)? {
                Pixels::Indexed { indices, palette } => {
                    encode::rgba_of_indexed(indices, palette, &mut pixels)
                }
                Pixels::Rgba(rgba) => {
                    encode::rgba_of(rgba, scene.width, &mut ws.encode, &mut pixels)
                }
            }
            Ok::<_, RenderError>(())
        })?;
        Ok(RgbaImage {
            width: scene.width,
            height: scene.height,
            pixels,
        })
    }

    /// Render `position` in `format`.
    pub fn render(
        &self,
        position: &Position,
        options: &RenderOptions,
        format: Format,
    ) -> Result<Vec<u8>, RenderError> {
        self.render_with(self.set(options)?, position, options, format)
    }

    /// [`Renderer::render`] in `set`, already looked up (by [`Renderer::set`]): the service
    /// looks a request's set up once, when it reads the request.
    pub(crate) fn render_with(
        &self,
        set: &PieceSet,
        position: &Position,
        options: &RenderOptions,
        format: Format,
    ) -> Result<Vec<u8>, RenderError> {
        match format {
            Format::Png => self.png_of(&self.layout(position, options), set),
            Format::Svg => Ok(self.svg_with(set, position, options).into_bytes()),
            Format::Pdf => {
                // Tagged: the drawing is a figure whose alternative text is `/describe`'s.
                let alt = crate::chess::describe::describe_in(position, options.lang);
                let title = options
                    .caption
                    .clone()
                    .unwrap_or_else(|| position.to_string());
                let about = convert::About {
                    title: &title,
                    lang: options.lang.code(),
                };
                convert::pdf(
                    &self.svg_with(set, position, options),
                    options.dpi,
                    about,
                    &alt,
                )
            }
            // Piece sets do not apply to text, but a request naming an unknown one was
            // refused (by its lookup) as it is for images.
            Format::Txt => Ok(self.text(position, options).into_bytes()),
            Format::Webp | Format::Gif => {
                let mut image = Indexed::default();
                self.indexed_with(set, position, options, &mut image)?;
                match format {
                    Format::Webp => convert::webp(&image),
                    _ => convert::gif(&image),
                }
            }
        }
    }

    /// The box of `piece`'s ink in a `px` × `px` square of a board of `square` px squares,
    /// as a render paints it: `[x_min, y_min, x_max, y_max]` in pixels of that square (the
    /// pixels whose alpha is at least a quarter), `None` when nothing is painted.
    #[cfg(feature = "dataset")]
    pub(crate) fn ink_box(
        &self,
        set: &PieceSet,
        piece: crate::chess::piece::Piece,
        px: u32,
        square: u32,
    ) -> Option<[u32; 4]> {
        let sprite = self.sprites.sprite(set, piece, px, square)?;
        let w = sprite.width() as usize;
        let mut bounds: Option<[u32; 4]> = None;
        for (i, pixel) in sprite.pixels().iter().enumerate() {
            if pixel.alpha() < 64 {
                continue;
            }
            let (x, y) = ((i % w) as u32, (i / w) as u32);
            let b = bounds.get_or_insert([x, y, x + 1, y + 1]);
            *b = [b[0].min(x), b[1].min(y), b[2].max(x + 1), b[3].max(y + 1)];
        }
        bounds
    }

    /// The piece set `options` ask for, or the error naming the sets there are.
    pub fn set(&self, options: &RenderOptions) -> Result<&PieceSet, RenderError> {
        self.shared_set(options).map(Arc::as_ref)
    }

    /// [`Renderer::set`], shared: for a caller that keeps it beyond the renderer's borrow.
    pub(crate) fn shared_set(
        &self,
        options: &RenderOptions,
    ) -> Result<&Arc<PieceSet>, RenderError> {
        self.sets.get(&options.piece_set).ok_or_else(|| {
            RenderError::UnknownPieceSet(
                options.piece_set.clone(),
                self.sets.names().map(str::to_string).collect(),
            )
        })
    }
}

/// Internals for the tests and benches (the `bench-internals` feature): not an API.
#[cfg(feature = "bench-internals")]
#[doc(hidden)]
impl Renderer {
    /// `position` laid out as `options` ask.
    pub fn scene(&self, position: &Position, options: &RenderOptions) -> Scene {
        self.layout(position, options)
    }

    /// The sprite cache.
    pub fn sprites(&self) -> &SpriteCache {
        &self.sprites
    }

    /// The caches of palette contexts and cell tiles.
    pub fn tiles(&self) -> &Tiles {
        &self.tiles
    }
}
