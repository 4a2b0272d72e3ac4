//! Articles: annotated games typeset. The PDF printed by poppler must match its golden
//! page and give its moves back as text, in order; each diagram on the page, read square by
//! square, must be the position after its move; the HTML must be one self-contained page
//! with a figure (inline SVG and alt text) per diagram.

use crate::common;
use crate::sheet::{read_square, references};

use image::RgbaImage;
use staunton::chess::annotated::{self, Annotated, Letters, Limits};
use staunton::render::article::pages::Item;
use staunton::render::article::{Article, ArticleOptions};
use staunton::render::options::Region;
use staunton::request::article::marks;
use staunton::snapshot::Tolerance;
use staunton::{RenderOptions, Renderer, Square};
use std::path::{Path, PathBuf};
use std::process::Command;

fn game(name: &str) -> Annotated {
    let text =
        std::fs::read_to_string(common::fixture(&format!("articles/{name}.pgn"))).expect("fixture");
    annotated::read(&text, Letters::English, Limits::default()).expect("the fixture reads")
}

fn lay_out(renderer: &Renderer, name: &str, options: ArticleOptions) -> Article {
    Article::new(renderer, &game(name), options, &marks).expect("lays out")
}

/// Whether poppler's tools are here; `.ci/run` installs them and sets
/// STAUNTON_REQUIRE_POPPLER=1, so there their absence fails.
pub(crate) fn poppler() -> bool {
    let here = Command::new("pdftoppm").arg("-v").output().is_ok();
    if !here {
        assert!(
            std::env::var_os("STAUNTON_REQUIRE_POPPLER").is_none(),
            "pdftoppm is not installed (apt-get install -y poppler-utils)"
        );
        eprintln!("pdftoppm is not installed: the article's PDF is not printed here");
    }
    here
}

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("staunton-article-{name}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("scratch");
    dir
}

/// Page `n` (from 1) of `pdf` printed at `dpi` (72: one pixel a point).
fn print(pdf: &Path, n: usize, dpi: u32) -> RgbaImage {
    let out = Command::new("pdftoppm")
        .args([
            "-png",
            "-r",
            &dpi.to_string(),
            "-f",
            &n.to_string(),
            "-l",
            &n.to_string(),
        ])
        .arg("-singlefile")
        .arg(pdf)
        .arg(pdf.with_extension(format!("p{n}")))
        .output()
        .expect("runs");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    common::decode(&std::fs::read(pdf.with_extension(format!("p{n}.png"))).expect("a page"))
}

fn text_of(pdf: &Path) -> String {
    let out = Command::new("pdftotext")
        .args(["-layout"])
        .arg(pdf)
        .arg("-")
        .output()
        .expect("runs");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).expect("UTF-8")
}

/// Every diagram of page `n` of the article, read square by square from `img` (printed at
/// 144 dpi, two pixels a point), is the position of its flow diagram (the last move's two
/// tinted squares are not read).
fn decode_page(img: &RgbaImage, article: &Article, n: usize, renderer: &Renderer) -> usize {
    let mut boards = 0;
    for item in &article.pages[n].items {
        let Item::Diagram { n: d, x, y, size } = item else {
            continue;
        };
        let (want, drawn) = article.diagram(*d, *size);
        let plain = RenderOptions {
            size: 2 * size,
            last_move: None,
            arrows: Vec::new(),
            highlights: Vec::new(),
            ..drawn.clone()
        };
        let refs = references(renderer, &plain);
        let tinted = drawn
            .last_move
            .map(|m| [m.from, Some(m.to)])
            .unwrap_or_default();
        for sq in want.squares() {
            if tinted.contains(&Some(sq)) {
                continue;
            }
            let origin = (2 * *x as u32, 2 * *y as u32);
            let best = read_square(img, origin, renderer, &plain, &refs, sq);
            assert_eq!(
                best,
                want.get(sq),
                "diagram {} square {sq} reads as {best:?}",
                d + 1
            );
        }
        boards += 1;
    }
    boards
}

