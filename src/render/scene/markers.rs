//! Square markers laid out as shapes: circles, dotted circles, square and triangle
//! outlines, dots, rings and corner labels (`marks`, `dots`, `legalMoves`, `[%mark]`).
//!
//! Owns their geometry only. A marker never hides what it marks: the scene puts markers
//! over the pieces but under the arrows (an arrowhead ending on a marked square is drawn
//! whole over the marker), and no marker reaches into the middle of an occupied square
//! (a piece or a figure):
//!
//! - circle, dotted circle, ring and square outline keep to the square's edge on every
//!   square, thin: a ring whose outer edge is the square's inscribed circle, a frame whose
//!   outer edge is the square's edge (one rule, empty or occupied);
//! - a triangle and a dot stand in the middle of an empty square (the move dot of
//!   `legalMoves` and `dots`) and go small into a corner of an occupied one: the triangle
//!   bottom-left, the dot bottom-right, clear of the label and the promoted-piece mark in
//!   the top-right corner;
//! - a label is one or two characters of the label font on a plate of the marker's colour,
//!   in the square's top-right corner, in white or ink, whichever reads on it.
//!
//! The outlines are ink inside a light halo, as crosses and circles are (see `Halo`), so
//! they read on every square and piece; the square frame lies on whole pixels, crisp at
//! any size.

use super::grid::{Grid, centre};
use super::marks::{Halo, band};
use super::parts::{Label, Point, Rect, Shape};
use crate::chess::position::Square;
use crate::render::art::font::LabelFont;
use crate::render::spec::options::{Marker, MarkerKind};
use crate::render::spec::theme::{HALO, INK, MarkColor, Rgba};

/// Lay out `markers` in order: shapes onto `overlays`, label glyphs onto `labels`;
/// `occupied` tells the squares that hold a piece or a figure.
pub(super) fn lay_out(
    markers: &[Marker],
    grid: &Grid,
    occupied: &dyn Fn(Square) -> bool,
    font: &LabelFont,
    overlays: &mut Vec<Shape>,
    labels: &mut Vec<Label>,
) {
    let sq = grid.square as f32;
    let halo = Halo::of(sq);
    // Markers outside a region are not drawn, as marks outside it are not.
    for m in markers.iter().filter(|m| grid.shows(m.square)) {
        let rect = grid.rect(m.square);
        let center = centre(grid, m.square);
        let full = !occupied(m.square);
        match &m.kind {
            MarkerKind::Circle => ring(center, sq, m.color, overlays),
            MarkerKind::Dotted => dotted(center, sq, halo, m.color, overlays),
            MarkerKind::Square => outline(&square_path(rect), frame_bands(rect.w), m.color, overlays),
            MarkerKind::Triangle if full => {
                let bands = outline_bands(rect.w);
                outline(&triangle_path(rect), bands, m.color, overlays);
            }
            MarkerKind::Triangle => corner_triangle(rect, m.color, overlays),
            MarkerKind::Dot if full => overlays.push(Shape::Disc {
                center,
                radius: band(sq, 0.13, 2.5),
                color: m.color.arrow(),
            }),
            MarkerKind::Dot => corner_dot(rect, m.color, overlays),
            MarkerKind::Ring => {
                let width = band(sq, 0.07, 1.5);
                overlays.push(Shape::Ring {
                    center,
                    radius: sq * 0.5 - width / 2.0,
                    width,
                    color: m.color.arrow(),
                });
            }
            MarkerKind::Label(text) => label(text, rect, m.color, font, (overlays, labels)),
        }
    }
}

/// Whole-pixel band widths of an outline, (halo, rim, colour), and the inset of its outer
/// edge in the square.
type Bands = (u32, u32, u32, u32);

/// The bands of an empty square's triangle outline on a `side` px square.
fn outline_bands(side: u32) -> Bands {
    let px = |share: f32| ((side as f32 * share).round() as u32).max(1);
    let inset = (side as f32 * 0.02).round() as u32;
    (px(0.03), px(0.02), px(0.05), inset)
}

/// The bands of the square frame on a `side` px square: thin, its outer edge the square's.
fn frame_bands(side: u32) -> Bands {
    let px = |share: f32| ((side as f32 * share).round() as u32).max(1);
    (px(0.015), px(0.015), px(0.03), 0)
}

/// The total width of an outline's stroke, halo to halo.
fn outline_width((halo, rim, colour, _): Bands) -> u32 {
    2 * halo + 2 * rim + colour
}

