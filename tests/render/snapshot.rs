//! The snapshot helper itself (`staunton::snapshot`), in scratch folders: a match, a
//! mismatch of one square and its diff image, the tolerance, the update path (also through
//! `STAUNTON_UPDATE_SNAPSHOTS` in a child process), and every bad input's message.

use staunton::render::RgbaImage;
use staunton::snapshot::{
    self, Mismatch, Outcome, Rect, SnapshotError, Snapshots, Tolerance, UPDATE_VARIABLE,
};
use staunton::{Coordinates, RenderOptions, Renderer};
use std::path::{Path, PathBuf};
use std::process::Command;

/// The start position without the pawn on e2: one square differs.
const NO_E2: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPP1PPP/RNBQKBNR w KQkq - 0 1";

/// An empty scratch folder for one test (the snapshots go in `snaps/` under it, created by
/// the helper).
fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("staunton-snapshot-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("scratch dir");
    dir
}

/// 240 px, no coordinates: the image is the board, squares of 30 px.
fn options() -> RenderOptions {
    RenderOptions {
        size: 240,
        coordinates: Coordinates::None,
        ..RenderOptions::default()
    }
}

/// Snapshots in `dir/snaps` that only compare.
fn comparing(dir: &Path) -> Snapshots {
    Snapshots::new(dir.join("snaps")).update(false)
}

/// Write snapshot `name` of `fen` in `dir/snaps`.
fn recorded(dir: &Path, name: &str, fen: &str) {
    let outcome = Snapshots::new(dir.join("snaps"))
        .update(true)
        .check(name, fen, &options())
        .expect("written");
    assert!(
        matches!(outcome, Outcome::Written { created: true, .. }),
        "{outcome}"
    );
}

fn files(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .map(|entries| {
            entries
                .filter_map(|e| e.ok())
                .map(|e| e.file_name().to_string_lossy().into_owned())
                .collect()
        })
        .unwrap_or_default();
    names.sort();
    names
}

#[test]
fn a_snapshot_that_matches_passes_and_leaves_the_file_alone() {
    let dir = scratch("matches");
    recorded(&dir, "start", "start");
    let path = dir.join("snaps/start.png");
    let before = std::fs::read(&path).expect("snapshot written");
    // The file is staunton's own PNG of the diagram.
    assert_eq!(
        before,
        staunton::render_png("start", &options()).expect("renders")
    );

    let outcome = comparing(&dir)
        .check("start", "start", &options())
        .expect("matches");
    let Outcome::Matched {
        path: matched,
        diff,
    } = outcome
    else {
        panic!("expected a match, got {outcome:?}");
    };
    assert_eq!(matched, path);
    assert_eq!((diff.differing, diff.largest, diff.bounds), (0, 0, None));
    // A parsed position is as good as its FEN; so is a match in update mode, which keeps
    // the file as it was.
    let position = staunton::chess::fen::parse("start").expect("parses");
    comparing(&dir).assert("start", &position, &options());
    let updating = Snapshots::new(dir.join("snaps")).update(true);
    let outcome = updating
        .check("start", position, &options())
        .expect("matches");
    assert!(matches!(outcome, Outcome::Matched { .. }), "{outcome}");
    assert_eq!(std::fs::read(&path).expect("still there"), before);
    assert_eq!(files(&dir.join("snaps")), ["start.png"]);
}

