//! Tagged PDF (PDF/UA-1): the diagram PDF, a worksheet and an article read back. The
//! structure objects are not compressed, so their bytes are read here as they are: the
//! structure tree, one `Figure` per diagram with the `/describe` sentence as `/Alt`,
//! `/Lang`, the title, `MarkInfo`, `DisplayDocTitle`, the XMP's `pdfuaid:part` and the
//! article's artifacts. Where poppler is installed (CI requires it), `pdfinfo
//! -struct-text` must read the same tree.

use crate::common;

use staunton::chess::annotated::{self, Letters, Limits};
use staunton::chess::describe::{Lang, describe_in};
use staunton::render::article::{Article, ArticleOptions};
use staunton::render::options::Format;
use staunton::render::sheet::{Sheet, SheetOptions};
use staunton::request::article::marks;
use staunton::request::puzzles::{self, PuzzleFormat};
use staunton::{RenderOptions, Renderer};

/// Every part of a tagged PDF that does not depend on the document, and the figures.
fn tagged(pdf: &[u8], lang: &str, alts: &[String]) -> String {
    let text = String::from_utf8_lossy(pdf).into_owned();
    for want in [
        "/Type /StructTreeRoot",
        "/S /Document",
        "/ParentTree",
        "/StructParents 0",
        "/Marked true",
        "/DisplayDocTitle true",
        "<pdfuaid:part>1</pdfuaid:part>",
        &format!("/Lang ({lang})"),
        &format!("<rdf:li>{lang}</rdf:li>"),
    ] {
        assert!(text.contains(want), "{want} is missing");
    }
    assert_eq!(
        text.matches("/S /Figure").count(),
        alts.len(),
        "one Figure per diagram"
    );
    for alt in alts {
        assert!(
            text.contains(&format!("/Alt ({alt})")),
            "no figure has the alt text {alt}"
        );
    }
    text
}

/// `pdfinfo -struct-text` of `pdf`, or `None` where poppler is not installed (CI sets
/// STAUNTON_REQUIRE_POPPLER=1, so there its absence fails).
fn poppler_tree(pdf: &[u8], name: &str) -> Option<String> {
    if !crate::article::poppler() {
        return None;
    }
    let path =
        std::env::temp_dir().join(format!("staunton-tags-{}-{name}.pdf", std::process::id()));
    std::fs::write(&path, pdf).expect("written");
    let out = std::process::Command::new("pdfinfo")
        .arg("-struct-text")
        .arg(&path)
        .output()
        .expect("pdfinfo runs");
    let _ = std::fs::remove_file(&path);
    assert!(out.status.success(), "pdfinfo fails on the {name} PDF");
    Some(String::from_utf8_lossy(&out.stdout).into_owned())
}

#[test]
fn the_diagram_pdf_is_one_figure_described_in_its_language() {
    let position = staunton::Position::start();
    let options = RenderOptions {
        lang: Lang::De,
        caption: Some("Start".to_string()),
        ..RenderOptions::default()
    };
    let pdf = Renderer::default()
        .render(&position, &options, Format::Pdf)
        .expect("renders");
    let alt = describe_in(&position, Lang::De);
    assert!(alt.contains("Weiß"), "{alt}");
    // Non-ASCII alt text is written as UTF-16: look for the English one's bytes instead.
    let text = String::from_utf8_lossy(&pdf).into_owned();
    assert!(
        text.contains("/Lang (de)") && text.contains("/Title (Start)"),
        "{text}"
    );
    assert_eq!(text.matches("/S /Figure").count(), 1);
    let english = Renderer::default()
        .render(&position, &RenderOptions::default(), Format::Pdf)
        .expect("renders");
    tagged(&english, "en", &[describe_in(&position, Lang::En)]);
    if let Some(tree) = poppler_tree(&pdf, "diagram") {
        assert_eq!(
            tree.lines().collect::<Vec<_>>()[..2],
            ["Document", "  Figure"],
            "{tree}"
        );
    }
}

#[test]
fn a_worksheet_has_its_title_as_heading_and_a_described_figure_per_diagram() {
    let text = std::fs::read_to_string(common::fixture("puzzles/eight.epd")).expect("fixture");
    let entries = puzzles::read(&text, PuzzleFormat::Epd, 100).expect("the fixture reads");
    let alts: Vec<String> = entries
        .iter()
        .map(|e| describe_in(&e.position, Lang::En))
        .collect();
    let renderer = Renderer::default();
    let options = SheetOptions {
        title: Some("Eight puzzles".to_string()),
        ..SheetOptions::default()
    };
    let sheet = Sheet::new(&renderer, entries, options).expect("lays out");
    let pdf = sheet.pdf(&renderer).expect("writes");
    let text = tagged(&pdf, "en", &alts);
    assert!(text.contains("/Title (Eight puzzles)") && text.contains("/S /H1"));
    if let Some(tree) = poppler_tree(&pdf, "sheet") {
        assert_eq!(tree.matches("\n  Figure").count(), 8, "{tree}");
        assert!(
            tree.contains("  H1 (block)\n    \"Eight puzzles\""),
            "{tree}"
        );
        assert!(tree.contains("\"White to move\""), "{tree}");
    }
}

#[test]
fn an_article_has_its_moves_as_paragraphs_figures_and_its_rule_as_an_artifact() {
    let pgn = std::fs::read_to_string(common::fixture("articles/opera.pgn")).expect("fixture");
    let game = annotated::read(&pgn, Letters::English, Limits::default()).expect("reads");
    let renderer = Renderer::default();
    let article =
        Article::new(&renderer, &game, ArticleOptions::default(), &marks).expect("lays out");
    let alts: Vec<String> = article
        .flow
        .diagrams
        .iter()
        .map(|d| describe_in(&d.position, Lang::En))
        .collect();
    assert_eq!(alts.len(), 3);
    let pdf = article.pdf(&renderer).expect("writes");
    let text = tagged(&pdf, "en", &alts);
    assert!(
        text.contains("/Artifact BMC"),
        "the rule is not an artifact"
    );
    assert!(text.contains("/S /H1") && text.contains("/S /P"));
    if let Some(tree) = poppler_tree(&pdf, "article") {
        assert_eq!(tree.matches("\n  Figure").count(), 3, "{tree}");
        assert!(tree.contains("  H1 (block)\n    \"Morphy"), "{tree}");
        assert!(tree.contains("\"performance,\""), "{tree}");
    }
}
