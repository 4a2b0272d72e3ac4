//! The PNG encoding is visually lossless: decoded, no pixel differs from the full-colour
//! render by more than 3/255 per channel, on every golden position; and it is small.

mod common;

use staunton::Renderer;
use staunton::request::Request;

const QUERIES: &[&str] = &[
    "fen=start",
    "fen=start&size=800",
    "fen=start&orientation=black&coordinates=inside&size=333",
    "fen=rnabqkbcnr/pppppppppp/10/10/10/10/PPPPPPPPPP/RNABQKBCNR&size=500",
    "fen=r1bqkb1r/pppp1ppp/2n2n2/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR_w&arrows=Gh5f7,Rc4f7,Yb1c3&check=e8&lastMove=d1h5&highlight=Ge5,Rf3",
    "fen=r1bq1rk1/pp3ppp/3n4/2p1N3/2B5/7P/PPP2PP1/R1BQR1K1_w&theme=print&size=360",
    "fen=r2q1rk1/ppp2ppp/2n1bn2/2b1p3/3pP3/3P1N~Pp/PPP1NPB1/R1BQ1RK1[QNPPPbbr]_b&turn=1",
    "fen=start&theme=green&size=2048",
    // Heavy markup that does not fit a palette (RGB): five arrows, labels on the board.
    "fen=rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR_w&lastMove=d8h4&check=auto&arrows=Gh4e1,Rg2g3,Yb1c3,Bd4,Gh4h4&highlight=Ge5,Rf3&squares=a6,h6&coordinates=inside&orientation=black&size=520",
    ANNOTATED[1],
];

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
        let diff = common::compare(&decoded, &full, 3);
        assert_eq!(diff.over, 0, "{query}: max difference {}", diff.max);
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
        let diff = common::compare(&common::decode(&png), &full, 3);
        assert_eq!(diff.over, 0, "{query}: max difference {}", diff.max);
    }
}
