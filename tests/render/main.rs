//! Rendering, one test binary (each module was a test binary of its own; one binary links
//! the crate once): golden images, determinism, every output format and its encoding, SVG,
//! animations, worksheets, piece sets, marks, decoding, and the snapshot helper.
//!
//! `cargo test --test render golden::` runs one module's tests.

#[path = "../common/mod.rs"]
mod common;

mod animation;
mod article;
mod boards;
mod decode;
mod determinism;
mod encoding;
mod figures;
mod formats;
mod golden;
mod mark_contrast;
mod markers;
mod page;
mod pdf_tags;
mod piece_metrics;
mod piece_proportions;
mod piece_sets;
mod rgba;
mod sheet;
mod snapshot;
mod snapshot_example;
mod svg_matches_png;
mod svg_output;
