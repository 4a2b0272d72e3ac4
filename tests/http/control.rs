//! Control characters in user text (NUL, ESC, DEL, C1, U+FFFF): refused with one sentence
//! that names the parameter and the character, or kept out of the answer; never raw in an
//! SVG, a header or an error's body, on any route, in any parameter.

use crate::support::{self, Answer, state};
use crate::support::{Kind, kind};
use axum::http::{StatusCode, header};
use staunton::http::AppState;
use staunton::http::routes::ROUTES;
use std::sync::Arc;

/// A value with a NUL, an ESC, a DEL, a C1 control and U+FFFF in it.
const BAD: &str = "a\u{0}b\u{1b}c\u{7f}d\u{85}e\u{FFFF}";

/// Whether `text` holds one of the characters of [`BAD`].
fn raw(text: &str) -> bool {
    text.chars()
        .any(|c| matches!(c, '\u{0}' | '\u{1b}' | '\u{7f}' | '\u{85}' | '\u{FFFF}'))
}

fn encode(value: &str) -> String {
    form_urlencoded::byte_serialize(value.as_bytes()).collect()
}

async fn get(s: &Arc<AppState>, uri: &str) -> Answer {
    support::get_with(s, uri, header::ACCEPT, None).await
}

/// Nothing of [`BAD`] in `answer`'s headers or (when it is text) its body; an SVG parses.
fn assert_tamed(uri: &str, answer: &Answer) {
    for (name, value) in &answer.headers {
        let bytes = value.as_bytes();
        let text = String::from_utf8_lossy(bytes);
        assert!(!raw(&text), "{uri}: header {name} is {text:?}");
    }
    let kind = answer
        .optional("content-type")
        .unwrap_or_default()
        .to_string();
    let texty = ["text/", "svg", "json", "html"]
        .iter()
        .any(|t| kind.contains(t));
    if !texty {
        return;
    }
    let body = String::from_utf8_lossy(&answer.body);
    assert!(
        !raw(&body),
        "{uri}: the body repeats a control character: {body:?}"
    );
    if kind.contains("svg") && answer.status == StatusCode::OK {
        let tree = usvg::Tree::from_str(&body, &usvg::Options::default());
        assert!(
            tree.is_ok(),
            "{uri}: not a well-formed SVG: {:?}",
            tree.err()
        );
    }
}

#[tokio::test]
async fn fairy_text_with_a_control_character_is_refused_naming_fen() {
    let s = state();
    for (text, code) in [
        ("'\u{0}", "U+0000"),
        ("'\u{FFFF}", "U+FFFF"),
        ("''a\u{1b}", "U+001B"),
        ("'\u{9f}", "U+009F"),
    ] {
        let fen = encode(&format!("4k3/8/8/8/4{text}3/8/8/4K3"));
        for path in ["/diagram.svg", "/diagram.png", "/describe", "/card.png"] {
            let uri = format!("{path}?fen={fen}&dialect=fairy");
            let answer = get(&s, &uri).await;
            assert_eq!(answer.status, StatusCode::BAD_REQUEST, "{uri}");
            let body = answer.text();
            assert!(body.starts_with("fen \""), "{body}");
            assert!(
                body.contains(code) && body.contains("not printable"),
                "{body}"
            );
            assert_tamed(&uri, &answer);
        }
    }
    let fine = get(&s, "/diagram.svg?fen=4k3/8/8/8/4'A3/8/8/4K3&dialect=fairy").await;
    assert_eq!(fine.status, StatusCode::OK, "printable text is drawn");
}

#[tokio::test]
async fn describe_never_echoes_nul_or_esc() {
    let s = state();
    let game = encode("[White \"a\u{1b}b\"]\n1. e4 {c\u{0}d} e5 *");
    for query in [
        format!("fen={}", encode("4k3/8/\u{0}/8/8/8/8/4K3")),
        format!(
            "fen={}&dialect=fairy",
            encode("4k3/8/8/8/4'\u{1b}3/8/8/4K3")
        ),
        format!("pgn={game}"),
        format!("moves={}", encode("e2e4\u{1b}")),
        format!("fen=start&lang={}", encode(BAD)),
        format!("moves=e2e4&ply={}", encode(BAD)),
        format!("moves=e2e4&move={}", encode(BAD)),
    ] {
        let uri = format!("/describe?{query}");
        let answer = get(&s, &uri).await;
        assert_eq!(answer.status, StatusCode::BAD_REQUEST, "{uri}");
        assert_tamed(&uri, &answer);
    }
    let uri = format!("/describe?pgn={game}");
    let body = get(&s, &uri).await.text();
    assert!(
        body.starts_with("pgn has the character U+001B at line 1, column 10"),
        "{body}"
    );
}

