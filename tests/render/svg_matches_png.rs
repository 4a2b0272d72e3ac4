//! One look, two encodings: the PNG must equal resvg's rasterisation of our SVG output.

use crate::common;

use staunton::Renderer;
use staunton::request::Request;
use staunton::snapshot::Tolerance;

#[test]
fn png_equals_the_rasterised_svg() {
    let renderer = Renderer::default();
    let queries = [
        "fen=start",
        "fen=start&orientation=black&size=333",
        "fen=r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R_w_KQkq_-_2_3&coordinates=inside&size=256",
        "fen=rnabqkbcnr/pppppppppp/10/10/10/10/PPPPPPPPPP/RNABQKBCNR_w_KQkq_-_0_1&size=600",
        // 15 px squares: the PNG of `staunton` draws its hinted pieces there and the SVG its
        // full drawing (vector output is scaled by its viewer), so this size is compared
        // with a set that has one drawing.
        "fen=8/8/8/2k5/4K3/8/8/8&coordinates=none&size=120&pieces=staunton-classic",
        "fen=QQQQQQQQ/QQQQQQQQ/8/8/8/8/qqqqqqqq/qqqqqqqq&size=1000",
    ];
    for query in queries {
        let r = Request::from_query(query, None).expect("valid");
        let png = common::from_pixmap(&renderer.pixmap(&r.position, &r.options).expect("renders"));
        let svg = renderer.svg(&r.position, &r.options).expect("renders");
        let from_svg = common::rasterise_svg(&svg);
        let total = u64::from(png.width() * png.height());
        // At most one pixel in a thousand more than 6 apart.
        let tolerance = Tolerance {
            channel: 6,
            pixels: total / 1000,
        };
        let diff = common::compare(&png, &from_svg, tolerance);
        assert!(
            diff.matches(),
            "{query}: {} of {total} pixels differ by more than 6 (max {})",
            diff.differing,
            diff.largest
        );
    }
}

#[test]
fn svg_is_self_contained() {
    let renderer = Renderer::default();
    let r = Request::from_query(
        "fen=rnabqkbcnr/pppppppppp/10/10/10/10/PPPPPPPPPP/RNABQKBCNR",
        None,
    )
    .expect("valid");
    let svg = renderer.svg(&r.position, &r.options).expect("renders");
    // Only the namespace declarations mention a URL; every reference is a local `#id`.
    let without_ns = svg
        .replace("xmlns=\"http://www.w3.org/2000/svg\"", "")
        .replace("xmlns:xlink=\"http://www.w3.org/1999/xlink\"", "");
    assert!(
        !without_ns.contains("http"),
        "external reference in the SVG"
    );
    assert!(!without_ns.contains("<image"), "embedded image");
    assert!(!without_ns.contains("<text"), "text depends on fonts");
    assert!(!without_ns.contains("<script"));
    for href in without_ns.split("href=\"").skip(1) {
        assert!(
            href.starts_with('#'),
            "non-local reference: {}",
            &href[..20.min(href.len())]
        );
    }
}