/// Compare page 1 with its golden (`UPDATE_GOLDEN=1` writes it).
fn golden(img: &RgbaImage, name: &str) {
    let path = common::golden_dir().join(format!("article-{name}.png"));
    if std::env::var_os("UPDATE_GOLDEN").is_some() {
        img.save(&path).expect("golden written");
        return;
    }
    let want = image::open(&path).expect("golden exists").to_rgba8();
    let diff = common::compare(
        &want,
        img,
        Tolerance {
            channel: 40,
            pixels: 400,
        },
    );
    if !diff.matches() {
        let (actual, picture) = (
            path.with_extension("actual.png"),
            path.with_extension("diff.png"),
        );
        common::write_mismatch(&want, img, &diff, (&actual, &picture));
        panic!(
            "article {name}: page 1 differs from its golden: {diff:?}; see {}",
            actual.display()
        );
    }
}

/// Print the article's PDF, compare page 1 with the golden, read every diagram back, and
/// give the text.
fn printed(article: &Article, renderer: &Renderer, name: &str) -> Option<String> {
    if !poppler() {
        return None;
    }
    let pdf = article.pdf(renderer).expect("renders");
    let text = String::from_utf8_lossy(&pdf);
    assert!(text.starts_with("%PDF-"));
    assert!(text.contains("/FontFile2"), "the font is embedded");
    assert!(!text.contains("/Subtype /Image"), "no raster anywhere");
    let dir = scratch(name);
    let file = dir.join(format!("{name}.pdf"));
    std::fs::write(&file, &pdf).expect("written");
    let mut boards = 0;
    for n in 0..article.pages.len() {
        if n == 0 {
            let img = print(&file, 1, 72);
            // 595.28 pt: poppler rounds the width up.
            assert!(
                matches!((img.width(), img.height()), (595 | 596, 842)),
                "A4 at 72 dpi"
            );
            golden(&img, name);
        }
        boards += decode_page(&print(&file, n + 1, 144), article, n, renderer);
    }
    assert_eq!(
        boards,
        article.flow.diagrams.len(),
        "every diagram is on a page"
    );
    let text = text_of(&file);
    let _ = std::fs::remove_dir_all(&dir);
    Some(text)
}

/// `words` occur in `text` in this order.
fn in_order(text: &str, words: &[&str]) {
    let mut from = 0;
    for w in words {
        match text[from..].find(w) {
            Some(at) => from += at + w.len(),
            None => panic!("{w:?} is not in the text after byte {from}:\n{text}"),
        }
    }
}

#[test]
fn the_opera_game_prints_with_its_moves_as_text_and_its_diagrams_readable() {
    let renderer = Renderer::default();
    let article = lay_out(&renderer, "opera", ArticleOptions::default());
    assert_eq!(article.flow.diagrams.len(), 3, "three {{[#]}} markers");
    let captions: Vec<&str> = article
        .flow
        .diagrams
        .iter()
        .map(|d| d.caption.as_str())
        .collect();
    assert_eq!(
        captions,
        ["After 9...b5", "After 12...♖d8", "After 16.♕b8+"]
    );
    let Some(text) = printed(&article, &renderer, "opera") else {
        return;
    };
    in_order(
        &text,
        &[
            "Morphy, Paul – Duke Karl",
            "1.e4",
            "e5",
            "2.♘f3",
            "3...exd4",
            "9.♗g5",
            "b5?!",
            "After 9...b5",
            "10.♘xb5!",
            "12.O-O-O",
            "16.♕b8+!!",
            "17.♖d8#",
            "1–0",
        ],
    );
    assert!(!text.contains("[%cal"), "commands are not printed");
    assert!(!text.contains("[#]"), "markers are not printed");
}

