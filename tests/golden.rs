//! Golden images: each case is rendered and compared by pixels with `tests/golden/<name>.png`.
//!
//! A tolerance absorbs anti-aliasing noise; on a mismatch the actual image and a diff image
//! are written beside the golden one. `UPDATE_GOLDEN=1 cargo test --test golden` rewrites the
//! golden images and then fails, so a rewrite is never a silent pass: look at the images,
//! commit them, and run the tests again.

mod common;

use staunton::Renderer;
use staunton::request::Request;

/// Largest per-channel difference that still counts as equal.
const TOLERANCE: u8 = 8;
/// Pixels allowed beyond the tolerance (edge noise).
const MAX_OVER: usize = 16;

const CASES: &[(&str, &str)] = &[
    ("start", "fen=start"),
    ("start-black", "fen=start&orientation=black"),
    (
        "after-e4-turn",
        "fen=rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR_b_KQkq_e3_0_1&orientation=turn",
    ),
    (
        "inside",
        "fen=r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R_w_KQkq_-_2_3&coordinates=inside",
    ),
    (
        "none-small",
        "fen=6r1/6pp/7r/1B5K/1P3k2/N7/3R4/8_w_-_-_30_79&coordinates=none&size=160",
    ),
    (
        "capablanca",
        "fen=rnabqkbcnr/pppppppppp/10/10/10/10/PPPPPPPPPP/RNABQKBCNR_w_KQkq_-_0_1&size=500",
    ),
    (
        "capablanca-black",
        "fen=rnabqkbcnr/pppppppppp/10/10/10/10/PPPPPPPPPP/RNABQKBCNR_w_KQkq_-_0_1&size=500&orientation=black&coordinates=inside",
    ),
    (
        "large",
        "fen=r1bq1rk1/pp3ppp/3n4/2p1N3/2B5/7P/PPP2PP1/R1BQR1K1_w_-_-_0_1&size=800",
    ),
    ("tiny", "fen=start&size=16"),
    ("empty", "fen=empty&size=200"),
];

#[test]
fn golden_images_match() {
    let renderer = Renderer::default();
    let update = std::env::var_os("UPDATE_GOLDEN").is_some_and(|v| v == "1");
    let dir = common::golden_dir();
    std::fs::create_dir_all(&dir).expect("golden directory");
    let mut failures = Vec::new();
    for (name, query) in CASES {
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
        let (actual, expected) = (common::decode(&png), common::decode(&golden));
        if actual.dimensions() != expected.dimensions() {
            failures.push(format!(
                "{name}: size {:?}, golden {:?}",
                actual.dimensions(),
                expected.dimensions()
            ));
            std::fs::write(dir.join(format!("{name}.actual.png")), &png).expect("write actual");
            continue;
        }
        let diff = common::compare(&actual, &expected, TOLERANCE);
        if diff.over > MAX_OVER {
            std::fs::write(dir.join(format!("{name}.actual.png")), &png).expect("write actual");
            diff.image
                .save(dir.join(format!("{name}.diff.png")))
                .expect("write diff");
            failures.push(format!(
                "{name}: {} pixels differ by more than {TOLERANCE} (max {}); see {name}.diff.png",
                diff.over, diff.max
            ));
        }
    }
    assert!(
        !update,
        "UPDATE_GOLDEN=1 rewrote {} golden images: look at them, then run again without it",
        CASES.len()
    );
    assert!(
        failures.is_empty(),
        "golden mismatches:\n{}",
        failures.join("\n")
    );
}
