//! The artwork of the pieces: what one piece's drawing is once loaded ([`PieceArt`], its
//! flat [`ArtPath`]s), how usvg's output is made into it (flat paths read back, their data
//! and styles named once across a set, path data compacted, the piece alone as a
//! document), and the built-in sets' SVG, compiled into the binary, with their names and
//! the square size under which a set's hinted drawings are used ([`HINT_BELOW_PX`]).
//!
//! Trusts nothing it is given, and reads only usvg's own output: after `vetting` accepted
//! the file, or the built-in sets' recorded `normalised.txt` (parsed into a tree only when
//! a piece is first rasterised, with [`isolated_options`]).

use crate::chess::piece::Piece;

/// One piece's artwork.
pub struct PieceArt {
    /// The parsed drawing, for rasterising sprites ([`PieceArt::tree`]): parsed at load
    /// for a set that is vetted, else when first rasterised (an SVG-only build, the Typst
    /// plugin, never parses it).
    pub(crate) tree: std::sync::OnceLock<usvg::Tree>,
    /// The normalised drawing the tree is parsed from.
    pub(crate) tree_source: String,
    /// `viewBox` of the symbol: `0 0 w h`.
    pub view_box: (f32, f32),
    /// The symbol body: usvg's normalised SVG elements.
    pub symbol_body: String,
    /// The same drawing as a flat list of styled paths, when usvg's output is one (true of
    /// most piece sets, and of the built-in one). The SVG backend then shares path data
    /// and styles between the pieces of a document.
    pub paths: Option<Vec<ArtPath>>,
    /// The piece alone as a standalone SVG document (see [`PieceSet::piece_svg`](crate::render::pieces::PieceSet::piece_svg)), written
    /// once at load.
    pub document: bytes::Bytes,
}

/// One path of a piece: its style and its data (relative, on a grid of 1/100 unit).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ArtPath {
    /// Presentation attributes as CSS declarations, e.g. `fill:#fff;stroke:#000`.
    pub style: String,
    /// Path data, relative and compact.
    pub d: String,
    /// The same path data has the same id everywhere in the set.
    pub id: u32,
    /// A short name for the path data (an XML id), derived from it, unique in the set.
    pub name: String,
    /// A short name for the style (a CSS class), derived from it, unique in the set.
    pub class: String,
}

/// usvg options that read nothing from disk or network: `<image>` references resolve to
/// nothing, and there is no resources directory.
pub(super) fn isolated_options() -> usvg::Options<'static> {
    usvg::Options {
        resources_dir: None,
        image_href_resolver: usvg::ImageHrefResolver {
            resolve_data: Box::new(|_, _, _| None),
            resolve_string: Box::new(|_, _| None),
        },
        ..usvg::Options::default()
    }
}

impl PieceArt {
    /// The parsed drawing, for rasterising: usvg's reading of its own normalised output,
    /// which every set's loading checked parses (a set from a folder at load, the built-in
    /// ones in their tests).
    pub fn tree(&self) -> &usvg::Tree {
        self.tree.get_or_init(|| {
            usvg::Tree::from_str(&self.tree_source, &isolated_options())
                .unwrap_or_else(|e| panic!("a piece's normalised SVG no longer parses: {e}"))
        })
    }
}

impl std::fmt::Debug for PieceArt {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("PieceArt")
            .field("view_box", &self.view_box)
            .field("symbol_body_len", &self.symbol_body.len())
            .finish()
    }
}

/// A short name for `content`: `prefix` and base-36 digits of its FNV-1a hash, as few as
/// keep it apart from the names in `taken` (so one name means one thing in every
/// document drawn from a set, even inlined side by side in a page).
fn short_name(
    prefix: char,
    content: &str,
    taken: &mut std::collections::HashMap<String, String>,
) -> String {
    let digits = crate::hash::base36(crate::hash::fnv1a(content.bytes()), 13);
    let mut len = 2;
    loop {
        let candidate = format!("{prefix}{}", &digits[..len.min(digits.len())]);
        match taken.get(&candidate) {
            Some(owner) if owner != content && len < digits.len() => len += 1,
            _ => {
                taken.insert(candidate.clone(), content.to_string());
                return candidate;
            }
        }
    }
}

/// Give every path of `art` its data id, data name and class name, consistently across
/// the set.
pub(super) fn intern(art: &mut [PieceArt]) {
    let mut taken = std::collections::HashMap::new();
    let mut ids: std::collections::HashMap<String, (u32, String)> =
        std::collections::HashMap::new();
    let mut classes: std::collections::HashMap<String, String> = std::collections::HashMap::new();
    for path in art.iter_mut().filter_map(|a| a.paths.as_mut()).flatten() {
        let next = ids.len() as u32;
        let (id, name) = ids
            .entry(path.d.clone())
            .or_insert_with(|| (next, short_name('p', &path.d, &mut taken)))
            .clone();
        path.id = id;
        path.name = name;
        if !path.style.is_empty() {
            path.class = classes
                .entry(path.style.clone())
                .or_insert_with(|| short_name('s', &path.style, &mut taken))
                .clone();
        }
    }
}

