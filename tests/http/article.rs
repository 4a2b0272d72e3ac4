//! `/article.pdf`, `/article.html`, `/article.svg`: an annotated game typeset, by GET with
//! `pgn` and by POST; the same bytes either way and a cache hit the second time; each bad
//! parameter, game or limit a 400 naming it.

use crate::card::encode;
use crate::common;
use crate::support::{self, Answer, state};

use axum::body::Body;
use axum::http::{Request, StatusCode, header};
use staunton::http::AppState;
use std::sync::Arc;

async fn get(state: &Arc<AppState>, uri: &str) -> Answer {
    support::get_with(state, uri, header::IF_NONE_MATCH, None).await
}

async fn post(state: &Arc<AppState>, uri: &str, body: &str) -> Answer {
    let request = Request::post(uri)
        .header(header::CONTENT_TYPE, "application/x-chess-pgn")
        .body(Body::from(body.to_string()))
        .expect("request");
    support::send(state, request).await
}

fn opera() -> String {
    std::fs::read_to_string(common::fixture("articles/opera.pgn")).expect("fixture")
}

fn bad(a: &Answer, words: &[&str]) {
    assert_eq!(a.status, StatusCode::BAD_REQUEST, "{}", a.text());
    let text = a.text();
    assert_eq!(text.trim_end().lines().count(), 1, "one sentence: {text}");
    for w in words {
        assert!(text.contains(w), "{text:?} lacks {w:?}");
    }
}

#[tokio::test]
async fn an_article_by_post_and_by_get_is_the_same_and_cached() {
    let s = state();
    let posted = post(&s, "/article.pdf", &opera()).await;
    assert_eq!(posted.status, StatusCode::OK, "{}", posted.text());
    assert_eq!(posted.header(header::CONTENT_TYPE), "application/pdf");
    assert!(posted.body.starts_with(b"%PDF-"));
    assert_eq!(posted.header("x-article-diagrams"), "3");
    assert_eq!(posted.header("x-article-pages"), "2");
    let got = get(&s, &format!("/article.pdf?pgn={}", encode(&opera()))).await;
    assert_eq!(got.body, posted.body, "GET and POST give one PDF");
    assert_eq!(s.renders(), 1, "the GET was a cache hit");
    let html = post(
        &s,
        "/article.html?columns=2&lang=de&notation=letters",
        &opera(),
    )
    .await;
    assert_eq!(html.status, StatusCode::OK, "{}", html.text());
    assert_eq!(
        html.header(header::CONTENT_TYPE),
        "text/html; charset=utf-8"
    );
    let text = html.text();
    assert!(
        text.contains("<html lang=\"de\">") && text.contains("<b>2.Sf3</b>"),
        "German"
    );
    assert!(text.contains("class=\"columns\""), "two columns");
    let svg = post(&s, "/article.svg?page=letter&size=180&end=1", &opera()).await;
    assert_eq!(svg.status, StatusCode::OK, "{}", svg.text());
    assert!(
        svg.text()
            .starts_with("<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"612pt\"")
    );
}

#[tokio::test]
async fn bad_articles_are_400s_naming_what_is_wrong() {
    let s = state();
    bad(&get(&s, "/article.pdf").await, &["pgn is missing"]);
    let illegal = post(&s, "/article.pdf", "1. e4 e5 2. Ke3 *").await;
    bad(&illegal, &["pgn: 2. Ke3", "White"]);
    bad(
        &post(&s, "/article.pdf?columns=3", &opera()).await,
        &["columns", "3"],
    );
    bad(
        &post(&s, "/article.pdf?size=20", &opera()).await,
        &["size", "20", "96 to 480"],
    );
    bad(
        &post(&s, "/article.pdf?every=0", &opera()).await,
        &["every", "0"],
    );
    bad(
        &post(&s, "/article.pdf?notation=runes", &opera()).await,
        &["notation", "runes"],
    );
    bad(
        &post(&s, "/article.pdf?page=a5", &opera()).await,
        &["page", "a5", "a4 or letter"],
    );
    let arrows = post(&s, "/article.pdf", "1. e4 {[%cal Gz9e4]} e5 *").await;
    bad(
        &arrows,
        &["pgn: the comment after 1. e4 has bad marks: [%cal] item \"Gz9e4\""],
    );
    let markers = post(&s, "/article.pdf", "1. e4 {[%mark blob:e4]} e5 *").await;
    bad(&markers, &["blob"]);
    let dots = (0..41)
        .map(|i| format!("dot:{}{}", char::from(b'a' + i % 8), i / 8 + 1))
        .collect::<Vec<_>>()
        .join(",");
    let crowded = format!("1. e4 {{[%mark {dots}][%mark {dots}]}} e5 *");
    let many = post(&s, "/article.pdf", &crowded).await;
    bad(
        &many,
        &[
            "after 1. e4",
            "[%mark] commands",
            "82 markers",
            "at most 80",
        ],
    );
    let many = post(
        &s,
        "/article.pdf?every=1",
        &"1. Nf3 Nf6 2. Ng1 Ng8 ".repeat(20),
    )
    .await;
    bad(&many, &["80 diagrams", "at most 64"]);
    let deep = format!("1. e4 {}e5{} *", "(1. d4 ".repeat(10), ")".repeat(10));
    bad(&post(&s, "/article.pdf", &deep).await, &["pgn:"]);
    assert_eq!(s.renders(), 0, "nothing bad was drawn");
}

#[tokio::test]
async fn every_game_route_reads_the_piece_letters_of_lang() {
    let s = state();
    let italian = encode("1. e4 c5 2. Cf3 d6 3. d4 cxd4 4. Cxd4 Cf6 5. Cc3 a6");
    let read = get(&s, &format!("/describe?pgn={italian}&lang=it")).await;
    assert_eq!(read.status, StatusCode::OK, "{}", read.text());
    assert!(read.text().contains("cavalli c3 e d4"), "{}", read.text());
    // Without lang the letters are English, where C is no piece.
    bad(
        &get(&s, &format!("/diagram?pgn={italian}")).await,
        &["pgn: 2. Cf3"],
    );
    // English SAN still reads with another language's captions.
    let english = get(
        &s,
        &format!("/diagram?pgn={}&lang=it", encode("1. e4 c5 2. Nf3")),
    )
    .await;
    assert_eq!(english.status, StatusCode::OK, "{}", english.text());
    let german = post(&s, "/game.gif?lang=de", "1. e4 e5 2. Sf3 Sc6 3. Lb5 a6 *").await;
    assert_eq!(german.status, StatusCode::OK, "{}", german.text());
}
