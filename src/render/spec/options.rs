//! Render options: how a position is drawn, as domain values that cannot be invalid.
//!
//! Owns the option types and their defaults. Reading them from text (query strings,
//! command-line flags) and the error messages for bad values are `request/`'s.

use crate::chess::describe::Lang;
use crate::chess::piece::{Color, Piece};
use crate::chess::position::Square;
use crate::render::spec::theme::{MarkColor, Rgba, Theme};
use std::fmt;

/// Smallest accepted image width in pixels.
pub const MIN_SIZE: u32 = 16;
/// Largest accepted image width in pixels.
pub const MAX_SIZE: u32 = 2048;
/// Default image width in pixels.
pub const DEFAULT_SIZE: u32 = 400;
/// Name of the built-in piece set.
pub const DEFAULT_PIECE_SET: &str = "staunton";

/// Which side is at the bottom of the diagram.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum Orientation {
    /// White at the bottom.
    #[default]
    White,
    /// Black at the bottom.
    Black,
    /// The side to move at the bottom.
    Turn,
}

impl Orientation {
    /// The colour at the bottom for a position with `turn` to move.
    pub fn bottom(self, turn: Color) -> Color {
        match self {
            Orientation::White => Color::White,
            Orientation::Black => Color::Black,
            Orientation::Turn => turn,
        }
    }
}

/// Where coordinate labels go.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum Coordinates {
    /// In a margin around the board, with a thin frame.
    #[default]
    Outside,
    /// On the edge squares; the image is exactly the board.
    Inside,
    /// No labels; the image is exactly the board.
    None,
}

impl fmt::Display for Coordinates {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Coordinates::Outside => "outside",
            Coordinates::Inside => "inside",
            Coordinates::None => "none",
        })
    }
}

/// Output encoding.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum Format {
    /// PNG, 8-bit palette (or RGB when a palette cannot hold the colours).
    #[default]
    Png,
    /// Self-contained SVG.
    Svg,
    /// A one-page vector PDF of the SVG's drawing.
    Pdf,
    /// Lossless WebP of the PNG's pixels.
    Webp,
    /// A still GIF from the PNG's palette.
    Gif,
    /// The text board: the position as lines of text (see [`crate::render::text_board`]).
    Txt,
}

/// One row of the format table ([`FORMATS`]): everything the crate calls a format.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct FormatInfo {
    /// The format.
    pub format: Format,
    /// Its name in queries (`format=`) and its file extension, without the dot.
    pub name: &'static str,
    /// Its name in sentences for people: `PNG`, `WebP`, `text`.
    pub label: &'static str,
    /// The MIME type of its bytes.
    pub content_type: &'static str,
    /// Whether it is drawn with an alpha channel, so `background=transparent` can show
    /// through (GIF and WebP come from a palette of opaque colours; text has no pixels).
    pub transparent: bool,
}

/// Every format, in the order the API lists them: the one table of formats. Every list of
/// them a sentence, a help text, a parameter's values or a path shows is made from it
/// ([`Format::words`], [`Format::files`], [`Format::NAMES`]), so a new format is a new
/// variant, a row here, and its encoder.
pub const FORMATS: [FormatInfo; 6] = [
    row(Format::Png, "png", "PNG", "image/png", true),
    row(Format::Svg, "svg", "SVG", "image/svg+xml", true),
    row(Format::Pdf, "pdf", "PDF", "application/pdf", true),
    row(Format::Webp, "webp", "WebP", "image/webp", false),
    row(Format::Gif, "gif", "GIF", "image/gif", false),
    row(Format::Txt, "txt", "text", "text/plain; charset=utf-8", false),
];

const fn row(
    format: Format,
    name: &'static str,
    label: &'static str,
    content_type: &'static str,
    transparent: bool,
) -> FormatInfo {
    FormatInfo {
        format,
        name,
        label,
        content_type,
        transparent,
    }
}

