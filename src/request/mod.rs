//! Requests: query parameters (or command-line options) in, a validated [`Request`] out.
//!
//! Owns the boundary: parameter names and their aliases, the accepted values, the limits,
//! and the one-sentence error for every bad value. Everything after this module works on
//! domain types and cannot fail on user input.

use crate::chess::describe::{LANG_CODES, Lang};
use crate::chess::fen;
use crate::chess::game::Game;
use crate::chess::piece::Piece;
use crate::chess::position::{BoardSize, Position, Square};
pub use crate::echo::Echo;
#[doc(no_inline)]
pub use crate::render::animate::Play;
use crate::render::options::{
    Arrow, Check, CommentMarks, Coordinates, DEFAULT_PIECE_SET, Format, Glyph, LastMove, MAX_SIZE,
    MIN_SIZE, Orientation, RenderOptions, TextStyle,
};
use crate::render::theme::{MarkColor, Rgba, THEME_NAMES, Theme, theme_list};
use thiserror::Error;

internal_mod!(key);
// The query syntax of the service's other routes (move lists, pieces, lila-gif's players).
#[cfg(feature = "server")]
internal_mod!(move_list, piece, players);
mod fen_url;
mod marks;
mod page;
pub use page::{BACKGROUNDS, MAX_CAPTION_CHARS};
pub mod article;
pub mod puzzles;
mod query;
mod region;
pub mod share_card;
pub mod sheet;
mod unknown;

pub use query::{Query, names as query_names};
pub use unknown::{Known, SERVICE_PARAMS, Unknown, Unknowns, warning};

/// Longest accepted `fen` value, in bytes: room for a 16×16 board in Fairy FEN.
pub const MAX_FEN_BYTES: usize = 1024;
/// Longest accepted piece-set name, in bytes.
const MAX_NAME_BYTES: usize = 64;
/// Most arrows and circles in one diagram (`arrows` and `[%cal]` together).
pub const MAX_ARROWS: usize = 64;
/// Most marked squares in one list (`squares`, `highlight`, `[%csl]`).
pub const MAX_SQUARES: usize = 80;
/// Longest accepted `pgn` (or `moves`) value, in bytes: a longer game needs POST.
pub const MAX_PGN_BYTES: usize = 16 * 1024;
/// Most plies in a game (`pgn`, `moves`, a POSTed PGN).
pub const MAX_PLIES: usize = 1000;

/// The per-parameter limits of a request. The defaults are the constants of this module;
/// the service can set its own (flags of `staunton serve`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    /// Longest `fen`, in bytes.
    pub fen_bytes: usize,
    /// Most arrows and circles (with `[%cal]`).
    pub arrows: usize,
    /// Most squares in `squares`, and in `highlight` with `[%csl]`.
    pub squares: usize,
    /// Largest `size`, at most [`MAX_SIZE`].
    pub max_size: u32,
    /// Longest `pgn` or `moves` in a query, in bytes.
    pub pgn_bytes: usize,
    /// Most plies in a game.
    pub plies: usize,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            fen_bytes: MAX_FEN_BYTES,
            arrows: MAX_ARROWS,
            squares: MAX_SQUARES,
            max_size: MAX_SIZE,
            pgn_bytes: MAX_PGN_BYTES,
            plies: MAX_PLIES,
        }
    }
}

/// A validated diagram request: the query string of the service's image routes (the same
/// parameters, spellings and error sentences) as a position, options and a format.
///
/// ```
/// use staunton::request::Request;
/// use staunton::{Format, Renderer};
///
/// let request = Request::from_query("fen=start&size=240&arrows=Ge2e4&format=svg", None)?;
/// assert_eq!((request.options.size, request.format), (240, Format::Svg));
/// let svg = Renderer::default().render(&request.position, &request.options, request.format)?;
/// assert!(svg.starts_with(b"<svg"));
///
/// let error = Request::from_query("fen=start&size=9000", None).unwrap_err();
/// assert_eq!(error.param, "size");
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Request {
    /// The position.
    pub position: Position,
    /// How to draw it.
    pub options: RenderOptions,
    /// The encoding.
    pub format: Format,
}

/// A bad parameter: its name, the value as sent (shortened), and what is allowed.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error("{message}")]
pub struct RequestError {
    /// The parameter at fault (canonical name).
    pub param: &'static str,
    message: String,
}

impl RequestError {
    pub(crate) fn new(param: &'static str, message: impl Into<String>) -> RequestError {
        RequestError {
            param,
            message: message.into(),
        }
    }

    pub(crate) fn bad_value(param: &'static str, value: &str, allowed: &str) -> RequestError {
        RequestError::new(
            param,
            format!("{param} {} is not allowed: {allowed}", Echo(value)),
        )
    }
}

/// What values a parameter takes: enough to validate documentation against the parser and
/// to describe the parameter in the API description (`/openapi.json`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ParamKind {
    /// A FEN (or `start`, `empty`, `[FEN "…"]`); at most [`Limits::fen_bytes`] bytes.
    Fen,
    /// A whole number of pixels, [`MIN_SIZE`] to [`Limits::max_size`].
    Size,
    /// One of these words (the first is the default; case-insensitive).
    Choice(&'static [&'static str]),
    /// The name of a loaded piece set.
    PieceSet,
    /// A colour `rgb` or `rrggbb` in hex digits, with or without `#`.
    Color,
    /// `1`/`true`/`yes` or `0`/`false`/`no`.
    Flag,
    /// Free text in a small grammar, shown by the example.
    Text {
        /// An accepted value.
        example: &'static str,
    },
}

/// One query parameter: its canonical name, every spelling accepted, what it takes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Param {
    /// The canonical name (the one documented).
    pub name: &'static str,
    /// Every spelling accepted, compared case-insensitively; includes `name`.
    pub spellings: &'static [&'static str],
    /// The values it takes.
    pub kind: ParamKind,
    /// One sentence for people.
    pub doc: &'static str,
}

impl Param {
    /// Whether `key` is one of this parameter's spellings (case-insensitive).
    pub fn accepts(&self, key: &str) -> bool {
        self.spellings.iter().any(|s| s.eq_ignore_ascii_case(key))
    }

    /// The parameter of `table` named `name`; a name missing from its table is a defect.
    pub(crate) fn of(table: &'static [Param], name: &str) -> &'static Param {
        match table.iter().find(|p| p.name == name) {
            Some(p) => p,
            None => panic!("{name} is not a parameter of its table"),
        }
    }
}

/// The diagram parameter named `name` (of [`PARAMS`]).
pub(crate) fn named(name: &str) -> &'static Param {
    Param::of(PARAMS, name)
}

const fn param(
    name: &'static str,
    spellings: &'static [&'static str],
    kind: ParamKind,
    doc: &'static str,
) -> Param {
    Param {
        name,
        spellings,
        kind,
        doc,
    }
}

