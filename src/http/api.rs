//! The route table and the API description generated from it.
//!
//! Owns the list of routes (path, handler, one line of documentation) and which parameters
//! each reads ([`reads`]). The router is built from [`ROUTES`]; `/openapi.json` and the
//! names each route knows (for `Staunton-Warning` and `strict=1`) are generated from
//! [`reads`] over [`crate::request::PARAMS`] and the other tables the handlers use, so
//! neither can drift from what the service does.

use crate::render::options::{DEFAULT_PIECE_SET, DEFAULT_SIZE, Format, MIN_SIZE};
use crate::request::article::{ARTICLE_PARAMS, ArticleFormat, DIAGRAM_PARAMS as ARTICLE_DIAGRAM_PARAMS};
use crate::request::move_list::MOVE_LIST_PARAMS;
use crate::request::piece::PIECE_PARAMS;
use crate::request::players::{MAX_PLAYER_CHARS, PLAYER_PARAMS};
use crate::request::share_card::{CARD_PARAMS, MAX_CARD_TEXT_CHARS};
use crate::request::sheet::{DIAGRAM_PARAMS, MAX_SHEET_DIAGRAMS, READING_PARAMS, SHEET_PARAMS};
use crate::request::{GAME_PARAMS, Limits, PARAMS, Param, ParamKind, SERVICE_PARAMS};
use serde_json::{Map, Value, json};

/// A file of the front page, embedded in the binary.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Asset {
    /// Its content type.
    pub content_type: &'static str,
    /// Its bytes.
    pub body: &'static [u8],
}

/// An asset of `content_type` holding `body`.
const fn asset(content_type: &'static str, body: &'static [u8]) -> Asset {
    Asset { content_type, body }
}

/// The composer page.
pub const INDEX_HTML: Asset = asset(
    "text/html; charset=utf-8",
    include_bytes!("../../assets/web/index.html"),
);
/// The composer's script.
pub const APP_JS: Asset = asset(JAVASCRIPT, include_bytes!("../../assets/web/app.js"));
/// The composer's board editor.
pub const EDITOR_JS: Asset = asset(JAVASCRIPT, include_bytes!("../../assets/web/editor.js"));
/// The composer's style sheet.
pub const APP_CSS: Asset = asset(
    "text/css; charset=utf-8",
    include_bytes!("../../assets/web/app.css"),
);
/// The content type of the composer's scripts.
const JAVASCRIPT: &str = "text/javascript; charset=utf-8";

/// What answers a route.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Handler {
    /// A file of the front page.
    Page(Asset),
    /// A diagram; the path may fix the format.
    Diagram(Option<Format>),
    /// A whole game as an animated image (GET with `pgn` or `moves`, or POST the PGN).
    Game(Animation),
    /// A still GIF with lila-gif's parameters (`white`, `black` player bars).
    Image,
    /// One piece of a set as SVG, for a palette.
    Piece,
    /// A game's main line as JSON (GET with `pgn` or `moves`, or POST the PGN).
    MoveList,
    /// A worksheet of many diagrams; the path may fix the format (PDF, SVG or PNG).
    Sheet(Option<Format>),
    /// An annotated game typeset (GET with `pgn`, or POST the PGN); the path fixes the
    /// format (PDF, HTML or SVG).
    Article(crate::request::article::ArticleFormat),
    /// A share card: a 1200×630 PNG of a diagram and a title, for a link's `og:image`.
    Card,
    /// The plain-English description of a position.
    Describe,
    /// This API description.
    OpenApi,
    /// Liveness.
    Health,
    /// Readiness: 503 once shutting down.
    Ready,
    /// Prometheus counters.
    Metrics,
}

/// The kind of whole-game image.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Animation {
    /// An animated GIF.
    Gif,
    /// An animated PNG (APNG), full colour.
    Apng,
}

impl Animation {
    /// Its content type.
    pub fn content_type(self) -> &'static str {
        match self {
            Animation::Gif => "image/gif",
            Animation::Apng => "image/png",
        }
    }

    /// Its name in cache keys and logs.
    pub fn name(self) -> &'static str {
        match self {
            Animation::Gif => "gif",
            Animation::Apng => "apng",
        }
    }
}

/// One route: its path, what answers it, and one line for the API description.
#[derive(Debug, Clone, Copy)]
pub struct Route {
    /// The path (all routes answer GET and HEAD; game routes POST too).
    pub path: &'static str,
    /// What answers it.
    pub handler: Handler,
    /// One line for people.
    pub summary: &'static str,
}

