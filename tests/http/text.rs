//! Text at the request's boundary: a query or a body that is not UTF-8 is a 400 naming the
//! parameter and showing the bytes; one-line text (captions, titles, names) refuses line
//! and paragraph separators and bidirectional controls as it refuses line breaks; a
//! character no font draws is refused in every text parameter that is drawn; and no
//! sentence repeats such a character as itself, only as its code point.

use crate::support::{self, Answer, state};
use crate::support::{Kind, kind};
use axum::body::Body;
use axum::http::{Request, StatusCode, header};
use staunton::http::AppState;
use staunton::http::routes::ROUTES;
use std::sync::Arc;

fn encode(value: &str) -> String {
    form_urlencoded::byte_serialize(value.as_bytes()).collect()
}

async fn get(s: &Arc<AppState>, uri: &str) -> Answer {
    support::get_with(s, uri, header::ACCEPT, None).await
}

async fn post(s: &Arc<AppState>, uri: &str, kind: &str, body: &[u8]) -> Answer {
    let request = Request::post(uri)
        .header(header::CONTENT_TYPE, kind)
        .body(Body::from(body.to_vec()))
        .expect("request");
    support::send(s, request).await
}

/// The characters a sentence may only show by their code points: the separators, the
/// bidirectional controls, and a private-use character no font has.
const CODED: [char; 8] = [
    '\u{2028}',
    '\u{2029}',
    '\u{202E}',
    '\u{2066}',
    '\u{200F}',
    '\u{061C}',
    '\u{10FFFD}',
    '\u{FFFD}',
];

/// A 400 whose body starts with `starts` and holds each of `words`, and whose body and
/// headers hold none of [`CODED`] as itself (U+FFFD, the mark of text read lossily, either).
fn assert_refused(uri: &str, a: &Answer, starts: &str, words: &[&str]) {
    assert_eq!(a.status, StatusCode::BAD_REQUEST, "{uri}: {}", a.text());
    assert_eq!(a.header(header::CACHE_CONTROL), "no-store", "{uri}");
    let text = a.text();
    assert!(text.starts_with(starts), "{uri}: {text}");
    for w in words {
        assert!(text.contains(w), "{uri}: {text:?} lacks {w:?}");
    }
    assert!(
        !text.contains(CODED),
        "{uri}: a character repeated raw: {text:?}"
    );
    for (name, value) in &a.headers {
        let value = String::from_utf8_lossy(value.as_bytes());
        assert!(!value.contains(CODED), "{uri}: header {name} is {value:?}");
    }
}

/// What every request of a route carries (its position or game).
fn base(kind: Kind) -> &'static str {
    match kind {
        Kind::Piece => "piece=wK",
        Kind::Game | Kind::MoveList => "moves=e2e4",
        Kind::Article => "pgn=1.+e4+e5+*",
        _ => "fen=start",
    }
}

#[tokio::test]
async fn a_query_that_is_not_utf8_is_refused_on_every_route_naming_the_parameter() {
    let s = state();
    let mut routes = 0;
    for route in ROUTES {
        let reads = route.endpoint.reads();
        let Some(param) = reads
            .iter()
            .find(|p| !base(kind(route.path)).starts_with(p.name))
        else {
            continue; // a page, /health: no query is read
        };
        routes += 1;
        // A lone surrogate, an overlong `/`, Latin-1's é.
        for bad in ["%ED%A0%80", "%C0%AF", "%E9"] {
            let name = param.name;
            let uri = format!("{}?{}&{name}=caf{bad}", route.path, base(kind(route.path)));
            let a = get(&s, &uri).await;
            let starts =
                format!("{name} has a value that is not UTF-8 text: the bytes {bad} at byte 4");
            assert_refused(&uri, &a, &starts, &["(é is %C3%A9)"]);
        }
        let uri = format!("{}?{}&x%FF=1", route.path, base(kind(route.path)));
        let a = get(&s, &uri).await;
        assert_refused(
            &uri,
            &a,
            "a parameter's name that is not UTF-8 text: the bytes %FF",
            &[],
        );
    }
    assert!(
        routes > 10,
        "the image routes, the game routes, the article, …"
    );
    assert_eq!(s.renders(), 0, "nothing was drawn, so nothing was cached");
}

#[tokio::test]
async fn a_body_that_is_not_utf8_is_refused_showing_the_bytes() {
    let s = state();
    let body = b"[Event \"x\"]\n1. e4 {caf\xE9} e5 *".as_slice();
    for path in ["/game.json", "/game.gif", "/article.pdf"] {
        for kind in [
            "application/x-chess-pgn",
            "text/plain",
            "application/x-www-form-urlencoded",
        ] {
            let a = post(&s, path, kind, body).await;
            let uri = format!("POST {path} ({kind})");
            assert_refused(
                &uri,
                &a,
                "the request body is not UTF-8 text: the bytes %E9 at byte 23 (line 2)",
                &[],
            );
        }
    }
    let surrogate = post(&s, "/game.json", "text/plain", b"1. e4 {\xED\xA0\x80} *").await;
    assert_refused(
        "surrogate",
        &surrogate,
        "the request body",
        &["%ED%A0%80 at byte 8"],
    );
}