/// What every request of a route carries, less what `name` stands in for.
fn base(kind: Kind, name: &str) -> Vec<(&'static str, &'static str)> {
    let game = ["fen", "pgn", "moves"].contains(&name);
    match kind {
        Kind::Piece => vec![("piece", "wK")],
        _ if game => Vec::new(),
        Kind::Game | Kind::MoveList => vec![("moves", "e2e4 e7e5")],
        Kind::Article => vec![("pgn", "1. e4 e5 2. Nf3 {[#]} Nc6 *")],
        _ => vec![("fen", "start")],
    }
}

#[tokio::test]
async fn no_parameter_of_any_route_carries_a_control_character_into_its_answer() {
    let s = state();
    for route in ROUTES {
        let reads = route.endpoint.reads();
        for param in reads.into_iter().chain(staunton::request::SERVICE_PARAMS) {
            let mut query: String = base(kind(route.path), param.name)
                .iter()
                .map(|(k, v)| format!("{k}={}&", encode(v)))
                .collect();
            query.push_str(&format!("{}={}", param.name, encode(BAD)));
            let uri = format!("{}?{query}", route.path);
            let answer = get(&s, &uri).await;
            assert_tamed(&uri, &answer);
        }
    }
}

#[tokio::test]
async fn text_parameters_with_control_characters_are_refused_naming_them() {
    let s = state();
    for (path, name) in [
        ("/diagram.svg?fen=start", "caption"),
        ("/card.png?fen=start", "title"),
        ("/card.png?fen=start", "subtitle"),
        ("/image.gif?fen=start", "white"),
        ("/image.gif?fen=start", "black"),
        ("/sheet.svg?fen=start", "title"),
        ("/sheet.svg?fen=start", "caption"),
        ("/sheet.svg?fen=start", "solution"),
    ] {
        for bad in ["x\u{0}y", "x\u{1b}y", "x\u{FFFF}y", "x\u{9f}y", "x\ty"] {
            let uri = format!("{path}&{name}={}", encode(bad));
            let answer = get(&s, &uri).await;
            assert_eq!(answer.status, StatusCode::BAD_REQUEST, "{uri}");
            let body = answer.text();
            assert!(body.starts_with(name), "{uri}: {body}");
            assert!(body.contains("not printable"), "{uri}: {body}");
            assert_tamed(&uri, &answer);
        }
    }
}

#[tokio::test]
async fn a_pgn_with_a_control_character_is_refused_where_it_stands() {
    let s = state();
    let pgn = encode("[Event \"x\"]\n[White \"a\u{0}b\"]\n1. e4 e5 *");
    for path in [
        "/diagram.svg",
        "/game.gif",
        "/game.json",
        "/card.png",
        "/article.html",
        "/image.gif",
    ] {
        let uri = format!("{path}?pgn={pgn}");
        let answer = get(&s, &uri).await;
        assert_eq!(answer.status, StatusCode::BAD_REQUEST, "{uri}");
        assert_eq!(
            answer.text().trim(),
            "pgn has the character U+0000 at line 2, column 10, which is not printable: a PGN is text, and tabs and line breaks are its only control characters",
            "{uri}"
        );
    }
    let tabbed = encode("[White \"a\tb\"]\n1.\te4\te5 *");
    let answer = get(&s, &format!("/card.png?pgn={tabbed}")).await;
    assert_eq!(answer.status, StatusCode::OK, "tabs are PGN's whitespace");
}

#[test]
fn a_title_with_a_control_character_still_makes_well_formed_svg() {
    // A library caller can put any text on a square; the SVG writer keeps XML well-formed.
    use staunton::chess::fairy::{Figure, FigureKind, Side, SquareText, Turn};
    let mut position = staunton::Position::empty(8);
    let text = SquareText::new("\u{0}\u{FFFF}").expect("two characters");
    let figure = Figure {
        shape: FigureKind::Text(text),
        side: Side::White,
        turn: Turn::None,
    };
    let e4 = staunton::Square::parse("e4", staunton::BoardSize::CHESS).expect("square");
    position.set_figure(e4, figure);
    let options = staunton::RenderOptions::default();
    let renderer = staunton::Renderer::default();
    let svg = renderer
        .render(&position, &options, staunton::Format::Svg)
        .expect("renders");
    let svg = String::from_utf8(svg).expect("utf-8");
    assert!(!raw(&svg), "{svg}");
    assert!(usvg::Tree::from_str(&svg, &usvg::Options::default()).is_ok());
}
