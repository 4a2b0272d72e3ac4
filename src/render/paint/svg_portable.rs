//! The pieces of an SVG in its portable form (`svg=portable`): each piece written out where
//! it stands, as a group moved and scaled to its square, its styles as presentation
//! attributes. No `<symbol>`, no `<use>`, no CSS: renderers that know only SVG Tiny 1.2
//! (QtSvg) or no `<use>` at all (NanoSVG) draw it as browsers do.
//!
//! A neutral figure's halves, which the compact form clips (`clipPath`, which neither QtSvg
//! nor NanoSVG draws), are painted here with gradients that step from opaque to clear at
//! the split: each colour of the half a linear gradient, which both renderers draw.
//!
//! Owns only that; the rest of the document is `svg.rs`'s.

use super::svg_number::Fine;
use crate::chess::piece::Piece;
use crate::render::art::pieces::{ArtPath, PieceSet};
use crate::render::scene::Rect;
use std::fmt::{self, Write as _};

/// The part of a square a piece shows: all of it, or one side of a column.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Part {
    /// The whole piece.
    Whole,
    /// Left of the column `split` of the square (`true`: from it rightwards), the gradients
    /// numbered from `first`.
    Half {
        right: bool,
        split: u32,
        first: u32,
    },
}

/// `piece` drawn in `rect` as a `<symbol>` with its viewBox would be: scaled to fit, centred
/// (the default `preserveAspectRatio`); only `part` of it. Returns how many gradients it
/// defined.
pub(super) fn write_piece(
    out: &mut String,
    set: &PieceSet,
    piece: Piece,
    rect: Rect,
    part: Part,
) -> Result<u32, fmt::Error> {
    let art = set.art(piece);
    let (vw, vh) = art.view_box;
    if !(vw > 0.0 && vh > 0.0) {
        return Ok(0);
    }
    let (w, h) = (rect.w as f32, rect.h as f32);
    let scale = (w / vw).min(h / vh);
    let x = rect.x as f32 + (w - vw * scale) / 2.0;
    let y = rect.y as f32 + (h - vh * scale) / 2.0;
    write!(
        out,
        r#"<g transform="translate({} {}) scale({})">"#,
        Fine(x),
        Fine(y),
        Fine(scale)
    )?;
    let mut defined = 0;
    match (&art.paths, part) {
        (Some(paths), Part::Whole) => write_paths(out, paths, &[])?,
        (Some(paths), Part::Half { right, split, first }) => {
            // The split in the artwork's units, as a fraction of its width.
            let at = (rect.x as f32 + split as f32 - x) / scale / vw;
            let colours = half_gradients(out, paths, (vw, at.clamp(0.0, 1.0)), right, first)?;
            write_paths(out, paths, &colours)?;
            defined = colours.len() as u32;
        }
        (None, _) => out.push_str(&art.symbol_body),
    }
    out.push_str("</g>");
    Ok(defined)
}

/// One gradient per colour of `paths`: the colour left of `at` (a fraction of the width
/// `vw`) and clear right of it, or the other way round when `right`. Returns each colour
/// with its gradient's id.
fn half_gradients<'a>(
    out: &mut String,
    paths: &'a [ArtPath],
    (vw, at): (f32, f32),
    right: bool,
    first: u32,
) -> Result<Vec<(&'a str, String)>, fmt::Error> {
    let mut colours: Vec<(&str, String)> = Vec::new();
    for p in paths {
        for (_, value) in declarations(&p.style) {
            if value.starts_with('#') && !colours.iter().any(|(c, _)| *c == value) {
                let id = format!("half{}", first + colours.len() as u32);
                colours.push((value, id));
            }
        }
    }
    write_gradients(out, &colours, (vw, at), right)?;
    Ok(colours)
}

