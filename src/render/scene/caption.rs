//! The caption: a few lines of text under the board ("White to play and win", the move,
//! the FEN), laid out in the image so it travels with it (feeds, e-books, printed pages).
//!
//! Owns the caption's geometry: its type size, its lines wrapped to the image's width and
//! centred, and the band it adds below the board. Both backends draw the lines with the
//! built-in text face's outlines ([`TextFace`]), so PNG, SVG and PDF agree.

use crate::render::art::font::TextFace;
use crate::render::spec::theme::Rgba;

/// Most lines a caption takes; the last ends in `…` when the text goes on.
pub const MAX_LINES: usize = 3;

/// One line of text, placed.
#[derive(Debug, Clone, PartialEq)]
pub struct TextLine {
    /// The words.
    pub text: String,
    /// Type size, pixels per em.
    pub px: f32,
    /// The left end of the baseline, in pixels.
    pub x: f32,
    /// The baseline, in pixels.
    pub baseline: f32,
    /// Colour.
    pub color: Rgba,
}

/// The caption's face: DejaVu Sans Book (labels are bold; a sentence reads better plain).
pub fn face() -> Option<&'static TextFace> {
    TextFace::builtin(false)
}

/// The first character of `text` the caption's face has no glyph for, if any.
pub fn missing_glyph(text: &str) -> Option<char> {
    let face = face()?;
    // Printable ASCII is all in DejaVu: looked up only beyond it (a cache hit reads the
    // text again, so this stays cheap).
    text.chars()
        .filter(|c| !c.is_ascii_graphic() && !c.is_whitespace())
        .find(|&c| !face.has_glyph(c))
}

/// Why a character [`missing_glyph`] found cannot be drawn, and what to do, for the end of
/// an error sentence that names it by its code point (the character itself would be drawn
/// as a box or a blank in an error image, so sentences never repeat it).
pub fn no_glyph_reason() -> &'static str {
    match crate::render::art::font::system_fonts_on() {
        true => {
            "text is drawn in DejaVu Sans, which covers Latin, Greek and Cyrillic scripts, then in the fonts added with --fonts DIR, then in the fonts installed on the machine, none of which has it; install a font for that script (Debian's fonts-noto-cjk for Japanese, Chinese and Korean) or add a folder of fonts with --fonts DIR"
        }
        false => {
            "text is drawn in DejaVu Sans, which covers Latin, Greek and Cyrillic scripts, then in the fonts added with --fonts DIR (the fonts installed on the machine are not used: --system-fonts=false, or a library that did not ask for them), none of which has it; add a folder of fonts with --fonts DIR, or use the system's fonts (--system-fonts=true)"
        }
    }
}

/// Type size for an image `width` pixels wide: about the labels' size, never under 10 px.
fn px_for(width: u32) -> f32 {
    (width as f32 * 0.036).max(10.0)
}

/// `text` laid out under a board whose image is `width` wide and ends at `top`, with
/// `pad` pixels kept clear at either side: the lines, and the height of the band they
/// need (0 when there is nothing to write).
pub fn lay_out(text: &str, width: u32, top: u32, pad: u32, color: Rgba) -> (Vec<TextLine>, u32) {
    let Some(face) = face() else {
        return (Vec::new(), 0);
    };
    let px = px_for(width);
    let side = (pad as f32).max(px * 0.5).min(width as f32 / 8.0);
    let room = (width as f32 - 2.0 * side).max(px);
    let lines = face.wrap(text, px, room, MAX_LINES);
    if lines.is_empty() {
        return (Vec::new(), 0);
    }
    let leading = (px * 1.3).round();
    // Room above the first line (the labels' band already keeps the board apart) and
    // below the last one for descenders.
    let (above, below) = ((px * 0.5).round(), (px * 0.55).round());
    let placed = lines
        .into_iter()
        .enumerate()
        .map(|(i, text)| {
            let w = face.width(&text, px);
            TextLine {
                x: ((width as f32 - w) / 2.0).max(side).round(),
                baseline: top as f32 + above + px * 0.95 + leading * i as f32,
                text,
                px,
                color,
            }
        })
        .collect::<Vec<_>>();
    let height = above + px * 0.95 + leading * (placed.len() - 1) as f32 + below;
    (placed, height.ceil() as u32)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_stay_inside_the_band_and_the_width() {
        let long = "word ".repeat(200);
        for width in [16, 100, 400, 2048] {
            let (lines, height) = lay_out(&long, width, 100, 8, Rgba::hex(0));
            assert_eq!(lines.len(), MAX_LINES, "{width}");
            assert!(lines.last().is_some_and(|l| l.text.ends_with('…')));
            let face = face().expect("the built-in face");
            for l in &lines {
                let w = face.width(&l.text, l.px);
                assert!(l.x >= 0.0 && l.x + w <= width as f32 + 0.5, "{l:?} at {width}");
                assert!(l.baseline < (100 + height) as f32, "{l:?} at {width}");
            }
        }
        assert_eq!(lay_out("  ", 400, 0, 8, Rgba::hex(0)).1, 0);
    }

    #[test]
    fn glyphs_the_face_lacks_are_named() {
        assert_eq!(missing_glyph("Weiß zieht, Über é ñ Ω Ж"), None);
        assert_eq!(missing_glyph("23...Qxf2+の後"), Some('の'));
    }
}
