//! The label font: glyph outlines for coordinate labels, read once from DejaVu Sans
//! compiled into the binary.
//!
//! Owns glyph geometry only. Both backends draw the same outlines (SVG as `<path>`, raster
//! through tiny-skia), so labels look identical in PNG and SVG and never depend on the fonts
//! of the machine or the browser. Where labels go is `scene.rs`.

use crate::render::pathdata::{PathWriter, Segment, replay};
use std::sync::OnceLock;
use tiny_skia::{Path, PathBuilder};

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

/// A glyph's outline as the font gives it: segments in font units (y up). The one outline
/// builder: the label font snaps it to the grid, free text ([`crate::render::text`]) fills
/// it or writes it as SVG.
#[derive(Debug, Default)]
pub(crate) struct Outline(pub(crate) Vec<Segment>);

impl ttf_parser::OutlineBuilder for Outline {
    fn move_to(&mut self, x: f32, y: f32) {
        self.0.push(Segment::Move(x.into(), y.into()));
    }
    fn line_to(&mut self, x: f32, y: f32) {
        self.0.push(Segment::Line(x.into(), y.into()));
    }
    fn quad_to(&mut self, x1: f32, y1: f32, x: f32, y: f32) {
        let [a, b, c, d] = [x1, y1, x, y].map(f64::from);
        self.0.push(Segment::Quad(a, b, c, d));
    }
    fn curve_to(&mut self, x1: f32, y1: f32, x2: f32, y2: f32, x: f32, y: f32) {
        let [a, b, c, d, e, f] = [x1, y1, x2, y2, x, y].map(f64::from);
        self.0.push(Segment::Cubic(a, b, c, d, e, f));
    }
    fn close(&mut self) {
        self.0.push(Segment::Close);
    }
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
