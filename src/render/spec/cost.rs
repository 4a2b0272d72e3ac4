//! What a render will cost, known before it runs.
//!
//! One estimate, in **units** (one unit is about the work of one pixel of a plain PNG
//! diagram), for every kind of render: a diagram in any format, an animation (the sum of
//! its frames, the marks of every frame counted), a worksheet (the sum of its diagrams).
//! The service uses it to decide where a render runs (on the async worker only when it is
//! tiny), whether it runs at all (a bound over all of it: [`MAX_UNITS`]) and how long the
//! queue in front of a new request is.
//!
//! The weights were fitted to `cargo bench --bench cost`, which prints each case's estimate
//! beside its time: a mark costs in proportion to the board's pixels (an arrow spans
//! squares whose size grows with the board), and a long arrow over a large board costs
//! more than the board itself. The README's Reliability section has the table.
//!
//! Here in `spec` because a price is known from what is asked (the options, the format, the
//! position, an animation's [`Frame`]s) before any stage runs.

use crate::render::spec::frame::Frame;
use crate::render::spec::options::{Check, Format, RenderOptions};
use thiserror::Error;

/// Per mille of the board's pixels that an arrow adds for each square of the box around
/// it (its files × its ranks), up to [`ARROW_SPAN`] squares. An arrow costs mostly its
/// stamp, painted once over that box: a knight's move (6 squares) about a third of a
/// 17-square arrow. A long arrow costs 1.0–2.0 boards (`cargo bench --bench cost`, 16 and
/// 64 long arrows at 256–2048 px, under the binary's allocator), the model's 1.8 erring high
/// at 1024 px and more.
pub const ARROW_SQUARE: u64 = 105;
/// The most squares an arrow's box is counted for (see [`ARROW_SQUARE`]).
pub const ARROW_SPAN: u64 = 17;
/// Per mille of the board's pixels that one highlighted square adds, on a board without
/// arrows (0.3–2 % measured).
pub const HIGHLIGHT: u64 = 20;
/// Per mille of the board's pixels that one cross adds, on a board without arrows (1–6 %
/// measured).
pub const CROSS: u64 = 50;
/// Per mille of the board's pixels that the check glow adds.
pub const GLOW: u64 = 200;
/// Per mille of the board's pixels that one square marker (circle, dot, label…) adds on a
/// board without arrows, and the units it adds whatever the size: its square is painted in
/// full colour, its shapes anti-aliased, and the square converted into the palette (80
/// markers: 2.3 ms at 256 px, 57 ms at 2048 px, against 0.06 and 5.2 ms for the plain
/// board; `cargo bench --bench cost`, `m80`).
pub const MARKER: u64 = 160;
/// See [`MARKER`].
pub const MARKER_BASE: u64 = 20_000;
/// Per mille of the board's pixels that each square mark (highlight, cross, the check
/// glow) adds on a board that also has arrows: translucent arrows over tinted squares make
/// more shades than a palette holds, and the image is then painted in full colour and
/// quantised (0.5× the board for each mark at 256–512 px, 0.1–0.2× at 1024–2048 px; it
/// was 0.9× before the composition stopped as soon as the colours overflow).
pub const UNDER_ARROWS: u64 = 400;
/// Per mille of one square's pixels that a figure (neutral or turned piece, marker, text,
/// letter piece) adds: its square is painted in full colour and converted into the
/// palette (a dirty run), and its drawing is painted once per kind and size (resvg for
/// artwork, glyph outlines for text).
pub const FIGURE: u64 = 4000;
/// Units of one figure in an SVG document (a group, and its drawing written out); a PDF's
/// figure is [`PDF_FACTOR`] times this (64 figures at 1024 px: 0.13 ms as SVG, 6.4 ms as
/// PDF).
pub const SVG_FIGURE: u64 = 3000;
/// Units of an SVG document, whatever its size: writing text, no pixels.
pub const SVG_BASE: u64 = 20_000;
/// Units of one mark in an SVG document.
pub const SVG_MARK: u64 = 800;
/// How many times an SVG's cost a PDF costs (the SVG, then its conversion: 10.5 ms for
/// the maximal markup at 1024 px, against 0.36 ms for the SVG).
pub const PDF_FACTOR: u64 = 30;
/// Per mille of a PNG's cost that a WebP or GIF still costs (the same composition,
/// another encoder: 1.2× and 0.8× measured).
pub const ENCODER_FACTOR: u64 = 1200;

