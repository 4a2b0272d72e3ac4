//! The fonts: glyph outlines for coordinate labels, and free text (player names, clocks,
//! worksheet captions), both read from DejaVu fonts compiled into the binary and built by
//! one outline builder ([`Outline`]).
//!
//! Owns glyph geometry, and which face draws each character of free text: DejaVu, then
//! the fonts added with `--fonts` (`font_files.rs`), then, when asked for, the machine's
//! (`font_system.rs`). Both backends draw the same outlines (SVG as `<path>`, raster
//! through tiny-skia), so labels look identical in PNG and SVG and never depend on the
//! fonts of the machine or the browser. Where labels go is `scene/`.

use crate::render::art::font_coverage::Source;
use crate::render::art::font_held::{SystemFonts, SystemGlyph};
use crate::render::spec::cost::Glyphs;
use std::sync::Arc;
use crate::render::art::pathdata::{Outline, PathWriter, Segment, replay};
use std::fmt::Write as _;
use std::path::PathBuf;
use std::sync::OnceLock;
use tiny_skia::{FillRule, Paint, Path, PathBuilder, PixmapMut, Transform};

/// Glyph outlines are snapped to a grid of this many font units (1/512 em for DejaVu): far
/// below a pixel at any label size, and it keeps the SVG path data short.
pub const GLYPH_GRID: f32 = 1.0;

/// One glyph: its outline in font units (y up, origin on the baseline) and metrics.
#[derive(Debug, Clone)]
pub struct Glyph {
    /// The outline, ready for tiny-skia, in font units (y up), snapped to [`GLYPH_GRID`].
    pub path: Option<Path>,
    /// The same outline as segments, in units of [`GLYPH_GRID`] font units (y up). Kept for
    /// the tests, which check that every outline starts with a move.
    #[cfg_attr(not(test), allow(dead_code))]
    pub segments: Vec<Segment>,
    /// Horizontal extent of the ink: (x min, x max), font units.
    pub ink_x: (f32, f32),
    /// The outline as SVG path data in grid units, y down, written once.
    pub svg: GlyphPath,
}

/// A glyph's SVG path data, relative, so it can be placed anywhere by a first move.
#[derive(Debug, Clone, Default)]
pub struct GlyphPath {
    /// The first point (grid units, y down).
    pub start: (i64, i64),
    /// Everything after the first move, ending with a close.
    pub body: String,
    /// Where the pen is after the body (grid units, y down).
    pub end: (i64, i64),
}

impl GlyphPath {
    fn of(segments: &[Segment]) -> GlyphPath {
        let at = |x: f64, y: f64| (x as i64, -(y as i64));
        let start = match segments.first() {
            Some(Segment::Move(x, y)) => at(*x, *y),
            _ => return GlyphPath::default(),
        };
        let mut w = PathWriter::new(0).starting_at(start);
        replay(&mut w, &segments[1..], at);
        let end = w.pen();
        GlyphPath {
            start,
            body: w.finish(),
            end,
        }
    }
}

/// The label font: glyphs for `a`–`z`, `0`–`9` and a few signs.
#[derive(Debug)]
pub struct LabelFont {
    glyphs: Vec<(char, Glyph)>,
    units_per_em: f32,
    cap_height: f32,
}

/// `segment` with every coordinate through `f`.
fn map_points(segment: &Segment, f: impl Fn(f64) -> f64) -> Segment {
    match *segment {
        Segment::Move(x, y) => Segment::Move(f(x), f(y)),
        Segment::Line(x, y) => Segment::Line(f(x), f(y)),
        Segment::Quad(a, b, x, y) => Segment::Quad(f(a), f(b), f(x), f(y)),
        Segment::Cubic(a, b, c, d, x, y) => Segment::Cubic(f(a), f(b), f(c), f(d), f(x), f(y)),
        Segment::Close => Segment::Close,
    }
}

/// `segments` as a tiny-skia path, each coordinate times `scale`.
pub(crate) fn path_of(segments: &[Segment], scale: f32) -> Option<Path> {
    let at = |v: f64| v as f32 * scale;
    let mut b = PathBuilder::new();
    for s in segments {
        match *s {
            Segment::Move(x, y) => b.move_to(at(x), at(y)),
            Segment::Line(x, y) => b.line_to(at(x), at(y)),
            Segment::Quad(x1, y1, x, y) => b.quad_to(at(x1), at(y1), at(x), at(y)),
            Segment::Cubic(x1, y1, x2, y2, x, y) => {
                b.cubic_to(at(x1), at(y1), at(x2), at(y2), at(x), at(y))
            }
            Segment::Close => b.close(),
        }
    }
    b.finish()
}

/// A coordinate in font units snapped to the grid, in grid units.
fn snap(v: f64) -> f64 {
    f64::from((v as f32 / GLYPH_GRID).round())
}

const CHARSET: &str = "abcdefghijklmnopqrstuvwxyz0123456789+-!?";

