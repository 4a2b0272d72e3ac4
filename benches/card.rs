//! Error cards beside the plain diagram of their size: `cargo bench --bench card` (about
//! half a minute). A card is answered uncached by the service's pool, admitted at the cost
//! of a plain diagram of its size and format (`http::error_image`); this shows it costs no
//! more. The sizes in bytes are printed first.

use criterion::{Criterion, criterion_group, criterion_main};
use staunton::Renderer;
use staunton::options::Format;
use staunton::render::card;
use staunton::request::Request;
use std::hint::black_box;
use std::time::Duration;

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

criterion_group! {
    name = card_benches;
    config = Criterion::default().sample_size(10).measurement_time(Duration::from_secs(2)).warm_up_time(Duration::from_millis(500));
    targets = benches
}
criterion_main!(card_benches);
