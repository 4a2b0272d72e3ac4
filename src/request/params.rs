//! The parameter tables: every parameter of the image routes ([`PARAMS`]) and of the
//! whole-game routes ([`GAME_PARAMS`]), with its spellings, the values it takes and one
//! sentence, which the parsers, the docs and `/openapi.json` share.

use crate::chess::describe::LANG_CODES;
use crate::chess::fen;
use crate::render::options::Format;
use crate::render::theme::THEME_NAMES;

/// What values a parameter takes: enough to validate documentation against the parser and
/// to describe the parameter in the API description (`/openapi.json`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ParamKind {
    /// A FEN (or `start`, `empty`, `[FEN "…"]`); at most
    /// [`Limits::fen_bytes`](super::limits::Limits::fen_bytes) bytes.
    Fen,
    /// A whole number of pixels, [`MIN_SIZE`](crate::render::options::MIN_SIZE) to
    /// [`Limits::max_size`](super::limits::Limits::max_size).
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
    /// For a parameter whose value is a list (`arrows`, `moves`…), what its items are
    /// written apart with: a door that is given the items joins them by it. `None` for
    /// a single value.
    pub separator: Option<&'static str>,
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

pub(super) const fn param(
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
        separator: None,
    }
}

/// A parameter that takes free text, shown by `example` (the common case of [`param`]).
pub(super) const fn text(
    name: &'static str,
    spellings: &'static [&'static str],
    example: &'static str,
    doc: &'static str,
) -> Param {
    param(name, spellings, ParamKind::Text { example }, doc)
}

/// A parameter whose value is a list of items written apart with `separator`, shown by
/// `example`.
const fn list(
    name: &'static str,
    spellings: &'static [&'static str],
    separator: &'static str,
    example: &'static str,
    doc: &'static str,
) -> Param {
    Param {
        separator: Some(separator),
        ..text(name, spellings, example, doc)
    }
}

/// The diagram parameters that give a page's diagrams (a worksheet's, an article's) one
/// look: the board's side, labels, pieces and colours. Each page adds its own
/// ([`with_look`]).
pub const PAGE_LOOK: [&str; 6] = [
    "orientation",
    "coordinates",
    "pieces",
    "theme",
    "light",
    "dark",
];

