//! One shape painted in place with tiny-skia (rectangles, polygons, lines, rings, discs,
//! glows: the paths and paint settings resvg uses for their SVG form), and the pixel
//! arithmetic the raster painter and its stamps share: the pixels a shape may reach,
//! clipping to dirty runs, premultiplied blending.

use crate::render::scene::{Point, Rect, Run, Shape, circle_curves};
use crate::render::spec::theme::Rgba;
use resvg::tiny_skia::{
    Color, FillRule, GradientStop, LineCap, LineJoin, Paint, PathBuilder, PixmapMut,
    RadialGradient, Rect as SkRect, SpreadMode, Stroke, Transform,
};

pub(super) fn paint_of(color: Rgba) -> Paint<'static> {
    let mut paint = Paint::default();
    paint.set_color(Color::from_rgba8(color.r, color.g, color.b, color.a));
    paint.anti_alias = true;
    paint
}

/// Whether `rect` shares a pixel with `within` (always, when that is `None`).
pub(super) fn touches(within: Option<&[Run]>, rect: Rect) -> bool {
    let mut any = false;
    clip(within, rect, &mut |_, _, _| any = true);
    any
}

/// The parts of `rect`'s rows inside `within` (the whole rows, when that is `None`), in
/// order, as (row, first pixel, end).
pub(super) fn clip(within: Option<&[Run]>, rect: Rect, out: &mut impl FnMut(u32, u32, u32)) {
    let (x0, x1) = (rect.x, rect.x.saturating_add(rect.w));
    let (y0, y1) = (rect.y, rect.y.saturating_add(rect.h));
    let Some(runs) = within else {
        for y in y0..y1 {
            out(y, x0, x1);
        }
        return;
    };
    let from = runs.partition_point(|r| r.y < y0);
    for run in runs[from..].iter().take_while(|r| r.y < y1) {
        let (a, b) = (run.x0.max(x0), run.x1.min(x1));
        if a < b {
            out(run.y, a, b);
        }
    }
}

/// The pixels `shape` may paint (a little more: anti-aliasing and mitred corners included).
pub(super) fn reach(shape: &Shape) -> Rect {
    if let Shape::Rect { rect, .. } = shape {
        return *rect;
    }
    let (x0, y0, x1, y1) = padded_bounds(shape);
    let (x0, y0) = (x0.max(0.0), y0.max(0.0));
    let (x1, y1) = (x1.max(x0), y1.max(y0));
    let clamp = |v: f32| v.min(u32::MAX as f32 / 2.0) as u32;
    Rect {
        x: clamp(x0),
        y: clamp(y0),
        w: clamp(x1 - x0),
        h: clamp(y1 - y0),
    }
}

/// Whether `shape`'s stamp in a `w` × `h` image is cut where the image ends: what it
/// paints then depends on where it is, not only on its shape.
pub(crate) fn cut_at_edges(shape: &Shape, (w, h): (u32, u32)) -> bool {
    let (x0, y0, x1, y1) = padded_bounds(shape);
    x0 < 0.0 || y0 < 0.0 || x1 > w as f32 || y1 > h as f32
}

/// The whole pixels `shape` may touch, before clamping to the image: its bounds (with
/// room for mitred corners and stroke width) widened by a pixel for anti-aliasing.
pub(super) fn padded_bounds(shape: &Shape) -> (f32, f32, f32, f32) {
    let (x0, y0, x1, y1) = match shape {
        Shape::Rect { rect, .. } => (
            rect.x as f32,
            rect.y as f32,
            rect.x as f32 + rect.w as f32,
            rect.y as f32 + rect.h as f32,
        ),
        Shape::Polygon { points, .. } | Shape::Line { points, .. } => {
            // Mitred corners reach at most 4 half-widths (tiny-skia's default limit).
            let pad = match shape {
                Shape::Line { width, .. } => width * 2.0,
                _ => 0.0,
            };
            points.iter().fold(
                (f32::MAX, f32::MAX, f32::MIN, f32::MIN),
                |(x0, y0, x1, y1), p| {
                    (
                        x0.min(p.0 - pad),
                        y0.min(p.1 - pad),
                        x1.max(p.0 + pad),
                        y1.max(p.1 + pad),
                    )
                },
            )
        }
        Shape::Ring {
            center,
            radius,
            width,
            ..
        } => {
            let r = radius + width / 2.0;
            (center.0 - r, center.1 - r, center.0 + r, center.1 + r)
        }
        Shape::Disc { center, radius, .. } | Shape::Glow { center, radius, .. } => (
            center.0 - radius,
            center.1 - radius,
            center.0 + radius,
            center.1 + radius,
        ),
    };
    (
        (x0 - 1.0).floor(),
        (y0 - 1.0).floor(),
        (x1 + 1.0).ceil(),
        (y1 + 1.0).ceil(),
    )
}

