//! Piece sets loaded from a folder at start-up (`--pieces-dir`).

use crate::common;

use staunton::render::pieces::PieceSets;
use staunton::request::Request;
use staunton::{Piece, Renderer};
use std::path::{Path, PathBuf};

fn builtin_svg(code: &str) -> String {
    let path =
        Path::new(env!("CARGO_MANIFEST_DIR")).join(format!("assets/pieces/staunton/{code}.svg"));
    std::fs::read_to_string(path).expect("built-in piece")
}

/// A set folder: the standard twelve pieces, each with a magenta corner so renders can tell
/// the sets apart.
fn write_set(
    root: &Path,
    name: &str,
    lower_case: bool,
    skip: Option<&str>,
    broken: Option<&str>,
) -> PathBuf {
    let dir = root.join(name);
    std::fs::create_dir_all(&dir).expect("set dir");
    for piece in Piece::all().filter(|p| !matches!(p.role.letter(), 'A' | 'C')) {
        let code = piece.code();
        if skip == Some(code.as_str()) {
            continue;
        }
        let svg = if broken == Some(code.as_str()) {
            "<svg><path d=".to_string()
        } else {
            builtin_svg(&code).replacen(
                "</svg>",
                r##"<rect width="50" height="50" fill="#ff00ff"/></svg>"##,
                1,
            )
        };
        let file = if lower_case {
            code.to_ascii_lowercase()
        } else {
            code
        };
        std::fs::write(dir.join(format!("{file}.svg")), svg).expect("write piece");
    }
    dir
}

