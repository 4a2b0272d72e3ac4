//! Markdown fences rewritten into diagrams (`staunton::markdown`): committed documents
//! against committed expected output in each mode, the images they link, and hostile
//! documents.
//!
//! `UPDATE_GOLDEN=1 cargo test --test markdown` rewrites the expected documents (file
//! names in images mode carry the renderer's version, so they change when it does): look
//! at the diff, then run again.

#[path = "../common/mod.rs"]
mod common;

mod hostile;

use staunton::markdown::{Mode, Report, Settings, rewrite};
use staunton::request::Request;
use staunton::{Format, Renderer};
use std::path::{Path, PathBuf};

const BASE: &str = "https://diagrams.example.org";
const DOCUMENTS: [&str; 3] = ["grammar", "plugins", "commonmark"];

fn fixture_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/markdown")
}

fn document(name: &str) -> String {
    std::fs::read_to_string(fixture_dir().join(format!("{name}.md"))).unwrap()
}

fn run(document: &str, settings: &Settings) -> (String, Report) {
    let mut out = Vec::new();
    let report = rewrite(document, settings, &Renderer::default(), &mut out).unwrap();
    (String::from_utf8(out).unwrap(), report)
}

fn url_mode() -> Settings {
    Settings {
        mode: Mode::Url { base: BASE.into() },
        ..Settings::default()
    }
}

/// A scratch folder of its own under the target dir, emptied first.
fn scratch(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("markdown-{name}"));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// `actual` equals the committed `expected/<file>`, or is written there with UPDATE_GOLDEN=1.
fn check_golden(file: &str, actual: &str) {
    let path = fixture_dir().join("expected").join(file);
    if std::env::var_os("UPDATE_GOLDEN").is_some_and(|v| v == "1") {
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(&path, actual).unwrap();
        return;
    }
    let expected = std::fs::read_to_string(&path)
        .unwrap_or_else(|_| panic!("no {} (run with UPDATE_GOLDEN=1)", path.display()));
    if expected != actual {
        let first = expected
            .lines()
            .zip(actual.lines())
            .position(|(a, b)| a != b)
            .unwrap_or(expected.lines().count().min(actual.lines().count()));
        panic!(
            "{file} differs from the committed output from line {}:\n expected {:?}\n actual   {:?}",
            first + 1,
            expected.lines().nth(first),
            actual.lines().nth(first)
        );
    }
}

fn is_image(line: &str) -> bool {
    line.contains("<img ") || line.contains("](") || line.contains("<svg ")
}

/// The lines of `text` that are neither images nor blank (blank lines, quote markers
/// alone, may be added to keep an image a block of its own).
fn lines_without_images(text: &str) -> Vec<&str> {
    text.lines()
        .filter(|l| !is_image(l) && !l.chars().all(|c| c == '>' || c.is_whitespace()))
        .collect()
}

#[test]
fn url_mode_matches_the_committed_documents() {
    for name in DOCUMENTS {
        let (out, report) = run(&document(name), &url_mode());
        assert!(
            report.fences > 0 && report.warnings.is_empty(),
            "{name}: {report:?}"
        );
        check_golden(&format!("{name}.url.md"), &out);
    }
}

#[test]
fn inline_mode_matches_the_committed_document() {
    // The CommonMark cases: inline SVG in lists, quotes and footnotes.
    let (out, report) = run(&document("commonmark"), &Settings::default());
    assert!(
        report.fences > 5 && report.warnings.is_empty(),
        "{report:?}"
    );
    check_golden("commonmark.inline.md", &out);
}

#[test]
fn every_line_outside_the_fences_is_kept() {
    for name in DOCUMENTS {
        let source = document(name);
        let (out, report) = run(&source, &url_mode());
        let kept = lines_without_images(&out);
        let mut source_lines = source.lines();
        // Each kept line appears in the source, in order (the fences' lines are skipped).
        for line in &kept {
            assert!(
                source_lines.any(|s| s == *line),
                "{name}: {line:?} is not a line of the source in order"
            );
        }
        let images = out.lines().filter(|l| is_image(l)).count();
        assert_eq!(images, report.fences, "{name}: one line per fence");
        assert_eq!(out.ends_with("\r\n"), source.ends_with("\r\n"));
    }
}

