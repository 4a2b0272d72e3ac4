//! `staunton latex` as a real process: the request file in, the PDFs, their four-line
//! sidecars and the job's `.sto` out; a second run draws nothing, a changed query is
//! drawn again, a refused diagram is its sidecar's error (the service's sentence) and no
//! failure of the run, and a request file that breaks the format writes nothing.

use crate::common::listing;
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("staunton-latex-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("scratch dir");
    dir
}

fn run(dir: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_staunton"))
        .args(args)
        .current_dir(dir)
        .stdin(Stdio::null())
        .output()
        .expect("runs")
}

fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

/// Run `args` in `dir`, which must succeed: its standard error.
fn ok(dir: &Path, args: &[&str]) -> String {
    let out = run(dir, args);
    assert!(
        out.status.success(),
        "{args:?}: {:?}: {}",
        out.status,
        stderr(&out)
    );
    stderr(&out)
}

const A: &str = "0123456789abcdef0123456789abcdef";
const B: &str = "fedcba9876543210fedcba9876543210";
const C: &str = "00000000000000000000000000000000";
const D: &str = "dddddddddddddddddddddddddddddddd";
/// The position after 1. e4, with arrows, as TeX writes it.
const AFTER_E4: &str = "fen=rnbqkbnr%2Fpppppppp%2F8%2F8%2F4P3%2F8%2FPPPP1PPP%2FRNBQKBNR%20b%20KQkq%20-%200%201&arrows=Ge2e4%2CRd7d5&theme=print";
/// A game's position in kebab-case names.
const GAME: &str = "pgn=1.%20e4%20e5%202.%20Nf3&ply=3&last-move=g1f3";

/// A request file: the header, the folder line, then each `(name, query)`.
fn requests(folder: &str, diagrams: &[(&str, &str)]) -> String {
    let mut text = format!("staunton-latex 1\nfolder {folder}\n");
    for (name, query) in diagrams {
        text.push_str(&format!("{name} {query}\n"));
    }
    text
}

/// The four lines of the sidecar of `name` in `dir/folder`.
fn sidecar(dir: &Path, name: &str) -> Vec<String> {
    let path = dir.join("figs").join(format!("{name}.txt"));
    let text = std::fs::read_to_string(&path).expect("a sidecar");
    assert!(text.ends_with('\n'), "{text:?}");
    text.lines().map(str::to_string).collect()
}

fn version() -> String {
    format!("staunton {}", env!("CARGO_PKG_VERSION"))
}

/// The query's pairs, decoded and in the service's spelling, as the command reads them.
fn pairs(query: &str) -> Vec<(String, String)> {
    let query = staunton::request::Query::decode(query).expect("UTF-8");
    let pairs = query.into_pairs().into_iter();
    pairs
        .map(|(k, v)| (staunton::embed::service_spelling(k), v))
        .collect()
}

/// What `embed::describe` says of `query`: the alt text a sidecar should hold.
fn described(query: &str) -> String {
    staunton::embed::describe(pairs(query))
        .expect("described")
        .0
}

fn pdf(dir: &Path, name: &str) -> Vec<u8> {
    std::fs::read(dir.join("figs").join(format!("{name}.pdf"))).expect("a PDF")
}