impl Format {
    /// Every format, in the order of [`FORMATS`].
    pub const ALL: [Format; FORMATS.len()] = {
        let mut all = [Format::Png; FORMATS.len()];
        let mut i = 0;
        while i < all.len() {
            all[i] = FORMATS[i].format;
            i += 1;
        }
        all
    };

    /// Every format's name (`png`, `svg`, …), in the order of [`FORMATS`]: the values of
    /// the `format` parameter.
    pub const NAMES: [&'static str; FORMATS.len()] = {
        let mut names = [""; FORMATS.len()];
        let mut i = 0;
        while i < names.len() {
            names[i] = FORMATS[i].name;
            i += 1;
        }
        names
    };

    /// Its row of [`FORMATS`].
    pub fn info(self) -> &'static FormatInfo {
        &FORMATS[self as usize]
    }

    /// The MIME type of the encoding.
    pub fn content_type(self) -> &'static str {
        self.info().content_type
    }

    /// The usual file extension, without the dot (its name in queries).
    pub fn extension(self) -> &'static str {
        self.info().name
    }

    /// Its name in sentences: `PNG`, `WebP`, `text`.
    pub fn label(self) -> &'static str {
        self.info().label
    }

    /// The formats drawn with an alpha channel ([`FormatInfo::transparent`]).
    pub fn transparent() -> Vec<Format> {
        let rows = FORMATS.iter().filter(|row| row.transparent);
        rows.map(|row| row.format).collect()
    }

    /// The format of a file extension (case-insensitive), if it is one.
    pub fn from_extension(extension: &str) -> Option<Format> {
        Format::ALL
            .into_iter()
            .find(|f| f.extension().eq_ignore_ascii_case(extension))
    }

    /// `formats`' names as a sentence lists them: `png, svg or pdf`.
    pub fn words(formats: &[Format]) -> String {
        either(formats.iter().map(|f| f.extension().to_string()))
    }

    /// `formats`' labels as a sentence lists them: `PNG, WebP or text`.
    pub fn labels(formats: &[Format]) -> String {
        either(formats.iter().map(|f| f.label().to_string()))
    }

    /// `formats`' file extensions as a sentence lists them: `.png, .svg or .pdf`.
    pub fn files(formats: &[Format]) -> String {
        either(formats.iter().map(|f| format!(".{}", f.extension())))
    }
}

/// `items` as a sentence lists alternatives: `a, b or c`.
fn either(items: impl Iterator<Item = String>) -> String {
    let items: Vec<String> = items.collect();
    match items.split_last() {
        Some((last, [])) => last.clone(),
        Some((last, first)) => format!("{} or {last}", first.join(", ")),
        None => String::new(),
    }
}

/// How the text board (`format=txt`) writes pieces.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum TextStyle {
    /// ASCII letters as in FEN: `K Q R B N P A C` for White, lower case for Black.
    #[default]
    Letters,
    /// The Unicode chess symbols `♔ ♕ ♖ ♗ ♘ ♙` and `♚ ♛ ♜ ♝ ♞ ♟`; the archbishop and the
    /// chancellor, which have no symbol terminals draw, keep their letters.
    Figurines,
}

impl TextStyle {
    /// Every style, the default first.
    pub const ALL: [TextStyle; 2] = [TextStyle::Letters, TextStyle::Figurines];

    /// Its name in queries and flags: `letters`, `figurines`.
    pub fn name(self) -> &'static str {
        match self {
            TextStyle::Letters => "letters",
            TextStyle::Figurines => "figurines",
        }
    }

    /// The style called `name` (case-insensitive), if there is one.
    pub fn from_name(name: &str) -> Option<TextStyle> {
        TextStyle::ALL
            .into_iter()
            .find(|s| s.name().eq_ignore_ascii_case(name))
    }
}

