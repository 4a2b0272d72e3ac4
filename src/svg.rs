//! The SVG backend: writes a [`Scene`] as one self-contained SVG document.
//!
//! Owns SVG text only. Pieces are written once each as a `<symbol>` and placed with
//! `<use>`; labels are glyph outlines (`<path>`), so the document needs no fonts and no
//! external files. Every value written comes from the scene (numbers, `#rrggbb` colours,
//! usvg-normalised piece bodies): no user text reaches the output.

use crate::font::LabelFont;
use crate::pieces::PieceSet;
use crate::scene::Scene;
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
    for fill in &scene.fills {
        let r = fill.rect;
        write!(
            out,
            r#"<rect x="{}" y="{}" width="{}" height="{}" fill="{}"/>"#,
            r.x, r.y, r.w, r.h, fill.color
        )?;
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