#[test]
fn a_job_draws_each_diagram_once_with_its_sidecar_and_the_sto() {
    let dir = scratch("job");
    let text = requests("figs", &[(A, AFTER_E4), (B, GAME), (A, AFTER_E4)]);
    std::fs::write(dir.join("book.stn"), text.replace('\n', "  \r\n")).expect("requests");
    let said = ok(&dir, &["latex", "book.tex"]);
    assert!(
        said.contains("staunton latex: 2 diagrams: 2 drawn, 0 already in figs, 0 refused"),
        "{said}"
    );
    for (name, query) in [(A, AFTER_E4), (B, GAME)] {
        assert!(pdf(&dir, name).starts_with(b"%PDF"), "{name}");
        let alt = described(query);
        assert_eq!(sidecar(&dir, name), [query, "ok", &alt, &version()]);
    }
    let alt = sidecar(&dir, A)[2].clone();
    assert!(alt.contains("Black to move"), "{alt}");
    assert!(
        sidecar(&dir, B)[2].starts_with("After 2. Nf3"),
        "{:?}",
        sidecar(&dir, B)
    );
    let sto = std::fs::read_to_string(dir.join("book.sto")).expect("the .sto");
    assert_eq!(
        sto,
        format!("% staunton latex: 2 diagrams in figs\n% {A} ok\n% {B} ok\n")
    );
    assert!(sto.lines().all(|l| l.starts_with('%')), "TeX comments only");
    let files = ["book.sto", "book.stn", "figs/"];
    let drawn = [A, B].map(|n| [format!("figs/{n}.pdf"), format!("figs/{n}.txt")]);
    let expected: BTreeSet<String> = files
        .map(String::from)
        .into_iter()
        .chain(drawn.into_iter().flatten())
        .collect();
    assert_eq!(listing(&dir), expected, "nothing else, no temporaries");
}

#[test]
fn a_second_run_draws_nothing_and_a_changed_query_is_drawn_again() {
    let dir = scratch("again");
    std::fs::write(
        dir.join("book.stn"),
        requests("figs", &[(A, AFTER_E4), (B, GAME)]),
    )
    .expect("requests");
    ok(&dir, &["latex", "book"]);
    let path = dir.join("figs").join(format!("{A}.pdf"));
    let (bytes, modified) = (
        pdf(&dir, A),
        std::fs::metadata(&path).expect("pdf").modified().ok(),
    );
    std::thread::sleep(std::time::Duration::from_millis(20));
    let said = ok(&dir, &["latex", "book.stn"]);
    assert!(
        said.contains("2 diagrams: 0 drawn, 2 already in figs, 0 refused"),
        "{said}"
    );
    assert_eq!(pdf(&dir, A), bytes);
    assert_eq!(
        std::fs::metadata(&path).expect("pdf").modified().ok(),
        modified
    );
    // The same name with another query (TeX's names never collide; a test's may): drawn
    // again.
    let flipped = format!("{AFTER_E4}&orientation=black");
    std::fs::write(
        dir.join("book.stn"),
        requests("figs", &[(A, &flipped), (B, GAME)]),
    )
    .expect("requests");
    let said = ok(&dir, &["latex", "book"]);
    assert!(
        said.contains("2 diagrams: 1 drawn, 1 already in figs, 0 refused"),
        "{said}"
    );
    assert_eq!(sidecar(&dir, A)[0], flipped);
    assert_ne!(pdf(&dir, A), bytes);
    // A sidecar of another version, or an `ok` without its PDF, is not current.
    let txt = dir.join("figs").join(format!("{B}.txt"));
    let old = std::fs::read_to_string(&txt).expect("sidecar");
    std::fs::write(&txt, old.replace(&version(), "staunton 0.0.0")).expect("edited");
    std::fs::remove_file(&path).expect("removed");
    let said = ok(&dir, &["latex", "book"]);
    assert!(
        said.contains("2 diagrams: 2 drawn, 0 already in figs, 0 refused"),
        "{said}"
    );
    assert_eq!(std::fs::read_to_string(&txt).expect("sidecar"), old);
    // Refused under the same name: the stale PDF goes.
    let bad = "fen=rnbqkbnr%2Fpppppppp%2F8";
    std::fs::write(
        dir.join("book.stn"),
        requests("figs", &[(A, bad), (B, GAME)]),
    )
    .expect("requests");
    let said = ok(&dir, &["latex", "book"]);
    assert!(
        said.contains("0 drawn, 1 already in figs, 1 refused"),
        "{said}"
    );
    assert!(!path.exists(), "the refused diagram's old PDF is removed");
    assert_eq!(sidecar(&dir, A)[1], "error fen");
}

