//! `staunton markdown` and `staunton fence` as real processes: the modes, the files they
//! write (and nothing else), and their errors (exit status 2, one line, the HTTP 400's
//! sentence).

use crate::common;

use crate::common::listing;
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

fn staunton(dir: &Path) -> Command {
    let mut command = Command::new(env!("CARGO_BIN_EXE_staunton"));
    command.current_dir(dir);
    command
}

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("staunton-mdcli-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("scratch dir");
    dir
}

/// Run `args` in `dir` with `stdin` as standard input.
fn run(dir: &Path, args: &[&str], stdin: &[u8]) -> Output {
    use std::io::Write as _;
    let mut child = staunton(dir)
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("runs");
    child
        .stdin
        .take()
        .expect("stdin")
        .write_all(stdin)
        .expect("stdin written");
    child.wait_with_output().expect("runs")
}

fn stdout_of(out: &Output) -> String {
    assert!(
        out.status.success(),
        "{:?}: {}",
        out.status,
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout.clone()).expect("UTF-8 output")
}

fn set(names: &[&str]) -> BTreeSet<String> {
    names.iter().map(|n| n.to_string()).collect()
}

/// The HTTP 400's sentence for `query`.
fn http_sentence(query: &str) -> String {
    staunton::request::Request::from_query(query, None)
        .expect_err("a bad request")
        .to_string()
}