/// Every query parameter of a diagram request. The parser looks names up here, and the API
/// description (`/openapi.json`) is generated from it, so the two cannot drift.
pub const PARAMS: &[Param] = &[
    param(
        "fen",
        &["fen"],
        ParamKind::Fen,
        "The position: a FEN or its placement field (`_` may stand for spaces), `[FEN \"…\"]`, `start` or `empty`.",
    ),
    param(
        "dialect",
        &["dialect"],
        ParamKind::Choice(&fen::Dialect::NAMES),
        "How `fen` is read: `standard` (the default: FEN, X-FEN with `A` archbishop and `C` chancellor, Shredder-FEN, crazyhouse), `fairy` (Fairy FEN: `-k` neutral, `*1`–`*3` turned by 90°, 180°, 270°, `'A` and `''12` text, markers `c` circle, `x` cross, `s` square, `t` triangle) or `letters` (standard, and any other letter a piece drawn as a lettered token).",
    ),
    param(
        "board",
        &["board"],
        ParamKind::Text { example: "8x7" },
        "The board's size, files x ranks (each 1 to 16), for a `fen` that is neither square nor 8 ranks tall (a square board such as 10×10 and boards 8 ranks tall are read from the FEN alone).",
    ),
    param(
        "size",
        &["size"],
        ParamKind::Size,
        "Width and height of the board image in pixels, margins included.",
    ),
    param(
        "orientation",
        &["orientation"],
        ParamKind::Choice(&["white", "black", "turn"]),
        "Which side is at the bottom; `turn` puts the side to move there.",
    ),
    param(
        "coordinates",
        &["coordinates", "coords"],
        ParamKind::Choice(&["outside", "inside", "none"]),
        "File and rank labels: in a margin, inside the edge squares, or none.",
    ),
    param(
        "format",
        &["format"],
        ParamKind::Choice(&["png", "svg", "pdf", "webp", "gif", "txt"]),
        "The output format (the path `/diagram.svg`, `.pdf`, `.webp`, `.gif`, `.txt` also chooses it): PDF is vector, for print; WebP lossless; GIF from the PNG's palette; `txt` the board as text (`text/plain; charset=utf-8`) for terminals and text snapshots, without marks.",
    ),
    param(
        "style",
        &["style"],
        ParamKind::Choice(&["letters", "figurines"]),
        "Text only (`format=txt`): pieces as ASCII letters (`K`, `q`; `.` for an empty square) or as the Unicode chess symbols (`♔`, `♛`).",
    ),
    param(
        "pieces",
        &["pieces", "piece", "pieceset", "piece_set"],
        ParamKind::PieceSet,
        "The piece set: `staunton` (the default) and `staunton-classic` (its first design) are built in; the others are those this service has loaded (`--pieces-dir`).",
    ),
    param(
        "theme",
        &["theme", "colors"],
        ParamKind::Choice(&THEME_NAMES),
        "Board colours; `print` is black and white with hatched dark squares.",
    ),
    param(
        "light",
        &["light"],
        ParamKind::Color,
        "Colour of the light squares, overriding the theme.",
    ),
    param(
        "dark",
        &["dark"],
        ParamKind::Color,
        "Colour of the dark squares, overriding the theme.",
    ),
    param(
        "background",
        &["background", "bg"],
        ParamKind::Text {
            example: "transparent",
        },
        "Everything outside the squares (margin, pocket strips, the turn marker's strip): `light` (white, the default), `dark` (near-black with light labels), `transparent`, a colour (`#1e1e1e`), or in SVG `auto`, which follows the reader's light or dark colour scheme. Labels keep at least 4.5:1 against it.",
    ),
    param(
        "labels",
        &["labels", "label_color", "labelcolor"],
        ParamKind::Color,
        "Colour of the coordinate labels and the caption, overriding the one chosen for the background.",
    ),
    param(
        "caption",
        &["caption"],
        ParamKind::Text {
            example: "White to play and win",
        },
        "Text under the board, wrapped to the image's width (at most 3 lines, 200 characters): or `fen` (the position's FEN) or `move` (\"After 23...Qxf2+\" in `lang`, from `pgn` or `moves`).",
    ),
    param(
        "lastMove",
        &["lastmove", "last_move"],
        ParamKind::Text { example: "e2e4" },
        "The last move in UCI notation (e2e4, e7e8q, e1g1, N@f3), shaded on its squares.",
    ),
    param(
        "check",
        &["check"],
        ParamKind::Text { example: "auto" },
        "A king in check: a square, or `auto` to find a king in check from the position.",
    ),
    param(
        "arrows",
        &["arrows"],
        ParamKind::Text {
            example: "Ge2e4,Rd8d4,Yg1f3,Bd4",
        },
        "Comma-separated arrows (colour G, R, Y or B, then two squares) and circles (one square).",
    ),
    param(
        "squares",
        &["squares"],
        ParamKind::Text { example: "d5,e4" },
        "Comma-separated squares marked with a cross.",
    ),
    param(
        "highlight",
        &["highlight", "highlights"],
        ParamKind::Text { example: "Ge4,Rd5" },
        "Comma-separated squares filled with a colour (G, R, Y or B, then the square).",
    ),
    param(
        "annotations",
        &["annotations"],
        ParamKind::Text {
            example: "[%cal Ge2e4,Rd8d4][%csl Gd5]",
        },
        "PGN comment commands `[%cal …]` (arrows) and `[%csl …]` (squares), as lichess writes them, and `[%mark …]` with a list as `marks` takes.",
    ),
    param(
        "marks",
        &["marks"],
        ParamKind::Text {
            example: "circle:Re4,dotted:d5,square:Bf3,triangle:g7,dot:e3,ring:d4,label:Ya3:12",
        },
        "Comma-separated square markers drawn over the pieces, each a marker, a colon and a square with an optional colour G, R, Y or B as in `arrows`: `circle` (a weakness), `dotted` (a dotted circle: a potential one), `square` (an outline: the worst piece), `triangle`, `dot`, `ring` (along the square's edge), and `label` with one or two characters (a–z, 0–9, +, -, !, ?) after another colon, set in the square's top-right corner.",
    ),
    param(
        "dots",
        &["dots"],
        ParamKind::Text { example: "e3,Re4" },
        "Comma-separated squares marked with a dot (an optional colour G, R, Y or B, then the square).",
    ),
    param(
        "legalMoves",
        &["legalmoves", "legal_moves"],
        ParamKind::Text { example: "e2" },
        "A square (with an optional colour G, R, Y or B): its piece's legal moves, by the rules of standard chess or Chess960 on an 8×8 board, as dots, captures as rings. A piece of the side not to move gets the moves it would have on its turn.",
    ),
    param(
        "pgn",
        &["pgn"],
        ParamKind::Text {
            example: "1. e4 e5 2. Nf3 Nc6 3. Bb5 a6",
        },
        "A game in PGN (tags optional; SAN moves, comments, NAGs; variations skipped): the diagram shows the position after `ply`, its last move tinted.",
    ),
    param(
        "moves",
        &["moves"],
        ParamKind::Text {
            example: "e2e4 e7e5 g1f3",
        },
        "UCI moves played from `fen` (default: the start), separated by spaces, commas or `_`.",
    ),
    param(
        "ply",
        &["ply"],
        ParamKind::Text { example: "4" },
        "With `pgn` or `moves`: the position after this many half-moves (0 = the start; default: the end).",
    ),
    param(
        "move",
        &["move"],
        ParamKind::Text { example: "3b" },
        "With `pgn` or `moves`: the position after this move, `23w` (White's 23rd) or `23b` (Black's).",
    ),
    param(
        "glyph",
        &["glyph", "nag"],
        ParamKind::Text { example: "!?" },
        "A move annotation (`!`, `?`, `!!`, `??`, `!?`, `?!`) drawn as a badge on the last move's square (from a game: its NAG).",
    ),
    param(
        "dpi",
        &["dpi"],
        ParamKind::Text { example: "300" },
        "PDF only: pixels per inch, 18 to 2400 (default 72: one pixel is one point).",
    ),
    param(
        "turn",
        &["turn"],
        ParamKind::Flag,
        "Draw a marker beside the board showing the side to move.",
    ),
    param(
        "region",
        &["region"],
        ParamKind::Text { example: "e5-h8" },
        "Only part of the board: two corner squares (`a1:d4` or `e5-h8`, either order). Those squares fill the image, with their own labels; the frame stays on the board's real edges and a dashed line marks where the board goes on. Marks outside are dropped, arrows clipped at the edge; pockets are not drawn.",
    ),
    param(
        "lang",
        &["lang", "language"],
        ParamKind::Choice(&LANG_CODES),
        "The language of the description: `/describe`'s text and an SVG's `<title>` (other formats have no words and ignore it). A region is ignored (`de-CH` is `de`).",
    ),
];

impl Request {
    /// Validate a URL query string (without the `?`). `path_format` is the format the path
    /// asked for (`/diagram.svg`), if any; `format=` may only agree with it.
    pub fn from_query(query: &str, path_format: Option<Format>) -> Result<Request, RequestError> {
        Request::read(&Query::parse(query), path_format, &Limits::default())
    }

    /// Validate `(name, value)` pairs; later pairs override earlier ones, unknown names are
    /// ignored (URLs written for other diagram services keep working).
    pub fn from_pairs<K: AsRef<str>, V: AsRef<str>>(
        pairs: impl IntoIterator<Item = (K, V)>,
        path_format: Option<Format>,
    ) -> Result<Request, RequestError> {
        Request::read(&Query::from_pairs(pairs), path_format, &Limits::default())
    }

    /// [`Request::from_pairs`] with the service's own `limits`.
    pub fn from_pairs_with<K: AsRef<str>, V: AsRef<str>>(
        pairs: impl IntoIterator<Item = (K, V)>,
        path_format: Option<Format>,
        limits: &Limits,
    ) -> Result<Request, RequestError> {
        Request::read(&Query::from_pairs(pairs), path_format, limits)
    }

    /// Validate a [`Query`] under `limits` (see [`Request::from_query`]).
    pub fn read(
        query: &Query,
        path_format: Option<Format>,
        limits: &Limits,
    ) -> Result<Request, RequestError> {
        Request::with_game(query, path_format, limits).map(|(request, _)| request)
    }

    /// [`Request::read`], and the game the request named (`pgn` or `moves`) with the ply
    /// it chose, if it named one.
    fn with_game(
        query: &Query,
        path_format: Option<Format>,
        limits: &Limits,
    ) -> Result<(Request, Option<Chosen>), RequestError> {
        let get = |name: &str| query.last(named(name));
        let reading = parse_reading(&get)?;
        let chosen = choose_game(&get, limits)?;
        let position = match &chosen {
            Some(c) => c.game.position(c.ply),
            None => parse_fen(get("fen"), limits.fen_bytes, reading)?,
        };
        check_figure_text(&position)?;
        let board = position.size();
        let theme = theme(&get)?;
        let marks = marks(&get, chosen.as_ref(), board, limits)?;
        let mut options = options(&get, chosen.as_ref(), (theme, marks), board, limits)?;
        let format = format(get("format"), path_format)?;
        page::check_format(&options.theme, format)?;
        options.markers = markers(&get, chosen.as_ref(), &position, limits)?;
        if let Some(v) = get("caption") {
            options.caption = page::caption(v, &position, chosen.as_ref(), options.lang)?;
        }
        if options.glyph.is_some() && options.last_move.is_none() {
            return Err(RequestError::new(
                "glyph",
                "glyph needs a last move to stand on: give lastMove, or a game (pgn or moves) at a ply after the start",
            ));
        }
        let request = Request {
            position,
            options,
            format,
        };
        Ok((request, chosen))
    }

    /// The position of a query and, when it names a game, the move that led there
    /// (`23...Qxf2+`) and the game's length in plies: what `/describe` needs. Image
    /// parameters are ignored.
    pub fn described(query: &Query, limits: &Limits) -> Result<Described, RequestError> {
        let get = |name: &str| query.last(named(name));
        let lang = get("lang").map(parse_lang).transpose()?.unwrap_or_default();
        match choose_game(&get, limits)? {
            Some(c) => Ok(Described {
                position: c.game.position(c.ply),
                last_move: c.game.label(c.ply),
                plies: Some(c.game.len()),
                lang,
            }),
            None => Ok(Described {
                position: parse_fen(get("fen"), limits.fen_bytes, parse_reading(&get)?)?,
                last_move: None,
                plies: None,
                lang,
            }),
        }
    }

    /// The cache key: everything that decides the output bytes, normalised, so that two
    /// spellings of one diagram share an entry. Includes the renderer version.
    pub fn cache_key(&self) -> String {
        self.key_fields(&mut key::KeyWriter::new("diagram"))
            .finish()
    }

