//! Share cards: a 1200×630 PNG for a link's `og:image`, the diagram at the left and a
//! column of text at the right (a title, a subtitle, a game's result and move).
//!
//! Owns the card's layout (where the diagram goes, how the text is wrapped, cut and
//! stacked) and painting it. What the text says (given, or read from a game's tags) is the
//! request's (`request::share_card`). The colours follow the diagram's theme (see
//! [`colors`]), so a dark diagram gets a dark card.

use crate::chess::position::Position;
use crate::render::art::font::TextFace;
use crate::render::spec::options::RenderOptions;
use crate::render::spec::theme::{Rgba, Theme};
use crate::render::Renderer;
use crate::render::ground::RenderError;
use tiny_skia::{Color, Pixmap, PixmapPaint, Transform};

/// The card's width in pixels (what social sites show for `og:image`).
pub const WIDTH: u32 = 1200;
/// The card's height in pixels.
pub const HEIGHT: u32 = 630;
/// The space around the diagram, pixels.
pub const MARGIN: u32 = 32;
/// The diagram's size: the card's height less a margin above and below.
pub const DIAGRAM_SIZE: u32 = HEIGHT - 2 * MARGIN;
/// Where the text column starts: after the diagram and a gutter.
pub const COLUMN_X: u32 = MARGIN + DIAGRAM_SIZE + 40;
/// The text column's width: up to a right margin wider than the left one, as the diagram
/// has its own white space around the board.
pub const COLUMN_WIDTH: u32 = WIDTH - COLUMN_X - 56;
/// Most lines of a title or a subtitle; the rest is cut with `…`.
pub const MAX_LINES: usize = 3;
/// Line height, in ems.
const LEADING: f32 = 1.2;
/// The baseline below the top of its line, in ems (about DejaVu's ascender).
const ASCENT: f32 = 0.93;
/// Space between two blocks of text, pixels.
const GAP: f32 = 22.0;

/// What a block of text on the card is: it decides the face, size, lines and ink.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum BlockRole {
    /// The title (or a game's players): bold, large.
    Title,
    /// The subtitle (or a game's event and year).
    Subtitle,
    /// A game's result (`1–0`): bold, one line.
    Result,
    /// The move that led to the position (`After 23...Qxf2+`): muted, one line.
    Note,
}

impl BlockRole {
    fn px(self) -> f32 {
        match self {
            BlockRole::Title => 50.0,
            BlockRole::Subtitle => 32.0,
            BlockRole::Result => 40.0,
            BlockRole::Note => 30.0,
        }
    }

    fn bold(self) -> bool {
        matches!(self, BlockRole::Title | BlockRole::Result)
    }

    fn max_lines(self) -> usize {
        match self {
            BlockRole::Title | BlockRole::Subtitle => MAX_LINES,
            BlockRole::Result | BlockRole::Note => 1,
        }
    }

    fn muted(self) -> bool {
        matches!(self, BlockRole::Subtitle | BlockRole::Note)
    }

    /// Its name in cache keys.
    pub fn name(self) -> &'static str {
        match self {
            BlockRole::Title => "title",
            BlockRole::Subtitle => "subtitle",
            BlockRole::Result => "result",
            BlockRole::Note => "note",
        }
    }
}

/// One block of text, top to bottom in the column.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Block {
    /// What it is.
    pub role: BlockRole,
    /// The text, one paragraph (wrapped here).
    pub text: String,
}

/// One line laid out: its text, size, face, ink, and the left end of its baseline.
#[derive(Debug, Clone, PartialEq)]
pub struct Line {
    /// The text.
    pub text: String,
    /// Pixels per em.
    pub px: f32,
    /// DejaVu Sans Bold, else Book.
    pub bold: bool,
    /// In the muted ink.
    pub muted: bool,
    /// The left end of its baseline.
    pub at: (f32, f32),
}

/// The card's colours: its page, the text's ink, and a muted ink for secondary lines.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Colors {
    /// The page behind everything.
    pub page: Rgba,
    /// Titles and results.
    pub ink: Rgba,
    /// Subtitles and notes.
    pub muted: Rgba,
}

/// The card's colours for a diagram of `theme`: the page is the diagram's margin (made
/// opaque over white when it is translucent, as a card must be), the ink its labels', so
/// the diagram sits on the card seamlessly whatever its background.
pub fn colors(theme: &Theme) -> Colors {
    let page = over(theme.margin, Rgba::hex(0xffffff));
    let ink = over(theme.label, page);
    Colors {
        page,
        ink,
        muted: mix(ink, page, 0.72),
    }
}

/// `top` composited over the opaque `ground`.
fn over(top: Rgba, ground: Rgba) -> Rgba {
    mix(top.with_alpha(255), ground, f32::from(top.a) / 255.0)
}

/// `a` × `t` + `b` × (1 − `t`), opaque.
fn mix(a: Rgba, b: Rgba, t: f32) -> Rgba {
    let m = |x: u8, y: u8| (f32::from(x) * t + f32::from(y) * (1.0 - t)).round() as u8;
    Rgba {
        r: m(a.r, b.r),
        g: m(a.g, b.g),
        b: m(a.b, b.b),
        a: 255,
    }
}

/// The faces, or the error of a build whose font could not be read.
fn faces() -> Result<(&'static TextFace, &'static TextFace), RenderError> {
    match (TextFace::builtin(false), TextFace::builtin(true)) {
        (Some(book), Some(bold)) => Ok((book, bold)),
        _ => Err(RenderError::Encode(
            "the built-in font could not be read".to_string(),
        )),
    }
}