/// The presentation attributes a flat path may carry (each is also a CSS property).
const STYLE_ATTRIBUTES: &[&str] = &[
    "fill",
    "fill-opacity",
    "fill-rule",
    "stroke",
    "stroke-width",
    "stroke-linecap",
    "stroke-linejoin",
    "stroke-miterlimit",
    "stroke-dasharray",
    "stroke-dashoffset",
    "stroke-opacity",
    "opacity",
];

/// Read usvg's body as `<path a="v" … d="…"/>` elements only, with every attribute a
/// presentation attribute free of references. `None` for anything else.
pub(super) fn flat_paths(body: &str) -> Option<Vec<ArtPath>> {
    let mut paths = Vec::new();
    let mut rest = body.trim();
    while !rest.is_empty() {
        let element = rest.strip_prefix("<path ")?;
        let end = element.find("/>")?;
        let (attrs, tail) = (&element[..end], &element[end + 2..]);
        rest = tail.trim_start();
        let mut style = String::new();
        let mut d = None;
        let mut text = attrs.trim();
        while !text.is_empty() {
            let (name, after) = text.split_once("=\"")?;
            let (value, after) = after.split_once('"')?;
            text = after.trim_start();
            let name = name.trim();
            if name == "d" {
                let segments = crate::render::art::pathdata::parse_absolute(value)?;
                d = Some(crate::render::art::pathdata::write_segments(&segments, 1.0, 2));
            } else if STYLE_ATTRIBUTES.contains(&name)
                && !value.contains(['(', ';', '{', '}', '<', '&'])
            {
                if !style.is_empty() {
                    style.push(';');
                }
                style.push_str(name);
                style.push(':');
                style.push_str(value);
            } else {
                return None;
            }
        }
        paths.push(ArtPath {
            style,
            d: d?,
            id: 0,
            name: String::new(),
            class: String::new(),
        });
    }
    (!paths.is_empty()).then_some(paths)
}