    /// Write this request's fields into `key` (for keys that hold a diagram and more).
    pub fn key_fields<'k>(&self, key: &'k mut key::KeyWriter) -> &'k mut key::KeyWriter {
        let o = &self.options;
        let bottom = o.orientation.bottom(self.position.turn).letter();
        if self.format == Format::Txt {
            // Text shows only the position, the side at the bottom, the labels and the style.
            key.field("txt")
                .position(&self.position)
                .field(bottom)
                .field(o.coordinates)
                .field(o.text_style.name());
            if let Some(region) = o.region {
                key.field("region").field(region);
            }
            return key;
        }
        let t = &o.theme;
        key.field(self.format.extension())
            .position(&self.position)
            .field(o.size)
            .field(bottom)
            .field(o.coordinates)
            .field(o.piece_set.to_ascii_lowercase());
        for colour in [t.light, t.dark, t.margin, t.frame, t.label, t.last_move] {
            key.field(colour);
        }
        key.field(u8::from(t.hatched));
        key.optional(
            o.last_move
                .map(|m| format!("{:?}{}{:?}", m.from, m.to, m.piece.map(|p| p.fen_char()))),
        );
        key.field(format!("{:?}", o.check))
            .field(u8::from(o.turn_marker))
            .optional(o.glyph.map(|g| g.symbol()));
        if self.format == Format::Pdf {
            key.field(o.dpi);
        }
        if self.format == Format::Svg {
            // Only an SVG has words: its `<title>`. Other formats share one entry.
            key.field(o.lang.code());
        }
        key.field(o.arrows.len());
        for a in &o.arrows {
            key.field(format!("{}{}{}", a.color.letter(), a.from, a.to));
        }
        key.field(o.crosses.len());
        for s in &o.crosses {
            key.field(s);
        }
        key.field(o.highlights.len());
        for (s, c) in &o.highlights {
            key.field(format!("{s}{c}"));
        }
        // Last, and only when asked for: the keys of every other request stay as they were.
        if let Some(page) = t.dark_page {
            key.field("auto").field(page.background).field(page.label);
        }
        if let Some(caption) = &o.caption {
            key.field("caption").field(caption);
        }
        if let Some(region) = o.region {
            key.field("region").field(region);
        }
        if !o.markers.is_empty() {
            key.field("markers").field(o.markers.len());
            for m in &o.markers {
                let text = match &m.kind {
                    crate::render::options::MarkerKind::Label(text) => text.as_str(),
                    _ => "",
                };
                key.field(format!(
                    "{}{}{}{}",
                    m.kind.name(),
                    m.color.letter(),
                    m.square,
                    text
                ));
            }
        }
        key
    }
}

/// The board's colours: `theme`, then `light` and `dark` over it.
fn theme<'a>(get: &impl Fn(&str) -> Option<&'a str>) -> Result<Theme, RequestError> {
    let mut theme = match get("theme") {
        Some(v) => parse_theme(v)?,
        None => Theme::default(),
    };
    if let Some(v) = get("light") {
        theme.light = parse_color("light", v)?;
    }
    if let Some(v) = get("dark") {
        theme.dark = parse_color("dark", v)?;
        theme.hatched = false;
    }
    page::apply(get, &mut theme)?;
    Ok(theme)
}

/// The arrows and coloured squares: `arrows`, `highlight`, `annotations` and the chosen
/// ply's comment together, within the limits.
fn marks<'a>(
    get: &impl Fn(&str) -> Option<&'a str>,
    chosen: Option<&Chosen>,
    board: BoardSize,
    limits: &Limits,
) -> Result<Annotations, RequestError> {
    let mut arrows = match get("arrows") {
        Some(v) => parse_arrows("arrows", v, board, limits.arrows)?,
        None => Vec::new(),
    };
    let mut highlights = match get("highlight") {
        Some(v) => parse_highlights("highlight", v, board, limits.squares)?,
        None => Vec::new(),
    };
    if let Some(v) = get("annotations") {
        let (cal, csl) =
            parse_annotations(v, board, limits).map_err(|e| param_error("annotations", &e))?;
        arrows.extend(cal);
        highlights.extend(csl);
    }
    if let Some(c) = chosen {
        let (cal, csl) = c.annotations(board, limits)?;
        arrows.extend(cal);
        highlights.extend(csl);
    }
    // Named by where they came from, as the user wrote them: `arrows`, `annotations`,
    // `[%cal]` in the game's comment.
    let sources = |param: &str, command: &str| {
        let mut from: Vec<String> = [param, "annotations"]
            .into_iter()
            .filter(|p| get(p).is_some())
            .map(str::to_string)
            .collect();
        if chosen.is_some() {
            from.push(format!("{command} in the game's comment"));
        }
        from.join(" and ")
    };
    if arrows.len() > limits.arrows {
        return Err(RequestError::new(
            "arrows",
            format!(
                "{} draw {} arrows and circles together: at most {} are allowed",
                sources("arrows", "[%cal]"),
                arrows.len(),
                limits.arrows
            ),
        ));
    }
    if highlights.len() > limits.squares {
        return Err(RequestError::new(
            "highlight",
            format!(
                "{} colour {} squares together: at most {} are allowed",
                sources("highlight", "[%csl]"),
                highlights.len(),
                limits.squares
            ),
        ));
    }
    Ok((arrows, highlights))
}

/// The square markers: `marks`, then `[%mark]` in `annotations` and the chosen ply's
/// comment, then `dots` and `legalMoves`, together at most `limits.squares`.
fn markers<'a>(
    get: &impl Fn(&str) -> Option<&'a str>,
    chosen: Option<&Chosen>,
    position: &Position,
    limits: &Limits,
) -> Result<Vec<crate::render::options::Marker>, RequestError> {
    let (board, max) = (position.size(), limits.squares);
    let mut out = match get("marks") {
        Some(v) => marks::parse_marks("marks", v, board, max)?,
        None => Vec::new(),
    };
    if let Some(v) = get("annotations") {
        let found = marks::parse_mark_commands("annotations", v, board, max);
        out.extend(found.map_err(|e| param_error("annotations", &e))?);
    }
    if let Some(c) = chosen {
        let found = marks::parse_mark_commands("pgn", c.game.comment(c.ply), board, max);
        out.extend(found.map_err(|e| comment_error(&c.game, c.ply, &e))?);
    }
    if let Some(v) = get("dots") {
        out.extend(marks::parse_dots(v, board, max)?);
    }
    if let Some(v) = get("legalMoves") {
        out.extend(marks::parse_legal_moves(v, position)?);
    }
    marks::within("marks", "marks, dots, legalMoves and [%mark]", out, max)
}

/// The drawing options of a request, read in the order of their fields (so the first bad
/// parameter is the one named), with its colours and marks already read.
fn options<'a>(
    get: &impl Fn(&str) -> Option<&'a str>,
    chosen: Option<&Chosen>,
    (theme, (arrows, highlights)): (Theme, Annotations),
    board: BoardSize,
    limits: &Limits,
) -> Result<RenderOptions, RequestError> {
    Ok(RenderOptions {
        size: get("size")
            .map(|v| parse_size(v, limits.max_size))
            .transpose()?
            .unwrap_or(crate::render::options::DEFAULT_SIZE),
        orientation: get("orientation")
            .map(parse_orientation)
            .transpose()?
            .unwrap_or_default(),
        coordinates: get("coordinates")
            .map(parse_coordinates)
            .transpose()?
            .unwrap_or_default(),
        piece_set: get("pieces")
            .map(parse_piece_set)
            .transpose()?
            .unwrap_or_else(|| DEFAULT_PIECE_SET.to_string()),
        theme,
        last_move: match get("lastMove") {
            Some(v) => parse_last_move(v, board)?,
            None => chosen.and_then(Chosen::last_move),
        },
        check: match get("check") {
            Some(v) => parse_check(v, board)?,
            None if chosen.is_some() => Check::Auto,
            None => Check::Off,
        },
        glyph: match get("glyph") {
            Some(v) => Some(parse_glyph(v)?),
            None => chosen.and_then(Chosen::glyph),
        },
        arrows,
        crosses: get("squares")
            .map(|v| parse_crosses(v, board, limits.squares))
            .transpose()?
            .unwrap_or_default(),
        highlights,
        markers: Vec::new(),
        turn_marker: get("turn")
            .map(|v| parse_flag("turn", v))
            .transpose()?
            .unwrap_or(false),
        dpi: get("dpi")
            .map(parse_dpi)
            .transpose()?
            .unwrap_or(crate::render::options::DEFAULT_DPI),
        text_style: get("style")
            .map(parse_style)
            .transpose()?
            .unwrap_or_default(),
        lang: get("lang").map(parse_lang).transpose()?.unwrap_or_default(),
        caption: None,
        region: get("region")
            .map(|v| region::parse_region(v, board))
            .transpose()?,
    })
}

/// The format `format=` asks for, which must agree with the path's (`/diagram.svg`).
fn format(asked: Option<&str>, path_format: Option<Format>) -> Result<Format, RequestError> {
    match (asked.map(parse_format), path_format) {
        (None, path) => Ok(path.unwrap_or_default()),
        (Some(Err(e)), _) => Err(e),
        (Some(Ok(asked)), None) => Ok(asked),
        (Some(Ok(asked)), Some(path)) if asked == path => Ok(asked),
        (Some(Ok(asked)), Some(path)) => Err(RequestError::new(
            "format",
            format!(
                "format \"{}\" contradicts the path, which asks for {}: drop format= or use /diagram.{}",
                asked.extension(),
                path.extension(),
                asked.extension()
            ),
        )),
    }
}