#[test]
fn nested_variations_indent_and_every_marker_convention_makes_a_diagram() {
    let renderer = Renderer::default();
    let article = lay_out(&renderer, "nested", ArticleOptions::default());
    // {[D]}, {[#]} twice, $201, $1304 and a lone {#}.
    assert_eq!(
        article.flow.diagrams.len(),
        6,
        "{:#?}",
        article.flow.diagrams
    );
    assert!(article.flow.diagrams.iter().any(|d| d.in_variation));
    let Some(text) = printed(&article, &renderer, "nested") else {
        return;
    };
    in_order(&text, &["Anderssen", "1.e4", "e5", "2.f4", "exf4"]);
}

#[test]
fn two_columns_set_a_long_game_and_keep_diagrams_whole() {
    let renderer = Renderer::default();
    let options = ArticleOptions {
        columns: 2,
        ..ArticleOptions::default()
    };
    let article = lay_out(&renderer, "long", options);
    let (width, height) = article.options.paper.points();
    let mut lefts = std::collections::BTreeSet::new();
    for page in &article.pages {
        for item in &page.items {
            if let Item::Diagram { x, y, size, .. } = item {
                lefts.insert((*x < width / 2.0) as u8);
                assert!(
                    *y > 40.0 && y + *size as f32 <= height - 40.0,
                    "inside the page"
                );
            }
        }
    }
    assert_eq!(lefts.len(), 2, "diagrams in both columns");
    printed(&article, &renderer, "long");
}

#[test]
fn the_html_is_one_page_with_a_figure_and_alt_text_per_diagram() {
    let renderer = Renderer::default();
    let article = lay_out(&renderer, "opera", ArticleOptions::default());
    let html = article.html(&renderer).expect("renders");
    assert!(html.starts_with("<!DOCTYPE html><html lang=\"en\">"));
    assert_eq!(html.matches("<figure").count(), 3);
    assert_eq!(html.matches("role=\"img\" aria-label=\"").count(), 3);
    assert_eq!(html.matches("<figcaption>After ").count(), 3);
    for outside in ["src=", "href=\"http", "<script", "<link", "@import"] {
        assert!(
            !html.contains(outside),
            "nothing outside the file: {outside}"
        );
    }
    // Ids are unique across the inline SVGs.
    let ids: Vec<&str> = html
        .split(" id=\"")
        .skip(1)
        .map(|s| &s[..s.find('"').unwrap()])
        .collect();
    let unique: std::collections::BTreeSet<&&str> = ids.iter().collect();
    assert_eq!(ids.len(), unique.len(), "ids are unique");
    in_order(
        &html,
        &["<b>1.e4</b>", "<b>b5?!</b>", "<figure", "<b>17.♖d8#</b>"],
    );
    // Each diagram's alt text is its position in words.
    for d in &article.flow.diagrams {
        let words = staunton::chess::describe::describe(&d.position);
        assert!(
            html.contains(&words.replace('&', "&amp;")),
            "alt text {words}"
        );
    }
}

#[test]
fn the_figurines_of_bold_moves_are_stroked_to_the_weight_of_the_letters() {
    let renderer = Renderer::default();
    let stroked = |notation| {
        let options = ArticleOptions {
            notation,
            ..ArticleOptions::default()
        };
        let pdf = lay_out(&renderer, "opera", options)
            .pdf(&renderer)
            .expect("renders");
        // Text drawn with fill and stroke (render mode 2) in the page's content streams.
        String::from_utf8_lossy(&pdf)
            .lines()
            .filter(|l| *l == "2 Tr")
            .count()
    };
    use staunton::render::article::Notation;
    let figurines = stroked(Notation::Figurine);
    // The opera game's main line (bold) has a piece move in most of its 33 moves.
    assert!(
        figurines >= 15,
        "{figurines} runs of bold figurines stroked"
    );
    assert_eq!(stroked(Notation::Letters), 0, "letters are never stroked");
}