#[test]
fn a_snapshot_one_square_off_fails_naming_the_files_and_the_diff_marks_that_square() {
    let dir = scratch("one-square");
    recorded(&dir, "start", "start");
    let err = comparing(&dir)
        .check("start", NO_E2, &options())
        .expect_err("differs");
    let message = err.to_string();
    let SnapshotError::Mismatch(mismatch) = err else {
        panic!("expected a mismatch: {message}");
    };
    let Mismatch {
        diff,
        actual,
        diff_image,
        expected,
        ..
    } = *mismatch;
    let snaps = dir.join("snaps");
    assert_eq!(expected, snaps.join("start.png"));
    assert_eq!(actual, snaps.join("start.actual.png"));
    assert_eq!(diff_image, snaps.join("start.diff.png"));
    for needle in [
        &format!("{}", actual.display()),
        &format!("{}", diff_image.display()),
        &format!("{} pixels differ by more than 3", diff.differing),
        &UPDATE_VARIABLE.to_string(),
    ] {
        assert!(message.contains(needle.as_str()), "{needle:?} in {message}");
    }

    // e2, White at the bottom: file 4, rank 2.
    let renderer = Renderer::default();
    let position = staunton::chess::fen::parse("start").expect("parses");
    let scene = renderer.scene(&position, &options());
    let e2 = Rect {
        x: scene.board.x + 4 * scene.square,
        y: scene.board.y + 6 * scene.square,
        width: scene.square,
        height: scene.square,
    };
    let bounds = diff.bounds.expect("some pixels differ");
    assert!(
        e2.contains(bounds.x, bounds.y)
            && e2.contains(bounds.x + bounds.width - 1, bounds.y + bounds.height - 1),
        "the box {bounds} lies in e2 {e2}"
    );
    assert!(
        message.contains(&format!("in the box {bounds}")),
        "{message}"
    );

    // The diff image: red exactly where pixels differ, all of them in e2; the box in blue.
    let picture = snapshot::read_png(&diff_image).expect("a PNG");
    assert_eq!((picture.width, picture.height), (240, 240));
    let mut red = 0u64;
    let mut blue = 0u64;
    for (i, px) in picture.pixels.chunks_exact(4).enumerate() {
        let (x, y) = (i as u32 % picture.width, i as u32 / picture.width);
        if px == snapshot::DIFF_RED {
            red += 1;
            assert!(e2.contains(x, y), "red pixel at ({x}, {y}) outside e2 {e2}");
        } else if px == snapshot::DIFF_BOX {
            blue += 1;
        } else {
            assert!(px[0] == px[1] && px[1] == px[2], "grey elsewhere: {px:?}");
        }
    }
    assert_eq!(red, diff.differing);
    assert!(red > 100, "a pawn's worth of pixels: {red}");
    assert!(blue > 0, "the box is drawn");

    // The actual image is the diagram as rendered now.
    let written = snapshot::read_png(&actual).expect("a PNG");
    let now = renderer
        .rgba(
            &staunton::chess::fen::parse(NO_E2).expect("parses"),
            &options(),
        )
        .expect("renders");
    assert_eq!(written, now);

    // Once it matches again, the leftovers go.
    comparing(&dir).assert("start", "start", &options());
    assert_eq!(files(&snaps), ["start.png"]);
}

#[test]
fn the_assert_panics_with_the_same_message() {
    let dir = scratch("panics");
    recorded(&dir, "start", "start");
    let snapshots = comparing(&dir);
    let panic = std::panic::catch_unwind(|| snapshots.assert("start", NO_E2, &options()))
        .expect_err("panics");
    let message = panic
        .downcast_ref::<String>()
        .expect("a formatted message")
        .clone();
    assert!(
        message.starts_with("snapshot start does not match ")
            && message.contains("start.actual.png")
            && message.contains("start.diff.png"),
        "{message}"
    );
}

/// `image` with every channel but alpha of the pixels in `area` raised by `by`.
fn brightened(image: &RgbaImage, area: Rect, by: u8) -> RgbaImage {
    let mut out = image.clone();
    for (i, px) in out.pixels.chunks_exact_mut(4).enumerate() {
        let (x, y) = (i as u32 % image.width, i as u32 / image.width);
        if area.contains(x, y) {
            for c in &mut px[..3] {
                *c = c.saturating_add(by);
            }
        }
    }
    out
}

