//! The vetting of untrusted piece SVG: why a set is refused ([`PieceSetError`]), the limits
//! ([`MAX_PIECE_BYTES`] and those beside it), the census of a file's XML before usvg
//! converts it (what `use` and references expand to) and of the usvg tree after (nodes,
//! nesting, filters, patterns, drawing work), and the trial: the piece drawn at
//! [`TRIAL_PX`] and converted to PDF as `/diagram.pdf` and `/sheet.pdf` do, within
//! [`TRIAL_BUDGET`].
//!
//! usvg reads nothing from disk or network for a piece ([`isolated_options`]). The PDF
//! conversion is `ground::pdf`, the one the encoders run.

use super::drawing::{PieceArt, isolated_options, standalone};
use crate::chess::piece::Piece;
use crate::render::ground::{pdf, pdf_tags};
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

/// Parse a piece's XML, refuse what would make usvg's conversion long or large (see
/// [`MAX_EXPANDED_NODES`], [`MAX_EXPANDED_BYTES`]), then let usvg convert it.
pub(super) fn parse_vetted(
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
pub(super) fn vet_tree(tree: &usvg::Tree, set: &str, file: &str) -> Result<(), PieceSetError> {
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
pub(super) fn trial(
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
        resvg::render(art.tree(), transform, &mut pixmap.as_mut());
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
    let about = pdf_tags::About {
        title: set,
        lang: "en",
    };
    pdf::pdf(&diagram, 72, about, file)
        .and_then(|_| pdf::pdf_pages(&[page], (page_side, page_side)))
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