#[test]
fn sets_load_from_folders_and_bad_ones_are_reported_and_skipped() {
    let root = std::env::temp_dir().join(format!("staunton-sets-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&root);
    write_set(&root, "Lichess", false, None, None);
    write_set(&root, "pychess", true, None, None);
    write_set(&root, "partial", false, Some("bQ"), None);
    write_set(&root, "broken", true, None, Some("wN"));
    write_set(&root, "bad name!", false, None, None);
    // A folder named after a built-in set is skipped: the built-in one stays.
    write_set(&root, "Staunton-Classic", false, None, None);
    std::fs::write(root.join("README.txt"), "not a set").expect("file");

    let (sets, problems) = PieceSets::with_dir(&root);
    let names: Vec<&str> = sets.names().collect();
    assert_eq!(
        names,
        ["staunton", "staunton-classic", "lichess", "pychess"]
    );
    assert_eq!(problems.len(), 4, "{problems:#?}");
    assert!(
        problems.iter().any(|p| p.contains("Staunton-Classic")
            && p.contains("a set called \"staunton-classic\" is already loaded")),
        "{problems:#?}"
    );
    assert!(
        problems
            .iter()
            .any(|p| p.contains("partial") && p.contains("bQ.svg")),
        "{problems:#?}"
    );
    assert!(
        problems
            .iter()
            .any(|p| p.contains("broken") && p.contains("wN.svg")),
        "{problems:#?}"
    );
    assert!(
        problems.iter().any(|p| p.contains("bad name!")),
        "{problems:#?}"
    );

    let renderer = Renderer::new(sets, 1 << 20);
    let render = |query: &str| {
        let r = Request::from_query(query, None).expect("valid");
        common::decode(&renderer.png(&r.position, &r.options).expect("renders"))
    };
    let ours = render("fen=8/8/8/8/8/8/8/K7&coordinates=none&size=80");
    let theirs = render("fen=8/8/8/8/8/8/8/K7&coordinates=none&size=80&pieces=PyChess");
    let magenta = |img: &image::RgbaImage| {
        img.pixels()
            .filter(|p| p[0] > 200 && p[1] < 60 && p[2] > 200)
            .count()
    };
    assert_eq!(magenta(&ours), 0);
    assert!(magenta(&theirs) > 10, "the folder's artwork is used");
    let classic = render("fen=8/8/8/8/8/8/8/K7&coordinates=none&size=80&pieces=staunton-classic");
    assert_eq!(
        magenta(&classic),
        0,
        "the built-in staunton-classic, not the folder"
    );
    // Archbishop and chancellor fall back to the built-in drawings.
    let capa = Request::from_query(
        "fen=rnabqkbcnr/pppppppppp/10/10/10/10/PPPPPPPPPP/RNABQKBCNR&pieces=lichess",
        None,
    )
    .expect("valid");
    assert!(renderer.png(&capa.position, &capa.options).is_ok());
    let unknown = Request::from_query("fen=start&pieces=partial", None).expect("valid");
    let err = renderer
        .png(&unknown.position, &unknown.options)
        .unwrap_err()
        .to_string();
    assert_eq!(
        err,
        "pieces \"partial\" is not allowed: expected one of staunton, staunton-classic, lichess, pychess"
    );
    let _ = std::fs::remove_dir_all(&root);
}

#[test]
fn a_missing_pieces_dir_is_reported_not_fatal() {
    let (sets, problems) = PieceSets::with_dir(Path::new("/nonexistent/staunton/pieces"));
    assert_eq!(
        sets.names().collect::<Vec<_>>(),
        ["staunton", "staunton-classic"]
    );
    assert_eq!(problems.len(), 1);
    assert!(problems[0].contains("/nonexistent/staunton/pieces"));
}

// Vetting: hostile sets are refused at start-up, quickly, naming the file and the limit.

const STANDARD: [&str; 12] = [
    "wK", "wQ", "wR", "wB", "wN", "wP", "bK", "bQ", "bR", "bB", "bN", "bP",
];

/// A fresh pieces directory for one test.
fn pieces_dir(test: &str) -> PathBuf {
    let root = std::env::temp_dir().join(format!("staunton-vet-{test}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&root);
    std::fs::create_dir_all(&root).expect("pieces dir");
    root
}

/// A set folder `name` in `root` whose twelve pieces are all `svg`.
fn write_uniform_set(root: &Path, name: &str, svg: &str) -> PathBuf {
    let dir = root.join(name);
    std::fs::create_dir_all(&dir).expect("set dir");
    for code in STANDARD {
        std::fs::write(dir.join(format!("{code}.svg")), svg).expect("write piece");
    }
    dir
}

/// A drawing of 100 × 100 units holding `body`.
fn drawing(body: &str) -> String {
    format!(r#"<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 100">{body}</svg>"#)
}

/// Load `root`, expecting the built-in set and `loaded` only, and one problem per refused
/// set; returns the problems.
fn load(root: &Path, loaded: &[&str]) -> (PieceSets, Vec<String>) {
    let (sets, problems) = PieceSets::with_dir(root);
    let mut expected = vec!["staunton", "staunton-classic"];
    expected.extend_from_slice(loaded);
    assert_eq!(sets.names().collect::<Vec<_>>(), expected, "{problems:#?}");
    (sets, problems)
}

fn assert_refused(problems: &[String], file: &str, words: &[&str]) {
    assert!(
        problems
            .iter()
            .any(|p| p.contains(file) && words.iter().all(|w| p.contains(w))),
        "no problem naming {file} and {words:?}: {problems:#?}"
    );
}

#[test]
fn a_piece_file_over_the_size_limit_is_refused_without_reading_it_all() {
    let root = pieces_dir("huge");
    // 2 MB of plain rectangles: a valid drawing, only too big.
    let rects = r#"<rect width="50" height="50" fill="red"/>"#.repeat(50_000);
    write_uniform_set(&root, "huge", &drawing(&rects));
    let (_, problems) = load(&root, &[]);
    assert_refused(
        &problems,
        "huge/wK.svg",
        &["larger than the limit of 524288 bytes", "skipped"],
    );
    let _ = std::fs::remove_dir_all(&root);
}

#[test]
fn a_piece_with_too_many_nodes_is_refused() {
    let root = pieces_dir("nodes");
    // 4,001 tiny rectangles: about 170 KB, well under the size limit.
    let rects: String = (0..4001)
        .map(|i| {
            format!(
                r#"<rect x="{}" y="{}" width="1" height="1"/>"#,
                i % 100,
                i / 100
            )
        })
        .collect();
    write_uniform_set(&root, "crowded", &drawing(&rects));
    let (_, problems) = load(&root, &[]);
    assert_refused(
        &problems,
        "crowded/wK.svg",
        &["more than 4000 nodes in its usvg tree"],
    );
    let _ = std::fs::remove_dir_all(&root);
}

#[test]
fn unbounded_filters_and_patterns_are_refused_before_anything_is_drawn() {
    let root = pieces_dir("filters");
    let filtered = |primitive: &str| {
        drawing(&format!(
            r#"<filter id="f">{primitive}</filter><rect width="100" height="100" filter="url(#f)"/>"#
        ))
    };
    // The probe's SVG took 94 s for each new sprite size.
    write_uniform_set(
        &root,
        "turbulence",
        &filtered(r#"<feTurbulence baseFrequency="0.05" numOctaves="1000000"/>"#),
    );
    // A radius of 40 units is 100 px at 256 px: 34 s a sprite.
    write_uniform_set(
        &root,
        "morphology",
        &filtered(r#"<feMorphology radius="40"/>"#),
    );
    // A 76,800 px square tile: 23 GB.
    write_uniform_set(
        &root,
        "pattern",
        &drawing(
            r#"<pattern id="p" width="30000" height="30000" patternUnits="userSpaceOnUse"><rect width="30000" height="30000"/></pattern><rect width="100" height="100" fill="url(#p)"/>"#,
        ),
    );
    let started = std::time::Instant::now();
    let (_, problems) = load(&root, &[]);
    let took = started.elapsed();
    assert!(took < std::time::Duration::from_secs(2), "took {took:?}");
    assert_refused(
        &problems,
        "turbulence/wK.svg",
        &["feTurbulence asks for 1000000 octaves; the limit is 10"],
    );
    assert_refused(
        &problems,
        "morphology/wK.svg",
        &["canvas passes; the limit is 256"],
    );
    assert_refused(
        &problems,
        "pattern/wK.svg",
        &["pattern tile is 76800 × 76800 px", "the limit is 1280 px"],
    );
    let _ = std::fs::remove_dir_all(&root);
}

#[test]
fn a_set_svg2pdf_cannot_convert_is_refused_at_load() {
    let root = pieces_dir("nopdf");
    // 30 nested transforms: svg2pdf nests a graphics state for each, and refuses more
    // than 28; resvg draws it without trouble.
    let nested = format!(
        "{}<rect width=\"60\" height=\"60\"/>{}",
        r#"<g transform="translate(1 1)">"#.repeat(30),
        "</g>".repeat(30)
    );
    write_uniform_set(&root, "nested", &drawing(&nested));
    let (_, problems) = load(&root, &[]);
    assert_refused(
        &problems,
        "nested/wK.svg",
        &["cannot be converted to PDF", "TooMuchNesting"],
    );
    let _ = std::fs::remove_dir_all(&root);
}

#[cfg(unix)]
#[test]
fn symbolic_links_out_of_the_pieces_dir_are_refused() {
    let root = pieces_dir("links");
    let elsewhere = pieces_dir("links-elsewhere");
    let plain = builtin_svg("wK");
    // A set folder that is a link to a folder outside.
    let outside_set = write_uniform_set(&elsewhere, "outside", &plain);
    std::os::unix::fs::symlink(&outside_set, root.join("linked")).expect("link");
    // A set whose king is a link to a file outside.
    let sneaky = write_uniform_set(&root, "sneaky", &plain);
    std::fs::remove_file(sneaky.join("wK.svg")).expect("remove");
    std::os::unix::fs::symlink(outside_set.join("wQ.svg"), sneaky.join("wK.svg")).expect("link");
    // Links that stay inside are fine: a folder alias and a shared file.
    let shared = write_uniform_set(&root, "shared", &plain);
    std::os::unix::fs::symlink(&shared, root.join("alias")).expect("link");
    let thrifty = write_uniform_set(&root, "thrifty", &plain);
    std::fs::remove_file(thrifty.join("bK.svg")).expect("remove");
    std::os::unix::fs::symlink(shared.join("bK.svg"), thrifty.join("bK.svg")).expect("link");

    let (_, problems) = load(&root, &["alias", "shared", "thrifty"]);
    assert_eq!(problems.len(), 2, "{problems:#?}");
    assert_refused(
        &problems,
        "linked",
        &["leads outside the pieces directory", "links-elsewhere"],
    );
    assert_refused(
        &problems,
        "sneaky/wK.svg",
        &["leads outside the pieces directory", "outside/wQ.svg"],
    );
    let _ = std::fs::remove_dir_all(&root);
    let _ = std::fs::remove_dir_all(&elsewhere);
}

/// GET `uri` from the service; the status and the body.
async fn get(state: &std::sync::Arc<staunton::http::AppState>, uri: &str) -> (u16, Vec<u8>) {
    use http_body_util::BodyExt;
    use tower::ServiceExt;
    let request = axum::http::Request::get(uri)
        .body(axum::body::Body::empty())
        .expect("request");
    let response = staunton::http::app(state.clone())
        .oneshot(request)
        .await
        .expect("infallible");
    let status = response.status().as_u16();
    let body = response
        .into_body()
        .collect()
        .await
        .expect("body")
        .to_bytes();
    (status, body.to_vec())
}

#[tokio::test]
async fn sets_that_load_are_served_in_every_format_even_at_the_limits() {
    let root = pieces_dir("served");
    // Nested transforms, 10 to 30 deep: the trial keeps exactly those svg2pdf can convert
    // wherever the service converts a piece (a diagram, a worksheet page).
    for depth in 10..=30 {
        let nested = format!(
            "{}<rect width=\"60\" height=\"60\" opacity=\"0.5\"/>{}",
            r#"<g transform="translate(1 1)">"#.repeat(depth),
            "</g>".repeat(depth)
        );
        write_uniform_set(&root, &format!("deep{depth}"), &drawing(&nested));
    }
    // Just under the node limit: a full board of such pieces is within svg2pdf's limit.
    let rects: String = (0..3_900)
        .map(|i| {
            format!(
                r#"<rect x="{}" y="{}" width="0.9" height="0.9"/>"#,
                i % 60,
                i / 60
            )
        })
        .collect();
    write_uniform_set(&root, "dense", &drawing(&rects));
    let (sets, problems) = PieceSets::with_dir(&root);
    let names: Vec<String> = sets.names().map(str::to_string).collect();
    let deepest = names
        .iter()
        .filter_map(|n| n.strip_prefix("deep")?.parse::<usize>().ok())
        .max()
        .expect("some nesting loads");
    assert!((10..30).contains(&deepest), "{names:?}");
    assert!(names.contains(&"dense".to_string()), "{problems:#?}");
    assert_refused(
        &problems,
        &format!("deep{}/wK.svg", deepest + 1),
        &["TooMuchNesting"],
    );

    let state = std::sync::Arc::new(staunton::http::AppState::with_config(
        std::sync::Arc::new(Renderer::new(sets, 1 << 26)),
        staunton::http::Config::default(),
    ));
    let full = "fen=rnabqkbcnr/pppppppppp/pppppppppp/pppppppppp/PPPPPPPPPP/PPPPPPPPPP/PPPPPPPPPP/RNABQKBCNR";
    for set in [format!("deep{deepest}"), "dense".to_string()] {
        for uri in [
            format!("/diagram.pdf?{full}&pieces={set}"),
            format!("/diagram?{full}&pieces={set}"),
            format!("/diagram.svg?{full}&pieces={set}"),
            format!("/piece.svg?piece=wK&pieces={set}"),
            format!("/sheet.pdf?fen=start&fen=start&pieces={set}"),
        ] {
            let (status, body) = get(&state, &uri).await;
            assert_eq!(status, 200, "{uri}: {}", String::from_utf8_lossy(&body));
        }
    }
    let _ = std::fs::remove_dir_all(&root);
}
