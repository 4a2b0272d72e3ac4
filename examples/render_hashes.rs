//! Prints a hash of every format of every render case (`tests/fixtures/render-cases.txt`),
//! one line each: `NAME FORMAT HASH`. `scripts/ci/record-hashes.sh` runs it from a release build
//! and keeps the result in `tests/fixtures/render-hashes.txt`, which `tests/render/determinism.rs`
//! checks the debug build against: optimisation must not change a byte.
//!
//! ```text
//! cargo run --release --example render_hashes [CASES_FILE]
//! ```

use staunton::Renderer;
use staunton::hash::fnv1a;
use staunton::request::Request;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let path = std::env::args()
        .nth(1)
        .unwrap_or_else(|| "tests/fixtures/render-cases.txt".to_string());
    let text = std::fs::read_to_string(&path)?;
    let renderer = Renderer::default();
    for line in text.lines() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let (name, query) = line.split_once(' ').ok_or("a case is `NAME QUERY`")?;
        let request = Request::from_query(query, None)?;
        for format in staunton::render::options::Format::ALL {
            let bytes = renderer.render(&request.position, &request.options, format)?;
            println!(
                "{name} {} {:016x}",
                format.extension(),
                fnv1a(bytes.iter().copied())
            );
        }
    }
    Ok(())
}
