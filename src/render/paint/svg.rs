//! The SVG backend: writes a [`Scene`] as one self-contained SVG document.
//!
//! Owns SVG text only. In the compact form (the default) pieces are written once each as a
//! `<symbol>` and placed with `<use>`; in the portable form `svg_portable.rs` writes each
//! where it stands. Labels are glyph outlines (`<path>`), so the document needs no fonts and
//! no external files, and renderers that draw no `<text>` (NanoSVG) draw them. The root is
//! `role="img"`, named by its `<title>` for screen readers. Every value written comes from the scene (numbers, `#rrggbb` colours,
//! usvg-normalised piece bodies): no user text reaches the output.

use crate::chess::piece::Piece;
use crate::chess::fairy::Side;
use crate::render::scene::figure::{self, Half, Ink, PlacedFigure};
use crate::render::art::font::{GLYPH_GRID, LabelFont};
use crate::render::art::pathdata::PathWriter;
use crate::render::art::pieces::{ArtPath, PieceSet};
use crate::render::scene::{Point, Scene, Shape, circle_curves};
use crate::render::spec::options::SvgForm;
use super::svg_number::Fine;
use super::svg_portable::{Attributes, Part};
use crate::render::spec::theme::Rgba;
use std::collections::HashMap as StdHashMap;
use std::collections::HashSet as StdHashSet;
use std::fmt::{self, Write as _};
use std::hash::BuildHasherDefault;
use std::sync::Arc;

/// Write `scene` as SVG, drawing pieces from `set` and labels from `font`, sharing nothing
/// with other documents (for the tests; the renderer keeps parts, [`write_with`]).
#[cfg(feature = "bench-internals")]
pub fn write(scene: &Scene, set: &PieceSet, font: &LabelFont) -> String {
    write_titled(scene, set, font, None)
}

/// `write` with a `<title>`: the text screen readers announce for the image.
#[cfg(feature = "bench-internals")]
pub fn write_titled(
    scene: &Scene,
    set: &PieceSet,
    font: &LabelFont,
    title: Option<&str>,
) -> String {
    write_with(scene, set, font, title, &Uncached, SvgForm::Compact)
}

/// Parts of a document that many diagrams share, kept between them: the piece symbols of
/// a set at a scale, a board's squares, its labels. `key` describes a part exactly;
/// `make` writes it when it is not kept.
pub trait Fragments {
    /// The part described by `key`.
    fn fragment(&self, key: Vec<u8>, make: &mut dyn FnMut() -> String) -> Arc<str>;
}

/// Keeps nothing: every part is written afresh.
#[cfg(feature = "bench-internals")]
#[derive(Debug, Clone, Copy, Default)]
pub struct Uncached;

#[cfg(feature = "bench-internals")]
impl Fragments for Uncached {
    fn fragment(&self, _key: Vec<u8>, make: &mut dyn FnMut() -> String) -> Arc<str> {
        Arc::from(make())
    }
}

/// Parts kept in a byte-bounded cache (the renderer's).
impl Fragments for crate::cache::ByteCache<Vec<u8>, Arc<str>> {
    fn fragment(&self, key: Vec<u8>, make: &mut dyn FnMut() -> String) -> Arc<str> {
        self.get_with(key, || Arc::from(make()))
    }
}

/// The scene as an SVG document titled `title` in `form`, taking the shared parts from
/// `parts`: the same document, byte for byte.
pub fn write_with(
    scene: &Scene,
    set: &PieceSet,
    font: &LabelFont,
    title: Option<&str>,
    parts: &dyn Fragments,
    form: SvgForm,
) -> String {
    let mut out = String::new();
    let doc = Document {
        scene,
        set,
        font,
        title,
        form,
    };
    // Writing into a String cannot fail; the results are ignored for that reason.
    let _ = write_into(&mut out, &doc, parts);
    match form {
        SvgForm::Inline => super::svg_ids::finish_inline(&out),
        SvgForm::Compact | SvgForm::Portable => out,
    }
}

/// What one document is written from.
struct Document<'a> {
    scene: &'a Scene,
    set: &'a PieceSet,
    font: &'a LabelFont,
    title: Option<&'a str>,
    form: SvgForm,
}

