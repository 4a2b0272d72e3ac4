//! Piece sets: the artwork of each piece, parsed once, ready for both backends.
//!
//! Owns loading and checking piece SVGs. A set holds, for each of the 16 pieces, a parsed
//! usvg tree (rasterised into sprites by `raster.rs`) and a normalised `<symbol>` body
//! (written once per used piece by `svg.rs`). The built-in set is compiled into the binary.
//!
//! Every piece SVG goes through usvg, with a resolver that loads no external files or
//! images, and is written back by usvg's own writer: what reaches an SVG answer is usvg's
//! output (paths and groups), never the raw file, so a set cannot smuggle scripts or links.

use crate::chess::piece::{Piece, Role};
use std::path::Path;
use std::sync::Arc;
use thiserror::Error;

/// Why a piece set could not be loaded.
#[derive(Debug, Error)]
pub enum PieceSetError {
    /// A piece's SVG is missing.
    #[error("piece set \"{set}\" has no SVG for {piece}")]
    Missing {
        /// Set name.
        set: String,
        /// The piece's file stem, e.g. `wK`.
        piece: String,
    },
    /// A piece's SVG does not parse.
    #[error("piece set \"{set}\": {piece} is not a usable SVG: {reason}")]
    Broken {
        /// Set name.
        set: String,
        /// The piece's file stem, e.g. `wK`.
        piece: String,
        /// What usvg said.
        reason: String,
    },
}

