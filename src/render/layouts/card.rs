//! Error cards: one sentence on a plain square, as an image a page can show.
//!
//! Owns the card's layout (a heading and the sentence wrapped in lines, the largest text
//! that fits, shortened with `…` only when even the smallest does not) and drawing it in an
//! image format: SVG as glyph outlines (no fonts needed, like every SVG of the crate), PNG,
//! GIF and WebP painted through tiny-skia and the crate's encoders. Deciding when a card is
//! answered instead of text is the service's (`http::error_image`).
// Only the service draws cards: the renderer alone (without `server`) has no caller.
#![cfg_attr(not(feature = "server"), allow(dead_code))]

use crate::render::ground::RenderError;
use crate::render::art::font::TextFace;
use crate::render::spec::options::Format;
use std::fmt::Write as _;
use tiny_skia::{Color, Paint, Pixmap, Rect, Transform};

/// The card's ground.
const GROUND: [u8; 4] = [0xf5, 0xf5, 0xf5, 0xff];
/// Its frame and heading: a muted red.
const ACCENT: [u8; 4] = [0xb3, 0x26, 0x1e, 0xff];
/// The sentence's ink.
const INK: [u8; 4] = [0x1f, 0x1f, 0x1f, 0xff];
/// Line height, in ems.
const LEADING: f32 = 1.25;
/// The smallest text size tried, in pixels per em: below it the sentence is shortened.
const MIN_PX: f32 = 6.0;
/// A sentence is drawn to at most this many characters (the rest as `…`).
const MAX_CHARS: usize = 600;

/// Whether cards are drawn in `format`: the image formats (PNG, SVG, GIF, WebP); not PDF
/// nor text.
pub fn draws(format: Format) -> bool {
    matches!(
        format,
        Format::Png | Format::Svg | Format::Gif | Format::Webp
    )
}

/// One line of text on the card: what, how large, where its baseline starts.
#[derive(Debug, Clone, PartialEq)]
pub struct Line {
    /// The text.
    pub text: String,
    /// Pixels per em.
    pub px: f32,
    /// The left end of its baseline.
    pub at: (f32, f32),
    /// The heading (bold, in the accent colour), or the sentence.
    pub heading: bool,
}

/// A card laid out: `size` × `size` pixels, a frame `frame` pixels wide, and its lines.
#[derive(Debug, Clone, PartialEq)]
pub struct Card {
    /// Width and height in pixels.
    pub size: u32,
    /// Width of the frame along the edges, pixels.
    pub frame: u32,
    /// The heading, then the sentence's lines, top to bottom.
    pub lines: Vec<Line>,
}

impl Card {
    /// `heading` (e.g. `400 Bad Request`) above `sentence`, wrapped on a square of `size`
    /// pixels in the largest text that fits.
    pub fn new(heading: &str, sentence: &str, size: u32) -> Result<Card, RenderError> {
        let (Some(book), Some(bold)) = (TextFace::builtin(false), TextFace::builtin(true)) else {
            return Err(RenderError::Encode(
                "the built-in font could not be read".to_string(),
            ));
        };
        let s = size as f32;
        let margin = (s * 0.07).round().max(2.0);
        let frame = (s / 80.0).round().max(1.0) as u32;
        let (width, height) = (s - 2.0 * margin, s - 2.0 * margin);
        let sentence = shortened(sentence.trim(), MAX_CHARS);
        let mut px = (s / 14.0).max(MIN_PX);
        let (px, lines) = loop {
            let lines = book.wrap(&sentence, px, width, usize::MAX);
            let fits = block_height(lines.len(), px) <= height;
            if fits || px * 0.9 < MIN_PX {
                break (px, fit_lines(book, lines, px, width, height));
            }
            px *= 0.9;
        };
        let top = margin + (height - block_height(lines.len(), px)).max(0.0) / 2.0;
        // The baseline sits about four fifths of an em below the top of its line.
        let baseline = |row: f32| top + row * LEADING * px + 0.95 * px;
        let mut out = vec![Line {
            text: bold.fit(heading, px, width),
            px,
            at: (margin, baseline(0.0)),
            heading: true,
        }];
        out.extend(lines.into_iter().enumerate().map(|(i, text)| Line {
            text,
            px,
            at: (margin, baseline(i as f32 + 1.4)),
            heading: false,
        }));
        Ok(Card {
            size,
            frame,
            lines: out,
        })
    }