/// Every route of the service.
pub const ROUTES: &[Route] = &[
    Route {
        path: "/",
        handler: Handler::Page(INDEX_HTML),
        summary: "The composer: a page to write a FEN, choose options and copy the diagram's URL.",
    },
    Route {
        path: "/app.js",
        handler: Handler::Page(APP_JS),
        summary: "The composer's script.",
    },
    Route {
        path: "/editor.js",
        handler: Handler::Page(EDITOR_JS),
        summary: "The composer's board editor.",
    },
    Route {
        path: "/app.css",
        handler: Handler::Page(APP_CSS),
        summary: "The composer's style sheet.",
    },
    #[cfg(feature = "composer-wasm")]
    Route {
        path: "/js/staunton.wasm",
        handler: Handler::Page(asset("application/wasm", super::composer_wasm::WASM)),
        summary: "The renderer as WebAssembly, for the composer's previews drawn in the page.",
    },
    #[cfg(feature = "composer-wasm")]
    Route {
        path: "/js/web.js",
        handler: Handler::Page(asset(JAVASCRIPT, super::composer_wasm::WEB_JS)),
        summary: "The JavaScript package's browser entry (`await init()`), over `/js/staunton.wasm`.",
    },
    #[cfg(feature = "composer-wasm")]
    Route {
        path: "/js/core.js",
        handler: Handler::Page(asset(JAVASCRIPT, super::composer_wasm::CORE_JS)),
        summary: "The JavaScript package's glue that `/js/web.js` imports.",
    },
    Route {
        path: "/diagram",
        handler: Handler::Diagram(None),
        summary: "A diagram of a position, PNG unless `format` asks for svg, pdf, webp, gif or txt (the board as text).",
    },
    Route {
        path: "/diagram.png",
        handler: Handler::Diagram(Some(Format::Png)),
        summary: "A diagram of a position as PNG.",
    },
    Route {
        path: "/diagram.svg",
        handler: Handler::Diagram(Some(Format::Svg)),
        summary: "A diagram of a position as SVG.",
    },
    Route {
        path: "/diagram.pdf",
        handler: Handler::Diagram(Some(Format::Pdf)),
        summary: "A diagram as a one-page vector PDF, for print (`dpi` sets its size in points).",
    },
    Route {
        path: "/diagram.webp",
        handler: Handler::Diagram(Some(Format::Webp)),
        summary: "A diagram as lossless WebP.",
    },
    Route {
        path: "/diagram.gif",
        handler: Handler::Diagram(Some(Format::Gif)),
        summary: "A diagram as a still GIF, from the PNG's palette.",
    },
    Route {
        path: "/diagram.txt",
        handler: Handler::Diagram(Some(Format::Txt)),
        summary: "A position as a text board (`text/plain; charset=utf-8`), for terminals, diffs and text snapshots: `style=letters` (ASCII, `.` for empty squares) or `style=figurines` (Unicode chess symbols), with coordinates, orientation, side to move and pockets; marks are not drawn.",
    },
    Route {
        path: "/board.png",
        handler: Handler::Diagram(Some(Format::Png)),
        summary: "A diagram as PNG (the path web-boardimage uses).",
    },
    Route {
        path: "/board.svg",
        handler: Handler::Diagram(Some(Format::Svg)),
        summary: "A diagram as SVG (the path web-boardimage uses).",
    },
    Route {
        path: "/image.gif",
        handler: Handler::Image,
        summary: "A still GIF, a drop-in for lila-gif's route: the diagram's parameters, and `white`/`black` player names drawn in bars above and below.",
    },
    Route {
        path: "/game.gif",
        handler: Handler::Game(Animation::Gif),
        summary: "A whole game (`pgn`, or `moves`; or POST the PGN as the body) as an animated GIF: one frame for the start and one per ply.",
    },
    Route {
        path: "/game.png",
        handler: Handler::Game(Animation::Apng),
        summary: "A whole game as an animated PNG (APNG), full colour.",
    },
    Route {
        path: "/game.json",
        handler: Handler::MoveList,
        summary: "A game's main line as JSON, for a move list: every ply's SAN, UCI and the FEN after it, the start, the tags and the result (`pgn`, or `moves` from `fen`; or POST the PGN as the body).",
    },
    Route {
        path: "/piece.svg",
        handler: Handler::Piece,
        summary: "One piece of a piece set as SVG, alone on a transparent square (no board), for a palette: the artwork diagrams draw.",
    },
    Route {
        path: "/sheet",
        handler: Handler::Sheet(None),
        summary: "A worksheet: 1 to 12 positions (`fen` repeated) as numbered, captioned diagrams on A4 or Letter pages; PDF unless `format` says svg or png.",
    },
    Route {
        path: "/sheet.pdf",
        handler: Handler::Sheet(Some(Format::Pdf)),
        summary: "A worksheet as a vector PDF, every page.",
    },
    Route {
        path: "/sheet.svg",
        handler: Handler::Sheet(Some(Format::Svg)),
        summary: "One page of a worksheet as SVG (`pageNumber`).",
    },
    Route {
        path: "/sheet.png",
        handler: Handler::Sheet(Some(Format::Png)),
        summary: "One page of a worksheet as PNG (`pageNumber`, `dpi`).",
    },
    Route {
        path: "/article.pdf",
        handler: Handler::Article(ArticleFormat::Pdf),
        summary: "An annotated game typeset as a PDF: a header from the tags, the moves in figurines (or the letters of `lang`), comments, variations, NAG glyphs, and a captioned diagram wherever the game marks one; real, selectable text (GET with `pgn`, or POST the PGN).",
    },
    Route {
        path: "/article.html",
        handler: Handler::Article(ArticleFormat::Html),
        summary: "An annotated game as one self-contained HTML page: the article of `/article.pdf`, reflowing, with inline SVG diagrams carrying alt text.",
    },
    Route {
        path: "/article.svg",
        handler: Handler::Article(ArticleFormat::Svg),
        summary: "An annotated game's pages as one SVG, one under the other (text as outlines).",
    },
    Route {
        path: "/card.png",
        handler: Handler::Card,
        summary: "A share card for a link's `og:image`: a 1200×630 PNG with the diagram at the left (every diagram parameter but `size`) and `title` and `subtitle` at the right; from a game (`pgn`, `ply` or `move`) the players, event, result and move when they are not given.",
    },
    Route {
        path: "/describe",
        handler: Handler::Describe,
        summary: "A position in words (English, German, Italian, French, Spanish, Dutch or Japanese), for alt text and screen readers.",
    },
    Route {
        path: "/openapi.json",
        handler: Handler::OpenApi,
        summary: "This description of the API (OpenAPI 3.0).",
    },
    Route {
        path: "/health",
        handler: Handler::Health,
        summary: "Liveness: answers `ok` while the service runs.",
    },
    Route {
        path: "/ready",
        handler: Handler::Ready,
        summary: "Readiness: `ready` while the service takes new requests; 503 once it is shutting down (SIGTERM), so a balancer drains it first.",
    },
    Route {
        path: "/metrics",
        handler: Handler::Metrics,
        summary: "Counters and histograms in the Prometheus text format.",
    },
];

