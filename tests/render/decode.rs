//! The decoding test: a diagram must be readable back into its position.
//!
//! Positions are rendered with `coordinates=none`; each square is cut out and matched
//! against reference tiles (single pieces rendered alone, and empty squares) of the same
//! square colour. Every square must decode to the right piece, in both orientations: at
//! 40 px squares on random positions, and at the small sizes of [`SMALL_SQUARES`], where
//! every piece must also stay apart from every other by a margin (see [`piece_metrics`]).

use crate::common;
use crate::piece_metrics;

use common::Rng;
use image::RgbaImage;
use staunton::request::Request;
use staunton::snapshot::Tolerance;
use staunton::{Color, Orientation, Piece, Position, RenderOptions, Renderer, Square};

const SQUARE: u32 = 40;

/// The smallest square size the small-size tests cover, in pixels.
const SMALLEST_SQUARE: u32 = 16;

/// The small square sizes at which every piece must stay legible.
const SMALL_SQUARES: [u32; 4] = [SMALLEST_SQUARE, 20, 24, 32];

fn render(renderer: &Renderer, position: &Position, orientation: Orientation) -> RgbaImage {
    render_at(renderer, position, orientation, SQUARE)
}

pub(crate) fn render_at(
    renderer: &Renderer,
    position: &Position,
    orientation: Orientation,
    square: u32,
) -> RgbaImage {
    let options = RenderOptions {
        size: square * u32::from(position.files()),
        orientation,
        coordinates: staunton::Coordinates::None,
        ..RenderOptions::default()
    };
    common::decode(&renderer.png(position, &options).expect("renders"))
}

fn tile_at(img: &RgbaImage, col: u32, row: u32, square: u32) -> RgbaImage {
    image::imageops::crop_imm(img, col * square, row * square, square, square).to_image()
}

fn distance(a: &RgbaImage, b: &RgbaImage) -> u64 {
    a.pixels()
        .zip(b.pixels())
        .map(|(p, q)| (0..3).map(|i| u64::from(p[i].abs_diff(q[i]))).sum::<u64>())
        .sum()
}

/// Reference tiles: (piece or empty, dark square?) → pixels.
fn references(renderer: &Renderer) -> Vec<(Option<Piece>, bool, RgbaImage)> {
    references_at(renderer, SQUARE)
}

/// Reference tiles at `square` px.
pub(crate) fn references_at(
    renderer: &Renderer,
    square: u32,
) -> Vec<(Option<Piece>, bool, RgbaImage)> {
    let mut refs = Vec::new();
    for piece in std::iter::once(None).chain(Piece::all().map(Some)) {
        let mut pos = Position::empty(8);
        // a1 is dark, b1 is light.
        pos.set(Square::new(0, 0), piece);
        pos.set(Square::new(1, 0), piece);
        let img = render_at(renderer, &pos, Orientation::White, square);
        refs.push((piece, true, tile_at(&img, 0, 7, square)));
        refs.push((piece, false, tile_at(&img, 1, 7, square)));
    }
    refs
}

fn random_position(rng: &mut Rng) -> Position {
    let files = if rng.below(4) == 0 { 10 } else { 8 };
    random_on(
        rng,
        staunton::BoardSize::new(files, 8).expect("a board size"),
    )
}

/// A random position on a board of `size`: about 45 % of the squares hold a piece.
pub(crate) fn random_on(rng: &mut Rng, size: staunton::BoardSize) -> Position {
    let mut pos = Position::blank(size);
    let pieces: Vec<Piece> = Piece::all().collect();
    for sq in pos.squares().collect::<Vec<_>>() {
        if rng.below(100) < 45 {
            pos.set(sq, Some(pieces[rng.below(pieces.len() as u64) as usize]));
        }
    }
    pos.turn = if rng.below(2) == 0 {
        Color::White
    } else {
        Color::Black
    };
    pos
}

fn decode_position(
    img: &RgbaImage,
    refs: &[(Option<Piece>, bool, RgbaImage)],
    like: &Position,
    orientation: Orientation,
) -> Position {
    decode_at(img, refs, like, orientation, SQUARE)
}

pub(crate) fn decode_at(
    img: &RgbaImage,
    refs: &[(Option<Piece>, bool, RgbaImage)],
    like: &Position,
    orientation: Orientation,
    square: u32,
) -> Position {
    let mut decoded = Position::blank(like.size());
    let bottom = orientation.bottom(like.turn);
    let top_rank = u32::from(like.ranks() - 1);
    for sq in like.squares() {
        let (col, row) = match bottom {
            Color::White => (u32::from(sq.file), top_rank - u32::from(sq.rank)),
            Color::Black => (u32::from(like.files() - 1 - sq.file), u32::from(sq.rank)),
        };
        let cut = tile_at(img, col, row, square);
        let best = refs
            .iter()
            .filter(|(_, dark, _)| *dark == sq.is_dark())
            .min_by_key(|(_, _, r)| distance(&cut, r))
            .and_then(|(p, _, _)| *p);
        decoded.set(sq, best);
    }
    decoded
}

