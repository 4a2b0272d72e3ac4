//! The cost model beside what it models: renders of every size and kind of markup, each
//! printed with the estimate `render::spec::cost` gives it, so the weights can be checked
//! against the time they stand for (and refitted when the pipeline changes).
//!
//! `cargo bench --bench cost` (about three minutes). Every iteration draws a different set
//! of marks, as a flood of distinct requests would (a mark seen before is a cached stamp).
//! Cases: `png/{size}/{markup}` for sizes 256–2048 and markup `plain`, `a16`, `a64` (16 or
//! 64 arrows), `h80` (80 highlighted squares), `x80` (80 crosses), `m80` (80 square
//! markers), `f64` (a Fairy FEN of 64 figures), `max` (arrows, squares, crosses and a
//! check) and `all` (every mark at its limit: `max` with 80 of each and 80 markers);
//! `{format}/1024/{max,f64,all}` for the other formats;
//! `gif/{size}/10x{markup}`, ten frames of a game.
//!
//! The C allocator is set as the `staunton` binary sets it (`src/allocator.rs`), so the
//! times are the service's.

use criterion::{Criterion, criterion_group, criterion_main};
use staunton::Renderer;
use staunton::render::animate::{self, Frame};
use staunton::render::spec::cost;
use staunton::request::Request;
use std::hint::black_box;
use std::time::Duration;

const SQUARES: [&str; 64] = [
    "a1", "b1", "c1", "d1", "e1", "f1", "g1", "h1", "a2", "b2", "c2", "d2", "e2", "f2", "g2", "h2",
    "a3", "b3", "c3", "d3", "e3", "f3", "g3", "h3", "a4", "b4", "c4", "d4", "e4", "f4", "g4", "h4",
    "a5", "b5", "c5", "d5", "e5", "f5", "g5", "h5", "a6", "b6", "c6", "d6", "e6", "f6", "g6", "h6",
    "a7", "b7", "c7", "d7", "e7", "f7", "g7", "h7", "a8", "b8", "c8", "d8", "e8", "f8", "g8", "h8",
];

/// `n` arrows, the `variant`-th set of them: long ones (most pixels), all different.
fn arrows(n: usize, variant: usize) -> String {
    (0..n)
        .map(|i| {
            let from = (i * 7 + variant * 3) % 64;
            let to = (from + 27 + i % 9 + variant) % 64;
            let to = if to == from { (to + 1) % 64 } else { to };
            format!(
                "{}{}{}",
                ["G", "R", "Y", "B"][i % 4],
                SQUARES[from],
                SQUARES[to]
            )
        })
        .collect::<Vec<_>>()
        .join(",")
}

/// `n` square markers of every kind, the `variant`-th set of them.
fn markers(n: usize, variant: usize) -> String {
    let kinds = ["circle", "dotted", "square", "triangle", "dot", "ring"];
    (0..n)
        .map(|i| {
            let square = SQUARES[(i + variant) % 64];
            match i % 7 {
                6 => format!("label:{square}:{}", i % 100),
                k => format!("{}:{}{square}", kinds[k], ["G", "R", "Y", "B"][i % 4]),
            }
        })
        .collect::<Vec<_>>()
        .join(",")
}

/// A Fairy FEN of 64 figures (turned, neutral, markers, text), the `variant`-th of them.
fn fairy(variant: usize) -> String {
    let figures = [
        "*1Q", "-k", "*2N", "C", "*3b", "'A", "-*1r", "''12", "X", "-p", "*2q", "T",
    ];
    let rank = |r: usize| -> String {
        (0..8)
            .map(|f| figures[(r * 8 + f + variant) % figures.len()])
            .collect()
    };
    (0..8).map(rank).collect::<Vec<_>>().join("/")
}

