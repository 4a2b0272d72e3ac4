//! Square markers (`marks`, `dots`, `legalMoves`): a golden image of each marker at 16, 32
//! and 64 px squares, on light and dark squares, empty and under a piece, in the four
//! colours; the fast indexed PNG against painting everything; the PNG against the SVG.
//!
//! `UPDATE_GOLDEN=1 cargo test --test render markers::` rewrites the golden images
//! (`tests/golden/marker-*.png`) and then fails: look at them, commit them, run again.

use crate::common;
use crate::svg_matches_png::assert_svg_matches_png;

use staunton::Renderer;
use staunton::request::Request;
use staunton::snapshot::Tolerance;

/// A 4×4 board: a2 light and b2 dark, empty; a dark a1 with a white knight and a light
/// b1 with a black queen.
const BOARD: &str = "fen=4/4/4/Nq2_w_-_-_0_1&coordinates=none";

/// Each marker on every square of [`BOARD`], a colour each.
fn marker_cases() -> Vec<(String, String)> {
    let mut cases = Vec::new();
    for kind in [
        "circle", "dotted", "square", "triangle", "dot", "ring", "label",
    ] {
        let text = if kind == "label" { ":12" } else { "" };
        let one = |at: &str| format!("{kind}:{at}{text}");
        let marks = [one("a2"), one("Rb2"), one("Ya1"), one("Bb1")].join(",");
        for square in [16, 32, 64] {
            let query = format!("{BOARD}&size={}&marks={marks}", 4 * square);
            cases.push((format!("marker-{kind}-{square}"), query));
        }
    }
    // One-letter labels in other characters, and the legal moves of a queen (dots, and
    // rings on its captures).
    let queen = "fen=4k3/8/1p6/8/3Q1r2/8/8/4K3_w_-_-_0_1&coordinates=none&legalMoves=d4";
    for square in [16, 32, 64] {
        let labels = "label:a2:a,label:Rb2:g,label:Ya1:!?,label:Bb1:%2B";
        cases.push((
            format!("marker-label-letters-{square}"),
            format!("{BOARD}&size={}&marks={labels}", 4 * square),
        ));
        cases.push((
            format!("marker-legal-moves-{square}"),
            format!("{queen}&size={}", 8 * square),
        ));
    }
    cases
}

#[test]
fn marker_golden_images_match() {
    let renderer = Renderer::default();
    let dir = common::golden_dir();
    let tolerance = Tolerance {
        channel: 8,
        pixels: 16,
    };
    let mut failures = Vec::new();
    for (name, query) in marker_cases() {
        let r = Request::from_query(&query, None).expect("valid case");
        assert!(!r.options.markers.is_empty(), "{name}: no markers");
        let png = renderer.png(&r.position, &r.options).expect("renders");
        failures.extend(common::check_golden(&dir, &name, &png, tolerance));
    }
    assert!(
        !common::updating_golden(),
        "golden images rewritten: look at them and run again"
    );
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// The indexed path (cell tiles, stamps, dirty runs) makes the pixels a full paint makes.
#[test]
fn indexed_png_equals_the_full_paint() {
    let renderer = Renderer::default();
    let mut cases = marker_cases();
    // Markers with arrows, highlights, margin labels and a turned board.
    cases.push((
        "mixed".into(),
        "fen=start&size=333&orientation=black&arrows=Ge2e4&highlight=Yd5&marks=label:e4:1,dotted:Rd5,square:Bg1&legalMoves=b1&dots=h5".into(),
    ));
    for (name, query) in cases {
        let r = Request::from_query(&query, None).expect("valid case");
        let png = common::decode(&renderer.png(&r.position, &r.options).expect("renders"));
        let full = common::from_pixmap(&renderer.pixmap(&r.position, &r.options).expect("renders"));
        // The palette keeps every colour within 3/255.
        let diff = common::compare(
            &full,
            &png,
            Tolerance {
                channel: 3,
                pixels: 0,
            },
        );
        assert!(
            diff.matches(),
            "{name}: {} pixels differ (max {})",
            diff.differing,
            diff.largest
        );
    }
}

/// The SVG draws what the PNG draws (at squares of 32 px and more, where both draw the
/// same piece drawings).
#[test]
fn markers_in_svg_match_the_png() {
    let renderer = Renderer::default();
    for (name, query) in marker_cases()
        .into_iter()
        .filter(|(n, _)| !n.ends_with("-16"))
    {
        let r = Request::from_query(&query, None).expect("valid case");
        assert_svg_matches_png(&renderer, &r, 6, 1000, &name);
    }
}

/// A diagram's bytes do not change when no marker is asked for, and do when one is.
#[test]
fn markers_change_the_image_and_the_key() {
    let renderer = Renderer::default();
    let plain = Request::from_query("fen=start&size=256", None).expect("valid");
    let marked = Request::from_query("fen=start&size=256&marks=dot:e4", None).expect("valid");
    assert_ne!(plain.cache_key(), marked.cache_key());
    let a = renderer
        .png(&plain.position, &plain.options)
        .expect("renders");
    let b = renderer
        .png(&marked.position, &marked.options)
        .expect("renders");
    assert_ne!(a, b);
}
