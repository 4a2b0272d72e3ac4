//! The SVG backend: writes a [`Scene`] as one self-contained SVG document.
//!
//! Owns SVG text only. Pieces are written once each as a `<symbol>` and placed with
//! `<use>`; labels are glyph outlines (`<path>`), so the document needs no fonts and no
//! external files. Every value written comes from the scene (numbers, `#rrggbb` colours,
//! usvg-normalised piece bodies): no user text reaches the output.

use crate::font::LabelFont;
use crate::pieces::PieceSet;
use crate::scene::{Point, Scene, Shape, circle_curves};
use crate::theme::Rgba;
use std::fmt::{self, Write as _};

/// A number written compactly: at most two decimals, no trailing zeros.
struct Num(f32);

impl fmt::Display for Num {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let rounded = (self.0 * 100.0).round() / 100.0;
        if rounded == rounded.trunc() {
            write!(f, "{}", rounded as i64)
        } else {
            let text = format!("{rounded:.2}");
            f.write_str(text.trim_end_matches('0'))
        }
    }
}

/// Write `scene` as SVG, drawing pieces from `set` and labels from `font`.
pub fn write(scene: &Scene, set: &PieceSet, font: &LabelFont) -> String {
    let mut out = String::with_capacity(4096 + scene.pieces.len() * 64);
    // Writing into a String cannot fail; the results are ignored for that reason.
    let _ = write_into(&mut out, scene, set, font);
    out
}

fn write_into(out: &mut String, scene: &Scene, set: &PieceSet, font: &LabelFont) -> fmt::Result {
    let (w, h) = (scene.width, scene.height);
    write!(
        out,
        r#"<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" version="1.1" width="{w}" height="{h}" viewBox="0 0 {w} {h}">"#
    )?;
    // One symbol per piece that appears, in a stable order.
    let mut used: Vec<_> = scene.pieces.iter().map(|p| p.piece).collect();
    used.sort();
    used.dedup();
    if !used.is_empty() {
        out.push_str("<defs>");
        for piece in &used {
            let art = set.art(*piece);
            write!(
                out,
                r#"<symbol id="{}" viewBox="0 0 {} {}">{}</symbol>"#,
                piece.code(),
                Num(art.view_box.0),
                Num(art.view_box.1),
                art.symbol_body
            )?;
        }
        out.push_str("</defs>");
    }
    write!(
        out,
        r#"<rect width="{w}" height="{h}" fill="{}"/>"#,
        scene.background
    )?;
    let mut gradients = 0;
    for fill in &scene.fills {
        let rect = Shape::Rect {
            rect: fill.rect,
            color: fill.color,
        };
        write_shape(out, &rect, &mut gradients)?;
    }
    for shape in &scene.marks {
        write_shape(out, shape, &mut gradients)?;
    }
    for p in &scene.pieces {
        let r = p.rect;
        write!(
            out,
            r##"<use xlink:href="#{}" x="{}" y="{}" width="{}" height="{}"/>"##,
            p.piece.code(),
            r.x,
            r.y,
            r.w,
            r.h
        )?;
    }
    for shape in &scene.overlays {
        write_shape(out, shape, &mut gradients)?;
    }
    for label in &scene.labels {
        let Some(glyph) = font.glyph(label.ch) else {
            continue;
        };
        let s = label.scale;
        write!(
            out,
            r#"<path transform="matrix({} 0 0 {} {} {})" fill="{}" d="{}"/>"#,
            s, -s, label.x, label.y, label.color, glyph.svg_path
        )?;
    }
    out.push_str("</svg>");
    Ok(())
}

/// ` fill="#rrggbb"` plus ` fill-opacity="…"` when translucent (or `stroke`).
struct Paint(&'static str, Rgba);

impl fmt::Display for Paint {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let Paint(kind, c) = *self;
        write!(f, r##" {kind}="#{:02x}{:02x}{:02x}""##, c.r, c.g, c.b)?;
        if c.a != 255 {
            write!(f, r#" {kind}-opacity="{}""#, f32::from(c.a) / 255.0)?;
        }
        Ok(())
    }
}

/// SVG path data through `points`.
struct PathData<'a>(&'a [Point], bool);

impl fmt::Display for PathData<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, (x, y)) in self.0.iter().enumerate() {
            write!(f, "{}{x} {y}", if i == 0 { 'M' } else { 'L' })?;
        }
        if self.1 {
            f.write_str("Z")?;
        }
        Ok(())
    }
}

/// SVG path data of [`circle_curves`].
struct Circle(Point, f32);

impl fmt::Display for Circle {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let Circle(center, r) = *self;
        write!(f, "M{} {}", center.0 + r, center.1)?;
        for (a, b, c) in circle_curves(center, r) {
            write!(f, "C{} {} {} {} {} {}", a.0, a.1, b.0, b.1, c.0, c.1)?;
        }
        f.write_str("Z")
    }
}

fn write_shape(out: &mut String, shape: &Shape, gradients: &mut u32) -> fmt::Result {
    match shape {
        Shape::Rect { rect: r, color } => write!(
            out,
            r#"<rect x="{}" y="{}" width="{}" height="{}"{}/>"#,
            r.x,
            r.y,
            r.w,
            r.h,
            Paint("fill", *color)
        ),
        Shape::Polygon { points, color } => {
            write!(
                out,
                r#"<path d="{}"{}/>"#,
                PathData(points, true),
                Paint("fill", *color)
            )
        }
        Shape::Line {
            points,
            width,
            color,
        } => write!(
            out,
            r#"<path d="{}" fill="none" stroke-width="{width}" stroke-linecap="butt" stroke-linejoin="miter"{}/>"#,
            PathData(points, false),
            Paint("stroke", *color)
        ),
        Shape::Ring {
            center,
            radius,
            width,
            color,
        } => write!(
            out,
            r#"<circle cx="{}" cy="{}" r="{radius}" fill="none" stroke-width="{width}"{}/>"#,
            center.0,
            center.1,
            Paint("stroke", *color)
        ),
        Shape::Disc {
            center,
            radius,
            color,
        } => write!(
            out,
            r#"<path d="{}"{}/>"#,
            Circle(*center, *radius),
            Paint("fill", *color)
        ),
        Shape::Glow {
            center,
            radius,
            stops,
        } => {
            *gradients += 1;
            let id = *gradients;
            write!(
                out,
                r#"<radialGradient id="glow{id}" gradientUnits="userSpaceOnUse" cx="{}" cy="{}" r="{radius}">"#,
                center.0, center.1
            )?;
            for (offset, c) in stops {
                write!(
                    out,
                    r##"<stop offset="{offset}" stop-color="#{:02x}{:02x}{:02x}" stop-opacity="{}"/>"##,
                    c.r,
                    c.g,
                    c.b,
                    f32::from(c.a) / 255.0
                )?;
            }
            write!(
                out,
                r##"</radialGradient><path d="{}" fill="url(#glow{id})"/>"##,
                Circle(*center, *radius)
            )
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_are_compact() {
        assert_eq!(Num(3.0).to_string(), "3");
        assert_eq!(Num(3.5).to_string(), "3.5");
        assert_eq!(Num(1.23456).to_string(), "1.23");
        assert_eq!(Num(-0.004).to_string(), "0");
        assert_eq!(Num(12.999).to_string(), "13");
    }
}