/// The diagram parameters `/describe` reads: the position (and how its FEN is read) or
/// game, and the language.
const DESCRIBE_PARAMS: [&str; 8] = [
    "fen", "dialect", "board", "pgn", "moves", "ply", "move", "lang",
];

/// Every parameter a route's handler reads (validates, so a bad value is a 400); empty for
/// a route that reads no query. A route that reads one also takes the service-wide
/// [`SERVICE_PARAMS`]; a name outside both is ignored by the route: `Staunton-Warning`
/// names it, `strict=1` refuses it. `/openapi.json` documents these (less those that change
/// nothing on a path), the service-wide ones once per path.
pub fn reads(handler: Handler) -> Vec<&'static Param> {
    let of = |names: &'static [&'static str]| {
        PARAMS.iter().filter(move |p| names.contains(&p.name))
    };
    match handler {
        Handler::Diagram(_) => PARAMS.iter().collect(),
        Handler::Image => PARAMS.iter().chain(PLAYER_PARAMS).collect(),
        // A whole game has no one position: `ply` and `move` are left out of its frames.
        Handler::Game(_) => PARAMS
            .iter()
            .filter(|p| !["ply", "move"].contains(&p.name))
            .chain(GAME_PARAMS)
            .collect(),
        Handler::Sheet(_) => SHEET_PARAMS
            .iter()
            .chain(of(DIAGRAM_PARAMS))
            .chain(of(&READING_PARAMS))
            .collect(),
        Handler::Article(_) => ARTICLE_PARAMS
            .iter()
            .chain(of(ARTICLE_DIAGRAM_PARAMS))
            .collect(),
        Handler::MoveList => of(&MOVE_LIST_PARAMS).collect(),
        Handler::Piece => PIECE_PARAMS.iter().collect(),
        Handler::Card => crate::request::share_card::diagram_params()
            .chain(CARD_PARAMS)
            .collect(),
        Handler::Describe => of(&DESCRIBE_PARAMS).collect(),
        Handler::Page(_)
        | Handler::OpenApi
        | Handler::Health
        | Handler::Ready
        | Handler::Metrics => Vec::new(),
    }
}