fn xml_escaped(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

/// Prose meant to come through untouched: trailing spaces, a tab, CRLF, non-ASCII, raw
/// HTML, a fence that is not a diagram, and an indented code block that looks like one.
const BEFORE: &str = "# Opening  \n\nSome *prose*\twith `code`, ü, ♞ and <b>HTML</b>.\r\n\n\
                      ```rust\nfn main() {}\n```\n\n    ```fen\n    not a fence\n    ```\n\n";
const AFTER: &str = "\nThe end — no newline at the end";
/// The diagram: options on the info string and in the body, the FEN after them.
const FENCE: &str = "```fen size=240 orientation=black\narrows: e2->e4\nstart\n```\n";

/// `BEFORE`, `FENCE`, `AFTER`, and the 1-based line of the fence's opening.
fn document(fence: &str) -> (String, usize) {
    let line = BEFORE.matches('\n').count() + 1;
    (format!("{BEFORE}{fence}{AFTER}"), line)
}

/// What replaced the fence: `out` must be `BEFORE`, the replacement, `AFTER`.
fn replacement(out: &str) -> &str {
    assert!(out.starts_with(BEFORE), "the prose before changed:\n{out}");
    assert!(out.ends_with(AFTER), "the prose after changed:\n{out}");
    assert!(out.len() >= BEFORE.len() + AFTER.len(), "{out}");
    &out[BEFORE.len()..out.len() - AFTER.len()]
}

#[test]
fn stdin_to_stdout_replaces_the_fence_with_inline_svg() {
    let dir = scratch("inline");
    let (doc, _) = document(FENCE);
    let out = stdout_of(&run(&dir, &["markdown"], doc.as_bytes()));
    let image = replacement(&out);
    let line = image.strip_suffix('\n').expect("the image ends its line");
    assert!(!line.contains('\n'), "the SVG is on one line: {image}");
    assert!(
        line.contains("<svg") && line.ends_with("</svg></div>"),
        "{line}"
    );
    assert!(line.contains("width=\"240\""), "size=240 applied: {line}");
    assert!(!line.contains("```"), "{line}");
    // The default mode is --inline.
    let explicit = stdout_of(&run(&dir, &["markdown", "--inline"], doc.as_bytes()));
    assert_eq!(out, explicit);
    assert_eq!(listing(&dir), set(&[]), "nothing written");
}

#[test]
fn images_mode_writes_the_document_and_the_linked_files_only() {
    let dir = scratch("images");
    // Three fences, two distinct requests: two files.
    let second = "~~~chess\n8/8/8/4k3/8/8/4K3/8 w - - 0 1\n~~~\n";
    let doc = format!("Intro.\n\n{FENCE}\nMiddle.\n\n{second}\n{FENCE}\nEnd.\n");
    std::fs::write(dir.join("in.md"), &doc).expect("input");
    let args = ["markdown", "in.md", "-o", "out.md", "--images", "img"];
    let out = staunton(&dir).args(args).output().expect("runs");
    assert_eq!(stdout_of(&out), "", "the document goes to out.md");
    assert!(
        out.stderr.is_empty(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );

    let written = std::fs::read_to_string(dir.join("out.md")).expect("out.md written");
    assert!(written.starts_with("Intro.\n\n") && written.ends_with("\nEnd.\n"));
    assert!(written.contains("\nMiddle.\n"), "{written}");
    let links: Vec<&str> = written
        .lines()
        .filter(|l| l.starts_with("<img "))
        .map(|l| {
            let (_, target) = l.split_once("src=\"img/").expect("linked under img/");
            assert!(l.contains(" width=\"") && l.contains(" height=\""), "{l}");
            &target[..target.find('"').expect("a quoted source")]
        })
        .collect();
    assert_eq!(links.len(), 3, "{written}");
    assert_eq!(links[0], links[2], "the same request, the same file");
    assert_ne!(links[0], links[1]);
    let mut expected = set(&["in.md", "out.md", "img/"]);
    for name in &links {
        assert!(name.ends_with(".svg"), "{name}");
        let svg = std::fs::read_to_string(dir.join("img").join(name)).expect("linked file");
        assert!(svg.starts_with("<svg") && svg.ends_with("</svg>"), "{name}");
        expected.insert(format!("img/{name}"));
    }
    assert_eq!(listing(&dir), expected, "nothing else written");
}

#[test]
fn one_fen_in_two_dialects_is_two_image_files() {
    let dir = scratch("dialects");
    // `C` is a chancellor in standard FEN, a circle in Fairy FEN: two pictures, two files.
    let doc = "```fen\n8/8/8/3C4/8/8/8/8\n```\n\n```fen dialect=fairy\n8/8/8/3C4/8/8/8/8\n```\n";
    std::fs::write(dir.join("in.md"), doc).expect("input");
    let args = ["markdown", "in.md", "-o", "out.md", "--images", "img"];
    let out = staunton(&dir).args(args).output().expect("runs");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let written = std::fs::read_to_string(dir.join("out.md")).expect("out.md written");
    let links: Vec<&str> = written.lines().filter_map(image_in_img).collect();
    assert_eq!(links.len(), 2, "{written}");
    assert_ne!(links[0], links[1], "one file for two pictures: {written}");
    let read = |name: &str| std::fs::read_to_string(dir.join("img").join(name)).expect("file");
    assert_ne!(read(links[0]), read(links[1]));
}

#[test]
fn a_bad_fence_exits_2_with_file_line_and_the_http_sentence() {
    let dir = scratch("bad");
    let (doc, line) = document("```fen size=9000\nstart\n```\n");
    std::fs::write(dir.join("doc.md"), &doc).expect("input");
    let out = staunton(&dir)
        .args(["markdown", "doc.md", "-o", "out.md"])
        .output()
        .expect("runs");
    assert_eq!(out.status.code(), Some(2));
    let sentence = http_sentence("fen=start&size=9000");
    assert_eq!(
        String::from_utf8_lossy(&out.stderr),
        format!("staunton: doc.md:{line}: {sentence}\n")
    );
    // Neither out.md nor its temporary file.
    assert_eq!(listing(&dir), set(&["doc.md"]));

    // An existing output is left as it was.
    std::fs::write(dir.join("out.md"), "old").expect("old output");
    let again = staunton(&dir)
        .args(["markdown", "doc.md", "-o", "out.md"])
        .output()
        .expect("runs");
    assert_eq!(again.status.code(), Some(2));
    assert_eq!(std::fs::read_to_string(dir.join("out.md")).unwrap(), "old");
    assert_eq!(listing(&dir), set(&["doc.md", "out.md"]));
}

#[test]
fn keep_going_warns_and_puts_an_error_card_in_place() {
    let dir = scratch("keep-going");
    let (doc, line) = document("```fen size=9000\nstart\n```\n");
    std::fs::write(dir.join("doc.md"), &doc).expect("input");
    let out = staunton(&dir)
        .args(["markdown", "doc.md", "--keep-going"])
        .output()
        .expect("runs");
    let text = stdout_of(&out);
    let sentence = http_sentence("fen=start&size=9000");
    assert_eq!(
        String::from_utf8_lossy(&out.stderr),
        format!("staunton: warning: doc.md:{line}: {sentence}\n")
    );
    let card = replacement(&text);
    assert!(card.contains("<svg") && !card.contains("```"), "{card}");
    assert!(
        card.contains(&xml_escaped(&sentence)),
        "the card says why: {card}"
    );
}

#[test]
fn url_mode_links_the_service() {
    let dir = scratch("url");
    let (doc, _) = document(FENCE);
    let base = "https://diagrams.example.org";
    let out = stdout_of(&run(&dir, &["markdown", "--url", base], doc.as_bytes()));
    let image = replacement(&out);
    let prefix = format!("<img src=\"{base}/diagram.svg?");
    assert!(image.starts_with(&prefix), "{image}");
    assert_eq!(image.lines().count(), 1, "{image}");
    // The query is one the service accepts, with the fence's options.
    let query = image[prefix.len()..].split('"').next().unwrap();
    let request = staunton::request::Request::from_query(&query.replace("&amp;", "&"), None)
        .expect("a valid query");
    assert_eq!(request.options.size, 240, "{query}");
    assert!(query.contains("arrows=e2e4"), "{query}");
}

/// The file an `<img src="img/…">` in `line` shows (its name under `img/`).
fn image_in_img(line: &str) -> Option<&str> {
    let (_, rest) = line.split_once("<img src=\"img/")?;
    rest.split('"').next()
}

#[test]
fn png_images_and_refused_formats() {
    let dir = scratch("format");
    let (doc, _) = document(FENCE);
    std::fs::write(dir.join("doc.md"), &doc).expect("input");
    let args = ["markdown", "doc.md", "--images", "img", "--format", "png"];
    let text = stdout_of(&staunton(&dir).args(args).output().expect("runs"));
    let image = replacement(&text);
    let name = image_in_img(image.trim_end()).expect("an <img> of a file under img/");
    assert!(name.ends_with(".png"), "{name}");
    let png = std::fs::read(dir.join("img").join(name)).expect("written");
    assert!(png.starts_with(b"\x89PNG\r\n\x1a\n"));
    assert_eq!(common::decode(&png).width(), 240);

    let refused = [
        (vec!["--images", "txt-img", "--format", "txt"], "txt"),
        (vec!["--format", "png"], "--images"),
    ];
    for (extra, named) in refused {
        let out = staunton(&dir)
            .args(["markdown", "doc.md", "-o", "refused.md"])
            .args(&extra)
            .output()
            .expect("runs");
        assert_eq!(out.status.code(), Some(2), "{extra:?}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(err.lines().count(), 1, "one line: {err}");
        assert!(
            err.starts_with("staunton: ") && err.contains(named),
            "{err}"
        );
    }
    let files = set(&["doc.md", "img/", &format!("img/{name}")]);
    assert_eq!(listing(&dir), files, "the refused runs wrote nothing");
}

#[test]
fn fence_prints_path_alt_caption_size_and_writes_the_render_commands_svg() {
    let dir = scratch("fence");
    let out = run(
        &dir,
        &["fence", "--info", "fen size=200", "--images", "img"],
        b"start\n",
    );
    let text = stdout_of(&out);
    let lines: Vec<&str> = text.split_terminator('\n').collect();
    assert_eq!(lines.len(), 4, "path, alt, caption, size: {text:?}");
    assert!(text.ends_with('\n'));
    let (path, alt, caption) = (lines[0], lines[1], lines[2]);
    assert!(path.starts_with("img/") && path.ends_with(".svg"), "{path}");
    assert!(alt.contains("King e1"), "{alt}");
    assert_eq!(caption, "");
    assert_eq!(lines[3], "200 200", "width and height in pixels");

    let rendered = staunton(&dir)
        .args(["render", "start", "--size", "200", "-o", "x.svg"])
        .output()
        .expect("runs");
    assert!(rendered.status.success());
    let expected = std::fs::read(dir.join("x.svg")).expect("render wrote x.svg");
    assert_eq!(
        std::fs::read(dir.join(path)).expect("fence wrote it"),
        expected
    );

    // A caption comes back on the third line.
    let out = run(
        &dir,
        &["fence", "--info", "fen size=200", "--images", "img"],
        b"caption: The opening position\nstart\n",
    );
    let text = stdout_of(&out);
    assert_eq!(text.lines().nth(2), Some("The opening position"), "{text}");
    // The width and height count what is drawn under the board: a caption in the image.
    let out = run(
        &dir,
        &[
            "fence",
            "--info",
            "fen size=200 image_caption=Mate",
            "--images",
            "img",
        ],
        b"start\n",
    );
    let text = stdout_of(&out);
    let size = text.lines().nth(3).expect("a fourth line");
    let (w, h) = size.split_once(' ').expect("width height");
    let (w, h): (u32, u32) = (w.parse().expect("w"), h.parse().expect("h"));
    assert!(w == 200 && h > 200, "{size}");
}

#[test]
fn fence_with_a_bad_body_exits_2_with_one_line() {
    let dir = scratch("fence-bad");
    let out = run(
        &dir,
        &["fence", "--info", "fen", "--images", "img"],
        b"size: 9000\nstart\n",
    );
    assert_eq!(out.status.code(), Some(2));
    let sentence = http_sentence("fen=start&size=9000");
    assert_eq!(
        String::from_utf8_lossy(&out.stderr),
        format!("staunton: {sentence}\n")
    );
    assert!(out.stdout.is_empty());
    assert_eq!(listing(&dir), set(&[]), "no image, no folder");
}

#[test]
fn fence_images_within_keeps_the_folder_inside() {
    let root = scratch("fence-within");
    let dir = root.join("doc");
    std::fs::create_dir_all(root.join("outside")).expect("folder");
    std::fs::create_dir_all(&dir).expect("folder");
    std::os::unix::fs::symlink(root.join("outside"), dir.join("out-link")).expect("link");
    let outside = root.join("outside").display().to_string();
    for images in [
        "../elsewhere",
        "figs/../../elsewhere",
        &outside,
        "out-link/figs",
    ] {
        let args = [
            "fence",
            "--info",
            "fen",
            "--images",
            images,
            "--images-within",
            ".",
        ];
        let out = run(&dir, &args, b"start\n");
        assert_eq!(out.status.code(), Some(2), "{images}");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(
            stderr.contains("is not inside . (--images-within)"),
            "{images}: {stderr}"
        );
        assert!(out.stdout.is_empty(), "{images}");
    }
    assert_eq!(
        listing(&root),
        set(&["doc/", "doc/out-link/", "outside/"]),
        "nothing made outside, nor inside"
    );
    let args = [
        "fence",
        "--info",
        "fen",
        "--images",
        "figs/chess",
        "--images-within",
        ".",
    ];
    let printed = stdout_of(&run(&dir, &args, b"start\n"));
    let path = printed.lines().next().expect("the path");
    assert!(
        path.starts_with("figs/chess/") && dir.join(path).is_file(),
        "{printed}"
    );
    let _ = std::fs::remove_dir_all(&root);
}

#[test]
fn a_document_that_is_not_utf8_is_refused_by_name() {
    let dir = scratch("not-utf8");
    std::fs::write(dir.join("latin1.md"), b"# Caf\xe9\n\n```fen\nstart\n```\n").expect("input");
    let out = staunton(&dir)
        .args(["markdown", "latin1.md", "-o", "out.md"])
        .output()
        .expect("runs");
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(err.lines().count(), 1, "one line: {err}");
    assert!(err.starts_with("staunton: latin1.md "), "names it: {err}");
    assert!(err.contains("UTF-8"), "{err}");
    assert_eq!(listing(&dir), set(&["latin1.md"]));

    // From standard input, the name is <stdin>.
    let out = run(&dir, &["markdown"], b"\xff\xfe# x\n");
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.starts_with("staunton: <stdin> ") && err.contains("UTF-8"),
        "{err}"
    );
}