/// Every link of an images-mode document, which must name a file in `dir`.
fn linked_files(out: &str, dir: &Path) -> Vec<PathBuf> {
    let mut files = Vec::new();
    for part in out.split("](").skip(1).chain(out.split("src=\"").skip(1)) {
        let end = part.find([')', '"']).unwrap();
        let link = &part[..end];
        let name = link
            .strip_prefix("img/")
            .unwrap_or_else(|| panic!("{link}"));
        files.push(dir.join(name));
    }
    files
}

#[test]
fn images_mode_writes_each_distinct_diagram_once_inside_its_folder() {
    let root = scratch("images");
    let dir = root.join("img");
    let settings = Settings {
        mode: Mode::Images {
            dir: dir.clone(),
            link: "img".into(),
            format: Format::Svg,
        },
        ..Settings::default()
    };
    let source = document("grammar");
    let (out, report) = run(&source, &settings);
    check_golden("grammar.images.md", &out);
    let files = linked_files(&out, &dir);
    assert_eq!(files.len(), report.fences);
    let mut distinct = files.clone();
    distinct.sort();
    distinct.dedup();
    assert_eq!(report.written, distinct.len());
    for file in &distinct {
        let svg = std::fs::read_to_string(file).unwrap();
        assert!(
            svg.starts_with("<svg") && svg.ends_with("</svg>"),
            "{}",
            file.display()
        );
    }
    // Nothing else was written: the folder holds those files, the root only the folder.
    assert_eq!(std::fs::read_dir(&dir).unwrap().count(), distinct.len());
    assert_eq!(std::fs::read_dir(&root).unwrap().count(), 1);
    // A second run finds every file there and writes none.
    let (again, report) = run(&source, &settings);
    assert_eq!((again, report.written), (out, 0));
}

#[test]
fn png_files_have_the_size_each_fence_asks_for() {
    let dir = scratch("png");
    let settings = Settings {
        mode: Mode::Images {
            dir: dir.clone(),
            link: String::new(),
            format: Format::Png,
        },
        defaults: vec![("size".into(), "160".into())],
        ..Settings::default()
    };
    let source = "```fen\nstart\n```\n\n```fen size=200\nstart\n```\n";
    let (out, _) = run(source, &settings);
    let mut sizes = Vec::new();
    for (name, width, height) in images(&out) {
        let png = common::decode(&std::fs::read(dir.join(&name)).unwrap());
        // Each <img> says the size of its file, so the page does not reflow as it loads.
        assert_eq!((width, height), (png.width(), png.height()), "{name}");
        sizes.push(png.width());
    }
    assert_eq!(sizes, [160, 200]);
}

/// The `<img>`s of a rewritten document: source, width and height.
fn images(out: &str) -> Vec<(String, u32, u32)> {
    let attribute = |tag: &str, name: &str| -> String {
        let start = tag.find(&format!(" {name}=\"")).expect(name) + name.len() + 3;
        tag[start..start + tag[start..].find('"').unwrap()].to_string()
    };
    out.split("<img")
        .skip(1)
        .map(|tag| {
            let tag = &tag[..tag.find('>').unwrap()];
            let number = |name| attribute(tag, name).parse::<u32>().expect("a number");
            (attribute(tag, "src"), number("width"), number("height"))
        })
        .collect()
}

#[test]
fn inline_svgs_are_the_requests_own_drawings_with_ids_of_their_own() {
    let source = document("grammar");
    let (inline, report) = run(&source, &Settings::default());
    let (urls, _) = run(&source, &url_mode());
    let svgs: Vec<&str> = inline
        .split("<div class=\"staunton-diagram\">")
        .skip(1)
        .map(|part| &part[..part.find("</div>").unwrap()])
        .collect();
    let queries: Vec<String> = urls
        .split(&format!("src=\"{BASE}/diagram.svg?"))
        .skip(1)
        .map(|part| part[..part.find('"').unwrap()].replace("&amp;", "&"))
        .collect();
    assert_eq!((svgs.len(), queries.len()), (report.fences, report.fences));
    let renderer = Renderer::default();
    let mut prefixes = Vec::new();
    for (svg, query) in svgs.iter().zip(&queries) {
        // A page's diagram: the inline form, on the page's colours unless the fence chose.
        let page = match query.contains("background=") {
            true => format!("{query}&svg=inline"),
            false => format!("{query}&svg=inline&background=page"),
        };
        let request = Request::from_query(&page, Some(Format::Svg)).unwrap();
        let expected = renderer.svg(&request.position, &request.options).unwrap();
        let a = common::rasterise_svg(svg);
        let b = common::rasterise_svg(&expected);
        assert_eq!(a.dimensions(), b.dimensions(), "{query}");
        assert!(a == b, "{query}: the inline SVG draws differently");
        assert!(
            svg.starts_with("<svg role=\"img\" aria-label=\""),
            "{query}"
        );
        assert!(!svg.contains('\n'), "one line");
        assert!(
            !svg.contains("<style") && !svg.contains(" class="),
            "{query}"
        );
        let id = svg.split(" id=\"").nth(1).map(|s| &s[..8]);
        prefixes.push(id.map(str::to_string));
    }
    // Different diagrams' ids start differently (a page holds them side by side).
    let mut distinct = prefixes.clone();
    distinct.sort();
    distinct.dedup();
    assert!(distinct.len() > report.fences / 2, "{prefixes:?}");
    let kept = lines_without_images(&inline);
    assert_eq!(kept, lines_without_images(&urls));
}

