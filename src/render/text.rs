//! Free text (player names, clocks) in DejaVu Sans compiled into the binary: measured and
//! painted through tiny-skia. Coordinate labels use the smaller [`crate::render::font`].

use crate::render::font::{Outline, path_of};
use crate::render::pathdata::Segment;
use std::fmt::Write as _;
use std::sync::OnceLock;
use tiny_skia::{FillRule, Paint, PixmapMut, Transform};

/// A typeface for free text.
pub struct TextFace {
    face: ttf_parser::Face<'static>,
    units_per_em: f32,
}

impl std::fmt::Debug for TextFace {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("TextFace").finish_non_exhaustive()
    }
}

/// `segments` (font units, y up) as SVG path data onto `d`, scaled by `scale` and placed
/// at `origin`.
fn write_svg(d: &mut String, segments: &[Segment], scale: f32, origin: (f32, f32)) {
    // Hundredths of a pixel: far below what a printer or a screen shows.
    let round = |v: f32| (v * 100.0).round() / 100.0;
    let point = |d: &mut String, x: f64, y: f64| {
        let (px, py) = (origin.0 + x as f32 * scale, origin.1 - y as f32 * scale);
        let _ = write!(d, "{} {} ", round(px), round(py));
    };
    for s in segments {
        match *s {
            Segment::Move(x, y) => {
                d.push('M');
                point(d, x, y);
            }
            Segment::Line(x, y) => {
                d.push('L');
                point(d, x, y);
            }
            Segment::Quad(x1, y1, x, y) => {
                d.push('Q');
                point(d, x1, y1);
                point(d, x, y);
            }
            Segment::Cubic(x1, y1, x2, y2, x, y) => {
                d.push('C');
                point(d, x1, y1);
                point(d, x2, y2);
                point(d, x, y);
            }
            Segment::Close => d.push('Z'),
        }
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
            Some(TextFace { face, units_per_em })
        })
        .as_ref()
    }

    fn glyph(&self, c: char) -> Option<ttf_parser::GlyphId> {
        self.face
            .glyph_index(c)
            .or_else(|| self.face.glyph_index('?'))
    }

    /// The advance width of `text` at `px` pixels per em.
    pub fn width(&self, text: &str, px: f32) -> f32 {
        let scale = px / self.units_per_em;
        text.chars()
            .filter_map(|c| self.glyph(c))
            .map(|g| f32::from(self.face.glyph_hor_advance(g).unwrap_or(0)) * scale)
            .sum()
    }

    /// Height of capitals in pixels at `px` pixels per em.
    pub fn cap_height(&self, px: f32) -> f32 {
        let cap = self
            .face
            .capital_height()
            .map_or(self.units_per_em * 0.73, f32::from);
        cap * px / self.units_per_em
    }

    /// `text` shortened with `…` to at most `max` pixels wide at `px`.
    pub fn fit(&self, text: &str, px: f32, max: f32) -> String {
        if self.width(text, px) <= max {
            return text.to_string();
        }
        let mut chars: Vec<char> = text.chars().collect();
        while !chars.is_empty() {
            chars.pop();
            let shortened: String = chars.iter().collect::<String>().trim_end().to_string() + "…";
            if self.width(&shortened, px) <= max {
                return shortened;
            }
        }
        String::new()
    }

    /// `text` as SVG path data (absolute, y down) at `px` pixels per em, the left end of its
    /// baseline at (`x`, `baseline`): the same outlines [`TextFace::paint`] fills.
    pub fn svg_path(&self, text: &str, px: f32, (x, baseline): (f32, f32)) -> String {
        let scale = px / self.units_per_em;
        let (mut d, mut pen) = (String::new(), x);
        for c in text.chars() {
            let Some(g) = self.glyph(c) else { continue };
            let mut outline = Outline::default();
            self.face.outline_glyph(g, &mut outline);
            write_svg(&mut d, &outline.0, scale, (pen, baseline));
            pen += f32::from(self.face.glyph_hor_advance(g).unwrap_or(0)) * scale;
        }
        d
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
        let scale = px / self.units_per_em;
        let mut paint = Paint::default();
        paint.set_color_rgba8(color[0], color[1], color[2], color[3]);
        paint.anti_alias = true;
        let mut pen = x;
        for c in text.chars() {
            let Some(g) = self.glyph(c) else { continue };
            let mut outline = Outline::default();
            if self.face.outline_glyph(g, &mut outline).is_some()
                && let Some(path) = path_of(&outline.0, 1.0)
            {
                let transform = Transform::from_row(scale, 0.0, 0.0, -scale, pen, baseline);
                pixmap.fill_path(&path, &paint, FillRule::Winding, transform, None);
            }
            pen += f32::from(self.face.glyph_hor_advance(g).unwrap_or(0)) * scale;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
