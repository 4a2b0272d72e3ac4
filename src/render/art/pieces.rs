//! Piece sets: the artwork of each piece, parsed once, ready for both backends.
//!
//! Owns loading and checking piece SVGs. A set holds, for each of the 16 pieces, a parsed
//! usvg tree (rasterised into sprites by `paint/raster/`) and a normalised `<symbol>` body
//! (written once per used piece by `paint/svg.rs`). The built-in sets are compiled into the
//! binary. A set may also carry a hinted drawing of each piece, which raster output uses
//! for squares under [`HINT_BELOW_PX`] (vector output, scaled by its viewer, always draws
//! the full one).
//!
//! Every piece SVG goes through usvg, with a resolver that loads no external files or
//! images, and is written back by usvg's own writer: what reaches an SVG answer is usvg's
//! output (paths and groups), never the raw file, so a set cannot smuggle scripts or links.

use crate::chess::piece::{Piece, Role};
use std::path::Path;
use std::sync::Arc;
use thiserror::Error;
use usvg::roxmltree;

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
    /// A piece's file is larger than [`MAX_PIECE_BYTES`].
    #[error("piece set \"{set}\": {file} is larger than the limit of {limit} bytes")]
    TooLarge {
        /// Set name.
        set: String,
        /// The file (its path, for a set from a folder).
        file: String,
        /// The limit, [`MAX_PIECE_BYTES`].
        limit: usize,
    },
    /// A piece has more nodes than a limit allows ([`MAX_PIECE_NODES`],
    /// [`MAX_EXPANDED_NODES`]).
    #[error("piece set \"{set}\": {file} has more than {limit} {what}")]
    TooManyNodes {
        /// Set name.
        set: String,
        /// The file (its path, for a set from a folder).
        file: String,
        /// What was counted.
        what: &'static str,
        /// The limit.
        limit: u64,
    },
    /// A piece would cost too much to draw, or asks for something whose cost has no bound:
    /// an `feTurbulence` of too many octaves, markers, a huge pattern tile, groups nested
    /// too deep, more drawing work than [`MAX_DRAWING_WORK`].
    #[error("piece set \"{set}\": {file} is refused: {reason}")]
    TooCostly {
        /// Set name.
        set: String,
        /// The file (its path, for a set from a folder).
        file: String,
        /// What it asks for, and the limit.
        reason: String,
    },
    /// svg2pdf cannot convert the piece (so `/diagram.pdf` could not be written with it).
    #[error("piece set \"{set}\": {file} cannot be converted to PDF: {reason}")]
    NoPdf {
        /// Set name.
        set: String,
        /// The file (its path, for a set from a folder).
        file: String,
        /// What svg2pdf said.
        reason: String,
    },
    /// Drawing the piece at [`TRIAL_PX`] and converting it to PDF took longer than
    /// [`TRIAL_BUDGET`].
    #[error(
        "piece set \"{set}\": {file} took {elapsed_ms} ms to draw at {TRIAL_PX} px and convert to PDF; the limit is {limit_ms} ms"
    )]
    TooSlow {
        /// Set name.
        set: String,
        /// The file (its path, for a set from a folder).
        file: String,
        /// How long the trial took.
        elapsed_ms: u128,
        /// The limit, [`TRIAL_BUDGET`].
        limit_ms: u128,
    },
    /// A piece file whose real path (symbolic links followed) is outside the pieces
    /// directory.
    #[error("piece set \"{set}\": {file} leads outside the pieces directory (to {target})")]
    OutsideDir {
        /// Set name.
        set: String,
        /// The file, as found in the set's folder.
        file: String,
        /// Where it leads.
        target: String,
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
    /// Simpler drawings for squares under [`HINT_BELOW_PX`], when the set has them.
    hinted: Option<Vec<PieceArt>>,
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

/// The largest piece file read from a folder, in bytes. Real piece SVGs are 1–30 KB; the
/// largest of the 19 pychess sets that load (metaltops) are 107 KB.
pub const MAX_PIECE_BYTES: usize = 512 * 1024;

/// The most nodes one piece's usvg tree may have: every node, groups included, with the
/// subtrees of clip paths, masks, patterns and filter images, gradients and their stops,
/// and filter primitives (about what usvg writes back for the piece). The most complex
/// real piece (pychess makruk's king) has about 420. The figure also keeps `/diagram.pdf`
/// inside svg2pdf's limit of 1,000,000 nodes: a board of 10 × 8 pieces defines at most 16
/// symbols and places 80 of them, each at most two nodes per node of the piece (a shared
/// path is placed with `<use>`), and 96 × 2 × 4,000 = 768,000.
pub const MAX_PIECE_NODES: u64 = 4_000;

/// The most elements a piece file may expand to before usvg converts it, estimated from
/// the XML with every `use` and every reference to a gradient, pattern, clip path, mask
/// or filter expanded (usvg copies them, some once for each shape they paint); also the
/// most XML nodes (elements, text, comments) the file may hold once its entities are
/// expanded. The estimate errs high, hence the margin over [`MAX_PIECE_NODES`]: it only
/// has to keep usvg's conversion short, and the tree is counted exactly afterwards.
pub const MAX_EXPANDED_NODES: u64 = 16 * MAX_PIECE_NODES;

/// The most bytes of attribute values one piece may expand to through `use` and
/// references (a long path placed many times by `use` is many copies of its data).
pub const MAX_EXPANDED_BYTES: u64 = 4 * 1024 * 1024;

/// The deepest nesting of groups in a piece's usvg tree. resvg and svg2pdf recurse once
/// per level (svg2pdf itself refuses more than 28 nested graphics states); a thousand
/// levels, which usvg accepts, would overflow the stack of a worker thread.
pub const MAX_GROUP_DEPTH: usize = 64;

/// The most octaves an `feTurbulence` may ask for. Each octave costs as much as the one
/// before and adds half its amplitude: after 10, what an octave adds is below what an
/// 8-bit channel can show, so more is only cost (the probe's one million took 94 s).
pub const MAX_TURBULENCE_OCTAVES: u32 = 10;

/// The side of the square a piece is drawn on for its trial, in pixels: about the largest
/// sprite the service draws (a 2048 px board of 8 files).
pub const TRIAL_PX: u32 = 256;

/// The most drawing work a piece may need, in canvas passes: touching every pixel of a
/// [`TRIAL_PX`] square once is one pass. A path costs its area once for the fill and once
/// for the stroke; a group drawn apart (opacity, clip path, mask, filter) twice the area of
/// its layer, twice more for a clip path or a mask; a filter primitive its region times
/// 2–8, an `feTurbulence` four more an octave, an `feMorphology` or `feConvolveMatrix` more
/// with its window; a pattern the area of its tile; a thousand dashes one pass. Areas are
/// bounded as resvg bounds its layers, at five squares a side.
/// With this crate's test profile on a 2-core development machine a pass takes about
/// 4.5 ms (a thousand semi-transparent squares, 4.5 s), so the limit bounds a trial to
/// about a second; the real pieces of pychess's 19 sets need at most 31 (ada's knight,
/// which blurs).
pub const MAX_DRAWING_WORK: f64 = 256.0;

/// How long a piece's trial (drawing it at [`TRIAL_PX`] and converting it to PDF twice, as
/// a diagram and as a worksheet page) may take. Measured with the test profile: the
/// built-in pieces take 1–2.5 ms each; the slowest real piece, pychess makruk's white king
/// (418 nodes, gradients and transparency), 95 ms. Five times that leaves room for a
/// busy or slower machine, so a real set is not refused one start in ten.
pub const TRIAL_BUDGET: std::time::Duration = std::time::Duration::from_millis(500);

/// What a piece's XML expands to: elements, bytes of attribute values, and the shapes
/// among them (each of which takes a copy of an inherited paint server).
#[derive(Debug, Clone, Copy, Default)]
struct Expanded {
    nodes: u64,
    bytes: u64,
    shapes: u64,
}

impl Expanded {
    fn add(&mut self, other: Expanded) {
        self.nodes = self.nodes.saturating_add(other.nodes);
        self.bytes = self.bytes.saturating_add(other.bytes);
        self.shapes = self.shapes.saturating_add(other.shapes);
    }

    /// Every shape takes its own copy of `paint` (usvg copies a paint server in
    /// `objectBoundingBox` units for each shape it paints).
    fn each_shape_takes(&mut self, paint: Expanded) {
        self.nodes = self
            .nodes
            .saturating_add(self.shapes.saturating_mul(paint.nodes));
        self.bytes = self
            .bytes
            .saturating_add(self.shapes.saturating_mul(paint.bytes));
    }
}

/// Counts what a piece's XML expands to, before usvg sees it: usvg copies the target of
/// every `use`, every paint server, clip path, mask and filter it references, and a
/// marker at every vertex, without limit (a 234 KB file of markers became 2.1 million
/// nodes and 2 GB). Markers are refused outright: no piece set draws with them.
struct XmlCensus<'a, 'input> {
    ids: std::collections::HashMap<&'a str, roxmltree::Node<'a, 'input>>,
    done: std::collections::HashMap<roxmltree::NodeId, Expanded>,
    open: std::collections::HashSet<roxmltree::NodeId>,
}

/// Shapes: the elements usvg turns into paths, which take fill and stroke.
const SHAPES: &[&str] = &[
    "path", "rect", "circle", "ellipse", "line", "polyline", "polygon", "text",
];

/// The `#id`s in the `url(#id)` references of an attribute value.
fn url_targets(value: &str) -> impl Iterator<Item = &str> {
    value.split("url(").skip(1).filter_map(|rest| {
        let rest = rest.trim_start().trim_start_matches(['"', '\'']);
        let id = rest.strip_prefix('#')?;
        id.split(|c: char| c == ')' || c == '"' || c == '\'' || c.is_whitespace())
            .next()
    })
}

/// Whether a property's value puts a marker on shapes.
fn is_marker(name: &str, value: &str) -> bool {
    matches!(
        name,
        "marker" | "marker-start" | "marker-mid" | "marker-end"
    ) && value.trim() != "none"
}

impl<'a, 'input> XmlCensus<'a, 'input> {
    fn new(doc: &'a roxmltree::Document<'input>) -> Self {
        let ids = doc
            .descendants()
            .filter_map(|n| n.attribute("id").map(|id| (id, n)))
            .collect();
        XmlCensus {
            ids,
            done: std::collections::HashMap::new(),
            open: std::collections::HashSet::new(),
        }
    }

    /// What the whole document expands to. A style sheet may give any shape a fill and a
    /// stroke: each shape is counted as taking the two largest things it references.
    fn document(&mut self, doc: &'a roxmltree::Document<'input>) -> Result<Expanded, String> {
        let mut css = Expanded::default();
        for style in doc.descendants().filter(|n| n.has_tag_name("style")) {
            let text = style.text().unwrap_or_default();
            if text.contains("marker") {
                return Err("it draws with markers, which are not supported".to_string());
            }
            for id in url_targets(text) {
                let target = self.target(id, 0)?;
                if target.nodes > css.nodes {
                    css = target;
                }
            }
        }
        let mut total = self.element(doc.root_element(), 0)?;
        let one = css;
        css.add(one);
        total.each_shape_takes(css);
        Ok(total)
    }

    /// What the element `id` names expands to (nothing for an unknown id, or for a
    /// reference back into itself, which usvg skips).
    fn target(&mut self, id: &str, depth: usize) -> Result<Expanded, String> {
        let Some(&node) = self.ids.get(id) else {
            return Ok(Expanded::default());
        };
        if let Some(done) = self.done.get(&node.id()) {
            return Ok(*done);
        }
        if !self.open.insert(node.id()) {
            return Ok(Expanded::default());
        }
        let expanded = self.element(node, depth + 1)?;
        self.open.remove(&node.id());
        self.done.insert(node.id(), expanded);
        Ok(expanded)
    }

    /// What `node` and its subtree expand to.
    fn element(
        &mut self,
        node: roxmltree::Node<'a, 'input>,
        depth: usize,
    ) -> Result<Expanded, String> {
        if depth > 1024 {
            return Err("its elements are nested more than 1024 deep".to_string());
        }
        let name = node.tag_name().name();
        let mut total = Expanded {
            nodes: 1,
            bytes: 0,
            shapes: u64::from(SHAPES.contains(&name)),
        };
        // Fill and stroke are inherited: what they reference is copied for every shape
        // below. Other references (clip-path, mask, filter, href) are copied once here.
        let mut paint = Expanded::default();
        for attribute in node.attributes() {
            let (key, value) = (attribute.name(), attribute.value());
            total.bytes = total.bytes.saturating_add(value.len() as u64);
            let declarations: Vec<(&str, &str)> = if key == "style" {
                value
                    .split(';')
                    .filter_map(|d| d.split_once(':'))
                    .map(|(k, v)| (k.trim(), v.trim()))
                    .collect()
            } else {
                vec![(key, value)]
            };
            for (key, value) in declarations {
                if is_marker(key, value) {
                    return Err("it draws with markers, which are not supported".to_string());
                }
                let inherited = matches!(key, "fill" | "stroke");
                let href = (key == "href")
                    .then(|| value.trim().strip_prefix('#'))
                    .flatten();
                for id in url_targets(value).chain(href) {
                    let target = self.target(id, depth)?;
                    if inherited {
                        paint.add(target)
                    } else {
                        total.add(target)
                    }
                }
            }
        }
        for child in node.children().filter(|c| c.is_element()) {
            total.add(self.element(child, depth + 1)?);
        }
        total.each_shape_takes(paint);
        Ok(total)
    }
}

/// What drawing a piece costs, read from its usvg tree before anything is drawn.
#[derive(Debug, Default)]
struct TreeCensus {
    /// Nodes, as [`MAX_PIECE_NODES`] counts them.
    nodes: u64,
    /// Deepest nesting of groups.
    depth: usize,
    /// Drawing work at [`TRIAL_PX`], in canvas passes (see [`MAX_DRAWING_WORK`]).
    work: f64,
    /// The first thing refused whatever the totals.
    refused: Option<String>,
}

/// The fraction of the trial square that `w` × `h` canvas units cover at `scale`, each
/// side at least a pixel and at most five squares (resvg's largest layer).
fn passes((w, h): (f32, f32), scale: (f32, f32)) -> f64 {
    let side = f64::from(TRIAL_PX);
    let px = |units: f32, scale: f32| (f64::from(units) * f64::from(scale)).clamp(1.0, 5.0 * side);
    px(w, scale.0) * px(h, scale.1) / (side * side)
}

/// The length of the control polygon of `path`: at least the length of the path itself.
fn polygon_length(path: &usvg::tiny_skia_path::Path) -> f64 {
    use usvg::tiny_skia_path::PathSegment;
    let (mut length, mut at, mut start) = (0.0f64, None, None);
    let mut walk = |points: &[usvg::tiny_skia_path::Point], at: &mut Option<(f32, f32)>| {
        for p in points {
            if let Some((x, y)) = *at {
                length += f64::from((p.x - x).hypot(p.y - y));
            }
            *at = Some((p.x, p.y));
        }
    };
    for segment in path.segments() {
        match segment {
            PathSegment::MoveTo(p) => {
                at = Some((p.x, p.y));
                start = at;
            }
            PathSegment::LineTo(p) => walk(&[p], &mut at),
            PathSegment::QuadTo(a, p) => walk(&[a, p], &mut at),
            PathSegment::CubicTo(a, b, p) => walk(&[a, b, p], &mut at),
            PathSegment::Close => {
                if let Some((x, y)) = start {
                    walk(&[usvg::tiny_skia_path::Point::from_xy(x, y)], &mut at);
                }
            }
        }
    }
    length
}

impl TreeCensus {
    /// The census of `tree`, drawn on a [`TRIAL_PX`] square.
    fn of(tree: &usvg::Tree) -> TreeCensus {
        let size = tree.size();
        let side = TRIAL_PX as f32;
        let scale = (side / size.width(), side / size.height());
        let mut census = TreeCensus::default();
        let stops = |n: usize| 1 + n as u64;
        census.nodes += tree
            .linear_gradients()
            .iter()
            .map(|g| stops(g.stops().len()))
            .chain(
                tree.radial_gradients()
                    .iter()
                    .map(|g| stops(g.stops().len())),
            )
            .sum::<u64>();
        census.group(tree.root(), 1, scale);
        census
    }

    fn refuse(&mut self, reason: String) {
        self.refused.get_or_insert(reason);
    }

    /// Count `group`'s children at nesting `depth`, their subtrees and subroots.
    fn group(&mut self, group: &usvg::Group, depth: usize, scale: (f32, f32)) {
        self.depth = self.depth.max(depth);
        if depth > MAX_GROUP_DEPTH {
            return;
        }
        for node in group.children() {
            self.nodes += 1;
            match node {
                usvg::Node::Group(g) => {
                    if g.should_isolate() {
                        let bbox = g.abs_layer_bounding_box();
                        let layer = passes((bbox.width(), bbox.height()), scale);
                        // A layer is allocated, drawn into and blended back; a clip path or
                        // a mask is another layer of its own.
                        let extra =
                            u8::from(g.clip_path().is_some()) + u8::from(g.mask().is_some());
                        self.work += layer * 2.0 * f64::from(1 + extra);
                        let (sx, sy) = g.abs_transform().get_scale();
                        for filter in g.filters() {
                            self.filter(filter, layer, (sx * scale.0, sy * scale.1));
                        }
                    }
                    self.group(g, depth + 1, scale);
                }
                usvg::Node::Path(p) => self.path(p, scale),
                usvg::Node::Image(_) | usvg::Node::Text(_) => {}
            }
            node.subroots(|root| self.group(root, depth + 1, scale));
        }
    }

    /// The work of a filter over a layer of `layer` passes, `px` pixels to a unit.
    fn filter(&mut self, filter: &usvg::filter::Filter, layer: f64, px: (f32, f32)) {
        use usvg::filter::Kind;
        self.nodes += 1 + filter.primitives().len() as u64;
        for primitive in filter.primitives() {
            // Passes over the filter region per primitive, measured with resvg 0.49: most
            // take 2–8; turbulence about 4 an octave, morphology and convolution a fifth
            // and a third of a pass per pixel of their window.
            let weight = match primitive.kind() {
                Kind::Turbulence(t) if t.num_octaves() > MAX_TURBULENCE_OCTAVES => {
                    self.refuse(format!(
                        "an feTurbulence asks for {} octaves; the limit is {MAX_TURBULENCE_OCTAVES}",
                        t.num_octaves()
                    ));
                    continue;
                }
                Kind::Turbulence(t) => 5.0 + 4.0 * f64::from(t.num_octaves()),
                Kind::Morphology(m) => {
                    let side = |r: f32, s: f32| {
                        (2.0 * (f64::from(r) * f64::from(s)).round() + 1.0)
                            .min(5.0 * f64::from(TRIAL_PX) + 1.0)
                    };
                    let window = side(m.radius_x().get(), px.0) * side(m.radius_y().get(), px.1);
                    4.0 + window / 5.0
                }
                Kind::ConvolveMatrix(c) => {
                    let data = c.matrix();
                    4.0 + f64::from(data.columns()) * f64::from(data.rows()) / 3.0
                }
                _ => 8.0,
            };
            self.work += layer * weight;
        }
    }

    /// The work of painting `path`: its area once for the fill and once for the stroke, a
    /// pass per thousand dashes (tiny-skia dashes about four a microsecond and gives up
    /// above a million), and the tile of a pattern, which resvg draws into a pixmap of its
    /// own at the device scale with no bound.
    fn path(&mut self, path: &usvg::Path, scale: (f32, f32)) {
        let bbox = path.abs_stroke_bounding_box();
        let area = passes((bbox.width(), bbox.height()), scale);
        let painted = u8::from(path.fill().is_some()) + u8::from(path.stroke().is_some());
        self.work += area * f64::from(painted);
        if let Some(dashes) = path.stroke().and_then(|s| s.dasharray()) {
            let period: f32 = dashes.iter().sum();
            let count = polygon_length(path.data()) / f64::from(period);
            if count.is_finite() {
                self.work += count.min(1e6) / 1000.0;
            }
        }
        let paints = [
            path.fill().map(|f| f.paint()),
            path.stroke().map(|s| s.paint()),
        ];
        for paint in paints.into_iter().flatten() {
            let usvg::Paint::Pattern(pattern) = paint else {
                continue;
            };
            let (sx, sy) = path
                .abs_transform()
                .pre_concat(pattern.transform())
                .get_scale();
            let rect = pattern.rect();
            let (w, h) = (
                f64::from(rect.width() * sx * scale.0),
                f64::from(rect.height() * sy * scale.1),
            );
            let limit = 5.0 * f64::from(TRIAL_PX);
            if w > limit || h > limit {
                self.refuse(format!(
                    "a pattern tile is {w:.0} × {h:.0} px at {TRIAL_PX} px; the limit is {limit} px a side"
                ));
            }
            self.work += passes((rect.width() * sx, rect.height() * sy), scale) + area;
        }
    }
}

/// One piece's SVG text and the file it came from.
struct Source {
    /// The file's name (its path, for a set from a folder).
    file: String,
    /// Its text.
    svg: String,
}

/// How far a piece is checked as it is loaded.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Vetting {
    /// The structural checks only (the built-in set, which is tested).
    Structure,
    /// The structural checks, then the trial.
    Trial,
}