/// A whole-number game parameter `name`, `default` when not given, at most `max`.
fn game_number(
    value: Option<&str>,
    name: &'static str,
    default: u64,
    max: u64,
) -> Result<u64, RequestError> {
    let Some(v) = value else {
        return Ok(default);
    };
    v.trim()
        .parse::<u64>()
        .ok()
        .filter(|&n| n <= max)
        .ok_or_else(|| {
            RequestError::bad_value(name, v, &format!("expected a whole number from 0 to {max}"))
        })
}

/// The parameters of a whole-game image (`/game.gif`, `/game.png`) beside the image
/// parameters, each with its spellings, what it takes and one sentence.
pub const GAME_PARAMS: &[Param] = &[
    param(
        "delay",
        &["delay"],
        ParamKind::Text { example: "80" },
        "Hundredths of a second each frame shows (default 80).",
    ),
    param(
        "lastDelay",
        &["lastdelay", "last_delay"],
        ParamKind::Text { example: "300" },
        "Hundredths of a second the last frame shows (default 300).",
    ),
    param(
        "loop",
        &["loop"],
        ParamKind::Flag,
        "Play the animation in a loop (default) or once.",
    ),
    param(
        "from",
        &["from"],
        ParamKind::Text { example: "10" },
        "The first ply shown (default 0, the start).",
    ),
    param(
        "to",
        &["to"],
        ParamKind::Text { example: "30" },
        "The last ply shown (default: the end of the game).",
    ),
    param(
        "players",
        &["players", "bars"],
        ParamKind::Flag,
        "Player bars above and below the board: names, titles and ratings from the tags, clocks from `[%clk]` (default: on when the PGN names a player).",
    ),
];

/// Longest frame delay, in hundredths of a second (a minute).
pub const MAX_DELAY: u16 = 6000;

/// A validated whole-game image request: the game, the plies shown and how, and whether
/// the animation loops; `render::animate` draws its frames.
#[derive(Debug, Clone)]
pub struct GameRequest {
    /// What the animation shows.
    pub play: Play,
    /// Play in a loop.
    pub looped: bool,
    key: String,
}

impl GameRequest {
    /// Validate a whole-game request: the game in `pgn` (or `body`, a POSTed PGN, which wins)
    /// or `moves`, the image parameters of every frame, and [`GAME_PARAMS`]. `kind` names
    /// the output (`gif`, `apng`) in the cache key.
    pub fn from_pairs_with(
        pairs: Vec<(String, String)>,
        body: Option<&str>,
        kind: &str,
        limits: &Limits,
    ) -> Result<GameRequest, RequestError> {
        GameRequest::read(&Query::from_pairs(pairs), body, kind, limits)
    }

    /// [`GameRequest::from_pairs_with`] over a [`Query`].
    pub fn read(
        query: &Query,
        body: Option<&str>,
        kind: &str,
        limits: &Limits,
    ) -> Result<GameRequest, RequestError> {
        let game_value = |name: &str| query.last(Param::of(GAME_PARAMS, name));
        let number = |name, default, max| game_number(game_value(name), name, default, max);
        let delay = number("delay", 80, u64::from(MAX_DELAY))? as u16;
        let last_delay = number("lastDelay", 300, u64::from(MAX_DELAY))? as u16;
        let looped = match game_value("loop") {
            Some(v) => parse_flag("loop", v)?,
            None => true,
        };
        let players = game_value("players")
            .map(|v| parse_flag("players", v))
            .transpose()?;
        // The image parameters, with the game at its start: ply and move pick nothing here.
        let mut limits = *limits;
        let (pgn, moves) = (named("pgn"), named("moves"));
        let posted = |k: &str| body.is_some() && pgn.accepts(k);
        let mut image =
            query.only(|k| !named("ply").accepts(k) && !named("move").accepts(k) && !posted(k));
        if let Some(body) = body {
            limits.pgn_bytes = limits.pgn_bytes.max(body.len());
            image.push("pgn", body);
        }
        let missing = || {
            RequestError::new(
                "pgn",
                "pgn is missing: give the game as pgn (or POST its PGN as the body) or as moves",
            )
        };
        if !image.has(pgn) && !image.has(moves) {
            return Err(missing());
        }
        image.push("ply", "0");
        let (request, chosen) = Request::with_game(&image, Some(Format::Png), &limits)?;
        page::check_animation(&request.options)?;
        let Some(Chosen { game, .. }) = chosen else {
            return Err(missing());
        };
        let plies = game.len() as u64;
        let from = number("from", 0, plies)? as usize;
        let to = number("to", plies, plies)? as usize;
        if from > to {
            return Err(RequestError::new(
                "from",
                format!("from {from} is after to {to}: the excerpt would be empty"),
            ));
        }
        let bars =
            players.unwrap_or_else(|| ["White", "Black"].iter().any(|s| names_player(&game, s)));
        let board = request.position.size();
        let marks = (from..=to)
            .map(|ply| comment_marks_at(&game, ply, board, &limits))
            .collect::<Result<Vec<_>, _>>()?;
        let play = Play {
            game,
            options: request.options.clone(),
            from,
            to,
            delay,
            last_delay,
            bars,
            marks,
        };
        within_cost(&play.frames(), request.options.size)?;
        let source = body
            .or_else(|| query.last(pgn))
            .or_else(|| query.last(moves))
            .unwrap_or("");
        let key = request
            .key_fields(&mut key::KeyWriter::new("game"))
            .field(kind)
            .field(from)
            .field(to)
            .field(delay)
            .field(last_delay)
            .field(u8::from(looped))
            .field(u8::from(bars))
            .field(source)
            // The letters the game was read in: `1. Rf1` is a rook's move in English and
            // a king's in Italian, one text for two games.
            .field(request.options.lang.code())
            .finish();
        Ok(GameRequest { play, looped, key })
    }

    /// The frames, one per ply shown (see [`Play::frames`]).
    pub fn frames(&self) -> Vec<crate::render::animate::Frame> {
        self.play.frames()
    }

    /// The cache key: the output kind, every parameter, and the game's text.
    pub fn cache_key(&self) -> &str {
        &self.key
    }
}

/// `Ok` when an animation of `frames` at `size` is within the cost bound. Every frame's
/// marks count: a thousand plies of 64 arrows at 2048 px would keep a worker for minutes.
fn within_cost(frames: &[crate::render::animate::Frame], size: u32) -> Result<(), RequestError> {
    crate::render::spec::cost::within_bound(
        crate::render::spec::cost::frames(frames),
        &format!(
            "the animation of {} frames of {size}×{size} pixels",
            frames.len()
        ),
        "choose a smaller size, fewer arrows or an excerpt (from, to)",
    )
    .map_err(|why| RequestError::new("size", why.to_string()))
}

/// Whether the tag `side` names a player (not empty, not `?`).
fn names_player(game: &Game, side: &str) -> bool {
    game.header(side)
        .is_some_and(|n| !n.trim().is_empty() && n.trim() != "?")
}

/// What `/describe` says of a query: the position, and for a game the move that led there
/// and the game's length.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Described {
    /// The position.
    pub position: Position,
    /// The move that led to it, numbered (`23...Qxf2+`), for a game after its start.
    pub last_move: Option<String>,
    /// The game's length in plies, for a game.
    pub plies: Option<usize>,
    /// The language to describe it in (`lang`).
    pub lang: Lang,
}

impl Described {
    /// The description: the move that led to the position, if any, then the position,
    /// in [`Described::lang`].
    pub fn text(&self) -> String {
        crate::chess::describe::describe_after(&self.position, self.last_move.as_deref(), self.lang)
    }
}

/// A game a request named, and the ply it asked for.
#[derive(Debug, Clone)]
pub struct Chosen {
    /// The game.
    pub game: Game,
    /// The ply shown (0 = the start).
    pub ply: usize,
}

impl Chosen {
    /// The squares of the move that led to the chosen ply.
    fn last_move(&self) -> Option<LastMove> {
        self.game.last_move(self.ply).map(|(from, to)| LastMove {
            from: Some(from),
            to,
            piece: None,
        })
    }

    /// The annotation of the move that led to the chosen ply.
    fn glyph(&self) -> Option<Glyph> {
        self.game.nag(self.ply).and_then(Glyph::from_nag)
    }

    /// The `[%cal]` arrows and `[%csl]` squares of the comment after the chosen ply's move.
    pub fn annotations(
        &self,
        board: BoardSize,
        limits: &Limits,
    ) -> Result<Annotations, RequestError> {
        annotations_at(&self.game, self.ply, board, limits)
    }
}

/// The `[%cal]` and `[%csl]` marks of the comment after the move that led to `ply`.
pub fn annotations_at(
    game: &Game,
    ply: usize,
    board: BoardSize,
    limits: &Limits,
) -> Result<Annotations, RequestError> {
    parse_annotations(game.comment(ply), board, limits).map_err(|e| comment_error(game, ply, &e))
}

/// The `[%cal]`, `[%csl]` and `[%mark]` marks of the comment after the move that led to
/// `ply`: an animation frame's.
pub fn comment_marks_at(
    game: &Game,
    ply: usize,
    board: BoardSize,
    limits: &Limits,
) -> Result<CommentMarks, RequestError> {
    let (arrows, highlights) = annotations_at(game, ply, board, limits)?;
    let markers = marks::parse_mark_commands("pgn", game.comment(ply), board, limits.squares)
        .and_then(|markers| marks::within("pgn", "[%mark] commands", markers, limits.squares))
        .map_err(|e| comment_error(game, ply, &e))?;
    Ok(CommentMarks {
        arrows,
        highlights,
        markers,
    })
}

/// `e`, an error in what `param` holds (comment commands), as `param`'s: `annotations:
/// [%cal] item "Gz9e4" is not allowed: …`.
fn param_error(param: &'static str, e: &RequestError) -> RequestError {
    RequestError::new(param, format!("{param}: {e}"))
}