/// Units of one byte of a request's text read and laid out: a PGN parsed and its moves
/// played, tag values, names, titles, captions and comments measured and broken into
/// lines. The heaviest text is an article's: a POSTed PGN of 64 KiB of comments took
/// 12.4 ms to read and lay out (`cargo bench --bench text`, `article/comments-64KiB`),
/// about 190 ns a byte; long names cost far less, as only what the box shows is measured.
#[cfg_attr(not(feature = "server"), allow(dead_code))] // only the service admits text
pub const TEXT_BYTE: u64 = 200;

/// What drawing a text costs, counted by the faces that draw it (`font::tally`): the
/// characters DejaVu or an added font draws, and those a system face draws with the sum of
/// their faces' outline bytes a glyph (a CJK face's glyph is about three times a Latin
/// one's, and a system face's glyphs are read from its file and drawn as outlines).
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct Glyphs {
    /// Characters drawn by DejaVu or an added font.
    pub fixed: u64,
    /// Characters drawn by a system face.
    pub system: u64,
    /// The outline bytes a glyph of each such character's face, summed.
    pub system_outline_bytes: u64,
}

impl std::ops::AddAssign for Glyphs {
    fn add_assign(&mut self, other: Glyphs) {
        self.fixed += other.fixed;
        self.system += other.system;
        self.system_outline_bytes += other.system_outline_bytes;
    }
}

/// Units of one character of DejaVu or an added font drawn as outlines (an SVG's path
/// data, a PNG's pixels): an article of 21 KB of Latin comments took 0.15 s as SVG
/// (7.6 MB), about 7 µs a character.
pub const FIXED_GLYPH: u64 = 5000;
/// Units of one such character as real text in a PDF (the same article: 0.03 s).
pub const FIXED_PDF_GLYPH: u64 = 200;
/// Units a byte of a system face's average glyph outline (`font_system::SystemFont`)
/// adds to each character it draws: the glyph read from the face's file on first use, then
/// written as outlines wherever it appears. An article of 20,000 CJK characters (Noto
/// Sans CJK, 236 bytes a glyph) took 0.66 s as PDF (34 MB) and 0.89 s as SVG (31.5 MB),
/// about 33–45 µs a character; at 140 units a byte it is priced 0.66 G units.
pub const SYSTEM_OUTLINE_BYTE: u64 = 140;
/// Bytes of SVG path data or PDF path operators that each byte of a glyph's outline (its
/// face's average) becomes when the glyph is written as outlines (the CJK article: 1,700
/// bytes of PDF a character, 7.2 a byte of Noto Sans CJK's average glyph).
#[cfg_attr(not(feature = "server"), allow(dead_code))]
pub const OUTPUT_PER_OUTLINE_BYTE: u64 = 7;
/// The outline bytes counted for a character DejaVu draws as outlines: the Latin
/// article's 360 bytes of SVG a character (spaces included) over
/// [`OUTPUT_PER_OUTLINE_BYTE`], rounded up.
#[cfg_attr(not(feature = "server"), allow(dead_code))]
pub const FIXED_OUTLINE_BYTES: u64 = 55;
/// Bytes of a PDF's content a character of embedded text takes (its glyph's code, and a
/// share of the run's operators and its font subset).
#[cfg_attr(not(feature = "server"), allow(dead_code))]
pub const EMBEDDED_CHAR_BYTES: u64 = 4;

/// The units of drawing `glyphs` in `format` (see [`Glyphs`]): as outlines in an SVG or
/// an image, as real text and outlines (the system's faces) in a PDF; `Txt` is text
/// written as text (an HTML article's words), which draws nothing.
pub fn drawn_text(glyphs: Glyphs, format: Format) -> u64 {
    let fixed = match format {
        Format::Txt => return 0,
        Format::Pdf => FIXED_PDF_GLYPH,
        _ => FIXED_GLYPH,
    };
    (glyphs.fixed.saturating_mul(fixed))
        .saturating_add(glyphs.system_outline_bytes.saturating_mul(SYSTEM_OUTLINE_BYTE))
}

