//! `/card.png`, share cards: goldens from a FEN and from a game's tags, validation of
//! `title` and `subtitle`, text kept in its column, the cache, unknown names, the API
//! description. `UPDATE_GOLDEN=1 cargo test --test http card::` rewrites the goldens.

use crate::common;
use crate::support::{self, Answer, state};

use axum::http::{StatusCode, header};
use staunton::http::AppState;
use staunton::render::share_card::{COLUMN_WIDTH, COLUMN_X, DIAGRAM_SIZE, HEIGHT, MARGIN, WIDTH};
use staunton::snapshot::Tolerance;
use std::sync::Arc;

async fn get(state: &Arc<AppState>, uri: &str) -> Answer {
    support::get_with(state, uri, header::IF_NONE_MATCH, None).await
}

/// `value` percent-encoded for a query.
pub fn encode(value: &str) -> String {
    value
        .bytes()
        .map(|b| match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'.' | b'_' | b'~' | b'/' => {
                (b as char).to_string()
            }
            _ => format!("%{b:02X}"),
        })
        .collect()
}

/// The query of the FEN golden.
pub const FEN_QUERY: &str = "fen=r1bqkb1r/pppp1Qpp/2n2n2/4p3/2B1P3/8/PPPP1PPP/RNB1K1NR_b_KQkq_-_0_4&lastMove=h5f7&title=Scholar%27s%20Mate&subtitle=White%20mates%20on%20move%20four%3A%20Qxf7%23%2C%20the%20first%20trap%20every%20club%20player%20learns";

/// The PGN of the game golden: Kasparov–Topalov, Wijk aan Zee 1999.
pub fn pgn() -> String {
    std::fs::read_to_string(common::fixture("games/kasparov_topalov.pgn")).expect("fixture")
}

/// `png` against the golden `name` (written instead with `UPDATE_GOLDEN=1`).
fn golden(name: &str, png: &[u8]) {
    let path = common::golden_dir().join(format!("{name}.png"));
    if std::env::var_os("UPDATE_GOLDEN").is_some_and(|v| v == "1") {
        std::fs::write(&path, png).expect("write golden");
        return;
    }
    let expected = common::decode(&std::fs::read(&path).expect("golden (UPDATE_GOLDEN=1)"));
    let actual = common::decode(png);
    let diff = common::compare(&expected, &actual, Tolerance::default());
    assert!(diff.matches(), "{name}: {diff:?}");
}

#[tokio::test]
async fn a_card_from_a_fen_with_a_title_and_subtitle() {
    let s = state();
    let a = get(&s, &format!("/card.png?{FEN_QUERY}")).await;
    assert_eq!(
        a.status,
        StatusCode::OK,
        "{}",
        String::from_utf8_lossy(&a.body)
    );
    assert_eq!(a.header(header::CONTENT_TYPE), "image/png");
    let img = common::decode(&a.body);
    assert_eq!(img.dimensions(), (WIDTH, HEIGHT));
    golden("card-fen", &a.body);
}

#[tokio::test]
async fn a_card_from_a_game_takes_its_tags() {
    let s = state();
    let uri = format!("/card.png?pgn={}&move=24w", encode(&pgn()));
    let a = get(&s, &uri).await;
    assert_eq!(
        a.status,
        StatusCode::OK,
        "{}",
        String::from_utf8_lossy(&a.body)
    );
    golden("card-pgn", &a.body);
    // The tags only fill what is not given.
    let titled = get(&s, &format!("{uri}&title=Kasparov%27s%20Immortal")).await;
    assert_eq!(titled.status, StatusCode::OK);
    assert_ne!(titled.body, a.body);
}

#[tokio::test]
async fn a_second_request_is_a_cache_hit_whatever_its_spelling() {
    let s = state();
    let a = get(&s, "/card.png?fen=start&title=Hello").await;
    let b = get(
        &s,
        "/card.png?FEN=start&title=%20Hello%20&size=900&orientation=white",
    )
    .await;
    assert_eq!((a.status, b.status), (StatusCode::OK, StatusCode::OK));
    assert_eq!(a.body, b.body);
    assert_eq!(a.header(header::ETAG), b.header(header::ETAG));
    assert_eq!(s.renders(), 1, "the second request is a cache hit");
    let c = get(&s, "/card.png?fen=start&title=Hello&theme=blue").await;
    assert_ne!(c.body, a.body);
    assert_eq!(s.renders(), 2, "another theme is another entry");
    // A card and the diagram of its position never share an entry.
    let d = get(&s, "/diagram.png?fen=start").await;
    assert_ne!(d.header(header::ETAG), a.header(header::ETAG));
}

#[tokio::test]
async fn a_bad_title_or_subtitle_is_a_400_naming_it() {
    let s = state();
    let long = "x".repeat(201);
    let cases = [
        (format!("title={long}"), "title", "at most 200 characters"),
        (
            format!("subtitle={long}"),
            "subtitle",
            "at most 200 characters",
        ),
        ("title=a%0Ab".to_string(), "title", "control characters"),
        (
            "subtitle=a%09b".to_string(),
            "subtitle",
            "control characters",
        ),
    ];
    for (query, name, says) in cases {
        let a = get(&s, &format!("/card.png?fen=start&{query}")).await;
        assert_eq!(a.status, StatusCode::BAD_REQUEST, "{query}");
        let text = a.text();
        assert!(text.starts_with(&format!("{name} \"")), "{text}");
        assert!(text.contains(says), "{text}");
        assert!(text.len() < 300, "the value is shortened: {text}");
    }
    for (query, name, says) in [
        (
            "title=%E5%BE%8C",
            "title",
            "U+5F8C at character 1, which cannot be drawn",
        ),
        ("caption=hello", "caption", "title and subtitle"),
        ("background=auto", "background", "only an SVG"),
    ] {
        let a = get(&s, &format!("/card.png?fen=start&{query}")).await;
        assert_eq!(a.status, StatusCode::BAD_REQUEST, "{query}");
        assert!(a.text().contains(says), "{}", a.text());
        assert!(a.text().starts_with(name) || a.text().contains(&format!("{name}=")));
    }
    let bad_fen = get(&s, "/card.png?fen=nonsense&title=T").await;
    assert_eq!(bad_fen.status, StatusCode::BAD_REQUEST);
    assert!(bad_fen.text().starts_with("fen "), "{}", bad_fen.text());
    assert_eq!(s.renders(), 0);
}