/// One piece's artwork.
pub struct PieceArt {
    /// The parsed drawing, for rasterising sprites.
    pub tree: usvg::Tree,
    /// `viewBox` of the symbol: `0 0 w h`.
    pub view_box: (f32, f32),
    /// The symbol body: usvg's normalised SVG elements.
    pub symbol_body: String,
    /// The same drawing as a flat list of styled paths, when usvg's output is one (true of
    /// most piece sets, and of the built-in one). The SVG backend then shares path data
    /// and styles between the pieces of a document.
    pub paths: Option<Vec<ArtPath>>,
    /// The piece alone as a standalone SVG document (see [`PieceSet::piece_svg`]), written
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
fn intern(art: &mut [PieceArt]) {
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
fn flat_paths(body: &str) -> Option<Vec<ArtPath>> {
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
                let segments = crate::render::pathdata::parse_absolute(value)?;
                d = Some(crate::render::pathdata::write_segments(&segments, 1.0, 2));
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
fn standalone(paths: &[ArtPath], (w, h): (f32, f32)) -> String {
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

impl std::fmt::Debug for PieceArt {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("PieceArt")
            .field("view_box", &self.view_box)
            .field("symbol_body_len", &self.symbol_body.len())
            .finish()
    }
}

/// A complete set: all 16 pieces (the six standard roles plus archbishop and chancellor).
#[derive(Debug)]
pub struct PieceSet {
    name: Arc<str>,
    art: Vec<PieceArt>,
}

/// usvg options that read nothing from disk or network: `<image>` references resolve to
/// nothing, and there is no resources directory.
fn isolated_options() -> usvg::Options<'static> {
    usvg::Options {
        resources_dir: None,
        image_href_resolver: usvg::ImageHrefResolver {
            resolve_data: Box::new(|_, _, _| None),
            resolve_string: Box::new(|_, _| None),
        },
        ..usvg::Options::default()
    }
}

/// Parse one piece SVG and normalise it into a symbol body.
fn load_art(set: &str, piece: Piece, svg: &str) -> Result<PieceArt, PieceSetError> {
    let broken = |reason: String| PieceSetError::Broken {
        set: set.to_string(),
        piece: piece.code(),
        reason,
    };
    let tree = usvg::Tree::from_str(svg, &isolated_options()).map_err(|e| broken(e.to_string()))?;
    let size = tree.size();
    let written = tree.to_string(&usvg::WriteOptions {
        id_prefix: Some(format!("{set}-{}-", piece.code())),
        coordinates_precision: 2,
        transforms_precision: 4,
        indent: usvg::Indent::None,
        attributes_indent: usvg::Indent::None,
        ..usvg::WriteOptions::default()
    });
    // usvg writes `<svg …attributes…>body</svg>`; keep the body.
    let body = written
        .find("<svg")
        .and_then(|start| written[start..].find('>').map(|end| start + end + 1))
        .and_then(|open| written.rfind("</svg>").map(|close| (open, close)))
        .filter(|(open, close)| open <= close)
        .map(|(open, close)| written[open..close].trim().to_string())
        .ok_or_else(|| broken("usvg wrote no <svg> element".to_string()))?;
    if tree.root().children().is_empty() {
        return Err(broken("it draws nothing".to_string()));
    }
    let view_box = (size.width(), size.height());
    let paths = flat_paths(&body);
    let body = compact_path_data(&body);
    // Sprites are rasterised from the normalised text too, so the PNG and SVG backends draw
    // exactly the same geometry.
    let source = paths
        .as_ref()
        .map_or_else(|| written.clone(), |p| standalone(p, view_box));
    let tree = usvg::Tree::from_str(&source, &isolated_options())
        .map_err(|e| broken(format!("usvg cannot re-read its own output: {e}")))?;
    let document = piece_document(paths.as_deref(), &body, view_box).into();
    Ok(PieceArt {
        tree,
        view_box,
        symbol_body: body,
        paths,
        document,
    })
}

/// The drawing alone as an SVG document: flat paths as sprites are rasterised from them,
/// or usvg's normalised body, on a transparent square (a drawing that is not square is
/// centred, as on a board), at the artwork's own size.
fn piece_document(paths: Option<&[ArtPath]>, body: &str, (w, h): (f32, f32)) -> String {
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
fn compact_path_data(svg: &str) -> String {
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
    ($($code:literal),* $(,)?) => {
        &[$(($code, include_str!(concat!("../../assets/pieces/staunton/", $code, ".svg")))),*]
    };
}

/// The built-in set's SVG sources, by file stem.
const BUILTIN: &[(&str, &str)] = builtin_svgs![
    "wK", "wQ", "wR", "wB", "wN", "wP", "wA", "wC", "bK", "bQ", "bR", "bB", "bN", "bP", "bA", "bC",
];

impl PieceSet {
    /// Build a set named `name` from a source of SVG text per piece.
    pub fn from_sources(
        name: &str,
        mut source: impl FnMut(Piece) -> Option<String>,
    ) -> Result<PieceSet, PieceSetError> {
        let mut art = Piece::all()
            .map(|piece| {
                let svg = source(piece).ok_or_else(|| PieceSetError::Missing {
                    set: name.to_string(),
                    piece: piece.code(),
                })?;
                load_art(name, piece, &svg)
            })
            .collect::<Result<Vec<_>, _>>()?;
        intern(&mut art);
        Ok(PieceSet {
            name: Arc::from(name),
            art,
        })
    }

    /// The built-in set (`staunton`), compiled into the binary.
    pub fn builtin() -> PieceSet {
        let set = PieceSet::from_sources(crate::render::options::DEFAULT_PIECE_SET, |piece| {
            builtin_svg(piece).map(str::to_string)
        });
        match set {
            Ok(set) => set,
            // The built-in artwork is tested; failing here is a build defect, not user input.
            Err(e) => panic!("built-in piece set is broken: {e}"),
        }
    }

    /// The set's name, as requested with `pieces=`.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The set's name, shared (a cheap cache key).
    pub fn shared_name(&self) -> &Arc<str> {
        &self.name
    }

    /// The artwork of `piece`.
    pub fn art(&self, piece: Piece) -> &PieceArt {
        &self.art[piece.index()]
    }
}

impl PieceSet {
    /// `piece` alone as an SVG document: the drawing the SVG backend places on a board
    /// (flat paths as sprites are rasterised from them, or usvg's normalised body), on a
    /// transparent square (a drawing that is not square is centred, as on a board), at
    /// the artwork's own size. For palettes: no board, no labels, no styles. Written once
    /// when the set is loaded; this is a shared handle to those bytes (UTF-8 SVG text).
    pub fn piece_svg(&self, piece: Piece) -> bytes::Bytes {
        self.art(piece).document.clone()
    }
}

/// The built-in SVG text of `piece`.
fn builtin_svg(piece: Piece) -> Option<&'static str> {
    let code = piece.code();
    BUILTIN
        .iter()
        .find(|(c, _)| *c == code)
        .map(|(_, svg)| *svg)
}

/// Read the SVG of `piece` from `dir`, as `wK.svg` (lichess layout) or `wk.svg` (pychess).
fn read_piece(dir: &Path, piece: Piece) -> Option<String> {
    let code = piece.code();
    [code.clone(), code.to_ascii_lowercase()]
        .iter()
        .find_map(|stem| std::fs::read_to_string(dir.join(format!("{stem}.svg"))).ok())
}

/// The piece sets a renderer knows, by name.
#[derive(Debug, Clone)]
pub struct PieceSets {
    sets: Vec<Arc<PieceSet>>,
}

impl PieceSets {
    /// Only the built-in set.
    pub fn builtin() -> PieceSets {
        PieceSets {
            sets: vec![Arc::new(PieceSet::builtin())],
        }
    }

    /// The built-in set plus every set in the subfolders of `dir`, each named after its
    /// folder (lower case). Files are `wK.svg` … `bP.svg` (lichess) or `wk.svg` … `bp.svg`
    /// (pychess). The twelve standard pieces are required; a set without archbishop or
    /// chancellor borrows the built-in ones. A set that cannot be loaded is skipped, and
    /// the reason (naming the file) is returned beside the sets, so the caller can report
    /// it and carry on.
    pub fn with_dir(dir: &Path) -> (PieceSets, Vec<String>) {
        let mut sets = PieceSets::builtin();
        let mut problems = Vec::new();
        let mut folders: Vec<_> = match std::fs::read_dir(dir) {
            Ok(entries) => entries
                .filter_map(Result::ok)
                .map(|e| e.path())
                .filter(|p| p.is_dir())
                .collect(),
            Err(e) => {
                problems.push(format!(
                    "cannot read the pieces directory {}: {e}",
                    dir.display()
                ));
                return (sets, problems);
            }
        };
        folders.sort();
        for folder in folders {
            let Some(name) = folder
                .file_name()
                .and_then(|n| n.to_str())
                .map(str::to_ascii_lowercase)
            else {
                problems.push(format!(
                    "{}: the folder name is not UTF-8; skipped",
                    folder.display()
                ));
                continue;
            };
            let valid = !name.is_empty()
                && name.len() <= 64
                && name
                    .bytes()
                    .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_');
            if !valid {
                problems.push(format!(
                    "{}: a set name may hold only letters, digits, - and _; skipped",
                    folder.display()
                ));
                continue;
            }
            if sets.get(&name).is_some() {
                problems.push(format!(
                    "{}: a set called \"{name}\" is already loaded; skipped",
                    folder.display()
                ));
                continue;
            }
            let loaded = PieceSet::from_sources(&name, |piece| {
                read_piece(&folder, piece).or_else(|| {
                    matches!(piece.role, Role::Archbishop | Role::Chancellor)
                        .then(|| builtin_svg(piece).map(str::to_string))
                        .flatten()
                })
            });
            match loaded {
                Ok(set) => sets.sets.push(Arc::new(set)),
                Err(PieceSetError::Missing { piece, .. }) => problems.push(format!(
                    "{}: no {piece}.svg (or {}.svg); set \"{name}\" skipped",
                    folder.display(),
                    piece.to_ascii_lowercase()
                )),
                Err(PieceSetError::Broken { piece, reason, .. }) => problems.push(format!(
                    "{}: {piece}.svg is not a usable SVG ({reason}); set \"{name}\" skipped",
                    folder.display()
                )),
            }
        }
        (sets, problems)
    }

    /// The set called `name` (case-insensitive).
    pub fn get(&self, name: &str) -> Option<&Arc<PieceSet>> {
        self.sets.iter().find(|s| s.name.eq_ignore_ascii_case(name))
    }

    /// Names of all sets, in load order.
    pub fn names(&self) -> impl Iterator<Item = &str> {
        self.sets.iter().map(|s| s.name())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn builtin_set_has_sixteen_drawable_pieces() {
        let set = PieceSet::builtin();
        for piece in Piece::all() {
            let art = set.art(piece);
            assert_eq!(art.view_box, (100.0, 100.0), "{}", piece.code());
            assert!(art.symbol_body.starts_with('<'), "{}", piece.code());
            assert!(!art.symbol_body.contains("<svg"));
        }
    }

    #[test]
    fn path_data_is_compacted_without_changing_it() {
        assert_eq!(
            compact_path_data(
                r##"<path fill="#fff" d="M 50 80 L 71 -80 C 1 2 3 4 5 6 Z"/><path d="M 1 1"/>"##
            ),
            r##"<path fill="#fff" d="M50 80L71-80C1 2 3 4 5 6Z"/><path d="M1 1"/>"##
        );
    }

    #[test]
    fn hostile_svg_loses_scripts_and_links() {
        let svg = r#"<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" viewBox="0 0 10 10">
            <script>alert(1)</script>
            <image xlink:href="/etc/passwd" width="10" height="10"/>
            <a href="https://example.com"><rect width="5" height="5" fill="red" onclick="alert(2)"/></a>
        </svg>"#;
        let set = PieceSet::from_sources("evil", |_| Some(svg.to_string())).expect("loads");
        let body = &set.art(Piece::all().next().unwrap()).symbol_body;
        for bad in [
            "script",
            "alert",
            "passwd",
            "example.com",
            "onclick",
            "<image",
        ] {
            assert!(!body.contains(bad), "{bad} survived in {body}");
        }
        assert!(
            body.contains("path"),
            "the rectangle survives as a path: {body}"
        );
    }

    #[test]
    fn broken_and_missing_pieces_are_reported_by_name() {
        let err = PieceSet::from_sources("half", |p| (p.code() != "bQ").then(|| {
            r#"<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 1 1"><rect width="1" height="1"/></svg>"#.to_string()
        }))
        .unwrap_err();
        assert_eq!(err.to_string(), "piece set \"half\" has no SVG for bQ");
        let err = PieceSet::from_sources("junk", |_| Some("<svg".to_string())).unwrap_err();
        assert!(
            err.to_string()
                .starts_with("piece set \"junk\": wK is not a usable SVG"),
            "{err}"
        );
    }

    #[test]
    fn a_piece_alone_is_a_square_document_with_the_set_s_drawing_centred() {
        let set = PieceSet::builtin();
        let knight = Piece::from_fen_char('N').expect("a piece");
        let svg = set.piece_svg(knight);
        let svg = std::str::from_utf8(&svg).expect("UTF-8");
        assert!(svg.starts_with(r#"<svg xmlns="http://www.w3.org/2000/svg" width="100" height="100" viewBox="0 0 100 100">"#), "{svg}");
        for path in set.art(knight).paths.as_ref().expect("flat paths") {
            assert!(svg.contains(&format!(r#" d="{}""#, path.d)));
        }
        let wide = PieceSet::from_sources("wide", |_| {
            Some(r#"<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 40 20"><rect width="40" height="20"/></svg>"#.to_string())
        })
        .expect("loads");
        let svg = wide.piece_svg(knight);
        let svg = std::str::from_utf8(&svg).expect("UTF-8");
        assert!(
            svg.starts_with(r#"<svg xmlns="http://www.w3.org/2000/svg" width="40" height="40" viewBox="0 0 40 40"><svg x="0" y="10" width="40" height="20" viewBox="0 0 40 20">"#),
            "{svg}"
        );
        let tree = usvg::Tree::from_str(svg, &isolated_options()).expect("parses");
        let bbox = tree.root().abs_bounding_box();
        assert_eq!((bbox.top(), bbox.bottom()), (10.0, 30.0));
    }

    #[test]
    fn a_piece_document_is_written_once_and_shared() {
        let set = PieceSet::builtin();
        let knight = Piece::from_fen_char('n').expect("a piece");
        let (a, b) = (set.piece_svg(knight), set.piece_svg(knight));
        assert_eq!(a.as_ptr(), b.as_ptr(), "the same bytes, not a copy");
    }
}