/// About how many bytes `glyphs` add to an answer in `format`: outlines in an SVG (every
/// face) or a PDF (the system's faces, which it does not embed), nothing in an image's
/// bytes beyond its pixels or in text written as text.
#[cfg_attr(not(feature = "server"), allow(dead_code))]
pub fn drawn_text_bytes(glyphs: Glyphs, format: Format) -> u64 {
    let outlines = |outline_bytes: u64| outline_bytes.saturating_mul(OUTPUT_PER_OUTLINE_BYTE);
    let system = outlines(glyphs.system_outline_bytes);
    match format {
        Format::Svg => outlines(glyphs.fixed.saturating_mul(FIXED_OUTLINE_BYTES)).saturating_add(system),
        Format::Pdf => glyphs.fixed.saturating_mul(EMBEDDED_CHAR_BYTES).saturating_add(system),
        _ => 0,
    }
}

/// Whether the answer `glyphs` make in `format` stays within `bound` bytes; else the
/// sentence of a 400 that names `what` text it is, how many of its characters the system's
/// fonts draw as outlines, the size it would make and the bound.
#[cfg_attr(not(feature = "server"), allow(dead_code))]
pub fn within_answer(glyphs: Glyphs, format: Format, bound: u64, what: &str) -> Result<(), String> {
    let bytes = drawn_text_bytes(glyphs, format);
    if bytes <= bound {
        return Ok(());
    }
    let mb = |b: u64| b as f64 / 1e6;
    let system = match glyphs.system {
        0 => String::new(),
        n => format!(", {n} of them drawn as outlines from the system's fonts"),
    };
    Err(format!(
        "{what} is {} characters{system}, which would make about {:.1} MB of {}, more than the {:.1} MB (an eighth of the image cache) this service answers with: shorten the text, or ask for fewer pages",
        glyphs.fixed + glyphs.system,
        mb(bytes),
        format.extension().to_ascii_uppercase(),
        mb(bound),
    ))
}

/// What reading and laying out `bytes` of a request's text costs.
#[cfg_attr(not(feature = "server"), allow(dead_code))]
pub fn text(bytes: usize) -> u64 {
    (bytes as u64).saturating_mul(TEXT_BYTE)
}

/// Most units one request may cost. The heaviest still diagram the per-parameter limits
/// allow is within it (64 long arrows, 80 highlights, 80 crosses, 80 markers and the check
/// glow at 2048 px as WebP: 1.67 G units; a PNG of every mark at its limit took 0.6 s in
/// `cargo bench --bench cost`, `png/2048/all`, 80 ms since heavy renders were made cheaper), and so is a plain animation of a thousand
/// plies at 1000 px, or about 400 at 2048 px. (It was 1.2 G until square markers came; the
/// heaviest diagram of long arrows was already over it, at 1.21 G.)
pub const MAX_UNITS: u64 = 1_700_000_000;

/// At most this many units run on the async worker instead of the render pool (see the
/// service's `render`): about 2 ms, and a plain PNG of one megapixel (1024 px).
#[cfg_attr(not(feature = "server"), allow(dead_code))]
pub const QUICK_UNITS: u64 = 1 << 20;

/// The board's pixels and the per-mille weight of its marks, for a raster render.
fn raster(options: &RenderOptions) -> u64 {
    let pixels = u64::from(options.size) * u64::from(options.size);
    let arrows = options.arrows.len() as u64;
    let spans: u64 = options
        .arrows
        .iter()
        .map(|a| {
            let files = u64::from(a.from.file.abs_diff(a.to.file)) + 1;
            let ranks = u64::from(a.from.rank.abs_diff(a.to.rank)) + 1;
            (files * ranks).min(ARROW_SPAN)
        })
        .sum();
    let glow = u64::from(!matches!(options.check, Check::Off));
    let (highlights, crosses, markers) = (
        options.highlights.len() as u64,
        options.crosses.len() as u64,
        options.markers.len() as u64,
    );
    let squares = match arrows {
        0 => HIGHLIGHT * highlights + CROSS * crosses + MARKER * markers + GLOW * glow,
        _ => UNDER_ARROWS * (highlights + crosses + markers + glow),
    };
    (pixels.saturating_mul(1000 + ARROW_SQUARE * spans + squares) / 1000)
        .saturating_add(MARKER_BASE * markers)
}

/// The units of an SVG document of `options` (no pixels: text and marks).
fn svg(options: &RenderOptions) -> u64 {
    let marks = options.arrows.len()
        + options.highlights.len()
        + options.crosses.len()
        + options.markers.len();
    SVG_BASE + SVG_MARK * marks as u64
}