/// `e`, an error in the comment after the move that led to `ply`, as `pgn`'s.
fn comment_error(game: &Game, ply: usize, e: &RequestError) -> RequestError {
    let place = game
        .label(ply)
        .map_or("before the first move".to_string(), |l| {
            format!("after {l}")
        });
    RequestError::new(
        "pgn",
        format!("pgn: the comment {place} has bad marks: {e}"),
    )
}

/// Play `pgn` read in the piece letters of `lang` (`Sf3` with `lang=de`), else in English
/// ones, so a game in English SAN reads whatever the language of the words; the error is
/// the one of `lang`'s letters.
fn read_pgn(pgn: &str, lang: Option<Lang>, plies: usize) -> Result<Game, RequestError> {
    use crate::chess::annotated::Letters;
    let letters = Letters::of(lang.unwrap_or_default());
    let game = match Game::from_pgn_with(pgn, plies, letters) {
        Err(e) if letters != Letters::English => Game::from_pgn(pgn, plies).map_err(|_| e),
        other => other,
    };
    game.map_err(|e| RequestError::new("pgn", format!("pgn: {e}")))
}

/// A PGN is text: tabs and line breaks are its only control characters. Any other that is
/// not printable (NUL, ESC, U+FFFF) is refused where it stands, before it can reach a tag,
/// a comment, a player's bar or a sentence.
pub(crate) fn check_pgn_text(param: &'static str, pgn: &str) -> Result<(), RequestError> {
    let bad = |c: char| crate::echo::forbidden(c) && !matches!(c, '\t' | '\n' | '\r');
    for (line, text) in pgn.split('\n').enumerate() {
        if let Some((column, c)) = text.chars().enumerate().find(|(_, c)| bad(*c)) {
            return Err(RequestError::new(
                param,
                format!(
                    "{param} has the character {} at line {}, column {}, which is not printable: a PGN is text, and tabs and line breaks are its only control characters",
                    crate::echo::CodePoint(c),
                    line + 1,
                    column + 1
                ),
            ));
        }
    }
    Ok(())
}

/// The game of `pgn` or `moves` (from `fen`, default the start), and the ply `ply` or
/// `move` asks for (default: the end). `None` when neither names a game.
fn choose_game<'a>(
    get: &impl Fn(&str) -> Option<&'a str>,
    limits: &Limits,
) -> Result<Option<Chosen>, RequestError> {
    let too_long = |param: &'static str, value: &str| {
        RequestError::new(
            param,
            format!(
                "{param} is {} bytes long: at most {} bytes are allowed in a URL (POST a longer game to /game.gif or /game.png)",
                value.len(),
                limits.pgn_bytes
            ),
        )
    };
    let game = match (get("pgn"), get("moves")) {
        (Some(_), Some(_)) => {
            return Err(RequestError::new(
                "moves",
                "pgn and moves cannot both be given: put the moves in the PGN",
            ));
        }
        (Some(pgn), None) => {
            if pgn.len() > limits.pgn_bytes {
                return Err(too_long("pgn", pgn));
            }
            if get("fen").is_some() {
                return Err(RequestError::new(
                    "fen",
                    "fen and pgn cannot both be given: a PGN starts from its [FEN] tag, or the standard position",
                ));
            }
            check_pgn_text("pgn", pgn)?;
            read_pgn(pgn, get("lang").and_then(Lang::from_code), limits.plies)?
        }
        (None, Some(moves)) => {
            if moves.len() > limits.pgn_bytes {
                return Err(too_long("moves", moves));
            }
            let start = match get("fen") {
                Some(_) => parse_fen(get("fen"), limits.fen_bytes, Reading::default())?,
                None => Position::start(),
            };
            Game::from_uci(&start, moves, limits.plies)
                .map_err(|e| RequestError::new("moves", format!("moves: {e}")))?
        }
        (None, None) => {
            for param in ["ply", "move"] {
                if get(param).is_some() {
                    return Err(RequestError::new(
                        param,
                        format!(
                            "{param} picks a position of a game: give the game as pgn or moves"
                        ),
                    ));
                }
            }
            return Ok(None);
        }
    };
    let ply = match (get("ply"), get("move")) {
        (Some(_), Some(_)) => {
            return Err(RequestError::new(
                "move",
                "ply and move cannot both be given: they both pick the position",
            ));
        }
        (Some(v), None) => {
            let ply: usize = v.trim().parse().map_err(|_| {
                RequestError::bad_value(
                    "ply",
                    v,
                    "expected a number of half-moves, 0 for the start",
                )
            })?;
            if ply > game.len() {
                return Err(RequestError::new(
                    "ply",
                    format!(
                        "ply {ply} is past the end of the game, which has {} plies",
                        game.len()
                    ),
                ));
            }
            ply
        }
        (None, Some(v)) => parse_move_choice(v, &game)?,
        (None, None) => game.len(),
    };
    Ok(Some(Chosen { game, ply }))
}

/// `23b`, `23w`, `23...`, `23.`: the ply after that move of `game`.
fn parse_move_choice(value: &str, game: &Game) -> Result<usize, RequestError> {
    const ALLOWED: &str = "expected a move number and side, such as 23w (White's 23rd) or 23b";
    let v = value.trim();
    let digits = v.find(|c: char| !c.is_ascii_digit()).unwrap_or(v.len());
    let number: u32 = v[..digits]
        .parse()
        .map_err(|_| RequestError::bad_value("move", value, ALLOWED))?;
    let color = match v[digits..].to_ascii_lowercase().as_str() {
        "w" | "." | "" => crate::chess::piece::Color::White,
        "b" | "..." | "…" => crate::chess::piece::Color::Black,
        _ => return Err(RequestError::bad_value("move", value, ALLOWED)),
    };
    game.ply_after(number, color).ok_or_else(|| {
        RequestError::new(
            "move",
            format!(
                "move {} is not in the game, which has {} plies",
                Echo(value),
                game.len()
            ),
        )
    })
}

fn parse_dpi(value: &str) -> Result<u16, RequestError> {
    value
        .trim()
        .parse::<u16>()
        .ok()
        .filter(|d| (18..=2400).contains(d))
        .ok_or_else(|| {
            RequestError::bad_value(
                "dpi",
                value,
                "expected a whole number of pixels per inch from 18 to 2400",
            )
        })
}

fn parse_glyph(value: &str) -> Result<Glyph, RequestError> {
    Glyph::from_symbol(value.trim()).ok_or_else(|| {
        RequestError::bad_value("glyph", value, "expected one of !, ?, !!, ??, !?, ?!")
    })
}

/// Every character of the position's text figures (Fairy FEN `'A`, `''12`) has a glyph in
/// DejaVu Sans or an added font, or one sentence naming the first that has none.
fn check_figure_text(position: &Position) -> Result<(), RequestError> {
    use crate::chess::fairy::Shape;
    for (square, figure) in position.figures() {
        let Shape::Text(text) = figure.shape else {
            continue;
        };
        let text = text.to_string();
        if let Some(c) = crate::render::scene::caption::missing_glyph(&text) {
            let shown: String = text
                .chars()
                .map(|c| if c.is_control() { '?' } else { c })
                .collect();
            let at = format!("{}{}", square.file_char(), square.rank_number());
            return Err(RequestError::new(
                "fen",
                format!(
                    "fen text \"{shown}\" on {at} cannot be drawn: no font has U+{:04X}; add a font with --fonts",
                    u32::from(c)
                ),
            ));
        }
    }
    Ok(())
}

/// How `fen` is read: its dialect and, for a board neither square nor 8 ranks tall, its
/// size.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(crate) struct Reading {
    dialect: fen::Dialect,
    board: Option<BoardSize>,
}

/// The `dialect` and `board` parameters (the standard dialect, the size the FEN gives, when
/// absent).
pub(crate) fn parse_reading<'a>(
    get: &impl Fn(&str) -> Option<&'a str>,
) -> Result<Reading, RequestError> {
    let dialect = match get("dialect") {
        None => fen::Dialect::default(),
        Some(value) => fen::Dialect::from_name(value).ok_or_else(|| {
            RequestError::bad_value(
                "dialect",
                value,
                "expected standard (FEN, X-FEN, crazyhouse), fairy (Fairy FEN) or letters (any letter a piece)",
            )
        })?,
    };
    let board = get("board").map(parse_board_size).transpose()?;
    Ok(Reading { dialect, board })
}

/// `10x8` (or `10×8`): files by ranks, each 1 to 16.
fn parse_board_size(value: &str) -> Result<BoardSize, RequestError> {
    let bad = || {
        RequestError::bad_value(
            "board",
            value,
            "expected files x ranks, each 1 to 16, e.g. 8x7 or 9x10",
        )
    };
    let (files, ranks) = value.split_once(['x', 'X', '×']).ok_or_else(bad)?;
    let number = |t: &str| t.trim().parse::<u8>().ok();
    number(files)
        .zip(number(ranks))
        .and_then(|(f, r)| BoardSize::new(f, r))
        .ok_or_else(bad)
}

pub(crate) fn parse_fen(
    value: Option<&str>,
    max_bytes: usize,
    reading: Reading,
) -> Result<Position, RequestError> {
    let Some(value) = value else {
        return Err(RequestError::new(
            "fen",
            "fen is missing: give a position, e.g. fen=rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR_b_KQkq_e3_0_1 or fen=start",
        ));
    };
    if value.len() > max_bytes {
        return Err(RequestError::new(
            "fen",
            format!(
                "fen {} is {} bytes long: at most {max_bytes} bytes are allowed",
                Echo(value),
                value.len()
            ),
        ));
    }
    // A lichess or chess.com URL pasted whole: its FEN.
    let from_url = fen_url::fen_in_url(value).transpose()?;
    let value = from_url.as_deref().unwrap_or(value);
    fen::parse_board(value, reading.dialect, reading.board).map_err(|e| {
        let detail = e.to_string();
        let detail = detail.strip_prefix("invalid FEN: ").unwrap_or(&detail);
        RequestError::new(
            "fen",
            format!("fen {} is not a valid FEN: {detail}", Echo(value)),
        )
    })
}

