//! The text board (`format=txt`) of every position of the FEN corpus
//! (`tests/fixtures/valid.fen`), in both styles, against `tests/golden_text/`; and the
//! format's promises (no trailing spaces, one newline at the end, aligned columns) in
//! every orientation and placement of coordinates.
//!
//! A mismatch writes `NAME.actual.txt` beside the golden file. `UPDATE_GOLDEN=1 cargo test
//! --test chess text_board` rewrites the golden files and then fails, so a rewrite is never
//! a silent pass: read the diff, commit it, and run the tests again.

use crate::common;

use staunton::Renderer;
use staunton::render::options::{Coordinates, Format, Orientation, TextStyle};
use staunton::request::Request;
use std::path::PathBuf;

/// The valid corpus: (line number, FEN as written).
fn corpus() -> Vec<(usize, String)> {
    let text = std::fs::read_to_string(common::fixture("valid.fen")).expect("the corpus");
    text.lines()
        .enumerate()
        .filter(|(_, l)| !l.starts_with('#') && !l.trim().is_empty())
        .map(|(i, l)| {
            let fen = l.split('\t').next().expect("a FEN");
            (i + 1, fen.to_string())
        })
        .collect()
}

/// Every position of the corpus as text in `style`, each under a `#` line naming it.
fn document(style: TextStyle) -> String {
    let renderer = Renderer::default();
    let mut out = String::new();
    for (line, fen) in corpus() {
        let query = [("fen", fen.as_str()), ("style", style.name())];
        let request = Request::from_pairs(query, Some(Format::Txt)).expect("a valid FEN");
        out.push_str(&format!("# valid.fen line {line}: {}\n", fen.trim()));
        out.push_str(&renderer.text(&request.position, &request.options));
        out.push('\n');
    }
    out
}

fn golden_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/golden_text")
}

#[test]
fn the_corpus_as_text_matches_the_golden_files() {
    let update = std::env::var_os("UPDATE_GOLDEN").is_some_and(|v| v == "1");
    let mut failures = Vec::new();
    for style in TextStyle::ALL {
        let name = format!("valid.{}", style.name());
        let path = golden_dir().join(format!("{name}.txt"));
        let actual = document(style);
        if update {
            std::fs::create_dir_all(golden_dir()).expect("the golden folder");
            std::fs::write(&path, &actual).expect("golden written");
            failures.push(format!("{} rewritten", path.display()));
            continue;
        }
        let expected = std::fs::read_to_string(&path).unwrap_or_default();
        let actual_path = golden_dir().join(format!("{name}.actual.txt"));
        if expected == actual {
            let _ = std::fs::remove_file(&actual_path);
            continue;
        }
        std::fs::write(&actual_path, &actual).expect("actual written");
        let first = expected
            .lines()
            .zip(actual.lines())
            .position(|(e, a)| e != a)
            .unwrap_or(expected.lines().count().min(actual.lines().count()));
        failures.push(format!(
            "{} differs from {} from line {} on: expected {:?}, got {:?}",
            actual_path.display(),
            path.display(),
            first + 1,
            expected.lines().nth(first).unwrap_or("(the end)"),
            actual.lines().nth(first).unwrap_or("(the end)"),
        ));
    }
    assert!(
        failures.is_empty(),
        "{}{}",
        failures.join("\n"),
        if update {
            "\nUPDATE_GOLDEN=1 rewrote the golden text boards: review and commit them, then \
             run the tests without it"
        } else {
            ""
        }
    );
}

#[test]
fn every_board_keeps_the_format_s_promises() {
    let renderer = Renderer::default();
    for (line, fen) in corpus() {
        let position = staunton::chess::fen::parse(&fen).expect("valid");
        for style in TextStyle::ALL {
            for orientation in [Orientation::White, Orientation::Black, Orientation::Turn] {
                for coordinates in [Coordinates::Outside, Coordinates::Inside, Coordinates::None] {
                    let options = staunton::RenderOptions {
                        orientation,
                        coordinates,
                        text_style: style,
                        // Marks and image options change nothing.
                        size: 123,
                        arrows: vec![staunton::render::options::Arrow {
                            from: staunton::Square::new(4, 1),
                            to: staunton::Square::new(4, 3),
                            color: staunton::render::theme::MarkColor::Red,
                        }],
                        ..Default::default()
                    };
                    let text = renderer.text(&position, &options);
                    let plain = staunton::RenderOptions {
                        orientation,
                        coordinates,
                        text_style: style,
                        ..Default::default()
                    };
                    let what = format!("line {line} {style:?} {orientation:?} {coordinates:?}");
                    assert_eq!(text, renderer.text(&position, &plain), "{what}");
                    assert!(text.ends_with('\n') && !text.ends_with("\n\n"), "{what}");
                    assert!(!text.contains('\r') && !text.contains('\t'), "{what}");
                    let lines: Vec<&str> = text.lines().collect();
                    assert!(lines.iter().all(|l| !l.ends_with(' ')), "{what}:\n{text}");
                    let side = if position.turn == staunton::Color::White {
                        "White to move"
                    } else {
                        "Black to move"
                    };
                    assert_eq!(lines.last(), Some(&side), "{what}");
                    // Rows: one per rank, every square two characters wide (the last one's
                    // marker trimmed when it is a space and nothing follows).
                    let files = usize::from(position.files());
                    let pockets = usize::from(position.pocket.is_some());
                    let rows = &lines[pockets + usize::from(coordinates == Coordinates::Outside)..];
                    for row in &rows[..8] {
                        let width = row.chars().count();
                        let expected = match coordinates {
                            Coordinates::Outside => 2 + 2 + 2 * files + 1,
                            Coordinates::Inside => 2 + 2 * files,
                            Coordinates::None => 2 * files,
                        };
                        assert!(
                            width == expected || width == expected - 1,
                            "{what}: {row:?} is {width} characters"
                        );
                    }
                    let extra = match coordinates {
                        Coordinates::Outside => 4,
                        Coordinates::Inside => 2,
                        Coordinates::None => 1,
                    };
                    assert_eq!(lines.len(), 8 + extra + 2 * pockets, "{what}:\n{text}");
                    // Every piece of the position, and nothing else, on the rows.
                    let pieces = rows[..8]
                        .iter()
                        .flat_map(|r| r.chars())
                        .filter(|c| c.is_ascii_alphabetic() || ('♔'..='♟').contains(c))
                        .count();
                    assert_eq!(pieces, position.pieces().count(), "{what}:\n{text}");
                }
            }
        }
    }
}
