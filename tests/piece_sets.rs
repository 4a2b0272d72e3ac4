//! Piece sets loaded from a folder at start-up (`--pieces-dir`).

mod common;

use staunton::pieces::PieceSets;
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
    std::fs::write(root.join("README.txt"), "not a set").expect("file");

    let (sets, problems) = PieceSets::with_dir(&root);
    let names: Vec<&str> = sets.names().collect();
    assert_eq!(names, ["staunton", "lichess", "pychess"]);
    assert_eq!(problems.len(), 3, "{problems:#?}");
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
        "pieces \"partial\" is not allowed: expected one of staunton, lichess, pychess"
    );
    let _ = std::fs::remove_dir_all(&root);
}

#[test]
fn a_missing_pieces_dir_is_reported_not_fatal() {
    let (sets, problems) = PieceSets::with_dir(Path::new("/nonexistent/staunton/pieces"));
    assert_eq!(sets.names().collect::<Vec<_>>(), ["staunton"]);
    assert_eq!(problems.len(), 1);
    assert!(problems[0].contains("/nonexistent/staunton/pieces"));
}
