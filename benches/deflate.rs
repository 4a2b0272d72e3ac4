//! The compressor beside fdeflate (the one it replaced) and miniz_oxide at level 1 (zlib's
//! fastest setting, what a PNG encoder would use instead) on the PNG scanlines it is given:
//! the Up-filtered palette indices of the start position, taken from our own PNGs.
//!
//! `cargo bench --bench deflate`; each run also prints the compressed sizes.

use criterion::{Criterion, criterion_group, criterion_main};
use staunton::chess::fen;
use staunton::render::encode::deflate::Deflater;
use staunton::{RenderOptions, Renderer};
use std::hint::black_box;

const START: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

/// The filtered scanlines of the start position at `size` px: the PNG's IDAT, inflated.
fn scanlines(renderer: &Renderer, size: u32) -> Vec<u8> {
    let position = fen::parse(START).expect("valid");
    let options = RenderOptions {
        size,
        ..RenderOptions::default()
    };
    let png = renderer.png(&position, &options).expect("renders");
    let mut at = 8;
    let mut idat = Vec::new();
    while at + 8 <= png.len() {
        let len = u32::from_be_bytes(png[at..at + 4].try_into().expect("4 bytes")) as usize;
        if &png[at + 4..at + 8] == b"IDAT" {
            idat.extend_from_slice(&png[at + 8..at + 8 + len]);
        }
        at += 12 + len;
    }
    miniz_oxide::inflate::decompress_to_vec_zlib(&idat).expect("inflates")
}

fn deflate(c: &mut Criterion) {
    let renderer = Renderer::default();
    for size in [400u32, 720, 800] {
        let data = scanlines(&renderer, size);
        let mut deflater = Deflater::default();
        let mut out = Vec::new();
        deflater.zlib(&data, &mut out);
        let theirs = fdeflate::compress_to_vec(&data);
        let miniz = miniz_oxide::deflate::compress_to_vec_zlib(&data, 1);
        println!(
            "deflate/start/{size}: {} scanline bytes -> ours {} B, fdeflate {} B, miniz_oxide level 1 {} B",
            data.len(),
            out.len(),
            theirs.len(),
            miniz.len()
        );
        c.bench_function(&format!("deflate/ours/{size}"), |b| {
            b.iter(|| {
                out.clear();
                deflater.zlib(black_box(&data), &mut out);
            })
        });
        c.bench_function(&format!("deflate/fdeflate/{size}"), |b| {
            b.iter(|| fdeflate::compress_to_vec(black_box(&data)))
        });
        c.bench_function(&format!("deflate/miniz_oxide-1/{size}"), |b| {
            b.iter(|| miniz_oxide::deflate::compress_to_vec_zlib(black_box(&data), 1))
        });
    }
}

criterion_group!(benches, deflate);
criterion_main!(benches);
