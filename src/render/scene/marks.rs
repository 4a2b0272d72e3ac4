//! Marks laid out as shapes: those under the pieces (highlights, the last move, check,
//! the side-to-move disc, promoted pieces' dots) and those over them (arrows, circles,
//! crosses, a move's annotation badge), each inside the light halo that keeps it readable
//! on every square ([`Halo`]).

use super::grid::{Grid, Layout, centre};
use super::parts::{Label, Point, Rect, Shape};
use super::region::clip_polygon;
use crate::chess::piece::Color;
use crate::chess::position::Position;
use crate::render::art::font::LabelFont;
use crate::render::spec::options::{Arrow, Check, Glyph, RenderOptions};
use crate::render::spec::theme::{HALO, INK, Rgba, Theme};

/// A small disc in the top-right corner of every promoted (`~`) piece.
pub(super) fn promoted_marks(position: &Position, grid: &Grid, theme: &Theme, out: &mut Vec<Shape>) {
    let sq = grid.square as f32;
    for (s, _) in position
        .pieces()
        .filter(|(s, _)| position.is_promoted(*s) && grid.shows(*s))
    {
        let r = grid.rect(s);
        let radius = (sq * 0.09).max(1.5);
        let center = (r.x as f32 + sq - radius * 1.6, r.y as f32 + radius * 1.6);
        out.push(Shape::Disc {
            center,
            radius,
            color: theme.frame,
        });
        out.push(Shape::Disc {
            center,
            radius: radius * 0.5,
            color: Rgba::hex(0xffffff),
        });
    }
}

/// A disc beside the board, level with the rank nearest the side to move: light for White,
/// dark for Black, outlined.
pub(super) fn turn_marker(turn: Color, grid: &Grid, l: &Layout, theme: &Theme) -> Vec<Shape> {
    let sq = grid.square as f32;
    let board = grid.board;
    let right = (board.x + board.w + l.frame) as f32;
    let room = if l.margin > 0 {
        (l.margin - l.frame) as f32
    } else {
        (l.width - board.x - board.w) as f32
    };
    let radius = (room * 0.32).min(sq * 0.22).max(2.0);
    let cy = if turn == grid.bottom {
        (board.y + board.h) as f32 - sq / 2.0
    } else {
        board.y as f32 + sq / 2.0
    };
    let center = (right + room / 2.0, cy);
    let fill = match turn {
        Color::White => Rgba::hex(0xffffff),
        Color::Black => Rgba::hex(0x1a1a1a),
    };
    let outline = (radius * 0.22).max(1.0);
    // Ringed in the page's ink (the frame's colour on the built-in pages), so a black disc
    // shows on a dark page.
    vec![
        Shape::Disc {
            center,
            radius,
            color: theme.label,
        },
        Shape::Disc {
            center,
            radius: radius - outline,
            color: fill,
        },
    ]
}

/// Marks drawn on the squares, under the pieces.
pub(super) fn marks(position: &Position, options: &RenderOptions, grid: &Grid, theme: &Theme) -> Vec<Shape> {
    let mut out = Vec::new();
    let sq = grid.square as f32;
    if theme.hatched {
        // Printed-book dark squares: diagonal lines, about six per square.
        let width = (sq / 36.0).max(0.75);
        let step = sq / 6.0;
        for s in position.squares().filter(|s| s.is_dark() && grid.shows(*s)) {
            let r = grid.rect(s);
            let (x0, y0, side) = (r.x as f32, r.y as f32, sq);
            // Lines x - y = c, for c across the square, clipped to it.
            let mut c = -side + step / 2.0;
            while c < side {
                let (ax, ay) = if c >= 0.0 { (x0 + c, y0) } else { (x0, y0 - c) };
                let (bx, by) = if c >= 0.0 {
                    (x0 + side, y0 + side - c)
                } else {
                    (x0 + side + c, y0 + side)
                };
                out.push(Shape::Line {
                    points: vec![(ax, ay), (bx, by)],
                    width,
                    color: theme.frame,
                });
                c += step;
            }
        }
    }
    if let Some(m) = options.last_move {
        let squares = m.from.into_iter().chain(std::iter::once(m.to));
        for s in squares.filter(|s| grid.shows(*s)) {
            out.push(Shape::Rect {
                rect: grid.rect(s),
                color: theme.last_move,
            });
        }
    }
    for (s, color) in options.highlights.iter().filter(|(s, _)| grid.shows(*s)) {
        out.push(Shape::Rect {
            rect: grid.rect(*s),
            color: *color,
        });
    }
    let checked = match options.check {
        Check::Off => None,
        Check::Auto => crate::chess::attacks::checked_king(position),
        Check::Square(s) => Some(s),
    };
    if let Some(s) = checked.filter(|s| grid.shows(*s)) {
        let r = grid.rect(s);
        out.push(Shape::Glow {
            center: (r.x as f32 + sq / 2.0, r.y as f32 + sq / 2.0),
            radius: sq / 2.0,
            stops: theme.check_glow().to_vec(),
        });
    }
    out
}

