//! Golden images: each case is rendered and compared by pixels with `tests/golden/<name>.png`.
//!
//! A tolerance absorbs anti-aliasing noise; on a mismatch the actual image and a diff image
//! are written beside the golden one. `UPDATE_GOLDEN=1 cargo test --test golden` rewrites the
//! golden images and then fails, so a rewrite is never a silent pass: look at the images,
//! commit them, and run the tests again.
//!
//! Both formats are checked against the same golden image: the PNG directly, and the SVG
//! through resvg's rasteriser.

mod common;

use staunton::Renderer;
use staunton::request::Request;

/// Largest per-channel difference that still counts as equal.
const TOLERANCE: u8 = 8;
/// Pixels allowed beyond the tolerance (edge noise).
const MAX_OVER: usize = 16;

/// The cases, `NAME QUERY` a line: `tests/fixtures/render-cases.txt`, which
/// `tests/determinism.rs` and `examples/render_hashes.rs` read too.
fn cases() -> Vec<(String, String)> {
    let text = std::fs::read_to_string(common::fixture("render-cases.txt")).expect("cases");
    text.lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .map(|l| {
            let (name, query) = l.split_once(' ').expect("NAME QUERY");
            (name.to_string(), query.to_string())
        })
        .collect()
}

#[test]
fn golden_images_match() {
    let renderer = Renderer::default();
    let update = std::env::var_os("UPDATE_GOLDEN").is_some_and(|v| v == "1");
    let dir = common::golden_dir();
    std::fs::create_dir_all(&dir).expect("golden directory");
    let mut failures = Vec::new();
    let cases = cases();
    for (name, query) in &cases {
        let request = Request::from_query(query, None).expect("valid case");
        let png = renderer
            .png(&request.position, &request.options)
            .expect("renders");
        let path = dir.join(format!("{name}.png"));
        if update {
            std::fs::write(&path, &png).expect("write golden");
            continue;
        }
        let Ok(golden) = std::fs::read(&path) else {
            failures.push(format!(
                "{name}: no golden image at {} (run with UPDATE_GOLDEN=1)",
                path.display()
            ));
            continue;
        };
        let expected = common::decode(&golden);
        let svg = renderer
            .svg(&request.position, &request.options)
            .expect("renders");
        let mut formats = vec![("png", common::decode(&png))];
        // Below 4 px squares, a sprite blitted on whole pixels cannot match a vector render.
        if request.options.size >= 64 {
            formats.push(("svg", common::rasterise_svg(&svg)));
        }
        for (format, actual) in formats {
            if actual.dimensions() != expected.dimensions() {
                failures.push(format!(
                    "{name} ({format}): size {:?}, golden {:?}",
                    actual.dimensions(),
                    expected.dimensions()
                ));
                continue;
            }
            let diff = common::compare(&actual, &expected, TOLERANCE);
            if diff.over > MAX_OVER {
                actual
                    .save(dir.join(format!("{name}.{format}.actual.png")))
                    .expect("write actual");
                diff.image
                    .save(dir.join(format!("{name}.{format}.diff.png")))
                    .expect("write diff");
                failures.push(format!(
                    "{name} ({format}): {} pixels differ by more than {TOLERANCE} (max {}); see {name}.{format}.diff.png",
                    diff.over, diff.max
                ));
            }
        }
    }
    assert!(
        !update,
        "UPDATE_GOLDEN=1 rewrote {} golden images: look at them, then run again without it",
        cases.len()
    );
    assert!(
        failures.is_empty(),
        "golden mismatches:\n{}",
        failures.join("\n")
    );
}