impl LabelFont {
    /// The built-in font (DejaVu Sans Bold), parsed on first use.
    pub fn builtin() -> &'static LabelFont {
        static FONT: OnceLock<LabelFont> = OnceLock::new();
        FONT.get_or_init(|| {
            LabelFont::from_ttf(dejavu::sans::bold()).unwrap_or_else(LabelFont::empty)
        })
    }

    fn empty() -> LabelFont {
        LabelFont {
            glyphs: Vec::new(),
            units_per_em: 1000.0,
            cap_height: 700.0,
        }
    }

    /// Read the glyphs of [`CHARSET`] from a TrueType font. `None` if the font is unreadable.
    fn from_ttf(data: &[u8]) -> Option<LabelFont> {
        let face = ttf_parser::Face::parse(data, 0).ok()?;
        let units_per_em = f32::from(face.units_per_em());
        let cap_height = face
            .capital_height()
            .map(f32::from)
            .unwrap_or(units_per_em * 0.73);
        let glyphs = CHARSET
            .chars()
            .filter_map(|c| {
                let id = face.glyph_index(c)?;
                let mut outline = Outline::default();
                let bbox = face.outline_glyph(id, &mut outline)?;
                let segments: Vec<Segment> =
                    outline.0.iter().map(|s| map_points(s, snap)).collect();
                let glyph = Glyph {
                    path: path_of(&segments, GLYPH_GRID),
                    svg: GlyphPath::of(&segments),
                    segments,
                    ink_x: (f32::from(bbox.x_min), f32::from(bbox.x_max)),
                };
                Some((c, glyph))
            })
            .collect();
        Some(LabelFont {
            glyphs,
            units_per_em,
            cap_height,
        })
    }

    /// The glyph for `c`, if the label charset has it.
    pub fn glyph(&self, c: char) -> Option<&Glyph> {
        self.glyphs.iter().find(|(g, _)| *g == c).map(|(_, g)| g)
    }

    /// Font units per em.
    pub fn units_per_em(&self) -> f32 {
        self.units_per_em
    }

    /// Height of capitals and digits, in font units.
    pub fn cap_height(&self) -> f32 {
        self.cap_height
    }
}


// Free text: measured, painted through tiny-skia, or written as SVG path data.

/// A typeface for free text.
pub struct TextFace {
    face: ttf_parser::Face<'static>,
    units_per_em: f32,
    bold: bool,
}

/// Faces added at start-up for the characters DejaVu lacks (Japanese, Chinese, …), book
/// weights first, then bold ones; set once ([`add_fallback_faces`]).
static FALLBACKS: OnceLock<Vec<TextFace>> = OnceLock::new();

/// What distinguishes the added fonts (their names and sizes), 0 when none were added:
/// the service's ETags carry it, as the same query draws other pixels with other fonts.
static FALLBACK_ID: OnceLock<u64> = OnceLock::new();

/// The added fonts' identity ([`add_fallback_faces`]); 0 when none were added.
#[cfg_attr(not(feature = "server"), allow(dead_code))] // only the service has ETags
pub fn fallback_id() -> u64 {
    FALLBACK_ID.get().copied().unwrap_or(0)
}

/// Why fonts could not be added.
#[derive(Debug, thiserror::Error)]
pub enum FallbackError {
    /// Added fonts are fixed for the life of the process (every cached image was drawn
    /// with them).
    #[error("fonts were already added to this process; they can be added once, at start-up")]
    AlreadySet,
    /// The bytes are not a font ttf-parser reads.
    #[error("{0} is not a TrueType or OpenType font (or collection) that can be read")]
    Unreadable(String),
}

/// Add fonts (`(name, bytes)`, e.g. a file's name and contents; the first face of a
/// collection) that free text falls back to, in the order given, for any character
/// DejaVu Sans has no glyph for. A face whose OS/2 table says bold serves bold text first.
/// Once per process.
pub fn add_fallback_faces(fonts: Vec<(String, &'static [u8])>) -> Result<(), FallbackError> {
    let mut faces = Vec::with_capacity(fonts.len());
    let names: String = fonts.iter().map(|(n, d)| format!("{n}:{};", d.len())).collect();
    for (name, data) in fonts {
        let face = ttf_parser::Face::parse(data, 0).map_err(|_| FallbackError::Unreadable(name))?;
        let units_per_em = f32::from(face.units_per_em());
        let bold = face.is_bold() || face.weight().to_number() >= 600;
        faces.push(TextFace { face, units_per_em, bold });
    }
    faces.sort_by_key(|f| f.bold);
    let id = crate::hash::fnv1a(names.bytes()).max(1);
    FALLBACKS.set(faces).map_err(|_| FallbackError::AlreadySet)?;
    FALLBACK_ID.get_or_init(|| id);
    Ok(())
}

fn fallbacks() -> &'static [TextFace] {
    FALLBACKS.get().map_or(&[], Vec::as_slice)
}

/// The folders of the system's fonts, once the caller asked for them ([`use_system_fonts`]).
static SYSTEM_DIRS: OnceLock<Vec<PathBuf>> = OnceLock::new();

/// Let free text fall back on the fonts installed on this machine (in `dirs`, usually
/// [`crate::render::art::font_system::system_font_dirs`]) for characters neither DejaVu nor the added fonts
/// draw. The folders are scanned on the first character that needs them (or
/// [`scan_system_fonts`]): each face's character map, merged into one map of which face
/// draws what; a face's whole file only once a character is drawn in it, held within the
/// system fonts' budget (`font_held`). Off unless asked for (a library does not read the
/// file system behind its caller's back); the command line and the service ask, unless
/// `--system-fonts=false`. Once per process, before the first render.
pub fn use_system_fonts(dirs: Vec<PathBuf>) -> Result<(), FallbackError> {
    SYSTEM_DIRS.set(dirs).map_err(|_| FallbackError::AlreadySet)
}

