//! Each encoding of one diagram beside the PNG: `cargo bench --bench formats` (about a
//! minute). Warm renderer; every case renders from the position (scene, composition) and
//! encodes. The sizes in bytes are printed first. `start-classic` is the start position in
//! the first drawing of the pieces (`staunton-classic`), to weigh the drawing side by side.

use criterion::{Criterion, criterion_group, criterion_main};
use staunton::Renderer;
use staunton::render::options::Format;
use staunton::request::Request;
use std::hint::black_box;
use std::time::Duration;

const CASES: [(&str, &str); 3] = [
    ("start", "fen=start"),
    ("start-classic", "fen=start&pieces=staunton-classic"),
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
    sheets(c, &renderer);
}

/// The worksheet of the eight test puzzles on A4 (two pages): the whole PDF, and one page
/// as PNG and as SVG.
fn sheets(c: &mut Criterion, renderer: &Renderer) {
    use staunton::render::sheet::{Sheet, SheetOptions};
    use staunton::request::puzzles::{self, PuzzleFormat};
    let text = include_str!("../tests/fixtures/puzzles/eight.epd");
    let entries = puzzles::read(text, PuzzleFormat::Epd, 100).expect("the fixture reads");
    let sheet = Sheet::new(renderer, entries, SheetOptions::default()).expect("lays out");
    let mut group = c.benchmark_group("sheet");
    let pdf = sheet.pdf(renderer).expect("renders");
    let png = sheet.png(renderer, 0).expect("renders");
    let svg = sheet.svg(renderer, 0).expect("renders");
    println!(
        "sheet/pdf: {} bytes ({} pages); sheet/png page 1: {} bytes; sheet/svg page 1: {} bytes",
        pdf.len(),
        sheet.pages.len(),
        png.len(),
        svg.len()
    );
    group.bench_function("pdf/eight", |b| b.iter(|| sheet.pdf(black_box(renderer))));
    group.bench_function("png/page1", |b| {
        b.iter(|| sheet.png(black_box(renderer), 0))
    });
    group.bench_function("svg/page1", |b| {
        b.iter(|| sheet.svg(black_box(renderer), 0))
    });
    group.bench_function("layout/eight", |b| {
        b.iter(|| {
            Sheet::new(
                black_box(renderer),
                sheet.entries.clone(),
                SheetOptions::default(),
            )
        })
    });
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
