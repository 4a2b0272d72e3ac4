//! Hostile input and faults: every one answered with a 4xx (or 503/500 for faults), the
//! process keeps serving, nothing hangs.

use crate::common;

use axum::body::Body;
use axum::http::{Method, Request as HttpRequest, StatusCode, header};
use http_body_util::BodyExt;
use staunton::Renderer;
use staunton::http::{AppState, Config, app};
use staunton::request::Request;
use std::sync::Arc;
use std::time::Duration;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tower::ServiceExt;

fn state_with(config: Config) -> Arc<AppState> {
    Arc::new(AppState::with_config(Arc::new(Renderer::default()), config))
}

fn state() -> Arc<AppState> {
    state_with(Config::default())
}

/// A state whose renders panic for half-move clock 666 and sleep for half-move clock 777.
fn faulty(config: Config) -> Arc<AppState> {
    let hook = Arc::new(|r: &Request| match r.position.halfmove {
        666 => panic!("injected render fault"),
        777 => std::thread::sleep(Duration::from_millis(600)),
        _ => {}
    });
    Arc::new(AppState::with_config(Arc::new(Renderer::default()), config).with_fault_hook(hook))
}

async fn send(
    state: &Arc<AppState>,
    request: HttpRequest<Body>,
) -> (StatusCode, axum::http::HeaderMap, String) {
    let response = app(state.clone())
        .oneshot(request)
        .await
        .expect("infallible");
    let status = response.status();
    let headers = response.headers().clone();
    let body = response
        .into_body()
        .collect()
        .await
        .expect("body")
        .to_bytes();
    (status, headers, String::from_utf8_lossy(&body).into_owned())
}

async fn get(state: &Arc<AppState>, uri: &str) -> (StatusCode, axum::http::HeaderMap, String) {
    send(
        state,
        HttpRequest::get(uri).body(Body::empty()).expect("request"),
    )
    .await
}

fn assert_client_error(status: StatusCode, body: &str, what: &str) {
    assert!(status.is_client_error(), "{what}: {status} {body}");
    assert_eq!(
        body.trim_end().lines().count(),
        1,
        "{what}: one sentence: {body}"
    );
}

/// Serve `state` on a loopback port; send `request` raw; the status line and the body.
async fn raw(state: Arc<AppState>, request: Vec<u8>) -> (String, String) {
    let served = common::Served::start(state, Duration::from_secs(1)).await;
    let mut stream = tokio::net::TcpStream::connect(served.addr)
        .await
        .expect("connect");
    stream.write_all(&request).await.expect("write");
    let mut text = Vec::new();
    let _ = tokio::time::timeout(Duration::from_secs(5), stream.read_to_end(&mut text)).await;
    served.stop().await;
    let text = String::from_utf8_lossy(&text).into_owned();
    let status = text.lines().next().unwrap_or("").to_string();
    let body = text.split("\r\n\r\n").nth(1).unwrap_or("").to_string();
    (status, body)
}

fn get_request(target: &str) -> Vec<u8> {
    format!("GET {target} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n").into_bytes()
}

#[tokio::test]
async fn oversized_inputs() {
    let s = state();
    let (status, body) = raw(
        s.clone(),
        get_request(&format!("/diagram?fen=start&x={}", "a".repeat(70 * 1024))),
    )
    .await;
    assert!(
        status.starts_with("HTTP/1.1 414"),
        "70 KB query: {status} {body}"
    );
    let (status, body) = raw(
        s.clone(),
        get_request(&format!("/diagram?fen={}", "p".repeat(100 * 1024))),
    )
    .await;
    assert!(
        status.starts_with("HTTP/1.1 414"),
        "100 KB fen: {status} {body}"
    );
    let (status, _, body) = get(&s, "/diagram?fen=start&size=99999999999").await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert!(body.contains("size"), "{body}");
    let arrows = vec!["Ge2e4"; 10_000].join(",");
    let (status, _, body) = get(&s, &format!("/diagram?fen=start&arrows={arrows}")).await;
    assert_client_error(status, &body, "10,000 arrows");

    // With the query limit raised, the parameter limits still hold.
    let roomy = state_with(Config {
        max_query_bytes: 1 << 20,
        ..Config::default()
    });
    let (status, body) = raw(
        roomy.clone(),
        get_request(&format!("/diagram?fen={}", "p".repeat(60 * 1024))),
    )
    .await;
    assert!(status.starts_with("HTTP/1.1 400"), "{status}");
    assert!(body.contains("at most 1024 bytes"), "{body}");
    let (status, _, body) = get(&roomy, &format!("/diagram?fen=start&arrows={arrows}")).await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert!(
        body.contains("10000 items") && body.contains("64"),
        "{body}"
    );
    assert_eq!(roomy.renders() + s.renders(), 0);
}