fn parse_size(value: &str, max: u32) -> Result<u32, RequestError> {
    let max = max.clamp(MIN_SIZE, MAX_SIZE);
    let allowed = format!("expected a whole number of pixels from {MIN_SIZE} to {max}");
    let digits = !value.is_empty() && value.len() <= 6 && value.bytes().all(|b| b.is_ascii_digit());
    match value.parse::<u32>() {
        Ok(n) if digits && (MIN_SIZE..=max).contains(&n) => Ok(n),
        _ => Err(RequestError::bad_value("size", value, &allowed)),
    }
}

fn parse_orientation(value: &str) -> Result<Orientation, RequestError> {
    match value.to_ascii_lowercase().as_str() {
        "white" | "w" => Ok(Orientation::White),
        "black" | "b" => Ok(Orientation::Black),
        "turn" => Ok(Orientation::Turn),
        _ => Err(RequestError::bad_value(
            "orientation",
            value,
            "expected white, black or turn",
        )),
    }
}

fn parse_coordinates(value: &str) -> Result<Coordinates, RequestError> {
    match value.to_ascii_lowercase().as_str() {
        "outside" | "1" | "true" | "yes" | "on" => Ok(Coordinates::Outside),
        "inside" => Ok(Coordinates::Inside),
        "none" | "0" | "false" | "no" | "off" => Ok(Coordinates::None),
        _ => Err(RequestError::bad_value(
            "coordinates",
            value,
            "expected outside, inside or none (1/true/yes = outside, 0/false/no = none)",
        )),
    }
}

fn parse_format(value: &str) -> Result<Format, RequestError> {
    Format::from_extension(value.trim()).ok_or_else(|| {
        RequestError::bad_value("format", value, "expected png, svg, pdf, webp, gif or txt")
    })
}

/// A language of descriptions (`lang`): one of [`LANG_CODES`], a region ignored.
pub fn parse_lang(value: &str) -> Result<Lang, RequestError> {
    Lang::from_code(value).ok_or_else(|| {
        RequestError::bad_value(
            "lang",
            value,
            &format!("expected one of {}", LANG_CODES.join(", ")),
        )
    })
}

fn parse_style(value: &str) -> Result<TextStyle, RequestError> {
    TextStyle::from_name(value.trim()).ok_or_else(|| {
        RequestError::bad_value(
            "style",
            value,
            "expected letters or figurines (how format=txt writes pieces)",
        )
    })
}

fn parse_piece_set(value: &str) -> Result<String, RequestError> {
    let ok = !value.is_empty()
        && value.len() <= MAX_NAME_BYTES
        && value
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_');
    if ok {
        Ok(value.to_ascii_lowercase())
    } else {
        Err(RequestError::bad_value(
            "pieces",
            value,
            "expected the name of a piece set (letters, digits, - and _)",
        ))
    }
}

fn parse_theme(value: &str) -> Result<Theme, RequestError> {
    Theme::named(value).ok_or_else(|| {
        RequestError::bad_value("theme", value, &format!("expected {}", theme_list()))
    })
}

/// `#rgb` or `#rrggbb`, the `#` optional (in a URL it starts the fragment, so `eeeeee`
/// is the easy way to write one).
fn parse_color(param: &'static str, value: &str) -> Result<Rgba, RequestError> {
    if value.is_empty() {
        return Err(RequestError::new(
            param,
            format!(
                "{param} is empty: a colour is #rgb or #rrggbb; a # written in a URL starts its fragment and cuts the rest off, so write it as %23 ({param}=%23eeeeee) or leave it out ({param}=eeeeee)"
            ),
        ));
    }
    let parsed = match value.starts_with('#') {
        true => Rgba::parse_hex(value, false),
        false => Rgba::parse_hex(&format!("#{value}"), false),
    };
    parsed.ok_or_else(|| {
        RequestError::bad_value(
            param,
            value,
            "expected a colour written #rgb or #rrggbb, the # optional (eee, e0c8a0)",
        )
    })
}

pub(crate) fn parse_flag(param: &'static str, value: &str) -> Result<bool, RequestError> {
    match value.to_ascii_lowercase().as_str() {
        "1" | "true" | "yes" | "on" => Ok(true),
        "0" | "false" | "no" | "off" | "" => Ok(false),
        _ => Err(RequestError::bad_value(
            param,
            value,
            "expected 1/true/yes or 0/false/no",
        )),
    }
}

fn parse_last_move(value: &str, board: BoardSize) -> Result<Option<LastMove>, RequestError> {
    let bad = || {
        RequestError::bad_value(
            "lastMove",
            value,
            "expected a move in UCI notation such as e2e4, e7e8q or N@f3, on the board",
        )
    };
    if value.is_empty() || value == "-" {
        return Ok(None);
    }
    if let Some((piece, to)) = value.split_once('@') {
        let mut letters = piece.chars();
        let piece = match (letters.next(), letters.next()) {
            (Some(c), None) => Some(Piece::from_fen_char(c).ok_or_else(bad)?),
            _ => return Err(bad()),
        };
        let to = Square::parse(to, board).ok_or_else(bad)?;
        return Ok(Some(LastMove {
            from: None,
            to,
            piece,
        }));
    }
    let Some((from, rest)) = Square::parse_prefix(value, board) else {
        return Err(bad());
    };
    let Some((to, promotion)) = Square::parse_prefix(rest, board) else {
        return Err(bad());
    };
    let piece = match promotion {
        "" => None,
        p if p.len() == 1 && p.is_ascii() => {
            let c = p.chars().next().ok_or_else(bad)?;
            let piece = Piece::from_fen_char(c).ok_or_else(bad)?;
            matches!(piece.role.letter(), 'Q' | 'R' | 'B' | 'N' | 'A' | 'C' | 'K')
                .then_some(piece)
                .ok_or_else(bad)?;
            Some(piece)
        }
        _ => return Err(bad()),
    };
    Ok(Some(LastMove {
        from: Some(from),
        to,
        piece,
    }))
}

fn parse_check(value: &str, board: BoardSize) -> Result<Check, RequestError> {
    match value.to_ascii_lowercase().as_str() {
        "" | "0" | "false" | "no" | "off" | "none" | "-" => Ok(Check::Off),
        "auto" | "1" | "true" | "yes" | "on" => Ok(Check::Auto),
        other => Square::parse(other, board)
            .map(Check::Square)
            .ok_or_else(|| {
                RequestError::bad_value(
                    "check",
                    value,
                    "expected a square on the board such as e8, auto, or none",
                )
            }),
    }
}

/// Split a comma list, rejecting lists longer than `max` before looking at the items.
fn items<'a>(
    param: &'static str,
    value: &'a str,
    max: usize,
) -> Result<Vec<&'a str>, RequestError> {
    let list: Vec<&str> = value
        .split(',')
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .take(max + 1)
        .collect();
    if list.len() > max {
        let count = value.split(',').filter(|s| !s.trim().is_empty()).count();
        return Err(RequestError::new(
            param,
            format!("{param} has {count} items: at most {max} are allowed"),
        ));
    }
    Ok(list)
}

/// `[G|R|Y|B]square[square]`: an optional colour letter, then one or two squares.
fn parse_arrow(item: &str, board: BoardSize) -> Option<Arrow> {
    let mut letters = item.chars();
    let (color, squares) = match (
        letters.next().and_then(MarkColor::from_letter),
        letters.next(),
    ) {
        // `b1` is a square, `Bb1` a blue mark: a colour letter is followed by a file letter.
        (Some(c), Some(next)) if next.is_ascii_lowercase() => (c, &item[1..]),
        _ => (MarkColor::Green, item),
    };
    let (from, rest) = Square::parse_prefix(squares, board)?;
    let to = match rest {
        "" => from,
        rest => Square::parse(rest, board)?,
    };
    Some(Arrow { from, to, color })
}

fn parse_arrows(
    param: &'static str,
    value: &str,
    board: BoardSize,
    max: usize,
) -> Result<Vec<Arrow>, RequestError> {
    items(param, value, max)?
        .into_iter()
        .map(|item| {
            parse_arrow(item, board).ok_or_else(|| {
                RequestError::new(
                    param,
                    format!(
                        "{param} item {} is not allowed: expected an optional colour G, R, Y or B and one or two squares on the board, e.g. Ge2e4 or Rd4",
                        Echo(item)
                    ),
                )
            })
        })
        .collect()
}

fn parse_highlights(
    param: &'static str,
    value: &str,
    board: BoardSize,
    max: usize,
) -> Result<Vec<(Square, Rgba)>, RequestError> {
    items(param, value, max)?
        .into_iter()
        .map(|item| match parse_arrow(item, board) {
            Some(a) if a.from == a.to => Ok((a.from, a.color.highlight())),
            _ => Err(RequestError::new(
                param,
                format!(
                    "{param} item {} is not allowed: expected an optional colour G, R, Y or B and a square on the board, e.g. Ge4",
                    Echo(item)
                ),
            )),
        })
        .collect()
}

fn parse_crosses(value: &str, board: BoardSize, max: usize) -> Result<Vec<Square>, RequestError> {
    items("squares", value, max)?
        .into_iter()
        .map(|item| {
            Square::parse(item, board).ok_or_else(|| {
                RequestError::bad_value(
                    "squares",
                    item,
                    "expected a comma list of squares on the board, e.g. e4,d5",
                )
            })
        })
        .collect()
}

/// Arrows and coloured squares of PGN comment commands.
pub type Annotations = (Vec<Arrow>, Vec<(Square, Rgba)>);