/// Marks drawn over the pieces: arrows, circles, crosses.
pub(super) fn overlays(options: &RenderOptions, grid: &Grid) -> Vec<Shape> {
    let mut out = Vec::new();
    let sq = grid.square as f32;
    let halo = Halo::of(sq);
    for s in options.crosses.iter().filter(|s| grid.shows(**s)) {
        let r = grid.rect(*s);
        let (x0, y0) = (r.x as f32, r.y as f32);
        let (a, b) = (sq * 0.28, sq * 0.72);
        let width = band(sq, 0.08, 1.5);
        let arms = [
            [(x0 + a, y0 + a), (x0 + b, y0 + b)],
            [(x0 + a, y0 + b), (x0 + b, y0 + a)],
        ];
        // The halo under both arms first, so it rings the whole cross and covers neither
        // arm; each arm's halo is longer by the halo's width at both (butt) ends.
        for [p, q] in arms {
            let (ux, uy) = unit(p, q);
            let (dx, dy) = (ux * halo.light, uy * halo.light);
            out.push(Shape::Line {
                points: vec![(p.0 - dx, p.1 - dy), (q.0 + dx, q.1 + dy)],
                width: width + 2.0 * halo.light,
                color: HALO,
            });
        }
        for points in arms {
            out.push(Shape::Line {
                points: points.to_vec(),
                width,
                color: INK,
            });
        }
    }
    for arrow in &options.arrows {
        let inside = (grid.shows(arrow.from), grid.shows(arrow.to));
        if arrow.from == arrow.to {
            if inside.0 {
                circle(arrow, grid, halo, &mut out);
            }
        } else if inside == (true, true) {
            out.push(arrow_shape(arrow, grid));
        } else if let Shape::Polygon { points, color } = arrow_shape(arrow, grid) {
            // Partly outside a region: clipped at its edge (nothing left, nothing drawn).
            let points = clip_polygon(&points, grid.board);
            if points.len() >= 3 {
                out.push(Shape::Polygon { points, color });
            }
        }
    }
    out
}

/// The outline that keeps crosses and circles readable on every square and piece, light,
/// middling or dark: ink (a cross's arms, a circle's rims) inside a light halo, the two
/// colours of the built-in pieces ([`INK`], [`HALO`]). Whatever lies under a mark, one of
/// the two stands out from it: no colour has a contrast ratio (WCAG) under 4:1 against
/// both. `tests/mark_contrast.rs` checks it on rendered pixels.
#[derive(Debug, Clone, Copy)]
pub(super) struct Halo {
    /// Width of the light halo on each side of a mark.
    pub(super) light: f32,
    /// Width of a circle's ink rim on each side of its colour.
    pub(super) rim: f32,
}

impl Halo {
    pub(super) fn of(sq: f32) -> Halo {
        Halo {
            light: band(sq, 0.03, 1.25),
            rim: band(sq, 0.02, 1.25),
        }
    }
}

