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
    /// The same outline as segments, in units of [`GLYPH_GRID`] font units (y up).
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

struct Outline {
    builder: PathBuilder,
    segments: Vec<Segment>,
}

/// A coordinate on the grid: in grid units for the segments, in font units for the path.
fn snap(v: f32) -> (f64, f32) {
    let units = (v / GLYPH_GRID).round();
    (f64::from(units), units * GLYPH_GRID)
}

impl ttf_parser::OutlineBuilder for Outline {
    fn move_to(&mut self, x: f32, y: f32) {
        let ((gx, x), (gy, y)) = (snap(x), snap(y));
        self.builder.move_to(x, y);
        self.segments.push(Segment::Move(gx, gy));
    }
    fn line_to(&mut self, x: f32, y: f32) {
        let ((gx, x), (gy, y)) = (snap(x), snap(y));
        self.builder.line_to(x, y);
        self.segments.push(Segment::Line(gx, gy));
    }
    fn quad_to(&mut self, x1: f32, y1: f32, x: f32, y: f32) {
        let ((gx1, x1), (gy1, y1), (gx, x), (gy, y)) = (snap(x1), snap(y1), snap(x), snap(y));
        self.builder.quad_to(x1, y1, x, y);
        self.segments.push(Segment::Quad(gx1, gy1, gx, gy));
    }
    fn curve_to(&mut self, x1: f32, y1: f32, x2: f32, y2: f32, x: f32, y: f32) {
        let ((a, x1), (b, y1), (c, x2), (d, y2), (e, x), (f, y)) =
            (snap(x1), snap(y1), snap(x2), snap(y2), snap(x), snap(y));
        self.builder.cubic_to(x1, y1, x2, y2, x, y);
        self.segments.push(Segment::Cubic(a, b, c, d, e, f));
    }
    fn close(&mut self) {
        self.builder.close();
        self.segments.push(Segment::Close);
    }
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
                let mut outline = Outline {
                    builder: PathBuilder::new(),
                    segments: Vec::new(),
                };
                let bbox = face.outline_glyph(id, &mut outline)?;
                let glyph = Glyph {
                    path: outline.builder.finish(),
                    svg: GlyphPath::of(&outline.segments),
                    segments: outline.segments,
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