/// `[%cal Ge2e4,Rd1d8][%csl Gd4,Re5]`, as lichess and ChessBase write into PGN comments.
/// Other bracketed commands (`[%clk …]`, `[%eval …]`) and text outside brackets are ignored.
/// An error names the command as written (`[%cal] item "Gz9e4" is not allowed`); the
/// caller says where it stood (`annotations: …`, `pgn: the comment after 1. e4 …`).
pub(crate) fn parse_annotations(
    value: &str,
    board: BoardSize,
    limits: &Limits,
) -> Result<Annotations, RequestError> {
    let (mut arrows, mut highlights) = (Vec::new(), Vec::new());
    let mut rest = value;
    while let Some(open) = rest.find("[%") {
        let after = &rest[open + 2..];
        let Some(close) = after.find(']') else {
            return Err(RequestError::new(
                "annotations",
                format!(
                    "the command {} has no closing ]: expected commands in brackets such as [%cal Ge2e4,Rd1d8][%csl Gd4]",
                    Echo(&rest[open..])
                ),
            ));
        };
        let command = &after[..close];
        let (name, args) = command
            .split_once(char::is_whitespace)
            .unwrap_or((command, ""));
        let in_command = |e: RequestError| RequestError::new("annotations", e.to_string());
        match name {
            "cal" => {
                command_size("[%cal]", args, limits.arrows, "draws", "arrows")?;
                arrows.extend(
                    parse_arrows("[%cal]", args, board, limits.arrows).map_err(in_command)?,
                );
            }
            "csl" => {
                command_size("[%csl]", args, limits.squares, "marks", "squares")?;
                let found = parse_highlights("[%csl]", args, board, limits.squares);
                highlights.extend(found.map_err(in_command)?);
            }
            _ => {}
        }
        if arrows.len() > limits.arrows || highlights.len() > limits.squares {
            return Err(RequestError::new(
                "annotations",
                format!(
                    "the [%cal] and [%csl] commands together draw {} arrows and mark {} squares: at most {} arrows and {} squares are allowed",
                    arrows.len(),
                    highlights.len(),
                    limits.arrows,
                    limits.squares
                ),
            ));
        }
        rest = &after[close + 1..];
    }
    Ok((arrows, highlights))
}

