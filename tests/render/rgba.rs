//! `Renderer::rgba`: the pixels the PNG decodes to, without encoding one.

use crate::common;

use staunton::Renderer;
use staunton::render::encode::{Scratch, png_with, rgba_of};
use staunton::request::Request;
use staunton::snapshot;

/// Every kind of diagram the golden set has: orientations, coordinates, sizes, boards,
/// pockets, marks, themes, a badge.
const QUERIES: &[&str] = &[
    "fen=start",
    "fen=start&orientation=black&coordinates=inside&size=333",
    "fen=6r1/6pp/7r/1B5K/1P3k2/N7/3R4/8_w_-_-_30_79&coordinates=none&size=160",
    "fen=rnabqkbcnr/pppppppppp/10/10/10/10/PPPPPPPPPP/RNABQKBCNR_w_KQkq_-_0_1&size=500",
    "fen=r1bq1rk1/pp3ppp/3n4/2p1N3/2B5/7P/PPP2PP1/R1BQR1K1_w_-_-_0_1&size=800",
    "fen=start&size=16",
    "fen=rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR_b_KQkq_e3_0_1&lastMove=e2e4&turn=1",
    "fen=rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR_w_KQkq_-_1_3&check=auto&arrows=Ge2e4,Rg1f3,Yd4&squares=e4,d5&highlight=Ge4,Rd5",
    "fen=rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[QRbn]_w_KQkq_-_0_1&orientation=black",
    "fen=start&theme=print&size=300",
    "fen=start&light=%23ffffff&dark=%23000000&size=200",
    "fen=rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR_b_KQkq_e3_0_1&lastMove=e2e4&glyph=!!",
];

#[test]
fn rgba_is_what_the_png_decodes_to() {
    let renderer = Renderer::default();
    for query in QUERIES {
        let request = Request::from_query(query, None).expect(query);
        let (position, options) = (&request.position, &request.options);
        // Twice: from a cold renderer and with its caches warm.
        for _ in 0..2 {
            let rgba = renderer.rgba(position, options).expect("renders");
            let png = renderer.png(position, options).expect("renders");
            let png = snapshot::decode_png(&png).expect("the PNG decodes");
            assert_eq!(
                (rgba.width, rgba.height),
                (png.width, png.height),
                "{query}"
            );
            assert!(rgba.pixels == png.pixels, "{query}");
        }
    }
}

#[test]
fn rgba_of_painted_pixels_is_what_their_png_decodes_to() {
    // Premultiplied pixels: few colours (a palette), more than a palette holds (RGB),
    // and translucent ones (RGBA, demultiplied).
    let (w, h) = (300u32, 200u32);
    let mut rng = common::Rng(0x5eed);
    let few: Vec<u8> = (0..w * h)
        .flat_map(|i| [(i % 7 * 30) as u8, (i % 5 * 50) as u8, 90, 255])
        .collect();
    let many: Vec<u8> = (0..w * h)
        .flat_map(|_| {
            let v = rng.next().to_le_bytes();
            [v[0], v[1], v[2], 255]
        })
        .collect();
    let translucent: Vec<u8> = (0..w * h)
        .flat_map(|_| {
            let v = rng.next().to_le_bytes();
            let a = v[3];
            let premultiply = |c: u8| (u16::from(c) * u16::from(a) / 255) as u8;
            [premultiply(v[0]), premultiply(v[1]), premultiply(v[2]), a]
        })
        .collect();
    for (what, data) in [("few", few), ("many", many), ("translucent", translucent)] {
        let png = png_with(&data, w, h, &mut Scratch::default());
        let mut out = Vec::new();
        rgba_of(&data, w, &mut Scratch::default(), &mut out);
        let decoded = snapshot::decode_png(&png).expect("the PNG decodes");
        assert!(decoded.pixels == out, "{what}");
    }
}
