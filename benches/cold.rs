//! The first render at a size never seen, against resvg rasterising the whole SVG.
//!
//! `cargo bench --bench cold` (about 3–4 minutes on 2 cores; `-- --list` lists the cases).
//! For each size (400, 800, 1600, 2048 px) and position (the start position and a
//! middlegame), one group `cold/<size>` with:
//!
//! - `staunton/first/<pos>`: a brand-new `Renderer::default()`, made in the untimed setup
//!   and dropped outside the timing, then one `png`: sprites and the board's context are
//!   built for that size inside the timing (the per-thread pixel and encoder buffers are not
//!   the renderer's: they are reused from the previous iteration, except above about 1000 px,
//!   where they are freed after each render);
//! - `staunton/warm/<pos>`: a renderer that has already rendered that diagram's size;
//! - `resvg/rasterise/<pos>`: usvg parse of Staunton's SVG of the diagram (written once,
//!   outside the loop) and a resvg render into a pixmap of the tree's size;
//! - `resvg/rasterise+encode/<pos>`: the same plus tiny-skia's `encode_png`: the per-request
//!   work of `examples/resvg_server.rs`, the baseline of `scripts/bench/cold.sh`.
//!
//! Each run prints the PNG sizes (Staunton's and resvg's) and the SVG size of every case.

use criterion::{BatchSize, Criterion, SamplingMode, criterion_group, criterion_main};
use resvg::tiny_skia;
use staunton::chess::fen;
use staunton::{RenderOptions, Renderer};
use std::hint::black_box;
use std::time::Duration;

const POSITIONS: [(&str, &str); 2] = [
    (
        "start",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    ),
    (
        "middlegame",
        "r1bq1rk1/pp3ppp/3n4/2p1N3/2B5/7P/PPP2PP1/R1BQR1K1 w - - 0 1",
    ),
];

const SIZES: [u32; 4] = [400, 800, 1600, 2048];

/// usvg parse and resvg render of a whole SVG into a pixmap of the tree's size.
fn rasterise(svg: &str, usvg_options: &usvg::Options) -> tiny_skia::Pixmap {
    let tree = usvg::Tree::from_str(svg, usvg_options).expect("Staunton's SVG parses");
    let size = tree.size().to_int_size();
    let mut pixmap = tiny_skia::Pixmap::new(size.width(), size.height()).expect("allocates");
    resvg::render(&tree, tiny_skia::Transform::default(), &mut pixmap.as_mut());
    pixmap
}

fn benches(c: &mut Criterion) {
    let usvg_options = usvg::Options::default();
    for size in SIZES {
        let mut group = c.benchmark_group(format!("cold/{size}"));
        // Some cases take tens of milliseconds: the same iterations in every sample.
        group.sampling_mode(SamplingMode::Flat);
        let options = RenderOptions {
            size,
            ..RenderOptions::default()
        };
        for (name, text) in POSITIONS {
            let position = fen::parse(text).expect("valid FEN");
            let warm = Renderer::default();
            let png = warm.png(&position, &options).expect("renders");
            let svg = warm.svg(&position, &options).expect("renders");
            let resvg_png = rasterise(&svg, &usvg_options)
                .encode_png()
                .expect("encodes");
            println!(
                "cold/{size}/{name}: Staunton PNG {} bytes, resvg PNG {} bytes, SVG {} bytes",
                png.len(),
                resvg_png.len(),
                svg.len()
            );

            group.bench_function(format!("staunton/first/{name}"), |b| {
                b.iter_batched_ref(
                    Renderer::default,
                    |renderer| renderer.png(black_box(&position), &options),
                    BatchSize::PerIteration,
                )
            });
            group.bench_function(format!("staunton/warm/{name}"), |b| {
                b.iter(|| warm.png(black_box(&position), &options))
            });
            group.bench_function(format!("resvg/rasterise/{name}"), |b| {
                b.iter(|| rasterise(black_box(&svg), &usvg_options))
            });
            group.bench_function(format!("resvg/rasterise+encode/{name}"), |b| {
                b.iter(|| rasterise(black_box(&svg), &usvg_options).encode_png())
            });
        }
        group.finish();
    }
}

/// Ten samples, short warm-up and measurement: the 32 cases in about 3–4 minutes.
fn config() -> Criterion {
    Criterion::default()
        .sample_size(10)
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(2))
}

criterion_group! {
    name = cold;
    config = config();
    targets = benches
}
criterion_main!(cold);
