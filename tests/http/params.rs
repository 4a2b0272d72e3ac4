//! Parameters a new user gets wrong: unknown names (the `Staunton-Warning` header on every
//! answer, `strict=1`), `&amp;` copied out of HTML, colours without `#`, and a lichess or
//! chess.com URL pasted into `fen`.

use crate::support::{self, Answer, state};
use axum::http::{StatusCode, header};
use staunton::http::AppState;
use std::sync::Arc;

const WARNING: &str = "staunton-warning";

/// The answer's `Staunton-Warning`, if any.
fn warning(answer: &Answer) -> Option<&str> {
    answer.optional(WARNING)
}

async fn send(state: &Arc<AppState>, uri: &str, if_none_match: Option<&str>) -> Answer {
    support::get_with(state, uri, header::IF_NONE_MATCH, if_none_match).await
}

async fn get(state: &Arc<AppState>, uri: &str) -> Answer {
    send(state, uri, None).await
}

#[tokio::test]
async fn misspelt_names_are_ignored_and_named_with_the_nearest_parameter() {
    let s = state();
    let plain = get(&s, "/diagram.png?fen=start").await;
    let typo = get(&s, "/diagram.png?fen=start&orientaton=black&sise=200").await;
    assert_eq!(typo.status, StatusCode::OK);
    assert_eq!(typo.body, plain.body, "unknown names change nothing");
    assert_eq!(
        warning(&typo),
        Some("orientaton: did you mean orientation?; sise: did you mean size?")
    );
    assert_eq!(warning(&plain), None, "known names earn no warning");
    let far = get(&s, "/diagram.svg?fen=start&utm_source=blog").await;
    assert_eq!(far.status, StatusCode::OK);
    assert_eq!(
        warning(&far),
        Some("utm_source: unknown parameter, ignored")
    );
    // Every spelling of every parameter the composer and the docs use is known.
    let known = get(
        &s,
        "/diagram.svg?FEN=start&Size=300&coords=inside&pieceSet=staunton&colors=blue&lastMove=e2e4&strict=0&errors=text&lang=de",
    )
    .await;
    assert_eq!(known.status, StatusCode::OK, "{}", known.text());
    assert_eq!(warning(&known), None);
}

#[tokio::test]
async fn the_warning_is_on_cache_hits_304s_and_errors_too() {
    let s = state();
    let uri = "/diagram.png?fen=start&size=120&orientaton=black";
    let miss = get(&s, uri).await;
    let hit = get(&s, uri).await;
    let tag = hit.headers[header::ETAG]
        .to_str()
        .expect("etag")
        .to_string();
    let unchanged = send(&s, uri, Some(&tag)).await;
    assert_eq!(unchanged.status, StatusCode::NOT_MODIFIED);
    let bad = get(&s, "/diagram.png?fen=nonsense&orientaton=black").await;
    assert_eq!(bad.status, StatusCode::BAD_REQUEST);
    for answer in [&miss, &hit, &unchanged, &bad] {
        assert_eq!(
            warning(answer),
            Some("orientaton: did you mean orientation?"),
            "{}",
            answer.status
        );
    }
}

#[tokio::test]
async fn each_route_knows_its_own_parameters() {
    let s = state();
    // lila-gif's player names belong to /image.gif, not to /diagram.
    let gif = get(&s, "/image.gif?fen=start&white=Carlsen&black=Nakamura").await;
    assert_eq!(gif.status, StatusCode::OK);
    assert_eq!(warning(&gif), None);
    let diagram = get(&s, "/diagram.png?fen=start&white=Carlsen").await;
    assert_eq!(warning(&diagram), Some("white: unknown parameter, ignored"));
    let sheet = get(&s, "/sheet.svg?fen=start&fen=empty&cols=1&titel=x").await;
    assert_eq!(sheet.status, StatusCode::OK, "{}", sheet.text());
    assert_eq!(warning(&sheet), Some("titel: did you mean title?"));
    let piece = get(&s, "/piece.svg?piece=wN&pieceSet=staunton&size=3").await;
    assert_eq!(warning(&piece), Some("size: unknown parameter, ignored"));
    let describe = get(&s, "/describe?fen=start&lang=fr&langu=x").await;
    assert_eq!(warning(&describe), Some("langu: did you mean lang?"));
    // A route that reads no query ignores it silently.
    let page = get(&s, "/health?x=1").await;
    assert_eq!(warning(&page), None);
}