/// `blocks` laid out in the text column: each wrapped to the column in at most its role's
/// lines (cut with `…`), stacked with a gap between blocks, the whole centred vertically.
pub fn layout(blocks: &[Block]) -> Result<Vec<Line>, RenderError> {
    let (book, bold) = faces()?;
    let width = COLUMN_WIDTH as f32;
    let wrapped: Vec<(BlockRole, Vec<String>)> = blocks
        .iter()
        .filter(|b| !b.text.trim().is_empty())
        .map(|b| {
            let face = if b.role.bold() { bold } else { book };
            let px = b.role.px();
            (b.role, face.wrap(&b.text, px, width, b.role.max_lines()))
        })
        .collect();
    let height: f32 = wrapped
        .iter()
        .map(|(role, lines)| lines.len() as f32 * LEADING * role.px())
        .sum::<f32>()
        + GAP * wrapped.len().saturating_sub(1) as f32;
    let mut top = ((HEIGHT as f32 - height) / 2.0).max(MARGIN as f32).round();
    let mut out = Vec::new();
    for (role, lines) in wrapped {
        let px = role.px();
        for text in lines {
            out.push(Line {
                text,
                px,
                bold: role.bold(),
                muted: role.muted(),
                at: (COLUMN_X as f32, top + (ASCENT * px).round()),
            });
            top += (LEADING * px).round();
        }
        top += GAP;
    }
    Ok(out)
}

/// The diagram's options on a card: `options` at [`DIAGRAM_SIZE`].
pub fn diagram_options(options: &RenderOptions) -> RenderOptions {
    RenderOptions {
        size: DIAGRAM_SIZE,
        ..options.clone()
    }
}

/// The card painted (premultiplied RGBA, opaque): the page in `options`' theme's colours,
/// `position` drawn as `options` ask at [`DIAGRAM_SIZE`], and `blocks` in the column.
pub fn pixmap(
    renderer: &Renderer,
    position: &Position,
    options: &RenderOptions,
    blocks: &[Block],
) -> Result<Pixmap, RenderError> {
    let lines = layout(blocks)?;
    let (book, bold) = faces()?;
    let colors = colors(&options.theme);
    let mut card = Pixmap::new(WIDTH, HEIGHT).ok_or(RenderError::Allocate(WIDTH, HEIGHT))?;
    let Rgba { r, g, b, .. } = colors.page;
    card.fill(Color::from_rgba8(r, g, b, 255));
    let diagram = renderer.pixmap(position, &diagram_options(options))?;
    // Whole pixels, no scaling: the diagram's own pixels, as crisp as its PNG.
    card.draw_pixmap(
        MARGIN as i32,
        MARGIN as i32,
        diagram.as_ref(),
        &PixmapPaint::default(),
        Transform::identity(),
        None,
    );
    let mut canvas = card.as_mut();
    for line in &lines {
        let face = if line.bold { bold } else { book };
        let ink = if line.muted { colors.muted } else { colors.ink };
        face.paint(
            &line.text,
            line.px,
            line.at,
            [ink.r, ink.g, ink.b, 255],
            &mut canvas,
        );
    }
    Ok(card)
}

/// The card as PNG bytes (see [`pixmap`]).
pub fn png(
    renderer: &Renderer,
    position: &Position,
    options: &RenderOptions,
    blocks: &[Block],
) -> Result<Vec<u8>, RenderError> {
    let card = pixmap(renderer, position, options, blocks)?;
    Ok(crate::render::encode::png(&card))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn block(role: BlockRole, text: &str) -> Block {
        Block {
            role,
            text: text.to_string(),
        }
    }

    #[test]
    fn every_line_stays_in_the_column_and_long_text_is_cut() {
        let long = "Immortal ".repeat(60);
        let blocks = [
            block(BlockRole::Title, &long),
            block(BlockRole::Subtitle, &"x".repeat(300)),
            block(BlockRole::Result, "1–0"),
            block(BlockRole::Note, "After 23...Qxf2+"),
        ];
        let lines = layout(&blocks).expect("laid out");
        let (book, bold) = faces().expect("fonts");
        for l in &lines {
            let face = if l.bold { bold } else { book };
            let right = l.at.0 + face.width(&l.text, l.px);
            assert!(right <= (COLUMN_X + COLUMN_WIDTH) as f32, "{l:?}");
            assert!(l.at.1 < HEIGHT as f32 && l.at.1 > 0.0, "{l:?}");
        }
        assert_eq!(lines.len(), 3 + 3 + 1 + 1);
        assert!(lines[2].text.ends_with('…'), "{:?}", lines[2]);
        assert!(lines[5].text.ends_with('…'), "{:?}", lines[5]);
    }

    #[test]
    fn the_colours_follow_the_theme() {
        let light = colors(&Theme::default());
        assert_eq!(light.page, Rgba::hex(0xffffff));
        assert_eq!(light.ink, Theme::default().label);
        let dark = Theme {
            margin: Rgba::hex(0x202020),
            label: Rgba::hex(0xe0e0e0),
            ..Theme::default()
        };
        let c = colors(&dark);
        assert_eq!((c.page, c.ink), (dark.margin, dark.label));
        let clear = Theme {
            margin: Rgba::hex(0x000000).with_alpha(0),
            ..Theme::default()
        };
        assert_eq!(colors(&clear).page, Rgba::hex(0xffffff), "a card is opaque");
    }
}
