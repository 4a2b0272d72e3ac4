//! The PNG encoding is visually lossless: decoded, no pixel differs from the full-colour
//! render by more than 3/255 per channel, on every golden position; and it is small.

use crate::common;

use staunton::Renderer;
use staunton::request::Request;
use staunton::snapshot::Tolerance;

/// No pixel more than 3/255 apart on any channel.
const WITHIN_3: Tolerance = Tolerance {
    channel: 3,
    pixels: 0,
};

const QUERIES: &[&str] = &[
    "fen=start",
    "fen=start&size=800",
    "fen=start&orientation=black&coordinates=inside&size=333",
    "fen=rnabqkbcnr/pppppppppp/10/10/10/10/PPPPPPPPPP/RNABQKBCNR&size=500",
    "fen=r1bq1rk1/pp3ppp/3n4/2p1N3/2B5/7P/PPP2PP1/R1BQR1K1_w&theme=print&size=360",
    "fen=r2q1rk1/ppp2ppp/2n1bn2/2b1p3/3pP3/3P1N~Pp/PPP1NPB1/R1BQ1RK1[QNPPPbbr]_b&turn=1",
    "fen=start&theme=green&size=2048",
    ANNOTATED[1],
];

/// Markup whose shades no palette keeps within 3/255: quantised (see
/// `heavy_markup_stays_8_bit_and_small`; these were RGB PNGs before). The second is the
/// issue's case: eight arrows, eight highlights, check and last move.
const HEAVY: [(&str, &str); 3] = [
    (
        "fen=r1bqkb1r/pppp1ppp/2n2n2/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR_w",
        "&arrows=Gh5f7,Rc4f7,Yb1c3&check=e8&lastMove=d1h5&highlight=Ge5,Rf3",
    ),
    (
        "fen=r1bqkb1r/pppp1ppp/2n2n2/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR_w&size=480",
        "&arrows=Gh5f7,Rc4f7,Yb1c3,Bd1d8,Gg1f3,Ra2a4,Yh2h4,Be1g1\
         &highlight=Ge5,Rf3,Yc6,Bf6,Gd4,Re4,Yb5,Bg5&check=e8&lastMove=d1h5",
    ),
    (
        "fen=rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR_w&coordinates=inside&orientation=black&size=520",
        "&lastMove=d8h4&check=auto&arrows=Gh4e1,Rg2g3,Yb1c3,Bd4,Gh4h4&highlight=Ge5,Rf3&squares=a6,h6",
    ),
];

#[test]
fn heavy_markup_stays_8_bit_and_small() {
    // An 8-bit PNG at most twice the bytes of the same position unmarked, and within the
    // golden images' tolerance (8/255) but for at most 0.25 % of the pixels (edges of
    // translucent shapes over pieces), none more than 32/255 off.
    let renderer = Renderer::default();
    for (plain, marks) in HEAVY {
        let heavy = format!("{plain}{marks}");
        let r = Request::from_query(&heavy, None).expect("valid");
        let png = renderer.png(&r.position, &r.options).expect("renders");
        assert_eq!(
            png[25], 3,
            "{heavy}: not a palette PNG (colour type {})",
            png[25]
        );
        let p = Request::from_query(plain, None).expect("valid");
        let plain_png = renderer.png(&p.position, &p.options).expect("renders");
        assert!(
            png.len() <= 2 * plain_png.len(),
            "{heavy}: {} bytes, unmarked {}",
            png.len(),
            plain_png.len()
        );
        let full = common::from_pixmap(&renderer.pixmap(&r.position, &r.options).expect("renders"));
        let pixels = u64::from(r.options.size * r.options.size);
        // At most one pixel in 400 more than 8 apart, none more than 32.
        let tolerance = Tolerance {
            channel: 8,
            pixels: pixels / 400,
        };
        let diff = common::compare(&full, &common::decode(&png), tolerance);
        assert!(
            diff.matches() && diff.largest <= 32,
            "{heavy}: {} pixels over 8, max {}",
            diff.differing,
            diff.largest
        );
    }
}

/// Annotated diagrams that stay 8-bit: the benchmark's case; and arrows over marked
/// squares and pieces, a circle on a piece and a cross, flipped (stamps clipped to the
/// dirty rows).
const ANNOTATED: [&str; 2] = [
    "fen=rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR_w_KQkq_-_1_3&lastMove=d8h4&check=auto&arrows=Gh4e1,Rg2g3,Yb1c3&highlight=Ge5,Rf3",
    "fen=rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR_w&lastMove=d8h4&check=auto&arrows=Gh4e1,Rg2g3,Be2&squares=a6&orientation=black",
];