#[tokio::test]
async fn the_warning_header_is_ascii_and_bounded() {
    let s = state();
    let many: String = (0..30).map(|i| format!("&zz{i}=1")).collect();
    let hostile = "caf%C3%A9%0D%0AX-Evil:%201";
    let long = "n".repeat(3000);
    let answer = get(
        &s,
        &format!("/diagram.png?fen=start&{hostile}=1&{long}=2{many}"),
    )
    .await;
    assert_eq!(answer.status, StatusCode::OK);
    let warning = warning(&answer).expect("a warning");
    assert!(
        warning.bytes().all(|b| (b' '..=b'~').contains(&b)),
        "{warning}"
    );
    assert!(
        warning.starts_with("\"caf???X-Evil: 1\": unknown"),
        "{warning}"
    );
    assert!(warning.ends_with("; and 27 more"), "{warning}");
    assert!(warning.len() < 400, "{} bytes", warning.len());
    assert!(!answer.headers.contains_key("x-evil"));
}

#[tokio::test]
async fn strict_turns_unknown_names_into_a_400() {
    let s = state();
    let refused = get(&s, "/diagram?fen=start&orientaton=black&strict=1").await;
    assert_eq!(refused.status, StatusCode::BAD_REQUEST);
    assert_eq!(
        refused.text().trim(),
        "strict=1: orientaton is not a parameter of /diagram: did you mean orientation?"
    );
    assert_eq!(
        warning(&refused),
        Some("orientaton: did you mean orientation?")
    );
    let fine = get(&s, "/diagram?fen=start&orientation=black&strict=true").await;
    assert_eq!(fine.status, StatusCode::OK);
    let off = get(&s, "/diagram?fen=start&orientaton=black&strict=0").await;
    assert_eq!(off.status, StatusCode::OK);
    let bad = get(&s, "/diagram?fen=start&strict=maybe").await;
    assert_eq!(bad.status, StatusCode::BAD_REQUEST);
    let text = bad.text();
    assert!(
        text.starts_with("strict \"maybe\" is not allowed") && text.contains("1/true/yes"),
        "{text}"
    );
    let game = get(&s, "/game.json?moves=e2e4&strict=1&size=3").await;
    assert_eq!(game.status, StatusCode::BAD_REQUEST);
    assert!(
        game.text()
            .contains("size is not a parameter of /game.json"),
        "{}",
        game.text()
    );
}

#[tokio::test]
async fn an_html_escaped_ampersand_still_separates_parameters() {
    let s = state();
    let escaped = get(
        &s,
        "/diagram.png?fen=start&amp;size=200&amp;orientation=black",
    )
    .await;
    let plain = get(&s, "/diagram.png?fen=start&size=200&orientation=black").await;
    assert_eq!(escaped.status, StatusCode::OK);
    assert_eq!(escaped.body, plain.body);
    assert_eq!(warning(&escaped), None, "amp;size is size");
    let small = common_width(&escaped.body);
    assert_eq!(small, 200);
}

fn common_width(png: &[u8]) -> u32 {
    crate::common::decode(png).width()
}