/// Whether free text falls back on the system's fonts ([`use_system_fonts`]).
pub(crate) fn system_fonts_on() -> bool {
    SYSTEM_DIRS.get().is_some()
}

/// The system's faces and their merged map, once scanned.
static SYSTEM: OnceLock<SystemFonts> = OnceLock::new();

/// The system's faces and their merged map, scanned on first use; `None` unless asked
/// for.
fn system() -> Option<&'static SystemFonts> {
    let dirs = SYSTEM_DIRS.get()?;
    Some(SYSTEM.get_or_init(|| {
        let fixed = [false, true].map(fixed_characters);
        SystemFonts::scan(dirs, [&fixed[0], &fixed[1]])
    }))
}

/// Scan the system's fonts now (the service does at start-up, off its request path), if
/// they are used; later calls do nothing.
pub fn scan_system_fonts() {
    system();
}

/// The characters DejaVu (`bold` or book) and the added fonts draw, sorted.
fn fixed_characters(bold: bool) -> Vec<u32> {
    let faces = TextFace::builtin(bold).into_iter().chain(fallbacks());
    let cmaps = faces.filter_map(|face| face.face.tables().cmap);
    let mut out: Vec<u32> = cmaps.flat_map(crate::render::art::font_system::characters).collect();
    out.sort_unstable();
    out.dedup();
    out
}

/// Where `c` is drawn from in `bold` or book text, by the merged map: DejaVu or an added
/// font, a system face, or none. `Fixed` for every character DejaVu or an added font draws
/// when the system's fonts are not used, and `None` for the others.
pub(crate) fn source(c: char, bold: bool) -> Source {
    match system() {
        Some(system) => system.source(c, bold),
        None => {
            let fixed = (TextFace::builtin(bold).into_iter().chain(fallbacks()))
                .any(|f| f.face.glyph_index(c).is_some());
            if fixed { Source::Fixed } else { Source::None }
        }
    }
}

/// Which system faces `text`'s characters are drawn in, as one number (`None` when
/// DejaVu and the added fonts draw them all, or the system's fonts are not used): cache
/// keys carry it, so an image is never served after the faces that drew it changed, and
/// two machines with other fonts do not share keys for other pixels. Both weights count.
/// A look in the merged map a character, nothing remembered.
pub fn system_fonts_used(text: &str) -> Option<u64> {
    let system = if text.is_ascii() { None } else { system() }?;
    let mut ids: Vec<u64> = Vec::new();
    for c in text.chars().filter(|c| !c.is_ascii()) {
        for bold in [false, true] {
            if let Source::System(i) = system.source(c, bold) {
                ids.push(system.fonts[usize::from(i)].id);
            }
        }
    }
    ids.sort_unstable();
    ids.dedup();
    (!ids.is_empty()).then(|| crate::hash::fnv1a(ids.iter().flat_map(|id| id.to_le_bytes())))
}

/// Let go of the system faces' files nobody asked a glyph of in `idle` (see `font_held`).
pub(crate) fn release_idle(idle: std::time::Duration) {
    if let Some(system) = SYSTEM.get() {
        system.release_idle(idle);
    }
}

/// How full the system faces' caches are (none when the system's fonts are not used, or
/// not scanned yet).
pub fn system_usage() -> Vec<crate::cache::Usage> {
    SYSTEM.get().map_or_else(Vec::new, |s| s.usage().to_vec())
}

/// What drawing `text` in `bold` or book text costs, by the faces that draw it (see
/// [`crate::render::spec::cost::Glyphs`]).
pub fn tally(text: &str, bold: bool) -> Glyphs {
    let mut glyphs = Glyphs::default();
    let system = if text.is_ascii() { None } else { system() };
    for c in text.chars() {
        match system.map(|s| (s, s.source(c, bold))) {
            Some((s, Source::System(i))) => {
                glyphs.system += 1;
                glyphs.system_outline_bytes += u64::from(s.fonts[usize::from(i)].outline_bytes);
            }
            _ => glyphs.fixed += 1,
        }
    }
    glyphs
}

/// Which face draws one character: a face held for the life of the process (DejaVu, an
/// added font) and its glyph, or a system face by its index.
enum Which<'a> {
    Face(&'a TextFace, ttf_parser::GlyphId),
    System(u16),
}

/// What draws one character: a glyph of a face held for the life of the process
/// (DejaVu, an added font), or a system face's glyph, held while drawn.
enum Drawn<'a> {
    Face(&'a TextFace, ttf_parser::GlyphId),
    System(Arc<SystemGlyph>),
}

/// Whether two runs' faces are one (see [`TextFace::runs`]).
fn same_face(a: Option<&TextFace>, b: Option<&TextFace>) -> bool {
    match (a, b) {
        (Some(a), Some(b)) => std::ptr::eq(a, b),
        (a, b) => a.is_none() && b.is_none(),
    }
}

impl std::fmt::Debug for TextFace {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("TextFace").finish_non_exhaustive()
    }
}

/// Hundredths of a pixel: far below what a printer or a screen shows, and what both
/// backends draw free text on, so PNG and SVG agree.
fn hundredths(v: f32) -> f32 {
    (v * 100.0).round() / 100.0
}