/// Stroke `path` three times on one centre line, as a circle is: the halo, the ink, the
/// colour. The path starts and ends on one straight side and overlaps itself there, so
/// the outline closes without a seam (the colours are opaque).
fn outline(path: &[Point], bands: Bands, color: MarkColor, out: &mut Vec<Shape>) {
    let (halo, rim, colour, _) = bands;
    for (width, color) in [
        (colour + 2 * (rim + halo), HALO),
        (colour + 2 * rim, INK),
        (colour, color.circle()),
    ] {
        out.push(Shape::Line {
            points: path.to_vec(),
            width: width as f32,
            color,
        });
    }
}

/// The square frame's centre line, its edges on whole pixels.
fn square_path(r: Rect) -> Vec<Point> {
    let bands = frame_bands(r.w);
    let total = outline_width(bands) as f32;
    let near = bands.3 as f32 + total / 2.0;
    let (left, top) = (r.x as f32 + near, r.y as f32 + near);
    let (right, bottom) = ((r.x + r.w) as f32 - near, (r.y + r.h) as f32 - near);
    let mid = (left + right) / 2.0;
    vec![
        (mid, top),
        (right, top),
        (right, bottom),
        (left, bottom),
        (left, top),
        ((mid + total).min(right), top),
    ]
}

/// An empty square's triangle outline's centre line, pointing up, its mitred corners
/// inside the square.
fn triangle_path(r: Rect) -> Vec<Point> {
    let bands = outline_bands(r.w);
    let total = outline_width(bands) as f32;
    // A mitre reaches half the stroke over the sine of half the corner's angle past it:
    // about 1.12 strokes at the apex and 0.95 at the base for this shape.
    let (apex, base) = (bands.3 as f32 + total * 1.15, bands.3 as f32 + total);
    let (x0, y0, side) = (r.x as f32, r.y as f32, r.w as f32);
    let cx = x0 + side / 2.0;
    let bottom = y0 + side - base;
    vec![
        (cx, bottom),
        (x0 + side - base, bottom),
        (cx, y0 + apex),
        (x0 + base, bottom),
        ((cx + total).min(x0 + side - base), bottom),
    ]
}

/// A circle marker: a thin ring from the outside in the halo, an ink rim, the colour, an
/// ink rim, the halo; its outer edge on the square's inscribed circle, so it passes round
/// a piece rather than over it.
fn ring(center: Point, sq: f32, color: MarkColor, out: &mut Vec<Shape>) {
    let (light, rim) = (band(sq, 0.015, 1.0), band(sq, 0.015, 1.0));
    let width = band(sq, 0.025, 1.25);
    let radius = (sq * 0.5 - light - rim - width / 2.0).max(0.5);
    for (width, color) in [
        (width + 2.0 * (rim + light), HALO),
        (width + 2.0 * rim, INK),
        (width, color.circle()),
    ] {
        out.push(Shape::Ring {
            center,
            radius,
            width,
            color,
        });
    }
}

/// A dotted circle at the square's edge: each dot ink-rimmed inside a halo, the halos
/// first, as many dots as fit about a dot apart (6 to 12).
fn dotted(center: Point, sq: f32, halo: Halo, color: MarkColor, out: &mut Vec<Shape>) {
    let dot = band(sq, 0.025, 1.0);
    let rim = band(sq, 0.012, 0.75);
    let outer = dot + rim + halo.light.min(band(sq, 0.02, 1.0));
    let radius = (sq * 0.5 - outer).max(0.5);
    let around = std::f32::consts::TAU * radius;
    let n = ((around / (outer * 2.8)).floor() as usize).clamp(6, 12);
    let at = |i: usize| {
        // From the top, clockwise.
        let a = std::f32::consts::TAU * i as f32 / n as f32;
        (center.0 + radius * a.sin(), center.1 - radius * a.cos())
    };
    for (r, color) in [(outer, HALO), (dot + rim, INK), (dot, color.circle())] {
        for i in 0..n {
            out.push(Shape::Disc {
                center: at(i),
                radius: r,
                color,
            });
        }
    }
}

/// The widths of a corner shape's halo and ink rim, and its margin from the square's
/// edges (whole pixels) on a square `sq` px wide.
fn corner_bands(sq: f32) -> (f32, f32, f32) {
    (band(sq, 0.025, 0.75), band(sq, 0.02, 0.75), (sq * 0.02).round())
}

