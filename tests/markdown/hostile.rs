//! Hostile documents: many fences, huge fences, unterminated and nested ones, and random
//! Markdown. None may panic; a bad fence is one sentence; nothing grows past the document.

use super::{run, url_mode};
use proptest::prelude::*;
use staunton::Renderer;
use staunton::markdown::{Settings, rewrite};

#[test]
fn a_hundred_thousand_fences_are_read_each_once() {
    let fence = "```fen\nstart\n```\n\n";
    let source = fence.repeat(100_000);
    let (out, report) = run(&source, &url_mode());
    assert_eq!(report.fences, 100_000);
    assert_eq!(out.matches("<img ").count(), 100_000);
    // Output grows by the replacement only, not by anything kept per fence.
    assert!(out.len() < source.len() * 40, "{} bytes", out.len());
}

#[test]
fn a_megabyte_fence_is_one_sentence_naming_its_size() {
    for (info, body) in [
        ("fen", "8/".repeat(500_000)),
        ("pgn", "1. e4 e5 ".repeat(110_000)),
    ] {
        let source = format!("```{info}\n{body}\n```\n");
        let mut out = Vec::new();
        let error = rewrite(&source, &url_mode(), &Renderer::default(), &mut out).unwrap_err();
        let sentence = error.to_string();
        assert!(sentence.starts_with("line 1: "), "{sentence}");
        assert!(sentence.contains("bytes"), "{info}: {sentence}");
        assert!(
            sentence.len() < 300,
            "{info}: the sentence echoes a short part: {sentence}"
        );
    }
}

#[test]
fn an_unterminated_fence_runs_to_the_end_of_the_document() {
    let (out, report) = run("text\n\n```fen\nstart\n", &url_mode());
    assert_eq!(report.fences, 1);
    assert!(out.starts_with("text\n\n<img "), "{out}");
    let mut sink = Vec::new();
    let error = rewrite(
        "```fen\nstart\n\nmore prose\n",
        &url_mode(),
        &Renderer::default(),
        &mut sink,
    );
    let sentence = error.unwrap_err().to_string();
    assert!(sentence.contains("\"more prose\""), "{sentence}");
    assert!(
        sentence.starts_with("line 1: the ```fen fence opened at line 1 is never closed"),
        "{sentence}"
    );
}

#[test]
fn backticks_inside_fences_and_info_strings() {
    // A backtick fence's info string may not hold a backtick: not a fence at all.
    let source = "```fen `start`\nstart\n```\n";
    assert_eq!(run(source, &url_mode()).0, source);
    // A longer fence holds a shorter one, which is then part of the body.
    let source = "````fen\nstart\ncaption: a ``` b\n````\n";
    let (out, _) = run(source, &url_mode());
    assert!(out.contains("<figcaption>a ``` b</figcaption>"), "{out}");
}

#[test]
fn deep_nesting_neither_overflows_nor_loses_the_fence() {
    for prefix in ["> ", "- "] {
        let depth = 2_000;
        let mut source = String::new();
        for level in 0..depth {
            let indent = if prefix == "- " {
                "  ".repeat(level)
            } else {
                String::new()
            };
            let quotes = if prefix == "> " {
                "> ".repeat(level + 1)
            } else {
                String::new()
            };
            source += &format!(
                "{indent}{quotes}{}item\n",
                if prefix == "- " { "- " } else { "" }
            );
        }
        source += "\n```fen\nstart\n```\n";
        let (out, report) = run(&source, &url_mode());
        assert_eq!(report.fences, 1, "{prefix:?}");
        assert!(out.ends_with("\">\n"), "{prefix:?}");
    }
}

/// Lines a random document is made of: fences of every kind, containers, HTML, prose.
const LINES: &[&str] = &[
    "```fen",
    "```pgn",
    "```chess",
    "~~~fen size=120",
    "```",
    "~~~",
    "````",
    "start",
    "8/8/8/8/8/8/8/K6k w",
    "size: 9000",
    "arrows: e2->e4",
    "1. e4 e5",
    "> ",
    "> ```fen",
    "- ",
    "  ```fen",
    "    ```fen",
    "<!--",
    "-->",
    "<div>",
    "</div>",
    "",
    "text *em* `code`",
    "caption: x",
    "[^1]: note",
    "\t```fen",
    "```fen size=",
    "\u{feff}",
    "\r",
];

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    /// Any document: no panic; going on past bad fences, the output has no diagram fence
    /// left, so rewriting it again changes nothing.
    #[test]
    fn random_documents_rewrite_once_and_for_all(picks in prop::collection::vec(0..LINES.len(), 0..60)) {
        let source: String = picks.iter().map(|&i| format!("{}\n", LINES[i])).collect();
        let settings = Settings { keep_going: true, ..url_mode() };
        let (out, report) = run(&source, &settings);
        let (again, second) = run(&out, &settings);
        prop_assert_eq!(second.fences, 0, "{:?} left a fence in {:?}", source, out);
        prop_assert_eq!(&again, &out);
        if report.fences == 0 {
            prop_assert_eq!(&out, &source);
        }
    }
}

#[test]
fn lone_carriage_returns_end_lines_as_in_commonmark() {
    let source = "```fen\n```\r```fen\n```\n";
    let (out, report) = run(source, &url_mode());
    assert_eq!(
        (report.fences, out.matches("<img ").count()),
        (2, 2),
        "{out:?}"
    );
    let mut sink = Vec::new();
    let error = rewrite(
        "a\r\r```fen\nsize: 1\n```\n",
        &url_mode(),
        &Renderer::default(),
        &mut sink,
    );
    // The fence opens on line 3; its bad option stands on line 4.
    assert!(error.unwrap_err().to_string().starts_with("line 4: "));
}