/// A path command (`M`, `L`, `Q`, `C`, `Z`) and its points, in pixels.
pub(crate) type Emit<'a> = dyn FnMut(char, &[(f32, f32)]) + 'a;

/// What [`TextFace::glyphs`] is given for each glyph: whether it has an outline, its
/// segments (font units, y up), its scale and the pen's position.
type EachGlyph<'a> = dyn FnMut(bool, &[Segment], f32, f32) + 'a;

/// `segments` (font units, y up) scaled by `scale` and placed at `origin`, in pixels (y
/// down) rounded to [`hundredths`], through `emit` as (command, points).
fn place(segments: &[Segment], scale: f32, origin: (f32, f32), emit: &mut Emit) {
    let at = |x: f64, y: f64| {
        (
            hundredths(origin.0 + x as f32 * scale),
            hundredths(origin.1 - y as f32 * scale),
        )
    };
    for s in segments {
        match *s {
            Segment::Move(x, y) => emit('M', &[at(x, y)]),
            Segment::Line(x, y) => emit('L', &[at(x, y)]),
            Segment::Quad(x1, y1, x, y) => emit('Q', &[at(x1, y1), at(x, y)]),
            Segment::Cubic(x1, y1, x2, y2, x, y) => emit('C', &[at(x1, y1), at(x2, y2), at(x, y)]),
            Segment::Close => emit('Z', &[]),
        }
    }
}

/// `segments` (font units, y up) onto `b` as [`TextFace::svg_path`] writes them, scaled by `scale`
/// and placed at `origin`: the very points the SVG holds.
fn build_path(b: &mut PathBuilder, segments: &[Segment], scale: f32, origin: (f32, f32)) {
    place(segments, scale, origin, &mut |command, p| match (command, p) {
        ('M', [a]) => b.move_to(a.0, a.1),
        ('L', [a]) => b.line_to(a.0, a.1),
        ('Q', [a, c]) => b.quad_to(a.0, a.1, c.0, c.1),
        ('C', [a, c, e]) => b.cubic_to(a.0, a.1, c.0, c.1, e.0, e.1),
        ('Z', _) => b.close(),
        _ => {}
    });
}

/// Characters a line may not start with (closing brackets, stops, small kana and the
/// long-vowel mark), and ones it may not end with (opening brackets): the Japanese rules
/// for breaking text without spaces (kinsoku), which suit Chinese too.
const NO_LINE_START: &str = "、。，．・：；？！ー）」』】〕〉》’”ぁぃぅぇぉっゃゅょゎァィゥェォッャュョヮヵヶ…‥";
const NO_LINE_END: &str = "（「『【〔〈《‘“";

/// Where to break `line`, near byte `cut` (the next line starts there), so that neither
/// rule above is broken: moved back by at most two characters (as typesetters do; a longer
/// run of such characters breaks anyway, so no line outgrows its width).
fn break_before(line: &str, mut cut: usize) -> usize {
    for _ in 0..2 {
        let (Some(prev), Some(next)) = (line[..cut].chars().next_back(), line[cut..].chars().next())
        else {
            break;
        };
        let bad = NO_LINE_START.contains(next) || NO_LINE_END.contains(prev);
        if !bad || cut == prev.len_utf8() {
            break;
        }
        cut -= prev.len_utf8();
    }
    cut
}

/// The fewest ems one character of shown text is counted as, when text is cut to what a box
/// can show before it is measured: a hair space, the narrowest printing character of the
/// built-in faces. Only text of characters that draw nothing (combining marks, joiners) is
/// ever cut by it, and such text can no longer make a line's work grow without end.
const NARROWEST_EM: f32 = 0.1;

/// The most characters `lines` lines `max` pixels wide can show at `px` pixels per em.
fn room(px: f32, max: f32, lines: usize) -> usize {
    let per_line = (max / (px * NARROWEST_EM)).clamp(0.0, 1e9) as usize + 2;
    per_line.saturating_mul(lines)
}

/// The byte where `text`'s first `n` characters end (its length when it has fewer).
fn char_end(text: &str, n: usize) -> usize {
    text.char_indices().nth(n).map_or(text.len(), |(i, _)| i)
}

/// The byte where the first `k` measured characters end (see [`TextFace::fit`]).
fn prefix_end(ends: &[(usize, f32)], k: usize) -> usize {
    match k {
        0 => 0,
        _ => ends[k - 1].0,
    }
}

/// A line being wrapped: its text, its width (summed left to right, as
/// [`TextFace::width`] sums) and its length in characters.
#[derive(Default)]
struct Line {
    text: String,
    width: f32,
    chars: usize,
}

impl Line {
    /// Add ` word` (or `word`, on an empty line) if the line stays within `max`.
    fn try_join(&mut self, face: &TextFace, word: &str, px: f32, max: f32) -> bool {
        let mut width = match self.text.is_empty() {
            true => 0.0,
            false => self.width + face.advance(' ', px),
        };
        for c in word.chars() {
            width += face.advance(c, px);
            if width > max {
                return false;
            }
        }
        if !self.text.is_empty() {
            self.text.push(' ');
            self.chars += 1;
        }
        self.text.push_str(word);
        self.chars += word.chars().count();
        self.width = width;
        true
    }

