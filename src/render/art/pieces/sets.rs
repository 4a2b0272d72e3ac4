//! Piece sets loaded and looked up: a [`PieceSet`] (the 16 pieces' artwork, and the
//! hinted drawings when it has them) built from the built-in SVG or from SVG text, each
//! piece vetted then normalised (`load_art`); the sets of a pieces directory, each folder
//! read with its files kept inside it; and [`PieceSets`], the sets a renderer knows, by
//! name.

use super::drawing::{
    BUILTIN_CLASSIC_NORMALISED, BUILTIN_HINTED_NORMALISED, BUILTIN_NORMALISED,
    CLASSIC_PIECE_SET, HINT_BELOW_PX, PieceArt, builtin_svg, compact_path_data, flat_paths,
    intern, isolated_options, normalised_in, piece_document, standalone,
};
use super::vetting::{
    MAX_PIECE_BYTES, PieceSetError, TRIAL_BUDGET, parse_vetted, trial,
    vet_tree,
};
use crate::chess::piece::{Piece, Role};
use std::path::Path;
use std::sync::{Arc, OnceLock};

/// A complete set: all 16 pieces (the six standard roles plus archbishop and chancellor).
#[derive(Debug)]
pub struct PieceSet {
    name: Arc<str>,
    art: Vec<PieceArt>,
    /// Simpler drawings for squares under [`HINT_BELOW_PX`], when the set has them.
    hinted: Option<Vec<PieceArt>>,
}

/// One piece's SVG text and the file it came from.
struct Source {
    /// The file's name (its path, for a set from a folder).
    file: String,
    /// Its text.
    svg: String,
}

/// A set from anywhere but the binary: each piece, once read and checked for structure, is
/// drawn and converted in a trial ([`trial`]), and refused if that fails or is too slow.
/// (The built-in sets, which are tested, are not trialled: their loading never reaches
/// the SVG parser, the rasteriser or the PDF converter, so a build that writes SVG only
/// leaves them out.)
fn trialled(art: &PieceArt, set: &str, file: &str) -> Result<(), PieceSetError> {
    let took = match trial(art, set, file, TRIAL_BUDGET) {
        // One trial can be stretched by a busy machine (a build beside the service, the
        // other pieces' trials): a piece is refused when it is too slow twice.
        Err(PieceSetError::TooSlow { .. }) => trial(art, set, file, TRIAL_BUDGET)?,
        tried => tried?,
    };
    tracing::debug!(set, file, ms = took.as_secs_f64() * 1000.0, "piece trial");
    Ok(())
}

/// Parse one piece SVG, check it, and normalise it into a symbol body.
fn load_art(set: &str, piece: Piece, source: &Source) -> Result<PieceArt, PieceSetError> {
    let file = source.file.as_str();
    if source.svg.len() > MAX_PIECE_BYTES {
        return Err(PieceSetError::TooLarge {
            set: set.to_string(),
            file: file.to_string(),
            limit: MAX_PIECE_BYTES,
        });
    }
    let tree = parse_vetted(&source.svg, set, piece, file)?;
    if tree.root().children().is_empty() {
        return Err(broken(set, piece, "it draws nothing".to_string()));
    }
    art_of(set, piece, &normalised(&tree, set, piece))
}

/// `set`'s `piece` as usvg writes it once parsed (`tree`): the normalised SVG document
/// every drawing is made from (and the built-in sets' `normalised.txt` hold).
pub(super) fn normalised(tree: &usvg::Tree, set: &str, piece: Piece) -> String {
    tree.to_string(&usvg::WriteOptions {
        id_prefix: Some(format!("{set}-{}-", piece.code())),
        coordinates_precision: 2,
        transforms_precision: 4,
        indent: usvg::Indent::None,
        attributes_indent: usvg::Indent::None,
        ..usvg::WriteOptions::default()
    })
}

/// `set`'s `piece` is not usable, for `reason`.
fn broken(set: &str, piece: Piece, reason: String) -> PieceSetError {
    PieceSetError::Broken {
        set: set.to_string(),
        piece: piece.code(),
        reason,
    }
}