    /// The card in `format` (one of [`draws`]'s).
    pub fn encode(&self, format: Format) -> Result<Vec<u8>, RenderError> {
        match format {
            Format::Svg => Ok(self.svg(None).into_bytes()),
            Format::Png => {
                let pixmap = self.pixmap()?;
                Ok(crate::render::encode::png(&pixmap))
            }
            Format::Gif | Format::Webp => {
                let pixmap = self.pixmap()?;
                let mut image = crate::render::ground::Indexed {
                    width: self.size,
                    height: self.size,
                    ..Default::default()
                };
                let mut scratch = crate::render::encode::Scratch::default();
                crate::render::encode::indexed_of(
                    pixmap.data(),
                    self.size,
                    &mut scratch,
                    &mut image,
                );
                match format {
                    Format::Gif => crate::render::encode::convert::gif(&image),
                    _ => crate::render::encode::convert::webp(&image),
                }
            }
            Format::Pdf | Format::Txt => Err(RenderError::Encode(format!(
                "an error card is not drawn as {}",
                format.extension()
            ))),
        }
    }

    /// The card as an SVG document, titled `title` (the sentence, for screen readers).
    pub fn svg(&self, title: Option<&str>) -> String {
        let s = self.size;
        let f = self.frame as f32;
        let mut out = format!(
            r#"<svg xmlns="http://www.w3.org/2000/svg" width="{s}" height="{s}" viewBox="0 0 {s} {s}" role="img">"#
        );
        if let Some(title) = title {
            let _ = write!(out, "<title>{}</title>", escape(title));
        }
        let _ = write!(
            out,
            r#"<rect width="{s}" height="{s}" fill="{}"/><rect x="{h}" y="{h}" width="{w}" height="{w}" fill="none" stroke="{}" stroke-width="{f}"/>"#,
            hex(GROUND),
            hex(ACCENT),
            h = f / 2.0,
            w = s as f32 - f,
        );
        for heading in [true, false] {
            let face = TextFace::builtin(heading);
            let d: String = self
                .lines
                .iter()
                .filter(|l| l.heading == heading)
                .filter_map(|l| Some(face?.svg_path(&l.text, l.px, l.at)))
                .collect();
            let ink = if heading { ACCENT } else { INK };
            if !d.is_empty() {
                let _ = write!(out, r#"<path fill="{}" d="{}"/>"#, hex(ink), d.trim_end());
            }
        }
        out.push_str("</svg>");
        out
    }

    /// The card painted (premultiplied RGBA, opaque).
    pub fn pixmap(&self) -> Result<Pixmap, RenderError> {
        let s = self.size;
        let mut pixmap = Pixmap::new(s, s).ok_or(RenderError::Allocate(s, s))?;
        let [r, g, b, a] = GROUND;
        pixmap.fill(Color::from_rgba8(r, g, b, a));
        let mut paint = Paint::default();
        paint.set_color_rgba8(ACCENT[0], ACCENT[1], ACCENT[2], ACCENT[3]);
        let (sf, f) = (s as f32, self.frame as f32);
        for (x, y, w, h) in [
            (0.0, 0.0, sf, f),
            (0.0, sf - f, sf, f),
            (0.0, 0.0, f, sf),
            (sf - f, 0.0, f, sf),
        ] {
            if let Some(rect) = Rect::from_xywh(x, y, w, h) {
                pixmap.fill_rect(rect, &paint, Transform::identity(), None);
            }
        }
        let mut canvas = pixmap.as_mut();
        for line in &self.lines {
            let ink = if line.heading { ACCENT } else { INK };
            if let Some(face) = TextFace::builtin(line.heading) {
                face.paint(&line.text, line.px, line.at, ink, &mut canvas);
            }
        }
        Ok(pixmap)
    }
}

/// The card of `sentence` under `heading`, `size` pixels square, in `format`.
pub fn card(
    heading: &str,
    sentence: &str,
    size: u32,
    format: Format,
) -> Result<Vec<u8>, RenderError> {
    let card = Card::new(heading, sentence, size)?;
    match format {
        Format::Svg => Ok(card.svg(Some(sentence)).into_bytes()),
        _ => card.encode(format),
    }
}

/// Height of a heading and `lines` lines of text at `px`, with the gap after the heading.
fn block_height(lines: usize, px: f32) -> f32 {
    (lines as f32 + 1.4) * LEADING * px
}

/// `lines` cut to as many as fit in `height` at `px` under the heading (none on a card
/// too small for one), the last one ending in `…` when some were cut.
fn fit_lines(face: &TextFace, mut lines: Vec<String>, px: f32, width: f32, height: f32) -> Vec<String> {
    let mut keep = lines.len();
    while keep > 0 && block_height(keep, px) > height {
        keep -= 1;
    }
    if keep < lines.len() {
        lines.truncate(keep);
        if let Some(last) = lines.last_mut() {
            *last = face.fit(&format!("{last} …"), px, width);
            if !last.ends_with('…') {
                last.push('…');
            }
        }
    }
    lines
}

/// `text` cut to at most `max` characters, ending in `…` when cut.
fn shortened(text: &str, max: usize) -> String {
    match text.char_indices().nth(max) {
        None => text.to_string(),
        Some((at, _)) => format!("{}…", &text[..at]),
    }
}

/// `#rrggbb` of an RGBA colour.
fn hex([r, g, b, _]: [u8; 4]) -> String {
    format!("#{r:02x}{g:02x}{b:02x}")
}

/// `text` for an XML text node: markup escaped, control characters dropped.
fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            c if c.is_control() => out.push(' '),
            c => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    const SENTENCE: &str = "fen \"rnbqkbnr/pppppppp/9/8/8/8/PPPPPPPP/RNBQKBNR w - - 0 1\" is not a valid FEN: rank 7 has 9 squares, expected 8";