#[test]
fn differences_within_the_tolerance_pass() {
    let dir = scratch("tolerance");
    recorded(&dir, "start", "start");
    let start = Renderer::default()
        .rgba(
            &staunton::chess::fen::parse("start").expect("parses"),
            &options(),
        )
        .expect("renders");
    let a4 = Rect {
        x: 0,
        y: 120,
        width: 30,
        height: 30,
    };
    let nudged = brightened(&start, a4, 2);
    assert_ne!(nudged, start);

    // 2 per channel is within the default 3.
    let outcome = comparing(&dir)
        .check_image("start", &nudged)
        .expect("within");
    let Outcome::Matched { diff, .. } = outcome else {
        panic!("{outcome:?}");
    };
    assert_eq!((diff.differing, diff.largest), (0, 2));
    assert!(
        diff.to_string()
            .contains("no pixel differs by more than 3 (largest difference 2)")
    );

    // Not within 1.
    let strict = comparing(&dir).tolerance(Tolerance {
        channel: 1,
        pixels: 0,
    });
    let err = strict.check_image("start", &nudged).expect_err("over 1");
    let SnapshotError::Mismatch(mismatch) = &err else {
        panic!("{err}");
    };
    let diff = mismatch.diff;
    assert_eq!(diff.bounds.map(|b| b.width), Some(30), "{err}");
    assert!(diff.differing > 0 && diff.differing <= 900, "{err}");

    // A count of pixels over the tolerance: the missing pawn passes when enough are allowed,
    // and fails by one pixel less.
    let over = match comparing(&dir).check("start", NO_E2, &options()) {
        Err(SnapshotError::Mismatch(mismatch)) => mismatch.diff.differing,
        other => panic!("{other:?}"),
    };
    let allowing = |pixels| comparing(&dir).tolerance(Tolerance { channel: 3, pixels });
    let outcome = allowing(over)
        .check("start", NO_E2, &options())
        .expect("allowed");
    assert!(
        outcome
            .to_string()
            .contains(&format!("{over} pixels differ")),
        "{outcome}"
    );
    assert!(
        allowing(over - 1)
            .check("start", NO_E2, &options())
            .is_err()
    );
}

#[test]
fn the_update_path_writes_new_and_changed_snapshots_and_says_so() {
    let dir = scratch("update");
    let updating = Snapshots::new(dir.join("deep/er/snaps")).update(true);
    let outcome = updating
        .check("position", "start", &options())
        .expect("writes");
    assert_eq!(
        outcome,
        Outcome::Written {
            path: dir.join("deep/er/snaps/position.png"),
            created: true
        }
    );
    assert!(
        outcome
            .to_string()
            .starts_with(&format!("{UPDATE_VARIABLE} is set: wrote new snapshot "))
    );

    // A failure's leftovers, then an intended change written over the snapshot.
    let comparing = Snapshots::new(dir.join("deep/er/snaps")).update(false);
    assert!(comparing.check("position", NO_E2, &options()).is_err());
    assert_eq!(
        files(&dir.join("deep/er/snaps")),
        ["position.actual.png", "position.diff.png", "position.png"]
    );
    let outcome = updating
        .check("position", NO_E2, &options())
        .expect("writes");
    assert!(matches!(outcome, Outcome::Written { created: false, .. }));
    assert!(
        outcome.to_string().contains("wrote changed snapshot"),
        "{outcome}"
    );
    assert_eq!(files(&dir.join("deep/er/snaps")), ["position.png"]);
    comparing.assert("position", NO_E2, &options());

    // A snapshot that is not a PNG fails, and is rewritten when asked to.
    let broken = dir.join("deep/er/snaps/broken.png");
    std::fs::write(&broken, b"not a png").expect("write");
    let err = comparing
        .check("broken", "start", &options())
        .expect_err("not a PNG");
    assert!(
        err.to_string()
            .starts_with(&format!("{} is not a PNG image: ", broken.display())),
        "{err}"
    );
    let outcome = updating
        .check("broken", "start", &options())
        .expect("rewrites");
    assert!(matches!(outcome, Outcome::Written { created: false, .. }));
    comparing.assert("broken", "start", &options());
}