/// A piece's drawing from its normalised SVG document `written` (usvg's output): the
/// symbol body, its flat paths, the piece alone as a document. Parses no SVG: the tree is
/// read from it when first rasterised.
fn art_of(set: &str, piece: Piece, written: &str) -> Result<PieceArt, PieceSetError> {
    // usvg writes `<svg …attributes…>body</svg>`; keep the body.
    let open = written
        .find("<svg")
        .and_then(|start| written[start..].find('>').map(|end| start + end + 1));
    let (open, close) = open
        .and_then(|open| written.rfind("</svg>").map(|close| (open, close)))
        .filter(|(open, close)| open <= close)
        .ok_or_else(|| broken(set, piece, "usvg wrote no <svg> element".to_string()))?;
    let view_box = view_box_of(&written[..open])
        .ok_or_else(|| broken(set, piece, "usvg wrote no width and height".to_string()))?;
    let body = written[open..close].trim().to_string();
    let paths = flat_paths(&body);
    let body = compact_path_data(&body);
    // Sprites are rasterised from the normalised text too, so the PNG and SVG backends draw
    // exactly the same geometry.
    let tree_source = paths
        .as_ref()
        .map_or_else(|| written.to_string(), |p| standalone(p, view_box));
    let document = piece_document(paths.as_deref(), &body, view_box).into();
    Ok(PieceArt {
        tree: OnceLock::new(),
        tree_source,
        view_box,
        symbol_body: body,
        paths,
        document,
    })
}

/// The `width` and `height` of an `<svg …>` start tag as usvg writes it (its tree's size,
/// no `viewBox`).
fn view_box_of(tag: &str) -> Option<(f32, f32)> {
    let attribute = |name: &str| {
        let value = tag.split(&format!(" {name}=\"")).nth(1)?.split('"').next()?;
        value.parse::<f32>().ok().filter(|v| *v > 0.0)
    };
    Some((attribute("width")?, attribute("height")?))
}

