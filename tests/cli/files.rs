//! Every command that writes files writes them safely (`src/safe_write.rs`): a device or
//! FIFO named as the output (directly, or through a link) stays what it is and gets the
//! bytes; a link planted where the output or a temporary goes is not followed; a run that
//! fails leaves the folder as it was, images included.

use std::collections::BTreeSet;
use std::os::unix::fs::{FileTypeExt as _, symlink};
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

fn staunton(dir: &Path) -> Command {
    let mut command = Command::new(env!("CARGO_BIN_EXE_staunton"));
    command.current_dir(dir);
    command
}

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("staunton-files-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("scratch dir");
    dir
}

fn run(dir: &Path, args: &[&str]) -> Output {
    staunton(dir)
        .args(args)
        .stdin(Stdio::null())
        .output()
        .expect("runs")
}

/// Every entry under `dir` (links not followed), relative, `/` after folders, `@` after
/// links.
fn listing(dir: &Path) -> BTreeSet<String> {
    fn walk(root: &Path, dir: &Path, into: &mut BTreeSet<String>) {
        for entry in std::fs::read_dir(dir).expect("listable") {
            let path = entry.expect("entry").path();
            let name = path.strip_prefix(root).expect("under root").display();
            let kind = std::fs::symlink_metadata(&path).expect("there").file_type();
            if kind.is_symlink() {
                into.insert(format!("{name}@"));
            } else if kind.is_dir() {
                into.insert(format!("{name}/"));
                walk(root, &path, into);
            } else {
                into.insert(name.to_string());
            }
        }
    }
    let mut all = BTreeSet::new();
    walk(dir, dir, &mut all);
    all
}

fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

const GAME: &str = "[White \"A\"]\n[Black \"B\"]\n\n1. e4 {A comment.} e5 2. Nf3 *\n";
const DOCUMENT: &str = "# Doc\n\n```fen\nstart\n```\n\nThe end.\n";
/// Two positions: two pages with `--columns 1 --rows 1`.
const POSITIONS: &str = "start\n8/8/8/8/8/8/8/k6K w - - 0 1\n";

/// The inputs every command reads, written into `dir`.
fn inputs(dir: &Path) {
    std::fs::write(dir.join("game.pgn"), GAME).expect("input");
    std::fs::write(dir.join("doc.md"), DOCUMENT).expect("input");
    std::fs::write(dir.join("two.fen"), POSITIONS).expect("input");
    let start = staunton::render_png("start", &Default::default()).expect("renders");
    let empty = staunton::render_png("empty", &Default::default()).expect("renders");
    std::fs::write(dir.join("a.png"), start).expect("input");
    std::fs::write(dir.join("b.png"), empty).expect("input");
}

/// Each command that writes one named file: its name, its arguments with `OUT` where
/// the output goes, the output's extension, and its exit status on success.
const COMMANDS: &[(&str, &[&str], &str, i32)] = &[
    (
        "render",
        &["render", "start", "--size", "64", "-o", "OUT"],
        "png",
        0,
    ),
    (
        "render --pgn",
        &["render", "--pgn", "game.pgn", "--size", "64", "-o", "OUT"],
        "gif",
        0,
    ),
    (
        "render --card",
        &["render", "--card", "start", "-o", "OUT"],
        "png",
        0,
    ),
    ("article", &["article", "game.pgn", "-o", "OUT"], "html", 0),
    ("sheet", &["sheet", "two.fen", "-o", "OUT"], "svg", 0),
    ("markdown -o", &["markdown", "doc.md", "-o", "OUT"], "md", 0),
    (
        "compare --diff",
        &["compare", "a.png", "b.png", "--diff", "OUT"],
        "png",
        1,
    ),
];

fn with_output<'a>(args: &[&'a str], output: &'a str) -> Vec<&'a str> {
    args.iter()
        .map(|a| if *a == "OUT" { output } else { a })
        .collect()
}

fn is_char_device(path: &str) -> bool {
    std::fs::metadata(path)
        .expect("there")
        .file_type()
        .is_char_device()
}

/// Whether the tests run as root: the owner of a file just made in `dir`.
fn is_root(dir: &Path) -> bool {
    use std::os::unix::fs::MetadataExt as _;
    std::fs::metadata(dir.join("doc.md")).is_ok_and(|m| m.uid() == 0)
}