/// [`PAGE_LOOK`] and then `more`: `N` names in all.
pub(super) const fn with_look<const M: usize, const N: usize>(
    more: [&'static str; M],
) -> [&'static str; N] {
    assert!(
        PAGE_LOOK.len() + M == N,
        "N is the look's names and the others"
    );
    let mut names = [""; N];
    let mut i = 0;
    while i < N {
        names[i] = match i < PAGE_LOOK.len() {
            true => PAGE_LOOK[i],
            false => more[i - PAGE_LOOK.len()],
        };
        i += 1;
    }
    names
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
    text(
        "board",
        &["board"],
        "8x7",
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
        ParamKind::Choice(&Format::NAMES),
        "The output format (the path `/diagram.svg`, `.pdf`, `.webp`, `.gif`, `.txt` also chooses it): PDF is vector, for print; WebP lossless; GIF from the PNG's palette; `txt` the board as text (`text/plain; charset=utf-8`) for terminals and text snapshots, without marks.",
    ),
    param(
        "style",
        &["style"],
        ParamKind::Choice(&["letters", "figurines"]),
        "Text only (`format=txt`): pieces as ASCII letters (`K`, `q`; `.` for an empty square) or as the Unicode chess symbols (`♔`, `♛`).",
    ),
    param(
        "svg",
        &["svg"],
        ParamKind::Choice(&["compact", "portable", "inline"]),
        "SVG only (`format=svg`): `compact` (the default, the fewest bytes: pieces as `<symbol>`s placed with `<use>`, styles as CSS), `portable` (every piece written out where it stands, styles as attributes: also drawn by QtSvg and NanoSVG, e.g. PyQt and pygame) or `inline` (for pasting into an HTML page: no style sheet, no class, ids prefixed by the diagram's hash, at most as wide as its column).",
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
    text(
        "background",
        &["background", "bg"],
        "transparent",
        "Everything outside the squares (margin, pocket strips, the turn marker's strip): `light` (white, the default), `dark` (near-black with light labels), `transparent`, a colour (`#1e1e1e`), or in SVG `auto`, which follows the reader's light or dark colour scheme, or `page` (SVG in an HTML page: no margin colour, labels in the page's text colour, so they follow the site's own light and dark themes). Labels keep at least 4.5:1 against it.",
    ),
    param(
        "labels",
        &["labels", "label_color", "labelcolor"],
        ParamKind::Color,
        "Colour of the coordinate labels and the caption, overriding the one chosen for the background.",
    ),
    text(
        "caption",
        &["caption"],
        "White to play and win",
        "Text under the board, wrapped to the image's width (at most 3 lines, 200 characters): or `fen` (the position's FEN) or `move` (\"After 23...Qxf2+\" in `lang`, from `pgn` or `moves`).",
    ),
    text(
        "lastMove",
        &["lastmove", "last_move"],
        "e2e4",
        "The last move in UCI notation (e2e4, e7e8q, e1g1, N@f3), shaded on its squares.",
    ),
    text(
        "check",
        &["check"],
        "auto",
        "A king in check: a square, or `auto` to find a king in check from the position.",
    ),
    list(
        "arrows",
        &["arrows"],
        ",",
        "Ge2e4,Rd8d4,Yg1f3,Bd4",
        "Comma-separated arrows (colour G, R, Y or B, then two squares) and circles (one square).",
    ),
    list(
        "squares",
        &["squares"],
        ",",
        "d5,e4",
        "Comma-separated squares marked with a cross.",
    ),
    list(
        "highlight",
        &["highlight", "highlights"],
        ",",
        "Ge4,Rd5",
        "Comma-separated squares filled with a colour (G, R, Y or B, then the square).",
    ),
    text(
        "annotations",
        &["annotations"],
        "[%cal Ge2e4,Rd8d4][%csl Gd5]",
        "PGN comment commands `[%cal …]` (arrows) and `[%csl …]` (squares), as lichess writes them, and `[%mark …]` with a list as `marks` takes.",
    ),
    list(
        "marks",
        &["marks"],
        ",",
        "circle:Re4,dotted:d5,square:Bf3,triangle:g7,dot:e3,ring:d4,label:Ya3:12",
        "Comma-separated square markers drawn over the pieces, each a marker, a colon and a square with an optional colour G, R, Y or B as in `arrows`: `circle` (a weakness), `dotted` (a dotted circle: a potential one), `square` (an outline: the worst piece), `triangle`, `dot`, `ring` (along the square's edge), and `label` with one or two characters (a–z, 0–9, +, -, !, ?) after another colon, set in the square's top-right corner.",
    ),
    list(
        "dots",
        &["dots"],
        ",",
        "e3,Re4",
        "Comma-separated squares marked with a dot (an optional colour G, R, Y or B, then the square).",
    ),
    text(
        "legalMoves",
        &["legalmoves", "legal_moves"],
        "e2",
        "A square (with an optional colour G, R, Y or B): its piece's legal moves, by the rules of standard chess or Chess960 on an 8×8 board, as dots, captures as rings. A piece of the side not to move gets the moves it would have on its turn.",
    ),
    text(
        "pgn",
        &["pgn"],
        "1. e4 e5 2. Nf3 Nc6 3. Bb5 a6",
        "A game in PGN (tags optional; SAN moves, comments, NAGs; variations skipped): the diagram shows the position after `ply`, its last move tinted.",
    ),
    list(
        "moves",
        &["moves"],
        " ",
        "e2e4 e7e5 g1f3",
        "UCI moves played from `fen` (default: the start), separated by spaces, commas or `_`.",
    ),
    text(
        "ply",
        &["ply"],
        "4",
        "With `pgn` or `moves`: the position after this many half-moves (0 = the start; default: the end).",
    ),
    text(
        "move",
        &["move"],
        "3b",
        "With `pgn` or `moves`: the position after this move, `23w` (White's 23rd) or `23b` (Black's).",
    ),
    text(
        "glyph",
        &["glyph", "nag"],
        "!?",
        "A move annotation (`!`, `?`, `!!`, `??`, `!?`, `?!`) drawn as a badge on the last move's square (from a game: its NAG).",
    ),
    text(
        "dpi",
        &["dpi"],
        "300",
        "PDF only: pixels per inch, 18 to 2400 (default 72: one pixel is one point).",
    ),
    param(
        "turn",
        &["turn"],
        ParamKind::Flag,
        "Draw a marker beside the board showing the side to move.",
    ),
    text(
        "region",
        &["region"],
        "e5-h8",
        "Only part of the board: two corner squares (`a1:d4` or `e5-h8`, either order). Those squares fill the image, with their own labels; the frame stays on the board's real edges and a dashed line marks where the board goes on. Marks outside are dropped, arrows clipped at the edge; pockets are not drawn.",
    ),
    param(
        "lang",
        &["lang", "language"],
        ParamKind::Choice(&LANG_CODES),
        "The language of the description: `/describe`'s text and an SVG's `<title>` (other formats have no words and ignore it). A region is ignored (`de-CH` is `de`).",
    ),
];

/// The parameters of a whole-game image (`/game.gif`, `/game.png`) beside the image
/// parameters, each with its spellings, what it takes and one sentence.
pub const GAME_PARAMS: &[Param] = &[
    text(
        "delay",
        &["delay"],
        "80",
        "Hundredths of a second each frame shows (default 80).",
    ),
    text(
        "lastDelay",
        &["lastdelay", "last_delay"],
        "300",
        "Hundredths of a second the last frame shows (default 300).",
    ),
    param(
        "loop",
        &["loop"],
        ParamKind::Flag,
        "Play the animation in a loop (default) or once.",
    ),
    text(
        "from",
        &["from"],
        "10",
        "The first ply shown (default 0, the start).",
    ),
    text(
        "to",
        &["to"],
        "30",
        "The last ply shown (default: the end of the game).",
    ),
    param(
        "players",
        &["players", "bars"],
        ParamKind::Flag,
        "Player bars above and below the board: names, titles and ratings from the tags, clocks from `[%clk]` (default: on when the PGN names a player).",
    ),
];

#[cfg(test)]
mod tests {
    use super::super::diagram::Request;
    use super::*;
    use crate::render::options::Format;

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
    fn a_pages_diagram_parameters_are_the_look_and_its_own() {
        let names: [&str; 8] = with_look(["turn", "region"]);
        assert_eq!(&names[..6], PAGE_LOOK);
        assert_eq!(&names[6..], ["turn", "region"]);
        for name in names {
            named(name);
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
}
