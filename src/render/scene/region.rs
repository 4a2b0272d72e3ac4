//! A region of the board drawn alone (`region=a1:d4`): which of its edges are cut, the
//! marks those edges get, and arrows clipped at them.
//!
//! Owns the geometry particular to a region; `scene/mod.rs` decides what is drawn and where
//! the board goes. The convention: the frame stays on the board's real edges; a cut edge,
//! where the board goes on, is a dashed line in the frame's colour beside the squares,
//! two dashes to a square (a quarter square long, centred on each half), so the eye reads
//! "the board goes on" and counts the squares at a glance, in print and at 16 px squares.

use crate::chess::piece::Color;
use crate::chess::position::{BoardSize, Square};
use crate::render::spec::options::Region;
use crate::render::scene::parts::{Fill, Point, Rect};
use crate::render::spec::theme::Rgba;

/// The region to draw of a board `size`: `region` within the board, or the whole board.
pub fn on_board(region: Option<Region>, size: BoardSize) -> Region {
    let whole = Region::new(Square::new(0, 0), Square::new(size.files - 1, size.ranks - 1));
    let Some(r) = region else {
        return whole;
    };
    let clamp = |s: Square| {
        Square::new(
            s.file.min(whole.high.file),
            s.rank.min(whole.high.rank),
        )
    };
    Region::new(clamp(r.low), clamp(r.high))
}

/// Which sides of the image's board are cut (the board goes on beyond them), on screen.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Cut {
    /// Left side.
    pub left: bool,
    /// Top side.
    pub top: bool,
    /// Right side.
    pub right: bool,
    /// Bottom side.
    pub bottom: bool,
}

impl Cut {
    /// The cut sides of `region` of a board `size` drawn with `bottom` at the bottom.
    pub fn of(region: Region, size: BoardSize, bottom: Color) -> Cut {
        let low_file = region.low.file > 0;
        let high_file = region.high.file + 1 < size.files;
        let low_rank = region.low.rank > 0;
        let high_rank = region.high.rank + 1 < size.ranks;
        match bottom {
            Color::White => Cut {
                left: low_file,
                top: high_rank,
                right: high_file,
                bottom: low_rank,
            },
            Color::Black => Cut {
                left: high_file,
                top: low_rank,
                right: low_file,
                bottom: high_rank,
            },
        }
    }

    /// The dashes' thickness for squares about `square` px: a twentieth, at least 2 px.
    pub fn thickness(square: u32) -> u32 {
        (square / 20).max(2)
    }

    /// Without a margin: the square size for an image `size` wide of `files` files, the
    /// dashes' thickness, and the band each side (left, top, right, bottom) needs for them.
    pub fn bands(self, size: u32, files: u32) -> (u32, u32, [u32; 4]) {
        let t = Cut::thickness(size / files);
        let band = |cut: bool| if cut { t } else { 0 };
        let across = band(self.left) + band(self.right);
        let square = (size.saturating_sub(across) / files).max(1);
        let bands = [
            band(self.left),
            band(self.top),
            band(self.right),
            band(self.bottom),
        ];
        (square, t, bands)
    }

    /// The edges of `board` (squares `square` px): a solid frame `frame` px wide (if any)
    /// on the real sides, dashes `thickness` px wide on the cut ones, all in `color`.
    pub fn edges(self, board: Rect, (frame, thickness): (u32, u32), square: u32, color: Rgba, out: &mut Vec<Fill>) {
        let (x0, y0, x1, y1) = (board.x, board.y, board.x + board.w, board.y + board.h);
        let mut push = |x: u32, y: u32, w: u32, h: u32| {
            out.push(Fill {
                rect: Rect { x, y, w, h },
                color,
            })
        };
        let f = frame;
        for (cut, horizontal, at) in [
            (self.top, true, y0.saturating_sub(if self.top { thickness } else { f })),
            (self.bottom, true, y1),
            (self.left, false, x0.saturating_sub(if self.left { thickness } else { f })),
            (self.right, false, x1),
        ] {
            if !cut {
                if f > 0 && horizontal {
                    push(x0 - f, at, board.w + 2 * f, f);
                } else if f > 0 {
                    push(at, y0 - f, f, board.h + 2 * f);
                }
                continue;
            }
            let (start, squares) = if horizontal {
                (x0, board.w / square)
            } else {
                (y0, board.h / square)
            };
            for i in 0..squares {
                for k in [1, 5] {
                    let a = start + i * square + k * square / 8;
                    let len = ((k + 2) * square / 8 - k * square / 8).max(1);
                    if horizontal {
                        push(a, at, len, thickness);
                    } else {
                        push(at, a, thickness, len);
                    }
                }
            }
        }
    }
}

/// `points`, a polygon, clipped to `rect` (Sutherland–Hodgman: the rectangle is convex);
/// fewer than three points when nothing is left.
pub fn clip_polygon(points: &[Point], rect: Rect) -> Vec<Point> {
    let (x0, y0) = (rect.x as f32, rect.y as f32);
    let (x1, y1) = (x0 + rect.w as f32, y0 + rect.h as f32);
    // Each edge as: which coordinate (0 = x), the bound, and whether inside is above it.
    let edges = [(0, x0, true), (0, x1, false), (1, y0, true), (1, y1, false)];
    let mut poly = points.to_vec();
    for (axis, bound, above) in edges {
        let coord = |p: Point| if axis == 0 { p.0 } else { p.1 };
        let inside = |p: Point| (coord(p) >= bound) == above || coord(p) == bound;
        let mut out = Vec::with_capacity(poly.len() + 4);
        for (i, &p) in poly.iter().enumerate() {
            let q = poly[(i + 1) % poly.len()];
            if inside(p) {
                out.push(p);
            }
            if inside(p) != inside(q) {
                let t = (bound - coord(p)) / (coord(q) - coord(p));
                out.push((p.0 + (q.0 - p.0) * t, p.1 + (q.1 - p.1) * t));
            }
        }
        poly = out;
        if poly.len() < 3 {
            return poly;
        }
    }
    poly
}

#[cfg(test)]
mod tests {
    use super::*;

    use crate::chess::position::sq;

    #[test]
    fn a_corner_is_cut_on_two_sides_and_turns_with_the_board() {
        let r = Region::new(sq("d4"), sq("a1"));
        let white = Cut::of(r, BoardSize::CHESS, Color::White);
        assert_eq!((white.left, white.top, white.right, white.bottom), (false, true, true, false));
        let black = Cut::of(r, BoardSize::CHESS, Color::Black);
        assert_eq!((black.left, black.top, black.right, black.bottom), (true, false, false, true));
    }

    #[test]
    fn a_region_past_the_board_is_cut_back_to_it() {
        let r = Region::new(sq("a1"), Square::new(12, 12));
        assert_eq!(on_board(Some(r), BoardSize::CHESS), Region::new(sq("a1"), sq("h8")));
        assert_eq!(on_board(None, BoardSize::CHESS).files(), 8);
    }

    #[test]
    fn clipping_keeps_the_part_inside() {
        let rect = Rect { x: 0, y: 0, w: 10, h: 10 };
        let square = [(-5.0, 2.0), (5.0, 2.0), (5.0, 4.0), (-5.0, 4.0)];
        let clipped = clip_polygon(&square, rect);
        assert!(clipped.iter().all(|p| p.0 >= 0.0 && p.0 <= 5.0));
        assert!(clipped.iter().any(|p| p.0 == 0.0));
        let outside = [(20.0, 2.0), (25.0, 2.0), (25.0, 4.0)];
        assert!(clip_polygon(&outside, rect).len() < 3);
    }
}