#[test]
fn a_bad_fence_stops_with_its_line_and_the_services_sentence() {
    let source = "# Title\n\n```fen\nstart\n```\n\ntext\n\n```fen\nstart\nsize: 9000\n```\n";
    let mut out = Vec::new();
    let error = rewrite(source, &url_mode(), &Renderer::default(), &mut out).unwrap_err();
    let http = Request::from_query("fen=start&size=9000", None).unwrap_err();
    // The error stands at the option's line, not at the fence's opening.
    assert_eq!(error.to_string(), format!("line 11: {http}"));
    let unknown = rewrite(
        "```fen\nstart\norientaton: black\n```\n",
        &url_mode(),
        &Renderer::default(),
        &mut Vec::new(),
    );
    let sentence = unknown.unwrap_err().to_string();
    assert!(
        sentence.starts_with("line 3: ") && sentence.contains("did you mean orientation?"),
        "{sentence}"
    );
}

#[test]
fn an_unclosed_fence_that_does_not_read_is_called_unclosed() {
    let cases = [
        (
            "# Title\n\n```fen\nstart\n\nThe rest of the text.\n",
            "```fen",
            3,
            "```",
            "\"The rest of the text.\"",
        ),
        (
            "text\n\n````fen\nstart\n```\n",
            "````fen",
            3,
            "````",
            "\"```\"",
        ),
        (
            "> quote\n>\n> ~~~chess\n> start\n> more prose\n\nafter\n",
            "~~~chess",
            3,
            "~~~",
            "\"more prose\"",
        ),
    ];
    for (source, opening, line, marker, sentence) in cases {
        let error = rewrite(source, &url_mode(), &Renderer::default(), &mut Vec::new());
        let error = error.unwrap_err().to_string();
        let expected = format!(
            "line {line}: the {opening} fence opened at line {line} is never closed (end it with a line of {marker}), so all that follows it was read as its body: "
        );
        assert!(error.starts_with(&expected), "{source:?}: {error}");
        assert!(error.contains(sentence), "{source:?}: {error}");
    }
    // A closed fence that does not read says what is wrong, not that it is unclosed.
    let closed = rewrite(
        "```fen\nstart\nprose\n```\n",
        &url_mode(),
        &Renderer::default(),
        &mut Vec::new(),
    );
    let closed = closed.unwrap_err().to_string();
    assert!(!closed.contains("never closed"), "{closed}");
    // As CommonMark has it, an unclosed fence that reads is a diagram to the end.
    let (out, report) = run("```fen\nstart\n", &url_mode());
    assert_eq!(report.fences, 1, "{out}");
}

#[test]
fn a_fence_of_64_000_lines_is_refused_by_its_limit() {
    // Each line alone is good; together they are far past the fence's limits (this took
    // seconds, growing with the square of the lines, before the limit was checked first).
    for line in ["arrows: e2e4\n", "squares: e4\n", "highlight: Re4\n"] {
        let source = format!("```fen\nstart\n{}```\n", line.repeat(64_000));
        let error = rewrite(&source, &url_mode(), &Renderer::default(), &mut Vec::new());
        let sentence = error.unwrap_err().to_string();
        let limit = format!(
            "a fence may hold at most {} bytes and {} lines",
            staunton::markdown::fence::MAX_FENCE_BYTES,
            staunton::markdown::fence::MAX_FENCE_LINES
        );
        assert!(
            sentence.starts_with("line 1: the fence holds "),
            "{sentence}"
        );
        assert!(
            sentence.contains("in 64001 lines") && sentence.ends_with(&limit),
            "{sentence}"
        );
    }
    // Within the limits, many option lines are read as one list.
    let lines = "arrows: e2e4\n".repeat(64);
    let (out, _) = run(&format!("```fen\nstart\n{lines}```\n"), &url_mode());
    let arrows = vec!["e2e4"; 64].join("%2C");
    assert!(out.contains(&format!("arrows={arrows}\"")), "{out}");
}

