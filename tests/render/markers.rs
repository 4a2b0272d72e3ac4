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

/// The shape markers, as `marks` items on c3. A label is not among them: it is text on a
/// plate in the top-right corner, about a third of the square wide, and covers that corner
/// of a piece.
const KINDS: [&str; 6] = [
    "circle:c3",
    "dotted:Rc3",
    "square:Gc3",
    "triangle:Yc3",
    "dot:Bc3",
    "ring:c3",
];

/// The c3 square of a 5×5 board with `piece` on it (none if empty), squares `sq` px wide,
/// painted in full (no palette), with `extra` parameters: its pixels, row by row.
fn c3(piece: &str, sq: u32, extra: &str) -> Vec<[u8; 4]> {
    let rank = if piece.is_empty() {
        "5".to_string()
    } else {
        format!("2{piece}2")
    };
    let query = format!("fen=5/5/{rank}/5/5&coordinates=none&size={}{extra}", 5 * sq);
    let r = Request::from_query(&query, None).expect("valid case");
    let img = common::from_pixmap(
        &Renderer::default()
            .pixmap(&r.position, &r.options)
            .expect("renders"),
    );
    let (x0, y0) = (2 * sq, 2 * sq);
    (0..sq * sq)
        .map(|i| img.get_pixel(x0 + i % sq, y0 + i / sq).0)
        .collect()
}

/// The largest difference of one channel between two pixels.
fn apart(a: [u8; 4], b: [u8; 4]) -> u8 {
    a.iter()
        .zip(b)
        .map(|(x, y)| x.abs_diff(y))
        .max()
        .unwrap_or(0)
}

/// On an occupied square no marker reaches into the piece's middle (the square's central
/// 40 %, every pixel as without the marker), and from 60 px squares up (where the bands'
/// one-pixel floors no longer bite) none covers more than an eighth of the piece's ink.
#[test]
fn markers_leave_the_piece_readable() {
    for sq in [32, 60, 64] {
        for piece in ["K", "Q", "R", "B", "N", "P", "k", "q", "r", "b", "n", "p"] {
            let plain = c3(piece, sq, "");
            let empty = c3("", sq, "");
            let ink: Vec<usize> = (0..plain.len())
                .filter(|&i| apart(plain[i], empty[i]) > 48)
                .collect();
            for kind in KINDS {
                let marked = c3(piece, sq, &format!("&marks={kind}"));
                let (lo, hi) = (sq * 3 / 10, sq * 7 / 10);
                let middle = (0..plain.len()).filter(|&i| {
                    let (x, y) = (i as u32 % sq, i as u32 / sq);
                    (lo..hi).contains(&x) && (lo..hi).contains(&y)
                });
                let touched = middle.filter(|&i| marked[i] != plain[i]).count();
                let covered = ink
                    .iter()
                    .filter(|&&i| apart(marked[i], plain[i]) > 48)
                    .count();
                let share = covered as f32 / ink.len() as f32;
                assert_eq!(
                    touched, 0,
                    "{kind} on {piece} at {sq} px reaches the middle"
                );
                assert!(
                    sq < 60 || share <= 0.125,
                    "{kind} on {piece} at {sq} px covers {share:.3} of its ink"
                );
            }
        }
    }
}

/// An arrowhead ending on a marked square is drawn over the marker: where the arrow lies,
/// the marker shows only through its translucency (the arrow colours' 0xcc alpha lets
/// 20 % through, at most 51 of 255), but for a few anti-aliased pixels at the arrow's edge
/// (at most one in twenty).
#[test]
fn arrowheads_stay_over_markers() {
    for sq in [32, 64] {
        for from in ["a3", "c1", "a1", "e4", "e5"] {
            let arrow = format!("&arrows=G{from}c3");
            let plain = c3("N", sq, "");
            let drawn = c3("N", sq, &arrow);
            let head: Vec<usize> = (0..plain.len())
                .filter(|&i| apart(drawn[i], plain[i]) > 64)
                .collect();
            for kind in KINDS {
                let marked = c3("N", sq, &format!("{arrow}&marks={kind}"));
                let hidden = head
                    .iter()
                    .filter(|&&i| apart(marked[i], drawn[i]) > 56)
                    .count();
                assert!(
                    hidden * 20 <= head.len(),
                    "{kind} at {sq} px hides {hidden} of the {} pixels of the arrowhead from {from}",
                    head.len()
                );
            }
        }
    }
}