impl Document<'_> {
    /// Where the colours of the page around the board come from.
    fn paper(&self) -> Paper {
        match (self.scene.dark_page, self.form) {
            _ if self.scene.page_ink => Paper::Ink,
            // A page's own colours are the scheme its reader sees.
            (Some(_), SvgForm::Inline) => Paper::Ink,
            (Some(page), _) => Paper::Scheme(page),
            (None, _) => Paper::Fixed,
        }
    }
}

/// Where the margin's and the labels' colours come from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Paper {
    /// The scene's own.
    Fixed,
    /// A style sheet switches them to `Page`'s under a dark colour scheme
    /// (`background=auto`).
    Scheme(crate::render::spec::theme::Page),
    /// The page around the SVG: no margin, the labels in its text colour
    /// (`currentColor`; `background=page`, and `auto` in the inline form).
    Ink,
}

impl Paper {
    /// What its parts' keys end with: parts written for one paper differ from another's.
    fn key(self) -> Vec<u8> {
        match self {
            Paper::Fixed => Vec::new(),
            Paper::Scheme(p) => format!("auto{}{}", p.background, p.label).into_bytes(),
            Paper::Ink => b"ink".to_vec(),
        }
    }
}

/// The id of the `<title>`, which the root's `aria-labelledby` names.
const TITLE_ID: &str = "title";

type HashMap<K, V> = StdHashMap<K, V, BuildHasherDefault<crate::hash::Fnv>>;
type HashSet<K> = StdHashSet<K, BuildHasherDefault<crate::hash::Fnv>>;

pub use super::svg_ids::{labelled, nested};
use super::svg_ids::escape;