#[test]
fn keep_going_puts_an_error_card_in_place_and_warns() {
    let source = "a\n\n```fen\nstart\nsize: 9000\n```\n\n```fen size=120\nstart\n```\n";
    for (mode, format) in [(Mode::Inline, Format::Svg), (url_mode().mode, Format::Svg)] {
        let settings = Settings {
            mode,
            keep_going: true,
            ..Settings::default()
        };
        let (out, report) = run(source, &settings);
        assert_eq!(report.warnings.len(), 1, "{format:?}");
        assert!(
            report.warnings[0].starts_with("line 5: size \"9000\""),
            "{:?}",
            report.warnings
        );
        assert!(out.contains("Diagram error, line 5"), "{out}");
        assert_eq!(out.matches("<svg").count() + out.matches("<img").count(), 2);
    }
    let dir = scratch("cards");
    let settings = Settings {
        mode: Mode::Images {
            dir: dir.clone(),
            link: String::new(),
            format: Format::Png,
        },
        keep_going: true,
        ..Settings::default()
    };
    let (out, _) = run(source, &settings);
    let (card, width, height) = images(&out).remove(0);
    assert!(card.starts_with("error-"), "{out}");
    let image = common::decode(&std::fs::read(dir.join(&card)).unwrap());
    assert_eq!((image.width(), image.height()), (400, 400));
    assert_eq!((width, height), (400, 400));
}

#[test]
fn rules_in_the_middle_are_not_front_matter_and_tight_lists_stay_tight() {
    let source = "Text\n\n---\nWhite to move:\n\n```fen\nstart\n```\n---\n";
    let (out, report) = run(source, &url_mode());
    assert_eq!(report.fences, 1, "{out}");
    let front = "---\ntitle: x\n---\n```fen\nstart\n```\n";
    let (out, report) = run(front, &url_mode());
    assert_eq!(report.fences, 1);
    assert!(out.starts_with("---\ntitle: x\n---\n\n<img "), "{out}");
    let list = "- a\n- ```fen\n  start\n  ```\n- b\n";
    let (out, _) = run(list, &url_mode());
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 3, "{out}");
    assert!(lines[0] == "- a" && lines[1].starts_with("- <img ") && lines[2] == "- b");
    // A list that starts after a fence is not swallowed by the image's HTML block.
    let (out, _) = run("```fen\n```\n1. e4 e5\n", &url_mode());
    assert!(out.ends_with("\">\n\n1. e4 e5\n"), "{out}");
    let nested = "- a\n  ```fen\n  ```\n  - b\n";
    let (out, _) = run(nested, &url_mode());
    assert!(out.ends_with("\">\n\n  - b\n"), "{out}");
}

#[test]
fn options_given_to_every_fence_are_checked_once() {
    let settings = Settings {
        defaults: vec![("sise".into(), "300".into())],
        ..url_mode()
    };
    assert!(
        settings
            .check()
            .unwrap_err()
            .to_string()
            .contains("did you mean size?")
    );
    assert!(url_mode().check().is_ok());
}

#[test]
fn image_caption_is_drawn_and_caption_stays_a_figcaption() {
    let source =
        "```fen background=dark\nstart\ncaption: A figure\nimage-caption: White to move\n```\n";
    let (out, report) = run(source, &url_mode());
    assert_eq!(report.fences, 1);
    assert!(out.contains("background=dark"), "{out}");
    assert!(
        out.contains("caption=White+to+move") || out.contains("caption=White%20to%20move"),
        "{out}"
    );
    assert!(out.contains("<figcaption>A figure</figcaption>"), "{out}");
    let bad = "```fen\nstart\nimage-caption: move\n```\n";
    let mut sink = Vec::new();
    let error = rewrite(bad, &url_mode(), &Renderer::default(), &mut sink).unwrap_err();
    assert!(
        error.to_string().contains("caption=move needs a game"),
        "{error}"
    );
}