#[tokio::test]
async fn a_very_long_title_stays_inside_its_column() {
    let s = state();
    let word = "Unbelievably ".repeat(15);
    let title = format!("{word}{}", "W".repeat(200 - word.len()));
    let subtitle = "M".repeat(200);
    let uri = format!(
        "/card.png?fen=start&title={}&subtitle={}",
        encode(&title),
        encode(&subtitle)
    );
    let a = get(&s, &uri).await;
    assert_eq!(a.status, StatusCode::OK, "{}", a.text());
    let img = common::decode(&a.body);
    let page = *img.get_pixel(WIDTH - 1, 0);
    assert_eq!(page.0, [255, 255, 255, 255], "a white page by default");
    let gutter = MARGIN + DIAGRAM_SIZE..COLUMN_X;
    let right = COLUMN_X + COLUMN_WIDTH..WIDTH;
    let mut inked = 0;
    for (x, y, p) in img.enumerate_pixels() {
        if gutter.contains(&x) || right.contains(&x) {
            assert_eq!(*p, page, "({x}, {y}) is outside the column");
        } else if x >= COLUMN_X && *p != page {
            inked += 1;
        }
    }
    assert!(inked > 5000, "{inked} pixels of text");
}

#[tokio::test]
async fn unknown_names_are_warned_about_or_refused() {
    let s = state();
    let a = get(&s, "/card.png?fen=start&size=900&titel=x").await;
    assert_eq!(a.status, StatusCode::OK);
    let warning = a.header("staunton-warning");
    assert!(warning.contains("size: unknown parameter"), "{warning}");
    assert!(warning.contains("titel: did you mean title?"), "{warning}");
    let strict = get(&s, "/card.png?fen=start&titel=x&strict=1").await;
    assert_eq!(strict.status, StatusCode::BAD_REQUEST);
    assert!(
        strict.text().contains("did you mean title?"),
        "{}",
        strict.text()
    );
}

#[tokio::test]
async fn an_img_request_for_a_bad_card_gets_an_error_image() {
    let s = state();
    let a = support::get_with(
        &s,
        "/card.png?fen=nonsense",
        header::ACCEPT,
        Some("image/avif,image/webp,image/*,*/*;q=0.8"),
    )
    .await;
    assert_eq!(a.status, StatusCode::BAD_REQUEST);
    assert_eq!(a.header(header::CONTENT_TYPE), "image/png");
    assert_eq!(common::decode(&a.body).dimensions(), (HEIGHT, HEIGHT));
}

#[tokio::test]
async fn the_api_description_lists_the_card_and_its_parameters() {
    let s = state();
    let doc: serde_json::Value =
        serde_json::from_slice(&get(&s, "/openapi.json").await.body).expect("JSON");
    let params = doc["paths"]["/card.png"]["get"]["parameters"]
        .as_array()
        .expect("parameters")
        .clone();
    let named = |n: &str| params.iter().find(|p| p["name"] == n).cloned();
    assert_eq!(named("title").expect("title")["schema"]["maxLength"], 200);
    assert!(named("subtitle").is_some() && named("pgn").is_some());
    assert!(named("theme").is_some() && named("arrows").is_some());
    assert!(named("size").is_none(), "the card decides the size");
}

#[tokio::test]
async fn a_card_on_a_dark_page_is_dark_with_light_text() {
    let s = state();
    let a = get(&s, &format!("/card.png?{FEN_QUERY}&background=dark")).await;
    assert_eq!(
        a.status,
        StatusCode::OK,
        "{}",
        String::from_utf8_lossy(&a.body)
    );
    let img = common::decode(&a.body);
    assert_eq!(img.get_pixel(WIDTH - 4, 4).0, [0x1e, 0x1f, 0x22, 255]);
    golden("card-dark", &a.body);
}

#[tokio::test]
async fn a_card_reads_its_game_in_the_letters_of_lang() {
    let s = state();
    // German letters: `Sf3` is a knight's move; in English letters it is no move at all.
    let german = encode("1. e4 e5 2. Sf3 Sc6 *");
    let a = get(&s, &format!("/card.png?pgn={german}&lang=de")).await;
    assert_eq!(a.status, StatusCode::OK, "{}", a.text());
    let english = get(&s, &format!("/card.png?pgn={german}")).await;
    assert_eq!(english.status, StatusCode::BAD_REQUEST);
    assert_eq!(
        a.optional("staunton-warning"),
        None,
        "lang is a card's parameter"
    );
    // `1. Rf1` is the rook's move in English letters and the king's in Italian: two cards.
    let both = encode("[FEN \"4k3/8/8/8/8/8/8/4K2R w K - 0 1\"]\n\n1. Rf1 *");
    let en = get(&s, &format!("/card.png?pgn={both}")).await;
    let it = get(&s, &format!("/card.png?pgn={both}&lang=it")).await;
    assert_eq!((en.status, it.status), (StatusCode::OK, StatusCode::OK));
    assert_ne!(en.header(header::ETAG), it.header(header::ETAG));
    assert_ne!(en.body, it.body);
}
