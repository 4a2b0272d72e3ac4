//! Figures (neutral and turned pieces, markers, text, letter pieces): golden images of
//! each kind at 16, 32 and 64 px squares, the PNG against resvg's rasterisation of the
//! SVG, and pixels read back: a neutral piece's halves and an upside-down queen.
//!
//! `UPDATE_GOLDEN=1 cargo test --test render figures::` rewrites `tests/golden/figures/`
//! and then fails; look at the images before committing them.

use crate::common;
use crate::svg_matches_png::assert_svg_matches_png;

use image::RgbaImage;
use staunton::Renderer;
use staunton::request::Request;
use staunton::snapshot::Tolerance;

const TOLERANCE: Tolerance = Tolerance {
    channel: 8,
    pixels: 16,
};

/// The boards, as (name, dialect, FEN board), 8 × 8 each.
const BOARDS: [(&str, &str, &str); 4] = [
    (
        "pieces",
        "fairy",
        // Neutral pieces of each role, then each turn of a queen, a knight and a pawn.
        "-K-Q-R-B-N-P-*1Q-*2N/*1Q*2Q*3Q*1N*2N*3N*2P*1p/*1q*2q*3q*1n*2n*3n*2k*3b/8/8/8/8/8",
    ),
    (
        "markers",
        "fairy",
        // Each marker white, black, neutral; the triangle turned three ways.
        "CXSTcxst/-C-X-S-T*1T*2T*3T*2t/8/8/8/8/8/8",
    ),
    (
        "text",
        "fairy",
        // Latin, a digit pair, Greek and Cyrillic, on light and dark squares; turned text.
        "'A'g''12'%CE%A9''%D0%96%D1%8F''ab'7*1'A/'Q'a'%CE%BB''10'%D0%AF*2'A*3''12''Zz/8/8/8/8/8/8",
    ),
    (
        "letters",
        "letters",
        // Letter pieces, white and black.
        "EeZzAaHh/JjLlMmWw/8/8/8/8/8/8",
    ),
];

/// Square sizes drawn.
const SQUARES: [u32; 3] = [16, 32, 64];

fn request(dialect: &str, board: &str, square: u32) -> Request {
    let query = format!(
        "fen={board}_w_-_-_0_1&dialect={dialect}&coordinates=none&size={}",
        8 * square
    );
    Request::from_query(&query, None).unwrap_or_else(|e| panic!("{query}: {e}"))
}