/// A band `share` of the square wide, but at least `floor` px: a band much thinner than
/// a pixel is smeared into its neighbours by anti-aliasing and stands out from nothing
/// (the floors bite on squares under 20–60 px, by band). On tiny squares, at most three
/// times its share.
pub(super) fn band(sq: f32, share: f32, floor: f32) -> f32 {
    (sq * share).max(floor.min(sq * share * 3.0))
}

/// A circle (an arrow from a square to itself), from the outside in: the halo, an ink rim,
/// the colour, an ink rim, the halo; its outer edge 0.01 square inside the square. Three
/// rings on one centre line, each drawn over the one before: the halo (the widest), the
/// ink, the colour.
pub(super) fn circle(arrow: &Arrow, grid: &Grid, halo: Halo, out: &mut Vec<Shape>) {
    let sq = grid.square as f32;
    let center = centre(grid, arrow.from);
    let width = band(sq, 0.05, 1.5);
    let radius = (sq * 0.49 - halo.light - halo.rim - width / 2.0).max(0.5);
    for (width, color) in [
        (width + 2.0 * (halo.rim + halo.light), HALO),
        (width + 2.0 * halo.rim, INK),
        (width, arrow.color.circle()),
    ] {
        out.push(Shape::Ring {
            center,
            radius,
            width,
            color,
        });
    }
}

/// The colour of a move annotation's badge.
pub(super) fn glyph_color(glyph: Glyph) -> Rgba {
    let (r, g, b) = match glyph {
        Glyph::Brilliant => (0x1b, 0x8a, 0x86),
        Glyph::Good => (0x3b, 0x93, 0x2f),
        Glyph::Interesting => (0xc2, 0x45, 0x93),
        Glyph::Dubious => (0xd9, 0x9a, 0x12),
        Glyph::Mistake => (0xdf, 0x6f, 0x16),
        Glyph::Blunder => (0xcf, 0x2e, 0x22),
    };
    Rgba { r, g, b, a: 255 }
}

/// A move annotation as a badge in the top-right corner of the square `to`: a disc in the
/// glyph's colour, ringed in white, with the glyph in white.
pub(super) fn badge(
    glyph: Glyph,
    to: Rect,
    font: &LabelFont,
    overlays: &mut Vec<Shape>,
    labels: &mut Vec<Label>,
) {
    let sq = to.w as f32;
    let radius = (sq * 0.2).max(3.0);
    let center = (
        to.x as f32 + sq - radius * 1.05,
        to.y as f32 + radius * 1.05,
    );
    let white = Rgba {
        r: 255,
        g: 255,
        b: 255,
        a: 255,
    };
    overlays.push(Shape::Disc {
        center,
        radius,
        color: glyph_color(glyph),
    });
    overlays.push(Shape::Ring {
        center,
        radius,
        width: (sq * 0.03).max(1.0),
        color: white,
    });
    // Glyphs about as tall as the disc's radius, centred on it by their ink.
    let scale = radius * 1.1 / font.cap_height().max(1.0);
    let gap = radius * 0.08;
    let glyphs: Vec<_> = glyph
        .symbol()
        .chars()
        .filter_map(|c| Some((c, font.glyph(c)?)))
        .collect();
    let width: f32 = glyphs
        .iter()
        .map(|(_, g)| (g.ink_x.1 - g.ink_x.0) * scale)
        .sum::<f32>()
        + gap * glyphs.len().saturating_sub(1) as f32;
    let mut x = center.0 - width / 2.0;
    let y = center.1 + font.cap_height() * scale / 2.0;
    for (ch, g) in glyphs {
        labels.push(Label {
            ch,
            x: x - g.ink_x.0 * scale,
            y,
            scale,
            color: white,
        });
        x += (g.ink_x.1 - g.ink_x.0) * scale + gap;
    }
}

