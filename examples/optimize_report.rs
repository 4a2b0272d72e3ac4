//! What `render --optimize` saves: every render case of `tests/fixtures/render-cases.txt` rendered by the
//! fast encoder and then optimised (oxipng with zopfli), with bytes and times.
//!
//! ```text
//! cargo run --release --example optimize_report
//! ```

use staunton::Renderer;
use staunton::request::Request;
use std::time::Instant;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    // The cases are the golden test's: `NAME QUERY` a line, `#` for comments.
    let cases = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/fixtures/render-cases.txt"
    ))?;
    let renderer = Renderer::default();
    let (mut fast_bytes, mut small_bytes) = (0usize, 0usize);
    let (mut fast_time, mut small_time) = (0.0f64, 0.0f64);
    let mut count = 0;
    println!(
        "{:<22} {:>9} {:>9} {:>7} {:>9} {:>10}",
        "case", "PNG", "optimised", "saved", "encode", "optimise"
    );
    let lines = cases
        .lines()
        .filter(|line| !line.is_empty() && !line.starts_with('#'));
    for (name, query) in lines.filter_map(|line| line.split_once(' ')) {
        let request = Request::from_query(query, None)?;
        let started = Instant::now();
        let png = renderer.png(&request.position, &request.options)?;
        let fast = started.elapsed().as_secs_f64();
        let started = Instant::now();
        let small = staunton::render::encode::optimize(&png)?;
        let slow = started.elapsed().as_secs_f64();
        println!(
            "{name:<22} {:>9} {:>9} {:>6.1}% {:>7.2}ms {:>8.0}ms",
            png.len(),
            small.len(),
            100.0 * (1.0 - small.len() as f64 / png.len() as f64),
            fast * 1e3,
            slow * 1e3
        );
        fast_bytes += png.len();
        small_bytes += small.len();
        fast_time += fast;
        small_time += slow;
        count += 1;
    }
    println!(
        "{} cases: {fast_bytes} bytes -> {small_bytes} bytes ({:.1}% saved); {:.1} ms to render and encode, {:.1} s to optimise",
        count,
        100.0 * (1.0 - small_bytes as f64 / fast_bytes as f64),
        fast_time * 1e3,
        small_time
    );
    Ok(())
}