#[test]
fn bad_names_are_refused_before_anything_is_written() {
    let dir = scratch("names");
    let updating = Snapshots::new(dir.join("snaps")).update(true);
    let long = "x".repeat(201);
    let cases: &[(&str, &str)] = &[
        ("", "it is empty"),
        ("a/b", "it contains a path separator"),
        ("a\\b", "it contains a path separator"),
        ("/etc/passwd", "it contains a path separator"),
        ("..", "it contains \"..\""),
        ("x..y", "it contains \"..\""),
        (".hidden", "it starts with '.'"),
        (
            "start.png",
            "it ends in .png: give the name without the extension",
        ),
        (
            "a b",
            "it contains ' ': use ASCII letters, digits, '-', '_' and '.'",
        ),
        ("é", "it contains 'é'"),
        (&long, "it is longer than 200 bytes"),
    ];
    for (name, reason) in cases {
        let err = updating.check(name, "start", &options()).expect_err(name);
        assert!(
            matches!(err, SnapshotError::BadName { .. }),
            "{name}: {err:?}"
        );
        let message = err.to_string();
        assert!(
            message.starts_with("snapshot name \"") && message.contains(reason),
            "{name}: {message}"
        );
    }
    assert!(!dir.join("snaps").exists());
    // And the good ones are fine.
    for name in ["start", "after-1.e4", "Ruy_Lopez.3"] {
        updating.check(name, "start", &options()).expect(name);
    }
}

#[test]
fn a_missing_snapshot_without_the_update_variable_fails_saying_how_to_write_it() {
    let dir = scratch("missing");
    let err = comparing(&dir)
        .check("nowhere", "start", &options())
        .expect_err("missing");
    let path = dir.join("snaps/nowhere.png");
    assert!(matches!(&err, SnapshotError::Missing { path: p } if *p == path));
    assert_eq!(
        err.to_string(),
        format!(
            "snapshot {} does not exist: run the test with STAUNTON_UPDATE_SNAPSHOTS=1 to write it, look at it and commit it",
            path.display()
        )
    );
    assert!(!dir.join("snaps").exists(), "nothing written");
}

#[test]
fn images_of_different_sizes_fail_with_both_sizes() {
    let dir = scratch("sizes");
    recorded(&dir, "start", "start");
    let smaller = RenderOptions {
        size: 200,
        ..options()
    };
    let err = comparing(&dir)
        .check("start", "start", &smaller)
        .expect_err("sizes differ");
    let message = err.to_string();
    assert!(
        matches!(err, SnapshotError::SizeDiffers { .. }),
        "{message}"
    );
    assert!(
        message.contains("the sizes differ: expected 240×240, actual 200×200")
            && message.contains("start.actual.png"),
        "{message}"
    );
    assert_eq!(
        files(&dir.join("snaps")),
        ["start.actual.png", "start.png"],
        "the actual image, no diff"
    );
    let written = snapshot::read_png(&dir.join("snaps/start.actual.png")).expect("PNG");
    assert_eq!((written.width, written.height), (200, 200));
}

#[test]
fn a_bad_fen_or_piece_set_names_the_snapshot() {
    let dir = scratch("bad-input");
    let err = comparing(&dir)
        .check(
            "broken",
            "rnbqkbnr/pppppppp/9/8/8/8/PPPPPPPP/RNBQKBNR",
            &options(),
        )
        .expect_err("bad FEN");
    assert!(matches!(err, SnapshotError::Fen { .. }));
    assert!(err.to_string().starts_with("snapshot broken: "), "{err}");
    let odd = RenderOptions {
        piece_set: "nonesuch".to_string(),
        ..options()
    };
    let err = comparing(&dir)
        .check("odd", "start", &odd)
        .expect_err("bad set");
    assert!(
        err.to_string()
            .starts_with("snapshot odd: pieces \"nonesuch\""),
        "{err}"
    );
}

