//! Work a client gave up on stops, and every request's cost is counted before it runs:
//! abandoned renders are cancelled, admission is by time, heavy markup never runs on the
//! async worker, cache keys cannot collide, every answer is counted, bodies are read
//! strictly.

mod common;

use axum::body::Body;
use axum::http::{HeaderMap, Request, StatusCode, header};
use http_body_util::BodyExt;
use staunton::Renderer;
use staunton::http::{AppState, Config, app};
use std::sync::Arc;
use std::time::{Duration, Instant};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tower::ServiceExt;

/// The tests here load both cores on purpose: one at a time, so none skews another's
/// timing.
static SERIAL: tokio::sync::Mutex<()> = tokio::sync::Mutex::const_new(());

fn state_with(config: Config) -> Arc<AppState> {
    Arc::new(AppState::with_config(Arc::new(Renderer::default()), config))
}

struct Answer {
    status: StatusCode,
    headers: HeaderMap,
    body: Vec<u8>,
}

impl Answer {
    fn text(&self) -> String {
        String::from_utf8_lossy(&self.body).into_owned()
    }
    fn header(&self, name: header::HeaderName) -> &str {
        self.headers
            .get(name)
            .and_then(|v| v.to_str().ok())
            .unwrap_or("")
    }
}

async fn get(state: &Arc<AppState>, uri: &str) -> Answer {
    send(
        state,
        Request::get(uri).body(Body::empty()).expect("request"),
    )
    .await
}

async fn post(state: &Arc<AppState>, uri: &str, body: String) -> Answer {
    send(
        state,
        Request::post(uri).body(Body::from(body)).expect("request"),
    )
    .await
}

async fn send(state: &Arc<AppState>, request: Request<Body>) -> Answer {
    let response = app(state.clone())
        .oneshot(request)
        .await
        .expect("infallible");
    let status = response.status();
    let headers = response.headers().clone();
    let body = response.into_body().collect().await.expect("body");
    Answer {
        status,
        headers,
        body: body.to_bytes().to_vec(),
    }
}

/// The value of the sample `name` (with its labels) in `/metrics`; it must be there.
async fn metric(state: &Arc<AppState>, name: &str) -> f64 {
    let text = get(state, "/metrics").await.text();
    text.lines()
        .find_map(|l| l.strip_prefix(name)?.strip_prefix(' ')?.trim().parse().ok())
        .unwrap_or_else(|| panic!("no sample {name} in /metrics"))
}

