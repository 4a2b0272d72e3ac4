//! The pieces of an SVG in its portable form (`svg=portable`): each piece written out where
//! it stands, as a group moved and scaled to its square, its styles as presentation
//! attributes. No `<symbol>`, no `<use>`, no CSS: renderers that know only SVG Tiny 1.2
//! (QtSvg) or no `<use>` at all (NanoSVG) draw it as browsers do.
//!
//! Owns only that; the rest of the document is `svg.rs`'s.

use crate::chess::piece::Piece;
use crate::render::art::pieces::{ArtPath, PieceSet};
use crate::render::scene::Rect;
use std::fmt::{self, Write as _};

/// `piece` drawn in `rect` as a `<symbol>` with its viewBox would be: scaled to fit, centred
/// (the default `preserveAspectRatio`).
pub(super) fn write_piece(
    out: &mut String,
    set: &PieceSet,
    piece: Piece,
    rect: Rect,
) -> fmt::Result {
    let art = set.art(piece);
    let (vw, vh) = art.view_box;
    if !(vw > 0.0 && vh > 0.0) {
        return Ok(());
    }
    let (w, h) = (rect.w as f32, rect.h as f32);
    let scale = (w / vw).min(h / vh);
    let x = rect.x as f32 + (w - vw * scale) / 2.0;
    let y = rect.y as f32 + (h - vh * scale) / 2.0;
    write!(
        out,
        r#"<g transform="translate({} {}) scale({})">"#,
        super::svg::Fine(x),
        super::svg::Fine(y),
        super::svg::Fine(scale)
    )?;
    match &art.paths {
        Some(paths) => write_paths(out, paths)?,
        None => out.push_str(&art.symbol_body),
    }
    out.push_str("</g>");
    Ok(())
}

/// The styled paths: a lone path carries its attributes, consecutive paths of one style
/// share a group that carries them.
fn write_paths(out: &mut String, paths: &[ArtPath]) -> fmt::Result {
    for run in paths.chunk_by(|a, b| a.style == b.style) {
        let attributes = Attributes(&run[0].style);
        if let [p] = run {
            write!(out, r#"<path{attributes} d="{}"/>"#, p.d)?;
            continue;
        }
        write!(out, "<g{attributes}>")?;
        for p in run {
            write!(out, r#"<path d="{}"/>"#, p.d)?;
        }
        out.push_str("</g>");
    }
    Ok(())
}

/// CSS declarations (`fill:#fff;stroke-width:2`), as usvg writes a path's style, written as
/// the presentation attributes of the same names.
struct Attributes<'a>(&'a str);

impl fmt::Display for Attributes<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for declaration in self.0.split(';') {
            let Some((name, value)) = declaration.split_once(':') else {
                continue;
            };
            let name = name.trim();
            // Only property names (letters and hyphens) are written as attribute names.
            if name.is_empty() || !name.bytes().all(|b| b.is_ascii_lowercase() || b == b'-') {
                continue;
            }
            write!(f, r#" {name}="{}""#, value.trim().replace('"', "&quot;"))?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn styles_become_attributes() {
        let text = Attributes("fill:#fbf9f4;stroke:#1a1a1a;stroke-width:3.5;").to_string();
        assert_eq!(text, r##" fill="#fbf9f4" stroke="#1a1a1a" stroke-width="3.5""##);
        assert_eq!(Attributes("x\"y:1;fill:a\"b").to_string(), r#" fill="a&quot;b""#);
    }
}
