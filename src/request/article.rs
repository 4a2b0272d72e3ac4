//! Article requests: `/article.pdf|.html|.svg` query parameters (or `staunton article`
//! options) and the game's PGN in, a validated [`ArticleRequest`] out: the game read with
//! its whole tree, and how to typeset it.

use super::chosen::check_pgn_text;
use super::diagram::Request;
use super::error::RequestError;
use super::key::KeyWriter;
use super::limits::Limits;
use super::marks::{parse_mark_commands, within};
use super::params::{Param, ParamKind, named, param, text, with_look};
use super::query::Query;
use super::values::{parse_annotations, parse_flag, parse_lang, whole_number};
use crate::chess::annotated::{self, Annotated, Letters};
use crate::chess::describe::Lang;
use crate::chess::position::BoardSize;
use crate::render::article::{ArticleOptions, MAX_DIAGRAMS, Notation, SIZE_RANGE, flow};
use crate::render::options::{CommentMarks, Format};
use crate::render::sheet::Paper;

/// Longest PGN of an article, in bytes (a POSTed body; a `pgn` in the query is bounded by
/// the query's own limit).
pub const MAX_ARTICLE_PGN_BYTES: usize = 256 * 1024;

/// An article's output.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ArticleFormat {
    /// Every page, real text, vector diagrams.
    Pdf,
    /// One self-contained page that reflows.
    Html,
    /// The pages one under the other, text as outlines.
    Svg,
}

impl ArticleFormat {
    /// The format of a file extension (`pdf`, `html`, `htm`, `svg`).
    pub fn from_extension(name: &str) -> Option<ArticleFormat> {
        match name.trim().to_ascii_lowercase().as_str() {
            "pdf" => Some(ArticleFormat::Pdf),
            "html" | "htm" => Some(ArticleFormat::Html),
            "svg" => Some(ArticleFormat::Svg),
            _ => None,
        }
    }

    /// The extension (`pdf`, `html`, `svg`).
    pub fn extension(self) -> &'static str {
        match self {
            ArticleFormat::Pdf => "pdf",
            ArticleFormat::Html => "html",
            ArticleFormat::Svg => "svg",
        }
    }

    /// The HTTP content type.
    pub fn content_type(self) -> &'static str {
        match self {
            ArticleFormat::Pdf => "application/pdf",
            ArticleFormat::Html => "text/html; charset=utf-8",
            ArticleFormat::Svg => "image/svg+xml",
        }
    }
}

/// The parameters of an article, each with its spellings, what it takes and one sentence.
/// Of the diagram parameters, those in [`DIAGRAM_PARAMS`] apply to every diagram.
pub const ARTICLE_PARAMS: &[Param] = &[
    text(
        "pgn",
        &["pgn"],
        "1. e4 e5 2. Nf3 {[#]} Nc6 *",
        "The annotated game (or POST it as the body): tags, moves, comments, variations, NAGs; a diagram where it marks one ({[#]}, [D], $201, $220, $221, $1304, a lone D or {#}).",
    ),
    param(
        "columns",
        &["columns", "cols"],
        ParamKind::Choice(&["1", "2"]),
        "One or two columns of text (default 1).",
    ),
    param(
        "page",
        &["page", "paper"],
        ParamKind::Choice(&["a4", "letter"]),
        "The paper size.",
    ),
    text(
        "size",
        &["size"],
        "216",
        "A main-line diagram's width in points, 96 to 480 (default 216, 3 in; at most the column's width); diagrams in variations are 3/4 of it.",
    ),
    text(
        "every",
        &["every"],
        "20",
        "Also a diagram after every N plies of the main line, 1 to 1000 (default none).",
    ),
    param(
        "end",
        &["end"],
        ParamKind::Flag,
        "Also a diagram of the final position (default off).",
    ),
    param(
        "markers",
        &["markers"],
        ParamKind::Flag,
        "Follow the game's diagram markers (default on; 0 ignores them).",
    ),
    param(
        "fenUnder",
        &["fenunder", "fen_under", "showfen"],
        ParamKind::Flag,
        "Print each diagram's FEN under its caption (default off).",
    ),
    param(
        "notation",
        &["notation"],
        ParamKind::Choice(&["figurine", "letters"]),
        "Moves in figurines (♘f3, the default) or in the piece letters of `lang` (Sf3 in German).",
    ),
];

