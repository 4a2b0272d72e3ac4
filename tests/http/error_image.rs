//! Errors a page can show: a 4xx of an image route as an image of the requested format
//! and size when the client prefers images (a browser's `<img>`) or asks `errors=image`;
//! text for everyone else.

use crate::common;
use crate::support::{self, Answer, state};

use axum::http::{StatusCode, header};
use staunton::http::AppState;
use std::sync::Arc;

/// What Chromium sends for `<img>`.
const CHROMIUM_IMG: &str = "image/avif,image/webp,image/apng,image/svg+xml,image/*,*/*;q=0.8";
/// What Firefox sends for `<img>`.
const FIREFOX_IMG: &str = "image/avif,image/webp,image/png,image/svg+xml,image/*;q=0.8,*/*;q=0.5";
/// What a browser sends when the URL is opened in a tab.
const TAB: &str = "text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,image/apng,*/*;q=0.8";
/// What curl sends.
const CURL: &str = "*/*";

async fn get(state: &Arc<AppState>, uri: &str, accept: Option<&str>) -> Answer {
    support::get_with(state, uri, header::ACCEPT, accept).await
}

/// The width and height `body` decodes to as `content_type`, and whether it looks like the
/// card: its accent red at the left edge's middle (the frame), and mostly its light ground.
fn decoded(content_type: &str, body: &[u8]) -> (u32, u32, bool) {
    let rgba = match content_type {
        "image/png" => common::decode(body),
        "image/svg+xml" => common::rasterise_svg(std::str::from_utf8(body).expect("utf-8 SVG")),
        "image/webp" => image::load_from_memory_with_format(body, image::ImageFormat::WebP)
            .expect("the WebP decodes")
            .to_rgba8(),
        "image/gif" => {
            let mut options = gif::DecodeOptions::new();
            options.set_color_output(gif::ColorOutput::RGBA);
            let mut decoder = options.read_info(body).expect("the GIF decodes");
            let frame = decoder
                .read_next_frame()
                .expect("a frame")
                .expect("one frame");
            image::RgbaImage::from_raw(
                u32::from(frame.width),
                u32::from(frame.height),
                frame.buffer.to_vec(),
            )
            .expect("frame pixels")
        }
        other => panic!("not an image type: {other}"),
    };
    let (w, h) = rgba.dimensions();
    let edge = rgba.get_pixel(0, h / 2).0;
    let red = edge[0] > 150 && edge[1] < 80 && edge[2] < 80;
    let light = rgba
        .pixels()
        .filter(|p| p.0.iter().take(3).all(|&c| c > 220))
        .count();
    (w, h, red && light * 2 > (w * h) as usize)
}

/// The routes of each image format, each with a bad request and its size.
const BAD: &[(&str, &str, u32)] = &[
    ("/diagram?fen=bad&size=300", "image/png", 300),
    (
        "/diagram.png?fen=start&size=180&arrows=Xe2",
        "image/png",
        180,
    ),
    ("/diagram.svg?fen=bad&size=300", "image/svg+xml", 300),
    ("/diagram?format=svg&fen=bad&size=240", "image/svg+xml", 240),
    (
        "/board.svg?fen=start&orientation=sideways&size=160",
        "image/svg+xml",
        160,
    ),
    ("/diagram.gif?fen=bad&size=200", "image/gif", 200),
    ("/image.gif?fen=start&theme=nope&size=256", "image/gif", 256),
    ("/game.gif?moves=e4%20e5%20Ke3&size=220", "image/gif", 220),
    ("/game.png?moves=e4%20e5%20Ke3&size=220", "image/png", 220),
    ("/diagram.webp?fen=bad&size=200", "image/webp", 200),
    ("/diagram?fen=start&size=2", "image/png", 16),
];

#[tokio::test]
async fn a_browsers_img_gets_its_error_as_an_image_of_the_requested_format_and_size() {
    let s = state();
    for &(uri, kind, size) in BAD {
        for accept in [CHROMIUM_IMG, FIREFOX_IMG] {
            let a = get(&s, uri, Some(accept)).await;
            assert!(a.status.is_client_error(), "{uri}: {}", a.status);
            assert_eq!(a.header("content-type"), kind, "{uri} {accept}");
            assert_eq!(a.header("cache-control"), "no-store", "{uri}");
            assert_eq!(a.header("vary"), "accept", "{uri}");
            assert_eq!(a.header("x-content-type-options"), "nosniff", "{uri}");
            let (w, h, card) = decoded(kind, &a.body);
            assert_eq!((w, h), (size, size), "{uri} {accept}");
            assert!(card, "{uri}: the card's frame and ground");
            // The sentence is still readable by programs.
            let sentence = a.header("staunton-error");
            assert!(sentence.contains(" is not "), "{uri}: {sentence}");
        }
    }
}