/// How an SVG is written (`svg=`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum SvgForm {
    /// The smallest document: each piece once as a `<symbol>`, placed with `<use>`, its
    /// styles shared as CSS classes. Browsers, librsvg, CairoSVG and Inkscape draw it.
    #[default]
    Compact,
    /// Every piece written out where it stands, styles as attributes: no `<symbol>`, no
    /// `<use>`, no CSS but `background=auto`'s. Also drawn by QtSvg (SVG Tiny 1.2) and
    /// NanoSVG (pygame, game engines), at more bytes.
    Portable,
    /// For an HTML page (`staunton markdown --inline`, the Markdown plugins): the compact
    /// form with nothing a site framework can break. Styles as attributes (no `<style>`,
    /// no class), every id prefixed by a hash of the document (so diagrams sharing a page
    /// cannot take each other's pieces), bare `href`, and `max-width:100%` on the root.
    /// `background=auto` is drawn as `page` (the page's own colours).
    Inline,
}

impl SvgForm {
    /// Every form, the default first.
    pub const ALL: [SvgForm; 3] = [SvgForm::Compact, SvgForm::Portable, SvgForm::Inline];

    /// Its name in queries and flags: `compact`, `portable`, `inline`.
    pub fn name(self) -> &'static str {
        match self {
            SvgForm::Compact => "compact",
            SvgForm::Portable => "portable",
            SvgForm::Inline => "inline",
        }
    }

    /// The form called `name` (case-insensitive), if there is one.
    pub fn from_name(name: &str) -> Option<SvgForm> {
        SvgForm::ALL
            .into_iter()
            .find(|s| s.name().eq_ignore_ascii_case(name))
    }
}

/// Resolution assumed for PDF: 72 dots per inch, so 1 px is 1 pt.
pub const DEFAULT_DPI: u16 = 72;

/// The last move, for tinting its squares.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct LastMove {
    /// Where the piece came from; `None` for a drop (`N@f3`).
    pub from: Option<Square>,
    /// Where it went.
    pub to: Square,
    /// The promotion piece (`e7e8q`) or the dropped piece (`N@f3`), if any.
    pub piece: Option<Piece>,
}

/// Which king, if any, gets the check glow.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum Check {
    /// No glow.
    #[default]
    Off,
    /// The king of the side to move, if it is attacked.
    Auto,
    /// This square, whatever stands there.
    Square(Square),
}

/// A rectangle of the board drawn alone (`region=a1:d4`): its lowest and highest file and
/// rank, both included. Build it with [`Region::new`], which orders the corners.
///
/// The scene draws only these squares, at the image size asked (the squares grow), with
/// the region's own labels. The frame stays on the board's real edges; where the board goes
/// on, the edge is cut: a dashed line in the frame's colour, one dash per half square.
/// Marks on squares outside are dropped (last move, highlights, check, crosses, circles,
/// the glyph badge); an arrow crossing the region's edge is clipped at it. Pockets are not
/// drawn; the turn marker is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Region {
    /// The corner with the lowest file and rank.
    pub low: Square,
    /// The corner with the highest file and rank.
    pub high: Square,
}

impl Region {
    /// The rectangle with corners `a` and `b`, in either order (`h8:a1` is `a1:h8`).
    pub fn new(a: Square, b: Square) -> Region {
        Region {
            low: Square::new(a.file.min(b.file), a.rank.min(b.rank)),
            high: Square::new(a.file.max(b.file), a.rank.max(b.rank)),
        }
    }

    /// Whether `s` is inside.
    pub fn contains(&self, s: Square) -> bool {
        (self.low.file..=self.high.file).contains(&s.file)
            && (self.low.rank..=self.high.rank).contains(&s.rank)
    }

    /// Files across.
    pub fn files(&self) -> u8 {
        self.high.file - self.low.file + 1
    }

    /// Ranks high.
    pub fn ranks(&self) -> u8 {
        self.high.rank - self.low.rank + 1
    }
}

impl fmt::Display for Region {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}", self.low, self.high)
    }
}

/// An arrow from one square to another; from a square to itself it is a circle.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Arrow {
    /// Tail.
    pub from: Square,
    /// Head.
    pub to: Square,
    /// Colour.
    pub color: MarkColor,
}

