//! The SVG backend: writes a [`Scene`] as one self-contained SVG document.
//!
//! Owns SVG text only. Pieces are written once each as a `<symbol>` and placed with
//! `<use>`; labels are glyph outlines (`<path>`), so the document needs no fonts and no
//! external files. Every value written comes from the scene (numbers, `#rrggbb` colours,
//! usvg-normalised piece bodies): no user text reaches the output.

use crate::font::{GLYPH_GRID, LabelFont};
use crate::pathdata::{PathWriter, Segment};
use crate::pieces::PieceSet;
use crate::scene::{Point, Scene, Shape, circle_curves};
use crate::theme::Rgba;
use std::fmt::{self, Write as _};

/// Write `scene` as SVG, drawing pieces from `set` and labels from `font`.
pub fn write(scene: &Scene, set: &PieceSet, font: &LabelFont) -> String {
    write_titled(scene, set, font, None)
}

/// [`write`] with a `<title>`: the text screen readers announce for the image.
pub fn write_titled(
    scene: &Scene,
    set: &PieceSet,
    font: &LabelFont,
    title: Option<&str>,
) -> String {
    let mut out = String::with_capacity(8192 + scene.pieces.len() * 48);
    // Writing into a String cannot fail; the results are ignored for that reason.
    let _ = write_into(&mut out, scene, set, font, title);
    out
}

/// Short names for shared things (styles, path data), derived from their content so that
/// one name means one thing in every document (documents inlined side by side in a page
/// share one namespace). A clash inside a document takes a longer name.
#[derive(Default)]
struct Names {
    given: Vec<(String, String)>,
}

impl Names {
    fn has(&self, content: &str) -> bool {
        self.given.iter().any(|(c, _)| c == content)
    }

    fn name(&mut self, prefix: char, content: &str) -> &str {
        if let Some(i) = self.given.iter().position(|(c, _)| c == content) {
            return &self.given[i].1;
        }
        let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
        for b in content.bytes() {
            hash ^= u64::from(b);
            hash = hash.wrapping_mul(0x0000_0100_0000_01b3);
        }
        let mut digits = String::new();
        let mut h = hash;
        while h > 0 {
            digits.push(char::from(
                b"0123456789abcdefghijklmnopqrstuvwxyz"[(h % 36) as usize],
            ));
            h /= 36;
        }
        let mut len = 2;
        let name = loop {
            let candidate = format!("{prefix}{}", &digits[..len.min(digits.len())]);
            if len >= digits.len() || !self.given.iter().any(|(_, n)| *n == candidate) {
                break candidate;
            }
            len += 1;
        };
        self.given.push((content.to_string(), name));
        &self.given[self.given.len() - 1].1
    }
}

/// Escape text for an XML text node.
fn escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
}