    fn push(&mut self, face: &TextFace, c: char, px: f32) {
        self.text.push(c);
        self.width += face.advance(c, px);
        self.chars += 1;
    }

    fn take(&mut self) -> String {
        std::mem::take(self).text
    }

    /// The line cut before its last character, after a slash if it has one (a FEN's
    /// ranks, a path), else where the line-breaking rules allow: returns the part that
    /// ends, and keeps the rest.
    fn split(&mut self, face: &TextFace, px: f32) -> String {
        let last = self.text.chars().next_back().map_or(0, char::len_utf8);
        let before = self.text.len() - last;
        let cut = match self.text[..before].rfind('/') {
            Some(at) if at > 0 => at + 1,
            _ => break_before(&self.text, before),
        };
        let rest = self.text.split_off(cut);
        let done = std::mem::take(&mut self.text);
        self.width = 0.0;
        self.chars = 0;
        for c in rest.chars() {
            self.push(face, c, px);
        }
        done
    }
}

impl TextFace {
    /// DejaVu Sans (`bold` or book weight), parsed on first use; `None` only if the
    /// compiled-in font could not be read.
    pub fn builtin(bold: bool) -> Option<&'static TextFace> {
        static BOOK: OnceLock<Option<TextFace>> = OnceLock::new();
        static BOLD: OnceLock<Option<TextFace>> = OnceLock::new();
        let (cell, data) = match bold {
            true => (&BOLD, dejavu::sans::bold()),
            false => (&BOOK, dejavu::sans::regular()),
        };
        cell.get_or_init(|| {
            let face = ttf_parser::Face::parse(data, 0).ok()?;
            let units_per_em = f32::from(face.units_per_em());
            Some(TextFace { face, units_per_em, bold })
        })
        .as_ref()
    }

    /// Whether the face, a font added to fall back on, or a system font, draws `c` (rather than a `?` in
    /// its place).
    pub fn has_glyph(&self, c: char) -> bool {
        self.face.glyph_index(c).is_some()
            || fallbacks().iter().any(|f| f.face.glyph_index(c).is_some())
            || matches!(source(c, self.bold), Source::System(_))
    }

    /// Which face draws `c`: this face, else an added one (of this weight first), else the
    /// system face the merged map names (by its index), else this face's `?`.
    fn which(&self, c: char) -> Option<Which<'_>> {
        if let Some(g) = self.face.glyph_index(c) {
            return Some(Which::Face(self, g));
        }
        let added = fallbacks();
        let same = added.iter().filter(|f| f.bold == self.bold);
        let other = added.iter().filter(|f| f.bold != self.bold);
        same.chain(other)
            .find_map(|f| Some(Which::Face(f, f.face.glyph_index(c)?)))
            .or_else(|| match source(c, self.bold) {
                Source::System(i) => Some(Which::System(i)),
                _ => None,
            })
            .or_else(|| Some(Which::Face(self, self.face.glyph_index('?')?)))
    }

    /// What draws `c` (see [`TextFace::which`]), a system face's glyph read.
    fn glyph(&self, c: char) -> Option<Drawn<'_>> {
        Some(match self.which(c)? {
            Which::Face(f, g) => Drawn::Face(f, g),
            Which::System(i) => Drawn::System(system()?.glyph(i, c)?),
        })
    }

    /// What draws `c`, its scale at `px` pixels per em and its advance in pixels.
    fn placed(&self, c: char, px: f32) -> Option<(Drawn<'_>, f32, f32)> {
        let drawn = self.glyph(c)?;
        let (upem, advance) = match &drawn {
            Drawn::Face(f, g) => (f.units_per_em, f32::from(f.face.glyph_hor_advance(*g).unwrap_or(0))),
            Drawn::System(g) => (g.units_per_em, g.advance),
        };
        let scale = px / upem;
        Some((drawn, scale, advance * scale))
    }

    /// This face as a PDF embeds it (`render::art::pdf_font`).
    pub(crate) fn pdf_face(&'static self) -> crate::render::art::pdf_font::Face {
        crate::render::art::pdf_font::Face {
            data: self.face.raw_face().data,
            parsed: &self.face,
        }
    }

    /// `text` cut into runs each drawn by one face: this one or an added one for the
    /// characters this face lacks (as [`TextFace::paint`] chooses them), or `None` for a
    /// run the system's faces draw (as outlines, through this face's [`TextFace::outline`]).
    pub(crate) fn runs(&'static self, text: &str) -> Vec<(Option<&'static TextFace>, String)> {
        let mut runs: Vec<(Option<&'static TextFace>, String)> = Vec::new();
        for c in text.chars() {
            let face = match self.glyph(c) {
                Some(Drawn::Face(f, _)) => Some(f),
                Some(Drawn::System(_)) => None,
                None => Some(self),
            };
            match runs.last_mut() {
                Some((f, run)) if same_face(*f, face) => run.push(c),
                _ => runs.push((face, c.to_string())),
            }
        }
        runs
    }

    /// The box around `text`'s ink at `px` pixels per em, the left end of its baseline at
    /// the origin, y down, as (left, top, right, bottom); `None` when it has no ink.
    pub(crate) fn ink_box(&self, text: &str, px: f32) -> Option<(f32, f32, f32, f32)> {
        let mut pen = 0.0;
        let mut ink: Option<(f32, f32, f32, f32)> = None;
        for c in text.chars() {
            let Some((drawn, scale, advance)) = self.placed(c, px) else { continue };
            let b = match &drawn {
                Drawn::Face(f, g) => f.face.glyph_bounding_box(*g).map(|b| {
                    [b.x_min, b.y_min, b.x_max, b.y_max].map(f32::from)
                }),
                Drawn::System(g) => g.ink,
            };
            if let Some([x_min, y_min, x_max, y_max]) = b {
                let (x0, x1) = (pen + x_min * scale, pen + x_max * scale);
                let (y0, y1) = (-y_max * scale, -y_min * scale);
                ink = Some(match ink {
                    Some((a, b, c, d)) => (a.min(x0), b.min(y0), c.max(x1), d.max(y1)),
                    None => (x0, y0, x1, y1),
                });
            }
            pen += advance;
        }
        ink
    }

    /// The advance width of `text` at `px` pixels per em.
    pub fn width(&self, text: &str, px: f32) -> f32 {
        text.chars().map(|c| self.advance(c, px)).sum()
    }

    /// Height of capitals in pixels at `px` pixels per em.
    pub fn cap_height(&self, px: f32) -> f32 {
        let cap = self
            .face
            .capital_height()
            .map_or(self.units_per_em * 0.73, f32::from);
        cap * px / self.units_per_em
    }

    /// The advance of `c` at `px` pixels per em (0 for a character nothing draws): a
    /// system face's from its metrics, without drawing the glyph.
    pub(crate) fn advance(&self, c: char, px: f32) -> f32 {
        let measured = match self.which(c) {
            Some(Which::Face(f, g)) => Some((f32::from(f.face.glyph_hor_advance(g).unwrap_or(0)), f.units_per_em)),
            Some(Which::System(i)) => system().and_then(|s| s.advance(i, c)),
            None => None,
        };
        measured.map_or(0.0, |(advance, upem)| advance * px / upem)
    }

    /// `text` shortened with `…` to at most `max` pixels wide at `px`.
    ///
    /// Linear in what is shown, not in what is given: the text is measured only until it is
    /// known not to fit (and never past [`room`] characters), then cut at the longest
    /// prefix that fits with the `…`.
    pub fn fit(&self, text: &str, px: f32, max: f32) -> String {
        let cap = room(px, max, 1);
        // (byte end, width so far) after each measured character, summed left to right
        // as `width` sums, so the decision is the same to the last bit.
        let mut ends: Vec<(usize, f32)> = Vec::new();
        let mut w = 0.0f32;
        for (i, c) in text.char_indices() {
            if w > max || ends.len() >= cap {
                break;
            }
            w += self.advance(c, px);
            ends.push((i + c.len_utf8(), w));
        }
        if w <= max && ends.len() == text.chars().take(ends.len() + 1).count() {
            return text.to_string();
        }
        let ellipsis = self.width("…", px);
        // How many characters each prefix keeps once its trailing spaces are dropped.
        let mut kept = Vec::with_capacity(ends.len());
        let mut last = 0;
        for (k, c) in text.chars().take(ends.len()).enumerate() {
            kept.push(last);
            if !c.is_whitespace() {
                last = k + 1;
            }
        }
        // The longest prefix of fewer characters than were measured, its trailing spaces
        // dropped, that fits with the `…`.
        for k in (0..ends.len()).rev() {
            let j = kept[k];
            let width = match j {
                0 => 0.0,
                _ => ends[j - 1].1,
            };
            if width + ellipsis <= max {
                return format!("{}…", &text[..prefix_end(&ends, j)]);
            }
        }
        String::new()
    }

    /// `text` broken at spaces into lines at most `max` pixels wide at `px` (a word wider
    /// than a line is broken after a slash, or else between characters, as text without
    /// spaces is); at most
    /// `lines` lines, the last ending in `…` when the text goes on.
    ///
    /// Linear in what is shown: each line's width is kept as it grows, and the text is read
    /// only until the line after the last shown one is known (and never past [`room`]
    /// characters), which is all the closing `…` depends on.
    pub fn wrap(&self, text: &str, px: f32, max: f32, lines: usize) -> Vec<String> {
        let text = &text[..char_end(text, room(px, max, lines))];
        let enough = lines.saturating_add(2);
        let mut out: Vec<String> = Vec::new();
        let mut line = Line::default();
        'words: for word in text.split_whitespace() {
            if line.try_join(self, word, px, max) {
                continue;
            }
            if !line.text.is_empty() {
                out.push(line.take());
            }
            for c in word.chars() {
                line.push(self, c, px);
                if line.chars > 1 && line.width > max {
                    out.push(line.split(self, px));
                }
                if out.len() >= enough {
                    // What follows cannot change the last line shown: the lines after it
                    // are already wider than a line together.
                    line = Line::default();
                    break 'words;
                }
            }
        }
        if !line.text.is_empty() {
            out.push(line.text);
        }
        if out.len() > lines {
            let rest = out.split_off(lines).join(" ");
            if let Some(last) = out.last_mut() {
                *last = self.fit(&format!("{last} {rest}"), px, max);
            }
        }
        out
    }

    /// `text` as SVG path data (absolute, y down) at `px` pixels per em, the left end of its
    /// baseline at (`x`, `baseline`): the same outlines [`TextFace::paint`] fills.
    pub fn svg_path(&self, text: &str, px: f32, origin: (f32, f32)) -> String {
        let mut d = String::new();
        self.outline(text, px, origin, &mut |command, points| {
            d.push(command);
            for (x, y) in points {
                let _ = write!(d, "{x} {y} ");
            }
        });
        d
    }

    /// `text`'s outlines at `px` pixels per em, the left end of its baseline at (`x`,
    /// `baseline`), through `emit` as (command, points) in pixels, y down: the path
    /// [`TextFace::svg_path`] writes (and a PDF draws for a face it cannot embed).
    pub(crate) fn outline(
        &self,
        text: &str,
        px: f32,
        (x, baseline): (f32, f32),
        emit: &mut Emit,
    ) {
        self.glyphs(text, px, x, &mut |_, segments, scale, pen| {
            place(segments, scale, (pen, baseline), emit);
        });
    }

    /// Each glyph of `text` at `px` pixels per em, the pen starting at `x`: whether the
    /// face gave it an outline, its segments (font units, y up), its scale and the pen's
    /// position, which then moves on by its advance.
    fn glyphs(&self, text: &str, px: f32, x: f32, each: &mut EachGlyph) {
        let mut pen = x;
        for c in text.chars() {
            let Some((drawn, scale, advance)) = self.placed(c, px) else { continue };
            match drawn {
                Drawn::Face(f, g) => {
                    let mut outline = Outline::default();
                    let found = f.face.outline_glyph(g, &mut outline).is_some();
                    each(found, &outline.0, scale, pen);
                }
                Drawn::System(g) => each(g.ink.is_some(), &g.segments, scale, pen),
            }
            pen += advance;
        }
    }

    /// Paint `text` in `color` (RGBA) at `px` pixels per em, the left end of its baseline at
    /// (`x`, `baseline`).
    pub fn paint(
        &self,
        text: &str,
        px: f32,
        (x, baseline): (f32, f32),
        color: [u8; 4],
        pixmap: &mut PixmapMut,
    ) {
        let paint = solid(color);
        self.glyphs(text, px, x, &mut |found, segments, scale, pen| {
            if found && let Some(path) = path_of(segments, 1.0) {
                let transform = Transform::from_row(scale, 0.0, 0.0, -scale, pen, baseline);
                pixmap.fill_path(&path, &paint, FillRule::Winding, transform, None);
            }
        });
    }

    /// The outline of `text` at `px` pixels per em, the left end of its baseline at
    /// `origin`, as one path built from the very points [`TextFace::svg_path`] writes:
    /// filled, what an SVG viewer draws of that path data, pixel for pixel (captions,
    /// whose PNG and SVG are compared). `None` for text with no ink.
    pub fn svg_outline(&self, text: &str, px: f32, (x, baseline): (f32, f32)) -> Option<Path> {
        let mut b = PathBuilder::new();
        self.glyphs(text, px, x, &mut |found, segments, scale, pen| {
            if found {
                build_path(&mut b, segments, scale, (pen, baseline));
            }
        });
        b.finish()
    }
}