/// What a square marker draws.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum MarkerKind {
    /// A circle round the square (a weakness).
    Circle,
    /// A dotted circle (a potential weakness).
    Dotted,
    /// A square outline (the worst piece).
    Square,
    /// A triangle outline.
    Triangle,
    /// A dot in the middle (a move's destination).
    Dot,
    /// A ring along the square's edge (a capture's destination).
    Ring,
    /// One or two characters in the square's top-right corner.
    Label(String),
}

impl MarkerKind {
    /// The names of the kinds, as `marks` and `[%mark]` write them.
    pub const NAMES: [&'static str; 7] = [
        "circle", "dotted", "square", "triangle", "dot", "ring", "label",
    ];

    /// Its name in `marks` and `[%mark]`.
    pub fn name(&self) -> &'static str {
        match self {
            MarkerKind::Circle => "circle",
            MarkerKind::Dotted => "dotted",
            MarkerKind::Square => "square",
            MarkerKind::Triangle => "triangle",
            MarkerKind::Dot => "dot",
            MarkerKind::Ring => "ring",
            MarkerKind::Label(_) => "label",
        }
    }
}

/// A marker on a square, drawn over the pieces.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Marker {
    /// Where.
    pub square: Square,
    /// What.
    pub kind: MarkerKind,
    /// Colour.
    pub color: MarkColor,
}

/// The marks a PGN comment gives one diagram of a game: `[%cal]` arrows, `[%csl]` coloured
/// squares and `[%mark]` markers.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct CommentMarks {
    /// `[%cal]`: arrows and circles.
    pub arrows: Vec<Arrow>,
    /// `[%csl]`: coloured squares.
    pub highlights: Vec<(Square, Rgba)>,
    /// `[%mark]`: square markers.
    pub markers: Vec<Marker>,
}

impl CommentMarks {
    /// `options` with these marks in place of its arrows, coloured squares and markers.
    pub fn apply(&self, options: &mut RenderOptions) {
        options.arrows.clone_from(&self.arrows);
        options.highlights.clone_from(&self.highlights);
        options.markers.clone_from(&self.markers);
    }
}

/// Everything that decides how a position looks: a plain struct, filled in by name with
/// the rest from [`RenderOptions::default`] (400 px, White at the bottom, labels inside,
/// the built-in pieces, the `brown` theme).
///
/// ```
/// use staunton::render::options::{Arrow, Check, LastMove};
/// use staunton::render::theme::{MarkColor, Theme};
/// use staunton::{render_png, Orientation, RenderOptions, Square};
///
/// let square = |name| Square::parse(name, staunton::BoardSize::CHESS).expect("a square");
/// let options = RenderOptions {
///     size: 480,
///     orientation: Orientation::Black,
///     theme: Theme::named("blue").expect("a built-in theme"),
///     last_move: Some(LastMove { from: Some(square("d8")), to: square("h4"), piece: None }),
///     check: Check::Auto,
///     arrows: vec![Arrow { from: square("h4"), to: square("e1"), color: MarkColor::Red }],
///     crosses: vec![square("g2")],
///     ..RenderOptions::default()
/// };
/// let png = render_png("rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3", &options)?;
/// assert_eq!(u32::from_be_bytes(png[16..20].try_into().unwrap()), 480); // the PNG's width
/// # Ok::<(), staunton::Error>(())
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct RenderOptions {
    /// Width of the whole image in pixels, [`MIN_SIZE`]..=[`MAX_SIZE`].
    pub size: u32,
    /// Which side is at the bottom.
    pub orientation: Orientation,
    /// Where labels go.
    pub coordinates: Coordinates,
    /// Name of the piece set.
    pub piece_set: String,
    /// Board colours.
    pub theme: Theme,
    /// The last move, tinted.
    pub last_move: Option<LastMove>,
    /// The check glow.
    pub check: Check,
    /// Arrows and circles, drawn over the pieces in this order.
    pub arrows: Vec<Arrow>,
    /// Squares marked with a cross.
    pub crosses: Vec<Square>,
    /// Squares filled with a translucent colour.
    pub highlights: Vec<(Square, Rgba)>,
    /// Markers on squares (circles, dots, labels…), drawn over the pieces after the
    /// arrows, in this order.
    pub markers: Vec<Marker>,
    /// Draw a marker beside the board on the side to move.
    pub turn_marker: bool,
    /// A move annotation drawn as a badge on the last move's square.
    pub glyph: Option<Glyph>,
    /// Pixels per inch of a PDF ([`DEFAULT_DPI`]: 1 px = 1 pt).
    pub dpi: u16,
    /// How the text board writes pieces (text only; images ignore it).
    pub text_style: TextStyle,
    /// The language of an SVG's `<title>` (SVG only; pixels have no words).
    pub lang: Lang,
    /// How an SVG is written (SVG only).
    pub svg_form: SvgForm,
    /// A line or a few of text under the board, wrapped to the image's width.
    pub caption: Option<String>,
    /// Only this part of the board (see [`Region`]); `None`, the whole board.
    pub region: Option<Region>,
}

