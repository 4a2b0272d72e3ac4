//! Square markers laid out as shapes: circles, dotted circles, square and triangle
//! outlines, dots, rings and corner labels (`marks`, `dots`, `legalMoves`, `[%mark]`).
//!
//! Owns their geometry only; the scene puts them over the pieces, after the arrows. The
//! outlines are ink inside a light halo, as crosses and circles are (see `Halo`), so they
//! read on every square and piece; the square outline lies on whole pixels, crisp at any
//! size. A label is one or two characters of the label font on a plate of the marker's
//! colour, in the square's top-right corner, in white or ink, whichever reads on it.

use super::grid::{Grid, centre};
use super::marks::{Halo, band, circle};
use super::parts::{Label, Point, Rect, Shape};
use crate::render::art::font::LabelFont;
use crate::render::spec::options::{Arrow, Marker, MarkerKind};
use crate::render::spec::theme::{HALO, INK, MarkColor, Rgba};

/// Lay out `markers` in order: shapes onto `overlays`, label glyphs onto `labels`.
pub(super) fn lay_out(
    markers: &[Marker],
    grid: &Grid,
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
        match &m.kind {
            MarkerKind::Circle => {
                let arrow = Arrow {
                    from: m.square,
                    to: m.square,
                    color: m.color,
                };
                circle(&arrow, grid, halo, overlays);
            }
            MarkerKind::Dotted => dotted(center, sq, halo, m.color, overlays),
            MarkerKind::Square => outline(&square_path(rect), rect.w, m.color, overlays),
            MarkerKind::Triangle => outline(&triangle_path(rect), rect.w, m.color, overlays),
            MarkerKind::Dot => overlays.push(Shape::Disc {
                center,
                radius: band(sq, 0.13, 2.5),
                color: m.color.arrow(),
            }),
            MarkerKind::Ring => {
                let width = band(sq, 0.08, 1.5);
                overlays.push(Shape::Ring {
                    center,
                    radius: sq * 0.48 - width / 2.0,
                    width,
                    color: m.color.arrow(),
                });
            }
            MarkerKind::Label(text) => label(text, rect, m.color, font, (overlays, labels)),
        }
    }
}

/// Whole-pixel band widths of an outline on a `side` px square: (halo, rim, colour), and
/// the inset of its outer edge.
fn outline_bands(side: u32) -> (u32, u32, u32, u32) {
    let px = |share: f32| ((side as f32 * share).round() as u32).max(1);
    let inset = (side as f32 * 0.02).round() as u32;
    (px(0.03), px(0.02), px(0.05), inset)
}

/// The total width of an outline's stroke, halo to halo.
fn outline_width(side: u32) -> u32 {
    let (halo, rim, colour, _) = outline_bands(side);
    2 * halo + 2 * rim + colour
}

/// Stroke `path` three times on one centre line, as a circle is: the halo, the ink, the
/// colour. The path starts and ends on one straight side and overlaps itself there, so
/// the outline closes without a seam (the colours are opaque).
fn outline(path: &[Point], side: u32, color: MarkColor, out: &mut Vec<Shape>) {
    let (halo, rim, colour, _) = outline_bands(side);
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

/// A square outline's centre line, its edges on whole pixels.
fn square_path(r: Rect) -> Vec<Point> {
    let (_, _, _, inset) = outline_bands(r.w);
    let total = outline_width(r.w) as f32;
    let near = inset as f32 + total / 2.0;
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

/// A triangle outline's centre line, pointing up, its mitred corners inside the square.
fn triangle_path(r: Rect) -> Vec<Point> {
    let (_, _, _, inset) = outline_bands(r.w);
    let total = outline_width(r.w) as f32;
    // A mitre reaches half the stroke over the sine of half the corner's angle past it:
    // about 1.12 strokes at the apex and 0.95 at the base for this shape.
    let (apex, base) = (inset as f32 + total * 1.15, inset as f32 + total);
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

/// A dotted circle on the circle's centre line: each dot ink-rimmed inside a halo, the
/// halos first, as many dots as fit about a dot apart (6 to 12).
fn dotted(center: Point, sq: f32, halo: Halo, color: MarkColor, out: &mut Vec<Shape>) {
    let dot = band(sq, 0.035, 1.0);
    let rim = band(sq, 0.015, 0.75);
    let outer = dot + rim + halo.light;
    let radius = (sq * 0.49 - outer).max(0.5);
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