/// `shape`, SVG a shape writer wrote in a square `px` wide, as its half of the square:
/// right of `split` when `right`, else left of it; every `fill` and `stroke` colour
/// painted by a gradient numbered from `first`. Returns how many gradients it defined.
pub(super) fn write_half_shape(
    out: &mut String,
    shape: &str,
    (px, split): (u32, u32),
    right: bool,
    first: u32,
) -> Result<u32, fmt::Error> {
    let mut colours: Vec<(&str, String)> = Vec::new();
    for kind in [r##"fill="#"##, r##"stroke="#"##] {
        for (i, _) in shape.match_indices(kind) {
            let start = i + kind.len() - 1;
            let Some(colour) = shape.get(start..start + 7) else {
                continue;
            };
            if !colours.iter().any(|(c, _)| *c == colour) {
                let id = format!("half{}", first + colours.len() as u32);
                colours.push((colour, id));
            }
        }
    }
    let at = if px == 0 { 0.0 } else { split as f32 / px as f32 };
    write_gradients(out, &colours, (px as f32, at), right)?;
    let mut text = shape.to_string();
    for (colour, id) in &colours {
        for kind in ["fill", "stroke"] {
            text = text.replace(
                &format!(r#"{kind}="{colour}""#),
                &format!(r##"{kind}="url(#{id})""##),
            );
        }
    }
    out.push_str(&text);
    Ok(colours.len() as u32)
}

/// The gradients of `colours`, each its colour left of `at` (a fraction of the width `w`)
/// and clear right of it, or the other way round when `right`.
fn write_gradients(
    out: &mut String,
    colours: &[(&str, String)],
    (vw, at): (f32, f32),
    right: bool,
) -> fmt::Result {
    if colours.is_empty() {
        return Ok(());
    }
    let (before, after) = if right { (0, 1) } else { (1, 0) };
    let at = Fine(at);
    out.push_str("<defs>");
    for (colour, id) in colours {
        write!(
            out,
            r#"<linearGradient id="{id}" gradientUnits="userSpaceOnUse" x1="0" y1="0" x2="{}" y2="0">"#,
            Fine(vw)
        )?;
        for (offset, opacity) in [("0", before), (&*at.to_string(), before)] {
            write!(out, r#"<stop offset="{offset}" stop-color="{colour}" stop-opacity="{opacity}"/>"#)?;
        }
        for (offset, opacity) in [(&*at.to_string(), after), ("1", after)] {
            write!(out, r#"<stop offset="{offset}" stop-color="{colour}" stop-opacity="{opacity}"/>"#)?;
        }
        out.push_str("</linearGradient>");
    }
    out.push_str("</defs>");
    Ok(())
}

/// The declarations of a style, `name:value` pairs, trimmed.
fn declarations(style: &str) -> impl Iterator<Item = (&str, &str)> {
    style
        .split(';')
        .filter_map(|d| d.split_once(':'))
        .map(|(name, value)| (name.trim(), value.trim()))
}

/// The styled paths: a lone path carries its attributes, consecutive paths of one style
/// share a group that carries them. A colour of `gradients` is painted with its gradient.
fn write_paths(out: &mut String, paths: &[ArtPath], gradients: &[(&str, String)]) -> fmt::Result {
    for run in paths.chunk_by(|a, b| a.style == b.style) {
        let attributes = Attributes(&run[0].style, gradients);
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
/// the presentation attributes of the same names; a colour of the list painted with the
/// gradient of its id.
pub(super) struct Attributes<'a>(pub(super) &'a str, pub(super) &'a [(&'a str, String)]);

impl fmt::Display for Attributes<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (name, value) in declarations(self.0) {
            // Only property names (letters and hyphens) are written as attribute names.
            if name.is_empty() || !name.bytes().all(|b| b.is_ascii_lowercase() || b == b'-') {
                continue;
            }
            match self.1.iter().find(|(colour, _)| *colour == value) {
                Some((_, id)) => write!(f, r##" {name}="url(#{id})""##)?,
                None => write!(f, r#" {name}="{}""#, value.replace('"', "&quot;"))?,
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn styles_become_attributes() {
        let text = Attributes("fill:#fbf9f4;stroke:#1a1a1a;stroke-width:3.5;", &[]).to_string();
        assert_eq!(text, r##" fill="#fbf9f4" stroke="#1a1a1a" stroke-width="3.5""##);
        let quoted = Attributes("x\"y:1;fill:a\"b", &[]).to_string();
        assert_eq!(quoted, r#" fill="a&quot;b""#);
        let half = [("#1a1a1a", "half3".to_string())];
        let text = Attributes("fill:#fbf9f4;stroke:#1a1a1a", &half).to_string();
        assert_eq!(text, r##" fill="#fbf9f4" stroke="url(#half3)""##);
    }
}