/// The estimated units of rendering one diagram with `options` in `format`.
pub fn diagram(options: &RenderOptions, format: Format) -> u64 {
    match format {
        Format::Png => raster(options),
        Format::Svg => svg(options),
        Format::Txt => 1_000,
        Format::Pdf => svg(options) * PDF_FACTOR,
        Format::Webp | Format::Gif => raster(options).saturating_mul(ENCODER_FACTOR) / 1000,
    }
}

/// The units `figures` figures add to a diagram of `options` in `format`, on a board
/// `files` squares wide: see [`FIGURE`].
pub fn figures(figures: usize, files: u8, options: &RenderOptions, format: Format) -> u64 {
    let square = u64::from(options.size) / u64::from(files.max(1));
    let raster = (figures as u64).saturating_mul(square * square * FIGURE / 1000);
    let svg = figures as u64 * SVG_FIGURE;
    match format {
        Format::Png => raster,
        Format::Webp | Format::Gif => raster.saturating_mul(ENCODER_FACTOR) / 1000,
        Format::Svg => svg,
        Format::Pdf => svg * PDF_FACTOR,
        Format::Txt => 0,
    }
}

/// [`diagram`] and [`figures`] together: a diagram of `position`.
pub fn position(
    position: &crate::chess::position::Position,
    options: &RenderOptions,
    format: Format,
) -> u64 {
    let count = position.figures().count();
    diagram(options, format).saturating_add(figures(count, position.files(), options, format))
}

/// The estimated units of an animation of `frames`: every frame composed as a PNG would
/// be, its marks counted (encoding a frame costs little beside composing it: only what
/// changed is encoded).
pub fn frames(frames: &[Frame]) -> u64 {
    frames
        .iter()
        .map(|f| raster(&f.options))
        .fold(0u64, u64::saturating_add)
}

/// A render refused because it would cost more than the bound (1,700 M units, under a
/// second of one worker for the heaviest still diagram): the sentence says what (the image, as the user will recognise it), its
/// cost, the bound and the way out.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error(
    "{what} would cost {} megapixels of rendering (pixels × frames, each arrow counting up to {}× the board's pixels by the squares it spans, each other mark less): at most {} megapixels are rendered for one request; {way_out}",
    megapixels(*.units),
    (ARROW_SQUARE * ARROW_SPAN) as f64 / 1000.0,
    MAX_UNITS / 1_000_000
)]
pub struct CostError {
    /// The estimated units.
    pub units: u64,
    /// What would be rendered (`this image`).
    pub what: String,
    /// What to ask for instead.
    pub way_out: String,
}

/// `Ok` when `units` are within [`MAX_UNITS`]; else the [`CostError`] that says so: `what`
/// (the image, as the user will recognise it) and `way_out` (what to ask for instead).
pub fn within_bound(units: u64, what: &str, way_out: &str) -> Result<(), CostError> {
    if units <= MAX_UNITS {
        return Ok(());
    }
    Err(CostError {
        units,
        what: what.to_string(),
        way_out: way_out.to_string(),
    })
}