#[tokio::test]
async fn curl_and_a_browser_tab_keep_the_text_answer() {
    let s = state();
    for &(uri, _, _) in BAD {
        for accept in [Some(CURL), Some(TAB), None] {
            let a = get(&s, uri, accept).await;
            assert!(a.status.is_client_error(), "{uri}");
            assert_eq!(
                a.header("content-type"),
                "text/plain; charset=utf-8",
                "{uri} {accept:?}"
            );
            assert_eq!(a.header("cache-control"), "no-store");
            assert_eq!(a.header("vary"), "accept", "{uri}");
            let text = String::from_utf8(a.body.clone()).expect("utf-8");
            assert_eq!(text.trim_end(), a.header("staunton-error"), "{uri}");
        }
    }
}

#[tokio::test]
async fn errors_image_asks_for_the_image_whatever_accept_says_and_errors_text_for_text() {
    let s = state();
    for &(uri, kind, size) in BAD {
        let forced = format!("{uri}&errors=image");
        for accept in [Some(CURL), None] {
            let a = get(&s, &forced, accept).await;
            assert!(a.status.is_client_error(), "{forced}");
            assert_eq!(a.header("content-type"), kind, "{forced}");
            assert_eq!(a.header("cache-control"), "no-store");
            assert_eq!(decoded(kind, &a.body).0, size, "{forced}");
        }
        let text = get(&s, &format!("{uri}&errors=text"), Some(CHROMIUM_IMG)).await;
        assert_eq!(text.header("content-type"), "text/plain; charset=utf-8");
    }
}

#[tokio::test]
async fn the_status_stays_and_the_card_is_the_same_when_asked_twice() {
    let s = state();
    let uri = "/diagram?fen=bad&size=300";
    let text = get(&s, uri, Some(CURL)).await;
    let first = get(&s, uri, Some(CHROMIUM_IMG)).await;
    let second = get(&s, uri, Some(CHROMIUM_IMG)).await;
    assert_eq!(text.status, StatusCode::BAD_REQUEST);
    assert_eq!(first.status, StatusCode::BAD_REQUEST);
    assert_eq!(first.body, second.body);
    let too_long = format!("/diagram?fen={}", "x".repeat(50_000));
    let a = get(&s, &too_long, Some(CHROMIUM_IMG)).await;
    assert_eq!(a.status, StatusCode::URI_TOO_LONG);
    assert_eq!(a.header("content-type"), "image/png");
    assert_eq!(decoded("image/png", &a.body).0, 400, "the default size");
}

#[tokio::test]
async fn a_card_differs_with_its_sentence() {
    let s = state();
    let a = get(&s, "/diagram?fen=bad&size=200", Some(CHROMIUM_IMG)).await;
    let b = get(
        &s,
        "/diagram?fen=start&theme=nope&size=200",
        Some(CHROMIUM_IMG),
    )
    .await;
    let (a, b) = (common::decode(&a.body), common::decode(&b.body));
    assert_eq!(a.dimensions(), b.dimensions());
    assert_ne!(a, b, "two sentences, two cards");
}

#[tokio::test]
async fn successes_other_routes_and_other_formats_are_untouched() {
    let s = state();
    let ok = get(&s, "/diagram?fen=start&size=200", Some(CHROMIUM_IMG)).await;
    assert_eq!(ok.status, StatusCode::OK);
    assert!(ok.headers.get("vary").is_none());
    assert!(ok.headers.get("staunton-error").is_none());
    for uri in [
        "/describe?fen=bad",
        "/game.json?moves=Ke3",
        "/diagram?fen=bad&format=pdf",
        "/diagram.pdf?fen=bad",
        "/diagram.txt?fen=bad",
        "/sheet?fen=bad",
        "/nowhere.png?fen=bad",
    ] {
        for accept in [CHROMIUM_IMG, FIREFOX_IMG] {
            let a = get(&s, &format!("{uri}&errors=image"), Some(accept)).await;
            assert!(a.status.is_client_error(), "{uri}");
            assert_eq!(
                a.header("content-type"),
                "text/plain; charset=utf-8",
                "{uri}"
            );
        }
    }
}

#[tokio::test]
async fn the_error_header_escapes_what_a_header_cannot_hold() {
    let s = state();
    // A long value is echoed shortened, ending in `…`: not ASCII.
    let uri = format!("/diagram?fen={}", "x".repeat(60));
    let a = get(&s, &uri, Some(CURL)).await;
    let text = String::from_utf8(a.body.clone()).expect("utf-8");
    let header = a.header("staunton-error");
    assert!(text.contains('…'), "{text}");
    assert!(
        header.is_ascii() && header.contains("%E2%80%A6"),
        "{header}"
    );
    assert_eq!(header.replace("%E2%80%A6", "…"), text.trim_end());
}