/// The diagram parameters an article applies to all its diagrams (and `lang`, its
/// language: captions, letters, the document's language).
pub const DIAGRAM_PARAMS: &[&str] = &with_look::<2, 8>(["lang", "region"]);

/// A validated article request.
#[derive(Debug, Clone)]
pub struct ArticleRequest {
    /// The game, read with its tree.
    pub game: Annotated,
    /// The PGN as given (for the cache key).
    pub pgn: String,
    /// How it is typeset.
    pub options: ArticleOptions,
    /// PDF, HTML or SVG.
    pub format: ArticleFormat,
}

fn article(name: &str) -> &'static Param {
    Param::of(ARTICLE_PARAMS, name)
}

fn flag(query: &Query, name: &'static str, default: bool) -> Result<bool, RequestError> {
    Ok(query
        .last(article(name))
        .map(|v| parse_flag(name, v))
        .transpose()?
        .unwrap_or(default))
}

/// The layout asked for (paper, columns, diagrams), the diagrams drawn by default.
fn layout(query: &Query) -> Result<ArticleOptions, RequestError> {
    let last = |name: &str| query.last(article(name));
    let mut o = ArticleOptions::default();
    if let Some(v) = last("page") {
        o.paper = Paper::from_name(v)
            .ok_or_else(|| RequestError::bad_value("page", v, "expected a4 or letter"))?;
    }
    if let Some(v) = last("columns") {
        o.columns = whole_number("columns", v, 1..=2, "")?;
    }
    if let Some(v) = last("size") {
        o.size = whole_number("size", v, SIZE_RANGE, "")?;
    }
    o.every = last("every")
        .map(|v| whole_number("every", v, 1..=1000, ""))
        .transpose()?;
    o.at_end = flag(query, "end", false)?;
    o.markers = flag(query, "markers", true)?;
    o.fen = flag(query, "fenUnder", false)?;
    o.notation = match last("notation").map(|v| v.trim().to_ascii_lowercase()) {
        None => Notation::Figurine,
        Some(v) if v == "figurine" => Notation::Figurine,
        Some(v) if v == "letters" => Notation::Letters,
        Some(v) => {
            return Err(RequestError::bad_value(
                "notation",
                &v,
                "expected figurine or letters",
            ));
        }
    };
    Ok(o)
}

/// Read `pgn` in the piece letters of `lang`, else in English ones: a game written in
/// English SAN is read whatever the captions' language. The error is the one of `lang`'s
/// letters, naming the move.
fn read_game(pgn: &str, lang: Lang) -> Result<Annotated, RequestError> {
    let limits = annotated::Limits::default();
    let letters = lang.letters();
    let first = annotated::read(pgn, letters, limits);
    let game = match first {
        Err(_) if letters != Letters::English => {
            annotated::read(pgn, Letters::English, limits).or(first)
        }
        other => other,
    };
    game.map_err(|e| RequestError::new("pgn", format!("pgn: {e}")))
}