/// `units` as megapixels of plain diagram, for messages: `12.3`.
pub fn megapixels(units: u64) -> String {
    format!("{:.1}", units as f64 / 1e6)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::chess::position::Square;
    use crate::render::spec::options::{Arrow, Marker, MarkerKind};
    use crate::render::spec::theme::{MarkColor, Rgba};

    fn units(size: u32, arrows: &[(Square, Square)], crosses: usize, format: Format) -> u64 {
        let options = RenderOptions {
            size,
            arrows: arrows
                .iter()
                .map(|&(from, to)| Arrow {
                    from,
                    to,
                    color: MarkColor::Green,
                })
                .collect(),
            crosses: (0..crosses as u8)
                .map(|i| Square::new(i % 8, i / 8))
                .collect(),
            ..RenderOptions::default()
        };
        diagram(&options, format)
    }

    #[test]
    fn figures_are_priced() {
        use crate::chess::fen::{Dialect, parse_with};
        let options = RenderOptions {
            size: 2048,
            ..RenderOptions::default()
        };
        let plain = parse_with("16/16/16/16/16/16/16/16/16/16/16/16/16/16/16/16", Dialect::Fairy)
            .unwrap();
        let rank = "*2Q".repeat(16);
        let full = parse_with(&vec![rank; 16].join("/"), Dialect::Fairy).unwrap();
        assert_eq!(full.figures().count(), 256);
        for format in [Format::Png, Format::Svg, Format::Pdf, Format::Webp] {
            let (a, b) = (position(&plain, &options, format), position(&full, &options, format));
            // 256 squares of 128 px painted in full: at least four times the board again.
            assert!(b >= a + 4 * 2048 * 2048 || format == Format::Svg || format == Format::Pdf);
            assert!(b > a, "{format:?}");
            assert!(b <= MAX_UNITS, "{format:?}: {b}");
        }
    }

    #[test]
    fn markers_are_priced_and_the_heaviest_still_diagram_fits() {
        let square = |i: usize| Square::new((i % 8) as u8, (i / 8 % 8) as u8);
        let marker = |i| Marker {
            square: square(i),
            kind: MarkerKind::Circle,
            color: MarkColor::Green,
        };
        // Every mark at its limit, every arrow's box at least ARROW_SPAN squares (the a-file
        // to the h-file, ranks 2 to 6 apart).
        let arrows: Vec<Arrow> = (0..64u8)
            .map(|i| Arrow {
                from: Square::new(0, i % 8),
                to: Square::new(7, (i % 8 + 2 + i / 8 % 5) % 8),
                color: MarkColor::Green,
            })
            .collect();
        for a in &arrows {
            let (files, ranks) = (a.from.file.abs_diff(a.to.file) + 1, a.from.rank.abs_diff(a.to.rank) + 1);
            assert!(u64::from(files) * u64::from(ranks) >= ARROW_SPAN, "{a:?}");
        }
        let heaviest = RenderOptions {
            size: 2048,
            arrows,
            highlights: (0..80).map(|i| (square(i), Rgba::hex(0x15803d))).collect(),
            crosses: (0..80).map(square).collect(),
            markers: (0..80).map(marker).collect(),
            check: Check::Auto,
            ..RenderOptions::default()
        };
        let units = diagram(&heaviest, Format::Webp);
        assert!(units <= MAX_UNITS, "{units}");
        let markers = RenderOptions {
            size: 2048,
            markers: (0..80).map(marker).collect(),
            ..RenderOptions::default()
        };
        let crosses = RenderOptions {
            size: 2048,
            crosses: (0..80).map(square).collect(),
            ..RenderOptions::default()
        };
        let plain = RenderOptions {
            size: 2048,
            ..RenderOptions::default()
        };
        let (m, c, p) = (
            diagram(&markers, Format::Png),
            diagram(&crosses, Format::Png),
            diagram(&plain, Format::Png),
        );
        // Measured: 80 markers take about eleven times the plain board, 80 crosses about
        // twice (priced at five times).
        assert!(m > 10 * p && m > 2 * c, "{m} {c} {p}");
    }

    #[test]
    fn marks_and_pixels_both_count() {
        let png = Format::Png;
        let plain = units(1024, &[], 0, png);
        assert_eq!(plain, 1024 * 1024);
        let (a1, h8, h1, a8) = (
            Square::new(0, 0),
            Square::new(7, 7),
            Square::new(7, 0),
            Square::new(0, 7),
        );
        let long = units(1024, &[(a1, h8), (h1, a8)], 0, png);
        assert!(long > 3 * plain, "two long arrows outweigh the board");
        let knight = units(1024, &[(Square::new(6, 0), Square::new(5, 2))], 0, png);
        assert!(
            plain < knight && knight < long / 2,
            "a short arrow costs less"
        );
        assert!(units(2048, &[(a1, h8), (h1, a8)], 0, png) > 3 * long);
        let crosses = units(1024, &[], 2, png);
        assert!(plain < crosses && crosses < knight);
        // Under arrows, a cross costs more than on a board without them (the full-colour
        // path), and two of them most of a board.
        let under = units(1024, &[(a1, h8)], 2, png) - units(1024, &[(a1, h8)], 0, png);
        assert!(under > 5 * (crosses - plain) && under > plain / 2, "{under}");
        assert!(units(1024, &[], 0, Format::Svg) < plain / 10);
        assert!(units(1024, &[(a1, h8)], 0, Format::Svg) > units(1024, &[], 0, Format::Svg));
        assert!(within_bound(MAX_UNITS, "x", "y").is_ok());
        let refused = within_bound(MAX_UNITS + 1, "this image", "ask for less")
            .unwrap_err()
            .to_string();
        assert!(refused.starts_with("this image would cost 1700.0 megapixels"));
        assert!(refused.ends_with("ask for less"));
    }
}