#[test]
fn compare_reports_the_count_the_largest_difference_and_the_box() {
    let image = |pixels: Vec<u8>| RgbaImage {
        width: 3,
        height: 2,
        pixels,
    };
    let a = image(vec![10; 24]);
    let mut b = a.pixels.clone();
    b[4..8].copy_from_slice(&[10, 20, 10, 10]); // (1, 0): 10 over
    b[20..24].copy_from_slice(&[10, 10, 10, 14]); // (2, 1): 4 over, in alpha
    b[12] = 12; // (0, 1): 2, within
    let b = image(b);
    let diff = snapshot::compare(&a, &b, Tolerance::default()).expect("same size");
    assert_eq!((diff.differing, diff.largest), (2, 10));
    assert_eq!(
        diff.bounds,
        Some(Rect {
            x: 1,
            y: 0,
            width: 2,
            height: 2
        })
    );
    assert!(!diff.matches());
    assert_eq!(
        diff.to_string(),
        "2 pixels differ by more than 3 (0 allowed; largest difference 10) in the box 2×2 at x=1, y=0"
    );
    let loose = Tolerance {
        channel: 10,
        pixels: 0,
    };
    assert!(
        snapshot::compare(&a, &b, loose)
            .expect("same size")
            .matches()
    );

    let wide = RgbaImage {
        width: 2,
        height: 3,
        pixels: vec![0; 24],
    };
    let err = snapshot::compare(&a, &wide, loose).expect_err("sizes");
    assert_eq!(
        err.to_string(),
        "the sizes differ: expected 3×2, actual 2×3"
    );
    // Pixels that do not fill the size cannot be compared either (no panic).
    let short = image(vec![0; 20]);
    assert!(snapshot::compare(&a, &short, loose).is_err());
    assert!(snapshot::diff_image(&a, &short, &diff).is_err());
}

/// Run `child_asserts_in_a_folder` of this test binary in a child process with `update`
/// as the variable (`None`: unset): whether it passed, and its stdout and stderr.
fn child(dir: &Path, name: &str, update: Option<&str>) -> (bool, String) {
    let mut command = Command::new(std::env::current_exe().expect("test binary"));
    command
        // Its name in this binary (tests/render/main.rs): the module, then the function.
        .args([
            "--exact",
            "snapshot::child_asserts_in_a_folder",
            "--ignored",
        ])
        .env("STAUNTON_TEST_SNAPSHOT_DIR", dir)
        .env("STAUNTON_TEST_SNAPSHOT_NAME", name);
    match update {
        Some(value) => command.env(UPDATE_VARIABLE, value),
        None => command.env_remove(UPDATE_VARIABLE),
    };
    let out = command.output().expect("runs");
    let text = String::from_utf8_lossy(&out.stdout) + String::from_utf8_lossy(&out.stderr);
    (out.status.success(), text.into_owned())
}

/// Not a test of its own: the child of `the_update_variable_writes_and_says_so`.
#[test]
#[ignore = "run by the_update_variable_writes_and_says_so"]
fn child_asserts_in_a_folder() {
    let (Some(dir), Some(name)) = (
        std::env::var_os("STAUNTON_TEST_SNAPSHOT_DIR"),
        std::env::var("STAUNTON_TEST_SNAPSHOT_NAME").ok(),
    ) else {
        return;
    };
    Snapshots::new(dir).assert(&name, "start", &options());
}

#[test]
fn the_update_variable_writes_and_says_so() {
    let dir = scratch("variable");
    let snaps = dir.join("snaps");

    let (passed, output) = child(&snaps, "start", None);
    assert!(!passed);
    assert!(
        output.contains("does not exist: run the test with STAUNTON_UPDATE_SNAPSHOTS=1"),
        "{output}"
    );

    let (passed, output) = child(&snaps, "start", Some("1"));
    assert!(passed, "{output}");
    assert!(
        output.contains(&format!(
            "staunton: STAUNTON_UPDATE_SNAPSHOTS is set: wrote new snapshot {}",
            snaps.join("start.png").display()
        )),
        "{output}"
    );
    assert!(snaps.join("start.png").exists());

    // Now it matches without the variable, and `0` compares only.
    for update in [None, Some("0")] {
        let (passed, output) = child(&snaps, "start", update);
        assert!(passed, "{update:?}: {output}");
    }
    let (passed, _) = child(&snaps, "other", Some("0"));
    assert!(!passed);

    let (passed, output) = child(&snaps, "start", Some("maybe"));
    assert!(!passed);
    assert!(
        output.contains(
            "STAUNTON_UPDATE_SNAPSHOTS=\"maybe\" is not allowed: expected 1 (write snapshots) or 0 (compare)"
        ),
        "{output}"
    );
}
