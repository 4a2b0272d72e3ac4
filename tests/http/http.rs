//! The HTTP contract, through the router (`oneshot`) and once over a real socket.

use crate::common;
use crate::support::{self, Answer, send, state};

use axum::body::Body;
use axum::http::{Request, StatusCode, header};
use staunton::Renderer;
use staunton::http::{AppState, DEFAULT_CACHE_BYTES};
use std::sync::Arc;

async fn get_with(state: &Arc<AppState>, uri: &str, if_none_match: Option<&str>) -> Answer {
    support::get_with(state, uri, header::IF_NONE_MATCH, if_none_match).await
}

async fn get(state: &Arc<AppState>, uri: &str) -> Answer {
    get_with(state, uri, None).await
}

fn encode(value: &str) -> String {
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

#[tokio::test]
async fn the_quick_start_url_answers_a_png() {
    let s = state();
    let a = get(
        &s,
        "/diagram?fen=rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR_b_KQkq_e3_0_1",
    )
    .await;
    assert_eq!(a.status, StatusCode::OK);
    assert_eq!(a.header(header::CONTENT_TYPE), "image/png");
    assert_eq!(
        a.header(header::CACHE_CONTROL),
        "public, max-age=31536000, immutable"
    );
    assert!(a.header(header::ETAG).starts_with('"'));
    let img = common::decode(&a.body);
    assert_eq!(img.dimensions(), (400, 400));
}

#[tokio::test]
async fn every_route_and_format() {
    let s = state();
    for (uri, kind) in [
        ("/diagram?fen=start", "image/png"),
        ("/diagram.png?fen=start", "image/png"),
        ("/board.png?fen=start", "image/png"),
        ("/diagram?fen=start&format=svg", "image/svg+xml"),
        ("/diagram.svg?fen=start", "image/svg+xml"),
        ("/board.svg?fen=start", "image/svg+xml"),
    ] {
        let a = get(&s, uri).await;
        assert_eq!(a.status, StatusCode::OK, "{uri}");
        assert_eq!(a.header(header::CONTENT_TYPE), kind, "{uri}");
        assert_eq!(a.header(header::X_CONTENT_TYPE_OPTIONS), "nosniff", "{uri}");
        if kind == "image/svg+xml" {
            assert_eq!(
                a.header(header::CONTENT_SECURITY_POLICY),
                "default-src 'none'; style-src 'unsafe-inline'"
            );
            assert!(a.text().starts_with("<svg"));
        } else {
            assert_eq!(&a.body[1..4], b"PNG");
        }
    }
    let h = get(&s, "/health").await;
    assert_eq!((h.status, h.text().as_str()), (StatusCode::OK, "ok\n"));
    let nf = get(&s, "/nope").await;
    assert_eq!(nf.status, StatusCode::NOT_FOUND);
    assert!(nf.text().contains("/diagram"));
}

#[tokio::test]
async fn etag_and_304() {
    let s = state();
    let first = get(&s, "/diagram?fen=start").await;
    let tag = first.header(header::ETAG).to_string();
    let again = get_with(&s, "/diagram?fen=start", Some(&tag)).await;
    assert_eq!(again.status, StatusCode::NOT_MODIFIED);
    assert!(again.body.is_empty());
    assert_eq!(again.header(header::ETAG), tag);
    let other = get_with(&s, "/diagram?fen=start", Some("\"0000000000000000\"")).await;
    assert_eq!(other.status, StatusCode::OK);
    let svg = get(&s, "/diagram.svg?fen=start").await;
    assert_ne!(svg.header(header::ETAG), tag, "formats have their own tags");
}

#[tokio::test]
async fn two_spellings_share_one_cache_entry() {
    let s = state();
    let a = get(&s, "/diagram?fen=start").await;
    let b = get(&s, "/diagram?fen=%5BFEN%20%22rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR%20w%20KQkq%20-%200%201%22%5D&Size=400&orientation=turn").await;
    assert_eq!(a.body, b.body);
    assert_eq!(a.header(header::ETAG), b.header(header::ETAG));
    assert_eq!(s.renders(), 1, "the second spelling is a cache hit");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn concurrent_identical_misses_render_once() {
    let s = state();
    let uri = "/diagram?fen=r1bq1rk1/pp3ppp/3n4/2p1N3/2B5/7P/PPP2PP1/R1BQR1K1_w&size=1200";
    let tasks: Vec<_> = (0..16)
        .map(|_| {
            let s = s.clone();
            tokio::spawn(async move { get(&s, uri).await })
        })
        .collect();
    let mut bodies = Vec::new();
    for t in tasks {
        let a = t.await.expect("task");
        assert_eq!(a.status, StatusCode::OK);
        bodies.push(a.body);
    }
    assert!(bodies.windows(2).all(|w| w[0] == w[1]));
    assert_eq!(
        s.renders(),
        1,
        "16 identical concurrent misses rendered once"
    );
}

#[tokio::test]
async fn cache_is_weighted_by_bytes() {
    let s = Arc::new(AppState::new(Arc::new(Renderer::default()), 64 * 1024));
    for size in 100..140 {
        let a = get(&s, &format!("/diagram?fen=start&size={size}")).await;
        assert_eq!(a.status, StatusCode::OK);
    }
    let held = s.cache_weighted_size().await;
    assert!(
        held > 0 && held <= 64 * 1024 * 11 / 10,
        "cache holds {held} bytes"
    );
}

fn assert_bad(a: &Answer, words: &[&str]) {
    assert_eq!(a.status, StatusCode::BAD_REQUEST, "{}", a.text());
    assert_eq!(a.header(header::CONTENT_TYPE), "text/plain; charset=utf-8");
    assert_eq!(a.header(header::CACHE_CONTROL), "no-store");
    let text = a.text();
    assert_eq!(text.lines().count(), 1, "one line: {text}");
    for w in words {
        assert!(
            text.to_lowercase().contains(&w.to_lowercase()),
            "{text:?} lacks {w:?}"
        );
    }
}

#[tokio::test]
async fn every_invalid_fixture_is_a_400_naming_the_problem() {
    let s = state();
    let cases = common::fixture_cases("invalid.fen");
    assert!(cases.len() >= 10);
    for (fen, word) in cases {
        let a = get(&s, &format!("/diagram?fen={}", encode(&fen))).await;
        assert_bad(&a, &["fen", &word]);
    }
}

#[tokio::test]
async fn bad_parameters_are_400s() {
    let s = state();
    for size in ["0", "-1", "15", "2049", "99999", "abc", "4e2"] {
        let a = get(&s, &format!("/diagram?fen=start&size={size}")).await;
        assert_bad(&a, &["size", &format!("\"{size}\""), "16", "2048"]);
    }
    assert_bad(
        &get(&s, "/diagram?fen=start&orientation=sideways").await,
        &["orientation", "sideways", "white"],
    );
    assert_bad(
        &get(&s, "/diagram?fen=start&coordinates=maybe").await,
        &["coordinates", "maybe", "outside"],
    );
    assert_bad(&get(&s, "/diagram?size=300").await, &["fen", "missing"]);
    assert_bad(
        &get(&s, &format!("/diagram?fen={}", "8/".repeat(600))).await,
        &["fen", "1024"],
    );
    assert_bad(
        &get(&s, "/diagram?fen=start&pieces=nosuchset").await,
        &["pieces", "nosuchset", "staunton"],
    );
    assert_bad(
        &get(&s, "/diagram.png?fen=start&format=svg").await,
        &["format", "svg"],
    );
    let long = get(&s, &format!("/diagram?fen=start&x={}", "a".repeat(50_000))).await;
    assert_eq!(long.status, StatusCode::URI_TOO_LONG);
    assert_eq!(s.renders(), 0, "no bad request reached the renderer");
}

#[tokio::test]
async fn a_real_socket_serves_a_diagram() {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let served = common::Served::start(state(), std::time::Duration::from_secs(5)).await;
    let addr = served.addr;
    let mut stream = tokio::net::TcpStream::connect(addr).await.expect("connect");
    stream
        .write_all(b"GET /diagram.svg?fen=start&size=200 HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n")
        .await
        .expect("write");
    let mut raw = Vec::new();
    stream.read_to_end(&mut raw).await.expect("read");
    let text = String::from_utf8_lossy(&raw);
    assert!(text.starts_with("HTTP/1.1 200 OK\r\n"), "{text}");
    assert!(text.to_lowercase().contains("content-type: image/svg+xml"));
    assert!(text.trim_end().ends_with("</svg>"));
    served.stop().await;
}

#[tokio::test]
async fn annotation_inputs_are_validated() {
    let s = state();
    let ok = [
        "/diagram?fen=start&lastMove=e2e4&check=auto&arrows=Ge2e4,Rg1f3,Yd4,Bb1b1&squares=e4,d5&highlight=Ge4,Rd5",
        "/diagram.svg?fen=start&lastMove=N@f3&check=e1&theme=print",
        "/diagram?fen=start&lastMove=e7e8q&theme=wikipedia&light=%23ffffff&dark=%23888",
        "/diagram?fen=start&annotations=%5B%25cal%20Ge2e4,Rd1d8%5D%5B%25csl%20Gd4,Re5%5D",
        "/diagram?fen=start&colors=lichess-blue&piece=staunton&coordinates=false",
        "/diagram?fen=rnabqkbcnr/pppppppppp/10/10/10/10/PPPPPPPPPP/RNABQKBCNR&arrows=Gj2j4&check=j1",
    ];
    for uri in ok {
        let a = get(&s, uri).await;
        assert_eq!(
            a.status,
            StatusCode::OK,
            "{uri}: {}",
            String::from_utf8_lossy(&a.body)
        );
    }
    let rendered = s.renders();
    assert_eq!(rendered, ok.len() as u64);
    assert_bad(
        &get(&s, "/diagram?fen=start&arrows=Ge2z9").await,
        &["arrows", "Ge2z9", "square"],
    );
    assert_bad(
        &get(&s, "/diagram?fen=start&arrows=Gj2j4").await,
        &["arrows", "Gj2j4"],
    );
    assert_bad(
        &get(&s, "/diagram?fen=start&lastMove=e2").await,
        &["lastMove", "\"e2\"", "UCI"],
    );
    assert_bad(
        &get(&s, "/diagram?fen=start&lastMove=e2e4x").await,
        &["lastMove", "e2e4x"],
    );
    assert_bad(
        &get(&s, "/diagram?fen=start&check=k1").await,
        &["check", "\"k1\"", "auto"],
    );
    let many = vec!["Ge2e4"; 200].join(",");
    assert_bad(
        &get(&s, &format!("/diagram?fen=start&arrows={many}")).await,
        &["arrows", "200", "64"],
    );
    let many_marks = vec!["e4"; 300].join(",");
    assert_bad(
        &get(&s, &format!("/diagram?fen=start&squares={many_marks}")).await,
        &["squares", "300", "80"],
    );
    assert_bad(
        &get(&s, "/diagram?fen=start&theme=neon").await,
        &["theme", "neon", "brown", "print"],
    );
    assert_bad(
        &get(&s, "/diagram?fen=start&piece=cburnett").await,
        &["pieces", "cburnett", "staunton"],
    );
    assert_bad(
        &get(&s, "/diagram?fen=start&squares=e4,e9").await,
        &["squares", "e9"],
    );
    assert_bad(
        &get(&s, "/diagram?fen=start&highlight=Ge4e5").await,
        &["highlight", "Ge4e5"],
    );
    assert_bad(
        &get(&s, "/diagram?fen=start&annotations=%5B%25cal%20Ge2e9%5D").await,
        &["annotations", "Ge2e9"],
    );
    assert_bad(
        &get(&s, "/diagram?fen=start&turn=maybe").await,
        &["turn", "maybe"],
    );
    for hostile in [
        "red%22/%3E%3Cscript%3E",
        "%23fff%22/%3E%3Cscript%3E",
        "rgb(1,2,3)",
        "%23ff000080",
    ] {
        let a = get(&s, &format!("/diagram.svg?fen=start&light={hostile}")).await;
        assert_bad(&a, &["light", "#rgb or #rrggbb"]);
    }
    assert_eq!(s.renders(), rendered, "no bad request reached the renderer");
}

#[tokio::test]
async fn options_change_the_cache_key() {
    let s = state();
    let plain = get(&s, "/diagram?fen=start").await;
    let marked = get(&s, "/diagram?fen=start&arrows=Ge2e4").await;
    let themed = get(&s, "/diagram?fen=start&theme=blue").await;
    let tags = [&plain, &marked, &themed].map(|a| a.header(header::ETAG).to_string());
    assert!(tags[0] != tags[1] && tags[1] != tags[2] && tags[0] != tags[2]);
    assert_ne!(plain.body, marked.body);
    assert_eq!(s.renders(), 3);
}

#[tokio::test]
async fn describe_answers_the_position_in_words() {
    let s = state();
    let a = get(&s, "/describe?fen=8/8/8/4k3/8/8/3Q4/4K3_b").await;
    assert_eq!(a.status, StatusCode::OK);
    assert!(a.header(header::CONTENT_TYPE).starts_with("text/plain"));
    assert_eq!(
        a.text(),
        "White: King e1, Queen d2. Black: King e5. Black to move.\n"
    );
    // Any spelling of fen, other parameters ignored; the same words in the SVG's title.
    let svg = get(&s, "/diagram.svg?FEN=8/8/8/4k3/8/8/3Q4/4K3_b&size=200").await;
    assert!(svg.text().contains(
        "<title id=\"title\">White: King e1, Queen d2. Black: King e5. Black to move.</title>"
    ));
    let bad = get(&s, "/describe?fen=9/8/8/8/8/8/8/8").await;
    assert_eq!(bad.status, StatusCode::BAD_REQUEST);
    assert!(
        bad.text()
            .starts_with("fen \"9/8/8/8/8/8/8/8\" is not a valid FEN"),
        "{}",
        bad.text()
    );
    let missing = get(&s, "/describe").await;
    assert_eq!(missing.status, StatusCode::BAD_REQUEST);
    assert!(missing.text().starts_with("fen is missing"));
}

#[tokio::test]
async fn lang_writes_describe_and_the_svg_title_and_leaves_pixels_alone() {
    let s = state();
    let fen = "8/8/8/4k3/8/8/3Q4/4K3_b";
    let de = get(&s, &format!("/describe?fen={fen}&lang=de")).await;
    assert_eq!(de.status, StatusCode::OK);
    assert_eq!(
        de.text(),
        "Weiß: König e1, Dame d2. Schwarz: König e5. Schwarz am Zug.\n"
    );
    let ja = get(&s, &format!("/describe?fen={fen}&LANG=ja-JP")).await;
    assert_eq!(
        ja.text(),
        "白：キングe1、クイーンd2。黒：キングe5。黒番。\n"
    );
    // The SVG's title follows lang, and an SVG in another language is another entry.
    let svg_en = get(&s, &format!("/diagram.svg?fen={fen}")).await;
    let svg_it = get(&s, &format!("/diagram.svg?fen={fen}&lang=it")).await;
    assert!(
        svg_it.text().contains(
            "<title id=\"title\">Bianco: re e1, donna d2. Nero: re e5. Tratto al Nero.</title>"
        ),
        "{}",
        svg_it.text()
    );
    assert_ne!(svg_en.header(header::ETAG), svg_it.header(header::ETAG));
    assert_eq!(s.renders(), 2);
    // A PNG has no words: lang changes neither its bytes nor its cache entry.
    let png = get(&s, &format!("/diagram.png?fen={fen}")).await;
    let png_fr = get(&s, &format!("/diagram.png?fen={fen}&lang=fr")).await;
    assert_eq!(png_fr.status, StatusCode::OK);
    assert_eq!(png.body, png_fr.body);
    assert_eq!(png.header(header::ETAG), png_fr.header(header::ETAG));
    assert_eq!(
        s.renders(),
        3,
        "the PNG in French is the English one's cache hit"
    );
    let key = |q: &str, f| {
        staunton::request::Request::from_query(q, Some(f))
            .expect("valid")
            .cache_key()
    };
    use staunton::render::options::Format;
    assert_eq!(
        key("fen=start", Format::Png),
        key("fen=start&lang=ja", Format::Png)
    );
    assert_ne!(
        key("fen=start", Format::Svg),
        key("fen=start&lang=ja", Format::Svg)
    );
    assert_eq!(
        key("fen=start", Format::Svg),
        key("fen=start&lang=en", Format::Svg)
    );
    // An unknown language is a 400 that lists the languages, on every route that takes it.
    for uri in [
        format!("/describe?fen={fen}&lang=pt"),
        format!("/diagram.svg?fen={fen}&lang=pt"),
        format!("/diagram.png?fen={fen}&lang=pt"),
    ] {
        let bad = get(&s, &uri).await;
        assert_eq!(bad.status, StatusCode::BAD_REQUEST, "{uri}");
        assert_eq!(
            bad.text().trim_end(),
            "lang \"pt\" is not allowed: expected one of en, de, it, fr, es, nl, ja",
            "{uri}"
        );
    }
}

#[tokio::test]
async fn openapi_describes_every_route_the_router_answers() {
    let s = state();
    let a = get(&s, "/openapi.json").await;
    assert_eq!(a.status, StatusCode::OK);
    assert_eq!(a.header(header::CONTENT_TYPE), "application/json");
    let doc: serde_json::Value = serde_json::from_slice(&a.body).expect("JSON");
    assert_eq!(doc["openapi"], "3.0.3");
    let paths = doc["paths"].as_object().expect("paths");
    for path in paths.keys() {
        let example = if path.starts_with("/game") {
            format!("{path}?moves=e2e4_e7e5&size=120")
        } else if path.starts_with("/article") {
            format!("{path}?pgn=1.%20e4%20e5")
        } else if path == "/piece.svg" {
            format!("{path}?piece=wN")
        } else if path == "/describe"
            || path == "/image.gif"
            || path == "/card.png"
            || path.starts_with("/diagram")
            || path.starts_with("/board")
            || path.starts_with("/sheet")
        {
            format!("{path}?fen=start")
        } else {
            path.clone()
        };
        let answer = get(&s, &example).await;
        assert_eq!(
            answer.status,
            StatusCode::OK,
            "{example} is described but answers {}",
            answer.status
        );
    }
    // And a route that is not described is not served.
    assert_eq!(get(&s, "/undocumented").await.status, StatusCode::NOT_FOUND);
    let pieces = doc["paths"]["/diagram"]["get"]["parameters"]
        .as_array()
        .and_then(|ps| ps.iter().find(|p| p["name"] == "pieces"))
        .expect("pieces parameter");
    assert_eq!(
        pieces["schema"]["enum"],
        serde_json::json!(["staunton", "staunton-classic"])
    );
}

/// Every route of the table is routed (it is not the fallback's 404), answers POST exactly
/// when it says it does, and is in `/openapi.json` with exactly those operations.
#[tokio::test]
async fn every_route_of_the_table_is_routed_and_described_with_its_methods() {
    use staunton::http::routes::ROUTES;
    let s = state();
    let doc: serde_json::Value =
        serde_json::from_slice(&get(&s, "/openapi.json").await.body).expect("JSON");
    let paths = doc["paths"].as_object().expect("paths");
    assert_eq!(paths.len(), ROUTES.len(), "one path a route");
    for route in ROUTES {
        let (path, posts) = (route.path, route.endpoint.posts());
        let item = &paths[path];
        assert!(item["get"].is_object(), "{path} is described: {item}");
        assert_eq!(item["post"].is_object(), posts, "{path}: POST described");
        let answer = get(&s, path).await;
        assert_ne!(answer.status, StatusCode::NOT_FOUND, "{path} is routed");
        let answer = post(&s, path, Vec::new()).await;
        let allowed = answer.status != StatusCode::METHOD_NOT_ALLOWED;
        assert_eq!(allowed, posts, "{path}: POST answers {}", answer.status);
    }
}

#[tokio::test]
async fn the_classic_built_in_set_is_served_by_name() {
    let s = state();
    for uri in [
        "/diagram?fen=start&pieces=staunton-classic",
        "/diagram.svg?fen=start&pieces=Staunton-Classic",
        "/piece.svg?piece=wN&pieces=staunton-classic",
    ] {
        assert_eq!(get(&s, uri).await.status, StatusCode::OK, "{uri}");
    }
}

#[tokio::test]
async fn the_front_page_is_served_with_its_script_and_style_from_this_origin_only() {
    let s = state();
    let page = get(&s, "/").await;
    assert_eq!(page.status, StatusCode::OK);
    assert!(page.header(header::CONTENT_TYPE).starts_with("text/html"));
    let csp = page.header(header::CONTENT_SECURITY_POLICY);
    assert!(csp.contains("default-src 'self'"), "{csp}");
    assert!(!csp.contains("unsafe-inline"), "{csp}");
    let html = page.text();
    assert!(html.contains("/app.js") && html.contains("/app.css"));
    assert!(
        !html.contains("http://") && !html.contains("https://"),
        "no external requests"
    );
    assert!(html.contains("/editor.js"));
    for (path, kind) in [
        ("/app.js", "text/javascript"),
        ("/editor.js", "text/javascript"),
        ("/app.css", "text/css"),
    ] {
        let a = get(&s, path).await;
        assert_eq!(a.status, StatusCode::OK);
        assert!(a.header(header::CONTENT_TYPE).starts_with(kind));
        assert!(!a.body.is_empty());
        // Revalidated, not refetched: the ETag of the bytes answers 304.
        let again = get_with(&s, path, Some(a.header(header::ETAG))).await;
        assert_eq!(again.status, StatusCode::NOT_MODIFIED, "{path}");
    }
}

/// The composer's fairy controls: the FEN dialect (each of the service's dialects, sent as
/// `dialect`), neutral pieces and markers in the palette, a labelled turn button and a
/// labelled text field; the editor reads boards of any size (files a–p, ranks to 16).
#[tokio::test]
async fn the_front_page_offers_the_fen_dialects_and_fairy_figures() {
    let s = state();
    let html = get(&s, "/").await.text();
    assert!(
        html.contains(r#"<label for="dialect">"#),
        "the dialect select is labelled"
    );
    assert!(html.contains(r#"<select id="dialect" name="dialect""#));
    for name in staunton::chess::fen::Dialect::NAMES {
        assert!(
            html.contains(&format!(r#"<option value="{name}">"#)),
            "dialect {name} offered"
        );
    }
    for piece in ["-k", "-q", "-r", "-b", "-n", "-p", "C", "X", "S", "T"] {
        let button = format!(r#"data-piece="{piece}""#);
        let at = html
            .find(&button)
            .unwrap_or_else(|| panic!("palette has {piece}"));
        let tag = &html[at..at + html[at..].find('>').expect("a tag")];
        assert!(tag.contains("aria-label="), "{piece} is labelled: {tag}");
    }
    assert!(html.contains(r#"id="ed-turn""#) && html.contains(r#"aria-keyshortcuts="T""#));
    assert!(html.contains(r#"<label for="ed-text">"#) && html.contains(r#"id="ed-write""#));
    let editor = get(&s, "/editor.js").await.text();
    assert!(editor.contains("abcdefghijklmnop"), "files a to p");
    assert!(editor.contains("pos.ranks"), "ranks from the FEN");
    assert!(
        editor.contains(r#"q.set("dialect""#),
        "the board asks in the dialect"
    );
    let app = get(&s, "/app.js").await.text();
    assert!(
        app.contains(r#"p.set("dialect""#),
        "the diagram asks in the dialect"
    );
}

#[tokio::test]
async fn metrics_report_every_cache_next_to_its_bound() {
    let s = state();
    assert_eq!(
        get(&s, "/diagram?fen=start&size=333").await.status,
        StatusCode::OK
    );
    let metrics = get(&s, "/metrics").await.text();
    let value = |line: &str| -> u64 {
        let found = metrics
            .lines()
            .find(|l| l.starts_with(line))
            .unwrap_or_else(|| panic!("no {line} in /metrics"));
        found
            .rsplit(' ')
            .next()
            .and_then(|v| v.parse().ok())
            .expect("a number")
    };
    for cache in [
        "images",
        "sprites",
        "stamps",
        "contexts",
        "cells",
        "svg_parts",
    ] {
        let bytes = value(&format!("staunton_cache_bytes{{cache=\"{cache}\"}} "));
        let bound = value(&format!("staunton_cache_bound_bytes{{cache=\"{cache}\"}} "));
        assert!(bound > 0 && bytes <= bound, "{cache}: {bytes} of {bound}");
    }
    // The one render filled the image cache, the sprites and the board's context.
    for cache in ["images", "sprites", "contexts"] {
        assert!(
            value(&format!("staunton_cache_bytes{{cache=\"{cache}\"}} ")) > 0,
            "{cache}"
        );
    }
}

#[tokio::test]
async fn metrics_count_renders_by_route_and_format_and_name_the_build() {
    let s = state();
    for uri in [
        "/diagram?fen=start&size=240",
        "/diagram?fen=start&size=240", // a hit: not a render
        "/diagram.svg?fen=start",
        "/image.gif?fen=start",
        "/sheet.svg?fen=start&fen=empty",
    ] {
        assert_eq!(get(&s, uri).await.status, StatusCode::OK, "{uri}");
    }
    let metrics = get(&s, "/metrics").await.text();
    let value = |series: &str| -> f64 {
        metrics
            .lines()
            .find_map(|l| l.strip_prefix(series)?.strip_prefix(' ')?.parse().ok())
            .unwrap_or_else(|| panic!("no {series} in\n{metrics}"))
    };
    for (route, format) in [
        ("diagram", "png"),
        ("diagram", "svg"),
        ("image", "gif"),
        ("sheet", "svg"),
    ] {
        let labels = format!("{{route=\"{route}\",format=\"{format}\"}}");
        assert_eq!(value(&format!("staunton_renders_total{labels}")), 1.0);
        assert_eq!(
            value(&format!("staunton_render_seconds_count{labels}")),
            1.0
        );
    }
    assert_eq!(value("staunton_cache_hits_total"), 1.0);
    assert_eq!(value("staunton_cache_misses_total"), 4.0);
    assert!(value("staunton_render_queue_limit") >= 1.0);
    assert_eq!(value("staunton_render_queue_depth"), 0.0);
    let build = format!(
        "staunton_build_info{{version=\"{}\"}}",
        env!("CARGO_PKG_VERSION")
    );
    assert_eq!(value(&build), 1.0);
    assert!(metrics.contains("# TYPE staunton_render_seconds histogram"));
    assert!(!metrics.contains(".."), "help texts end in one full stop");
}

#[tokio::test]
async fn quick_renders_on_the_async_worker_give_the_same_bytes_as_the_pool() {
    let s = state();
    // The first request at 360 px builds the context (in the pool); the second, another
    // position at the same size, is quick and renders in the handler.
    let first = get(&s, "/diagram?fen=8/8/8/4k3/8/8/8/4K3_w&size=360").await;
    assert_eq!(first.status, StatusCode::OK);
    let fen = "r1bq1rk1/pp3ppp/3n4/2p1N3/2B5/7P/PPP2PP1/R1BQR1K1_w";
    let query = format!("fen={fen}&size=360");
    let request = staunton::request::Request::from_query(&query, None).expect("valid");
    let quick = |options: &staunton::RenderOptions, max_pixels| {
        s.renderer()
            .render_if_quick(&request.position, options, request.format, max_pixels)
            .is_some()
    };
    let other_size = staunton::RenderOptions {
        size: 361,
        ..request.options.clone()
    };
    assert!(
        !quick(&other_size, 1 << 20),
        "a size never seen is not quick"
    );
    assert!(
        !quick(&request.options, 1000),
        "nor one over the pixel bound"
    );
    assert!(
        s.renderer()
            .render_if_quick(
                &request.position,
                &request.options,
                request.format,
                staunton::render::spec::cost::QUICK_UNITS
            )
            .is_some(),
        "the size's context is held after the first request"
    );
    let second = get(&s, &format!("/diagram?{query}")).await;
    assert_eq!(second.status, StatusCode::OK);
    assert_eq!(s.renders(), 2, "both requests were rendered, and counted");
    let expected = Renderer::default()
        .png(&request.position, &request.options)
        .expect("renders");
    assert_eq!(second.body, expected, "the same PNG as a fresh renderer's");
}

async fn post(state: &Arc<AppState>, uri: &str, body: Vec<u8>) -> Answer {
    let request = Request::post(uri)
        .header(header::CONTENT_TYPE, "application/x-chess-pgn")
        .body(Body::from(body))
        .expect("request");
    send(state, request).await
}

#[tokio::test]
async fn games_as_gif_and_apng_by_get_and_post() {
    let s = state();
    let pgn = "[White \"Morphy\"]\n[Black \"Duke\"]\n1. e4 e5 2. Nf3 d6 3. d4 Bg4 *";
    let gif = get(&s, &format!("/game.gif?pgn={}&size=160", encode(pgn))).await;
    assert_eq!(gif.status, StatusCode::OK, "{}", gif.text());
    assert_eq!(gif.header(header::CONTENT_TYPE), "image/gif");
    assert!(gif.body.starts_with(b"GIF89a"));
    let posted = post(&s, "/game.gif?size=160", pgn.as_bytes().to_vec()).await;
    assert_eq!(posted.status, StatusCode::OK, "{}", posted.text());
    assert_eq!(
        posted.body, gif.body,
        "GET and POST of one game give one GIF"
    );
    assert_eq!(posted.header(header::ETAG), gif.header(header::ETAG));
    assert_eq!(s.renders(), 1, "the POST was a cache hit");
    let apng = post(&s, "/game.png?size=160&loop=0", pgn.as_bytes().to_vec()).await;
    assert_eq!(apng.status, StatusCode::OK, "{}", apng.text());
    assert_eq!(apng.header(header::CONTENT_TYPE), "image/png");
    let reader = png::Decoder::new(std::io::Cursor::new(apng.body.clone()))
        .read_info()
        .expect("a PNG");
    let control = reader.info().animation_control().expect("an APNG");
    assert_eq!((control.num_frames, control.num_plays), (7, 1));
    let uci = get(&s, "/game.gif?moves=e2e4_e7e5&size=160&from=1").await;
    assert_eq!(uci.status, StatusCode::OK, "{}", uci.text());
}

#[tokio::test]
async fn bad_games_are_400s_naming_the_move_and_big_bodies_413s() {
    let s = state();
    let illegal = post(
        &s,
        "/game.gif",
        b"1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 4. Bxc6 dxc6 5. Ke3".to_vec(),
    )
    .await;
    assert_eq!(illegal.status, StatusCode::BAD_REQUEST);
    assert_eq!(
        illegal.text().trim_end(),
        "pgn: 5. Ke3 is not a legal move for White after 4...dxc6"
    );
    let past = get(&s, "/game.gif?moves=e2e4&to=5").await;
    assert_bad(&past, &["to", "5", "0 to 1"]);
    let empty = post(&s, "/game.png", Vec::new()).await;
    assert_bad(&empty, &["body is empty"]);
    let binary = post(&s, "/game.gif", vec![0xff, 0xfe, 0x00]).await;
    assert_bad(&binary, &["not UTF-8"]);
    let missing = get(&s, "/game.gif?size=200").await;
    assert_bad(&missing, &["pgn is missing"]);
    let big = post(&s, "/game.gif", vec![b' '; 70 * 1024]).await;
    assert_eq!(big.status, StatusCode::PAYLOAD_TOO_LARGE);
    assert!(big.text().contains("at most 65536 bytes"), "{}", big.text());
    let not_here = post(&s, "/diagram?fen=start", b"x".to_vec()).await;
    assert_eq!(not_here.status, StatusCode::METHOD_NOT_ALLOWED);
    assert_eq!(s.renders(), 0, "no bad request reached the renderer");
}

#[tokio::test]
async fn describe_names_the_last_move_of_a_game() {
    let s = state();
    let a = get(
        &s,
        &format!("/describe?pgn={}&ply=4", encode("1. e4 e5 2. Qh5 Nc6")),
    )
    .await;
    assert_eq!(a.status, StatusCode::OK);
    assert!(
        a.text().starts_with("After 2...Nc6. White:"),
        "{}",
        a.text()
    );
    // The move itself, whatever the language, for the composer's slider.
    let de = get(
        &s,
        &format!(
            "/describe?pgn={}&ply=4&lang=de",
            encode("1. e4 e5 2. Qh5 Nc6")
        ),
    )
    .await;
    assert!(
        de.text().starts_with("Nach 2...Sc6. Weiß:"),
        "{}",
        de.text()
    );
    assert_eq!(
        de.header(header::HeaderName::from_static("x-last-move")),
        "2...Nc6"
    );
}

#[tokio::test]
async fn an_animation_s_work_is_bounded() {
    let s = state();
    // 420 plies of knights walking back and forth, at 2048 px: 421 frames of 4 Mpx.
    let moves = "g1f3 g8f6 f3g1 f6g8 ".repeat(105);
    let big = get(&s, &format!("/game.gif?moves={}&size=2048", encode(&moves))).await;
    assert_bad(&big, &["421 frames", "1700 megapixels", "from, to"]);
    let excerpt = get(
        &s,
        &format!("/game.gif?moves={}&size=2048&from=410", encode(&moves)),
    )
    .await;
    assert_eq!(excerpt.status, StatusCode::OK, "{}", excerpt.text());
}

#[tokio::test]
async fn pdf_webp_and_gif_routes_and_lila_gif_s_image_route() {
    let s = state();
    for (path, content_type, magic) in [
        ("/diagram.pdf?fen=start", "application/pdf", &b"%PDF-"[..]),
        (
            "/diagram?fen=start&format=pdf&dpi=300",
            "application/pdf",
            &b"%PDF-"[..],
        ),
        ("/diagram.webp?fen=start", "image/webp", &b"RIFF"[..]),
        ("/diagram.gif?fen=start", "image/gif", &b"GIF89a"[..]),
        (
            "/image.gif?fen=start&lastMove=e2e4&coordinates=0",
            "image/gif",
            &b"GIF89a"[..],
        ),
    ] {
        let a = get(&s, path).await;
        assert_eq!(a.status, StatusCode::OK, "{path}: {}", a.text());
        assert_eq!(a.header(header::CONTENT_TYPE), content_type, "{path}");
        assert!(a.body.starts_with(magic), "{path}");
    }
    let plain = get(&s, "/image.gif?fen=start&size=240").await;
    let named = get(
        &s,
        "/image.gif?fen=start&size=240&white=Anand&black=Carlsen&comment=x",
    )
    .await;
    let size = |body: &[u8]| {
        (
            u16::from_le_bytes([body[6], body[7]]),
            u16::from_le_bytes([body[8], body[9]]),
        )
    };
    assert_eq!(size(&plain.body), (240, 240));
    let (w, h) = size(&named.body);
    assert!(
        w == 240 && h > 240,
        "names add bars above and below: {w}×{h}"
    );
    assert_bad(
        &get(&s, "/diagram?fen=start&format=jpeg").await,
        &["format", "jpeg", "webp"],
    );
    assert_bad(
        &get(&s, "/diagram.pdf?fen=start&dpi=5").await,
        &["dpi", "5", "18 to 2400"],
    );
    assert_bad(
        &get(
            &s,
            &format!("/image.gif?fen=start&white={}", "x".repeat(101)),
        )
        .await,
        &["white", "too long"],
    );
}

#[tokio::test]
async fn a_sheet_of_fens_and_captions_in_every_format() {
    let s = state();
    let query = format!(
        "fen=start&caption={}&fen={}&caption={}&solution=1.%20Rd8%23&solutions=1&title=Homework",
        encode("The start"),
        encode("6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1"),
        encode("Mate in one"),
    );
    let pdf = get(&s, &format!("/sheet?{query}")).await;
    assert_eq!(
        pdf.status,
        StatusCode::OK,
        "{}",
        String::from_utf8_lossy(&pdf.body)
    );
    assert_eq!(pdf.header(header::CONTENT_TYPE), "application/pdf");
    assert_eq!(
        pdf.headers["x-sheet-pages"], "2",
        "the diagrams and the answer key"
    );
    assert!(pdf.body.starts_with(b"%PDF-"));
    let png = get(&s, &format!("/sheet.png?{query}&pageNumber=1&dpi=100")).await;
    assert_eq!(png.status, StatusCode::OK);
    let img = common::decode(&png.body);
    assert_eq!((img.width(), img.height()), (827, 1169), "A4 at 100 dpi");
    let svg = get(&s, &format!("/sheet.svg?{query}&page=letter")).await;
    assert_eq!(svg.header(header::CONTENT_TYPE), "image/svg+xml");
    assert!(svg.text().contains(r#"width="8.5in" height="11in""#));
    let again = get(&s, &format!("/sheet?{query}")).await;
    assert_eq!(again.body, pdf.body, "the same URL, the same bytes");
    assert_eq!(
        again.header(header::ETAG),
        pdf.header(header::ETAG),
        "cached and tagged like a diagram"
    );
}

#[tokio::test]
async fn bad_sheets_are_400s_naming_the_parameter() {
    let s = state();
    let thirteen = "fen=start&".repeat(13);
    assert_bad(
        &get(&s, &format!("/sheet?{thirteen}")).await,
        &["fen", "13", "at most 12"],
    );
    assert_bad(&get(&s, "/sheet?caption=x").await, &["fen", "missing"]);
    assert_bad(
        &get(&s, "/sheet?fen=start&page=a3").await,
        &["page", "a3", "a4 or letter"],
    );
    assert_bad(
        &get(&s, "/sheet?fen=start&fen=nonsense").await,
        &["position 2", "nonsense"],
    );
    assert_bad(
        &get(&s, "/sheet.png?fen=start&pageNumber=2").await,
        &["pageNumber", "1 page"],
    );
    assert_bad(
        &get(&s, "/sheet?fen=start&format=gif").await,
        &["format", "gif"],
    );
    assert_bad(
        &get(&s, "/sheet?fen=start&columns=0").await,
        &["columns", "1 to 6"],
    );
    assert_bad(
        &get(&s, "/sheet?fen=start&caption=a&caption=b").await,
        &["caption", "2 times"],
    );
    assert_bad(
        &get(&s, "/sheet?fen=start&solutions=1").await,
        &["solution"],
    );
    assert_bad(
        &get(&s, "/sheet?fen=start&pieces=nosuchset").await,
        &["pieces", "nosuchset"],
    );
    assert_eq!(s.renders(), 0, "no bad sheet reached the renderer");
}

/// One GET over a fresh connection: the status code, or `None` if the connection failed.
async fn socket_status(addr: std::net::SocketAddr, path: &str) -> Option<u16> {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let mut stream = tokio::net::TcpStream::connect(addr).await.ok()?;
    let request = format!("GET {path} HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n");
    stream.write_all(request.as_bytes()).await.ok()?;
    let mut raw = Vec::new();
    stream.read_to_end(&mut raw).await.ok()?;
    String::from_utf8_lossy(&raw)
        .split_whitespace()
        .nth(1)?
        .parse()
        .ok()
}

#[tokio::test]
async fn ready_turns_503_on_shutdown_while_the_drain_keeps_serving() {
    let s = state();
    let ready = get(&s, "/ready").await;
    assert_eq!(ready.status, StatusCode::OK);
    assert_eq!(ready.text(), "ready\n");
    assert_eq!(get(&s, "/health").await.status, StatusCode::OK);

    let config = staunton::http::Config {
        drain: std::time::Duration::from_millis(800),
        ..Default::default()
    };
    let state = Arc::new(AppState::with_config(Arc::new(Renderer::default()), config));
    let served = common::Served::start(state.clone(), std::time::Duration::from_secs(2)).await;
    let addr = served.addr;
    assert_eq!(socket_status(addr, "/ready").await, Some(200));
    let stopping = served.signal();
    tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    assert!(state.is_draining());
    // Draining: not ready, still live, still rendering.
    assert_eq!(socket_status(addr, "/ready").await, Some(503));
    assert_eq!(socket_status(addr, "/health").await, Some(200));
    assert_eq!(
        socket_status(addr, "/diagram.svg?fen=start&size=100").await,
        Some(200)
    );
    tokio::time::timeout(std::time::Duration::from_secs(5), stopping)
        .await
        .expect("stops after the drain")
        .expect("join")
        .expect("clean");
    assert_eq!(
        socket_status(addr, "/ready").await,
        None,
        "the listener is closed"
    );
}

// --- /piece.svg and /game.json: the board editor's palette and move list -----------------

async fn head(state: &Arc<AppState>, uri: &str) -> Answer {
    let request = Request::head(uri).body(Body::empty()).expect("request");
    send(state, request).await
}

/// Headers every `/piece.svg` and `/game.json` answer carries.
fn assert_cacheable(a: &Answer, content_type: &str) {
    assert_eq!(a.status, StatusCode::OK, "{}", a.text());
    assert_eq!(a.header(header::CONTENT_TYPE), content_type);
    assert_eq!(
        a.header(header::CACHE_CONTROL),
        "public, max-age=31536000, immutable"
    );
    assert_eq!(a.header(header::X_CONTENT_TYPE_OPTIONS), "nosniff");
    let tag = a.header(header::ETAG);
    assert!(
        tag.starts_with('"') && tag.ends_with('"'),
        "a strong ETag: {tag}"
    );
}

#[tokio::test]
async fn piece_svg_draws_one_piece_of_a_set_alone_on_a_transparent_square() {
    let s = state();
    let codes = [
        "wK", "wQ", "wR", "wB", "wN", "wP", "bK", "bQ", "bR", "bB", "bN", "bP", "wA", "wC", "bA",
        "bC",
    ];
    let mut bodies = std::collections::HashSet::new();
    for code in codes {
        let a = get(&s, &format!("/piece.svg?piece={code}")).await;
        assert_cacheable(&a, "image/svg+xml");
        assert_eq!(
            a.header(header::CONTENT_SECURITY_POLICY),
            "default-src 'none'; style-src 'unsafe-inline'"
        );
        let svg = a.text();
        let tree = resvg::usvg::Tree::from_str(&svg, &resvg::usvg::Options::default())
            .unwrap_or_else(|e| panic!("{code}: {e}"));
        assert_eq!(tree.size().width(), tree.size().height(), "{code}: square");
        let pixels = common::rasterise_svg(&svg);
        let (w, h) = pixels.dimensions();
        for (x, y) in [(0, 0), (w - 1, 0), (0, h - 1), (w - 1, h - 1)] {
            assert_eq!(pixels.get_pixel(x, y)[3], 0, "{code}: no board behind it");
        }
        let opaque = pixels.pixels().filter(|p| p[3] == 255).count();
        assert!(opaque > (w * h / 20) as usize, "{code}: a piece is drawn");
        bodies.insert(a.body);
    }
    assert_eq!(bodies.len(), codes.len(), "every piece is its own drawing");

    // The palette shows the artwork the diagrams draw: the same path data.
    let knight = get(&s, "/piece.svg?piece=wN").await;
    let board = get(&s, "/diagram.svg?fen=start").await.text();
    let knight_svg = knight.text();
    let paths: Vec<&str> = knight_svg
        .split(" d=\"")
        .skip(1)
        .filter_map(|rest| rest.split('"').next())
        .collect();
    assert!(!paths.is_empty());
    for d in paths {
        assert!(
            board.contains(&format!(" d=\"{d}\"")),
            "{d} not on the board"
        );
    }
    // Names as on /diagram (case-insensitive, aliases); the code case-insensitive too.
    let same = get(&s, "/piece.svg?PIECE=wn&pieceSet=Staunton").await;
    assert_eq!(same.body, knight.body);
    assert_eq!(same.header(header::ETAG), knight.header(header::ETAG));
    let tag = knight.header(header::ETAG).to_string();
    let again = get_with(&s, "/piece.svg?piece=wN", Some(&tag)).await;
    assert_eq!(again.status, StatusCode::NOT_MODIFIED);
    let headed = head(&s, "/piece.svg?piece=wN").await;
    assert_cacheable(&headed, "image/svg+xml");
    assert!(headed.body.is_empty());
    assert_eq!(
        s.renders(),
        1,
        "pieces are written, not rendered: only the diagram counted"
    );
}

#[tokio::test]
async fn piece_svg_serves_the_sets_loaded_from_a_folder() {
    let root = std::env::temp_dir().join(format!("staunton-palette-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&root);
    let dir = root.join("Magenta");
    std::fs::create_dir_all(&dir).expect("set dir");
    let builtin = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("assets/pieces/staunton");
    for code in [
        "wK", "wQ", "wR", "wB", "wN", "wP", "bK", "bQ", "bR", "bB", "bN", "bP",
    ] {
        let svg = std::fs::read_to_string(builtin.join(format!("{code}.svg"))).expect("piece");
        let svg = svg.replacen(
            "</svg>",
            r##"<rect width="20" height="20" fill="#ff00ff"/></svg>"##,
            1,
        );
        std::fs::write(dir.join(format!("{code}.svg")), svg).expect("write");
    }
    let (sets, problems) = staunton::render::pieces::PieceSets::with_dir(&root);
    assert!(problems.is_empty(), "{problems:?}");
    let s = Arc::new(AppState::new(
        Arc::new(Renderer::new(sets, DEFAULT_CACHE_BYTES)),
        DEFAULT_CACHE_BYTES,
    ));
    let own = get(&s, "/piece.svg?piece=bQ&pieces=magenta").await;
    assert_cacheable(&own, "image/svg+xml");
    assert!(own.text().contains("#ff00ff"), "{}", own.text());
    let plain = get(&s, "/piece.svg?piece=bQ").await;
    assert!(!plain.text().contains("#ff00ff"));
    assert_ne!(own.header(header::ETAG), plain.header(header::ETAG));
    // A set without archbishop and chancellor borrows the built-in ones, as on a board.
    let borrowed = get(&s, "/piece.svg?piece=wC&pieces=MAGENTA").await;
    assert_eq!(borrowed.status, StatusCode::OK);
    let doc: serde_json::Value =
        serde_json::from_slice(&get(&s, "/openapi.json").await.body).expect("JSON");
    let sets = &doc["paths"]["/piece.svg"]["get"]["parameters"][1]["schema"]["enum"];
    assert_eq!(
        *sets,
        serde_json::json!(["staunton", "staunton-classic", "magenta"])
    );
    let _ = std::fs::remove_dir_all(&root);
}

#[tokio::test]
async fn bad_pieces_are_400s_naming_the_parameter_and_what_is_allowed() {
    let s = state();
    assert_bad(
        &get(&s, "/piece.svg").await,
        &["piece is missing", "wK, wQ", "bA, bC"],
    );
    for code in ["wX", "K", "white-king", "xK", "wKQ"] {
        assert_bad(
            &get(&s, &format!("/piece.svg?piece={code}")).await,
            &[
                "piece",
                &format!("\"{code}\" is not allowed"),
                "one of wK",
                "bC",
            ],
        );
    }
    assert_bad(
        &get(&s, "/piece.svg?piece=wK&pieces=nosuchset").await,
        &[
            "pieces \"nosuchset\" is not allowed",
            "expected one of staunton",
        ],
    );
    assert_bad(
        &get(&s, "/piece.svg?piece=wK&pieces=..%2Fetc").await,
        &["pieces \"../etc\" is not allowed", "letters, digits"],
    );
    let bad = get(&s, "/piece.svg?piece=wX").await;
    assert_eq!(bad.header(header::X_CONTENT_TYPE_OPTIONS), "nosniff");
    let long = get(&s, &format!("/piece.svg?piece=wK&x={}", "a".repeat(50_000))).await;
    assert_eq!(long.status, StatusCode::URI_TOO_LONG);
}

/// A fixture game's PGN and its positions after every ply (ply 0 first).
fn fixture_game(name: &str) -> (String, Vec<String>) {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/games");
    let pgn = std::fs::read_to_string(dir.join(format!("{name}.pgn"))).expect("PGN");
    let fens = std::fs::read_to_string(dir.join(format!("{name}.fens"))).expect("FENs");
    let fens = fens.lines().filter(|l| !l.is_empty()).map(str::to_string);
    (pgn, fens.collect())
}

#[tokio::test]
async fn game_json_lists_the_main_line_with_san_uci_and_every_fen() {
    let s = state();
    let (pgn, fens) = fixture_game("opera");
    let a = get(&s, &format!("/game.json?pgn={}", encode(&pgn))).await;
    assert_cacheable(&a, "application/json; charset=utf-8");
    let doc: serde_json::Value = serde_json::from_slice(&a.body).expect("JSON");
    assert_eq!(doc["plies"], 33);
    assert_eq!(doc["start"], fens[0].as_str());
    assert_eq!(doc["result"], "1-0");
    assert_eq!(doc["tags"], serde_json::json!({}));
    let moves = doc["moves"].as_array().expect("moves");
    assert_eq!(moves.len(), 33);
    // The SANs as the fixture writes them (python-chess's), without `!`/`?` and numbers.
    let sans: Vec<String> = pgn
        .split_whitespace()
        .filter(|t| *t != "1-0")
        .map(|t| t.rsplit('.').next().unwrap_or(t))
        .map(|t| t.trim_end_matches(['!', '?']).to_string())
        .collect();
    assert_eq!(sans.len(), 33, "{sans:?}");
    for (i, m) in moves.iter().enumerate() {
        let ply = i + 1;
        assert_eq!(m["ply"], ply, "{m}");
        assert_eq!(m["number"], i / 2 + 1, "{m}");
        assert_eq!(m["side"], if i % 2 == 0 { "w" } else { "b" }, "{m}");
        assert_eq!(m["san"], sans[i].as_str(), "{m}");
        assert_eq!(m["fen"], fens[ply].as_str(), "{m}");
    }
    assert_eq!(moves[0]["uci"], "e2e4");
    assert_eq!(
        (moves[22]["san"].as_str(), moves[22]["uci"].as_str()),
        (Some("O-O-O"), Some("e1c1"))
    );
    assert_eq!(moves[32]["san"], "Rd8#");
    assert_eq!(moves[32]["fen"], fens[33].as_str(), "the last FEN");

    // POST gives the same bytes and ETag; HEAD and 304 as for images.
    let posted = post(&s, "/game.json", pgn.clone().into_bytes()).await;
    assert_cacheable(&posted, "application/json; charset=utf-8");
    assert_eq!(posted.body, a.body);
    assert_eq!(posted.header(header::ETAG), a.header(header::ETAG));
    let tag = a.header(header::ETAG).to_string();
    let again = get_with(&s, &format!("/game.json?pgn={}", encode(&pgn)), Some(&tag)).await;
    assert_eq!(again.status, StatusCode::NOT_MODIFIED);
    let headed = head(&s, &format!("/game.json?pgn={}", encode(&pgn))).await;
    assert_cacheable(&headed, "application/json; charset=utf-8");
    assert!(headed.body.is_empty());

    // Tags in the order written, and every fixture game's positions (Chess960 castling,
    // a [FEN] start with Black to move, promotions, en passant) as python-chess has them.
    for name in ["immortal", "chess960", "rubinstein", "promotions", "reti"] {
        let (pgn, fens) = fixture_game(name);
        let a = post(&s, "/game.json", pgn.into_bytes()).await;
        assert_cacheable(&a, "application/json; charset=utf-8");
        let doc: serde_json::Value = serde_json::from_slice(&a.body).expect("JSON");
        assert_eq!(doc["plies"], fens.len() - 1, "{name}");
        assert_eq!(doc["start"], fens[0].as_str(), "{name}");
        for (i, m) in doc["moves"].as_array().expect("moves").iter().enumerate() {
            assert_eq!(m["fen"], fens[i + 1].as_str(), "{name} ply {}", i + 1);
        }
        if name == "immortal" {
            assert_eq!(doc["tags"]["White"], "Anderssen, Adolf");
            assert_eq!(doc["result"], "1-0");
            let text = a.text();
            assert!(text.find("\"Event\"") < text.find("\"White\""), "PGN order");
        }
        if name == "chess960" {
            assert_eq!(doc["moves"][6]["uci"], "d1g1", "king takes rook");
            assert_eq!(doc["result"], "*");
        }
        if name == "rubinstein" {
            assert_eq!(
                (
                    doc["moves"][0]["number"].as_u64(),
                    doc["moves"][0]["side"].as_str()
                ),
                (Some(12), Some("b"))
            );
        }
    }

    // UCI moves from a FEN.
    let a = get(
        &s,
        "/game.json?fen=r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R_w_KQkq_-_4_4&moves=e1g1_f8c5",
    )
    .await;
    assert_cacheable(&a, "application/json; charset=utf-8");
    let doc: serde_json::Value = serde_json::from_slice(&a.body).expect("JSON");
    assert_eq!(doc["moves"][0]["san"], "O-O");
    assert_eq!(doc["moves"][0]["number"], 4);
    assert_eq!(doc["moves"][1]["san"], "Bc5");
    assert_eq!(doc["result"], serde_json::Value::Null);
    assert_eq!(s.renders(), 0, "a move list renders nothing");
}

#[tokio::test]
async fn bad_games_for_the_move_list_are_the_game_routes_400s() {
    let s = state();
    let illegal = post(
        &s,
        "/game.json",
        b"1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 4. Bxc6 dxc6 5. Ke3".to_vec(),
    )
    .await;
    assert_bad(&illegal, &[]);
    assert_eq!(
        illegal.text().trim_end(),
        "pgn: 5. Ke3 is not a legal move for White after 4...dxc6"
    );
    assert_bad(
        &get(&s, "/game.json?moves=e2e4_e7e6_e1e3").await,
        &["moves: 2. e1e3 is not a legal move for White after 1...e7e6"],
    );
    assert_bad(&get(&s, "/game.json").await, &["pgn is missing"]);
    assert_bad(
        &get(&s, "/game.json?fen=start&pgn=1.e4").await,
        &["fen and pgn cannot both be given"],
    );
    let long = "e2e4 ".repeat(4000);
    assert_bad(
        &get(&s, &format!("/game.json?moves={}", encode(&long))).await,
        &["moves is 20000 bytes long", "at most 16384 bytes", "POST"],
    );
    assert_bad(
        &post(&s, "/game.json", Vec::new()).await,
        &["body is empty"],
    );
    let big = post(&s, "/game.json", vec![b' '; 70 * 1024]).await;
    assert_eq!(big.status, StatusCode::PAYLOAD_TOO_LARGE);
    let short = staunton::http::Config {
        limits: staunton::request::Limits {
            plies: 4,
            ..Default::default()
        },
        ..Default::default()
    };
    let s = Arc::new(AppState::with_config(Arc::new(Renderer::default()), short));
    assert_bad(
        &get(&s, "/game.json?moves=e2e4_e7e5_g1f3_b8c6_f1b5").await,
        &["moves: the game has 5 plies: at most 4 are allowed"],
    );
}

#[tokio::test]
async fn openapi_describes_the_palette_and_move_list_routes() {
    let s = state();
    let doc: serde_json::Value =
        serde_json::from_slice(&get(&s, "/openapi.json").await.body).expect("JSON");
    let piece = &doc["paths"]["/piece.svg"]["get"];
    let params = piece["parameters"].as_array().expect("parameters");
    assert_eq!(params[0]["name"], "piece");
    assert_eq!(params[0]["required"], true);
    assert_eq!(
        params[0]["schema"]["enum"].as_array().map(Vec::len),
        Some(16)
    );
    assert_eq!(params[1]["name"], "pieces");
    assert!(piece["responses"]["200"]["content"]["image/svg+xml"].is_object());
    let list = &doc["paths"]["/game.json"];
    let names: Vec<&str> = list["get"]["parameters"]
        .as_array()
        .expect("parameters")
        .iter()
        .filter_map(|p| p["name"].as_str())
        .collect();
    assert_eq!(names, ["fen", "pgn", "moves"]);
    assert!(list["post"]["requestBody"].is_object());
    let schema = &list["get"]["responses"]["200"]["content"]["application/json"]["schema"];
    assert_eq!(
        schema["properties"]["moves"]["items"]["required"],
        serde_json::json!(["ply", "number", "side", "san", "uci", "fen"])
    );
}

#[tokio::test]
async fn text_boards_by_format_and_path_in_both_styles() {
    let s = state();
    let fen = encode("r1b1k2r/ppp2ppp/2n5/3q4/8/8/PPP2PPP/R1BQ~KB1R[QNPPn]_b_KQkq_-_0_9");
    let board = "Black in hand: n\n\
                 \x20 +-----------------+\n\
                 8 | r . b . k . . r |\n\
                 7 | p p p . . p p p |\n\
                 6 | . . n . . . . . |\n\
                 5 | . . . q . . . . |\n\
                 4 | . . . . . . . . |\n\
                 3 | . . . . . . . . |\n\
                 2 | P P P . . P P P |\n\
                 1 | R . B Q~K B . R |\n\
                 \x20 +-----------------+\n\
                 \x20   a b c d e f g h\n\
                 White in hand: Q N P P\n\
                 Black to move\n";
    let by_format = get(&s, &format!("/diagram?fen={fen}&format=txt")).await;
    assert_eq!(by_format.status, StatusCode::OK, "{}", by_format.text());
    assert_eq!(
        by_format.header(header::CONTENT_TYPE),
        "text/plain; charset=utf-8"
    );
    assert_eq!(by_format.header(header::X_CONTENT_TYPE_OPTIONS), "nosniff");
    assert_eq!(
        by_format.header(header::CACHE_CONTROL),
        "public, max-age=31536000, immutable"
    );
    assert_eq!(by_format.text(), board);
    // The path, and options text does not show (size, theme, pieces, marks), share the entry.
    let by_path = get(
        &s,
        &format!(
            "/diagram.txt?fen={fen}&size=200&theme=blue&pieces=staunton&arrows=Ge2e4&style=LETTERS"
        ),
    )
    .await;
    assert_eq!(by_path.text(), board);
    assert_eq!(by_path.header(header::ETAG), by_format.header(header::ETAG));
    assert_eq!(s.renders(), 1, "one text for both");
    let tag = by_path.header(header::ETAG).to_string();
    let unchanged = get_with(&s, &format!("/diagram.txt?fen={fen}"), Some(&tag)).await;
    assert_eq!(unchanged.status, StatusCode::NOT_MODIFIED);

    // The style is part of the key: figurines are another entry.
    let figurines = get(&s, &format!("/diagram.txt?fen={fen}&style=figurines")).await;
    assert_eq!(figurines.status, StatusCode::OK);
    assert_ne!(figurines.header(header::ETAG), tag);
    assert_eq!(s.renders(), 2);
    assert!(
        figurines.text().contains("\n1 | ♖ . ♗ ♕~♔ ♗ . ♖ |\n"),
        "{}",
        figurines.text()
    );
    assert!(
        figurines
            .text()
            .ends_with("White in hand: ♕ ♘ ♙ ♙\nBlack to move\n")
    );
    // The image of the same query ignores the style: the PNG is unchanged.
    let png = get(&s, "/diagram?fen=start&style=figurines").await;
    let plain = get(&s, "/diagram?fen=start").await;
    assert_eq!(png.header(header::ETAG), plain.header(header::ETAG));
    let black = get(
        &s,
        "/diagram.txt?fen=start&orientation=black&coordinates=none",
    )
    .await;
    assert!(
        black
            .text()
            .starts_with("R N B K Q B N R\nP P P P P P P P\n"),
        "{}",
        black.text()
    );
}

#[tokio::test]
async fn bad_text_requests_are_400s_naming_the_parameter() {
    let s = state();
    assert_bad(
        &get(&s, "/diagram.txt?fen=start&style=fancy").await,
        &["style", "\"fancy\"", "letters", "figurines"],
    );
    assert_bad(
        &get(&s, "/diagram?fen=start&format=txt&style=").await,
        &["style", "letters"],
    );
    // Options that do not apply to text are still validated.
    assert_bad(
        &get(&s, "/diagram.txt?fen=start&size=9").await,
        &["size", "\"9\"", "16"],
    );
    assert_bad(
        &get(&s, "/diagram.txt?fen=start&pieces=nosuchset").await,
        &["pieces", "nosuchset", "staunton"],
    );
    assert_bad(
        &get(&s, "/diagram.txt?fen=start&arrows=Gz9").await,
        &["arrows", "Gz9"],
    );
    assert_bad(
        &get(&s, "/diagram.txt?fen=start&format=png").await,
        &["format", "png", "txt"],
    );
    assert_bad(
        &get(&s, "/diagram?fen=start&format=text").await,
        &["format", "text", "txt"],
    );
    assert_bad(&get(&s, "/diagram.txt?fen=start/8").await, &["fen"]);
    assert_eq!(s.renders(), 0, "no bad request reached the renderer");
}

#[tokio::test]
async fn x_fen_castling_types_are_served_and_kept_in_the_cache_key() {
    let s = state();
    let typed_fen = "rnbnkqrb/pppppppp/8/8/8/8/PPPPPPPP/RNBNKQRB w sKQkq - 0 1";
    let plain_fen = "rnbnkqrb/pppppppp/8/8/8/8/PPPPPPPP/RNBNKQRB w KQkq - 0 1";
    let typed = get(&s, &format!("/diagram?fen={}", encode(typed_fen))).await;
    assert_eq!(typed.status, StatusCode::OK, "{}", typed.text());
    let plain = get(&s, &format!("/diagram?fen={}", encode(plain_fen))).await;
    // The castling type changes no pixel, but the normalised FEN keeps it, so the two are
    // separate cache entries (as `KQkq` and `-` already are).
    assert_eq!(typed.body, plain.body, "the castling type is not drawn");
    assert_ne!(typed.header(header::ETAG), plain.header(header::ETAG));
    assert_eq!(s.renders(), 2);
    // Another spelling of the same typed FEN is the same entry.
    let again = get(
        &s,
        "/diagram?fen=rnbnkqrb/pppppppp/8/8/8/8/PPPPPPPP/RNBNKQRB_w_skqKQ",
    )
    .await;
    assert_eq!(again.header(header::ETAG), typed.header(header::ETAG));
    assert_eq!(s.renders(), 2, "a cache hit");
    let key = |fen: &str| {
        staunton::request::Request::from_pairs([("fen", fen)], None)
            .expect("a valid request")
            .cache_key()
    };
    assert!(key(typed_fen).contains(typed_fen), "{}", key(typed_fen));
    assert!(key(plain_fen).contains(plain_fen), "{}", key(plain_fen));
    // Modern castling on ten files (Embassy chess), and /describe reads both.
    let embassy = "rnbqkcabnr/pppppppppp/10/10/10/10/PPPPPPPPPP/RNBQKCABNR w mKQkq - 0 1";
    let wide = get(&s, &format!("/diagram.svg?fen={}", encode(embassy))).await;
    assert_eq!(wide.status, StatusCode::OK, "{}", wide.text());
    assert!(key(embassy).contains(embassy), "{}", key(embassy));
    let described = get(&s, &format!("/describe?fen={}", encode(typed_fen))).await;
    assert_eq!(described.status, StatusCode::OK);
    let described_plain = get(&s, &format!("/describe?fen={}", encode(plain_fen))).await;
    assert_eq!(
        described.text(),
        described_plain.text(),
        "castling is not described"
    );
    // A castling type anywhere but first is a 400 naming it.
    let bad = get(
        &s,
        &format!(
            "/diagram?fen={}",
            encode(&typed_fen.replace("sKQkq", "KsQkq"))
        ),
    )
    .await;
    assert_bad(&bad, &["castling field \"KsQkq\" has 's' at column 2"]);
}