/// A piece of a set from anywhere but the binary: loaded ([`load_art`]), its normalised
/// drawing re-read by usvg and checked (nodes, nesting, filters, drawing work), then
/// [`trialled`].
fn vetted(set: &str, piece: Piece, source: &Source) -> Result<PieceArt, PieceSetError> {
    let art = load_art(set, piece, source)?;
    let tree = usvg::Tree::from_str(&art.tree_source, &isolated_options()).map_err(|e| {
        broken(set, piece, format!("usvg cannot re-read its own output: {e}"))
    })?;
    vet_tree(&tree, set, &source.file)?;
    let _ = art.tree.set(tree);
    trialled(&art, set, &source.file)?;
    Ok(art)
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
            vetted,
        )
    }

    /// Build a set named `name`, each piece from `source`, made into its drawing by
    /// `make` (given the set's name, the piece and its source).
    fn load(
        name: &str,
        source: impl FnMut(Piece) -> Result<Option<Source>, PieceSetError>,
        make: impl Fn(&str, Piece, &Source) -> Result<PieceArt, PieceSetError>,
    ) -> Result<PieceSet, PieceSetError> {
        PieceSet::load_hinted(name, source, None::<fn(Piece) -> _>, make)
    }

    /// [`PieceSet::load`], with hinted drawings from `hinted` when given (every piece must
    /// have one). Paths are interned across both drawings, so their ids and names are
    /// unique in the set whichever drawing a document uses.
    fn load_hinted<F>(
        name: &str,
        mut source: impl FnMut(Piece) -> Result<Option<Source>, PieceSetError>,
        hinted: Option<F>,
        make: impl Fn(&str, Piece, &Source) -> Result<PieceArt, PieceSetError>,
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
                    make(name, piece, &svg)
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
            BUILTIN_NORMALISED,
            Some(BUILTIN_HINTED_NORMALISED),
        )
    }

    /// The built-in set `staunton-classic` ([`CLASSIC_PIECE_SET`]): the first design of
    /// `staunton`, without hinted drawings.
    pub fn builtin_classic() -> PieceSet {
        PieceSet::compiled(CLASSIC_PIECE_SET, BUILTIN_CLASSIC_NORMALISED, None)
    }

    /// A set compiled into the binary, from its drawings as usvg wrote them (`normalised`)
    /// and, if given, its hinted drawings' (the same, for small squares).
    fn compiled(name: &str, normalised: &'static str, hinted: Option<&'static str>) -> PieceSet {
        let from = |text| {
            move |piece| {
                Ok(normalised_in(text, piece).map(|svg| Source {
                    file: format!("{}.svg", piece.code()),
                    svg: svg.to_string(),
                }))
            }
        };
        // Recorded from the SVG by usvg and checked as a folder's set is, in the tests
        // (`builtin_normalised_drawings_are_current`, `builtin_sets_pass_a_folder_set_s_vetting`):
        // nothing is parsed at start, and the tree is read when first rasterised.
        let made = |name: &str, piece, source: &Source| art_of(name, piece, &source.svg);
        match PieceSet::load_hinted(name, from(normalised), hinted.map(from), made) {
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
        vetted,
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

/// The piece sets a renderer knows, by name: the built-in ones, each loaded (once in the
/// process) when first asked for, then those loaded from folders.
#[derive(Debug, Clone)]
pub struct PieceSets {
    sets: Vec<Arc<PieceSet>>,
}

/// How a built-in set is loaded.
type Loader = fn() -> PieceSet;

/// The built-in sets, in order, each with how it is loaded.
const BUILTIN_SETS: [(&str, Loader); 2] = [
    (crate::render::spec::options::DEFAULT_PIECE_SET, PieceSet::builtin),
    (CLASSIC_PIECE_SET, PieceSet::builtin_classic),
];

/// The built-in set `n` of [`BUILTIN_SETS`], loaded on the first call.
fn builtin_set(n: usize) -> &'static Arc<PieceSet> {
    static LOADED: [OnceLock<Arc<PieceSet>>; 2] = [OnceLock::new(), OnceLock::new()];
    LOADED[n].get_or_init(|| Arc::new(BUILTIN_SETS[n].1()))
}

impl PieceSets {
    /// Only the built-in sets: `staunton` (the default) and `staunton-classic` (see
    /// [`BUILTIN_PIECE_SETS`](crate::render::pieces::BUILTIN_PIECE_SETS)), each parsed
    /// when a render first names it (a process that never draws `staunton-classic`
    /// never parses it).
    pub fn builtin() -> PieceSets {
        PieceSets { sets: Vec::new() }
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
    /// [`MAX_PIECE_NODES`](crate::render::pieces::MAX_PIECE_NODES) and the limits beside it); then each piece is drawn at
    /// [`TRIAL_PX`](crate::render::pieces::TRIAL_PX) and converted to PDF, and refused if svg2pdf cannot or if that takes
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
        match BUILTIN_SETS.iter().position(|(n, _)| n.eq_ignore_ascii_case(name)) {
            Some(n) => Some(builtin_set(n)),
            None => self.sets.iter().find(|s| s.name.eq_ignore_ascii_case(name)),
        }
    }

    /// Names of all sets: the built-in ones, then the others in load order.
    pub fn names(&self) -> impl Iterator<Item = &str> {
        let builtin = BUILTIN_SETS.iter().map(|(name, _)| *name);
        builtin.chain(self.sets.iter().map(|s| s.name()))
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
    fn builtin_normalised_drawings_are_current() {
        use super::super::drawing::{BUILTIN, BUILTIN_CLASSIC, BUILTIN_HINTED, svg_in};
        let update = std::env::var_os("UPDATE_GOLDEN").is_some_and(|v| v == "1");
        for (name, dir, table, recorded) in [
            ("staunton", "staunton", BUILTIN, BUILTIN_NORMALISED),
            ("staunton", "staunton/small", BUILTIN_HINTED, BUILTIN_HINTED_NORMALISED),
            ("staunton-classic", "staunton-classic", BUILTIN_CLASSIC, BUILTIN_CLASSIC_NORMALISED),
        ] {
            let mut lines = String::new();
            for piece in Piece::all() {
                let svg = svg_in(table, piece).expect("a drawing of every piece");
                let tree = parse_vetted(svg, name, piece, "built in").expect("parses");
                let written = normalised(&tree, name, piece);
                assert!(!written.contains('\n'), "{dir}: one line a piece");
                lines.push_str(&format!("{} {written}\n", piece.code()));
            }
            let path = format!("{}/assets/pieces/{dir}/normalised.txt", env!("CARGO_MANIFEST_DIR"));
            if update {
                std::fs::write(&path, &lines).expect("writes");
            } else {
                assert!(
                    lines == recorded,
                    "{path} is not what usvg writes of the SVG beside it: \
                     UPDATE_GOLDEN=1 cargo test --lib builtin_normalised records it again"
                );
            }
        }
    }

    #[test]
    fn builtin_sets_pass_a_folder_set_s_vetting() {
        use super::super::drawing::{BUILTIN, BUILTIN_CLASSIC, BUILTIN_HINTED, svg_in};
        for (name, table) in [
            ("staunton", BUILTIN),
            ("staunton-hinted", BUILTIN_HINTED),
            ("staunton-classic", BUILTIN_CLASSIC),
        ] {
            let set = PieceSet::from_sources(name, |p| svg_in(table, p).map(str::to_string));
            let set = set.unwrap_or_else(|e| panic!("{name}: {e}"));
            let lazily = PieceSet::builtin();
            let piece = Piece::all().next().expect("a piece");
            assert!(set.art(piece).tree.get().is_some(), "{name}: vetted, so parsed");
            if name == "staunton" {
                let art = lazily.art(piece);
                assert!(art.tree.get().is_none(), "built in: parsed when first drawn");
                assert_eq!(art.tree().size(), set.art(piece).tree().size());
                assert_eq!(art.symbol_body, set.art(piece).symbol_body);
            }
        }
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