#[test]
fn every_square_decodes_to_its_piece_in_both_orientations() {
    let renderer = Renderer::default();
    let refs = references(&renderer);
    let mut positions: Vec<Position> = common::fixture_cases("valid.fen")
        .iter()
        .map(|(fen, _)| {
            // The board alone: pockets and promotion marks are covered by golden images.
            let mut pos = staunton::chess::fen::parse(fen).expect("valid fixture");
            pos.pocket = None;
            for sq in pos.squares().collect::<Vec<_>>() {
                pos.set_promoted(sq, false);
            }
            pos
        })
        .collect();
    let mut rng = Rng(0x5eed_cafe_f00d_1234);
    while positions.len() < 60 {
        positions.push(random_position(&mut rng));
    }
    let mut checked = 0;
    for position in &positions {
        for orientation in [Orientation::White, Orientation::Black, Orientation::Turn] {
            let img = render(&renderer, position, orientation);
            let decoded = decode_position(&img, &refs, position, orientation);
            for sq in position.squares() {
                assert_eq!(
                    decoded.get(sq),
                    position.get(sq),
                    "{sq} of {} ({orientation:?})",
                    staunton::chess::fen::placement(position)
                );
                checked += 1;
            }
        }
    }
    assert!(checked >= 60 * 2 * 64, "decoded {checked} squares");
}

#[test]
fn the_request_path_draws_the_same_board() {
    // The HTTP/CLI path (query → Request) must render what the library renders.
    let renderer = Renderer::default();
    let r = Request::from_query(
        "fen=r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R&coordinates=none&size=320",
        None,
    )
    .expect("valid");
    let via_request = common::decode(&renderer.png(&r.position, &r.options).expect("renders"));
    let direct = render(&renderer, &r.position, Orientation::White);
    let exact = Tolerance {
        channel: 0,
        pixels: 0,
    };
    assert!(common::compare(&direct, &via_request, exact).matches());
}

#[test]
fn at_small_squares_every_piece_stays_apart_from_every_other() {
    // Each standard piece's tile must differ from every other's on the same square colour
    // in at least max(4, 1 % of the tile) pixels whose luminance differs by 64 or more.
    let renderer = Renderer::default();
    let set = staunton::render::options::DEFAULT_PIECE_SET;
    let mut report = String::new();
    for px in SMALL_SQUARES {
        for (a, b, dark, margin) in piece_metrics::too_close(&renderer, set, px) {
            let ground = if dark { "dark" } else { "light" };
            report.push_str(&format!(
                "{px} px, {ground} squares: {} and {} differ in {margin} pixels, fewer than {}\n",
                a.code(),
                b.code(),
                piece_metrics::required_margin(px)
            ));
        }
    }
    assert!(report.is_empty(), "pieces too alike:\n{report}");
}

#[test]
fn positions_decode_at_small_squares() {
    let renderer = Renderer::default();
    let mut positions: Vec<Position> = [
        "start",
        "r1bqk2r/pp2bppp/2n1pn2/3p4/2PP4/2N2N2/PP2BPPP/R2QKB1R",
    ]
    .iter()
    .map(|fen| staunton::chess::fen::parse(fen).expect("valid"))
    .collect();
    let mut rng = Rng(0x0005_4a11_5eed);
    while positions.len() < 6 {
        let mut pos = random_position(&mut rng);
        if pos.files() == 8 {
            pos.turn = Color::White;
            positions.push(pos);
        }
    }
    for square in SMALL_SQUARES {
        let refs = references_at(&renderer, square);
        for position in &positions {
            for orientation in [Orientation::White, Orientation::Black] {
                let img = render_at(&renderer, position, orientation, square);
                let decoded = decode_at(&img, &refs, position, orientation, square);
                for sq in position.squares() {
                    assert_eq!(
                        decoded.get(sq),
                        position.get(sq),
                        "{sq} of {} at {square} px ({orientation:?})",
                        staunton::chess::fen::placement(position)
                    );
                }
            }
        }
    }
}

/// A region's squares read back from its pixels, in both orientations: 4×4 squares of
/// 40 px under a dashed band on the cut edges (top and right, for a1:d4 with White at the
/// bottom and e5:h8 with Black).
#[test]
fn the_squares_of_a_region_decode_to_its_pieces() {
    let renderer = Renderer::default();
    let refs = references(&renderer);
    let mut rng = Rng(34);
    for (corners, orientation) in [
        (("a1", "d4"), Orientation::White),
        (("h8", "e5"), Orientation::Black),
    ] {
        let board = staunton::BoardSize::CHESS;
        let square = |name| Square::parse(name, board).expect("a square");
        let region = staunton::render::options::Region::new(square(corners.0), square(corners.1));
        let mut position = random_position(&mut rng);
        while position.files() != 8 {
            position = random_position(&mut rng);
        }
        let options = RenderOptions {
            size: 4 * SQUARE + 2,
            orientation,
            coordinates: staunton::Coordinates::None,
            region: Some(region),
            ..RenderOptions::default()
        };
        let img = common::decode(&renderer.png(&position, &options).expect("renders"));
        // The band of dashes on the right and on top: 2 px each.
        assert_eq!(
            (img.width(), img.height()),
            (4 * SQUARE + 2, 4 * SQUARE + 2)
        );
        let top = img.height() - 4 * SQUARE;
        let bottom = orientation.bottom(position.turn);
        for sq in position.squares().filter(|s| region.contains(*s)) {
            let (col, row) = match bottom {
                Color::White => (sq.file - region.low.file, region.high.rank - sq.rank),
                Color::Black => (region.high.file - sq.file, sq.rank - region.low.rank),
            };
            let (x, y) = (u32::from(col) * SQUARE, top + u32::from(row) * SQUARE);
            let cut = image::imageops::crop_imm(&img, x, y, SQUARE, SQUARE).to_image();
            let best = refs
                .iter()
                .filter(|(_, dark, _)| *dark == sq.is_dark())
                .min_by_key(|(_, _, r)| distance(&cut, r))
                .and_then(|(p, _, _)| *p);
            assert_eq!(best, position.get(sq), "{sq} of {region} ({orientation:?})");
        }
    }
}
