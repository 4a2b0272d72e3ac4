//! Every parameter reaches every key: for each route of the route table and each parameter
//! it reads (`Endpoint::reads`, built from the parameter tables), two requests that differ only
//! in that parameter get two ETags (an ETag is its cache key's hash), or for `/describe`
//! two texts. A parameter that changes nothing on a route is in [`changes_nothing`] with
//! its reason; any other needs a sample in [`sample`], so a new parameter without one fails
//! here and cannot be left out of a key again.
//!
//! The requests carry `If-None-Match: *`: the answer is a 304 with the ETag, and nothing is
//! drawn.

use crate::support::{self, Answer, Kind, kind, state};
use axum::http::{StatusCode, header};
use staunton::http::AppState;
use staunton::http::routes::ROUTES;
use staunton::request::SERVICE_PARAMS;
use std::sync::Arc;

/// A FEN whose `C` is a chancellor in standard FEN and a circle in Fairy FEN.
const TWO_DIALECTS: &str = "8/8/8/3C4/8/8/8/8";
/// A game whose `1. Rf1` is the rook's move in English letters and the king's in Italian.
const TWO_LANGS: &str = "[FEN \"4k3/8/8/8/8/8/8/4K2R w K - 0 1\"]\n\n1. Rf1 *";
/// An article's game with a diagram.
const ARTICLE: &str = "1. e4 e5 2. Nf3 {[#]} Nc6 *";

/// Two requests for one parameter: both carry `context` (over the route's base, or instead
/// of it when `alone`); the first has the parameter at `first` (absent when `None`), the
/// second at `second`.
struct Sample {
    context: Vec<(&'static str, &'static str)>,
    alone: bool,
    first: Option<&'static str>,
    second: &'static str,
}

/// `name=second` against the route's base without it.
fn value(second: &'static str) -> Sample {
    Sample {
        context: Vec::new(),
        alone: false,
        first: None,
        second,
    }
}

/// `name=second` against the route's base and `context`, without it.
fn with(context: &[(&'static str, &'static str)], second: &'static str) -> Sample {
    Sample {
        context: context.to_vec(),
        ..value(second)
    }
}

/// `name=first` against `name=second`, with `context` alone (not the route's base).
fn instead(
    context: &[(&'static str, &'static str)],
    first: &'static str,
    second: &'static str,
) -> Sample {
    Sample {
        context: context.to_vec(),
        alone: true,
        first: Some(first),
        second,
    }
}

/// What every request of a route carries.
fn base(kind: Kind) -> Vec<(&'static str, &'static str)> {
    match kind {
        Kind::Game | Kind::MoveList => vec![("moves", "e2e4 e7e5")],
        Kind::Piece => vec![("piece", "wK")],
        Kind::Article => vec![("pgn", ARTICLE)],
        _ => vec![("fen", "start")],
    }
}

/// Why `name` changes nothing on a route of `kind`, if it does not.
fn changes_nothing(kind: Kind, name: &str) -> Option<&'static str> {
    use Kind::*;
    let text = matches!(kind, Diagram(Some(staunton::Format::Txt)));
    let fixed = match kind {
        Diagram(f) | Sheet(f) => f.is_some(),
        _ => true,
    };
    let drawn = [
        "size",
        "pieces",
        "theme",
        "light",
        "dark",
        "background",
        "labels",
        "caption",
        "lastMove",
        "check",
        "arrows",
        "squares",
        "highlight",
        "annotations",
        "marks",
        "dots",
        "legalMoves",
        "glyph",
        "dpi",
        "turn",
    ];
    Some(match (kind, name) {
        (_, "strict") => {
            "strict refuses unknown names; a request it lets through is answered the same"
        }
        (_, "errors") => {
            "errors chooses how an error is answered (text or image), not a good answer"
        }
        (Diagram(_) | Sheet(_) | Game | StillGif, "format") if fixed => {
            "the path fixes the format; format may only repeat it"
        }
        (Diagram(_), "style") if !text && fixed => "only a text board (format=txt) has a style",
        (StillGif | Game, "style") => "only a text board (format=txt) has a style",
        (Diagram(_), "dpi") if !matches!(kind, Diagram(Some(staunton::Format::Pdf))) && fixed => {
            "only a PDF has a print size"
        }
        (StillGif | Game, "dpi") => "only a PDF has a print size",
        (Diagram(_), "svg") if !matches!(kind, Diagram(Some(staunton::Format::Svg))) && fixed => {
            "only an SVG has an SVG form"
        }
        (StillGif | Game, "svg") => "only an SVG has an SVG form",
        (Diagram(_), n) if text && drawn.contains(&n) => {
            "a text board has no pixels, colours, marks or caption"
        }
        (_, "board") => {
            "board lets a FEN of another shape (8×7) be read; a FEN that reads without it reads the same with it, and the key holds the board's size"
        }
        (Game, "dialect") => "a game's start is standard FEN (its [FEN] tag, or fen with moves)",
        (Game, "caption") => "an animation has no caption (it is refused)",
        (Card, "caption") => "a card has no caption (it is refused: title and subtitle say it)",
        (StillGif, "comment") => "comment is accepted for lila-gif's URLs and not drawn",
        (Sheet(Some(staunton::Format::Pdf)), "pageNumber") => "a PDF has every page",
        _ => return None,
    })
}

