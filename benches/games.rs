//! Games: reading and playing a PGN, a still diagram from it, and whole-game animations.
//!
//! `cargo bench --bench games` (about a minute). Cases:
//! - `pgn/read+play/long`: read Byrne–Fischer 1956 (82 plies, tags and comments) and play
//!   every move by the rules (target: under 50 µs for an 80-ply game);
//! - `pgn/still/long`: the validated request of its last position (`pgn=…`) and a warm PNG
//!   at 400 px, beside `fen/still/long`, the same diagram from its FEN;
//! - `animation/gif|apng/long-720`: the whole game at 720 px without coordinates, with
//!   player bars, on a warm renderer (the case `scripts/bench/gif-vs-lila.sh` times over HTTP).

use criterion::{Criterion, criterion_group, criterion_main};
use staunton::Renderer;
use staunton::chess::game::Game;
use staunton::render::animate;
use staunton::request::{GameRequest, Limits, Request};
use std::hint::black_box;
use std::time::Duration;

fn benches(c: &mut Criterion) {
    let pgn = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/fixtures/games/long.pgn"
    ))
    .expect("the fixture game");
    let game = Game::from_pgn(&pgn, 1000).expect("plays");
    println!("long.pgn: {} plies, {} bytes", game.len(), pgn.len());
    c.bench_function("pgn/read+play/long", |b| {
        b.iter(|| Game::from_pgn(black_box(&pgn), 1000).map(|g| g.len()))
    });

    let renderer = Renderer::default();
    let encoded: String = form_urlencoded::byte_serialize(pgn.as_bytes()).collect();
    let query = format!("pgn={encoded}&size=400");
    let still = Request::from_query(&query, None).expect("valid");
    let fen_query =
        format!("fen={}&size=400&lastMove=e1d1&check=auto", still.position).replace(' ', "_");
    let from_fen = Request::from_query(&fen_query, None).expect("valid");
    renderer
        .png(&still.position, &still.options)
        .expect("warms");
    c.bench_function("pgn/still/long", |b| {
        b.iter(|| {
            let r = Request::from_query(black_box(&query), None).expect("valid");
            renderer.png(&r.position, &r.options)
        })
    });
    c.bench_function("fen/still/long", |b| {
        b.iter(|| {
            let r = Request::from_query(black_box(&fen_query), None).expect("valid");
            renderer.png(&r.position, &r.options)
        })
    });
    drop(from_fen);

    let pairs = vec![
        ("size".to_string(), "720".to_string()),
        ("coordinates".to_string(), "none".to_string()),
    ];
    let request =
        GameRequest::from_pairs_with(pairs, Some(&pgn), "gif", &Limits::default()).expect("valid");
    let frames = request.frames();
    let gif = animate::gif(&renderer, &frames, true).expect("renders");
    let apng = animate::apng(&renderer, &frames, true).expect("renders");
    println!(
        "long.pgn at 720 px: {} frames, GIF {} bytes, APNG {} bytes",
        frames.len(),
        gif.len(),
        apng.len()
    );
    let mut group = c.benchmark_group("animation");
    group.sample_size(20);
    group.bench_function("gif/long-720", |b| {
        b.iter(|| animate::gif(&renderer, black_box(&frames), true))
    });
    group.bench_function("apng/long-720", |b| {
        b.iter(|| animate::apng(&renderer, black_box(&frames), true))
    });
    group.finish();
}

fn config() -> Criterion {
    Criterion::default()
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(3))
}

criterion_group! {
    name = games;
    config = config();
    targets = benches
}
criterion_main!(games);
