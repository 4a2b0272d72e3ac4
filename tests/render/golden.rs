//! Golden images: each case is rendered and compared by pixels with `tests/golden/<name>.png`.
//!
//! A tolerance absorbs anti-aliasing noise; on a mismatch the actual image and a diff image
//! are written beside the golden one. `UPDATE_GOLDEN=1 cargo test --test render golden::`
//! rewrites the golden images and then fails, so a rewrite is never a silent pass: look at
//! the images, commit them, and run the tests again.
//!
//! Both formats are checked against the same golden image: the PNG directly, and the SVG
//! through resvg's rasteriser.

use crate::common;

use staunton::Renderer;
use staunton::request::Request;
use staunton::snapshot::Tolerance;

/// Largest per-channel difference that still counts as equal, and the pixels allowed
/// beyond it (edge noise).
const TOLERANCE: Tolerance = Tolerance {
    channel: 8,
    pixels: 16,
};

/// The cases, `NAME QUERY` a line: `tests/fixtures/render-cases.txt`, which
/// `tests/render/determinism.rs` and `examples/render_hashes.rs` read too.
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
        // Below 4 px squares, a sprite blitted on whole pixels cannot match a vector render;
        // below HINT_BELOW_PX the PNG draws the hinted pieces and the SVG the full drawing.
        let square = renderer.scene(&request.position, &request.options).square;
        if request.options.size >= 64 && square >= staunton::render::pieces::HINT_BELOW_PX {
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
            let diff = common::compare(&expected, &actual, TOLERANCE);
            if !diff.matches() {
                common::write_mismatch(
                    &expected,
                    &actual,
                    &diff,
                    (
                        &dir.join(format!("{name}.{format}.actual.png")),
                        &dir.join(format!("{name}.{format}.diff.png")),
                    ),
                );
                failures.push(format!(
                    "{name} ({format}): {} pixels differ by more than {} (max {}); see {name}.{format}.diff.png",
                    diff.differing, TOLERANCE.channel, diff.largest
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