/// Two requests that differ in `name` on a route of `kind`, when the parameter changes
/// its answer there.
fn sample(kind: Kind, name: &str) -> Option<Sample> {
    use Kind::*;
    Some(match (kind, name) {
        (Piece, "piece") => instead(&[], "wK", "wQ"),
        (Game | MoveList, "fen") => {
            value("rnbqkbnr/1ppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1")
        }
        (Game | MoveList, "moves") => value("d2d4"),
        (Game | MoveList, "pgn") => instead(&[], "1. e4", "1. d4"),
        (Article, "pgn") => instead(&[], ARTICLE, "1. d4 d5 2. c4 {[#]} *"),
        (Sheet(_), "fen") => value("8/8/8/8/8/8/8/K6k w - - 0 1"),
        (Sheet(_), "caption") => value("Mate in two"),
        (Sheet(_), "solution") => value("1. Qh7+"),
        (Sheet(_), "solutions") => with(&[("solution", "1. Qh7+")], "1"),
        (Sheet(_), "title") => value("Homework"),
        (Sheet(_), "columns") => value("3"),
        (Sheet(_), "rows") => value("2"),
        (Sheet(_), "page") => value("letter"),
        (Sheet(None), "format") => value("svg"),
        (Sheet(f), "pageNumber") => {
            let pages = [("fen", "start"); 12];
            let mut context = vec![("rows", "1"), ("columns", "1")];
            context.extend(pages);
            if f.is_none() {
                context.push(("format", "svg"));
            }
            instead(&context, "1", "2")
        }
        (Sheet(_), "dpi") => value("300"),
        (Article, "columns") => value("2"),
        (Article, "page") => value("letter"),
        (Article, "size") => value("300"),
        (Article, "every") => value("2"),
        (Article, "end") => value("1"),
        (Article, "markers") => value("0"),
        (Article, "fenUnder") => value("1"),
        (Article, "notation") => value("letters"),
        (Article, "lang") => value("de"),
        (Card, "title") => value("The Immortal Game"),
        (Card, "subtitle") => value("London 1851"),
        (StillGif, "white") => value("Carlsen"),
        (StillGif, "black") => value("Nakamura"),
        (Game, "delay") => value("50"),
        (Game, "lastDelay") => value("100"),
        (Game, "loop") => value("0"),
        (Game, "from") => value("1"),
        (Game, "to") => value("1"),
        (Game, "players") => value("1"),
        (Game, "glyph") => with(&[("lastMove", "e2e4")], "!!"),
        (_, name) => diagram_sample(kind, name)?,
    })
}

/// The samples of the diagram parameters, on every route that reads them.
fn diagram_sample(kind: Kind, name: &str) -> Option<Sample> {
    let game = [("moves", "e2e4 e7e5")];
    Some(match name {
        "fen" => value("8/8/8/8/8/8/8/K6k w - - 0 1"),
        "dialect" => instead(&[("fen", TWO_DIALECTS)], "standard", "fairy"),
        "size" => value("300"),
        "orientation" => value("black"),
        "coordinates" => value("none"),
        "format" => value("svg"),
        "style" => with(&[("format", "txt")], "figurines"),
        "pieces" => value("staunton-classic"),
        "theme" => value("blue"),
        "light" => value("123456"),
        "dark" => value("123456"),
        "background" => value("dark"),
        "labels" => value("ff0000"),
        "caption" => value("White to play"),
        "lastMove" => value("e2e4"),
        "check" => value("e1"),
        "arrows" => value("Ge2e4"),
        "squares" => value("d5"),
        "highlight" => value("Ge4"),
        "annotations" => value("[%cal Ge2e4]"),
        "marks" => value("circle:e4"),
        "dots" => value("e3"),
        "legalMoves" => value("e2"),
        "pgn" => instead(&[], "1. e4", "1. d4"),
        "moves" => value("e2e4"),
        "ply" => with(&game, "1"),
        "move" => with(&game, "1w"),
        "glyph" => with(&[("lastMove", "e2e4")], "!!"),
        "dpi" => with(&[("format", "pdf")], "300"),
        "svg" => with(&[("format", "svg")], "portable"),
        "turn" => value("1"),
        "region" => value("a1-d4"),
        "lang" => match kind {
            Kind::Describe => value("de"),
            _ => instead(&[("pgn", TWO_LANGS)], "en", "it"),
        },
        _ => return None,
    })
}