#[test]
fn figures_match_their_golden_images() {
    let renderer = Renderer::default();
    let dir = common::golden_dir().join("figures");
    std::fs::create_dir_all(&dir).expect("golden directory");
    let mut failures = Vec::new();
    for (name, dialect, board) in BOARDS {
        for square in SQUARES {
            let r = request(dialect, board, square);
            let png = renderer.png(&r.position, &r.options).expect("renders");
            let name = format!("{name}-{square}");
            failures.extend(common::check_golden(&dir, &name, &png, TOLERANCE));
        }
    }
    assert!(
        !common::updating_golden(),
        "UPDATE_GOLDEN=1 rewrote the figures' golden images"
    );
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn png_and_svg_draw_figures_alike() {
    let renderer = Renderer::default();
    // At 64 px: below `HINT_BELOW_PX` the PNG draws the hinted pieces.
    for (name, dialect, board) in BOARDS {
        let square = 64;
        let r = request(dialect, board, square);
        // Turned artwork is rasterised upright and its pixels turned in the PNG, but
        // rasterised turned from the SVG: anti-aliased edges differ (about 0.2 %).
        assert_svg_matches_png(&renderer, &r, 8, 250, &format!("{name} at {square} px"));
    }
}

/// The mean luminance (0–255) of the pixels of `img` in the box, ignoring those of the
/// square's own colour `ground`.
fn ink_luminance(img: &RgbaImage, (x0, y0, x1, y1): (u32, u32, u32, u32), ground: [u8; 3]) -> f64 {
    let (mut sum, mut n) = (0.0, 0u32);
    for y in y0..y1 {
        for x in x0..x1 {
            let p = img.get_pixel(x, y).0;
            let far = (0..3).any(|i| p[i].abs_diff(ground[i]) > 24);
            if far {
                sum +=
                    0.2126 * f64::from(p[0]) + 0.7152 * f64::from(p[1]) + 0.0722 * f64::from(p[2]);
                n += 1;
            }
        }
    }
    assert!(n > 10, "no ink in {x0},{y0}..{x1},{y1}");
    sum / f64::from(n)
}

fn png_of(query: &str) -> RgbaImage {
    let renderer = Renderer::default();
    let r = Request::from_query(query, None).expect("valid");
    common::decode(&renderer.png(&r.position, &r.options).expect("renders"))
}

#[test]
fn a_neutral_piece_is_light_on_the_left_and_dark_on_the_right() {
    // A neutral rook on a1 (a dark square, 64 px), nothing else near it.
    let img = png_of("fen=8/8/8/8/8/8/8/-R7&dialect=fairy&coordinates=none&size=512");
    let corner = img.get_pixel(1, 449).0;
    let ground_a1 = [corner[0], corner[1], corner[2]];
    let left = ink_luminance(&img, (8, 456, 30, 506), ground_a1);
    let right = ink_luminance(&img, (34, 456, 56, 506), ground_a1);
    assert!(left > 150.0, "left half luminance {left}");
    assert!(right < 90.0, "right half luminance {right}");
}

/// The rows of `img`'s square (`x0`, `y0`, `side`) with ink, top first: per row, how many
/// pixels differ from the square's corner.
fn ink_rows(img: &RgbaImage, (x0, y0, side): (u32, u32, u32)) -> Vec<u32> {
    let ground = img.get_pixel(x0 + 1, y0 + 1).0;
    (y0..y0 + side)
        .map(|y| {
            (x0..x0 + side)
                .filter(|&x| {
                    let p = img.get_pixel(x, y).0;
                    (0..3).any(|i| p[i].abs_diff(ground[i]) > 24)
                })
                .count() as u32
        })
        .collect()
}

/// The centre of mass of the ink's rows, as a share of the square from its top.
fn ink_centre(rows: &[u32]) -> f64 {
    let total: u32 = rows.iter().sum();
    let moment: f64 = rows
        .iter()
        .enumerate()
        .map(|(y, &n)| y as f64 * f64::from(n))
        .sum();
    moment / f64::from(total.max(1)) / rows.len() as f64
}

#[test]
fn an_upside_down_queen_has_her_crown_at_the_bottom() {
    // A queen's crown (its points) is narrow and its base wide: upright, the widest rows of
    // ink are in the lower half; turned by half, in the upper half, and the ink mirrors.
    let upright = png_of("fen=8/8/8/8/8/8/8/Q7&dialect=fairy&coordinates=none&size=512");
    let turned = png_of("fen=8/8/8/8/8/8/8/*2Q7&dialect=fairy&coordinates=none&size=512");
    let (a, b) = (
        ink_rows(&upright, (0, 448, 64)),
        ink_rows(&turned, (0, 448, 64)),
    );
    let widest = |rows: &[u32]| (0..rows.len()).max_by_key(|&i| rows[i]).unwrap_or(0);
    assert!(widest(&a) > 32, "upright queen's widest row {}", widest(&a));
    assert!(widest(&b) < 32, "turned queen's widest row {}", widest(&b));
    // Palettes may differ by a shade between the two images: a pixel or two per row.
    let mirrored = a.iter().zip(b.iter().rev());
    assert!(
        mirrored.clone().all(|(x, y)| x.abs_diff(*y) <= 2),
        "{a:?} against {b:?}"
    );
    assert!((ink_centre(&a) + ink_centre(&b) - 1.0).abs() < 0.05);
}

/// Every figure that more than one dialect reads from the same letter (a letter piece `x`
/// and the Fairy cross, say), drawn in both orders by one renderer at several sizes, in
/// every raster format: each the image a fresh renderer draws. Caches keyed by a figure's
/// FEN letter gave the second the first's tile.
#[test]
fn figures_sharing_a_letter_across_dialects_never_share_a_tile() {
    use staunton::Format;
    use staunton::chess::fen::Dialect;
    let formats = [Format::Png, Format::Gif, Format::Webp];
    let mut pairs = 0;
    for size in [96, 321, 512] {
        for letter in ('a'..='z').flat_map(|c| [c, c.to_ascii_uppercase()]) {
            // What each dialect reads this letter as, when it reads it.
            let read: Vec<(String, Request)> = Dialect::NAMES
                .iter()
                .filter_map(|dialect| {
                    let query =
                        format!("fen=8/8/8/3{letter}4/8/8/8/8&dialect={dialect}&size={size}");
                    Some((query.clone(), Request::from_query(&query, None).ok()?))
                })
                .collect();
            let draw = |renderer: &Renderer, r: &Request, format| {
                renderer
                    .render(&r.position, &r.options, format)
                    .unwrap_or_else(|e| panic!("{letter}: {e}"))
            };
            for (i, (qa, a)) in read.iter().enumerate() {
                for (qb, b) in read.iter().skip(i + 1) {
                    if a.position == b.position {
                        continue;
                    }
                    pairs += 1;
                    for format in formats {
                        let fresh = |r: &Request| draw(&Renderer::default(), r, format);
                        let (want_a, want_b) = (fresh(a), fresh(b));
                        for (first, second) in [
                            ((qa, a, &want_a), (qb, b, &want_b)),
                            ((qb, b, &want_b), (qa, a, &want_a)),
                        ] {
                            let shared = Renderer::default();
                            for (query, r, want) in [first, second] {
                                let got = draw(&shared, r, format);
                                assert!(
                                    got == *want,
                                    "{format:?} {query}, after {}: not as drawn afresh",
                                    first.0
                                );
                            }
                        }
                    }
                }
            }
        }
    }
    // x, s and t at least: letter pieces and Fairy markers, both cases, each size.
    assert!(
        pairs >= 3 * 2 * 3,
        "only {pairs} pairs of figures share a letter"
    );
}