/// A move annotation, drawn as a badge at the corner of the square the move went to.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Glyph {
    /// `!`, a good move (NAG 1).
    Good,
    /// `?`, a mistake (NAG 2).
    Mistake,
    /// `!!`, a brilliant move (NAG 3).
    Brilliant,
    /// `??`, a blunder (NAG 4).
    Blunder,
    /// `!?`, an interesting move (NAG 5).
    Interesting,
    /// `?!`, a dubious move (NAG 6).
    Dubious,
}

impl Glyph {
    const ALL: [Glyph; 6] = [
        Glyph::Good,
        Glyph::Mistake,
        Glyph::Brilliant,
        Glyph::Blunder,
        Glyph::Interesting,
        Glyph::Dubious,
    ];

    /// The symbol as written after a move.
    pub fn symbol(self) -> &'static str {
        match self {
            Glyph::Good => "!",
            Glyph::Mistake => "?",
            Glyph::Brilliant => "!!",
            Glyph::Blunder => "??",
            Glyph::Interesting => "!?",
            Glyph::Dubious => "?!",
        }
    }

    /// The glyph written `symbol`.
    pub fn from_symbol(symbol: &str) -> Option<Glyph> {
        Glyph::ALL.into_iter().find(|g| g.symbol() == symbol)
    }

    /// The glyph of a move NAG (1–6).
    pub fn from_nag(nag: u8) -> Option<Glyph> {
        Glyph::ALL.get(usize::from(nag).checked_sub(1)?).copied()
    }
}

impl Default for RenderOptions {
    fn default() -> Self {
        RenderOptions {
            size: DEFAULT_SIZE,
            orientation: Orientation::White,
            coordinates: Coordinates::Outside,
            piece_set: DEFAULT_PIECE_SET.to_string(),
            theme: Theme::default(),
            last_move: None,
            check: Check::Off,
            arrows: Vec::new(),
            crosses: Vec::new(),
            highlights: Vec::new(),
            markers: Vec::new(),
            turn_marker: false,
            glyph: None,
            dpi: DEFAULT_DPI,
            text_style: TextStyle::Letters,
            lang: Lang::En,
            svg_form: SvgForm::Compact,
            caption: None,
            region: None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_format_table_is_in_the_order_of_the_variants_and_makes_every_list() {
        for (i, row) in FORMATS.iter().enumerate() {
            assert_eq!(row.format as usize, i, "{} out of place", row.name);
            assert_eq!(row.format.info(), row);
            assert_eq!(Format::from_extension(&row.name.to_uppercase()), Some(row.format));
        }
        assert_eq!(Format::NAMES, ["png", "svg", "pdf", "webp", "gif", "txt"]);
        assert_eq!(
            Format::words(&Format::ALL),
            "png, svg, pdf, webp, gif or txt"
        );
        assert_eq!(
            Format::files(&[Format::Pdf, Format::Svg]),
            ".pdf or .svg"
        );
        assert_eq!(Format::labels(&[Format::Webp, Format::Txt]), "WebP or text");
        assert_eq!(Format::words(&[Format::Png]), "png");
    }
}