/// An anti-aliased paint of one colour (RGBA).
fn solid(color: [u8; 4]) -> Paint<'static> {
    let mut paint = Paint::default();
    paint.set_color_rgba8(color[0], color[1], color[2], color[3]);
    paint.anti_alias = true;
    paint
}

#[cfg(test)]
mod free_text_tests {
    use super::*;

    #[test]
    fn breaks_keep_stops_off_a_line_start_and_brackets_off_its_end() {
        let at = |line: &str, before: char| break_before(line, line.find(before).unwrap());
        // The next line would start with a stop: one character goes along with it.
        assert_eq!(at("局面です。", '。'), "局面で".len());
        // This line would end with an opening bracket: it goes to the next line.
        assert_eq!(at("局面です「詰", '詰'), "局面です".len());
        // A bracket pair goes together; never more than two characters back.
        assert_eq!(at("です「」", '」'), "です".len());
        assert_eq!(at("あいう。。。", '。'), "あ".len() * 2);
        // Never back to the line's start, and untouched where no rule applies.
        assert_eq!(at("「。", '。'), "「".len());
        assert_eq!(at("abc/def", 'd'), "abc/".len());
    }

    #[test]
    fn measures_fits_and_paints() {
        let face = TextFace::builtin(false).expect("the built-in font");
        let w = face.width("Morphy", 20.0);
        assert!(w > 40.0 && w < 100.0, "{w}");
        assert!(face.width("Morphy, Paul", 20.0) > w);
        let fitted = face.fit("Kieseritzky, Lionel Adalbert Bagration Felix", 20.0, 120.0);
        assert!(
            fitted.ends_with('…') && face.width(&fitted, 20.0) <= 120.0,
            "{fitted}"
        );
        let mut pixmap = tiny_skia::Pixmap::new(120, 30).expect("allocates");
        face.paint(
            "Ä é ß",
            20.0,
            (2.0, 22.0),
            [255, 255, 255, 255],
            &mut pixmap.as_mut(),
        );
        let inked = pixmap.data().chunks_exact(4).filter(|p| p[3] > 128).count();
        assert!(inked > 40, "{inked} pixels inked");
    }
}

