//! Text set on a page of diagrams (worksheets and articles): a line in one weight of the
//! built-in face ([`PageText`]), and the face itself.
//!
//! Both page layouts place such lines and draw them the same ways: as outlines in an SVG
//! page, painted into a PNG page, or (articles) as real text in a PDF.

use crate::render::art::font::TextFace;
use crate::render::ground::RenderError;
use crate::render::spec::cost::Glyphs;
use resvg::tiny_skia::PixmapMut;

/// What a page says when the built-in face cannot be read (it is compiled in: only a
/// broken build gets here).
pub(crate) const FONT_UNREADABLE: &str = "the built-in text font could not be read";

/// The built-in text face, bold or book.
pub(crate) fn face(bold: bool) -> Result<&'static TextFace, RenderError> {
    TextFace::builtin(bold).ok_or_else(|| RenderError::Encode(FONT_UNREADABLE.into()))
}

/// A line of text in one weight, the left end of its baseline at (`x`, `baseline`), in the
/// page's units (pixels for a worksheet, points for an article).
#[derive(Debug, Clone, PartialEq)]
pub struct PageText {
    /// The text.
    pub text: String,
    /// Bold or book weight.
    pub bold: bool,
    /// Units per em.
    pub size: f32,
    /// Left end of the baseline.
    pub x: f32,
    /// The baseline.
    pub baseline: f32,
}

/// What drawing `lines` costs, by the faces that draw them (see
/// [`crate::render::spec::cost::Glyphs`]).
pub(crate) fn glyphs<'a>(lines: impl Iterator<Item = &'a PageText>) -> Glyphs {
    let mut glyphs = Glyphs::default();
    for line in lines {
        glyphs += crate::render::art::font::tally(&line.text, line.bold);
    }
    glyphs
}

impl PageText {
    /// The face it is set in.
    pub(crate) fn face(&self) -> Result<&'static TextFace, RenderError> {
        face(self.bold)
    }

    /// Its outlines as SVG path data, `dy` lower than where it stands (a page's top in a
    /// document of several pages); empty for blank text.
    pub(crate) fn svg_path(&self, dy: f32) -> Result<String, RenderError> {
        Ok(self
            .face()?
            .svg_path(&self.text, self.size, (self.x, dy + self.baseline)))
    }

    /// An SVG `<path>` of its outlines in black, `dy` lower (nothing for blank text).
    pub(crate) fn write_svg(&self, dy: f32, out: &mut String) -> Result<(), RenderError> {
        let d = self.svg_path(dy)?;
        if !d.is_empty() {
            out.push_str(r##"<path fill="#000000" d=""##);
            out.push_str(&d);
            out.push_str(r#""/>"#);
        }
        Ok(())
    }

    /// Paint it in black onto `pixmap`.
    pub(crate) fn paint(&self, pixmap: &mut PixmapMut) -> Result<(), RenderError> {
        let at = (self.x, self.baseline);
        self.face()?
            .paint(&self.text, self.size, at, [0, 0, 0, 255], pixmap);
        Ok(())
    }
}