/// Parse a piece's XML, refuse what would make usvg's conversion long or large (see
/// [`MAX_EXPANDED_NODES`], [`MAX_EXPANDED_BYTES`]), then let usvg convert it.
fn parse_vetted(
    svg: &str,
    set: &str,
    piece: Piece,
    file: &str,
) -> Result<usvg::Tree, PieceSetError> {
    let too_many = |what| PieceSetError::TooManyNodes {
        set: set.to_string(),
        file: file.to_string(),
        what,
        limit: MAX_EXPANDED_NODES,
    };
    let refused = |reason: String| PieceSetError::TooCostly {
        set: set.to_string(),
        file: file.to_string(),
        reason,
    };
    let xml_options = roxmltree::ParsingOptions {
        allow_dtd: true,
        nodes_limit: MAX_EXPANDED_NODES as u32,
        ..roxmltree::ParsingOptions::default()
    };
    let doc = match roxmltree::Document::parse_with_options(svg, xml_options) {
        Ok(doc) => doc,
        Err(roxmltree::Error::NodesLimitReached) => return Err(too_many("XML nodes")),
        Err(e) => {
            return Err(PieceSetError::Broken {
                set: set.to_string(),
                piece: piece.code(),
                reason: usvg::Error::ParsingFailed(e).to_string(),
            });
        }
    };
    let expanded = XmlCensus::new(&doc).document(&doc).map_err(refused)?;
    if expanded.nodes > MAX_EXPANDED_NODES {
        return Err(too_many(
            "elements once its uses and references are expanded",
        ));
    }
    if expanded.bytes > MAX_EXPANDED_BYTES {
        return Err(refused(format!(
            "its attributes come to {} bytes once its uses and references are expanded; the limit is {MAX_EXPANDED_BYTES}",
            expanded.bytes
        )));
    }
    usvg::Tree::from_xmltree(&doc, &isolated_options()).map_err(|e| PieceSetError::Broken {
        set: set.to_string(),
        piece: piece.code(),
        reason: e.to_string(),
    })
}