#[test]
fn letters_and_options_change_what_is_printed() {
    let renderer = Renderer::default();
    let options = ArticleOptions {
        notation: staunton::render::article::Notation::Letters,
        lang: staunton::chess::describe::Lang::De,
        fen: true,
        at_end: true,
        every: Some(10),
        ..ArticleOptions::default()
    };
    let article = lay_out(&renderer, "opera", options);
    let html = article.html(&renderer).expect("renders");
    assert!(html.contains("<b>2.Sf3</b>"), "German letters");
    assert!(html.contains("Nach 9...b5"), "German captions");
    assert!(html.contains("class=\"fen\""), "FEN under the diagrams");
    // Three markers, plies 10, 20 and 30 (the marker after ply 18 is its own), the end.
    assert_eq!(
        article.flow.diagrams.len(),
        7,
        "{:#?}",
        article
            .flow
            .diagrams
            .iter()
            .map(|d| &d.caption)
            .collect::<Vec<_>>()
    );
}

#[test]
fn an_article_with_a_region_draws_that_part_of_each_diagram_readably() {
    let renderer = Renderer::default();
    let region = Region::new(Square::new(0, 4), Square::new(3, 7));
    let options = ArticleOptions {
        diagram: RenderOptions {
            region: Some(region),
            ..RenderOptions::default()
        },
        ..ArticleOptions::default()
    };
    let article = lay_out(&renderer, "opera", options);
    assert_eq!(article.flow.diagrams.len(), 3);
    for d in 0..article.flow.diagrams.len() {
        let (want, drawn) = article.diagram(d, 180);
        assert_eq!(drawn.region, Some(region), "diagram {}", d + 1);
        let plain = RenderOptions {
            last_move: None,
            arrows: Vec::new(),
            highlights: Vec::new(),
            check: staunton::render::options::Check::Off,
            ..drawn.clone()
        };
        let img = common::decode(&renderer.png(want, &plain).expect("renders"));
        let refs = references(&renderer, &plain);
        for sq in want.squares().filter(|s| region.contains(*s)) {
            let best = read_square(&img, (0, 0), &renderer, &plain, &refs, sq);
            assert_eq!(best, want.get(sq), "diagram {} square {sq}", d + 1);
        }
    }
    // The pages render with the region in place.
    let pdf = article.pdf(&renderer).expect("renders");
    assert!(pdf.starts_with(b"%PDF-"));
}

#[test]
fn a_diagrams_comment_marks_include_its_mark_markers() {
    let renderer = Renderer::default();
    let text = "1. e4 {[#] [%cal Gg1f3][%csl Rd5][%mark circle:e5,label:d4:1]} e5 {[#]} *";
    let game = annotated::read(text, Letters::English, Limits::default()).expect("reads");
    let article =
        Article::new(&renderer, &game, ArticleOptions::default(), &marks).expect("lays out");
    let (_, marked) = article.diagram(0, 200);
    let square = |name| Square::parse(name, staunton::BoardSize::CHESS).expect("a square");
    assert_eq!(marked.arrows.len(), 1, "[%cal]");
    assert_eq!(marked.highlights.len(), 1, "[%csl]");
    let squares: Vec<Square> = marked.markers.iter().map(|m| m.square).collect();
    assert_eq!(squares, [square("e5"), square("d4")], "[%mark], in order");
    let (_, plain) = article.diagram(1, 200);
    assert!(
        plain.arrows.is_empty() && plain.highlights.is_empty() && plain.markers.is_empty(),
        "the next diagram has none of them"
    );
    let (position, _) = article.diagram(0, 200);
    assert_ne!(
        renderer.png(position, &marked).expect("renders"),
        renderer
            .png(
                position,
                &RenderOptions {
                    markers: Vec::new(),
                    ..marked.clone()
                }
            )
            .expect("renders"),
        "the markers are drawn"
    );
}