/// Every `[%cal]`/`[%csl]`/`[%mark]` of the tree checked (a bad one is the 400 a diagram
/// gives).
fn check_marks(
    line: &[annotated::Node],
    board: BoardSize,
    limits: &Limits,
) -> Result<(), RequestError> {
    for node in line {
        if !node.commands.is_empty() {
            let text = node.commands.concat();
            let label = match node.color {
                crate::chess::piece::Color::White => format!("{}. {}", node.number, node.san),
                crate::chess::piece::Color::Black => format!("{}...{}", node.number, node.san),
            };
            let in_comment = |e: RequestError| {
                RequestError::new(
                    "pgn",
                    format!("pgn: the comment after {label} has bad marks: {e}"),
                )
            };
            parse_annotations(&text, board, limits).map_err(in_comment)?;
            let markers =
                parse_mark_commands("pgn", &text, board, limits.squares).and_then(|markers| {
                    within(
                        "pgn",
                        "[%mark] commands in one comment",
                        markers,
                        limits.squares,
                    )
                });
            markers.map_err(in_comment)?;
        }
        for variation in &node.variations {
            check_marks(variation, board, limits)?;
        }
    }
    Ok(())
}

/// A diagram's arrows, squares and markers from its commands (checked when the request was
/// read).
pub fn marks(commands: &[String]) -> CommentMarks {
    let (text, limits) = (commands.concat(), Limits::default());
    let (arrows, highlights) =
        parse_annotations(&text, BoardSize::CHESS, &limits).unwrap_or_default();
    let markers =
        parse_mark_commands("pgn", &text, BoardSize::CHESS, limits.squares).unwrap_or_default();
    CommentMarks {
        arrows,
        highlights,
        markers,
    }
}

impl ArticleRequest {
    /// Validate an article: its layout, the diagram parameters of [`DIAGRAM_PARAMS`], and
    /// the game (`body`, a POSTed PGN, wins over `pgn`), to be written as `format`.
    pub fn read(
        query: &Query,
        body: Option<&str>,
        format: ArticleFormat,
        limits: &Limits,
    ) -> Result<ArticleRequest, RequestError> {
        let mut options = layout(query)?;
        let mut diagram = query.only(|k| DIAGRAM_PARAMS.iter().any(|p| named(p).accepts(k)));
        options.lang = query
            .last(named("lang"))
            .map(parse_lang)
            .transpose()?
            .unwrap_or_default();
        diagram.push("fen", "start");
        options.diagram = Request::read(&diagram, Some(Format::Svg), limits)?.options;
        let pgn = match (body, query.last(article("pgn"))) {
            (Some(body), _) => body,
            (None, Some(pgn)) => pgn,
            (None, None) => {
                return Err(RequestError::missing(
                    "pgn",
                    "give the annotated game as pgn, or POST its PGN as the body",
                ));
            }
        };
        if pgn.len() > MAX_ARTICLE_PGN_BYTES {
            return Err(RequestError::new(
                "pgn",
                format!(
                    "pgn is {} bytes long; an article's game may have at most {MAX_ARTICLE_PGN_BYTES} bytes",
                    pgn.len()
                ),
            ));
        }
        check_pgn_text("pgn", pgn)?;
        let game = read_game(pgn, options.lang)?;
        check_marks(&game.line, game.start.size(), limits)?;
        let diagrams = flow::flow(&game, &options).diagrams.len();
        if diagrams > MAX_DIAGRAMS {
            return Err(RequestError::new(
                "pgn",
                format!(
                    "the article would have {diagrams} diagrams; at most {MAX_DIAGRAMS} are allowed: mark fewer, or give every= a larger number of plies"
                ),
            ));
        }
        Ok(ArticleRequest {
            game,
            pgn: pgn.to_string(),
            options,
            format,
        })
    }

    /// The cache key: everything that decides the output bytes.
    pub fn cache_key(&self) -> String {
        let mut key = KeyWriter::new("article");
        let o = &self.options;
        key.field(self.format.extension())
            .field(o.paper.name())
            .field(o.columns)
            .field(o.size)
            .optional(o.every)
            .field(u8::from(o.at_end))
            .field(u8::from(o.markers))
            .field(u8::from(o.fen))
            .field(match o.notation {
                Notation::Figurine => "f",
                Notation::Letters => "l",
            })
            .field(o.lang.code());
        let start = crate::chess::position::Position::start();
        Request::page_key_fields(&mut key, &start, &o.diagram).field(&self.pgn);
        key.finish()
    }
}
