//! Each encoding of one diagram beside the PNG: `cargo bench --bench formats` (about a
//! minute). Warm renderer; every case renders from the position (scene, composition) and
//! encodes. The sizes in bytes are printed first.

use criterion::{Criterion, criterion_group, criterion_main};
use staunton::Renderer;
use staunton::options::Format;
use staunton::request::Request;
use std::hint::black_box;
use std::time::Duration;

const CASES: [(&str, &str); 2] = [
    ("start", "fen=start"),
    (
        "marked",
        "fen=r1bqkb1r/pppp1Qpp/2n2n2/4p3/2B1P3/8/PPPP1PPP/RNB1K1NR_b_KQkq_-_0_4&lastMove=h5f7&check=auto&arrows=Gc4f7",
    ),
];

fn benches(c: &mut Criterion) {
    let renderer = Renderer::default();
    let mut group = c.benchmark_group("formats");
    for (name, query) in CASES {
        let request = Request::from_query(query, None).expect("valid");
        for format in Format::ALL {
            let bytes = renderer
                .render(&request.position, &request.options, format)
                .expect("renders");
            println!(
                "formats/{}/{name}: {} bytes",
                format.extension(),
                bytes.len()
            );
            group.bench_function(format!("{}/{name}", format.extension()), |b| {
                b.iter(|| renderer.render(black_box(&request.position), &request.options, format))
            });
        }
    }
    group.finish();
}

fn config() -> Criterion {
    Criterion::default()
        .sample_size(30)
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(2))
}

criterion_group! {
    name = formats;
    config = config();
    targets = benches
}
criterion_main!(formats);