#[test]
fn a_refused_diagram_is_its_sidecars_error_with_the_services_sentence() {
    let dir = scratch("refused");
    let bad_fen = "fen=rnbqkbnr%2Fpppppppp%2F8&theme=print";
    let misspelt = "fen=start&last-mvoe=e2e4";
    let diagrams = [
        (A, bad_fen),
        (B, misspelt),
        (C, "fen=start&caption=%C3%A9t%C3%A9"),
    ];
    std::fs::write(dir.join("doc.stn"), requests("figs", &diagrams)).expect("requests");
    let said = ok(&dir, &["latex", "doc"]);
    assert!(
        said.contains("3 diagrams: 1 drawn, 0 already in figs, 2 refused"),
        "{said}"
    );
    let service = staunton::embed::render(pairs(bad_fen), "pdf").expect_err("a bad FEN");
    let http = staunton::request::Request::from_query(bad_fen, None).expect_err("bad");
    assert_eq!(service.sentence, http.to_string());
    let sentence = service.sentence.replace('\n', " ");
    assert_eq!(
        sidecar(&dir, A),
        [
            "fen=rnbqkbnr%2Fpppppppp%2F8&theme=print",
            "error fen",
            &sentence,
            &version()
        ]
    );
    assert!(
        said.contains(&format!("staunton latex: {A}: {sentence}")),
        "{said}"
    );
    let misspelt_sentence = "\"last-mvoe\" is not a parameter: did you mean last-move?";
    assert_eq!(sidecar(&dir, B)[1..3], ["error query", misspelt_sentence]);
    assert!(!dir.join("figs").join(format!("{A}.pdf")).exists());
    assert!(pdf(&dir, C).starts_with(b"%PDF"));
    let caption = sidecar(&dir, C);
    assert_eq!(caption[2], described("fen=start&caption=%C3%A9t%C3%A9"));
    let sto = std::fs::read_to_string(dir.join("doc.sto")).expect("the .sto");
    assert_eq!(
        sto,
        format!("% staunton latex: 3 diagrams in figs\n% {A} error\n% {B} error\n% {C} ok\n")
    );
    // A cached refusal is reported again, and not redrawn.
    let said = ok(&dir, &["latex", "doc"]);
    assert!(
        said.contains("0 drawn, 3 already in figs, 2 refused"),
        "{said}"
    );
    assert!(
        said.contains(&format!("{B}: {misspelt_sentence}")),
        "{said}"
    );
}

#[test]
fn bytes_that_are_not_utf8_and_a_line_too_long_are_their_diagrams_errors() {
    let dir = scratch("bytes");
    let latin1 = "fen=start&caption=%E9t%E9";
    let long = format!("fen=start&caption={}", "x".repeat(4 * 64 * 1024 + 100));
    let mut file = requests("figs", &[(A, latin1), (C, &long)]).into_bytes();
    file.extend_from_slice(format!("{B} fen=start&caption=").as_bytes());
    file.push(0xFF);
    file.extend_from_slice(format!("\n{D} fen=start\n").as_bytes());
    std::fs::write(dir.join("doc.stn"), &file).expect("requests");
    let said = ok(&dir, &["latex", "doc"]);
    assert!(
        said.contains("4 diagrams: 1 drawn, 0 already in figs, 3 refused"),
        "{said}"
    );
    let http = staunton::request::Request::from_query(latin1, None).expect_err("not UTF-8");
    assert_eq!(
        sidecar(&dir, A)[1..3],
        ["error query".to_string(), http.to_string()]
    );
    let too_long = sidecar(&dir, C);
    assert_eq!(too_long[0], "", "a line too long is not repeated");
    assert_eq!(too_long[1], "error query");
    assert!(
        too_long[2].contains("bytes long: at most 262244 bytes are read"),
        "{too_long:?}"
    );
    let raw = std::fs::read(dir.join("figs").join(format!("{B}.txt"))).expect("sidecar");
    assert!(
        raw.starts_with(b"fen=start&caption=\xff\nerror query\n"),
        "{raw:?}"
    );
    assert!(pdf(&dir, D).starts_with(b"%PDF"));
    // The raw byte's sidecar holds the line as it was: current on the next run.
    let said = ok(&dir, &["latex", "doc"]);
    assert!(
        said.contains("4 diagrams: 0 drawn, 3 already in figs, 3 refused"),
        "{said}"
    );
}