fn write_into(
    out: &mut String,
    scene: &Scene,
    set: &PieceSet,
    font: &LabelFont,
    title: Option<&str>,
) -> fmt::Result {
    let (w, h) = (scene.width, scene.height);
    write!(
        out,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" viewBox="0 0 {w} {h}">"#
    )?;
    if let Some(title) = title {
        write!(out, "<title>{}</title>", escape(title))?;
    }
    // One square size for all pieces, and square artwork: `<use>` then needs no size.
    let square = scene.pieces.first().map(|p| p.rect.w).filter(|&px| {
        px > 0
            && scene.pieces.iter().all(|p| {
                p.rect.w == px && p.rect.h == px && {
                    let (vw, vh) = set.art(p.piece).view_box;
                    vw == vh
                }
            })
    });
    write_pieces(out, scene, set, square)?;
    write!(
        out,
        r#"<rect width="{w}" height="{h}" fill="{}"/>"#,
        scene.background
    )?;
    // Consecutive fills of one colour (the dark squares) as one path.
    let mut gradients = 0;
    for run in scene.fills.chunk_by(|a, b| a.color == b.color) {
        if let [fill] = run {
            let rect = Shape::Rect {
                rect: fill.rect,
                color: fill.color,
            };
            write_shape(out, &rect, &mut gradients)?;
            continue;
        }
        let mut d = PathWriter::new(0);
        for fill in run {
            let r = fill.rect;
            let (x, y) = (i64::from(r.x), i64::from(r.y));
            d.move_to((x, y));
            d.line_to((x + i64::from(r.w), y));
            d.line_to((x + i64::from(r.w), y + i64::from(r.h)));
            d.line_to((x, y + i64::from(r.h)));
            d.close();
        }
        write!(
            out,
            r#"<path d="{}"{}/>"#,
            d.finish(),
            Paint("fill", run[0].color)
        )?;
    }
    for shape in &scene.marks {
        write_shape(out, shape, &mut gradients)?;
    }
    for p in &scene.pieces {
        let r = p.rect;
        write!(
            out,
            r##"<use href="#{}" x="{}" y="{}""##,
            p.piece.code(),
            r.x,
            r.y
        )?;
        if square.is_none() {
            write!(out, r#" width="{}" height="{}""#, r.w, r.h)?;
        }
        out.push_str("/>");
    }
    for shape in &scene.overlays {
        write_shape(out, shape, &mut gradients)?;
    }
    write_labels(out, scene, font)?;
    out.push_str("</svg>");
    Ok(())
}

/// One `<symbol>` per piece that appears, in a stable order.
///
/// Pieces drawn as flat styled paths share what repeats: each style is a CSS class, and
/// path data used more than once is written once in `<defs>`, as a group when a whole run of
/// paths repeats (white and black pieces of most sets differ only in colour), and placed
/// with `<use>`.
fn write_pieces(
    out: &mut String,
    scene: &Scene,
    set: &PieceSet,
    square: Option<u32>,
) -> fmt::Result {
    let (width, height) = (scene.width, scene.height);
    let mut used: Vec<_> = scene.pieces.iter().map(|p| p.piece).collect();
    used.sort();
    used.dedup();
    if used.is_empty() {
        return Ok(());
    }
    // Runs: consecutive paths of one style in one piece, keyed by their path data.
    let runs: Vec<(usize, &str, Vec<&str>)> = used
        .iter()
        .enumerate()
        .filter_map(|(i, p)| set.art(*p).paths.as_ref().map(|paths| (i, paths)))
        .flat_map(|(i, paths)| {
            paths.chunk_by(|a, b| a.style == b.style).map(move |run| {
                let ds = run.iter().map(|p| p.d.as_str()).collect();
                (i, run[0].style.as_str(), ds)
            })
        })
        .collect();
    let shared_run = |ds: &Vec<&str>| runs.iter().filter(|r| &r.2 == ds).count() > 1;
    // Single paths repeated outside shared runs.
    let loose: Vec<&str> = runs
        .iter()
        .filter(|r| !shared_run(&r.2))
        .flat_map(|r| r.2.iter().copied())
        .collect();
    let in_shared_run = |d: &str| runs.iter().any(|r| r.2.contains(&d) && shared_run(&r.2));
    // How many distinct shared runs hold `d` (each is written once).
    let shared_keys = |d: &str| {
        let mut keys: Vec<&Vec<&str>> = runs
            .iter()
            .filter(|r| r.2.contains(&d) && shared_run(&r.2))
            .map(|r| &r.2)
            .collect();
        keys.sort();
        keys.dedup();
        keys.len()
    };
    let loose_count = |d: &str| loose.iter().filter(|l| **l == d).count();
    // Written once and used: repeated loose, or loose and also inside a shared run.
    let shared_path = |d: &str| loose_count(d) > 1 || (loose_count(d) == 1 && in_shared_run(d));

    let mut names = Names::default();
    let mut css = String::new();
    for (_, style, _) in &runs {
        if !style.is_empty() && !names.has(style) {
            let class = names.name('s', style).to_string();
            write!(css, ".{class}{{{style}}}")?;
        }
    }
    if !css.is_empty() {
        write!(out, "<style>{css}</style>")?;
    }
    out.push_str("<defs>");
    for (_, _, ds) in &runs {
        let key = ds.join("|");
        if shared_run(ds) && !names.has(&key) {
            let id = names.name('p', &key).to_string();
            if let [d] = ds.as_slice() {
                write!(out, r#"<path id="{id}" d="{d}"/>"#)?;
            } else {
                write!(out, r#"<g id="{id}">"#)?;
                for d in ds {
                    if names.has(d) {
                        write!(out, r##"<use href="#{}"/>"##, names.name('p', d))?;
                    } else if loose_count(d) + shared_keys(d) > 1 {
                        let path_id = names.name('p', d).to_string();
                        write!(out, r#"<path id="{path_id}" d="{d}"/>"#)?;
                    } else {
                        write!(out, r#"<path d="{d}"/>"#)?;
                    }
                }
                out.push_str("</g>");
            }
        }
    }
    for d in &loose {
        if shared_path(d) && !names.has(d) {
            let id = names.name('p', d).to_string();
            write!(out, r#"<path id="{id}" d="{d}"/>"#)?;
        }
    }
    for (i, piece) in used.iter().enumerate() {
        let art = set.art(*piece);
        // With one square size for every piece, the symbol's viewBox covers the whole
        // document at that scale, so each `<use>` needs only x and y (its viewport is the
        // default 100%); otherwise each `<use>` gives the square's width and height.
        let (vw, vh) = match square {
            Some(px) => (
                art.view_box.0 * width as f32 / px as f32,
                art.view_box.1 * height as f32 / px as f32,
            ),
            None => art.view_box,
        };
        write!(
            out,
            r#"<symbol id="{}" viewBox="0 0 {} {}">"#,
            piece.code(),
            Fine(vw),
            Fine(vh),
        )?;
        if art.paths.is_none() {
            out.push_str(&art.symbol_body);
        }
        for (_, style, ds) in runs.iter().filter(|r| r.0 == i) {
            let class = if style.is_empty() {
                String::new()
            } else {
                format!(r#" class="{}""#, names.name('s', style))
            };
            if shared_run(ds) {
                let id = names.name('p', &ds.join("|"));
                write!(out, r##"<use{class} href="#{id}"/>"##)?;
                continue;
            }
            // A group carries the class of several paths; a lone path carries its own.
            let own = if ds.len() > 1 {
                write!(out, "<g{class}>")?;
                ""
            } else {
                class.as_str()
            };
            for d in ds {
                if shared_path(d) {
                    write!(out, r##"<use{own} href="#{}"/>"##, names.name('p', d))?;
                } else {
                    write!(out, r#"<path{own} d="{d}"/>"#)?;
                }
            }
            if ds.len() > 1 {
                out.push_str("</g>");
            }
        }
        out.push_str("</symbol>");
    }
    out.push_str("</defs>");
    Ok(())
}

/// Labels as glyph outlines: consecutive labels of one colour and size in one path, in
/// units of the glyph grid (scaled by a transform), each glyph placed by a relative move.
fn write_labels(out: &mut String, scene: &Scene, font: &LabelFont) -> fmt::Result {
    for run in scene
        .labels
        .chunk_by(|a, b| a.color == b.color && a.scale == b.scale)
    {
        let unit = run[0].scale * GLYPH_GRID;
        if unit.is_nan() || unit <= 0.0 {
            continue;
        }
        // Glyph points are whole grid units; origins keep two decimals, so labels sit
        // where the raster backend puts them.
        let mut d = PathWriter::new(2);
        for label in run {
            let Some(glyph) = font.glyph(label.ch) else {
                continue;
            };
            let origin = (
                (f64::from(label.x) / f64::from(unit) * 100.0).round() as i64,
                (f64::from(label.y) / f64::from(unit) * 100.0).round() as i64,
            );
            // Glyphs are y-up; the document is y-down.
            let at = |x: f64, y: f64| (origin.0 + x as i64 * 100, origin.1 - y as i64 * 100);
            for segment in &glyph.segments {
                match *segment {
                    Segment::Move(x, y) => d.move_to(at(x, y)),
                    Segment::Line(x, y) => d.line_to(at(x, y)),
                    Segment::Quad(a, b, x, y) => d.quad_to(at(a, b), at(x, y)),
                    Segment::Cubic(a, b, c, e, x, y) => d.cubic_to(at(a, b), at(c, e), at(x, y)),
                    Segment::Close => d.close(),
                }
            }
        }
        write!(
            out,
            r#"<path transform="scale({})" fill="{}" d="{}"/>"#,
            unit,
            run[0].color,
            d.finish()
        )?;
    }
    Ok(())
}

/// A number written with up to four decimals (viewBox sizes, where two are too coarse).
struct Fine(f32);

impl fmt::Display for Fine {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let text = format!("{:.4}", self.0);
        let text = text.trim_end_matches('0').trim_end_matches('.');
        f.write_str(if text == "-0" { "0" } else { text })
    }
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
    fn fine_numbers_keep_four_decimals() {
        assert_eq!(Fine(888.888_9).to_string(), "888.8889");
        assert_eq!(Fine(100.0).to_string(), "100");
        assert_eq!(Fine(-0.000_01).to_string(), "0");
        assert_eq!(Fine(2.5).to_string(), "2.5");
    }
}