/// The one-line text parameters that are drawn, each with the route that draws it.
const LINES: [(&str, &str); 8] = [
    ("/diagram.svg?fen=start", "caption"),
    ("/card.png?fen=start", "title"),
    ("/card.png?fen=start", "subtitle"),
    ("/image.gif?fen=start", "white"),
    ("/image.gif?fen=start", "black"),
    ("/sheet.pdf?fen=start", "title"),
    ("/sheet.pdf?fen=start", "caption"),
    ("/sheet.pdf?fen=start", "solution"),
];

#[tokio::test]
async fn line_and_paragraph_separators_are_refused_like_line_breaks() {
    let s = state();
    for (path, name) in LINES {
        for (bad, code, what) in [
            (
                "a\u{2028}b",
                "U+2028 at character 2",
                "a line separator, which breaks the line",
            ),
            (
                "a\u{2029}b",
                "U+2029 at character 2",
                "a paragraph separator",
            ),
            ("ab\u{2028}", "U+2028 at character 3", "a line separator"),
        ] {
            let uri = format!("{path}&{name}={}", encode(bad));
            let a = get(&s, &uri).await;
            assert_refused(
                &uri,
                &a,
                name,
                &[&format!("has the character {code}, {what}")],
            );
        }
    }
    let pgn = encode("[White \"Anderssen\u{2028}\"]\n1. e4 *");
    let uri = format!("/article.pdf?pgn={pgn}");
    let a = get(&s, &uri).await;
    assert_refused(
        &uri,
        &a,
        "pgn has the character U+2028 at line 1, column 18, a line separator",
        &[],
    );
}

#[tokio::test]
async fn bidirectional_controls_are_refused_in_titles_names_and_captions() {
    let s = state();
    for (path, name) in LINES {
        for c in [
            '\u{202E}', '\u{202A}', '\u{2066}', '\u{2069}', '\u{200E}', '\u{200F}', '\u{061C}',
        ] {
            let uri = format!("{path}&{name}={}", encode(&format!("ab{c}cd")));
            let code = format!(
                "U+{:04X} at character 3, a bidirectional control",
                u32::from(c)
            );
            let a = get(&s, &uri).await;
            assert_refused(&uri, &a, name, &[&code]);
        }
    }
    // In a PGN the overrides and isolates are refused (a tag becomes an article's title);
    // the marks that names written right to left carry are kept.
    for path in ["/article.pdf", "/card.png", "/game.json"] {
        let pgn = encode("[White \"x\u{202E}fdp.exe\"]\n1. e4 *");
        let uri = format!("{path}?pgn={pgn}");
        let a = get(&s, &uri).await;
        assert_refused(
            &uri,
            &a,
            "pgn has the character U+202E at line 1, column 10, a bidirectional control",
            &[],
        );
    }
    let marked = encode("[White \"Name\u{200F}\"]\n1. e4 *");
    let a = get(&s, &format!("/game.json?pgn={marked}")).await;
    assert_eq!(a.status, StatusCode::OK, "{}", a.text());
}

#[tokio::test]
async fn a_character_no_font_has_is_refused_in_every_text_parameter_that_is_drawn() {
    let s = state();
    for (path, name) in LINES {
        let uri = format!("{path}&{name}={}", encode("ok \u{10FFFD}"));
        let a = get(&s, &uri).await;
        assert_refused(
            &uri,
            &a,
            name,
            &[
                "has the character U+10FFFD at character 4, which cannot be drawn: text is drawn in DejaVu Sans",
            ],
        );
    }
    let fine = get(
        &s,
        "/image.gif?fen=start&white=Carlsen&black=%C3%89lo%C3%AF",
    )
    .await;
    assert_eq!(fine.status, StatusCode::OK, "{}", fine.text());
}

#[tokio::test]
async fn sentences_show_what_they_cannot_repeat_as_code_points() {
    let s = state();
    // The text on a Fairy FEN square that no font draws: named by its code point.
    for (text, code) in [("'\u{10FFFD}", "U+10FFFD"), ("''a\u{F8FF}", "U+F8FF")] {
        let fen = encode(&format!("4k3/8/8/8/4{text}3/8/8/4K3"));
        for path in ["/diagram.svg", "/diagram.png", "/diagram.pdf", "/card.png"] {
            let uri = format!("{path}?fen={fen}&dialect=fairy");
            let a = get(&s, &uri).await;
            let says = format!("has the character {code} at character");
            assert_refused(
                &uri,
                &a,
                "fen text on e4 \"",
                &[&says, "which cannot be drawn"],
            );
            assert!(
                !a.text().contains(['\u{10FFFD}', '\u{F8FF}']),
                "{}",
                a.text()
            );
        }
    }
    // A FEN's error repeats the rank it stopped in, its odd characters tamed.
    let fen = encode("4k3/8/8/8/8/8/8/4K\u{202E}3");
    let a = get(&s, &format!("/diagram.svg?fen={fen}")).await;
    assert_refused("a FEN", &a, "fen \"", &[]);
    // A caption with a character no font has: named, not repeated.
    let a = get(&s, "/diagram.svg?fen=start&caption=%E5%BE%8C%F4%8F%BF%BD").await;
    let said = a.text();
    assert!(
        !said.contains('後') && said.contains("U+5F8C at character 1"),
        "{said}"
    );
}