#[tokio::test]
async fn colours_are_read_with_or_without_the_hash() {
    let s = state();
    let hashed = get(&s, "/diagram.png?fen=start&light=%23eeeeee&dark=%23a5a").await;
    assert_eq!(hashed.status, StatusCode::OK);
    for bare in [
        "light=eeeeee&dark=a5a",
        "light=EEEEEE&dark=%23aa55aa",
        "light=eee&dark=AA55AA",
    ] {
        let answer = get(&s, &format!("/diagram.png?fen=start&{bare}")).await;
        assert_eq!(answer.status, StatusCode::OK, "{bare}: {}", answer.text());
        assert_eq!(answer.body, hashed.body, "{bare}");
    }
    let sheet = get(&s, "/sheet.svg?fen=start&light=eee").await;
    assert_eq!(sheet.status, StatusCode::OK, "{}", sheet.text());
    // `light=#eeeeee` in a URL: the browser keeps `#eeeeee` as the fragment.
    let empty = get(&s, "/diagram.png?fen=start&light=").await;
    assert_eq!(empty.status, StatusCode::BAD_REQUEST);
    let text = empty.text();
    assert!(text.starts_with("light is empty"), "{text}");
    assert!(
        text.contains("%23") && text.contains("light=eeeeee"),
        "{text}"
    );
    let bad = get(&s, "/diagram.png?fen=start&dark=eeee").await;
    assert_eq!(bad.status, StatusCode::BAD_REQUEST);
    assert!(bad.text().contains("the # optional"), "{}", bad.text());
}

/// 1. e4 as a FEN, and as lichess writes it in a path.
const E4: &str = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1";

#[tokio::test]
async fn a_lichess_or_chess_com_url_in_fen_gives_its_position() {
    let s = state();
    let fen = form_urlencoded::byte_serialize(E4.as_bytes()).collect::<String>();
    let expected = get(&s, &format!("/diagram.txt?fen={fen}")).await;
    assert_eq!(expected.status, StatusCode::OK);
    let lichess = format!("https://lichess.org/analysis/{}", E4.replace(' ', "_"));
    let chess_com = format!(
        "https://www.chess.com/analysis?fen={}&flip=false",
        form_urlencoded::byte_serialize(E4.as_bytes()).collect::<String>()
    );
    for url in [
        // Pasted as is: the browser sends the lichess URL unencoded.
        lichess.clone(),
        // Percent-encoded whole, as a careful page writes it.
        form_urlencoded::byte_serialize(lichess.as_bytes()).collect(),
        form_urlencoded::byte_serialize(
            format!("https://lichess.org/editor/{}", E4.replace(' ', "_")).as_bytes(),
        )
        .collect(),
        form_urlencoded::byte_serialize(
            format!(
                "https://lichess.org/analysis/standard/{}",
                E4.replace(' ', "_")
            )
            .as_bytes(),
        )
        .collect(),
        form_urlencoded::byte_serialize(chess_com.as_bytes()).collect(),
    ] {
        let answer = get(&s, &format!("/diagram.txt?fen={url}")).await;
        assert_eq!(answer.status, StatusCode::OK, "{url}: {}", answer.text());
        assert_eq!(answer.body, expected.body, "{url}");
    }
}

#[tokio::test]
async fn a_site_url_without_a_position_is_a_clear_400() {
    let s = state();
    for (url, says) in [
        (
            "https://lichess.org/abcdEFGH",
            "is a lichess URL with no position in it",
        ),
        (
            "https://www.chess.com/game/live/123",
            "is a chess.com URL with no position in it",
        ),
        ("https://example.com/board", "is a URL, not a FEN"),
    ] {
        let encoded: String = form_urlencoded::byte_serialize(url.as_bytes()).collect();
        let answer = get(&s, &format!("/diagram.png?fen={encoded}")).await;
        assert_eq!(answer.status, StatusCode::BAD_REQUEST, "{url}");
        let text = answer.text();
        assert!(text.starts_with("fen \"https://"), "{text}");
        assert!(text.contains(says), "{url}: {text}");
    }
}