/// An occupied square's triangle: small, filled, pointing up in the top-left corner,
/// the colour in an ink rim inside a halo.
fn corner_triangle(r: Rect, color: MarkColor, out: &mut Vec<Shape>) {
    let sq = r.w as f32;
    let (light, rim, margin) = corner_bands(sq);
    let w = (sq * 0.28).max(7.0).min(sq * 0.5);
    let h = w * 0.9;
    let left = r.x as f32 + margin;
    let bottom = r.y as f32 + margin + h;
    let outer = [
        (left, bottom),
        (left + w, bottom),
        (left + w / 2.0, bottom - h),
    ];
    // Each layer the one outside it moved in by a band: the triangle scaled about its
    // incentre by (inradius − band) / inradius.
    let side = |a: Point, b: Point| ((a.0 - b.0).powi(2) + (a.1 - b.1).powi(2)).sqrt();
    let (a, b, c) = (side(outer[1], outer[2]), side(outer[2], outer[0]), w);
    let p = a + b + c;
    let incentre = (
        (a * outer[0].0 + b * outer[1].0 + c * outer[2].0) / p,
        (a * outer[0].1 + b * outer[1].1 + c * outer[2].1) / p,
    );
    let inradius = w * h / p;
    for (inset, color) in [(0.0, HALO), (light, INK), (light + rim, color.circle())] {
        let k = ((inradius - inset) / inradius).max(0.0);
        let points = outer
            .iter()
            .map(|q| (incentre.0 + (q.0 - incentre.0) * k, incentre.1 + (q.1 - incentre.1) * k))
            .collect();
        out.push(Shape::Polygon { points, color });
    }
}

/// An occupied square's dot: small, in the bottom-right corner, the colour in an ink rim
/// inside a halo.
fn corner_dot(r: Rect, color: MarkColor, out: &mut Vec<Shape>) {
    let sq = r.w as f32;
    let (light, rim, margin) = corner_bands(sq);
    let radius = (sq * 0.1).max(3.5).min(sq * 0.25);
    let center = (
        (r.x + r.w) as f32 - margin - radius,
        (r.y + r.h) as f32 - margin - radius,
    );
    for (inset, color) in [(0.0, HALO), (light, INK), (light + rim, color.circle())] {
        out.push(Shape::Disc {
            center,
            radius: radius - inset,
            color,
        });
    }
}

/// One or two characters on a plate of `color` in the top-right corner of `r`, the plate
/// on whole pixels and ringed by a pixel of halo.
fn label(
    text: &str,
    r: Rect,
    color: MarkColor,
    font: &LabelFont,
    (overlays, labels): (&mut Vec<Shape>, &mut Vec<Label>),
) {
    let sq = r.w as f32;
    let cap_px = (sq * 0.24).max(5.0).min(sq * 0.45);
    let scale = cap_px / font.cap_height().max(1.0);
    let glyphs: Vec<_> = text
        .chars()
        .filter_map(|c| Some((c, font.glyph(c)?)))
        .collect();
    let gap = font.cap_height() * 0.12 * scale;
    let ink: f32 = glyphs
        .iter()
        .map(|(_, g)| (g.ink_x.1 - g.ink_x.0) * scale)
        .sum::<f32>()
        + gap * glyphs.len().saturating_sub(1) as f32;
    let pad = (cap_px * 0.3).round().max(1.0);
    let h = (cap_px + 2.0 * pad).round();
    let w = (ink + 2.0 * pad).round().max(h).min(sq - 2.0);
    let inset = (sq * 0.04).round().max(1.0);
    let (right, top) = ((r.x + r.w) as f32 - inset, r.y as f32 + inset);
    let plate = |grow: f32, color: Rgba| Shape::Polygon {
        points: vec![
            (right - w - grow, top - grow),
            (right + grow, top - grow),
            (right + grow, top + h + grow),
            (right - w - grow, top + h + grow),
        ],
        color,
    };
    let fill = color.circle();
    overlays.push(plate(1.0, HALO));
    overlays.push(plate(0.0, fill));
    let ink_color = if fill.luminance() < 0.3 {
        Rgba::hex(0xffffff)
    } else {
        INK
    };
    let mut x = right - w / 2.0 - ink / 2.0;
    let baseline = top + pad + cap_px;
    for (ch, g) in glyphs {
        labels.push(Label {
            ch,
            x: x - g.ink_x.0 * scale,
            y: baseline,
            scale,
            color: ink_color,
        });
        x += (g.ink_x.1 - g.ink_x.0) * scale + gap;
    }
}