/// The JSON schema of one parameter, with the service's limits and loaded piece sets.
fn schema(param: &Param, limits: &Limits, piece_sets: &[String]) -> Value {
    match param.kind {
        ParamKind::Fen => json!({
            "type": "string",
            "maxLength": limits.fen_bytes,
            "example": "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1",
        }),
        ParamKind::Size => json!({
            "type": "integer",
            "minimum": MIN_SIZE,
            "maximum": limits.max_size,
            "default": DEFAULT_SIZE,
        }),
        ParamKind::Choice(words) => json!({
            "type": "string",
            "enum": words,
            "default": words[0],
        }),
        ParamKind::PieceSet => json!({
            "type": "string",
            "enum": piece_sets,
            "default": DEFAULT_PIECE_SET,
        }),
        ParamKind::Color => json!({
            "type": "string",
            "pattern": "^#?([0-9a-fA-F]{3}|[0-9a-fA-F]{6})$",
            "example": "e0c8a0",
            "description": "rgb or rrggbb in hex digits; the # is optional (written in a URL it must be %23, else it starts the fragment).",
        }),
        ParamKind::Flag => json!({ "type": "boolean", "default": false }),
        ParamKind::Text { example } => json!({ "type": "string", "example": example }),
    }
}

fn parameter(param: &Param, limits: &Limits, piece_sets: &[String], required: bool) -> Value {
    let mut description = param.doc.to_string();
    let others: Vec<&str> = param
        .spellings
        .iter()
        .copied()
        .filter(|s| !s.eq_ignore_ascii_case(param.name))
        .collect();
    if !others.is_empty() {
        description.push_str(&format!(" Also spelled: {}.", others.join(", ")));
    }
    json!({
        "name": param.name,
        "in": "query",
        "required": required,
        "description": description,
        "schema": schema(param, limits, piece_sets),
    })
}

/// The documents of the parameters `handler` reads and `keep` keeps: each the common one
/// (see [`parameter`]), then changed by `edit` where the route documents it its own way.
fn parameters(
    handler: Handler,
    (limits, piece_sets): (&Limits, &[String]),
    keep: impl Fn(&Param) -> bool,
    edit: impl Fn(&Param, &mut Value),
) -> Vec<Value> {
    reads(handler)
        .into_iter()
        .filter(|p| keep(p))
        .map(|p| {
            let mut v = parameter(p, limits, piece_sets, false);
            edit(p, &mut v);
            v
        })
        .collect()
}

/// `own` answers, and each of `codes` that routes share (304, 413, 414, 503), described
/// as they all describe it.
fn shared(mut own: Value, codes: &[&str]) -> Value {
    for &code in codes {
        own[code] = match code {
            "304" => json!({ "description": "Not modified (the `If-None-Match` ETag matched)." }),
            "413" => error("The POSTed PGN is too long."),
            "414" => error("The query string is too long."),
            _ => error("Too many renders waiting; retry after the `Retry-After` seconds."),
        };
    }
    own
}

fn text(description: &str, content_type: &str) -> Value {
    json!({
        "description": description,
        "content": { content_type: { "schema": { "type": "string" } } },
    })
}

/// An operation's answers: 200 (`ok`, its body `content`), 400 (`bad`) and the shared
/// `codes`.
fn answers(ok: &str, content: Value, bad: &str, codes: &[&str]) -> Value {
    shared(
        json!({ "200": { "description": ok, "content": content }, "400": error(bad) }),
        codes,
    )
}