#[test]
fn a_device_named_as_the_output_stays_a_device() {
    for (name, args, extension, status) in COMMANDS {
        let dir = scratch(&format!("device-{extension}-{}", name.len()));
        inputs(&dir);
        let output = format!("out.{extension}");
        symlink("/dev/null", dir.join(&output)).expect("link");
        let before = listing(&dir);
        let out = run(&dir, &with_output(args, &output));
        assert_eq!(out.status.code(), Some(*status), "{name}: {}", stderr(&out));
        assert_eq!(
            listing(&dir),
            before,
            "{name}: the link stays, nothing else"
        );
        assert!(is_char_device("/dev/null"), "{name}");
        let _ = std::fs::remove_dir_all(&dir);
    }
    // /dev/null itself (a name without an extension takes --format). Not as root: there
    // a regression would replace the machine's /dev/null with a file; the links above
    // take the same path through the code.
    let dir = scratch("dev-null");
    inputs(&dir);
    if is_root(&dir) {
        let _ = std::fs::remove_dir_all(&dir);
        return;
    }
    let before = listing(&dir);
    for args in [
        &["markdown", "doc.md", "-o", "/dev/null"][..],
        &[
            "render",
            "start",
            "--size",
            "64",
            "--format",
            "png",
            "-o",
            "/dev/null",
        ],
        &["markdown", "doc.md", "-o", "/dev/stdout"],
    ] {
        let out = run(&dir, args);
        assert!(out.status.success(), "{args:?}: {}", stderr(&out));
        assert!(is_char_device("/dev/null"), "{args:?}");
    }
    assert_eq!(listing(&dir), before);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn render_input_writes_through_a_device_among_its_files() {
    let dir = scratch("device-batch");
    inputs(&dir);
    std::fs::create_dir(dir.join("out")).expect("folder");
    symlink("/dev/null", dir.join("out/line-00001.png")).expect("link");
    let args = [
        "render",
        "--input",
        "two.fen",
        "--out-dir",
        "out",
        "--size",
        "64",
    ];
    let out = run(&dir, &args);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(is_char_device("/dev/null"));
    let files = listing(&dir.join("out"));
    assert_eq!(
        files,
        ["line-00001.png@", "line-00002.png"]
            .map(String::from)
            .into()
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_link_at_the_output_is_not_followed() {
    for (name, args, extension, _) in COMMANDS {
        let dir = scratch(&format!("link-{extension}-{}", name.len()));
        inputs(&dir);
        std::fs::write(dir.join("victim"), "precious").expect("victim");
        let output = format!("out.{extension}");
        symlink(dir.join("victim"), dir.join(&output)).expect("link");
        let before = listing(&dir);
        let out = run(&dir, &with_output(args, &output));
        assert_eq!(out.status.code(), Some(2), "{name}: {}", stderr(&out));
        assert!(
            stderr(&out).contains("link to a file"),
            "{name}: {}",
            stderr(&out)
        );
        let victim = std::fs::read_to_string(dir.join("victim")).expect("victim");
        assert_eq!(victim, "precious", "{name}");
        assert_eq!(listing(&dir), before, "{name}");
        let _ = std::fs::remove_dir_all(&dir);
    }
}

/// Runs `args` through `sh`, which first plants a link to `victim` at each of `planted`
/// (with `PID` the process id the command will have: `exec` keeps the shell's).
fn run_with_planted(dir: &Path, planted: &[String], args: &[&str], stdin: &str) -> Output {
    use std::io::Write as _;
    let links: String = planted
        .iter()
        .map(|p| format!("ln -s victim \"{}\"; ", p.replace("PID", "$$")))
        .collect();
    let mut child = Command::new("sh")
        .current_dir(dir)
        .arg("-c")
        .arg(format!("{links}exec \"$0\" \"$@\""))
        .arg(env!("CARGO_BIN_EXE_staunton"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("runs");
    let mut input = child.stdin.take().expect("stdin");
    input.write_all(stdin.as_bytes()).expect("stdin written");
    drop(input);
    child.wait_with_output().expect("runs")
}

#[test]
fn links_planted_at_the_old_temporary_names_are_not_followed() {
    use staunton::markdown::fence;
    let image = fence::read("fen", "start\n", &[], staunton::Format::Svg)
        .expect("a diagram")
        .file_name();
    let cases: [(&[&str], Vec<String>, &str); 3] = [
        (
            &["markdown", "doc.md", "-o", "out.md"],
            vec![".out.md.PID.tmp".into()],
            "out.md",
        ),
        (
            &["markdown", "doc.md", "--images", "img", "-o", "out.md"],
            vec![".out.md.PID.tmp".into(), format!("img/.{image}.PID.tmp")],
            "img",
        ),
        (
            &["fence", "--info", "fen", "--images", "img"],
            vec![format!("img/.{image}.PID.tmp")],
            "img",
        ),
    ];
    for (args, planted, written) in cases {
        let dir = scratch("planted");
        inputs(&dir);
        std::fs::create_dir(dir.join("img")).expect("folder");
        std::fs::write(dir.join("victim"), "precious").expect("victim");
        std::fs::write(dir.join("img/victim"), "precious").expect("victim");
        let out = run_with_planted(&dir, &planted, args, "start\n");
        assert!(out.status.success(), "{args:?}: {}", stderr(&out));
        for victim in ["victim", "img/victim"] {
            let text = std::fs::read_to_string(dir.join(victim)).expect("victim");
            assert_eq!(text, "precious", "{args:?}: {victim}");
        }
        for link in &planted {
            let links: Vec<String> = listing(&dir)
                .into_iter()
                .filter(|l| l.ends_with(".tmp@"))
                .collect();
            let prefix = link.split("PID").next().expect("a prefix");
            assert!(
                links.iter().any(|l| l.starts_with(prefix)),
                "{link}: {links:?}"
            );
        }
        assert!(dir.join(written).exists(), "{args:?}");
        if written == "img" {
            assert!(dir.join("img").join(&image).is_file(), "{args:?}");
        }
        let _ = std::fs::remove_dir_all(&dir);
    }
}

#[test]
fn a_failed_run_leaves_the_folder_as_it_was() {
    let dir = scratch("failed");
    inputs(&dir);
    std::fs::write(dir.join("bad.pgn"), "1. e4 e5 2. Ke3 *\n").expect("input");
    let bad_doc =
        format!("{DOCUMENT}\n```fen\nstart\narrows: e2e4\n```\n\n```fen size=9000\nstart\n```\n");
    std::fs::write(dir.join("bad.md"), bad_doc).expect("input");
    std::fs::write(dir.join("old.png"), "old").expect("an old output");
    // The second page of the sheet cannot be written: a folder has its name.
    std::fs::create_dir(dir.join("pages-2.svg")).expect("folder");
    let before = listing(&dir);
    let long_title = "x".repeat(300);
    let runs: &[&[&str]] = &[
        &[
            "render",
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNX",
            "-o",
            "old.png",
        ],
        &["render", "--pgn", "bad.pgn", "-o", "old.png"],
        &[
            "render",
            "--card",
            "start",
            "--title",
            &long_title,
            "-o",
            "old.png",
        ],
        &["article", "bad.pgn", "-o", "out.html"],
        &[
            "sheet",
            "two.fen",
            "-o",
            "pages.svg",
            "--columns",
            "1",
            "--rows",
            "1",
        ],
        &["markdown", "bad.md", "-o", "out.md"],
        &["markdown", "bad.md", "--images", "img", "-o", "out.md"],
        &["markdown", "bad.md", "--images", "deep/img"],
        &["compare", "a.png", "missing.png", "--diff", "diff.png"],
    ];
    for args in runs {
        let out = run(&dir, args);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {}", stderr(&out));
        assert_eq!(listing(&dir), before, "{args:?}: {}", stderr(&out));
        let old = std::fs::read_to_string(dir.join("old.png")).expect("old output");
        assert_eq!(old, "old", "{args:?}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_failed_document_keeps_the_images_that_were_there() {
    let dir = scratch("failed-kept");
    inputs(&dir);
    let good = run(&dir, &["markdown", "doc.md", "--images", "img"]);
    assert!(good.status.success(), "{}", stderr(&good));
    let before = listing(&dir);
    assert_eq!(
        before
            .iter()
            .filter(|f| f.starts_with("img/") && *f != "img/")
            .count(),
        1
    );
    let bad = format!("{DOCUMENT}\n```fen\nempty\n```\n\n```fen size=9000\nstart\n```\n");
    std::fs::write(dir.join("bad.md"), bad).expect("input");
    let before = listing(&dir);
    let out = run(&dir, &["markdown", "bad.md", "--images", "img"]);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert_eq!(
        listing(&dir),
        before,
        "the image of `start` stays, `empty`'s is gone"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// Linux's `O_NONBLOCK`, for opening a FIFO's reading end without waiting for a writer.
#[cfg(target_os = "linux")]
const O_NONBLOCK: i32 = 0o4000;

/// Runs `args` in `dir` with a FIFO at `fifo`, read while the command writes it; the
/// bytes read.
#[cfg(target_os = "linux")]
fn through_fifo(dir: &Path, fifo: &str, args: &[&str]) -> Vec<u8> {
    use std::io::Read as _;
    use std::os::unix::fs::OpenOptionsExt as _;
    let made = Command::new("mkfifo").arg(dir.join(fifo)).status();
    assert!(made.expect("mkfifo runs").success());
    let mut reader = std::fs::OpenOptions::new()
        .read(true)
        .custom_flags(O_NONBLOCK)
        .open(dir.join(fifo))
        .expect("the reading end");
    let mut child = staunton(dir)
        .args(args)
        .stderr(Stdio::piped())
        .spawn()
        .expect("runs");
    let (mut bytes, mut buffer) = (Vec::new(), [0u8; 65536]);
    let start = std::time::Instant::now();
    loop {
        match reader.read(&mut buffer) {
            Ok(n) => bytes.extend_from_slice(&buffer[..n]),
            Err(e) if e.kind() == std::io::ErrorKind::WouldBlock => {}
            Err(e) => panic!("{e}"),
        }
        if let Some(status) = child.try_wait().expect("waits") {
            let rest = reader.read_to_end(&mut bytes);
            assert!(
                rest.is_ok() || rest.is_err_and(|e| e.kind() == std::io::ErrorKind::WouldBlock)
            );
            assert!(status.success(), "{args:?}");
            break;
        }
        if start.elapsed() > std::time::Duration::from_secs(120) {
            let _ = child.kill();
            panic!("{args:?} did not finish");
        }
        std::thread::sleep(std::time::Duration::from_millis(5));
    }
    let kind = std::fs::symlink_metadata(dir.join(fifo))
        .expect("there")
        .file_type();
    assert!(kind.is_fifo(), "{args:?}: the FIFO stays a FIFO");
    bytes
}

#[cfg(target_os = "linux")]
#[test]
fn a_fifo_named_as_the_output_gets_the_bytes() {
    let dir = scratch("fifo");
    inputs(&dir);
    let document = through_fifo(&dir, "out.md", &["markdown", "doc.md", "-o", "out.md"]);
    let document = String::from_utf8(document).expect("UTF-8");
    assert!(
        document.starts_with("# Doc\n\n<div") && document.ends_with("The end.\n"),
        "{document}"
    );
    let png = through_fifo(
        &dir,
        "out.png",
        &["render", "start", "--size", "64", "-o", "out.png"],
    );
    assert_eq!(
        png,
        staunton::render_png(
            "start",
            &staunton::RenderOptions {
                size: 64,
                ..Default::default()
            }
        )
        .expect("renders")
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// A block device at `path`, with major number 240 (kept for local use: no driver is
/// behind it, so a regression cannot reach a disk; opening it fails); `false`, with the
/// reason printed, where making one is not permitted (not root, or no CAP_MKNOD).
fn block_device(path: &Path) -> bool {
    let made = Command::new("mknod")
        .arg(path)
        .args(["b", "240", "0"])
        .output();
    let why = match made {
        Ok(out) if out.status.success() => return true,
        Ok(out) => stderr(&out),
        Err(e) => e.to_string(),
    };
    eprintln!(
        "skipped: cannot make a block device with mknod ({})",
        why.trim()
    );
    false
}

#[test]
fn a_block_device_or_a_link_to_one_is_refused_and_nothing_is_written() {
    let dir = scratch("block");
    inputs(&dir);
    if !block_device(&dir.join("disk")) {
        let _ = std::fs::remove_dir_all(&dir);
        return;
    }
    let is_block = |dir: &Path| {
        use std::os::unix::fs::FileTypeExt as _;
        let kind = std::fs::symlink_metadata(dir.join("disk")).expect("there");
        kind.file_type().is_block_device()
    };
    let mut runs: Vec<(String, Vec<String>)> = COMMANDS
        .iter()
        .enumerate()
        .map(|(i, (name, args, extension, _))| {
            let output = format!("out-{i}.{extension}");
            symlink("disk", dir.join(&output)).expect("link");
            let args = with_output(args, &output).into_iter().map(String::from);
            (name.to_string(), args.collect())
        })
        .collect();
    let direct = ["render", "start", "--format", "png", "-o", "disk"];
    runs.push(("render -o disk".into(), direct.map(String::from).to_vec()));
    let before = listing(&dir);
    for (name, args) in runs {
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let out = run(&dir, &args);
        assert_eq!(out.status.code(), Some(2), "{name}: {}", stderr(&out));
        assert!(
            stderr(&out).contains("block device (a disk), which is never written"),
            "{name}: {}",
            stderr(&out)
        );
        assert!(is_block(&dir), "{name}");
        assert_eq!(listing(&dir), before, "{name}: nothing written");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_batch_error_says_why_the_file_could_not_be_written() {
    let dir = scratch("batch-why");
    inputs(&dir);
    std::fs::create_dir(dir.join("out")).expect("folder");
    std::fs::write(dir.join("victim"), "precious").expect("victim");
    symlink("../victim", dir.join("out/line-00001.png")).expect("link");
    let args = ["render", "--input", "two.fen", "--out-dir", "out"];
    let out = run(&dir, &args);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    let line = "two.fen:1: cannot write out/line-00001.png: it is a link to a file, which is \
                not written through (remove the link, or name the file itself)";
    assert!(stderr(&out).lines().any(|l| l == line), "{}", stderr(&out));
    assert_eq!(
        std::fs::read_to_string(dir.join("victim")).expect("victim"),
        "precious"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_replaced_file_keeps_its_owner_group_and_mode() {
    use std::os::unix::fs::{MetadataExt as _, PermissionsExt as _};
    let dir = scratch("owner");
    inputs(&dir);
    if !is_root(&dir) {
        eprintln!("skipped: only root may give a file to another user");
        let _ = std::fs::remove_dir_all(&dir);
        return;
    }
    let runs: [(&str, &[&str]); 3] = [
        (
            "out.png",
            &["render", "start", "--size", "64", "-o", "out.png"],
        ),
        ("out.md", &["markdown", "doc.md", "-o", "out.md"]),
        ("pages.svg", &["sheet", "two.fen", "-o", "pages.svg"]),
    ];
    for (output, args) in runs {
        let path = dir.join(output);
        std::fs::write(&path, "old").expect("an old output");
        std::os::unix::fs::chown(&path, Some(1234), Some(1235)).expect("chown");
        let mode = std::fs::Permissions::from_mode(0o640);
        std::fs::set_permissions(&path, mode).expect("chmod");
        let out = run(&dir, args);
        assert!(out.status.success(), "{args:?}: {}", stderr(&out));
        let m = std::fs::symlink_metadata(&path).expect("there");
        assert_ne!(std::fs::read(&path).expect("written"), b"old", "{args:?}");
        assert_eq!(
            (m.uid(), m.gid(), m.mode() & 0o7777),
            (1234, 1235, 0o640),
            "{args:?}"
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn whatever_is_planted_at_an_images_name_is_replaced_not_trusted() {
    use staunton::markdown::fence;
    let image = fence::read("fen", "start\n", &[], staunton::Format::Svg)
        .expect("a diagram")
        .file_name();
    let clean = scratch("planted-image-clean");
    inputs(&clean);
    let out = run(&clean, &["markdown", "doc.md", "--images", "img"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let want = std::fs::read(clean.join("img").join(&image)).expect("the image");
    let _ = std::fs::remove_dir_all(&clean);
    let script = "<svg xmlns=\"http://www.w3.org/2000/svg\"><script>alert(1)</script></svg>";
    let markdown: &[&str] = &["markdown", "doc.md", "--images", "img", "-o", "out.md"];
    let fence: &[&str] = &["fence", "--info", "fen", "--images", "img"];
    for args in [markdown, fence] {
        for planted in ["link", "script"] {
            let dir = scratch("planted-image");
            inputs(&dir);
            std::fs::create_dir(dir.join("img")).expect("folder");
            std::fs::write(dir.join("victim"), "precious").expect("victim");
            let at = dir.join("img").join(&image);
            match planted {
                "link" => symlink("../victim", &at).expect("link"),
                _ => std::fs::write(&at, script).expect("planted"),
            }
            let out = run_with_planted(&dir, &[], args, "start\n");
            assert!(out.status.success(), "{args:?} {planted}: {}", stderr(&out));
            let kind = std::fs::symlink_metadata(&at).expect("there").file_type();
            assert!(kind.is_file(), "{args:?} {planted}: a file now");
            let got = std::fs::read(&at).expect("the image");
            assert!(got == want, "{args:?} {planted}: the rendered image");
            let victim = std::fs::read_to_string(dir.join("victim")).expect("victim");
            assert_eq!(victim, "precious", "{args:?} {planted}");
            let _ = std::fs::remove_dir_all(&dir);
        }
    }
}