/// One arrow between two squares: a shaft and a head, as one polygon.
pub(super) fn arrow_shape(arrow: &Arrow, grid: &Grid) -> Shape {
    let sq = grid.square as f32;
    let color = arrow.color.arrow();
    let start = centre(grid, arrow.from);
    let end = centre(grid, arrow.to);
    // Knight moves bend: along the long leg first, then the short one.
    let (df, dr) = (
        i16::from(arrow.to.file) - i16::from(arrow.from.file),
        i16::from(arrow.to.rank) - i16::from(arrow.from.rank),
    );
    let knight = matches!((df.abs(), dr.abs()), (1, 2) | (2, 1));
    let mut path = vec![start];
    if knight {
        let horizontal_first = (end.0 - start.0).abs() > (end.1 - start.1).abs();
        path.push(if horizontal_first {
            (end.0, start.1)
        } else {
            (start.0, end.1)
        });
    }
    // The head stops a little short of the centre, so heads meeting on one square stay
    // apart; the shaft stops where the head begins, so translucent parts never overlap.
    let last = path[path.len() - 1];
    let (dx, dy) = (end.0 - last.0, end.1 - last.1);
    let len = (dx * dx + dy * dy).sqrt().max(1e-3);
    let (ux, uy) = (dx / len, dy / len);
    let shaft = sq * 0.16;
    let head_len = (sq * 0.42).min(len * 0.8);
    let head_half = sq * 0.24;
    let tip = (end.0 - ux * sq * 0.12, end.1 - uy * sq * 0.12);
    let base = (tip.0 - ux * head_len, tip.1 - uy * head_len);
    let (nx, ny) = (-uy, ux);
    // Build the outline: shaft along `path` to `base`, then the head.
    let mut pts = path.clone();
    pts.push(base);
    let half = shaft / 2.0;
    let mut left = Vec::new();
    let mut right = Vec::new();
    for (i, p) in pts.iter().enumerate() {
        // Offset each vertex along the bisector of its neighbouring segments (mitre).
        let dir_in = if i > 0 {
            unit(pts[i - 1], *p)
        } else {
            unit(*p, pts[i + 1])
        };
        let dir_out = if i + 1 < pts.len() {
            unit(*p, pts[i + 1])
        } else {
            dir_in
        };
        let (mx, my) = (-(dir_in.1 + dir_out.1), dir_in.0 + dir_out.0);
        let m_len = (mx * mx + my * my).sqrt().max(1e-3);
        let cos = ((mx / m_len) * -dir_in.1 + (my / m_len) * dir_in.0).max(0.3);
        let k = half / cos;
        left.push((p.0 + mx / m_len * k, p.1 + my / m_len * k));
        right.push((p.0 - mx / m_len * k, p.1 - my / m_len * k));
    }
    let mut points = left;
    points.push((base.0 + nx * head_half, base.1 + ny * head_half));
    points.push(tip);
    points.push((base.0 - nx * head_half, base.1 - ny * head_half));
    points.extend(right.into_iter().rev());
    Shape::Polygon { points, color }
}

/// A circle as four cubic Béziers, starting and ending at (cx + r, cy): the one
/// construction both backends use, so SVG and PNG draw the same curve.
pub fn circle_curves(center: Point, r: f32) -> [(Point, Point, Point); 4] {
    const K: f32 = 0.552_284_8; // 4/3 · (√2 − 1)
    let (cx, cy) = center;
    let k = r * K;
    [
        ((cx + r, cy + k), (cx + k, cy + r), (cx, cy + r)),
        ((cx - k, cy + r), (cx - r, cy + k), (cx - r, cy)),
        ((cx - r, cy - k), (cx - k, cy - r), (cx, cy - r)),
        ((cx + k, cy - r), (cx + r, cy - k), (cx + r, cy)),
    ]
}

pub(super) fn unit(a: Point, b: Point) -> Point {
    let (dx, dy) = (b.0 - a.0, b.1 - a.1);
    let len = (dx * dx + dy * dy).sqrt().max(1e-6);
    (dx / len, dy / len)
}