#[tokio::test]
async fn strict_and_errors_are_documented_on_every_route_with_parameters() {
    let s = state();
    let doc: serde_json::Value =
        serde_json::from_slice(&get(&s, "/openapi.json").await.body).expect("json");
    for (path, item) in doc["paths"].as_object().expect("paths") {
        let own = item["get"]["parameters"].as_array();
        let service = item["parameters"].as_array();
        let Some(own) = own else {
            assert!(service.is_none(), "{path} reads no query");
            continue;
        };
        // Path-level: every operation of the path (GET and POST) takes them.
        let names: Vec<&str> = service
            .expect(path)
            .iter()
            .filter_map(|p| p["name"].as_str())
            .collect();
        assert_eq!(names, ["strict", "errors"], "{path}");
        assert!(
            own.iter().all(|p| p["name"] != "strict"),
            "{path}: listed once"
        );
        let ok = &item["get"]["responses"]["200"]["headers"]["Staunton-Warning"];
        assert!(ok.is_object(), "{path}");
    }
    let errors = &doc["paths"]["/diagram"]["parameters"][1];
    assert_eq!(errors["name"], "errors");
    assert_eq!(
        errors["schema"]["enum"],
        serde_json::json!(["text", "image"])
    );
}

#[tokio::test]
async fn a_region_is_drawn_in_every_format_and_a_bad_one_is_a_clear_400() {
    let s = state();
    for ext in ["png", "svg", "pdf", "webp", "gif", "txt"] {
        let answer = get(&s, &format!("/diagram.{ext}?fen=start&region=e5-h8")).await;
        assert_eq!(answer.status, StatusCode::OK, "{ext}: {}", answer.text());
    }
    let text = get(&s, "/diagram.txt?fen=start&region=h8:e5").await.text();
    assert!(text.contains("8 : k b n r |"), "{text}");
    assert!(!text.contains('R'), "no white piece in e5-h8: {text}");
    for (query, value) in [
        ("fen=start&region=a1:q4", "a1:q4"),
        ("fen=start&region=a1", "a1"),
        ("fen=start&region=a1:d4:e5", "a1:d4:e5"),
    ] {
        let answer = get(&s, &format!("/diagram.png?{query}")).await;
        assert_eq!(answer.status, StatusCode::BAD_REQUEST, "{query}");
        assert_eq!(
            answer.text().trim(),
            format!(
                "region \"{value}\" is not allowed: expected two corner squares on the 8×8 board (a1 to h8), e.g. a1:d4 or e5-h8"
            ),
            "{query}"
        );
    }
}

#[tokio::test]
async fn bad_markers_are_a_400_naming_the_parameter() {
    let s = state();
    for (query, starts) in [
        (
            "marks=star:e4",
            "marks item \"star:e4\" is not allowed: the marker \"star\" is unknown",
        ),
        (
            "marks=label:e4:123",
            "marks item \"label:e4:123\" is not allowed: a label is one or two characters",
        ),
        (
            "marks=circle:i9",
            "marks item \"circle:i9\" is not allowed: expected circle: then",
        ),
        ("dots=e9", "dots item \"e9\" is not allowed"),
        ("legalMoves=e4", "legalMoves square e4 is empty"),
        (
            "fen=4k5/10/10/10/10/10/10/4K5_w_-_-_0_1&legalMoves=e1",
            "legalMoves needs an 8×8 board of standard chess or Chess960",
        ),
    ] {
        let answer = get(&s, &format!("/diagram.png?fen=start&{query}")).await;
        assert_eq!(answer.status, StatusCode::BAD_REQUEST, "{query}");
        let text = answer.text();
        assert!(text.starts_with(starts), "{query}: {text}");
    }
    let answer = get(
        &s,
        "/diagram.png?fen=start&marks=dotted:d5,label:e4:1&legalMoves=g1",
    )
    .await;
    assert_eq!(answer.status, StatusCode::OK);
}