/// The `content` of a 200 answer: a schema for each of `formats` that `path_format` (the
/// format a route's path fixes, if any) allows; binary but for text.
fn content(formats: &[Format], path_format: Option<Format>) -> Value {
    let mut content = Map::new();
    for &format in formats {
        if path_format.is_none_or(|f| f == format) {
            let schema = match format {
                Format::Txt => json!({ "type": "string" }),
                _ => json!({ "type": "string", "format": "binary" }),
            };
            content.insert(format.content_type().into(), json!({ "schema": schema }));
        }
    }
    Value::Object(content)
}

fn error(description: &str) -> Value {
    text(description, "text/plain")
}

/// The operation (GET) of one route.
fn operation(route: &Route, limits: &Limits, piece_sets: &[String]) -> Value {
    let mut op = Map::new();
    op.insert("summary".into(), json!(route.summary));
    let (parameters, responses) = match route.handler {
        Handler::Diagram(path_format) => diagram_operation(path_format, limits, piece_sets),
        Handler::Game(kind) => game_operation(kind, limits, piece_sets),
        Handler::Image => image_operation(limits, piece_sets),
        Handler::Sheet(path_format) => sheet_operation(path_format, limits, piece_sets),
        Handler::Article(format) => article_operation(format, limits, piece_sets),
        Handler::MoveList => move_list_operation(limits, piece_sets),
        Handler::Piece => piece_operation(limits, piece_sets),
        Handler::Card => card_operation(limits, piece_sets),
        Handler::Describe => (
            parameters(route.handler, (limits, piece_sets), |_| true, |_, _| {}),
            json!({
                "200": text("The position in words, one line, in the language `lang` names (English by default).", "text/plain"),
                "400": error("A bad `fen`, game or `lang`: one sentence naming the fault (for `lang`, listing the languages)."),
            }),
        ),
        Handler::Page(asset) => (
            Vec::new(),
            json!({ "200": text(route.summary, asset.content_type.split(';').next().unwrap_or("text/plain")) }),
        ),
        Handler::OpenApi => (
            Vec::new(),
            json!({ "200": { "description": "This document.", "content": { "application/json": { "schema": { "type": "object" } } } } }),
        ),
        Handler::Ready => (
            Vec::new(),
            json!({
                "200": text("Ready: `ready`.", "text/plain"),
                "503": error("Shutting down: send new requests elsewhere."),
            }),
        ),
        Handler::Health | Handler::Metrics => (
            Vec::new(),
            json!({ "200": text(route.summary, "text/plain") }),
        ),
    };
    let mut responses = responses;
    if !parameters.is_empty() {
        op.insert("parameters".into(), Value::Array(parameters));
        warned(&mut responses);
    }
    op.insert("responses".into(), responses);
    Value::Object(op)
}

/// The header every answer of a route with parameters may carry (see [`reads`]).
pub const WARNING_HEADER: &str = "staunton-warning";

/// `Staunton-Warning` documented on each of `responses`.
fn warned(responses: &mut Value) {
    let header = json!({
        "description": "The query's names this route does not read (ignored), each with the nearest parameter name when one is near: `orientaton: did you mean orientation?; xyz: unknown parameter, ignored` (at most five, then `and N more`). Absent when every name is known.",
        "schema": { "type": "string" },
    });
    if let Some(map) = responses.as_object_mut() {
        for answer in map.values_mut() {
            answer["headers"] = json!({ "Staunton-Warning": header.clone() });
        }
    }
}

/// The parameters and answers of a diagram route (`path_format`: the format its path fixes).
fn diagram_operation(
    path_format: Option<Format>,
    limits: &Limits,
    piece_sets: &[String],
) -> (Vec<Value>, Value) {
    // `style` only matters to text: left out where the path fixes an image format.
    let image_path = path_format.is_some_and(|f| f != Format::Txt);
    let keep = |p: &Param| match p.name {
        "format" => path_format.is_none(),
        "style" => !image_path,
        // `lang` only matters to an SVG's title, `svg` to an SVG.
        "lang" | "svg" => path_format.is_none_or(|f| f == Format::Svg),
        _ => true,
    };
    let handler = Handler::Diagram(path_format);
    let parameters = parameters(handler, (limits, piece_sets), keep, |_, _| {});
    let responses = answers(
        "The diagram; cacheable for a year (the URL decides the bytes).",
        content(&Format::ALL, path_format),
        "A bad parameter: one sentence naming it, the value and what is allowed.",
        &["304", "414", "503"],
    );
    (parameters, responses)
}