/// The query of `markup` at `size`, the `variant`-th of its kind.
fn query(size: u32, markup: &str, variant: usize) -> String {
    let colours = |n: usize| {
        (0..n)
            .map(|i| {
                format!(
                    "{}{}",
                    ["G", "R", "Y", "B"][(i + variant) % 4],
                    SQUARES[i % 64]
                )
            })
            .collect::<Vec<_>>()
            .join(",")
    };
    let squares = |n: usize| {
        (0..n)
            .map(|i| SQUARES[(i + variant) % 64])
            .collect::<Vec<_>>()
            .join(",")
    };
    let marks = match markup {
        "plain" => String::new(),
        "a16" => format!("&arrows={}", arrows(16, variant)),
        "a64" => format!("&arrows={}", arrows(64, variant)),
        "h80" => format!("&highlights={}", colours(64)),
        "x80" => format!("&squares={}", squares(64)),
        "m80" => format!("&marks={}", markers(80, variant)),
        // 64 figures: a Fairy FEN of turned, neutral and lettered pieces and markers.
        "f64" => return format!("fen={}&dialect=fairy&size={size}", fairy(variant)),
        "max" => format!(
            "&arrows={}&highlights={}&squares={}&check=e1",
            arrows(64, variant),
            colours(64),
            squares(64)
        ),
        // Every kind of mark at its limit: 64 arrows, 80 highlights, crosses and markers.
        _ => format!(
            "&arrows={}&highlights={}&squares={}&marks={}&check=e1",
            arrows(64, variant),
            colours(80),
            squares(80),
            markers(80, variant)
        ),
    };
    format!("fen=start&size={size}{marks}")
}

#[path = "../src/allocator.rs"]
mod allocator;

fn benches(c: &mut Criterion) {
    allocator::return_memory_promptly();
    let renderer = Renderer::default();
    let mut group = c.benchmark_group("cost");
    group
        .sample_size(10)
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(2));
    for size in [256, 512, 1024, 2048] {
        for markup in [
            "plain", "a16", "a64", "h80", "x80", "m80", "f64", "max", "all",
        ] {
            let requests: Vec<Request> = (0..16)
                .map(|v| Request::from_query(&query(size, markup, v), None).expect("valid"))
                .collect();
            let r = &requests[0];
            let units = cost::position(&r.position, &r.options, r.format);
            println!("estimate png/{size}/{markup}: {units} units");
            let mut i = 0;
            group.bench_function(format!("png/{size}/{markup}"), |b| {
                b.iter(|| {
                    i = (i + 1) % requests.len();
                    let r = &requests[i];
                    black_box(renderer.render(&r.position, &r.options, r.format))
                })
            });
        }
    }
    for (format, markup) in ["svg", "pdf", "webp", "gif"]
        .into_iter()
        .flat_map(|f| [(f, "max"), (f, "f64"), (f, "all")])
    {
        let requests: Vec<Request> = (0..16)
            .map(|v| {
                let q = format!("{}&format={format}", query(1024, markup, v));
                Request::from_query(&q, None).expect("valid")
            })
            .collect();
        let r = &requests[0];
        let units = cost::position(&r.position, &r.options, r.format);
        println!("estimate {format}/1024/{markup}: {units} units");
        let mut i = 0;
        group.bench_function(format!("{format}/1024/{markup}"), |b| {
            b.iter(|| {
                i = (i + 1) % requests.len();
                let r = &requests[i];
                black_box(renderer.render(&r.position, &r.options, r.format))
            })
        });
    }
    for (size, markup) in [(720, "plain"), (720, "a16"), (2048, "a16")] {
        let frames: Vec<Frame> = (0..10)
            .map(|v| {
                let r = Request::from_query(&query(size, markup, v), None).expect("valid");
                Frame {
                    position: r.position,
                    options: r.options,
                    delay: 80,
                    bars: None,
                }
            })
            .collect();
        let units = cost::frames(&frames);
        println!("estimate gif/{size}/10x{markup}: {units} units");
        group.bench_function(format!("gif/{size}/10x{markup}"), |b| {
            b.iter(|| black_box(animate::gif(&renderer, &frames, true)))
        });
    }
    group.finish();
}

criterion_group!(cost_benches, benches);
criterion_main!(cost_benches);
