//! The route table: every route of the service, one line each (its path, what answers
//! it, one sentence for people). The router is built from it, and `/openapi.json` and the
//! names each route knows are generated from it, so neither can drift from what the
//! service does. A new route is a file of its own beside this one and a line here.

use super::article::Article;
use super::card::Card;
use super::describe::Describe;
use super::diagram::Diagram;
use super::endpoint::Route;
use super::game::{Animation, Game};
use super::health::{Health, Ready};
use super::image::StillGif;
use super::metrics::Metrics;
use super::move_list::MoveList;
use super::openapi::OpenApi;
use super::page::{self, Page};
use super::piece::Piece;
use super::sheet::Sheet;
use crate::render::options::Format;
use crate::request::article::ArticleFormat;

/// Every route of the service.
pub const ROUTES: &[Route] = &[
    Route {
        path: "/",
        endpoint: &Page(page::INDEX_HTML),
        summary: "The composer: a page to write a FEN, choose options and copy the diagram's URL.",
    },
    Route {
        path: "/app.js",
        endpoint: &Page(page::APP_JS),
        summary: "The composer's script.",
    },
    Route {
        path: "/editor.js",
        endpoint: &Page(page::EDITOR_JS),
        summary: "The composer's board editor.",
    },
    Route {
        path: "/app.css",
        endpoint: &Page(page::APP_CSS),
        summary: "The composer's style sheet.",
    },
    #[cfg(feature = "composer-wasm")]
    Route {
        path: "/js/staunton.wasm",
        endpoint: &Page(page::WASM),
        summary: "The renderer as WebAssembly, for the composer's previews drawn in the page.",
    },
    #[cfg(feature = "composer-wasm")]
    Route {
        path: "/js/web.js",
        endpoint: &Page(page::WEB_JS),
        summary: "The JavaScript package's browser entry (`await init()`), over `/js/staunton.wasm`.",
    },
    #[cfg(feature = "composer-wasm")]
    Route {
        path: "/js/core.js",
        endpoint: &Page(page::CORE_JS),
        summary: "The JavaScript package's glue that `/js/web.js` imports.",
    },
    Route {
        path: "/diagram",
        endpoint: &Diagram(None),
        summary: "A diagram of a position, PNG unless `format` asks for svg, pdf, webp, gif or txt (the board as text).",
    },
    Route {
        path: "/diagram.png",
        endpoint: &Diagram(Some(Format::Png)),
        summary: "A diagram of a position as PNG.",
    },
    Route {
        path: "/diagram.svg",
        endpoint: &Diagram(Some(Format::Svg)),
        summary: "A diagram of a position as SVG.",
    },
    Route {
        path: "/diagram.pdf",
        endpoint: &Diagram(Some(Format::Pdf)),
        summary: "A diagram as a one-page vector PDF, for print (`dpi` sets its size in points).",
    },
    Route {
        path: "/diagram.webp",
        endpoint: &Diagram(Some(Format::Webp)),
        summary: "A diagram as lossless WebP.",
    },
    Route {
        path: "/diagram.gif",
        endpoint: &Diagram(Some(Format::Gif)),
        summary: "A diagram as a still GIF, from the PNG's palette.",
    },
    Route {
        path: "/diagram.txt",
        endpoint: &Diagram(Some(Format::Txt)),
        summary: "A position as a text board (`text/plain; charset=utf-8`), for terminals, diffs and text snapshots: `style=letters` (ASCII, `.` for empty squares) or `style=figurines` (Unicode chess symbols), with coordinates, orientation, side to move and pockets; marks are not drawn.",
    },
    Route {
        path: "/board.png",
        endpoint: &Diagram(Some(Format::Png)),
        summary: "A diagram as PNG (the path web-boardimage uses).",
    },
    Route {
        path: "/board.svg",
        endpoint: &Diagram(Some(Format::Svg)),
        summary: "A diagram as SVG (the path web-boardimage uses).",
    },
    Route {
        path: "/image.gif",
        endpoint: &StillGif,
        summary: "A still GIF, a drop-in for lila-gif's route: the diagram's parameters, and `white`/`black` player names drawn in bars above and below.",
    },
    Route {
        path: "/game.gif",
        endpoint: &Game(Animation::Gif),
        summary: "A whole game (`pgn`, or `moves`; or POST the PGN as the body) as an animated GIF: one frame for the start and one per ply.",
    },
    Route {
        path: "/game.png",
        endpoint: &Game(Animation::Apng),
        summary: "A whole game as an animated PNG (APNG), full colour.",
    },
    Route {
        path: "/game.json",
        endpoint: &MoveList,
        summary: "A game's main line as JSON, for a move list: every ply's SAN, UCI and the FEN after it, the start, the tags and the result (`pgn`, or `moves` from `fen`; or POST the PGN as the body).",
    },
    Route {
        path: "/piece.svg",
        endpoint: &Piece,
        summary: "One piece of a piece set as SVG, alone on a transparent square (no board), for a palette: the artwork diagrams draw.",
    },
    Route {
        path: "/sheet",
        endpoint: &Sheet(None),
        summary: "A worksheet: 1 to 12 positions (`fen` repeated) as numbered, captioned diagrams on A4 or Letter pages; PDF unless `format` says svg or png.",
    },
    Route {
        path: "/sheet.pdf",
        endpoint: &Sheet(Some(Format::Pdf)),
        summary: "A worksheet as a vector PDF, every page.",
    },
    Route {
        path: "/sheet.svg",
        endpoint: &Sheet(Some(Format::Svg)),
        summary: "One page of a worksheet as SVG (`pageNumber`).",
    },
    Route {
        path: "/sheet.png",
        endpoint: &Sheet(Some(Format::Png)),
        summary: "One page of a worksheet as PNG (`pageNumber`, `dpi`).",
    },
    Route {
        path: "/article.pdf",
        endpoint: &Article(ArticleFormat::Pdf),
        summary: "An annotated game typeset as a PDF: a header from the tags, the moves in figurines (or the letters of `lang`), comments, variations, NAG glyphs, and a captioned diagram wherever the game marks one; real, selectable text (GET with `pgn`, or POST the PGN).",
    },
    Route {
        path: "/article.html",
        endpoint: &Article(ArticleFormat::Html),
        summary: "An annotated game as one self-contained HTML page: the article of `/article.pdf`, reflowing, with inline SVG diagrams carrying alt text.",
    },
    Route {
        path: "/article.svg",
        endpoint: &Article(ArticleFormat::Svg),
        summary: "An annotated game's pages as one SVG, one under the other (text as outlines).",
    },
    Route {
        path: "/card.png",
        endpoint: &Card,
        summary: "A share card for a link's `og:image`: a 1200×630 PNG with the diagram at the left (every diagram parameter but `size`) and `title` and `subtitle` at the right; from a game (`pgn`, `ply` or `move`) the players, event, result and move when they are not given.",
    },
    Route {
        path: "/describe",
        endpoint: &Describe,
        summary: "A position in words (English, German, Italian, French, Spanish, Dutch or Japanese), for alt text and screen readers.",
    },
    Route {
        path: "/openapi.json",
        endpoint: &OpenApi,
        summary: "This description of the API (OpenAPI 3.0).",
    },
    Route {
        path: "/health",
        endpoint: &Health,
        summary: "Liveness: answers `ok` while the service runs.",
    },
    Route {
        path: "/ready",
        endpoint: &Ready,
        summary: "Readiness: `ready` while the service takes new requests; 503 once it is shutting down (SIGTERM), so a balancer drains it first.",
    },
    Route {
        path: "/metrics",
        endpoint: &Metrics,
        summary: "Counters and histograms in the Prometheus text format.",
    },
];