/// The parameters and answers of a whole-game route.
fn game_operation(kind: Animation, limits: &Limits, piece_sets: &[String]) -> (Vec<Value>, Value) {
    // The frames are PNGs without words: format, style, lang and svg change nothing.
    let keep = |p: &Param| !["format", "style", "lang", "svg"].contains(&p.name);
    let parameters = parameters(Handler::Game(kind), (limits, piece_sets), keep, |_, _| {});
    let responses = answers(
        "The animation; cacheable for a year.",
        json!({ kind.content_type(): { "schema": { "type": "string", "format": "binary" } } }),
        "A bad parameter or game: one sentence naming it, the value and what is allowed (for a move: its number, as written, and why).",
        &["304", "413", "414", "503"],
    );
    (parameters, responses)
}

/// The parameters and answers of `/image.gif`.
fn image_operation(limits: &Limits, piece_sets: &[String]) -> (Vec<Value>, Value) {
    let keep = |p: &Param| !["format", "style", "dpi", "lang", "svg"].contains(&p.name);
    let edit = |p: &Param, v: &mut Value| {
        if PLAYER_PARAMS.contains(p) {
            *v = json!({
                "name": p.name, "in": "query", "required": false, "description": p.doc,
                "schema": { "type": "string", "maxLength": MAX_PLAYER_CHARS },
            });
        }
    };
    let parameters = parameters(Handler::Image, (limits, piece_sets), keep, edit);
    let responses = json!({
        "200": { "description": "The diagram as a GIF; cacheable for a year.", "content": { "image/gif": { "schema": { "type": "string", "format": "binary" } } } },
        "400": error("A bad parameter: one sentence naming it, the value and what is allowed."),
    });
    (parameters, responses)
}

/// The parameters and answers of a worksheet route (`path_format`: the format its path fixes).
fn sheet_operation(
    path_format: Option<Format>,
    limits: &Limits,
    piece_sets: &[String],
) -> (Vec<Value>, Value) {
    let keep = |p: &Param| !(p.name == "format" && path_format.is_some());
    let edit = |p: &Param, v: &mut Value| {
        if p.name == "fen" {
            v["required"] = json!(true);
            v["explode"] = json!(true);
            v["schema"] = json!({
                "type": "array",
                "minItems": 1,
                "maxItems": MAX_SHEET_DIAGRAMS,
                "items": schema(p, limits, piece_sets),
            });
        }
    };
    let handler = Handler::Sheet(path_format);
    let parameters = parameters(handler, (limits, piece_sets), keep, edit);
    let responses = answers(
        "The sheet; cacheable for a year. `X-Sheet-Pages` says how many pages it has.",
        content(&[Format::Pdf, Format::Svg, Format::Png], path_format),
        "A bad parameter: one sentence naming it, the value and what is allowed (too many positions, an unknown page size, a page number past the end).",
        &["304", "414", "503"],
    );
    (parameters, responses)
}

/// The parameters and answers of an article route.
fn article_operation(
    format: ArticleFormat,
    limits: &Limits,
    piece_sets: &[String],
) -> (Vec<Value>, Value) {
    let handler = Handler::Article(format);
    let parameters = parameters(handler, (limits, piece_sets), |_| true, |_, _| {});
    let responses = answers(
        "The article; cacheable for a year. `X-Article-Pages` and `X-Article-Diagrams` say how many pages and diagrams it has.",
        json!({ format.content_type(): { "schema": { "type": "string" } } }),
        "A bad parameter or game: one sentence naming it, the value and what is allowed (for a move: its number, as written, and why; a limit: which).",
        &["304", "413", "414", "503"],
    );
    (parameters, responses)
}

/// The parameters and answers of `/card.png`.
fn card_operation(limits: &Limits, piece_sets: &[String]) -> (Vec<Value>, Value) {
    let edit = |p: &Param, v: &mut Value| {
        if CARD_PARAMS.contains(p) {
            v["schema"] = json!({
                "type": "string",
                "maxLength": MAX_CARD_TEXT_CHARS,
                "pattern": "^[^\\u0000-\\u001f\\u007f-\\u009f]*$",
            });
        }
    };
    let parameters = parameters(Handler::Card, (limits, piece_sets), |_| true, edit);
    let responses = answers(
        "The card, 1200×630 pixels; cacheable for a year.",
        json!({ "image/png": { "schema": { "type": "string", "format": "binary" } } }),
        "A bad parameter: one sentence naming it, the value and what is allowed (a title or subtitle over 200 characters or with control characters, a bad position or game).",
        &["304", "414", "503"],
    );
    (parameters, responses)
}

