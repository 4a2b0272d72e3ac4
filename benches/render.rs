//! Criterion benchmarks of the pipeline stages: parse, scene, SVG, and PNG (cache miss).
//!
//! `cargo bench --bench render`; figures go into the README's performance section. Each
//! run also prints the sizes of the images it times.

use criterion::{Criterion, criterion_group, criterion_main};
use staunton::chess::fen;
use staunton::render::options::Format;
use staunton::request::Request;
use staunton::{RenderOptions, Renderer};
use std::hint::black_box;

const START: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
const MIDDLEGAME: &str = "r1bq1rk1/pp3ppp/3n4/2p1N3/2B5/7P/PPP2PP1/R1BQR1K1 w - - 0 1";

fn benches(c: &mut Criterion) {
    c.bench_function("parse/start", |b| b.iter(|| fen::parse(black_box(START))));
    c.bench_function("request/query", |b| {
        b.iter(|| {
            Request::from_query(
                black_box("fen=start&size=400&orientation=black"),
                Some(Format::Png),
            )
        })
    });

    let renderer = Renderer::default();
    let position = fen::parse(START).expect("valid");
    for size in [400u32, 720, 800] {
        let options = RenderOptions {
            size,
            ..RenderOptions::default()
        };
        // Warm the sprite cache: a cache miss of the *image* cache still reuses sprites.
        let png = renderer.png(&position, &options).expect("renders");
        let svg = renderer.svg(&position, &options).expect("renders");
        println!(
            "start/{size}: PNG {} bytes, SVG {} bytes",
            png.len(),
            svg.len()
        );
        c.bench_function(&format!("scene/start/{size}"), |b| {
            b.iter(|| renderer.scene(black_box(&position), &options))
        });
        c.bench_function(&format!("svg/start/{size}"), |b| {
            b.iter(|| renderer.svg(black_box(&position), &options))
        });
        c.bench_function(&format!("png/start/{size}"), |b| {
            b.iter(|| renderer.png(black_box(&position), &options))
        });
    }
    // The annotated case: last move, check, three arrows, two highlights.
    let annotated = Request::from_query(
        "fen=rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR_w_KQkq_-_1_3&lastMove=d8h4&check=auto&arrows=Gh4e1,Rg2g3,Yb1c3&highlight=Ge5,Rf3",
        Some(Format::Png),
    )
    .expect("valid");
    let png = renderer
        .png(&annotated.position, &annotated.options)
        .expect("renders");
    println!("annotated/400: PNG {} bytes", png.len());
    c.bench_function("png/annotated/400", |b| {
        b.iter(|| renderer.png(black_box(&annotated.position), &annotated.options))
    });
    // The same position without the marks: the annotated target is 2x this, and 2x the
    // start position.
    let plain = Request::from_query(
        "fen=rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR_w_KQkq_-_1_3",
        Some(Format::Png),
    )
    .expect("valid");
    c.bench_function("png/unannotated/400", |b| {
        b.iter(|| renderer.png(black_box(&plain.position), &plain.options))
    });
    c.bench_function("svg/annotated/400", |b| {
        b.iter(|| renderer.svg(black_box(&annotated.position), &annotated.options))
    });
    boards(c);
    let middlegame = fen::parse(MIDDLEGAME).expect("valid");
    let options = RenderOptions::default();
    c.bench_function("png/middlegame/400", |b| {
        b.iter(|| renderer.png(black_box(&middlegame), &options))
    });
}

/// Boards of other sizes at 600 px, warm (board and pieces cached, the image rendered and
/// encoded every time): the 12×12 target is at most 2× the 8×8 start position.
/// `cargo bench --bench render -- boards/`
fn boards(c: &mut Criterion) {
    let renderer = Renderer::default();
    let cases = [
        ("8x8", START),
        (
            "12x12",
            "rnbqkcabnrrr/pppppppppppp/12/12/12/12/12/12/12/12/PPPPPPPPPPPP/RRRNBQKCABNR",
        ),
        (
            "16x16",
            "rnbqkcabnrrrnbqk/pppppppppppppppp/16/16/16/16/16/16/16/16/16/16/16/16/PPPPPPPPPPPPPPPP/RNBQKCABNRRRNBQK",
        ),
    ];
    for (name, text) in cases {
        let position = fen::parse(text).expect("valid");
        let options = RenderOptions {
            size: 600,
            ..RenderOptions::default()
        };
        let png = renderer.png(&position, &options).expect("renders");
        println!("boards/{name}/600: PNG {} bytes", png.len());
        c.bench_function(&format!("boards/png/{name}/600"), |b| {
            b.iter(|| renderer.png(black_box(&position), &options))
        });
    }
}

criterion_group!(render, benches);
criterion_main!(render);