/// The first, quadratic `fit` and `wrap` (each character re-measured the whole text), kept
/// as the reference the linear ones must agree with to the byte.
#[cfg(test)]
mod reference {
    use super::{TextFace, break_before};

    pub fn fit(face: &TextFace, text: &str, px: f32, max: f32) -> String {
        if face.width(text, px) <= max {
            return text.to_string();
        }
        let mut chars: Vec<char> = text.chars().collect();
        while !chars.is_empty() {
            chars.pop();
            let shortened: String = chars.iter().collect::<String>().trim_end().to_string() + "…";
            if face.width(&shortened, px) <= max {
                return shortened;
            }
        }
        String::new()
    }

    pub fn wrap(face: &TextFace, text: &str, px: f32, max: f32, lines: usize) -> Vec<String> {
        let mut out: Vec<String> = Vec::new();
        let mut line = String::new();
        for word in text.split_whitespace() {
            let joined = match line.is_empty() {
                true => word.to_string(),
                false => format!("{line} {word}"),
            };
            if face.width(&joined, px) <= max {
                line = joined;
                continue;
            }
            if !line.is_empty() {
                out.push(std::mem::take(&mut line));
            }
            for c in word.chars() {
                line.push(c);
                if line.chars().count() > 1 && face.width(&line, px) > max {
                    let cut = match line[..line.len() - c.len_utf8()].rfind('/') {
                        Some(at) if at > 0 => at + 1,
                        _ => break_before(&line, line.len() - c.len_utf8()),
                    };
                    let rest = line.split_off(cut);
                    out.push(std::mem::replace(&mut line, rest));
                }
            }
        }
        if !line.is_empty() {
            out.push(line);
        }
        if out.len() > lines {
            let rest = out.split_off(lines).join(" ");
            if let Some(last) = out.last_mut() {
                *last = fit(face, &format!("{last} {rest}"), px, max);
            }
        }
        out
    }
}