/// Refuse a parsed piece with too many nodes, groups nested too deep, an unbounded
/// filter or pattern, or more drawing work than [`MAX_DRAWING_WORK`].
///
/// The rule for filters: every primitive is priced by the pixels of its region times
/// what it does to each (see [`TreeCensus`]), and only `feTurbulence` is refused by
/// itself, above [`MAX_TURBULENCE_OCTAVES`] (more octaves change nothing visible). Kinds
/// are not refused wholesale: blurs and lighting are common in real sets (pychess's ada
/// and metaltops blur), and `feMorphology` or `feConvolveMatrix`, whose cost grows with
/// their radius or kernel, are bounded by their price.
fn vet_tree(tree: &usvg::Tree, set: &str, file: &str) -> Result<(), PieceSetError> {
    let census = TreeCensus::of(tree);
    let refused = |reason: String| PieceSetError::TooCostly {
        set: set.to_string(),
        file: file.to_string(),
        reason,
    };
    if census.nodes > MAX_PIECE_NODES {
        return Err(PieceSetError::TooManyNodes {
            set: set.to_string(),
            file: file.to_string(),
            what: "nodes in its usvg tree",
            limit: MAX_PIECE_NODES,
        });
    }
    if census.depth > MAX_GROUP_DEPTH {
        return Err(refused(format!(
            "its groups are nested more than {MAX_GROUP_DEPTH} deep"
        )));
    }
    if let Some(reason) = census.refused {
        return Err(refused(reason));
    }
    if census.work > MAX_DRAWING_WORK {
        return Err(refused(format!(
            "drawing it at {TRIAL_PX} px takes about {:.0} canvas passes; the limit is {MAX_DRAWING_WORK}",
            census.work
        )));
    }
    Ok(())
}

