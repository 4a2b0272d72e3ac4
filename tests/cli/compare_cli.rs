//! `staunton compare` as a real process: exit status 0 when equal within the tolerance,
//! 1 when not (with the count and the box of differing pixels), 2 on bad input.

use staunton::snapshot::{self, Tolerance};
use staunton::{Coordinates, RenderOptions};
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// The start position without the pawn on e2.
const NO_E2: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPP1PPP/RNBQKBNR w KQkq - 0 1";

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("staunton-compare-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("scratch dir");
    dir
}

/// `fen` at `size` px without coordinates, written to `dir/name`.
fn png(dir: &Path, name: &str, fen: &str, size: u32) -> PathBuf {
    let options = RenderOptions {
        size,
        coordinates: Coordinates::None,
        ..RenderOptions::default()
    };
    let path = dir.join(name);
    std::fs::write(&path, staunton::render_png(fen, &options).expect("renders")).expect("write");
    path
}

fn compare(args: &[&Path], flags: &[&str]) -> (Option<i32>, String, String) {
    let out: Output = Command::new(env!("CARGO_BIN_EXE_staunton"))
        .arg("compare")
        .args(args)
        .args(flags)
        .output()
        .expect("runs");
    let text = |b: &[u8]| String::from_utf8_lossy(b).into_owned();
    (out.status.code(), text(&out.stdout), text(&out.stderr))
}

#[test]
fn equal_images_exit_0() {
    let dir = scratch("equal");
    let a = png(&dir, "a.png", "start", 240);
    let b = png(&dir, "b.png", "start", 240);
    let diff = dir.join("diff.png");
    let (code, stdout, _) = compare(&[&a, &b], &["--diff", diff.to_str().expect("utf-8")]);
    assert_eq!(code, Some(0), "{stdout}");
    assert_eq!(
        stdout,
        format!(
            "{} and {} are equal: no pixel differs by more than 3 (largest difference 0)\n",
            a.display(),
            b.display()
        )
    );
    assert!(!diff.exists(), "no diff image for equal images");
}

#[test]
fn different_images_exit_1_with_the_count_and_the_box_and_a_diff_image() {
    let dir = scratch("differ");
    let a = png(&dir, "a.png", "start", 240);
    let b = png(&dir, "b.png", NO_E2, 240);
    let expected = snapshot::read_png(&a).expect("PNG");
    let actual = snapshot::read_png(&b).expect("PNG");
    let diff = snapshot::compare(&expected, &actual, Tolerance::default()).expect("same size");
    let bounds = diff.bounds.expect("they differ");

    let (code, stdout, stderr) = compare(&[&a, &b], &[]);
    assert_eq!(code, Some(1), "{stderr}");
    assert_eq!(
        stdout,
        format!(
            "{} and {} differ: {} pixels differ by more than 3 (0 allowed; largest difference {}) in the box {}×{} at x={}, y={}\n",
            a.display(),
            b.display(),
            diff.differing,
            diff.largest,
            bounds.width,
            bounds.height,
            bounds.x,
            bounds.y
        )
    );
    assert_eq!(stderr, "");

    let picture = dir.join("out/diff.png");
    std::fs::create_dir_all(dir.join("out")).expect("dir");
    let (code, stdout, _) = compare(&[&a, &b], &["--diff", picture.to_str().expect("utf-8")]);
    assert_eq!(code, Some(1));
    assert!(
        stdout.ends_with(&format!("\nwrote {}\n", picture.display())),
        "{stdout}"
    );
    let written = snapshot::read_png(&picture).expect("the diff is a PNG");
    assert_eq!((written.width, written.height), (240, 240));
    let red = written
        .pixels
        .chunks_exact(4)
        .filter(|px| *px == snapshot::DIFF_RED)
        .count();
    assert_eq!(red as u64, diff.differing);

    // Allowing that many pixels, or any difference, makes them equal.
    let count = diff.differing.to_string();
    let (code, stdout, _) = compare(&[&a, &b], &["--max-pixels", &count]);
    assert_eq!(code, Some(0), "{stdout}");
    assert!(
        stdout.contains(&format!(
            "are equal: {count} pixels differ by more than 3 ({count} allowed"
        )),
        "{stdout}"
    );
    let (code, _, _) = compare(&[&a, &b], &["--tolerance", "255"]);
    assert_eq!(code, Some(0));
}

#[test]
fn images_of_different_sizes_exit_1() {
    let dir = scratch("sizes");
    let a = png(&dir, "a.png", "start", 240);
    let b = png(&dir, "b.png", "start", 200);
    let (code, stdout, _) = compare(&[&a, &b], &["--diff", "unused.png"]);
    assert_eq!(code, Some(1));
    assert_eq!(
        stdout,
        format!(
            "{} and {} differ: the sizes differ: expected 240×240, actual 200×200\n",
            a.display(),
            b.display()
        )
    );
}

#[test]
fn bad_input_exits_2_with_one_line() {
    let dir = scratch("bad");
    let a = png(&dir, "a.png", "start", 240);
    let text = dir.join("notes.png");
    std::fs::write(&text, "not an image").expect("write");
    let missing = dir.join("missing.png");
    let cases: Vec<(Vec<&Path>, Vec<&str>, String)> = vec![
        (
            vec![&a, &missing],
            vec![],
            format!("staunton: cannot read {}: ", missing.display()),
        ),
        (
            vec![&text, &a],
            vec![],
            format!("staunton: {} is not a PNG image: ", text.display()),
        ),
        (
            vec![&a, &a],
            vec!["--tolerance", "300"],
            "error: invalid value '300'".to_string(),
        ),
        (
            vec![&a],
            vec![],
            "error: the following required arguments".to_string(),
        ),
    ];
    for (files, flags, start) in cases {
        let (code, stdout, stderr) = compare(&files, &flags);
        assert_eq!(code, Some(2), "{files:?} {flags:?}: {stderr}");
        assert!(stderr.starts_with(&start), "{start:?}: {stderr}");
        assert_eq!(stdout, "");
        if start.starts_with("staunton:") {
            assert_eq!(stderr.trim_end().lines().count(), 1, "{stderr}");
        }
    }
}
