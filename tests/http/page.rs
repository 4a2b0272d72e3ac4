//! The page around a diagram (`background`, `labels`, `caption`) through the router: what
//! each format carries, and the one-sentence 400 for every bad value.

use crate::common;
use crate::support::{self, Answer, state};
use axum::http::{StatusCode, header};
use staunton::http::AppState;
use std::sync::Arc;

const FEN: &str = "r1bqkb1r/pppp1ppp/2n2n2/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR_w_KQkq_-_4_4";
const PGN: &str = "1.e4+e5+2.Bc4+Nc6+3.Qh5+Nf6+4.Qxf7%23";

async fn get(state: &Arc<AppState>, uri: &str) -> Answer {
    support::get_with(state, uri, header::IF_NONE_MATCH, None).await
}

/// A 400 whose sentence names `param` and says `words`.
async fn refused(s: &Arc<AppState>, uri: &str, param: &str, words: &str) {
    let answer = get(s, uri).await;
    let text = answer.text();
    assert_eq!(answer.status, StatusCode::BAD_REQUEST, "{uri}: {text}");
    assert!(
        text.starts_with(param) || text.contains(&format!("{param}=")),
        "{uri}: {text}"
    );
    assert!(text.contains(words), "{uri}: {text}");
    assert_eq!(
        text.trim_end().matches(". ").count(),
        0,
        "one sentence: {text}"
    );
}

#[tokio::test]
async fn bad_values_are_400s_that_name_the_parameter() {
    let s = state();
    let long = "x".repeat(201);
    let cases = [
        (
            format!("/diagram.png?fen={FEN}&caption={long}"),
            "caption",
            "at most 200",
        ),
        (
            format!("/diagram.png?fen={FEN}&caption=a%0Ab"),
            "caption",
            "the character U+000A at character 2, which is not printable",
        ),
        (
            format!("/diagram.png?fen={FEN}&caption=a%07b"),
            "caption",
            "U+0007",
        ),
        (
            format!("/diagram.png?fen={FEN}&caption=%E5%BE%8C"),
            "caption",
            "the character U+5F8C at character 1, which cannot be drawn: text is drawn in DejaVu Sans",
        ),
        (
            format!("/diagram.png?fen={FEN}&caption=move"),
            "caption",
            "needs a game",
        ),
        (
            format!("/diagram.png?pgn={PGN}&ply=0&caption=move"),
            "caption",
            "start of the game",
        ),
        (
            format!("/diagram.png?fen={FEN}&background=neon"),
            "background",
            "expected light, dark",
        ),
        (
            format!("/diagram.png?fen={FEN}&background=%23ggg"),
            "background",
            "#rgb or #rrggbb",
        ),
        (
            format!("/diagram.png?fen={FEN}&labels=blue"),
            "labels",
            "#rgb or #rrggbb",
        ),
        (
            format!("/diagram.png?fen={FEN}&background=auto"),
            "background",
            "only an SVG",
        ),
        (
            format!("/diagram.gif?fen={FEN}&background=transparent"),
            "background",
            "PNG, SVG or PDF",
        ),
        (
            format!("/game.gif?pgn={PGN}&background=transparent"),
            "background",
            "animation",
        ),
        (
            format!("/game.gif?pgn={PGN}&caption=hello"),
            "caption",
            "one diagram",
        ),
    ];
    for (uri, param, words) in cases {
        refused(&s, &uri, param, words).await;
    }
}

/// The straight RGBA pixel at (`x`, `y`) of a PNG.
fn pixel(png: &[u8], x: u32, y: u32) -> [u8; 4] {
    common::decode(png).get_pixel(x, y).0
}