/// Draw `art` at [`TRIAL_PX`] as a sprite is drawn, and convert it to PDF as
/// `/diagram.pdf` and `/sheet.pdf` do (a `<symbol>` placed with `<use>`, as in a diagram,
/// alone and nested in a page, as in a worksheet, which svg2pdf nests two levels deeper);
/// refuse it if svg2pdf cannot, or if all that took longer than `budget`. Returns the
/// time it took.
fn trial(
    art: &PieceArt,
    set: &str,
    file: &str,
    budget: std::time::Duration,
) -> Result<std::time::Duration, PieceSetError> {
    let start = std::time::Instant::now();
    let (vw, vh) = art.view_box;
    let side = TRIAL_PX as f32;
    if let Some(mut pixmap) = resvg::tiny_skia::Pixmap::new(TRIAL_PX, TRIAL_PX) {
        let transform = resvg::tiny_skia::Transform::from_scale(side / vw, side / vh);
        resvg::render(&art.tree, transform, &mut pixmap.as_mut());
    }
    let body = match &art.paths {
        Some(paths) => {
            let doc = standalone(paths, art.view_box);
            let open = doc.find('>').map_or(0, |i| i + 1);
            doc[open..doc.len() - "</svg>".len()].to_string()
        }
        None => art.symbol_body.clone(),
    };
    // Placed off the origin, as on a board: a `<use>` at 0,0 would be one group fewer.
    let doc_side = side + 2.0;
    let diagram = format!(
        r##"<svg xmlns="http://www.w3.org/2000/svg" width="{doc_side}" height="{doc_side}" viewBox="0 0 {doc_side} {doc_side}"><defs><symbol id="p" viewBox="0 0 {vw} {vh}">{body}</symbol></defs><use href="#p" x="1" y="1" width="{side}" height="{side}"/></svg>"##
    );
    // A page's pixels are not its points: its root has a transform of its own.
    let page_side = doc_side + 2.0;
    let page = format!(
        r##"<svg xmlns="http://www.w3.org/2000/svg" width="{}" height="{}" viewBox="0 0 {page_side} {page_side}"><rect width="{page_side}" height="{page_side}" fill="#ffffff"/>{}</svg>"##,
        page_side * 0.75,
        page_side * 0.75,
        // Nested as a worksheet nests a diagram (one document, so no ids to prefix).
        diagram.replacen("<svg ", r#"<svg x="1" y="1" "#, 1)
    );
    crate::render::encode::convert::pdf(&diagram, 72)
        .and_then(|_| crate::render::encode::convert::pdf_pages(&[page], (page_side, page_side)))
        .map_err(|e| PieceSetError::NoPdf {
            set: set.to_string(),
            file: file.to_string(),
            reason: e.to_string(),
        })?;
    let elapsed = start.elapsed();
    if elapsed > budget {
        return Err(PieceSetError::TooSlow {
            set: set.to_string(),
            file: file.to_string(),
            elapsed_ms: elapsed.as_millis(),
            limit_ms: budget.as_millis(),
        });
    }
    Ok(elapsed)
}

/// Parse one piece SVG, check it, and normalise it into a symbol body.
fn load_art(
    set: &str,
    piece: Piece,
    source: &Source,
    vetting: Vetting,
) -> Result<PieceArt, PieceSetError> {
    let file = source.file.as_str();
    let broken = |reason: String| PieceSetError::Broken {
        set: set.to_string(),
        piece: piece.code(),
        reason,
    };
    if source.svg.len() > MAX_PIECE_BYTES {
        return Err(PieceSetError::TooLarge {
            set: set.to_string(),
            file: file.to_string(),
            limit: MAX_PIECE_BYTES,
        });
    }
    let tree = parse_vetted(&source.svg, set, piece, file)?;
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
    vet_tree(&tree, set, file)?;
    let document = piece_document(paths.as_deref(), &body, view_box).into();
    let art = PieceArt {
        tree,
        view_box,
        symbol_body: body,
        paths,
        document,
    };
    if vetting == Vetting::Trial {
        let took = trial(&art, set, file, TRIAL_BUDGET)?;
        tracing::debug!(set, file, ms = took.as_secs_f64() * 1000.0, "piece trial");
    }
    Ok(art)
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
    ($dir:literal: $($code:literal),* $(,)?) => {
        &[$(($code, include_str!(concat!("../../../assets/pieces/", $dir, "/", $code, ".svg")))),*]
    };
}

/// The default set's SVG sources (`staunton`), by file stem.
const BUILTIN: &[(&str, &str)] = builtin_svgs!["staunton":
    "wK", "wQ", "wR", "wB", "wN", "wP", "wA", "wC", "bK", "bQ", "bR", "bB", "bN", "bP", "bA", "bC",
];

/// The default set's hinted drawings, for squares under [`HINT_BELOW_PX`]: outlines and
/// fills only, no inner details.
const BUILTIN_HINTED: &[(&str, &str)] = builtin_svgs!["staunton/small":
    "wK", "wQ", "wR", "wB", "wN", "wP", "wA", "wC", "bK", "bQ", "bR", "bB", "bN", "bP", "bA", "bC",
];

/// `staunton-classic`'s SVG sources: the first design of the built-in set, frozen.
const BUILTIN_CLASSIC: &[(&str, &str)] = builtin_svgs!["staunton-classic":
    "wK", "wQ", "wR", "wB", "wN", "wP", "wA", "wC", "bK", "bQ", "bR", "bB", "bN", "bP", "bA", "bC",
];

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
fn svg_in(table: &'static [(&'static str, &'static str)], piece: Piece) -> Option<&'static str> {
    let code = piece.code();
    table.iter().find(|(c, _)| *c == code).map(|(_, svg)| *svg)
}

impl PieceSet {
    /// Build a set named `name` from a source of SVG text per piece. Every piece is
    /// checked as a set from a folder is (see [`PieceSets::with_dir`]), trial included.
    pub fn from_sources(
        name: &str,
        mut source: impl FnMut(Piece) -> Option<String>,
    ) -> Result<PieceSet, PieceSetError> {
        PieceSet::load(
            name,
            |piece| {
                Ok(source(piece).map(|svg| Source {
                    file: format!("{}.svg", piece.code()),
                    svg,
                }))
            },
            Vetting::Trial,
        )
    }

    /// Build a set named `name`, each piece from `source`, checked as far as `vetting`
    /// says.
    fn load(
        name: &str,
        source: impl FnMut(Piece) -> Result<Option<Source>, PieceSetError>,
        vetting: Vetting,
    ) -> Result<PieceSet, PieceSetError> {
        PieceSet::load_hinted(name, source, None::<fn(Piece) -> _>, vetting)
    }

    /// [`PieceSet::load`], with hinted drawings from `hinted` when given (every piece must
    /// have one). Paths are interned across both drawings, so their ids and names are
    /// unique in the set whichever drawing a document uses.
    fn load_hinted<F>(
        name: &str,
        mut source: impl FnMut(Piece) -> Result<Option<Source>, PieceSetError>,
        hinted: Option<F>,
        vetting: Vetting,
    ) -> Result<PieceSet, PieceSetError>
    where
        F: FnMut(Piece) -> Result<Option<Source>, PieceSetError>,
    {
        let read = |source: &mut dyn FnMut(Piece) -> Result<Option<Source>, PieceSetError>| {
            Piece::all()
                .map(|piece| {
                    let svg = source(piece)?.ok_or_else(|| PieceSetError::Missing {
                        set: name.to_string(),
                        piece: piece.code(),
                    })?;
                    load_art(name, piece, &svg, vetting)
                })
                .collect::<Result<Vec<_>, _>>()
        };
        let mut art = read(&mut source)?;
        let count = art.len();
        let has_hints = match hinted {
            Some(mut hinted) => {
                art.extend(read(&mut hinted)?);
                true
            }
            None => false,
        };
        intern(&mut art);
        let hinted = has_hints.then(|| art.split_off(count));
        Ok(PieceSet {
            name: Arc::from(name),
            art,
            hinted,
        })
    }

    /// The built-in set (`staunton`, the default), compiled into the binary, with its
    /// hinted drawings for squares under [`HINT_BELOW_PX`].
    pub fn builtin() -> PieceSet {
        PieceSet::compiled(
            crate::render::spec::options::DEFAULT_PIECE_SET,
            BUILTIN,
            Some(BUILTIN_HINTED),
        )
    }

    /// The built-in set `staunton-classic` ([`CLASSIC_PIECE_SET`]): the first design of
    /// `staunton`, without hinted drawings.
    pub fn builtin_classic() -> PieceSet {
        PieceSet::compiled(CLASSIC_PIECE_SET, BUILTIN_CLASSIC, None)
    }

    /// A set compiled into the binary, from `table` and, if given, its hinted drawings.
    fn compiled(
        name: &str,
        table: &'static [(&'static str, &'static str)],
        hinted: Option<&'static [(&'static str, &'static str)]>,
    ) -> PieceSet {
        let from = |table| {
            move |piece| {
                Ok(svg_in(table, piece).map(|svg| Source {
                    file: format!("{}.svg", piece.code()),
                    svg: svg.to_string(),
                }))
            }
        };
        // Tested, so checked for structure only: no trial at every start.
        let set = PieceSet::load_hinted(name, from(table), hinted.map(from), Vetting::Structure);
        match set {
            Ok(set) => set,
            // The built-in artwork is tested; failing here is a build defect, not user input.
            Err(e) => panic!("built-in piece set {name} is broken: {e}"),
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

    /// The artwork of `piece`: the full drawing.
    pub fn art(&self, piece: Piece) -> &PieceArt {
        &self.art[piece.index()]
    }

    /// The artwork of `piece` for a square `px` pixels wide: the hinted drawing under
    /// [`HINT_BELOW_PX`] if the set has one, else the full drawing.
    pub fn art_at(&self, piece: Piece, px: u32) -> &PieceArt {
        match &self.hinted {
            Some(hinted) if px < HINT_BELOW_PX => &hinted[piece.index()],
            _ => self.art(piece),
        }
    }

    /// Whether the set has hinted drawings for small squares (see [`PieceSet::art_at`]).
    pub fn has_hints(&self) -> bool {
        self.hinted.is_some()
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

/// The default set's SVG text of `piece` (what a set from a folder borrows).
fn builtin_svg(piece: Piece) -> Option<&'static str> {
    svg_in(BUILTIN, piece)
}

/// Read the SVG of `piece` from the set folder `dir` inside the pieces directory `root`
/// (canonical), as `wK.svg` (lichess layout) or `wk.svg` (pychess). A file whose real
/// path is outside `root`, that is not a regular file, or that is larger than
/// [`MAX_PIECE_BYTES`] is refused; at most that many bytes and one are read.
fn read_piece(
    root: &Path,
    dir: &Path,
    set: &str,
    piece: Piece,
) -> Result<Option<Source>, PieceSetError> {
    use std::io::Read;
    let code = piece.code();
    for stem in [code.clone(), code.to_ascii_lowercase()] {
        let path = dir.join(format!("{stem}.svg"));
        let file = path.display().to_string();
        let broken = |reason: String| PieceSetError::Broken {
            set: set.to_string(),
            piece: stem.clone(),
            reason,
        };
        let real = match std::fs::canonicalize(&path) {
            Ok(real) => real,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => continue,
            Err(e) => return Err(broken(e.to_string())),
        };
        if !real.starts_with(root) {
            return Err(PieceSetError::OutsideDir {
                set: set.to_string(),
                file,
                target: real.display().to_string(),
            });
        }
        if !std::fs::metadata(&real).is_ok_and(|m| m.is_file()) {
            return Err(broken("it is not a regular file".to_string()));
        }
        let mut bytes = Vec::new();
        std::fs::File::open(&real)
            .and_then(|f| f.take(MAX_PIECE_BYTES as u64 + 1).read_to_end(&mut bytes))
            .map_err(|e| broken(e.to_string()))?;
        if bytes.len() > MAX_PIECE_BYTES {
            return Err(PieceSetError::TooLarge {
                set: set.to_string(),
                file,
                limit: MAX_PIECE_BYTES,
            });
        }
        let svg = String::from_utf8(bytes).map_err(|_| broken("it is not UTF-8".to_string()))?;
        return Ok(Some(Source { file, svg }));
    }
    Ok(None)
}

/// Load the set `name` from `folder` in the pieces directory `root` (canonical); the
/// reason it cannot be loaded, naming the file, as reported at start-up.
fn load_folder(root: &Path, folder: &Path, name: &str) -> Result<PieceSet, String> {
    let real = std::fs::canonicalize(folder)
        .map_err(|e| format!("{}: {e}; set \"{name}\" skipped", folder.display()))?;
    if !real.starts_with(root) {
        return Err(format!(
            "{}: leads outside the pieces directory {} (to {}); set \"{name}\" skipped",
            folder.display(),
            root.display(),
            real.display()
        ));
    }
    let loaded = PieceSet::load(
        name,
        |piece| match read_piece(root, folder, name, piece)? {
            Some(source) => Ok(Some(source)),
            None => Ok(matches!(piece.role, Role::Archbishop | Role::Chancellor)
                .then(|| builtin_svg(piece))
                .flatten()
                .map(|svg| Source {
                    file: format!("{} (built in)", piece.code()),
                    svg: svg.to_string(),
                })),
        },
        Vetting::Trial,
    );
    loaded.map_err(|e| match e {
        PieceSetError::Missing { piece, .. } => format!(
            "{}: no {piece}.svg (or {}.svg); set \"{name}\" skipped",
            folder.display(),
            piece.to_ascii_lowercase()
        ),
        PieceSetError::Broken { piece, reason, .. } => format!(
            "{}: {piece}.svg is not a usable SVG ({reason}); set \"{name}\" skipped",
            folder.display()
        ),
        other => format!("{other}; set \"{name}\" skipped"),
    })
}

/// The piece sets a renderer knows, by name.
#[derive(Debug, Clone)]
pub struct PieceSets {
    sets: Vec<Arc<PieceSet>>,
}

impl PieceSets {
    /// Only the built-in sets: `staunton` (the default) and `staunton-classic` (see
    /// [`BUILTIN_PIECE_SETS`]).
    pub fn builtin() -> PieceSets {
        PieceSets {
            sets: vec![
                Arc::new(PieceSet::builtin()),
                Arc::new(PieceSet::builtin_classic()),
            ],
        }
    }

    /// The built-in sets plus every set in the subfolders of `dir`, each named after its
    /// folder (lower case); a folder named after a set already loaded (a built-in one) is
    /// skipped. Files are `wK.svg` … `bP.svg` (lichess) or `wk.svg` … `bp.svg`
    /// (pychess). The twelve standard pieces are required; a set without archbishop or
    /// chancellor borrows the built-in ones. A set that cannot be loaded is skipped, and
    /// the reason (naming the file) is returned beside the sets, so the caller can report
    /// it and carry on.
    ///
    /// Each piece is vetted before the set is accepted: a file larger than
    /// [`MAX_PIECE_BYTES`], or whose real path (symbolic links followed) leads outside
    /// `dir`, is refused, and so is a set folder that leads outside `dir`; then the
    /// structural checks (nodes, nesting, filters, patterns, markers, drawing work: see
    /// [`MAX_PIECE_NODES`] and the limits beside it); then each piece is drawn at
    /// [`TRIAL_PX`] and converted to PDF, and refused if svg2pdf cannot or if that takes
    /// longer than [`TRIAL_BUDGET`].
    pub fn with_dir(dir: &Path) -> (PieceSets, Vec<String>) {
        let mut sets = PieceSets::builtin();
        let mut problems = Vec::new();
        let cannot_read =
            |e: std::io::Error| format!("cannot read the pieces directory {}: {e}", dir.display());
        let listed =
            std::fs::canonicalize(dir).and_then(|root| Ok((root, std::fs::read_dir(dir)?)));
        let (root, mut folders): (_, Vec<_>) = match listed {
            Ok((root, entries)) => (
                root,
                entries
                    .filter_map(Result::ok)
                    .map(|e| e.path())
                    .filter(|p| p.is_dir())
                    .collect(),
            ),
            Err(e) => {
                problems.push(cannot_read(e));
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
            match load_folder(&root, &folder, &name) {
                Ok(set) => sets.sets.push(Arc::new(set)),
                Err(problem) => problems.push(problem),
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
    use std::time::Duration;

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

    #[test]
    fn the_built_in_pieces_pass_the_trial_well_within_the_budget() {
        let set = PieceSet::builtin();
        for piece in Piece::all() {
            let file = format!("{}.svg", piece.code());
            let took = trial(set.art(piece), "staunton", &file, TRIAL_BUDGET).expect("passes");
            assert!(took < TRIAL_BUDGET / 5, "{file}: {took:?}");
            // Over budget, the same trial refuses, naming the file and the limit.
            let err = trial(set.art(piece), "staunton", &file, Duration::ZERO).unwrap_err();
            assert!(
                err.to_string().contains(&format!("{file} took"))
                    && err.to_string().ends_with("the limit is 0 ms"),
                "{err}"
            );
        }
    }

    /// A set whose every piece is `body` on a 100-unit square.
    fn set_of(body: &str) -> Result<PieceSet, PieceSetError> {
        let svg = format!(
            r#"<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" viewBox="0 0 100 100">{body}</svg>"#
        );
        PieceSet::from_sources("t", |_| Some(svg.clone()))
    }

    #[test]
    fn what_real_sets_draw_with_passes() {
        // Gradients, a blur (pychess's ada, metaltops), a clip path (merida), a small
        // pattern, a dashed stroke, shapes placed by `use`, a style sheet.
        let body = r##"<style>.a { fill: url(#g) }</style>
            <defs><linearGradient id="g"><stop offset="0" stop-color="#fff"/><stop offset="1"/></linearGradient>
            <filter id="b"><feGaussianBlur stdDeviation="2"/></filter>
            <clipPath id="c"><circle cx="50" cy="50" r="40"/></clipPath>
            <pattern id="p" width="4" height="4" patternUnits="userSpaceOnUse"><rect width="2" height="2"/></pattern>
            <path id="s" d="M10 10h20v20h-20z"/></defs>
            <g clip-path="url(#c)"><rect class="a" width="100" height="100"/></g>
            <ellipse cx="50" cy="80" rx="30" ry="5" filter="url(#b)" opacity="0.5"/>
            <rect x="60" y="10" width="30" height="30" fill="url(#p)" stroke="#000" stroke-dasharray="2 1"/>
            <use xlink:href="#s"/><use xlink:href="#s" x="10"/>"##;
        assert!(set_of(body).is_ok(), "{:?}", set_of(body).err());
    }

    #[test]
    fn what_would_make_usvg_itself_explode_is_refused_before_it_converts() {
        let refused = |body: &str| {
            let started = std::time::Instant::now();
            let err = set_of(body).expect_err("refused").to_string();
            assert!(started.elapsed() < Duration::from_secs(1), "{err}");
            err
        };
        // Markers are copied at every vertex: 234 KB of them made 2.1 million nodes.
        let err = refused(
            r##"<marker id="m"><rect width="1" height="1"/></marker><path d="M0 0L9 9L1 1" stroke="#000" marker-mid="url(#m)"/>"##,
        );
        assert!(err.contains("markers"), "{err}");
        let err = refused(
            r##"<marker id="m"/><path d="M0 0L9 9" stroke="#000" style="marker-end: url(#m)"/>"##,
        );
        assert!(err.contains("markers"), "{err}");
        // `use` of `use` of …: 10^7 rectangles from 1.9 KB.
        let mut bomb = r#"<defs><rect id="a0" width="1" height="1"/>"#.to_string();
        for i in 1..8 {
            let uses = format!(r##"<use xlink:href="#a{}"/>"##, i - 1).repeat(10);
            bomb.push_str(&format!(r#"<g id="a{i}">{uses}</g>"#));
        }
        bomb.push_str(r##"</defs><use xlink:href="#a7"/>"##);
        let err = refused(&bomb);
        assert!(
            err.contains("more than 64000 elements once its uses and references are expanded"),
            "{err}"
        );
        // A pattern in bounding-box units is copied for each shape it paints.
        let pattern = format!(
            r#"<pattern id="p" width="0.5" height="0.5" patternContentUnits="objectBoundingBox">{}</pattern><g fill="url(#p)">{}</g>"#,
            r#"<rect width="0.1" height="0.1"/>"#.repeat(300),
            r#"<rect width="10" height="10"/>"#.repeat(300)
        );
        assert!(refused(&pattern).contains("more than 64000 elements"));
        // Nesting that would overflow a worker thread's stack.
        let deep = format!(
            "{}<rect width=\"1\" height=\"1\"/>{}",
            "<g opacity=\"0.9\">".repeat(70),
            "</g>".repeat(70)
        );
        assert!(refused(&deep).contains("nested more than 64 deep"));
    }
}