/// A standalone SVG of `paths` (what sprites are rasterised from: the geometry the SVG
/// backend writes, grid snapping included).
pub(super) fn standalone(paths: &[ArtPath], (w, h): (f32, f32)) -> String {
    let mut svg = format!(
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" viewBox="0 0 {w} {h}">"#
    );
    for p in paths {
        svg.push_str("<path");
        for declaration in p.style.split(';').filter(|d| !d.is_empty()) {
            if let Some((name, value)) = declaration.split_once(':') {
                svg.push_str(&format!(r#" {name}="{value}""#));
            }
        }
        svg.push_str(&format!(r#" d="{}"/>"#, p.d));
    }
    svg.push_str("</svg>");
    svg
}

/// The drawing alone as an SVG document: flat paths as sprites are rasterised from them,
/// or usvg's normalised body, on a transparent square (a drawing that is not square is
/// centred, as on a board), at the artwork's own size.
pub(super) fn piece_document(paths: Option<&[ArtPath]>, body: &str, (w, h): (f32, f32)) -> String {
    let drawing = match paths {
        Some(paths) => standalone(paths, (w, h)),
        None => format!(
            r#"<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" viewBox="0 0 {w} {h}">{body}</svg>"#
        ),
    };
    if w == h {
        return drawing;
    }
    let side = w.max(h);
    let (x, y) = ((side - w) / 2.0, (side - h) / 2.0);
    let inner = drawing
        .strip_prefix(r#"<svg xmlns="http://www.w3.org/2000/svg" "#)
        .unwrap_or(&drawing);
    format!(
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{side}" height="{side}" viewBox="0 0 {side} {side}"><svg x="{x}" y="{y}" {inner}</svg>"#
    )
}

/// Drop the spaces usvg writes around path commands (`M 50 80 L 71 80` → `M50 80L71 80`)
/// and before negative numbers: about a fifth of the bytes of a symbol, same geometry.
pub(super) fn compact_path_data(svg: &str) -> String {
    let mut out = String::with_capacity(svg.len());
    let mut rest = svg;
    while let Some(start) = rest.find(" d=\"") {
        let (head, tail) = rest.split_at(start + 4);
        out.push_str(head);
        let end = tail.find('"').unwrap_or(tail.len());
        let data = &tail[..end];
        let bytes = data.as_bytes();
        for (i, c) in data.char_indices() {
            let is_command = |b: u8| b"MLHVCSQTAZmlhvcsqtaz".contains(&b);
            if c == ' ' {
                let prev = i.checked_sub(1).map(|j| bytes[j]);
                let next = bytes.get(i + 1).copied();
                if prev.is_some_and(is_command) || next.is_some_and(|b| is_command(b) || b == b'-')
                {
                    continue;
                }
            }
            out.push(c);
        }
        rest = &tail[end..];
    }
    out.push_str(rest);
    out
}

macro_rules! builtin_svgs {
    ($dir:literal: $($code:literal),* $(,)?) => {
        &[$(($code, include_str!(concat!("../../../../assets/pieces/", $dir, "/", $code, ".svg")))),*]
    };
}

/// The default set's SVG sources (`staunton`), by file stem.
pub(super) const BUILTIN: &[(&str, &str)] = builtin_svgs!["staunton":
    "wK", "wQ", "wR", "wB", "wN", "wP", "wA", "wC", "bK", "bQ", "bR", "bB", "bN", "bP", "bA", "bC",
];

/// The default set's hinted drawings, for squares under [`HINT_BELOW_PX`]: outlines and
/// fills only, no inner details. (What a build draws with is [`BUILTIN_HINTED_NORMALISED`].)
#[cfg(test)]
pub(super) const BUILTIN_HINTED: &[(&str, &str)] = builtin_svgs!["staunton/small":
    "wK", "wQ", "wR", "wB", "wN", "wP", "wA", "wC", "bK", "bQ", "bR", "bB", "bN", "bP", "bA", "bC",
];

/// `staunton-classic`'s SVG sources: the first design of the built-in set, frozen.
#[cfg(test)]
pub(super) const BUILTIN_CLASSIC: &[(&str, &str)] = builtin_svgs!["staunton-classic":
    "wK", "wQ", "wR", "wB", "wN", "wP", "wA", "wC", "bK", "bQ", "bR", "bB", "bN", "bP", "bA", "bC",
];

macro_rules! normalised {
    ($dir:literal) => {
        include_str!(concat!("../../../../assets/pieces/", $dir, "/normalised.txt"))
    };
}

/// The built-in sets' drawings as usvg writes them once it has parsed them (what every
/// set's drawings are made from, see `sets::load_art`), recorded beside each set's SVG in
/// `normalised.txt`: one line a piece, its code, a space, the document. The test
/// `builtin_normalised_drawings_are_current` checks them against the SVG
/// (`UPDATE_GOLDEN=1` records them again), so loading a built-in set parses no SVG.
pub(super) const BUILTIN_NORMALISED: &str = normalised!("staunton");
/// [`BUILTIN_HINTED`], normalised.
pub(super) const BUILTIN_HINTED_NORMALISED: &str = normalised!("staunton/small");
/// [`BUILTIN_CLASSIC`], normalised.
pub(super) const BUILTIN_CLASSIC_NORMALISED: &str = normalised!("staunton-classic");

/// The normalised drawing of `piece` in `text` (one of the `*_NORMALISED` records).
pub(super) fn normalised_in(text: &'static str, piece: Piece) -> Option<&'static str> {
    let code = piece.code();
    text.lines()
        .find_map(|line| line.strip_prefix(code.as_str())?.strip_prefix(' '))
}

/// The name of the second built-in set: the first design of `staunton`, kept as it was.
pub const CLASSIC_PIECE_SET: &str = "staunton-classic";

/// The built-in sets' names: the default ([`DEFAULT_PIECE_SET`](crate::render::spec::options::DEFAULT_PIECE_SET))
/// first.
pub const BUILTIN_PIECE_SETS: [&str; 2] = [
    crate::render::spec::options::DEFAULT_PIECE_SET,
    CLASSIC_PIECE_SET,
];

/// In raster output (PNG, GIF, WebP), squares narrower than this many pixels are drawn
/// with a set's hinted drawings, when it has them (the default set does): simpler shapes
/// that stay legible when small. SVG and PDF always draw the full drawing: their viewer
/// scales them, to a high-density screen or a printer's resolution.
pub const HINT_BELOW_PX: u32 = 30;

/// The SVG text of `piece` in the table `table`.
pub(super) fn svg_in(table: &'static [(&'static str, &'static str)], piece: Piece) -> Option<&'static str> {
    let code = piece.code();
    table.iter().find(|(c, _)| *c == code).map(|(_, svg)| *svg)
}

/// The default set's SVG text of `piece` (what a set from a folder borrows).
pub(super) fn builtin_svg(piece: Piece) -> Option<&'static str> {
    svg_in(BUILTIN, piece)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn path_data_is_compacted_without_changing_it() {
        assert_eq!(
            compact_path_data(
                r##"<path fill="#fff" d="M 50 80 L 71 -80 C 1 2 3 4 5 6 Z"/><path d="M 1 1"/>"##
            ),
            r##"<path fill="#fff" d="M50 80L71-80C1 2 3 4 5 6Z"/><path d="M1 1"/>"##
        );
    }
}