/// The parameters and answers of `/game.json`.
fn move_list_operation(limits: &Limits, piece_sets: &[String]) -> (Vec<Value>, Value) {
    let handler = Handler::MoveList;
    let parameters = parameters(handler, (limits, piece_sets), |_| true, |_, _| {});
    let ply = json!({
        "type": "object",
        "required": ["ply", "number", "side", "san", "uci", "fen"],
        "properties": {
            "ply": { "type": "integer", "minimum": 1, "description": "Half-moves played after this move." },
            "number": { "type": "integer", "minimum": 1, "description": "The move number (`23` in `23...Qxf2+`)." },
            "side": { "type": "string", "enum": ["w", "b"], "description": "Who moved." },
            "san": { "type": "string", "example": "Nf3", "description": "Standard algebraic notation, with `+` or `#`." },
            "uci": { "type": "string", "example": "g1f3", "description": "UCI: castling is `e1g1` in standard chess, king takes rook in Chess960." },
            "fen": { "type": "string", "description": "The position after the move." },
        },
    });
    let schema = json!({
        "type": "object",
        "required": ["plies", "start", "moves", "tags", "result"],
        "properties": {
            "plies": { "type": "integer", "minimum": 0, "maximum": limits.plies },
            "start": { "type": "string", "description": "The FEN before the first move." },
            "moves": { "type": "array", "items": ply },
            "tags": { "type": "object", "additionalProperties": { "type": "string" }, "description": "The tag pairs (the first of each name)." },
            "result": { "type": "string", "nullable": true, "example": "1-0", "description": "The result token ending the movetext, else the `Result` tag, else null." },
        },
    });
    let responses = answers(
        "The main line; cacheable for a year (the game's text decides the bytes).",
        json!({ "application/json": { "schema": schema } }),
        "A bad game: one sentence naming the parameter and, for a move, its number, as written, and why.",
        &["304", "413", "414"],
    );
    (parameters, responses)
}

/// The parameters and answers of `/piece.svg`.
fn piece_operation(limits: &Limits, piece_sets: &[String]) -> (Vec<Value>, Value) {
    let edit = |p: &Param, v: &mut Value| {
        if p.name == "piece" {
            v["required"] = json!(true);
            v["schema"] = json!({ "type": "string", "enum": crate::request::piece::PIECE_CODES });
        }
    };
    let parameters = parameters(Handler::Piece, (limits, piece_sets), |_| true, edit);
    let responses = answers(
        "The piece as SVG; cacheable for a year.",
        json!({ "image/svg+xml": { "schema": { "type": "string" } } }),
        "A bad `piece` or `pieces`: one sentence naming it, the value and what is allowed.",
        &["304"],
    );
    (parameters, responses)
}