    fn inside(card: &Card) -> bool {
        let face = TextFace::builtin(false).expect("font");
        let s = card.size as f32;
        card.lines.iter().all(|l| {
            l.at.0 >= 0.0 && l.at.0 + face.width(&l.text, l.px) <= s && l.at.1 <= s && l.at.1 > 0.0
        })
    }

    #[test]
    fn a_sentence_is_wrapped_inside_the_card_at_every_size() {
        for size in [16, 160, 400, 1000, 2048] {
            let card = Card::new("400 Bad Request", SENTENCE, size).expect("laid out");
            assert!(card.lines.len() >= 2 || size < 32, "{size}: {:?}", card.lines);
            assert!(inside(&card), "{size}: {:?}", card.lines);
        }
        // Large cards keep every word, in larger text than small ones.
        let small = Card::new("400 Bad Request", SENTENCE, 160).expect("small");
        let large = Card::new("400 Bad Request", SENTENCE, 1000).expect("large");
        let words = |c: &Card| c.lines[1..].iter().map(|l| l.text.clone()).collect::<Vec<_>>().join(" ");
        assert_eq!(words(&large).replace(' ', ""), SENTENCE.replace(' ', ""));
        assert!(large.lines[0].px > 4.0 * small.lines[0].px);
    }

    #[test]
    fn a_sentence_too_long_for_the_card_is_shortened_with_an_ellipsis() {
        let long = "word ".repeat(400);
        let card = Card::new("400 Bad Request", &long, 64).expect("laid out");
        assert!(card.lines.last().expect("lines").text.ends_with('…'));
        assert!(inside(&card));
    }

    #[test]
    fn every_image_format_is_drawn_and_pdf_and_text_are_not() {
        for format in Format::ALL {
            let made = card("400 Bad Request", "size \"x\" is not allowed", 120, format);
            assert_eq!(made.is_ok(), draws(format), "{format:?}");
        }
        let svg = String::from_utf8(card("400", "a <b> & c", 120, Format::Svg).expect("svg"))
            .expect("utf-8");
        assert!(svg.contains(r#"width="120" height="120""#), "{svg}");
        assert!(svg.contains("<title>a &lt;b&gt; &amp; c</title>"), "{svg}");
    }

    #[test]
    fn the_card_has_its_ground_its_frame_and_ink() {
        let pixmap = Card::new("400 Bad Request", SENTENCE, 200)
            .expect("laid out")
            .pixmap()
            .expect("painted");
        let at = |x: u32, y: u32| {
            let p = pixmap.pixel(x, y).expect("inside");
            [p.red(), p.green(), p.blue()]
        };
        assert_eq!(at(0, 100), [ACCENT[0], ACCENT[1], ACCENT[2]]);
        assert_eq!(at(199, 199), [ACCENT[0], ACCENT[1], ACCENT[2]]);
        assert_eq!(at(5, 100), [GROUND[0], GROUND[1], GROUND[2]]);
        let inked = pixmap
            .pixels()
            .iter()
            .filter(|p| p.red() < 0x80 && p.green() < 0x80)
            .count();
        assert!(inked > 500, "{inked} pixels of text");
    }
}