#[cfg(test)]
mod linear_text_tests {
    use super::*;
    use proptest::prelude::*;

    /// Words of letters, wide and narrow signs, slashes, Japanese stops and brackets, and
    /// characters that draw nothing, with runs of spaces.
    fn text() -> impl Strategy<Value = String> {
        let pieces = prop::sample::select(vec![
            "a", "W", "i", "l", "Morphy", "/", "8", "。", "「", "局面", "\u{301}", "…", " ",
            "  ", "\u{200a}", "ÄÖ", "Kieseritzky",
        ]);
        prop::collection::vec(pieces, 0..80).prop_map(|p| p.concat())
    }

    proptest! {
        #[test]
        fn fit_and_wrap_agree_with_the_quadratic_reference(
            text in text(),
            px in 6.0f32..40.0,
            max in 0.0f32..400.0,
            lines in 1usize..5,
        ) {
            let face = TextFace::builtin(false).expect("the built-in font");
            // Past `room` characters only text that draws nothing is cut otherwise.
            let n = text.chars().count();
            if n <= room(px, max, 1) {
                prop_assert_eq!(face.fit(&text, px, max), reference::fit(face, &text, px, max));
            }
            if n <= room(px, max, lines) {
                prop_assert_eq!(
                    face.wrap(&text, px, max, lines),
                    reference::wrap(face, &text, px, max, lines)
                );
            }
            prop_assert_eq!(
                face.wrap(&text, px, max, usize::MAX),
                reference::wrap(face, &text, px, max, usize::MAX)
            );
        }
    }

    #[test]
    fn long_names_are_cut_to_what_the_box_shows() {
        let face = TextFace::builtin(true).expect("the built-in font");
        let name = "Kieseritzky ".repeat(20_000);
        let fitted = face.fit(&name, 20.0, 300.0);
        assert!(fitted.ends_with('…') && face.width(&fitted, 20.0) <= 300.0);
        assert_eq!(fitted, reference::fit(face, &name[..600], 20.0, 300.0));
        let lines = face.wrap(&name, 20.0, 300.0, 3);
        assert_eq!(lines.len(), 3);
        assert_eq!(lines, reference::wrap(face, &name[..3000], 20.0, 300.0, 3));
        // Characters that draw nothing are not measured without end: a line holds at most
        // what hair spaces would fill.
        let marks = "\u{301}".repeat(50_000);
        assert_eq!(face.width("\u{301}", 20.0), 0.0, "a combining mark draws no advance");
        let fitted = face.fit(&marks, 20.0, 300.0);
        assert!(fitted.chars().count() <= room(20.0, 300.0, 1), "{}", fitted.len());
        let lines = face.wrap(&marks, 20.0, 300.0, 2);
        let shown: usize = lines.iter().map(|l| l.chars().count()).sum();
        assert!(shown <= room(20.0, 300.0, 2) + 1, "{shown}");
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn builtin_font_has_every_label_glyph() {
        let font = LabelFont::builtin();
        for c in "abcdefghij12345678".chars() {
            let g = font.glyph(c).unwrap_or_else(|| panic!("no glyph for {c}"));
            assert!(g.path.is_some(), "{c} has an outline");
            assert!(g.ink_x.1 > g.ink_x.0);
            assert!(matches!(g.segments.first(), Some(Segment::Move(..))));
        }
        assert!(font.cap_height() > 0.5 * font.units_per_em());
    }
}
