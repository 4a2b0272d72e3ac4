//! Error cards beside the plain diagram of their size: `cargo bench --bench card` (about
//! half a minute). A card is answered uncached by the service's pool, admitted at the cost
//! of a plain diagram of its size and format (`http::error_image`); this shows it costs no
//! more. The sizes in bytes are printed first.
//!
//! Then share cards (`/card.png`) beside diagrams, served through the router: `share/
//! cached-*` a cache hit of each (what a social site's crawler costs after the first;
//! `untitled` is the card of the diagram's very query, so the two differ only in route),
//! `share/card-render` one card drawn (a miss, the render alone).

use axum::body::Body;
use criterion::{Criterion, criterion_group, criterion_main};
use http_body_util::BodyExt;
use staunton::Renderer;
use staunton::http::{AppState, DEFAULT_CACHE_BYTES, app};
use staunton::render::layouts::card;
use staunton::render::options::Format;
use staunton::request::Request;
use staunton::request::share_card::CardRequest;
use std::hint::black_box;
use std::sync::Arc;
use std::time::Duration;
use tower::ServiceExt;

/// A long sentence (as a bad FEN's), the worst case for wrapping.
const SENTENCE: &str = "fen \"rnbqkbnr/pppppppp/9/8/8/8/PPPPPPPP/RNBQKB…\" is not a valid FEN: rank 7 has 9 squares, expected 8";

fn benches(c: &mut Criterion) {
    let renderer = Renderer::default();
    let mut group = c.benchmark_group("card");
    for size in [400, 2048] {
        for format in [Format::Png, Format::Gif, Format::Webp, Format::Svg] {
            let bytes = card::card("400 Bad Request", SENTENCE, size, format).expect("draws");
            println!("card/{}/{size}: {} bytes", format.extension(), bytes.len());
            group.bench_function(format!("card/{}/{size}", format.extension()), |b| {
                b.iter(|| card::card("400 Bad Request", black_box(SENTENCE), size, format))
            });
            let request =
                Request::from_query(&format!("fen=start&size={size}"), None).expect("valid");
            group.bench_function(format!("diagram/{}/{size}", format.extension()), |b| {
                b.iter(|| renderer.render(black_box(&request.position), &request.options, format))
            });
        }
    }
    group.finish();
}

/// A share card's query: a game's position, titled.
const CARD: &str = "/card.png?fen=r1bqkb1r/pppp1Qpp/2n2n2/4p3/2B1P3/8/PPPP1PPP/RNB1K1NR_b_KQkq_-_0_4&lastMove=h5f7&title=Scholar%27s%20Mate&subtitle=White%20mates%20on%20move%20four";
/// The same card without words: the query of [`DIAGRAM`] on the card's route.
const UNTITLED: &str = "/card.png?fen=r1bqkb1r/pppp1Qpp/2n2n2/4p3/2B1P3/8/PPPP1PPP/RNB1K1NR_b_KQkq_-_0_4&lastMove=h5f7";
/// The same position as a plain diagram.
const DIAGRAM: &str = "/diagram.png?fen=r1bqkb1r/pppp1Qpp/2n2n2/4p3/2B1P3/8/PPPP1PPP/RNB1K1NR_b_KQkq_-_0_4&lastMove=h5f7";

/// The body of `uri` through `router`.
async fn serve(router: &axum::Router, uri: &str) -> usize {
    let request = axum::http::Request::get(uri)
        .body(Body::empty())
        .expect("request");
    let response = router.clone().oneshot(request).await.expect("answer");
    assert_eq!(response.status(), 200, "{uri}");
    response
        .into_body()
        .collect()
        .await
        .expect("body")
        .to_bytes()
        .len()
}

fn share(c: &mut Criterion) {
    let runtime = tokio::runtime::Runtime::new().expect("runtime");
    let state = Arc::new(AppState::new(
        Arc::new(Renderer::default()),
        DEFAULT_CACHE_BYTES,
    ));
    // One router, as the service has: each request clones it (a reference count).
    let router = app(state.clone());
    let mut group = c.benchmark_group("share");
    for (name, uri) in [("diagram", DIAGRAM), ("untitled", UNTITLED), ("card", CARD)] {
        let bytes = runtime.block_on(serve(&router, uri));
        println!("share/{name}: {bytes} bytes");
        group.bench_function(format!("cached-{name}"), |b| {
            b.iter(|| runtime.block_on(serve(&router, black_box(uri))))
        });
    }
    assert_eq!(state.renders(), 3, "every iteration was a cache hit");
    let query = &CARD["/card.png?".len()..];
    let pairs: Vec<(String, String)> = query
        .split('&')
        .filter_map(|p| p.split_once('='))
        .map(|(k, v)| (k.to_string(), v.replace("%27", "'").replace("%20", " ")))
        .collect();
    let card = CardRequest::from_pairs_with(pairs, &Default::default()).expect("valid");
    let renderer = Renderer::default();
    group.bench_function("card-render", |b| b.iter(|| card.png(black_box(&renderer))));
    group.finish();
}

criterion_group! {
    name = card_benches;
    config = Criterion::default().sample_size(10).measurement_time(Duration::from_secs(2)).warm_up_time(Duration::from_millis(500));
    targets = benches, share
}
criterion_main!(card_benches);
