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
        // At most one pixel in a thousand more than 6 apart.
        assert_svg_matches_png(&renderer, &r, 6, 1000, query);
    }
}

/// Asserts that `r`'s PNG and resvg's rasterisation of its SVG differ by more than
/// `channel` in at most one pixel in `per`; `name` says which case failed.
pub(crate) fn assert_svg_matches_png(
    renderer: &Renderer,
    r: &Request,
    channel: u8,
    per: u64,
    name: &str,
) {
    let png = common::from_pixmap(&renderer.pixmap(&r.position, &r.options).expect("renders"));
    let svg = renderer.svg(&r.position, &r.options).expect("renders");
    let from_svg = common::rasterise_svg(&svg);
    let total = u64::from(png.width() * png.height());
    let tolerance = Tolerance {
        channel,
        pixels: total / per,
    };
    let diff = common::compare(&png, &from_svg, tolerance);
    assert!(
        diff.matches(),
        "{name}: {} of {total} pixels differ by more than {channel} (max {})",
        diff.differing,
        diff.largest
    );
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