#[tokio::test]
async fn garbage_bytes_and_markup() {
    let s = state();
    for query in [
        "fen=%FF%FE%FD",
        "fen=%00%00",
        "fen=rnbqkbnr%00/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR",
        "fen=%zz%",
        "fen=start&size=%FF",
        "fen=start&orientation=%C3%28",
        "fen=start&light=%23fff%22/%3E%3Cscript%3E",
        "fen=start&arrows=%3Cscript%3Ealert(1)%3C/script%3E",
        "fen=%3Csvg%20onload=alert(1)%3E",
        "%%%&&&===&fen",
    ] {
        let (status, headers, body) = get(&s, &format!("/diagram.svg?{query}")).await;
        assert_client_error(status, &body, query);
        assert_eq!(
            headers[header::CONTENT_TYPE],
            "text/plain; charset=utf-8",
            "{query}"
        );
        assert!(!body.contains('\0'), "{query}");
    }
}

#[tokio::test]
async fn other_methods_are_405_without_reading_the_body() {
    let s = state();
    let big = vec![b'x'; 8 << 20];
    let request = HttpRequest::builder()
        .method(Method::POST)
        .uri("/diagram?fen=start")
        .body(Body::from(big))
        .expect("request");
    let (status, _, _) = send(&s, request).await;
    assert_eq!(status, StatusCode::METHOD_NOT_ALLOWED);
    let head = HttpRequest::builder()
        .method(Method::HEAD)
        .uri("/diagram?fen=start")
        .body(Body::empty())
        .expect("request");
    let (status, _, body) = send(&s, head).await;
    assert_eq!((status, body.as_str()), (StatusCode::OK, ""));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_full_queue_answers_503_while_health_and_hits_go_on() {
    let s = faulty(Config {
        workers: 1,
        queue: 0,
        ..Config::default()
    });
    let (status, _, _) = get(&s, "/diagram?fen=start").await;
    assert_eq!(status, StatusCode::OK, "warm one cache entry");
    let slow = {
        let s = s.clone();
        tokio::spawn(async move { get(&s, "/diagram?fen=8/8/8/8/8/8/8/K7_w_-_-_777_1").await })
    };
    tokio::time::sleep(Duration::from_millis(150)).await;
    let started = std::time::Instant::now();
    let (status, headers, body) = get(&s, "/diagram?fen=8/8/8/8/8/8/8/k7").await;
    assert_eq!(status, StatusCode::SERVICE_UNAVAILABLE, "{body}");
    assert_eq!(headers[header::RETRY_AFTER], "1");
    assert!(
        started.elapsed() < Duration::from_millis(100),
        "503 comes at once"
    );
    assert_eq!(get(&s, "/health").await.0, StatusCode::OK);
    assert_eq!(
        get(&s, "/diagram?fen=start").await.0,
        StatusCode::OK,
        "hits still served"
    );
    assert_eq!(slow.await.expect("task").0, StatusCode::OK);
    assert_eq!(
        get(&s, "/diagram?fen=8/8/8/8/8/8/8/k7").await.0,
        StatusCode::OK,
        "served once the queue drains"
    );
    let (_, _, metrics) = get(&s, "/metrics").await;
    assert!(metrics.contains("staunton_rejected_total 1"), "{metrics}");
}

#[tokio::test]
async fn a_panicking_render_is_a_500_for_that_request_only() {
    let s = faulty(Config::default());
    let (status, headers, body) = get(&s, "/diagram?fen=8/8/8/8/8/8/8/K7_w_-_-_666_1").await;
    assert_eq!(status, StatusCode::INTERNAL_SERVER_ERROR);
    assert_eq!(headers[header::CACHE_CONTROL], "no-store");
    assert!(!body.contains("injected"), "no internals leak: {body}");
    let (status, _, _) = get(&s, "/diagram?fen=8/8/8/8/8/8/8/K7_w_-_-_666_1").await;
    assert_eq!(
        status,
        StatusCode::INTERNAL_SERVER_ERROR,
        "errors are not cached"
    );
    assert_eq!(get(&s, "/diagram?fen=start").await.0, StatusCode::OK);
    let (_, _, metrics) = get(&s, "/metrics").await;
    assert!(
        metrics.contains("staunton_requests_total{route=\"/diagram\",status=\"500\"} 2"),
        "{metrics}"
    );
    assert!(
        metrics.contains("staunton_render_seconds_count"),
        "{metrics}"
    );
}

#[tokio::test]
async fn a_huge_header_is_refused_over_a_real_socket() {
    let served = common::Served::start(state(), Duration::from_secs(1)).await;
    let addr = served.addr;
    let stream = tokio::net::TcpStream::connect(addr).await.expect("connect");
    let (mut read, mut write) = stream.into_split();
    let writer = tokio::spawn(async move {
        let _ = write
            .write_all(b"GET /health HTTP/1.1\r\nHost: x\r\nX-Big: ")
            .await;
        let chunk = vec![b'a'; 64 * 1024];
        for _ in 0..160 {
            if write.write_all(&chunk).await.is_err() {
                break;
            }
        }
    });
    let mut answer = vec![0; 64];
    let n = tokio::time::timeout(Duration::from_secs(5), read.read(&mut answer))
        .await
        .expect("answers in time")
        .expect("read");
    let line = String::from_utf8_lossy(&answer[..n]);
    assert!(line.starts_with("HTTP/1.1 431"), "{line}");
    writer.abort();
    // The service is still there.
    let mut again = tokio::net::TcpStream::connect(addr).await.expect("connect");
    again
        .write_all(b"GET /health HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        .await
        .expect("write");
    let mut text = String::new();
    again.read_to_string(&mut text).await.expect("read");
    assert!(text.starts_with("HTTP/1.1 200"), "{text}");
    served.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn shutdown_finishes_the_request_in_flight() {
    let served = common::Served::start(faulty(Config::default()), Duration::from_secs(5)).await;
    let addr = served.addr;
    let mut stream = tokio::net::TcpStream::connect(addr).await.expect("connect");
    stream
        .write_all(b"GET /diagram?fen=8/8/8/8/8/8/8/K7_w_-_-_777_1 HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        .await
        .expect("write");
    tokio::time::sleep(Duration::from_millis(150)).await;
    let stopping = tokio::spawn(served.stop());
    let mut raw = Vec::new();
    stream.read_to_end(&mut raw).await.expect("read");
    assert!(
        raw.starts_with(b"HTTP/1.1 200"),
        "{}",
        String::from_utf8_lossy(&raw[..raw.len().min(200)])
    );
    stopping.await.expect("stops cleanly");
    assert!(
        tokio::net::TcpStream::connect(addr).await.is_err(),
        "no longer accepting"
    );
}

#[tokio::test]
async fn a_slow_client_is_cut_off_after_the_header_timeout() {
    let state = state_with(Config {
        header_timeout: Duration::from_millis(300),
        ..Config::default()
    });
    let served = common::Served::start(state, Duration::from_secs(1)).await;
    let addr = served.addr;
    let mut slow = tokio::net::TcpStream::connect(addr).await.expect("connect");
    slow.write_all(b"GET /health HTTP/1.1\r\nHost: x\r\n")
        .await
        .expect("write");
    // ...and never finishes its headers.
    let started = std::time::Instant::now();
    let mut rest = Vec::new();
    let read = tokio::time::timeout(Duration::from_secs(5), slow.read_to_end(&mut rest)).await;
    assert!(read.is_ok(), "the server closed the connection");
    assert!(
        started.elapsed() < Duration::from_secs(2),
        "after about the header timeout"
    );
    served.stop().await;
}

#[tokio::test]
async fn limits_are_the_service_s_own() {
    let strict = state_with(Config {
        limits: staunton::request::Limits {
            fen_bytes: 40,
            arrows: 2,
            squares: 1,
            max_size: 800,
            pgn_bytes: 30,
            plies: 3,
        },
        ..Config::default()
    });
    let cases = [
        ("/diagram?fen=start&size=1000", "from 16 to 800"),
        (
            "/diagram?fen=rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR_w_KQkq_-_0_1",
            "at most 40 bytes",
        ),
        ("/diagram?fen=start&arrows=Ge2e4,Gd2d4,Gc2c4", "at most 2"),
        ("/diagram?fen=start&squares=e4,d4", "at most 1"),
        (
            "/diagram?moves=e2e4_e7e5_g1f3_b8c6",
            "at most 3 are allowed",
        ),
        (
            "/diagram?pgn=1.e4%20e5%202.Nf3%20Nc6%203.Bb5%20a6%204.Ba4%20Nf6",
            "at most 30 bytes are allowed in a URL",
        ),
    ];
    for (uri, words) in cases {
        let (status, _, body) = get(&strict, uri).await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{uri}");
        assert!(body.contains(words), "{uri}: {body}");
    }
    assert_eq!(
        get(&strict, "/diagram?fen=start&size=800&arrows=Ge2e4")
            .await
            .0,
        StatusCode::OK
    );
}