#[tokio::test]
async fn backgrounds_reach_every_pixel_outside_the_squares() {
    let s = state();
    let png = |query: String| {
        let s = s.clone();
        async move {
            let answer = get(&s, &format!("/diagram.png?fen={FEN}&size=300&{query}")).await;
            assert_eq!(answer.status, StatusCode::OK, "{query}: {}", answer.text());
            answer.body
        }
    };
    assert_eq!(
        pixel(&png("background=transparent".into()).await, 2, 2)[3],
        0
    );
    assert_eq!(
        pixel(&png("background=dark".into()).await, 2, 2),
        [0x1e, 0x1f, 0x22, 255]
    );
    assert_eq!(
        pixel(&png("background=%23335577".into()).await, 2, 2),
        [0x33, 0x55, 0x77, 255]
    );
    // The squares keep their colour: the middle of a light square (d5 at 300 px).
    let dark = png("background=dark".into()).await;
    let plain = png(String::new()).await;
    assert_eq!(pixel(&dark, 127, 127), pixel(&plain, 127, 127));
    // With pockets the strips above and below are the page's colour too.
    let pockets = "r2q1rk1/ppp2ppp/2n1bn2/2b1p3/3pP3/3P1N~Pp/PPP1NPB1/R1BQ1RK1[QNPPPbbr]_b_-_-_0_1";
    let answer = get(
        &s,
        &format!("/diagram.png?fen={pockets}&size=300&background=dark"),
    )
    .await;
    let image = common::decode(&answer.body);
    let bottom = image.height() - 1;
    assert_eq!(image.get_pixel(299, bottom).0, [0x1e, 0x1f, 0x22, 255]);
}

#[tokio::test]
async fn an_svg_with_background_auto_carries_both_pages() {
    let s = state();
    let answer = get(
        &s,
        &format!("/diagram.svg?fen={FEN}&background=auto&caption=fen"),
    )
    .await;
    assert_eq!(answer.status, StatusCode::OK, "{}", answer.text());
    let svg = answer.text();
    assert!(
        svg.contains(
            "<style>@media (prefers-color-scheme:dark){.pm{fill:#1e1f22}.pl{fill:#e6e0d6}}</style>"
        ),
        "{svg}"
    );
    assert!(
        svg.contains(r#"<rect class="pm""#),
        "the margin follows the page"
    );
    assert!(
        svg.matches(r#"<path class="pl""#).count() >= 2,
        "labels and caption follow"
    );
    assert!(
        svg.contains(&format!("<desc>{}</desc>", FEN.replace('_', " "))),
        "{svg}"
    );
    // The same request without auto has no style for the page and a plain margin.
    let plain = get(&s, &format!("/diagram.svg?fen={FEN}&caption=fen"))
        .await
        .text();
    assert!(!plain.contains("prefers-color-scheme") && !plain.contains("class=\"pl\""));
}

#[tokio::test]
async fn a_caption_makes_every_image_format_taller_by_its_band() {
    let s = state();
    let base = format!("/diagram?pgn={PGN}&size=300&caption=move&lang=de");
    let png = get(&s, &format!("{base}&format=png")).await;
    assert_eq!(png.status, StatusCode::OK, "{}", png.text());
    let image = common::decode(&png.body);
    assert_eq!(image.width(), 300);
    assert!(
        image.height() > 310 && image.height() < 340,
        "{}",
        image.height()
    );
    let gif = get(&s, &format!("{base}&format=gif")).await;
    let (w, h) = (
        u16::from_le_bytes([gif.body[6], gif.body[7]]),
        u16::from_le_bytes([gif.body[8], gif.body[9]]),
    );
    assert_eq!((u32::from(w), u32::from(h)), image.dimensions());
    let svg = get(&s, &format!("{base}&format=svg")).await.text();
    assert!(svg.contains("<desc>Nach 4. Dxf7#</desc>"), "{svg}");
    assert!(svg.contains(&format!(r#"height="{}""#, image.height())));
    let pdf = get(&s, &format!("{base}&format=pdf")).await;
    assert_eq!(pdf.status, StatusCode::OK);
    // Ink in the band: the caption is drawn, in the labels' colour.
    let band = (image.height() - 20..image.height())
        .flat_map(|y| (0..300).map(move |x| (x, y)))
        .filter(|&(x, y)| image.get_pixel(x, y).0[0] < 128)
        .count();
    assert!(band > 50, "{band} dark pixels in the caption's band");
}

#[tokio::test]
async fn captions_are_part_of_the_cache_key() {
    let s = state();
    let a = get(&s, &format!("/diagram.png?fen={FEN}&caption=one")).await;
    let b = get(&s, &format!("/diagram.png?fen={FEN}&caption=two")).await;
    assert_ne!(a.body, b.body);
    assert_ne!(a.header(header::ETAG), b.header(header::ETAG));
}