#[test]
fn a_folder_that_is_not_a_short_relative_path_is_refused_and_nothing_written() {
    for folder in [
        "/tmp/x",
        "../x",
        "a/../b",
        "a b",
        "",
        "a//b",
        "1/2/3/4/5/6/7/8/9",
    ] {
        let dir = scratch("folder");
        std::fs::write(dir.join("doc.stn"), requests(folder, &[(A, "fen=start")]))
            .expect("requests");
        let out = run(&dir, &["latex", "doc"]);
        let said = stderr(&out);
        assert_eq!(out.status.code(), Some(2), "{folder}: {said}");
        assert!(
            said.starts_with("staunton: doc.stn:2: the folder"),
            "{said}"
        );
        assert!(said.contains("is refused"), "{said}");
        assert_eq!(said.lines().count(), 1, "{said}");
        assert_eq!(
            listing(&dir),
            BTreeSet::from(["doc.stn".to_string()]),
            "{folder}"
        );
    }
    assert!(!Path::new("/tmp/x").join(format!("{A}.pdf")).exists());
}

#[test]
fn a_file_that_breaks_the_format_is_refused_with_its_line() {
    let dir = scratch("format");
    let cases = [
        (
            requests("figs", &[(A, "fen=start"), ("XYZ", "fen=start")]),
            "doc.stn:4: a diagram's line",
        ),
        (
            requests("figs", &[(&A.to_uppercase(), "fen=start")]),
            "doc.stn:3: a diagram's line",
        ),
        (
            "staunton-latex 2\nfolder figs\n".to_string(),
            "doc.stn:1: not a staunton request file",
        ),
        (
            "staunton-latex 1\nfigs\n".to_string(),
            "doc.stn:2: the second line",
        ),
        (String::new(), "it is empty"),
    ];
    for (text, says) in cases {
        std::fs::write(dir.join("doc.stn"), &text).expect("requests");
        let out = run(&dir, &["latex", "doc"]);
        assert_eq!(out.status.code(), Some(2), "{text}");
        assert!(stderr(&out).contains(says), "{}", stderr(&out));
        assert_eq!(
            listing(&dir),
            BTreeSet::from(["doc.stn".to_string()]),
            "{text}"
        );
    }
    std::fs::remove_file(dir.join("doc.stn")).expect("removed");
    let out = run(&dir, &["latex", "doc.tex"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("doc.stn does not exist: the LaTeX run"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn requests_are_drawn_and_their_file_deleted() {
    let dir = scratch("requests");
    let file = dir.join("one-off.stn");
    std::fs::write(&file, requests("figs", &[(A, GAME)])).expect("requests");
    let said = ok(&dir, &["latex", "--requests", "one-off.stn"]);
    assert_eq!(said, "", "a one-off file drawn is LaTeX's quiet call");
    assert!(!file.exists(), "the one-off file is deleted");
    assert!(pdf(&dir, A).starts_with(b"%PDF"));
    let expected: BTreeSet<String> = [
        "figs/".to_string(),
        format!("figs/{A}.pdf"),
        format!("figs/{A}.txt"),
    ]
    .into();
    assert_eq!(listing(&dir), expected, "no .sto");
    // The folder is the request file's neighbour, wherever the command runs.
    let sub = dir.join("sub");
    std::fs::create_dir_all(&sub).expect("sub");
    std::fs::write(sub.join("r.stn"), requests("figs", &[(B, "fen=start")])).expect("requests");
    ok(&dir, &["latex", "--requests", "sub/r.stn"]);
    assert!(sub.join("figs").join(format!("{B}.pdf")).exists());
    // A refused diagram is said, on stderr, even in LaTeX's quiet call.
    std::fs::write(&file, requests("figs", &[(A, "fen=8/8/8 w")])).expect("requests");
    let said = ok(&dir, &["latex", "--requests", "one-off.stn"]);
    assert!(
        said.contains("1 refused") && said.contains("not a valid FEN"),
        "{said}"
    );
}