fn write_into(out: &mut String, doc: &Document, parts: &dyn Fragments) -> fmt::Result {
    let (scene, set, title) = (doc.scene, doc.set, doc.title);
    let (w, h) = (scene.width, scene.height);
    let square = uniform_square(scene, set);
    // The shared parts first, so the document is allocated once at about its size.
    let shared = SharedParts::of(doc, parts, square);
    let per_piece = match doc.form {
        SvgForm::Compact | SvgForm::Inline => 40,
        SvgForm::Portable => 1200,
    };
    out.reserve(
        shared.len()
            + 200
            + title.map_or(0, |t| t.len() + 24)
            + scene.pieces.len() * per_piece
            + (scene.marks.len() + scene.overlays.len()) * 400,
    );
    // `role="img"`: one image to assistive technology, named by the `<title>` (its first
    // child, and named again by `aria-labelledby` for screen readers that read only that).
    out.push_str(r#"<svg xmlns="http://www.w3.org/2000/svg""#);
    // `<use>` refers by `xlink:href`, which every renderer reads (SVG 2's bare `href` is
    // lost on Inkscape 1.2, QtSvg and older viewers).
    if shared.symbols.is_some() {
        out.push_str(r#" xmlns:xlink="http://www.w3.org/1999/xlink""#);
    }
    out.push_str(r#" role="img""#);
    if title.is_some() {
        write!(out, r#" aria-labelledby="{TITLE_ID}""#)?;
    }
    write!(out, r#" width="{w}" height="{h}" viewBox="0 0 {w} {h}""#)?;
    // In a page: never wider than its column, its height following (width and height
    // stay, so the page keeps the room before it is laid out).
    if doc.form == SvgForm::Inline {
        out.push_str(r#" style="max-width:100%;height:auto""#);
    }
    out.push('>');
    if let Some(title) = title {
        write!(out, r#"<title id="{TITLE_ID}">{}</title>"#, escape(title))?;
    }
    write_page(out, scene, doc.paper())?;
    if let Some(symbols) = &shared.symbols {
        out.push_str(symbols);
    }
    out.push_str(&shared.board);
    let mut gradients = 0;
    for shape in &scene.marks {
        write_shape(out, shape, &mut gradients)?;
    }
    match doc.form {
        SvgForm::Compact | SvgForm::Inline => write_uses(out, scene, square)?,
        SvgForm::Portable => {
            for p in &scene.pieces {
                super::svg_portable::write_piece(out, set, p.piece, p.rect, Part::Whole)?;
            }
        }
    }
    write_figures(out, doc, square, &mut gradients)?;
    for shape in &scene.overlays {
        write_shape(out, shape, &mut gradients)?;
    }
    if let Some(labels) = &shared.labels {
        out.push_str(labels);
    }
    write_caption(out, scene, doc.paper())?;
    out.push_str("</svg>");
    Ok(())
}

/// The class of what takes the page's colours (`background=auto`): the margin (`pm`) and
/// the labels and caption on it (`pl`).
const MARGIN_CLASS: &str = "pm";
const LABEL_CLASS: &str = "pl";

/// The caption's words for screen readers, and the style that gives a dark page its
/// colours (`background=auto`).
fn write_page(out: &mut String, scene: &Scene, paper: Paper) -> fmt::Result {
    if let Some(text) = scene.caption_text.as_deref().filter(|_| !scene.caption.is_empty()) {
        write!(out, "<desc>{}</desc>", escape(text))?;
    }
    if let Paper::Scheme(page) = paper {
        write!(
            out,
            "<style>@media (prefers-color-scheme:dark){{.{MARGIN_CLASS}{{fill:{}}}.{LABEL_CLASS}{{fill:{}}}}}</style>",
            page.background, page.label
        )?;
    }
    Ok(())
}

/// ` class="…"` for what is drawn in `color` on the page, when the page follows the
/// reader's colour scheme; else nothing.
fn page_class(scene: &Scene, paper: Paper, color: Rgba, class: &str) -> String {
    match matches!(paper, Paper::Scheme(_)) && color == scene.label {
        true => format!(r#" class="{class}""#),
        false => String::new(),
    }
}

/// The fill of what is drawn in `color` on the page: `currentColor` when the page lends
/// its text colour and `color` is the labels', else the colour.
struct PageInk<'a>(&'a Scene, Paper, Rgba);

impl fmt::Display for PageInk<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let PageInk(scene, paper, color) = *self;
        match paper == Paper::Ink && color == scene.label {
            true => f.write_str("currentColor"),
            false => write!(f, "{color}"),
        }
    }
}

/// The caption's lines as outlines of the built-in face, one path.
fn write_caption(out: &mut String, scene: &Scene, paper: Paper) -> fmt::Result {
    let (Some(first), Some(face)) = (scene.caption.first(), crate::render::scene::caption::face()) else {
        return Ok(());
    };
    let d: String = scene
        .caption
        .iter()
        .map(|l| face.svg_path(&l.text, l.px, (l.x, l.baseline)))
        .collect();
    write!(
        out,
        r#"<path{} fill="{}" d="{}"/>"#,
        page_class(scene, paper, first.color, LABEL_CLASS),
        PageInk(scene, paper, first.color),
        d.trim_end()
    )
}

/// The one square size of every piece, when there is one and all the artwork is square:
/// `<use>` then needs no size.
fn uniform_square(scene: &Scene, set: &PieceSet) -> Option<u32> {
    let placed = scene.pieces.iter().map(|p| (p.piece, p.rect));
    let figured = scene
        .figures
        .iter()
        .flat_map(|f| figure::pieces(&f.figure).map(|p| (p, f.rect)));
    let mut all = placed.chain(figured).peekable();
    let px = all.peek()?.1.w;
    let same = all.all(|(piece, r)| {
        r.w == px && r.h == px && {
            let (vw, vh) = set.art(piece).view_box;
            vw == vh
        }
    });
    (px > 0 && same).then_some(px)
}

/// Every piece drawn, on its own or in a figure.
fn used_pieces(scene: &Scene) -> impl Iterator<Item = Piece> + '_ {
    let figured = scene.figures.iter().flat_map(|f| figure::pieces(&f.figure));
    scene.pieces.iter().map(|p| p.piece).chain(figured)
}

/// The figures (see `scene/figure.rs`): each a group moved to its square and turned about its
/// centre; a neutral figure's halves each clipped to their side of the split.
fn write_figures(
    out: &mut String,
    doc: &Document,
    square: Option<u32>,
    gradients: &mut u32,
) -> fmt::Result {
    let scene = doc.scene;
    let halved = |f: &&PlacedFigure| f.figure.side == Side::Neutral;
    let mut halves = 0;
    // The portable form paints halves by gradients instead (see `svg_portable.rs`).
    if doc.form != SvgForm::Portable
        && let Some(f) = scene.figures.iter().find(halved)
    {
        let (px, split) = (f.rect.w, figure::split(f.rect.w));
        write!(
            out,
            r#"<defs><clipPath id="fgl"><rect width="{split}" height="{px}"/></clipPath><clipPath id="fgr"><rect x="{split}" width="{}" height="{px}"/></clipPath></defs>"#,
            px - split
        )?;
    }
    for f in &scene.figures {
        let r = f.rect;
        write!(out, r#"<g transform="translate({} {})"#, r.x, r.y)?;
        if f.quarters() != 0 {
            let c = Fine(r.w as f32 / 2.0);
            write!(out, " rotate({} {c} {c})", f.figure.turn.degrees())?;
        }
        out.push_str(r#"">"#);
        for layer in figure::layers(f) {
            if let (Ink::Piece(piece), SvgForm::Portable) = (&layer.ink, doc.form) {
                let part = match layer.half {
                    Half::Whole => Part::Whole,
                    half => Part::Half {
                        right: half == Half::Right,
                        split: figure::split(r.w),
                        first: halves,
                    },
                };
                let rect = crate::render::scene::Rect {
                    x: 0,
                    y: 0,
                    w: r.w,
                    h: r.w,
                };
                halves += super::svg_portable::write_piece(out, doc.set, *piece, rect, part)?;
                continue;
            }
            if let (Ink::Shape(shape), SvgForm::Portable, Half::Left | Half::Right) =
                (&layer.ink, doc.form, layer.half)
            {
                let mut text = String::new();
                write_shape(&mut text, shape, gradients)?;
                let (square, right) = ((r.w, figure::split(r.w)), layer.half == Half::Right);
                halves += super::svg_portable::write_half_shape(out, &text, square, right, halves)?;
                continue;
            }
            match layer.half {
                Half::Whole => {}
                Half::Left => out.push_str(r##"<g clip-path="url(#fgl)">"##),
                Half::Right => out.push_str(r##"<g clip-path="url(#fgr)">"##),
            }
            write_ink(out, &layer.ink, r.w, square, gradients)?;
            if layer.half != Half::Whole {
                out.push_str("</g>");
            }
        }
        out.push_str("</g>");
    }
    Ok(())
}

/// One layer of a figure, in its square's coordinates (`px` wide).
fn write_ink(
    out: &mut String,
    ink: &Ink,
    px: u32,
    square: Option<u32>,
    gradients: &mut u32,
) -> fmt::Result {
    match ink {
        Ink::Piece(piece) => {
            write!(out, r##"<use xlink:href="#{}""##, piece.code())?;
            if square.is_none() {
                write!(out, r#" width="{px}" height="{px}""#)?;
            }
            out.push_str("/>");
            Ok(())
        }
        Ink::Shape(shape) => write_shape(out, shape, gradients),
        Ink::Text {
            text,
            bold,
            px,
            origin,
            color,
        } => {
            let Some(face) = figure::face(*bold) else {
                return Ok(());
            };
            let d = face.svg_path(text, *px, *origin);
            write!(out, r#"<path fill="{color}" d="{}"/>"#, d.trim_end())
        }
    }
}

/// The parts of a document that many diagrams share: the piece symbols, the board, the
/// labels.
struct SharedParts {
    symbols: Option<Arc<str>>,
    board: Arc<str>,
    labels: Option<Arc<str>>,
}

impl SharedParts {
    /// `scene`'s parts, from `parts` or written. Each kind of part ends its key with its
    /// own letter. The symbols depend on the set, which pieces appear, and the scale.
    fn of(doc: &Document, parts: &dyn Fragments, square: Option<u32>) -> SharedParts {
        let (scene, set, font) = (doc.scene, doc.set, doc.font);
        let used = used_pieces(scene).fold(0u32, |mask, p| mask | 1 << p.index());
        // The portable form has no symbols: its pieces stand where they are drawn.
        let symbols = (used != 0 && doc.form != SvgForm::Portable).then(|| {
            let mut key = set.shared_name().as_bytes().to_vec();
            key.push(0);
            for v in [used, scene.width, scene.height, square.unwrap_or(0)] {
                key.extend_from_slice(&v.to_le_bytes());
            }
            // The inline form's symbols carry their styles as attributes.
            if doc.form == SvgForm::Inline {
                key.push(b'I');
            }
            key.push(b'P');
            parts.fragment(key, &mut || {
                let mut text = String::with_capacity(8192);
                let _ = write_pieces(&mut text, scene, set, square, doc.form);
                text
            })
        });
        // A page that follows the colour scheme writes classes into the board and labels,
        // one that lends its ink `currentColor`.
        let paper = doc.paper();
        let auto = paper.key();
        let mut key = crate::render::scene::base_key(scene, false);
        key.extend_from_slice(&auto);
        key.push(b'B');
        let board = parts.fragment(key, &mut || {
            let mut text = String::with_capacity(256 + scene.fills.len() * 16);
            let _ = write_board(&mut text, scene, paper);
            text
        });
        let labels = (!scene.labels.is_empty()).then(|| {
            let mut key = Vec::new();
            crate::render::scene::describe_labels(scene, &mut key);
            key.extend_from_slice(&auto);
            key.push(b'L');
            parts.fragment(key, &mut || {
                let mut text = String::with_capacity(64 + scene.labels.len() * 96);
                let _ = write_labels(&mut text, scene, font, paper);
                text
            })
        });
        SharedParts {
            symbols,
            board,
            labels,
        }
    }

    /// Their bytes.
    fn len(&self) -> usize {
        let size = |part: &Option<Arc<str>>| part.as_ref().map_or(0, |p| p.len());
        size(&self.symbols) + self.board.len() + size(&self.labels)
    }
}

/// Each piece as a `<use>` of its symbol, sized unless every piece has `square`'s size.
fn write_uses(out: &mut String, scene: &Scene, square: Option<u32>) -> fmt::Result {
    for p in &scene.pieces {
        let r = p.rect;
        write!(
            out,
            r##"<use xlink:href="#{}" x="{}" y="{}""##,
            p.piece.code(),
            r.x,
            r.y
        )?;
        if square.is_none() {
            write!(out, r#" width="{}" height="{}""#, r.w, r.h)?;
        }
        out.push_str("/>");
    }
    Ok(())
}

/// The background and the squares: consecutive fills of one colour (the dark squares) as
/// one path.
fn write_board(out: &mut String, scene: &Scene, paper: Paper) -> fmt::Result {
    let (w, h) = (scene.width, scene.height);
    let margin = match paper {
        Paper::Fixed => scene.background.a != 0,
        Paper::Scheme(_) => true,
        Paper::Ink => false,
    };
    if margin {
        let class = match paper {
            Paper::Scheme(_) => format!(r#" class="{MARGIN_CLASS}""#),
            Paper::Fixed | Paper::Ink => String::new(),
        };
        write!(
            out,
            r#"<rect{class} width="{w}" height="{h}" fill="{}"/>"#,
            scene.background
        )?;
    }
    let mut gradients = 0;
    for run in scene.fills.chunk_by(|a, b| a.color == b.color) {
        if let [fill] = run {
            let rect = Shape::Rect {
                rect: fill.rect,
                color: fill.color,
            };
            write_shape(out, &rect, &mut gradients)?;
            continue;
        }
        let mut d = PathWriter::new(0);
        for fill in run {
            let r = fill.rect;
            let (x, y) = (i64::from(r.x), i64::from(r.y));
            d.move_to((x, y));
            d.line_to((x + i64::from(r.w), y));
            d.line_to((x + i64::from(r.w), y + i64::from(r.h)));
            d.line_to((x, y + i64::from(r.h)));
            d.close();
        }
        write!(
            out,
            r#"<path d="{}"{}/>"#,
            d.finish(),
            Paint("fill", run[0].color)
        )?;
    }
    Ok(())
}

/// One `<symbol>` per piece that appears, in a stable order.
///
/// Pieces drawn as flat styled paths share what repeats: each style is a CSS class, and
/// path data used more than once is written once in `<defs>`, as a group when a whole run of
/// paths repeats (white and black pieces of most sets differ only in colour), and placed
/// with `<use>`.
fn write_pieces(
    out: &mut String,
    scene: &Scene,
    set: &PieceSet,
    square: Option<u32>,
    form: SvgForm,
) -> fmt::Result {
    let mut used: Vec<_> = used_pieces(scene).collect();
    used.sort();
    used.dedup();
    if used.is_empty() {
        return Ok(());
    }
    let runs = Runs::of(&used, set, form);
    runs.write_styles(out)?;
    out.push_str("<defs>");
    runs.write_shared(out)?;
    for (i, piece) in used.iter().enumerate() {
        let art = set.art(*piece);
        // With one square size for every piece, the symbol's viewBox covers the whole
        // document at that scale, so each `<use>` needs only x and y (its viewport is the
        // default 100%); otherwise each `<use>` gives the square's width and height.
        let (vw, vh) = match square {
            Some(px) => (
                art.view_box.0 * scene.width as f32 / px as f32,
                art.view_box.1 * scene.height as f32 / px as f32,
            ),
            None => art.view_box,
        };
        write!(
            out,
            r#"<symbol id="{}" viewBox="0 0 {} {}">"#,
            piece.code(),
            Fine(vw),
            Fine(vh),
        )?;
        if art.paths.is_none() {
            out.push_str(&art.symbol_body);
        }
        runs.write_symbol_body(out, i)?;
        out.push_str("</symbol>");
    }
    out.push_str("</defs>");
    Ok(())
}

/// The styled paths of the pieces a document uses, as runs (consecutive paths of one style
/// in one piece), and what repeats among them. Path data is compared by the ids the set
/// gave it when it was loaded.
struct Runs<'a> {
    /// Each run with the number of its piece among those used.
    runs: Vec<(usize, &'a [ArtPath])>,
    /// Per run, whether the same paths form another run too.
    shared: Vec<bool>,
    /// Paths outside shared runs, counted.
    loose: HashMap<u32, usize>,
    /// How many distinct shared runs hold each path.
    in_shared: HashMap<u32, usize>,
    /// Styles as CSS classes (compact), or as attributes (inline).
    classes: bool,
}

fn path_ids(run: &[ArtPath]) -> Vec<u32> {
    run.iter().map(|p| p.id).collect()
}

/// A shared run's id: derived from its paths' names (four characters; the ids of paths
/// are unique in the set, so runs that differ get different hashes but for one chance
/// in 46,656 per pair).
fn run_name(run: &[ArtPath]) -> String {
    let hash = crate::hash::fnv1a(run.iter().flat_map(|p| p.name.bytes().chain([b'|'])));
    format!("g{}", crate::hash::base36(hash, 3))
}

impl<'a> Runs<'a> {
    fn of(used: &[Piece], set: &'a PieceSet, form: SvgForm) -> Runs<'a> {
        let runs: Vec<(usize, &[ArtPath])> = used
            .iter()
            .enumerate()
            .filter_map(|(i, p)| set.art(*p).paths.as_ref().map(|paths| (i, paths)))
            .flat_map(|(i, paths)| {
                paths
                    .chunk_by(|a, b| a.style == b.style)
                    .map(move |run| (i, run))
            })
            .collect();
        let mut run_counts: HashMap<Vec<u32>, usize> = HashMap::default();
        for (_, run) in &runs {
            *run_counts.entry(path_ids(run)).or_default() += 1;
        }
        let shared: Vec<bool> = runs
            .iter()
            .map(|(_, run)| run_counts[&path_ids(run)] > 1)
            .collect();
        let mut loose: HashMap<u32, usize> = HashMap::default();
        for ((_, run), is_shared) in runs.iter().zip(&shared) {
            if !is_shared {
                for p in *run {
                    *loose.entry(p.id).or_default() += 1;
                }
            }
        }
        let mut in_shared: HashMap<u32, usize> = HashMap::default();
        for (key, _) in run_counts.iter().filter(|(_, n)| **n > 1) {
            let mut key = key.clone();
            key.sort_unstable();
            key.dedup();
            for id in key {
                *in_shared.entry(id).or_default() += 1;
            }
        }
        Runs {
            runs,
            shared,
            loose,
            in_shared,
            classes: form != SvgForm::Inline,
        }
    }

    fn loose_count(&self, id: u32) -> usize {
        self.loose.get(&id).copied().unwrap_or(0)
    }

    fn shared_keys(&self, id: u32) -> usize {
        self.in_shared.get(&id).copied().unwrap_or(0)
    }

    /// Whether a loose path is written once and used: repeated loose, or loose and also
    /// inside a shared run.
    fn shared_path(&self, id: u32) -> bool {
        let loose = self.loose_count(id);
        loose > 1 || (loose == 1 && self.shared_keys(id) > 0)
    }

    /// The runs with whether each is shared.
    fn each(&self) -> impl Iterator<Item = (&(usize, &'a [ArtPath]), &bool)> {
        self.runs.iter().zip(&self.shared)
    }

    /// One CSS class per style (none when the styles are attributes).
    fn write_styles(&self, out: &mut String) -> fmt::Result {
        if !self.classes {
            return Ok(());
        }
        let mut classes: HashSet<&str> = HashSet::default();
        let mut css = String::new();
        for (_, run) in &self.runs {
            let p = &run[0];
            if !p.class.is_empty() && classes.insert(&p.class) {
                write!(css, ".{}{{{}}}", p.class, p.style)?;
            }
        }
        if !css.is_empty() {
            write!(out, "<style>{css}</style>")?;
        }
        Ok(())
    }

    /// The shared runs, once each (a lone path, or a group), then the loose paths used
    /// more than once.
    fn write_shared(&self, out: &mut String) -> fmt::Result {
        let mut written: HashSet<u32> = HashSet::default();
        let mut groups: HashSet<Vec<u32>> = HashSet::default();
        for ((_, run), is_shared) in self.each() {
            if !is_shared || !groups.insert(path_ids(run)) {
                continue;
            }
            if let [p] = run {
                written.insert(p.id);
                write!(out, r#"<path id="{}" d="{}"/>"#, p.name, p.d)?;
                continue;
            }
            write!(out, r#"<g id="{}">"#, run_name(run))?;
            for p in *run {
                if written.contains(&p.id) {
                    write!(out, r##"<use xlink:href="#{}"/>"##, p.name)?;
                } else if self.loose_count(p.id) + self.shared_keys(p.id) > 1 {
                    written.insert(p.id);
                    write!(out, r#"<path id="{}" d="{}"/>"#, p.name, p.d)?;
                } else {
                    write!(out, r#"<path d="{}"/>"#, p.d)?;
                }
            }
            out.push_str("</g>");
        }
        for ((_, run), is_shared) in self.each() {
            if *is_shared {
                continue;
            }
            for p in *run {
                if self.shared_path(p.id) && written.insert(p.id) {
                    write!(out, r#"<path id="{}" d="{}"/>"#, p.name, p.d)?;
                }
            }
        }
        Ok(())
    }

    /// The runs of the `piece`th piece used, inside its symbol.
    fn write_symbol_body(&self, out: &mut String, piece: usize) -> fmt::Result {
        for ((_, run), is_shared) in self.each().filter(|((r, _), _)| *r == piece) {
            let class = match (run[0].class.is_empty(), self.classes) {
                (true, _) => String::new(),
                (false, true) => format!(r#" class="{}""#, run[0].class),
                (false, false) => Attributes(&run[0].style, &[]).to_string(),
            };
            if *is_shared {
                let id = if let [p] = run {
                    p.name.clone()
                } else {
                    run_name(run)
                };
                write!(out, r##"<use{class} xlink:href="#{id}"/>"##)?;
                continue;
            }
            // A group carries the class of several paths; a lone path carries its own.
            let own = if run.len() > 1 {
                write!(out, "<g{class}>")?;
                ""
            } else {
                class.as_str()
            };
            for p in *run {
                if self.shared_path(p.id) {
                    write!(out, r##"<use{own} xlink:href="#{}"/>"##, p.name)?;
                } else {
                    write!(out, r#"<path{own} d="{}"/>"#, p.d)?;
                }
            }
            if run.len() > 1 {
                out.push_str("</g>");
            }
        }
        Ok(())
    }
}

/// Labels as glyph outlines: consecutive labels of one colour and size in one path, in
/// units of the glyph grid (scaled by a transform), each glyph placed by a relative move.
fn write_labels(
    out: &mut String,
    scene: &Scene,
    font: &LabelFont,
    paper: Paper,
) -> fmt::Result {
    for run in scene
        .labels
        .chunk_by(|a, b| a.color == b.color && a.scale == b.scale)
    {
        let unit = run[0].scale * GLYPH_GRID;
        if unit.is_nan() || unit <= 0.0 {
            continue;
        }
        // Glyph points are whole grid units; origins keep two decimals, so labels sit
        // where the raster backend puts them.
        let mut d = PathWriter::new(2);
        for label in run {
            let Some(glyph) = font.glyph(label.ch) else {
                continue;
            };
            let origin = (
                (f64::from(label.x) / f64::from(unit) * 100.0).round() as i64,
                (f64::from(label.y) / f64::from(unit) * 100.0).round() as i64,
            );
            let g = &glyph.svg;
            if g.body.is_empty() {
                continue;
            }
            d.move_to((origin.0 + g.start.0 * 100, origin.1 + g.start.1 * 100));
            d.append_closed(
                &g.body,
                (origin.0 + g.end.0 * 100, origin.1 + g.end.1 * 100),
            );
        }
        write!(
            out,
            r#"<path{} transform="scale({})" fill="{}" d="{}"/>"#,
            page_class(scene, paper, run[0].color, LABEL_CLASS),
            unit,
            PageInk(scene, paper, run[0].color),
            d.finish()
        )?;
    }
    Ok(())
}

/// ` fill="#rrggbb"` plus ` fill-opacity="…"` when translucent (or `stroke`).
struct Paint(&'static str, Rgba);

impl fmt::Display for Paint {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let Paint(kind, c) = *self;
        write!(f, r##" {kind}="#{:02x}{:02x}{:02x}""##, c.r, c.g, c.b)?;
        if c.a != 255 {
            write!(f, r#" {kind}-opacity="{}""#, f32::from(c.a) / 255.0)?;
        }
        Ok(())
    }
}

/// SVG path data through `points`.
struct PathData<'a>(&'a [Point], bool);

impl fmt::Display for PathData<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, (x, y)) in self.0.iter().enumerate() {
            write!(f, "{}{x} {y}", if i == 0 { 'M' } else { 'L' })?;
        }
        if self.1 {
            f.write_str("Z")?;
        }
        Ok(())
    }
}

/// SVG path data of [`circle_curves`].
struct Circle(Point, f32);

impl fmt::Display for Circle {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let Circle(center, r) = *self;
        write!(f, "M{} {}", center.0 + r, center.1)?;
        for (a, b, c) in circle_curves(center, r) {
            write!(f, "C{} {} {} {} {} {}", a.0, a.1, b.0, b.1, c.0, c.1)?;
        }
        f.write_str("Z")
    }
}

fn write_shape(out: &mut String, shape: &Shape, gradients: &mut u32) -> fmt::Result {
    match shape {
        Shape::Rect { rect: r, color } => write!(
            out,
            r#"<rect x="{}" y="{}" width="{}" height="{}"{}/>"#,
            r.x,
            r.y,
            r.w,
            r.h,
            Paint("fill", *color)
        ),
        Shape::Polygon { points, color } => {
            write!(
                out,
                r#"<path d="{}"{}/>"#,
                PathData(points, true),
                Paint("fill", *color)
            )
        }
        Shape::Line {
            points,
            width,
            color,
        } => write!(
            out,
            r#"<path d="{}" fill="none" stroke-width="{width}" stroke-linecap="butt" stroke-linejoin="miter"{}/>"#,
            PathData(points, false),
            Paint("stroke", *color)
        ),
        Shape::Ring {
            center,
            radius,
            width,
            color,
        } => write!(
            out,
            r#"<circle cx="{}" cy="{}" r="{radius}" fill="none" stroke-width="{width}"{}/>"#,
            center.0,
            center.1,
            Paint("stroke", *color)
        ),
        Shape::Disc {
            center,
            radius,
            color,
        } => write!(
            out,
            r#"<path d="{}"{}/>"#,
            Circle(*center, *radius),
            Paint("fill", *color)
        ),
        Shape::Glow {
            center,
            radius,
            stops,
        } => {
            *gradients += 1;
            let id = *gradients;
            write!(
                out,
                r#"<radialGradient id="glow{id}" gradientUnits="userSpaceOnUse" cx="{}" cy="{}" r="{radius}">"#,
                center.0, center.1
            )?;
            for (offset, c) in stops {
                write!(
                    out,
                    r##"<stop offset="{offset}" stop-color="#{:02x}{:02x}{:02x}" stop-opacity="{}"/>"##,
                    c.r,
                    c.g,
                    c.b,
                    f32::from(c.a) / 255.0
                )?;
            }
            write!(
                out,
                r##"</radialGradient><path d="{}" fill="url(#glow{id})"/>"##,
                Circle(*center, *radius)
            )
        }
    }
}