/// The query of `pairs`, each value percent-encoded.
fn query(pairs: &[(&str, &str)]) -> String {
    let mut out = form_urlencoded::Serializer::new(String::new());
    for (k, v) in pairs {
        out.append_pair(k, v);
    }
    out.finish()
}

/// The two queries of `sample` for `name` on a route of `kind`: the sample's context
/// wins over the route's base (one fen, one game), and only `name` differs.
fn queries(kind: Kind, name: &'static str, sample: &Sample) -> [String; 2] {
    let mut common = match sample.alone {
        true => Vec::new(),
        false => base(kind),
    };
    common.retain(|(k, _)| !sample.context.iter().any(|(c, _)| c == k));
    common.extend(sample.context.iter().copied());
    let mut first = common.clone();
    if let Some(v) = sample.first {
        first.retain(|(k, _)| *k != name);
        first.push((name, v));
    }
    let mut second = common;
    second.retain(|(k, _)| *k != name);
    second.push((name, sample.second));
    [query(&first), query(&second)]
}

/// What identifies an answer: its ETag, or for `/describe` its text.
async fn identity(s: &Arc<AppState>, uri: &str, describe: bool) -> Result<String, String> {
    let star = (!describe).then_some("*");
    let answer: Answer = support::get_with(s, uri, header::IF_NONE_MATCH, star).await;
    match (answer.status, describe) {
        (StatusCode::OK, true) => Ok(answer.text()),
        (StatusCode::NOT_MODIFIED, false) => Ok(answer.header(header::ETAG).to_string()),
        (status, _) => Err(format!("{uri}: {status} {}", answer.text().trim())),
    }
}

#[tokio::test]
async fn every_parameter_of_every_route_reaches_its_key() {
    let s = state();
    let mut missing = Vec::new();
    let mut failures = Vec::new();
    for route in ROUTES {
        let reads = route.endpoint.reads();
        if reads.is_empty() {
            continue;
        }
        let kind = kind(route.path);
        assert_ne!(
            kind,
            Kind::Other,
            "{}: a route that reads a query",
            route.path
        );
        let names = reads.into_iter().chain(SERVICE_PARAMS).map(|p| p.name);
        for name in names {
            if changes_nothing(kind, name).is_some() {
                continue;
            }
            let Some(sample) = sample(kind, name) else {
                missing.push(format!("{} {name}", route.path));
                continue;
            };
            let describe = kind == Kind::Describe;
            let [a, b] = queries(kind, name, &sample);
            let (a, b) = (format!("{}?{a}", route.path), format!("{}?{b}", route.path));
            match (
                identity(&s, &a, describe).await,
                identity(&s, &b, describe).await,
            ) {
                (Ok(x), Ok(y)) if x == y => {
                    failures.push(format!("{name}: {a} and {b} share a key, {x}"));
                }
                (Ok(_), Ok(_)) => {}
                (Err(e), _) | (_, Err(e)) => failures.push(format!("{name}: bad sample: {e}")),
            }
        }
    }
    assert!(
        missing.is_empty(),
        "parameters without a sample (add one to `sample`, or a reason to `changes_nothing`):\n{}",
        missing.join("\n")
    );
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[tokio::test]
async fn one_fen_in_two_dialects_is_two_images_in_every_format() {
    let s = state();
    let fen = format!("fen={TWO_DIALECTS}");
    for path in [
        "/diagram.png",
        "/diagram.svg",
        "/diagram.pdf",
        "/diagram.webp",
        "/diagram.gif",
        "/diagram.txt",
        "/image.gif",
        "/card.png",
        "/sheet.svg",
    ] {
        let standard = support::get_with(&s, &format!("{path}?{fen}"), header::ACCEPT, None).await;
        let fairy = support::get_with(
            &s,
            &format!("{path}?{fen}&dialect=fairy"),
            header::ACCEPT,
            None,
        )
        .await;
        assert_eq!(
            standard.status,
            StatusCode::OK,
            "{path}: {}",
            standard.text()
        );
        assert_eq!(fairy.status, StatusCode::OK, "{path}: {}", fairy.text());
        assert_ne!(
            standard.header(header::ETAG),
            fairy.header(header::ETAG),
            "{path}"
        );
        assert_ne!(
            standard.body, fairy.body,
            "{path}: a chancellor is not a circle"
        );
    }
}