/// `Ok` unless the comma list `args` of the comment command `name` has more than `max`
/// items: then one sentence naming the command, what it does with them and the limit
/// (`[%mark] marks 81 squares: at most 80 are allowed`).
pub(crate) fn command_size(
    name: &str,
    args: &str,
    max: usize,
    verb: &str,
    noun: &str,
) -> Result<(), RequestError> {
    let count = args.split(',').filter(|s| !s.trim().is_empty()).count();
    if count <= max {
        return Ok(());
    }
    Err(RequestError::new(
        "annotations",
        format!("{name} {verb} {count} {noun}: at most {max} are allowed"),
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn err(query: &str) -> String {
        Request::from_query(query, None).unwrap_err().to_string()
    }

    #[test]
    fn fen_text_without_a_glyph_is_refused_naming_the_square() {
        let fen = encode("4k3/8/8/8/4'\u{1F986}3/8/8/4K3");
        assert_eq!(
            err(&format!("fen={fen}&dialect=fairy")),
            "fen text \"\u{1F986}\" on e4 cannot be drawn: no font has U+1F986; add a font with --fonts"
        );
        let greek = encode("4k3/8/8/8/4'\u{3A9}3/8/8/4K3");
        assert!(Request::from_query(&format!("fen={greek}&dialect=fairy"), None).is_ok());
    }

    /// `value` percent-encoded for a query.
    fn encode(value: &str) -> String {
        form_urlencoded::byte_serialize(value.as_bytes()).collect()
    }

    #[test]
    fn every_documented_value_and_example_is_accepted() {
        for p in PARAMS {
            let values: Vec<&str> = match p.kind {
                ParamKind::Fen => vec!["start", "8/8/8/8/8/8/8/8"],
                ParamKind::Size => vec!["16", "400", "2048"],
                ParamKind::Choice(words) => words.to_vec(),
                ParamKind::PieceSet => vec!["staunton", "staunton-classic"],
                ParamKind::Color => vec!["#abc", "#a0b1c2", "abc", "A0B1C2"],
                ParamKind::Flag => vec!["1", "0", "true", "no"],
                ParamKind::Text { example } => vec![example],
            };
            for value in values {
                for spelling in p.spellings {
                    // A game's parameters need a game; pgn has no fen.
                    let mut pairs = match p.name {
                        "pgn" => vec![],
                        "ply" | "move" | "glyph" => {
                            vec![("fen", "start"), ("moves", "e2e4 e7e5 g1f3 b8c6 f1b5 a7a6")]
                        }
                        _ => vec![("fen", "start")],
                    };
                    pairs.push((spelling, value));
                    let format = (p.name != "format").then_some(Format::Png);
                    assert!(
                        Request::from_pairs(pairs, format).is_ok(),
                        "{spelling}={value} is documented but refused"
                    );
                }
            }
            let game = ("moves", "e2e4");
            let base = match p.name {
                "pgn" | "moves" => vec![],
                _ => vec![("fen", "start"), game],
            };
            let mut pairs = base.clone();
            pairs.push((p.name, "~nonsense~"));
            let strict = ["pgn", "moves", "ply", "move", "glyph"].contains(&p.name);
            if !matches!(p.kind, ParamKind::Text { .. }) || strict {
                let err = Request::from_pairs(pairs, None).expect_err(p.name);
                assert_eq!(err.param, p.name, "{err}");
            }
        }
    }

    #[test]
    fn parameter_names_are_unique_and_spellings_lowercase() {
        for (i, p) in PARAMS.iter().enumerate() {
            assert!(p.spellings.iter().any(|s| s.eq_ignore_ascii_case(p.name)));
            for s in p.spellings {
                assert_eq!(*s, s.to_ascii_lowercase());
                assert_eq!(
                    PARAMS.iter().position(|q| q.accepts(s)),
                    Some(i),
                    "{s} is claimed twice"
                );
            }
        }
    }

    #[test]
    fn defaults_and_aliases() {
        let r = Request::from_query("fen=start", None).unwrap();
        assert_eq!(r.options, RenderOptions::default());
        assert_eq!(r.format, Format::Png);
        let r = Request::from_query(
            "FEN=start&Size=200&orientation=BLACK&coordinates=0&pieceSet=Staunton&format=svg",
            None,
        )
        .unwrap();
        assert_eq!(r.options.size, 200);
        assert_eq!(r.options.orientation, Orientation::Black);
        assert_eq!(r.options.coordinates, Coordinates::None);
        assert_eq!(r.options.piece_set, "staunton");
        assert_eq!(r.format, Format::Svg);
        let r = Request::from_query(
            "fen=start&piece=staunton&coordinates=true",
            Some(Format::Svg),
        )
        .unwrap();
        assert_eq!(r.options.coordinates, Coordinates::Outside);
        assert_eq!(r.format, Format::Svg);
    }

    #[test]
    fn two_spellings_of_one_position_share_a_key() {
        let a = Request::from_query("fen=start", None).unwrap();
        let b = Request::from_query(
            "fen=rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR+w+KQkq+-+0+1&size=400&orientation=white",
            None,
        )
        .unwrap();
        let c = Request::from_query(
            "fen=%5BFEN+%22rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR_w_KQkq_-_0_1%22%5D&orientation=turn",
            None,
        )
        .unwrap();
        assert_eq!(a.cache_key(), b.cache_key());
        assert_eq!(a.cache_key(), c.cache_key());
        let d = Request::from_query("fen=start&size=401", None).unwrap();
        assert_ne!(a.cache_key(), d.cache_key());
    }

    #[test]
    fn text_keys_hold_the_style_and_only_what_text_shows() {
        let key = |query: &str| {
            Request::from_query(query, Some(Format::Txt))
                .unwrap()
                .cache_key()
        };
        let plain = key("fen=start");
        assert_eq!(plain, key("fen=start&style=LETTERS"));
        // Size, theme, pieces and marks do not change the text.
        assert_eq!(
            plain,
            key("fen=start&size=300&theme=blue&arrows=Ge2e4&lastMove=e2e4&style=letters")
        );
        assert_ne!(plain, key("fen=start&style=figurines"));
        assert_ne!(plain, key("fen=start&orientation=black"));
        assert_ne!(plain, key("fen=start&coordinates=none"));
        assert_ne!(
            plain,
            key("fen=rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR_b")
        );
        assert_ne!(
            plain,
            Request::from_query("fen=start", None).unwrap().cache_key()
        );
        // Images ignore the style: one entry for either.
        let image = |q: &str| Request::from_query(q, None).unwrap().cache_key();
        assert_eq!(image("fen=start&style=figurines"), image("fen=start"));
    }

    #[test]
    fn bad_sizes_name_the_parameter_and_the_range() {
        for bad in [
            "0",
            "-1",
            "15",
            "2049",
            "99999",
            "abc",
            "4e2",
            "",
            " 400",
            "400.0",
            "99999999999",
        ] {
            let msg = err(&format!("fen=start&size={}", bad.replace(' ', "+")));
            assert!(
                msg.starts_with(&format!("size \"{bad}\" is not allowed")),
                "{msg}"
            );
            assert!(msg.contains("from 16 to 2048"), "{msg}");
        }
    }

    #[test]
    fn bad_values_get_one_sentence_each() {
        assert_eq!(
            err("fen=start&orientation=up"),
            "orientation \"up\" is not allowed: expected white, black or turn"
        );
        assert_eq!(
            err("fen=start&coordinates=left"),
            "coordinates \"left\" is not allowed: expected outside, inside or none (1/true/yes = outside, 0/false/no = none)"
        );
        assert_eq!(
            err("fen=start&format=jpeg"),
            "format \"jpeg\" is not allowed: expected png, svg, pdf, webp, gif or txt"
        );
        assert_eq!(
            err("fen=start&format=txt&style=fancy"),
            "style \"fancy\" is not allowed: expected letters or figurines (how format=txt writes pieces)"
        );
        assert!(err("size=400").starts_with("fen is missing"));
        let long = "8/".repeat(600);
        let msg = err(&format!("fen={long}"));
        assert!(
            msg.starts_with("fen \"8/8/8/8/8/8/8/8/8/8/8/8/8/8/8/8/8/8/8/8/…\" is 1200 bytes long"),
            "{msg}"
        );
        let msg = Request::from_query("fen=start&format=png", Some(Format::Svg))
            .unwrap_err()
            .to_string();
        assert!(msg.contains("contradicts the path"), "{msg}");
    }

    #[test]
    fn echoed_values_are_tamed() {
        let msg = err("fen=start&orientation=%3Cscript%3E%0A%00%C3%A9");
        assert_eq!(
            msg,
            "orientation \"<script>???\" is not allowed: expected white, black or turn"
        );
        assert!(!msg.contains('\n'));
    }

    #[test]
    fn marks_parse_with_colours_and_defaults() {
        let r = Request::from_query(
            "fen=start&arrows=Ge2e4,e7e5,Bd4,bb1,Rb1b1&highlight=Ye4,d5&squares=a1,h8&lastMove=N@f3&check=auto",
            None,
        )
        .unwrap();
        let sq = |t: &str| Square::parse(t, crate::chess::position::BoardSize::CHESS).unwrap();
        let a = &r.options.arrows;
        assert_eq!(a.len(), 5);
        assert_eq!(
            (a[0].color, a[0].from, a[0].to),
            (MarkColor::Green, sq("e2"), sq("e4"))
        );
        assert_eq!(
            (a[1].color, a[1].from, a[1].to),
            (MarkColor::Green, sq("e7"), sq("e5"))
        );
        assert_eq!(
            (a[2].color, a[2].from, a[2].to),
            (MarkColor::Blue, sq("d4"), sq("d4"))
        );
        assert_eq!(
            (a[3].color, a[3].from),
            (MarkColor::Blue, sq("b1")),
            "bb1 is a blue b1"
        );
        assert_eq!((a[4].color, a[4].to), (MarkColor::Red, sq("b1")));
        assert_eq!(
            r.options.highlights[0],
            (sq("e4"), MarkColor::Yellow.highlight())
        );
        assert_eq!(
            r.options.highlights[1],
            (sq("d5"), MarkColor::Green.highlight())
        );
        assert_eq!(r.options.crosses, vec![sq("a1"), sq("h8")]);
        let m = r.options.last_move.unwrap();
        assert_eq!(
            (m.from, m.to, m.piece.map(|p| p.fen_char())),
            (None, sq("f3"), Some('N'))
        );
        assert_eq!(r.options.check, Check::Auto);
    }

    #[test]
    fn pgn_comment_commands_become_arrows_and_highlights() {
        let (arrows, highlights) = parse_annotations(
            "Good move! [%clk 0:01:00] [%cal Ge2e4,Rd1d8][%csl Gd4,Re5] {x}",
            BoardSize::CHESS,
            &Limits::default(),
        )
        .unwrap();
        assert_eq!(arrows.len(), 2);
        assert_eq!(arrows[1].color, MarkColor::Red);
        assert_eq!(highlights.len(), 2);
        assert!(parse_annotations("[%cal Ge2e4", BoardSize::CHESS, &Limits::default()).is_err());
        assert!(parse_annotations("[%cal Gz2e4]", BoardSize::CHESS, &Limits::default()).is_err());
        assert_eq!(
            parse_annotations("no commands", BoardSize::CHESS, &Limits::default())
                .unwrap()
                .0
                .len(),
            0
        );
    }

    #[test]
    fn moves_in_uci() {
        let m = |t: &str| parse_last_move(t, BoardSize::CHESS);
        assert!(m("e2e4").unwrap().is_some());
        assert!(m("e7e8q").unwrap().unwrap().piece.is_some());
        assert!(m("e1g1").unwrap().is_some());
        assert!(m("-").unwrap().is_none());
        for bad in [
            "e2", "e2e9", "e7e8x", "e7e8qq", "@f3", "NN@f3", "é2e4", "e2e4 ",
        ] {
            assert!(m(bad).is_err(), "{bad}");
        }
        assert!(
            parse_last_move("i2i4", BoardSize::new(10, 8).unwrap())
                .unwrap()
                .is_some()
        );
    }

    #[test]
    fn a_game_gives_the_position_after_a_ply_with_its_move_marked() {
        let pgn = "[White \"A\"] 1. e4 e5 2. Nf3 {[%cal Gf3e5][%csl Re5]} Nc6 3. Bb5 a6!? *";
        let query = |extra: &str| format!("pgn={}{extra}", encode(pgn));
        let end = Request::from_query(&query(""), None).expect("valid");
        assert_eq!(
            end.position.to_string(),
            "r1bqkbnr/1ppp1ppp/p1n5/1B2p3/4P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 0 4"
        );
        let o = &end.options;
        let m = o.last_move.expect("the last move is tinted");
        assert_eq!(
            (m.from.map(|s| s.to_string()), m.to.to_string()),
            (Some("a7".into()), "a6".into())
        );
        assert_eq!(o.check, Check::Auto);
        assert_eq!(
            o.glyph,
            Some(Glyph::Interesting),
            "the NAG becomes the badge"
        );
        let third = Request::from_query(&query("&ply=3"), None).expect("valid");
        assert_eq!(third.options.arrows.len(), 1, "the comment's arrow");
        assert_eq!(third.options.highlights.len(), 1, "and its square");
        assert_eq!(third.options.glyph, None);
        let by_move = Request::from_query(&query("&move=2w"), None).expect("valid");
        assert_eq!(by_move.position, third.position);
        let start = Request::from_query(&query("&ply=0"), None).expect("valid");
        assert_eq!(start.position, Position::start());
        assert_eq!(start.options.last_move, None);
        let plain = Request::from_query(&query("&ply=3&lastMove=a2a3&check=0&glyph=??"), None)
            .expect("valid");
        assert_eq!(
            plain
                .options
                .last_move
                .and_then(|m| m.from)
                .map(|s| s.to_string()),
            Some("a2".into())
        );
        assert_eq!(plain.options.check, Check::Off);
        assert_eq!(plain.options.glyph, Some(Glyph::Blunder));
        assert_ne!(plain.cache_key(), third.cache_key());
        let uci = Request::from_query("moves=e2e4,e7e5&fen=start", None).expect("valid");
        assert_eq!(
            uci.position,
            Request::from_query(&query("&ply=2"), None)
                .unwrap()
                .position
        );
    }

    #[test]
    fn arrows_from_many_places_are_counted_naming_each_place() {
        let arrows = |n: usize| vec!["Ge2e4"; n].join(",");
        let cal = encode(&format!("[%cal {}]", arrows(20)));
        assert_eq!(
            err(&format!(
                "fen=start&arrows={}&annotations={cal}",
                arrows(50)
            )),
            "arrows and annotations draw 70 arrows and circles together: at most 64 are allowed"
        );
        let pgn = encode(&format!("1. e4 {{[%cal {}]}}", arrows(30)));
        assert_eq!(
            err(&format!("pgn={pgn}&arrows={}", arrows(40))),
            "arrows and [%cal] in the game's comment draw 70 arrows and circles together: at most 64 are allowed"
        );
        let csl = encode(&format!("1. e4 {{[%csl {}]}}", vec!["Ge4"; 50].join(",")));
        assert_eq!(
            err(&format!("pgn={csl}&highlight={}", vec!["d5"; 40].join(","))),
            "highlight and [%csl] in the game's comment colour 90 squares together: at most 80 are allowed"
        );
    }

    #[test]
    fn a_fen_too_long_to_caption_says_so_in_the_users_terms() {
        let rank = "pPpPpPpPpPpPpPpP";
        let fen = vec![rank; 16].join("/");
        let e = err(&format!("fen={fen}&caption=fen"));
        assert!(
            e.starts_with("caption=fen: this board's FEN is 281 characters, more than a caption holds (at most 200)"),
            "{e}"
        );
        let fits = Request::from_query("fen=start&caption=fen", None).expect("fits");
        assert_eq!(
            fits.options.caption.as_deref(),
            Some("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1")
        );
    }

    #[test]
    fn bad_games_and_plies_get_one_sentence_each() {
        let e = err(&format!("pgn={}", encode("1. e4 e5 2. Ke3")));
        assert_eq!(e, "pgn: 2. Ke3 is not a legal move for White after 1...e5");
        let e = err(&format!("pgn={}&ply=9", encode("1. e4 e5")));
        assert_eq!(e, "ply 9 is past the end of the game, which has 2 plies");
        let e = err(&format!("pgn={}&move=7b", encode("1. e4 e5")));
        assert!(e.contains("move \"7b\" is not in the game"), "{e}");
        assert!(err("fen=start&ply=3").contains("give the game as pgn or moves"));
        assert!(err("fen=start&pgn=e4").contains("fen and pgn cannot both be given"));
        assert!(err("moves=e2e5").contains("moves: 1. e2e5 is not a legal move for White"));
        assert!(err("fen=start&glyph=!").contains("glyph needs a last move"));
        assert!(err("fen=start&lastMove=e2e4&glyph=wow").contains("glyph \"wow\" is not allowed"));
        let long = "e4 ".repeat(6000);
        assert!(err(&format!("pgn={long}")).contains("at most 16384 bytes are allowed in a URL"));
        let e = err(&format!("pgn={}", encode("1. e4 {[%cal Gz9e4]}")));
        assert!(
            e.starts_with("pgn: the comment after 1. e4 has bad marks"),
            "{e}"
        );
    }
}