/// Wait until no render is admitted any more (the queue gauge is 0); `false` if that
/// takes longer than `limit`.
async fn settles(state: &Arc<AppState>, limit: Duration) -> bool {
    let start = Instant::now();
    while start.elapsed() < limit {
        if metric(state, "staunton_render_queue_depth").await == 0.0 {
            return true;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    false
}

const SQUARES: &str = "a1b1c1d1e1f1g1h1a2b2c2d2e2f2g2h2a3b3c3d3e3f3g3h3a4b4c4d4e4f4g4h4a5b5c5d5e5f5g5h5a6b6c6d6e6f6g6h6a7b7c7d7e7f7g7h7a8b8c8d8e8f8g8h8";

fn square(i: usize) -> &'static str {
    let i = i % 64;
    &SQUARES[2 * i..2 * i + 2]
}

/// `n` long arrows, different for each `variant`.
fn arrows(n: usize, variant: usize) -> String {
    (0..n)
        .map(|i| {
            let from = (i * 7 + variant * 5) % 64;
            let to = (from + 27 + i % 9 + variant) % 64;
            let to = if to == from { (to + 1) % 64 } else { to };
            format!(
                "{}{}{}",
                ["G", "R", "Y", "B"][i % 4],
                square(from),
                square(to)
            )
        })
        .collect::<Vec<_>>()
        .join(",")
}

/// The most markup the default limits allow on one board: 64 arrows, 64 highlighted
/// squares, 64 crosses and a check.
fn maximal_markup(variant: usize) -> String {
    let highlights: Vec<String> = (0..64)
        .map(|i| format!("{}{}", ["G", "R", "Y", "B"][(i + variant) % 4], square(i)))
        .collect();
    let crosses: Vec<&str> = (0..64).map(|i| square(i + variant)).collect();
    format!(
        "arrows={}&highlights={}&squares={}&check=e1",
        arrows(64, variant),
        highlights.join(","),
        crosses.join(",")
    )
}

/// A game of knights walking out and back, `plies` long, each move with `arrows` arrows
/// in a `[%cal]` comment.
fn knight_game(plies: usize, arrows_per_move: usize) -> String {
    let moves = ["Nf3", "Nf6", "Ng1", "Ng8"];
    let mut pgn = String::new();
    for ply in 0..plies {
        if ply % 2 == 0 {
            pgn.push_str(&format!("{}. ", ply / 2 + 1));
        }
        let cal = arrows(arrows_per_move, ply);
        pgn.push_str(&format!("{} {{[%cal {cal}]}} ", moves[ply % 4]));
    }
    pgn
}

fn encode(s: &str) -> String {
    form_urlencoded::byte_serialize(s.as_bytes()).collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_abandoned_render_stops_and_frees_its_worker() {
    let _serial = SERIAL.lock().await;
    let s = state_with(Config {
        request_timeout: Duration::from_millis(300),
        workers: 1,
        ..Config::default()
    });
    // Thirteen frames at 2048 px under 16 arrows each: within the bound, and most of a
    // second of work even in a release build. Alone, it is admitted; it holds the only
    // worker.
    let heavy = format!("/game.gif?size=2048&pgn={}", encode(&knight_game(12, 16)));
    let timed_out = get(&s, &heavy).await;
    assert_eq!(
        timed_out.status,
        StatusCode::REQUEST_TIMEOUT,
        "{}",
        timed_out.text()
    );
    assert_eq!(
        timed_out.text().trim_end().lines().count(),
        1,
        "one sentence"
    );
    assert!(timed_out.text().contains("0.3 s"), "{}", timed_out.text());
    assert_eq!(timed_out.header(header::CACHE_CONTROL), "no-store");
    assert_eq!(timed_out.header(header::X_CONTENT_TYPE_OPTIONS), "nosniff");
    // The render stops at its next checkpoint and gives its worker back.
    assert!(
        settles(&s, Duration::from_secs(5)).await,
        "the abandoned render still holds the queue"
    );
    // Stopped at a checkpoint, not finished and thrown away.
    assert_eq!(metric(&s, "staunton_cancelled_total").await, 1.0);
    assert_eq!(
        metric(
            &s,
            r#"staunton_requests_total{route="/game.gif",status="408"}"#
        )
        .await,
        1.0,
        "408s are counted"
    );
    // A plain diagram is served within its own deadline, not after the heavy games.
    let plain = get(&s, "/diagram?fen=8/8/8/4k3/8/8/8/4K3_w&size=300").await;
    assert_eq!(plain.status, StatusCode::OK, "{}", plain.text());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_client_that_disconnects_cancels_its_render() {
    let _serial = SERIAL.lock().await;
    let s = state_with(Config {
        request_timeout: Duration::from_secs(60),
        workers: 1,
        ..Config::default()
    });
    let served = common::Served::start(s.clone(), Duration::from_secs(1)).await;
    let heavy = format!("/game.gif?size=2048&pgn={}", encode(&knight_game(12, 16)));
    let mut stream = tokio::net::TcpStream::connect(served.addr)
        .await
        .expect("connect");
    let request = format!("GET {heavy} HTTP/1.1\r\nHost: x\r\n\r\n");
    stream.write_all(request.as_bytes()).await.expect("write");
    // Let the render start, then go away.
    let start = Instant::now();
    while metric(&s, "staunton_render_queue_depth").await == 0.0 {
        assert!(start.elapsed() < Duration::from_secs(5), "never admitted");
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    tokio::time::sleep(Duration::from_millis(200)).await;
    drop(stream);
    assert!(
        settles(&s, Duration::from_secs(5)).await,
        "the render of a client that left still runs"
    );
    // Stopped at a checkpoint, not finished and thrown away.
    assert_eq!(metric(&s, "staunton_cancelled_total").await, 1.0);
    served.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn heavy_renders_beyond_what_the_deadline_allows_get_503_at_once_not_408() {
    let _serial = SERIAL.lock().await;
    let heavy = |v: usize| format!("/diagram?fen=start&size=2048&arrows={}", arrows(64, v));
    // Renders two by two teach the service how fast this machine (and build) is with
    // both workers busy; the last pair's time sets the deadline, so that about six
    // renders a worker fit in it and the twenty sent at once do not (on a fast build
    // one takes 50 ms, on a slow machine seconds).
    let pairs = |s: Arc<AppState>, first: usize| async move {
        let mut slowest = Duration::ZERO;
        for v in [first, first + 2] {
            let (one, two) = (heavy(v), heavy(v + 1));
            let started = Instant::now();
            let (a, b) = tokio::join!(get(&s, &one), get(&s, &two));
            slowest = started.elapsed();
            assert_eq!(a.status, StatusCode::OK, "{}", a.text());
            assert_eq!(b.status, StatusCode::OK, "{}", b.text());
        }
        slowest
    };
    let probe = state_with(Config {
        workers: 2,
        ..Config::default()
    });
    let pair = pairs(probe, 90).await;
    // At least a second, so that the first pairs are admitted before the pace is learnt
    // (two renders at the default pace of 1 ns a unit: 0.4 s); and enough renders at once
    // for twice the deadline's work, within the queue (64).
    let timeout = (pair * 6).clamp(Duration::from_secs(1), Duration::from_secs(8));
    let at_once =
        ((4.0 * timeout.as_secs_f64() / pair.as_secs_f64()).ceil() as usize).clamp(20, 60);
    println!("a heavy pair took {pair:?}: deadline {timeout:?}, {at_once} at once");
    let s = state_with(Config {
        request_timeout: timeout,
        workers: 2,
        ..Config::default()
    });
    pairs(s.clone(), 80).await;
    let mut tasks = Vec::new();
    for v in 0..at_once {
        let (s, uri) = (s.clone(), heavy(v));
        tasks.push(tokio::spawn(async move { get(&s, &uri).await }));
    }
    let mut counts = std::collections::BTreeMap::new();
    for task in tasks {
        let answer = task.await.expect("task");
        if answer.status == StatusCode::SERVICE_UNAVAILABLE {
            let retry: u64 = answer
                .header(header::RETRY_AFTER)
                .parse()
                .expect("Retry-After");
            assert!(retry >= 1, "Retry-After {retry}");
        }
        *counts.entry(answer.status.as_u16()).or_insert(0) += 1;
    }
    println!("{at_once} concurrent heavy renders: {counts:?}");
    assert_eq!(counts.get(&408), None, "{counts:?}");
    assert!(counts.get(&200).is_some_and(|&n| n >= 1), "{counts:?}");
    assert!(counts.get(&503).is_some_and(|&n| n >= 1), "{counts:?}");
    assert_eq!(counts.values().sum::<usize>(), at_once);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn heavy_markup_never_runs_on_the_async_worker() {
    let _serial = SERIAL.lock().await;
    // What is measured is /health's latency, not the renders' deadline: a generous one, so
    // a machine busy with other work (a debug build on two shared cores) answers 200 or
    // 503, never 408.
    let s = state_with(Config {
        request_timeout: Duration::from_secs(120),
        ..Config::default()
    });
    // A plain one-megapixel board builds the context, then another is quick.
    let plain = get(&s, "/diagram?fen=start&size=1024").await;
    assert_eq!(plain.status, StatusCode::OK);
    let before = s.inline_renders();
    let quick = get(&s, "/diagram?fen=8/8/8/4k3/8/8/8/4K3_w&size=1024").await;
    assert_eq!(quick.status, StatusCode::OK);
    assert_eq!(s.inline_renders(), before + 1, "a plain board is quick");
    // Eight clients of maximal markup on the same board size: all on the pool, while
    // /health goes on answering.
    let inline = s.inline_renders();
    let mut clients = Vec::new();
    for client in 0..8 {
        let s = s.clone();
        clients.push(tokio::spawn(async move {
            for round in 0..3 {
                let uri = format!(
                    "/diagram?fen=start&size=1024&{}",
                    maximal_markup(client * 3 + round)
                );
                // A 503 is an honest answer too (the build under test may be slow).
                let answer = get(&s, &uri).await;
                assert!(
                    [StatusCode::OK, StatusCode::SERVICE_UNAVAILABLE].contains(&answer.status),
                    "{}",
                    answer.text()
                );
            }
        }));
    }
    let mut health = Vec::new();
    while clients.iter().any(|c| !c.is_finished()) {
        let start = Instant::now();
        assert_eq!(get(&s, "/health").await.status, StatusCode::OK);
        health.push(start.elapsed());
        tokio::time::sleep(Duration::from_millis(5)).await;
    }
    for c in clients {
        c.await.expect("client");
    }
    assert!(s.renders() > inline + 1, "some of them were rendered");
    assert_eq!(
        s.inline_renders(),
        inline,
        "a board under maximal markup ran on the async worker"
    );
    health.sort();
    let p99 = health[(health.len() * 99 / 100).min(health.len() - 1)];
    println!(
        "/health under 8 clients of maximal markup at 1024 px: {} samples, p99 {p99:?}",
        health.len()
    );
}

#[tokio::test]
async fn player_names_with_separators_do_not_share_a_cache_entry() {
    let s = state_with(Config::default());
    let a = get(&s, "/image.gif?fen=start&black=a%7Cb&white=c").await;
    let b = get(&s, "/image.gif?fen=start&black=a&white=b%7Cc").await;
    assert_eq!((a.status, b.status), (StatusCode::OK, StatusCode::OK));
    assert_ne!(a.header(header::ETAG), b.header(header::ETAG));
    assert_ne!(a.body, b.body, "each gets its own names drawn");
    assert_eq!(s.renders(), 2);
}

#[tokio::test]
async fn separators_in_every_free_text_parameter_give_distinct_keys() {
    let s = state_with(Config::default());
    // Pairs of queries that a key joining fields with `|` would confuse.
    let pairs = [
        (
            "/game.json?pgn=1.%20e4%20%7Ba%7Cb%7D%20e5",
            "/game.json?pgn=1.%20e4%20%7Ba%7D%20e5",
        ),
        (
            "/sheet.svg?fen=start&caption=a%7Cb&fen=start&caption=c",
            "/sheet.svg?fen=start&caption=a&fen=start&caption=b%7Cc",
        ),
        (
            "/sheet.svg?fen=start&title=x%7Cy&caption=z",
            "/sheet.svg?fen=start&title=x&caption=y%7Cz",
        ),
        (
            "/image.gif?fen=start&white=%7C&black=",
            "/image.gif?fen=start&white=&black=%7C",
        ),
    ];
    for (one, other) in pairs {
        let (a, b) = (get(&s, one).await, get(&s, other).await);
        assert_eq!(a.status, StatusCode::OK, "{one}: {}", a.text());
        assert_eq!(b.status, StatusCode::OK, "{other}: {}", b.text());
        assert_ne!(
            a.header(header::ETAG),
            b.header(header::ETAG),
            "{one} and {other} share a key"
        );
    }
}

#[tokio::test]
async fn an_animation_s_bound_counts_its_marks() {
    let s = state_with(Config::default());
    let plain = get(&s, "/game.gif?size=2048&moves=g1f3_g8f6_f3g1_f6g8").await;
    assert_eq!(plain.status, StatusCode::OK, "{}", plain.text());
    let marked = format!("/game.gif?size=2048&pgn={}", encode(&knight_game(20, 16)));
    let refused = get(&s, &marked).await;
    assert_eq!(refused.status, StatusCode::BAD_REQUEST);
    let text = refused.text();
    for words in ["21 frames", "megapixels", "fewer arrows", "from, to"] {
        assert!(text.contains(words), "{text:?} lacks {words:?}");
    }
    assert_eq!(s.renders(), 1, "the refused one was never rendered");
}

#[tokio::test]
async fn a_bad_move_comes_back_short_and_printable() {
    let s = state_with(Config::default());
    let token = format!("<script>\u{1b}{}", "N".repeat(15_000));
    let answer = get(
        &s,
        &format!("/game.gif?pgn={}", encode(&format!("1. e4 {token}"))),
    )
    .await;
    assert_eq!(answer.status, StatusCode::BAD_REQUEST);
    let text = answer.text();
    assert!(text.len() < 300, "{} bytes", text.len());
    assert!(!text.contains('\u{1b}'), "{text:?}");
    assert!(text.contains("is not"), "{text:?}");
}

/// Serve `state`, send `request` raw and read for at most `wait`: what came back.
async fn raw(state: Arc<AppState>, request: &[u8], wait: Duration) -> String {
    let served = common::Served::start(state, Duration::from_secs(1)).await;
    let mut stream = tokio::net::TcpStream::connect(served.addr)
        .await
        .expect("connect");
    stream.write_all(request).await.expect("write");
    let mut text = Vec::new();
    let _ = tokio::time::timeout(wait, stream.read_to_end(&mut text)).await;
    drop(stream);
    served.stop().await;
    String::from_utf8_lossy(&text).into_owned()
}

#[tokio::test]
async fn bodies_are_read_strictly() {
    let s = state_with(Config::default());
    // A declared length over the limit: 413 at once, never 100 Continue.
    let huge = b"POST /game.gif HTTP/1.1\r\nHost: x\r\nContent-Length: 1000000000\r\nExpect: 100-continue\r\nConnection: close\r\n\r\n";
    let start = Instant::now();
    let answer = raw(s.clone(), huge, Duration::from_secs(5)).await;
    assert!(answer.starts_with("HTTP/1.1 413"), "{answer}");
    assert!(!answer.contains("100 Continue"), "{answer}");
    assert!(answer.contains("at most 65536 bytes"), "{answer}");
    assert!(
        start.elapsed() < Duration::from_secs(5),
        "answered before the client gave up"
    );
    // A malformed chunked body: 400, not "too long".
    let bad_chunks = b"POST /game.gif HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\nzz\r\n1. e4\r\n0\r\n\r\n";
    let answer = raw(s.clone(), bad_chunks, Duration::from_secs(5)).await;
    assert!(answer.starts_with("HTTP/1.1 400"), "{answer}");
    assert!(answer.contains("could not be read"), "{answer}");
    assert_eq!(s.renders(), 0);
}

/// A PGN whose `White` and `Black` tags hold `n` characters each, around a short game with
/// a diagram.
fn long_named_game(n: usize) -> String {
    let name: String = "Kieseritzky Lionel Adalbert "
        .chars()
        .cycle()
        .take(n)
        .collect();
    format!(
        "[White \"{name}\"]\n[Black \"{name}\"]\n[Event \"Casual\"]\n\n1. e4 e5 {{[#]}} 2. Nf3 Nc6 *\n"
    )
}

/// The freeze a probe found: long player names were laid out on the async workers, so two
/// articles of 20,000-character names held both and `/health` waited 18 s. Now a long
/// text is read and laid out on the render pool. The hook holds that work until `/health`
/// has answered: were it on the async worker (one, here), `/health` could not answer at
/// all, and were it not on the pool the hook would never run.
#[tokio::test(flavor = "current_thread")]
async fn health_answers_while_long_text_is_laid_out() {
    let _serial = SERIAL.lock().await;
    let (release, held) = std::sync::mpsc::channel::<()>();
    let held = std::sync::Mutex::new(held);
    let entered = Arc::new(std::sync::atomic::AtomicUsize::new(0));
    let seen = entered.clone();
    let hook: staunton::http::TextHook = Arc::new(move || {
        seen.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
        let _ = held
            .lock()
            .expect("lock")
            .recv_timeout(Duration::from_secs(60));
    });
    let s = Arc::new(
        AppState::with_config(Arc::new(Renderer::default()), Config::default())
            .with_text_hook(hook),
    );
    let article = {
        let s = s.clone();
        tokio::spawn(async move { post(&s, "/article.html", long_named_game(20_000)).await })
    };
    let start = Instant::now();
    while entered.load(std::sync::atomic::Ordering::SeqCst) == 0 {
        assert!(
            start.elapsed() < Duration::from_secs(30),
            "the article's long text never reached the render pool"
        );
        tokio::time::sleep(Duration::from_millis(5)).await;
    }
    let health = tokio::time::timeout(Duration::from_secs(30), get(&s, "/health"))
        .await
        .expect("/health answers while the article's text is being laid out");
    assert_eq!(health.status, StatusCode::OK);
    release.send(()).expect("the hook waits");
    let article = article.await.expect("the article's task");
    assert_eq!(article.status, StatusCode::OK, "{}", article.text());
    let policy = article.header(header::CONTENT_SECURITY_POLICY);
    assert!(policy.contains("default-src 'none'"), "{policy}");
}

/// Long names on every route that draws them are answered within the service's own
/// deadline (with the quadratic layout, 20,000 characters took minutes): an article, an
/// animation (its bars on every frame), a game's moves, a share card.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn long_names_are_answered_within_the_deadline() {
    let _serial = SERIAL.lock().await;
    let s = state_with(Config::default());
    let game = long_named_game(20_000);
    for (uri, body) in [
        ("/article.html", Some(game.clone())),
        ("/article.pdf", Some(game.clone())),
        ("/game.gif?size=240", Some(game.clone())),
        ("/game.json", Some(game.clone())),
    ] {
        let start = Instant::now();
        let answer = post(&s, uri, body.expect("a body")).await;
        assert_eq!(answer.status, StatusCode::OK, "{uri}: {}", answer.text());
        println!("{uri} with 20,000-character names: {:?}", start.elapsed());
    }
    // A card's query holds a PGN of two 7,000-character names (`white` and `black` on
    // `/image.gif` are 100 characters at most).
    let uri = format!("/card.png?pgn={}", encode(&long_named_game(7_000)));
    let answer = get(&s, &uri).await;
    assert_eq!(
        answer.status,
        StatusCode::OK,
        "/card.png: {}",
        answer.text()
    );
}

/// A body that arrives too slowly is told so, not asked for a smaller picture.
#[tokio::test]
async fn a_slow_upload_s_timeout_names_the_upload() {
    let s = state_with(Config {
        request_timeout: Duration::from_millis(500),
        ..Config::default()
    });
    let slow = b"POST /article.html HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\nConnection: close\r\n\r\n[White \"A\"]";
    let answer = raw(s.clone(), slow, Duration::from_secs(5)).await;
    assert!(answer.starts_with("HTTP/1.1 408"), "{answer}");
    assert!(
        answer.contains("the request body did not arrive within 0.5 s"),
        "{answer}"
    );
    assert!(!answer.contains("smaller size"), "{answer}");
}
