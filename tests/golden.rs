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
    // Annotations, each in both orientations.
    (
        "last-move",
        "fen=rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR_b_KQkq_e3_0_1&lastMove=e2e4&size=320",
    ),
    (
        "last-move-black",
        "fen=rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR_b_KQkq_e3_0_1&lastMove=e2e4&size=320&orientation=black",
    ),
    (
        "drop",
        "fen=r1bqk2r/ppp2ppp/2n5/3p4/8/5N2/PPP2PPP/R1BQKB1R/NBp_w_KQkq_-_0_9&lastMove=N@f3&size=320",
    ),
    (
        "check-auto",
        "fen=rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR_w_KQkq_-_1_3&check=auto&lastMove=d8h4&size=320",
    ),
    (
        "check-square-black",
        "fen=rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR_w_KQkq_-_1_3&check=e1&size=320&orientation=black",
    ),
    (
        "arrows",
        "fen=r1bqkb1r/pppp1ppp/2n2n2/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR_w_KQkq_-_4_4&arrows=Gh5f7,Rc4f7,Yb1c3,Bg1f3,Bd1,Re1e1&size=400",
    ),
    (
        "arrows-black",
        "fen=r1bqkb1r/pppp1ppp/2n2n2/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR_w_KQkq_-_4_4&arrows=Gh5f7,Rc4f7,Yb1c3,Bg1f3,Bd1&size=400&orientation=black",
    ),
    (
        "squares",
        "fen=8/8/8/3k4/8/3K4/8/8&squares=c4,d4,e4&size=240",
    ),
    (
        "squares-black",
        "fen=8/8/8/3k4/8/3K4/8/8&squares=c4,d4,e4&size=240&orientation=black",
    ),
    ("highlight", "fen=start&highlight=Ge4,Rd5,Yc6,Bf3&size=240"),
    (
        "highlight-black",
        "fen=start&highlight=Ge4,Rd5,Yc6,Bf3&size=240&orientation=black",
    ),
    (
        "annotations",
        "fen=r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R_w_KQkq_-_2_3&annotations=%5B%25cal+Gf3e5,Rc6e5%5D%5B%25csl+Ge5%5D%5B%25clk+0:05:00%5D&size=320",
    ),
    (
        "annotations-black",
        "fen=r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R_w_KQkq_-_2_3&annotations=%5B%25cal+Gf3e5,Rc6e5%5D%5B%25csl+Ge5%5D&size=320&orientation=black",
    ),
    // Crazyhouse pockets and promoted pieces, side-to-move marker.
    (
        "pockets",
        "fen=r2q1rk1/ppp2ppp/2n1bn2/2b1p3/3pP3/3P1N~Pp/PPP1NPB1/R1BQ1RK1[QNPPPbbr]_b_-_-_0_1&size=360",
    ),
    (
        "pockets-black",
        "fen=r2q1rk1/ppp2ppp/2n1bn2/2b1p3/3pP3/3P1N~Pp/PPP1NPB1/R1BQ1RK1[QNPPPbbr]_b_-_-_0_1&size=360&orientation=black&coordinates=none",
    ),
    ("turn-white", "fen=start&turn=1&size=300"),
    (
        "turn-black-none",
        "fen=rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR_b_KQkq_e3_0_1&turn=1&coordinates=none&size=300",
    ),
    (
        "turn-black-flipped",
        "fen=rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR_b_KQkq_e3_0_1&turn=1&orientation=black&size=300",
    ),
    // A still from a game: the last move tinted, the check found, the NAG as a badge.
    (
        "pgn-badge",
        "pgn=1.e4+e5+2.Nf3+Nc6+3.Bc4+Nd4%3F+4.Nxe5+Qg5+5.Nxf7%3F%3F+Qxg2+6.Rf1+Qxe4%2B&ply=10&size=320",
    ),
    (
        "pgn-badge-black",
        "pgn=1.e4+e5+2.Nf3+Nc6+3.Bc4+Nd4%3F+4.Nxe5+Qg5+5.Nxf7%3F%3F+Qxg2+6.Rf1+Qxe4%2B&ply=12&size=320&orientation=black&glyph=!!",
    ),
    // Themes.
    ("theme-blue", "fen=start&theme=blue&size=240"),
    ("theme-green", "fen=start&theme=green&size=240"),
    ("theme-gray", "fen=start&theme=gray&size=240"),
    ("theme-wikipedia", "fen=start&theme=wikipedia&size=240"),
    (
        "theme-print",
        "fen=r1bq1rk1/pp3ppp/3n4/2p1N3/2B5/7P/PPP2PP1/R1BQR1K1_w&theme=print&size=360",
    ),
    (
        "theme-print-black",
        "fen=r1bq1rk1/pp3ppp/3n4/2p1N3/2B5/7P/PPP2PP1/R1BQR1K1_w&theme=print&size=360&orientation=black&coordinates=inside",
    ),
    (
        "theme-custom",
        "fen=start&light=%23f4f1ea&dark=%23a97&size=240",
    ),
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
        CASES.len()
    );
    assert!(
        failures.is_empty(),
        "golden mismatches:\n{}",
        failures.join("\n")
    );
}