/// Premultiplied source-over of `rows` rows of `src` onto `dst` (strides in bytes).
pub(super) fn blend_into(dst: &mut [u8], dst_stride: usize, src: &[u8], src_stride: usize, rows: usize) {
    for row in 0..rows {
        let d = &mut dst[row * dst_stride..][..src_stride];
        let s = &src[row * src_stride..][..src_stride];
        for (dp, sp) in d.chunks_exact_mut(4).zip(s.chunks_exact(4)) {
            let sa = sp[3];
            if sa == 255 {
                dp.copy_from_slice(sp);
            } else if sa != 0 {
                let keep = 255 - u16::from(sa);
                for i in 0..4 {
                    let v = u16::from(sp[i]) + (u16::from(dp[i]) * keep + 127) / 255;
                    dp[i] = v.min(255) as u8;
                }
            }
        }
    }
}

pub(super) fn polyline(points: &[Point], close: bool) -> Option<resvg::tiny_skia::Path> {
    let mut pb = PathBuilder::new();
    let (first, rest) = points.split_first()?;
    pb.move_to(first.0, first.1);
    for p in rest {
        pb.line_to(p.0, p.1);
    }
    if close {
        pb.close();
    }
    pb.finish()
}

pub(super) fn circle(center: Point, r: f32) -> Option<resvg::tiny_skia::Path> {
    let mut pb = PathBuilder::new();
    pb.move_to(center.0 + r, center.1);
    for (a, b, c) in circle_curves(center, r) {
        pb.cubic_to(a.0, a.1, b.0, b.1, c.0, c.1);
    }
    pb.close();
    pb.finish()
}

/// Paint one shape in place with tiny-skia.
pub(super) fn paint_shape(pixmap: &mut PixmapMut, shape: &Shape) {
    let id = Transform::identity();
    match shape {
        Shape::Rect { rect: r, color } => {
            if let Some(rect) = SkRect::from_xywh(r.x as f32, r.y as f32, r.w as f32, r.h as f32) {
                pixmap.fill_rect(rect, &paint_of(*color), id, None);
            }
        }
        Shape::Polygon { points, color } => {
            if let Some(path) = polyline(points, true) {
                pixmap.fill_path(&path, &paint_of(*color), FillRule::Winding, id, None);
            }
        }
        Shape::Line {
            points,
            width,
            color,
        } => {
            let stroke = Stroke {
                width: *width,
                line_cap: LineCap::Butt,
                line_join: LineJoin::Miter,
                ..Stroke::default()
            };
            stroke_path(pixmap, polyline(points, false), *color, &stroke);
        }
        Shape::Ring {
            center,
            radius,
            width,
            color,
        } => {
            let stroke = Stroke {
                width: *width,
                ..Stroke::default()
            };
            stroke_path(pixmap, circle(*center, *radius), *color, &stroke);
        }
        Shape::Disc {
            center,
            radius,
            color,
        } => {
            if let Some(path) = circle(*center, *radius) {
                pixmap.fill_path(&path, &paint_of(*color), FillRule::Winding, id, None);
            }
        }
        Shape::Glow {
            center,
            radius,
            stops,
        } => paint_glow(pixmap, *center, *radius, stops),
    }
}

/// Stroke `path`, if there is one, in `color`.
pub(super) fn stroke_path(
    pixmap: &mut PixmapMut,
    path: Option<resvg::tiny_skia::Path>,
    color: Rgba,
    stroke: &Stroke,
) {
    if let Some(path) = path {
        let id = Transform::identity();
        pixmap.stroke_path(&path, &paint_of(color), stroke, id, None);
    }
}

/// A disc filled with a radial gradient.
pub(super) fn paint_glow(pixmap: &mut PixmapMut, center: Point, radius: f32, stops: &[(f32, Rgba)]) {
    let stops = stops
        .iter()
        .map(|(o, c)| GradientStop::new(*o, Color::from_rgba8(c.r, c.g, c.b, c.a)))
        .collect();
    let (c, id) = (center.into(), Transform::identity());
    let shader = RadialGradient::new(c, 0.0, c, radius, stops, SpreadMode::Pad, id);
    if let (Some(shader), Some(path)) = (shader, circle(center, radius)) {
        let paint = Paint {
            shader,
            anti_alias: true,
            ..Paint::default()
        };
        pixmap.fill_path(&path, &paint, FillRule::Winding, id, None);
    }
}
