//! Boards of other sizes: 5×5 to 16×16 read back from their pixels, their labels, the image
//! bound on the largest board, and golden images at 16, 32 and 64 px squares.

use crate::common::{self, Rng};
use crate::decode::{decode_at, random_on, references_at, render_at};
use staunton::chess::fen::{self, Dialect};
use staunton::request::Request;
use staunton::{BoardSize, Orientation, Renderer};

#[test]
fn large_and_small_boards_decode_square_by_square() {
    let renderer = Renderer::default();
    let mut rng = Rng(0x5eed_b0a7d);
    for square in [24, 40] {
        let refs = references_at(&renderer, square);
        for (files, ranks) in [
            (9, 9),
            (10, 10),
            (12, 12),
            (16, 16),
            (5, 5),
            (6, 6),
            (12, 8),
        ] {
            let size = BoardSize::new(files, ranks).expect("a board size");
            for orientation in [Orientation::White, Orientation::Black] {
                let pos = random_on(&mut rng, size);
                let img = render_at(&renderer, &pos, orientation, square);
                assert_eq!(
                    (img.width(), img.height()),
                    (square * u32::from(files), square * u32::from(ranks)),
                    "{files}×{ranks}"
                );
                let decoded = decode_at(&img, &refs, &pos, orientation, square);
                for sq in pos.squares() {
                    assert_eq!(
                        decoded.get(sq),
                        pos.get(sq),
                        "{files}×{ranks} at {square} px, {orientation:?}: {sq} of {pos}"
                    );
                }
            }
        }
    }
}

#[test]
fn fens_of_other_sizes_read_with_multi_digit_runs() {
    let grand =
        fen::parse("r8r/1nbqkcabn1/pppppppppp/10/10/10/10/PPPPPPPPPP/1NBQKCABN1/R8R w - - 0 1")
            .expect("grand chess");
    assert_eq!((grand.files(), grand.ranks()), (10, 10));
    assert_eq!(grand.pieces().count(), 40);
    let big = fen::parse("p15/16/16/16/16/16/16/16/16/16/16/16/16/16/16/15P").expect("16×16");
    assert_eq!(
        big.to_string(),
        "p15/16/16/16/16/16/16/16/16/16/16/16/16/16/16/15P w - - 0 1"
    );
    assert_eq!(
        big.get(staunton::Square::new(15, 0)).map(|p| p.fen_char()),
        Some('P')
    );
    let one = fen::parse("K").expect("1×1");
    assert_eq!((one.files(), one.ranks()), (1, 1));
    // Shapes neither square nor 8 ranks tall need board=.
    let xiangqi = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR";
    assert!(fen::parse(xiangqi).is_err());
    let sized = fen::parse_board(xiangqi, Dialect::Letters, BoardSize::new(9, 10));
    assert_eq!(sized.map(|p| (p.files(), p.ranks())), Ok((9, 10)));
}

#[test]
fn square_names_reach_p16_in_every_mark() {
    let q = "fen=16/16/16/16/16/16/16/16/16/16/16/16/16/16/16/16&size=480\
             &arrows=Ga1p16,Rj10&highlight=Yp1&lastMove=a10b12&check=p16&squares=h9";
    let request = Request::from_query(q, None).expect("marks on a 16×16 board");
    let options = &request.options;
    assert_eq!(options.arrows.len(), 2);
    assert_eq!(options.arrows[0].to.to_string(), "p16");
    assert_eq!(options.arrows[1].from.to_string(), "j10");
    assert_eq!(
        options.last_move.map(|m| m.to.to_string()).as_deref(),
        Some("b12")
    );
    assert_eq!(options.crosses[0].to_string(), "h9");
    let err = Request::from_query("fen=10/10/10/10/10/10/10/10/10/10&arrows=Ga1k11", None)
        .expect_err("k11 is off a 10×10 board");
    assert_eq!(err.param, "arrows");
    let png = Renderer::default()
        .render(&request.position, &request.options, staunton::Format::Png)
        .expect("renders");
    let img = common::decode(&png);
    assert_eq!((img.width(), img.height()), (480, 480));
}

#[test]
fn the_largest_board_keeps_the_image_bound() {
    // The largest image at the largest board: the cost bound holds, the render succeeds.
    let q = "fen=16/16/16/16/16/16/16/16/16/16/16/16/16/16/16/16&size=2048";
    let request = Request::from_query(q, None).expect("a 16×16 board at the largest size");
    let png = Renderer::default()
        .render(&request.position, &request.options, staunton::Format::Png)
        .expect("renders");
    let img = common::decode(&png);
    assert_eq!((img.width(), img.height()), (2048, 2048));
    let err = Request::from_query(
        "fen=16/16/16/16/16/16/16/16/16/16/16/16/16/16/16/16&size=2049",
        None,
    )
    .expect_err("over the bound");
    assert_eq!(err.param, "size");
}

#[test]
fn errors_name_the_field_and_what_is_allowed() {
    let err = |q: &str| Request::from_query(q, None).expect_err(q).to_string();
    assert!(
        err("fen=17/8/8/8/8/8/8/8").contains("has 17 squares, expected 1 to 16 (files a to p)"),
        "{}",
        err("fen=17/8/8/8/8/8/8/8")
    );
    let ranks = "8/".repeat(17);
    let ranks = ranks.trim_end_matches('/');
    assert!(err(&format!("fen={ranks}")).contains("placement has 17 ranks, expected 1 to 16"));
    assert!(err("fen=9/9/9/9/9/9/9/9/45").contains("has 45 squares, expected 9"));
    assert!(err("fen=8/8/8/8/8/8/8").contains("board=8x7"));
    assert!(err("fen=start&board=17x8").starts_with("board \"17x8\" is not allowed"));
    assert!(err("fen=start&dialect=chess").starts_with("dialect \"chess\" is not allowed"));
    assert!(err("fen=4k3/8/8/8/8/8/8/4K3&board=8x7").contains("placement has 8 ranks, expected 7"));
}