/// The OpenAPI 3.0 description of every route, with this service's limits and piece sets.
pub fn openapi(limits: &Limits, piece_sets: &[String]) -> Value {
    let mut paths = Map::new();
    for route in ROUTES {
        let get = operation(route, limits, piece_sets);
        let item = match route.handler {
            Handler::Game(_) | Handler::MoveList | Handler::Article(_) => {
                let mut post = get.clone();
                post["summary"] = json!(format!(
                    "{} The PGN as the request body (at most the service's body limit).",
                    route.summary
                ));
                post["requestBody"] = json!({
                    "required": true,
                    "content": {
                        "application/x-chess-pgn": { "schema": { "type": "string" } },
                        "text/plain": { "schema": { "type": "string" } },
                    },
                });
                json!({ "get": get, "post": post })
            }
            _ => json!({ "get": get }),
        };
        let mut item = item;
        if !reads(route.handler).is_empty() {
            // For every operation of the path: OpenAPI's path-level parameters.
            item["parameters"] = SERVICE_PARAMS
                .iter()
                .map(|p| parameter(p, limits, piece_sets, false))
                .collect();
        }
        paths.insert(route.path.into(), item);
    }
    json!({
        "openapi": "3.0.3",
        "info": {
            "title": "Staunton",
            "version": env!("CARGO_PKG_VERSION"),
            "description": env!("CARGO_PKG_DESCRIPTION"),
            "license": { "name": "MIT OR Apache-2.0" },
        },
        "paths": paths,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_route_and_parameter_is_described() {
        let sets = vec!["staunton".to_string(), "merida".to_string()];
        let doc = openapi(&Limits::default(), &sets);
        let paths = doc["paths"].as_object().expect("paths");
        assert_eq!(paths.len(), ROUTES.len());
        let diagram = &paths["/diagram"]["get"]["parameters"];
        let names: Vec<&str> = diagram
            .as_array()
            .expect("parameters")
            .iter()
            .map(|p| p["name"].as_str().expect("name"))
            .collect();
        let expected: Vec<&str> = PARAMS.iter().map(|p| p.name).collect();
        assert_eq!(names, expected);
        let service: Vec<&str> = paths["/diagram"]["parameters"]
            .as_array()
            .expect("path-level parameters")
            .iter()
            .map(|p| p["name"].as_str().expect("name"))
            .collect();
        assert_eq!(service, ["strict", "errors"]);
        assert!(paths["/health"]["parameters"].is_null(), "reads no query");
        let svg = &paths["/diagram.svg"]["get"];
        assert!(svg["responses"]["200"]["content"]["image/svg+xml"].is_object());
        assert!(svg["responses"]["200"]["content"]["image/png"].is_null());
        let txt = &paths["/diagram.txt"]["get"];
        let text = &txt["responses"]["200"]["content"]["text/plain; charset=utf-8"];
        assert_eq!(text["schema"], json!({ "type": "string" }));
        let named = |op: &Value, name: &str| {
            op["parameters"]
                .as_array()
                .is_some_and(|ps| ps.iter().any(|p| p["name"] == name))
        };
        assert!(named(txt, "style") && !named(txt, "format"));
        assert!(!named(svg, "style"), "style is for text only");
        let style = diagram
            .as_array()
            .and_then(|a| a.iter().find(|p| p["name"] == "style"))
            .expect("style");
        assert_eq!(style["schema"]["enum"], json!(["letters", "figurines"]));
        assert_eq!(style["schema"]["default"], "letters");
        let format = diagram
            .as_array()
            .and_then(|a| a.iter().find(|p| p["name"] == "format"))
            .expect("format");
        assert!(
            format["schema"]["enum"]
                .as_array()
                .is_some_and(|e| e.contains(&json!("txt")))
        );
        let pieces = diagram
            .as_array()
            .and_then(|a| a.iter().find(|p| p["name"] == "pieces"))
            .expect("pieces");
        assert_eq!(pieces["schema"]["enum"], json!(sets));
        assert_eq!(paths["/describe"]["get"]["parameters"][0]["name"], "fen");
        let lang = paths["/describe"]["get"]["parameters"]
            .as_array()
            .and_then(|a| a.iter().find(|p| p["name"] == "lang"))
            .expect("lang on /describe");
        assert_eq!(
            lang["schema"]["enum"],
            json!(crate::chess::describe::LANG_CODES)
        );
        assert_eq!(lang["schema"]["default"], "en");
        assert!(named(svg, "lang"), "an SVG's title has a language");
        assert!(
            !named(&paths["/diagram.png"]["get"], "lang"),
            "pixels have none"
        );
    }

    #[test]
    fn limits_reach_the_description() {
        let limits = Limits {
            fen_bytes: 100,
            max_size: 900,
            ..Limits::default()
        };
        let doc = openapi(&limits, &[]);
        let params = doc["paths"]["/diagram"]["get"]["parameters"]
            .as_array()
            .expect("parameters")
            .clone();
        let by_name = |n: &str| {
            params
                .iter()
                .find(|p| p["name"] == n)
                .cloned()
                .expect("param")
        };
        assert_eq!(by_name("size")["schema"]["maximum"], 900);
        assert_eq!(by_name("fen")["schema"]["maxLength"], 100);
        assert_eq!(
            by_name("fen")["required"],
            false,
            "a game (pgn, moves) stands in for it"
        );
        let game = &doc["paths"]["/game.gif"];
        assert!(game["post"]["requestBody"].is_object(), "{game}");
        let names: Vec<&str> = game["get"]["parameters"]
            .as_array()
            .expect("parameters")
            .iter()
            .filter_map(|p| p["name"].as_str())
            .collect();
        for name in [
            "pgn",
            "moves",
            "delay",
            "lastDelay",
            "loop",
            "from",
            "to",
            "players",
        ] {
            assert!(names.contains(&name), "{name} in {names:?}");
        }
        assert!(!names.contains(&"ply"), "a whole game has no one ply");
    }
}