#[test]
fn png_is_within_3_of_the_full_colour_render() {
    let renderer = Renderer::default();
    for query in QUERIES {
        let r = Request::from_query(query, None).expect("valid");
        let full = common::from_pixmap(&renderer.pixmap(&r.position, &r.options).expect("renders"));
        let png = renderer.png(&r.position, &r.options).expect("renders");
        let decoded = common::decode(&png);
        let diff = common::compare(&full, &decoded, WITHIN_3);
        assert!(diff.matches(), "{query}: max difference {}", diff.largest);
    }
}

#[test]
fn the_start_position_at_400_px_is_under_20_kb() {
    let renderer = Renderer::default();
    let r = Request::from_query("fen=start", None).expect("valid");
    let png = renderer.png(&r.position, &r.options).expect("renders");
    assert!(png.len() <= 20 * 1024, "{} bytes", png.len());
}

#[test]
fn the_start_position_at_720_px_is_smaller_than_lila_gifs_gif() {
    // lila-gif answers 720 px with a GIF of 24–29 KB.
    let renderer = Renderer::default();
    let r = Request::from_query("fen=start&size=720", None).expect("valid");
    let png = renderer.png(&r.position, &r.options).expect("renders");
    assert!(png.len() < 24_000, "{} bytes", png.len());
}

#[test]
fn annotated_diagrams_still_fit_a_palette() {
    // Translucent arrows over pieces and a check glow make some 700 shades; boxes of
    // colours cover them with under 256 entries, so the PNG stays 8-bit. (Heavier markup
    // may not fit, and falls back to RGB.)
    let renderer = Renderer::default();
    for query in ANNOTATED {
        let r = Request::from_query(query, None).expect("valid");
        let png = renderer.png(&r.position, &r.options).expect("renders");
        // IHDR colour type, byte 25: 3 is indexed.
        assert_eq!(png[25], 3, "{query}: colour type {}", png[25]);
        let full = common::from_pixmap(&renderer.pixmap(&r.position, &r.options).expect("renders"));
        let diff = common::compare(&full, &common::decode(&png), WITHIN_3);
        assert!(diff.matches(), "{query}: max difference {}", diff.largest);
    }
}

#[test]
fn a_diagram_does_not_depend_on_what_was_rendered_before() {
    // The sprite cache keeps tiles, stamps and SVG parts by their description; two things
    // that paint differently must never share a key. Each diagram from one renderer that
    // has rendered the others must equal the same diagram from a fresh renderer.
    let queries = [
        // A promoted queen's disc on a 3 px square: cut at the image's edge on a3, not on b4.
        "fen=8/8/8/8/8/Q~7/8/8&size=24&coordinates=none",
        "fen=8/8/8/8/1Q~6/8/8/8&size=24&coordinates=none",
        "fen=8/8/8/8/8/Q~7/8/8&size=24&coordinates=none",
        // The same arrow shape one file apart, over different pieces.
        "fen=start&arrows=Ga2a4",
        "fen=start&arrows=Gb2b4",
        "fen=start&arrows=Gb2b4&orientation=black",
        "fen=start&arrows=Ga1h8&coordinates=none&size=360",
        "fen=start&arrows=Ga1h8&size=360",
        "fen=rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR_w_KQkq_-_1_3\
         &lastMove=d8h4&check=auto&arrows=Gh4e1,Rg2g3,Yb1c3&highlight=Ge5,Rf3",
        "fen=rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR_w_KQkq_-_1_3\
         &check=auto&arrows=Gh4e1&highlight=Rf3",
        "fen=start&arrows=Yd4,Ge2e4&squares=e5,d5&highlight=Ge4",
    ];
    let shared = Renderer::default();
    for format in ["png", "svg", "gif", "webp"] {
        for query in queries {
            let query = format!("{query}&format={format}");
            let r = Request::from_query(&query, None).expect("valid query");
            let render = |renderer: &Renderer| {
                renderer
                    .render(&r.position, &r.options, r.format)
                    .expect("renders")
            };
            let after_others = render(&shared);
            let fresh = render(&Renderer::default());
            assert!(
                after_others == fresh,
                "{query}: differs after other renders"
            );
        }
    }
}
