//! Added fonts (`--fonts DIR`): Japanese captions and cards drawn with a CJK font the
//! operator supplies. One test binary of its own, because fonts are added once per
//! process and would change what the other binaries' tests expect (a Japanese caption is
//! a 400 without them).
//!
//! The font is Noto Sans CJK (Debian's `fonts-noto-cjk`, which `.ci/run` installs), found
//! in `STAUNTON_CJK_FONTS` (a folder with `NotoSansCJK-Regular.ttc`) or Debian's place for
//! it. Without it the font-dependent tests say so and pass, unless
//! `STAUNTON_REQUIRE_CJK=1` (as in CI) makes its absence a failure.
//! `UPDATE_GOLDEN=1 cargo test --test fonts` rewrites the goldens (`tests/golden/ja-*.png`).

#[path = "../common/mod.rs"]
mod common;
#[path = "../http/support.rs"]
#[allow(dead_code)]
mod support;

use staunton::Renderer;
use staunton::render::FontError;
use staunton::request::Request;
use staunton::request::share_card::CardRequest;
use staunton::snapshot::Tolerance;
use std::path::PathBuf;
use std::sync::OnceLock;

const TOLERANCE: Tolerance = Tolerance {
    channel: 8,
    pixels: 16,
};

/// The Japanese goldens: name and query.
const CASES: &[(&str, &str)] = &[
    (
        "ja-caption",
        "fen=r1bqkb1r/pppp1ppp/2n2n2/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR_w_KQkq_-_4_4&caption=%E7%99%BD%E7%95%AA%E3%81%A7%E4%B8%80%E6%89%8B%E8%A9%B0%E3%82%81%E3%80%82%E9%BB%92%E3%81%AF%E3%80%81%E3%81%BE%E3%81%A0%E6%B0%97%E3%81%A5%E3%81%84%E3%81%A6%E3%81%84%E3%81%AA%E3%81%84%E3%80%8C%E5%95%8F%E9%A1%8C%EF%BC%93%E3%80%8D&lang=ja&size=360",
    ),
    (
        "ja-caption-fen",
        "fen=r1bqkb1r/pppp1ppp/2n2n2/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR_w_KQkq_-_4_4&caption=fen&lang=ja&background=dark&size=300",
    ),
    (
        "ja-caption-move",
        "pgn=1.e4+e5+2.Bc4+Nc6+3.Qh5+Nf6+4.Qxf7%23&caption=move&lang=ja&size=300",
    ),
];

/// A folder holding Noto Sans CJK's regular and bold collections, if this machine has
/// them (links to the files, so nothing else in their folder is read).
fn cjk_fonts() -> Option<PathBuf> {
    let from = std::env::var_os("STAUNTON_CJK_FONTS")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from("/usr/share/fonts/opentype/noto"));
    let files = ["NotoSansCJK-Regular.ttc", "NotoSansCJK-Bold.ttc"];
    if !from.join(files[0]).is_file() {
        return None;
    }
    let dir = std::env::temp_dir().join(format!("staunton-cjk-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    for f in files.iter().filter(|f| from.join(f).is_file()) {
        let _ = std::fs::remove_file(dir.join(f));
        std::os::unix::fs::symlink(from.join(f), dir.join(f)).expect("link a font");
    }
    Some(dir)
}

/// Whether the CJK font is added to this process (added on first call).
fn with_cjk() -> bool {
    static ADDED: OnceLock<bool> = OnceLock::new();
    *ADDED.get_or_init(|| match cjk_fonts() {
        Some(dir) => {
            staunton::render::add_fonts(&dir).expect("adds the CJK fonts");
            true
        }
        None => {
            let required = std::env::var_os("STAUNTON_REQUIRE_CJK").is_some_and(|v| v == "1");
            assert!(
                !required,
                "STAUNTON_REQUIRE_CJK=1 but no NotoSansCJK-Regular.ttc (apt-get install fonts-noto-cjk, or set STAUNTON_CJK_FONTS)"
            );
            eprintln!("skipped: no CJK font on this machine (apt-get install fonts-noto-cjk)");
            false
        }
    })
}

/// `png` (and `svg`, rasterised, when given) against the golden `name`, or written with
/// `UPDATE_GOLDEN=1`; a failure's description.
fn check_golden(name: &str, png: &[u8], svg: Option<&str>) -> Option<String> {
    let path = common::golden_dir().join(format!("{name}.png"));
    if std::env::var_os("UPDATE_GOLDEN").is_some_and(|v| v == "1") {
        std::fs::write(&path, png).expect("write golden");
        return Some(format!("{name}: rewritten (UPDATE_GOLDEN=1): look at it"));
    }
    let Ok(golden) = std::fs::read(&path) else {
        return Some(format!(
            "{name}: no golden at {} (UPDATE_GOLDEN=1)",
            path.display()
        ));
    };
    let expected = common::decode(&golden);
    let mut formats = vec![("png", common::decode(png))];
    formats.extend(svg.map(|s| ("svg", common::rasterise_svg(s))));
    for (format, actual) in formats {
        if actual.dimensions() != expected.dimensions() {
            return Some(format!("{name} ({format}): size {:?}", actual.dimensions()));
        }
        let diff = common::compare(&expected, &actual, TOLERANCE);
        if !diff.matches() {
            let dir = common::golden_dir();
            let out = |k: &str| dir.join(format!("{name}.{format}.{k}.png"));
            common::write_mismatch(&expected, &actual, &diff, (&out("actual"), &out("diff")));
            return Some(format!(
                "{name} ({format}): {} pixels differ",
                diff.differing
            ));
        }
    }
    None
}

#[test]
fn japanese_captions_match_their_goldens_in_png_and_svg() {
    if !with_cjk() {
        return;
    }
    let renderer = Renderer::default();
    let mut failures = Vec::new();
    for (name, query) in CASES {
        let request = Request::from_query(query, None).expect("a valid case");
        let png = renderer
            .png(&request.position, &request.options)
            .expect("png");
        let svg = renderer
            .svg(&request.position, &request.options)
            .expect("svg");
        failures.extend(check_golden(name, &png, Some(&svg)));
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn a_japanese_move_caption_is_the_japanese_sentence() {
    if !with_cjk() {
        return;
    }
    let request = Request::from_query(CASES[2].1, None).expect("valid");
    let svg = Renderer::default()
        .svg(&request.position, &request.options)
        .expect("svg");
    // The words are in the SVG's description too; without the font it was the move alone.
    assert!(
        svg.contains("4.Qxf7#の後"),
        "{}",
        &svg[..svg.len().min(600)]
    );
}

#[test]
fn a_card_with_a_japanese_title_matches_its_golden() {
    if !with_cjk() {
        return;
    }
    let pairs = [
        (
            "fen",
            "r1bqkb1r/pppp1ppp/2n2n2/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR w KQkq - 4 4",
        ),
        ("title", "白番、一手で詰ませよ"),
        ("subtitle", "「学者の詰み」を防ぐには"),
    ];
    let card = CardRequest::from_pairs_with(pairs, &Default::default()).expect("valid");
    let png = card.png(&Renderer::default()).expect("renders");
    let failure = check_golden("ja-card", &png, None);
    assert!(failure.is_none(), "{failure:?}");
}

#[test]
fn wrapped_japanese_keeps_stops_off_a_line_start_and_brackets_off_its_end() {
    if !with_cjk() {
        return;
    }
    let text = "白の手番で勝つ。黒は、まだ気づいていない局面です「詰み」。白は、どう指すか。";
    for width in (120..=480).step_by(7) {
        let (lines, _) = staunton::render::scene::caption::lay_out(
            text,
            width,
            0,
            0,
            staunton::render::theme::Rgba::hex(0x000000),
        );
        let face = staunton::render::scene::caption::face().expect("face");
        for (i, line) in lines.iter().enumerate() {
            let first = line.text.chars().next().expect("a line has text");
            let last = line.text.chars().last().expect("a line has text");
            assert!(
                !"、。」）".contains(first) || i == 0,
                "{width}: {:?}",
                line.text
            );
            assert!(!"「（".contains(last), "{width}: {:?}", line.text);
            let w = face.width(&line.text, line.px);
            assert!(
                line.x >= 0.0 && line.x + w <= width as f32 + 0.5,
                "{width}: {line:?} is {w} wide"
            );
        }
    }
}

#[test]
fn the_command_line_draws_japanese_with_fonts_and_refuses_it_without() {
    let Some(dir) = cjk_fonts() else {
        let _ = with_cjk(); // fails here when the font is required
        return;
    };
    let out = std::env::temp_dir().join(format!("staunton-ja-{}.png", std::process::id()));
    let run = |fonts: Option<&PathBuf>| {
        let mut cmd = std::process::Command::new(env!("CARGO_BIN_EXE_staunton"));
        cmd.args(["render", "start", "--caption", "白番", "-o"])
            .arg(&out);
        match fonts {
            Some(dir) => cmd.arg("--fonts").arg(dir),
            // Without the system's fonts too (tests/system_fonts tests them).
            None => cmd.arg("--system-fonts=false"),
        };
        cmd.env_remove("STAUNTON_FONTS").output().expect("runs")
    };
    let with = run(Some(&dir));
    assert!(
        with.status.success(),
        "{}",
        String::from_utf8_lossy(&with.stderr)
    );
    assert_eq!(&std::fs::read(&out).expect("written")[1..4], b"PNG");
    let without = run(None);
    let said = String::from_utf8_lossy(&without.stderr);
    assert!(!without.status.success());
    assert!(
        said.contains("the character U+767D at character") && said.contains("--fonts DIR"),
        "{said}"
    );
}

#[test]
fn a_font_folder_that_cannot_be_used_is_named_in_the_error() {
    let base = std::env::temp_dir().join(format!("staunton-badfonts-{}", std::process::id()));
    let (empty, broken) = (base.join("empty"), base.join("broken"));
    std::fs::create_dir_all(&empty).expect("dir");
    std::fs::create_dir_all(&broken).expect("dir");
    std::fs::write(broken.join("notes.txt"), "not a font").expect("file");
    std::fs::write(broken.join("fake.ttf"), "not a font either").expect("file");
    let err = staunton::render::add_fonts(&empty).expect_err("no fonts");
    assert!(matches!(err, FontError::Empty(_)), "{err}");
    assert!(
        err.to_string()
            .contains("has no font file (.ttf, .otf, .ttc or .otc)")
    );
    let err = staunton::render::add_fonts(&broken).expect_err("not a font");
    assert!(
        err.to_string()
            .contains("fake.ttf is not a TrueType or OpenType font"),
        "{err}"
    );
    let err = staunton::render::add_fonts(&base.join("missing")).expect_err("missing");
    assert!(err.to_string().starts_with("cannot read "), "{err}");
    if with_cjk() {
        let dir = cjk_fonts().expect("found before");
        let err = staunton::render::add_fonts(&dir).expect_err("added before");
        assert!(err.to_string().contains("can be added once"), "{err}");
    }
}

#[tokio::test]
async fn the_service_answers_a_japanese_caption_with_an_etag_of_its_fonts() {
    if !with_cjk() {
        return;
    }
    let state = support::state();
    let none = axum::http::HeaderName::from_static("x-none");
    let uri = "/diagram.png?fen=start&caption=%E7%99%BD%E7%95%AA";
    let a = support::get_with(&state, uri, none.clone(), None).await;
    assert_eq!(a.status, 200, "{}", String::from_utf8_lossy(&a.body));
    assert_eq!(&a.body[1..4], b"PNG");
    // A query drawn alike with or without fonts still has another ETag with them: the
    // bytes of the same query differ once a font draws what DejaVu could not.
    let b = support::get_with(&state, "/diagram.png?fen=start", none, None).await;
    let key = Request::from_query("fen=start", None)
        .expect("valid")
        .cache_key();
    let without_fonts = format!("\"{:016x}\"", staunton::hash::fnv1a(key.bytes()));
    assert_ne!(
        b.header("etag"),
        without_fonts,
        "the fonts are not in the ETag"
    );
}

/// An article whose comment is Japanese: the Latin text is embedded as text, the Japanese
/// (a CFF font, which cannot be cut for embedding) drawn as outlines, so the PDF is made
/// and carries ink where the Japanese words are.
#[test]
fn an_article_with_a_japanese_comment_draws_it_as_outlines() {
    if !with_cjk() {
        return;
    }
    use staunton::chess::annotated::{self, Letters, Limits};
    use staunton::render::article::{Article, ArticleOptions};
    let game = annotated::read(
        "1. e4 {白の最善手 best} e5 *",
        Letters::English,
        Limits::default(),
    )
    .expect("reads");
    let renderer = Renderer::default();
    let article = Article::new(&renderer, &game, ArticleOptions::default(), &|_| {
        Default::default()
    })
    .expect("lays out");
    let pdf = article.pdf(&renderer).expect("a PDF with Japanese in it");
    let plain =
        annotated::read("1. e4 {best} e5 *", Letters::English, Limits::default()).expect("reads");
    let without = Article::new(&renderer, &plain, ArticleOptions::default(), &|_| {
        Default::default()
    })
    .expect("lays out")
    .pdf(&renderer)
    .expect("a PDF");
    assert!(pdf.starts_with(b"%PDF-"));
    // The comment's outlines are path data in the page's content: a larger stream.
    assert!(
        pdf.len() > without.len() + 200,
        "{} vs {}",
        pdf.len(),
        without.len()
    );
    let fonts = String::from_utf8_lossy(&pdf).matches("/FontFile2").count();
    assert_eq!(fonts, 2, "only DejaVu (bold moves, book text) is embedded");
}

/// What poppler's `tool` (`pdftotext`, `pdfinfo`) with `args` writes of `pdf` (written as
/// `name` in a scratch folder), or `None` without poppler (a failure where
/// `STAUNTON_REQUIRE_POPPLER` is set, as `.ci/run` sets it).
fn poppler(tool: &str, args: &[&str], pdf: &[u8], name: &str) -> Option<String> {
    if std::process::Command::new(tool).arg("-v").output().is_err() {
        assert!(
            std::env::var_os("STAUNTON_REQUIRE_POPPLER").is_none(),
            "{tool} is not installed (apt-get install -y poppler-utils)"
        );
        eprintln!("skipped: {tool} is not installed (apt-get install poppler-utils)");
        return None;
    }
    let dir = std::env::temp_dir().join(format!("staunton-cjk-pdf-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("scratch");
    let path = dir.join(name);
    std::fs::write(&path, pdf).expect("write the PDF");
    let out = std::process::Command::new(tool)
        .args(args)
        .arg(&path)
        .args(if tool == "pdftotext" { &["-"][..] } else { &[] })
        .output()
        .expect("runs");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    Some(String::from_utf8(out.stdout).expect("UTF-8"))
}

/// Japanese drawn as outlines (a face that cannot be embedded) in a tagged PDF is still
/// text to a reader: each run carries its text as `/ActualText`, so `pdftotext` gives back
/// an article's Japanese header and comment and a worksheet's Japanese title, caption and
/// answer, beside the Latin text around them.
#[test]
fn japanese_drawn_as_outlines_is_text_in_tagged_pdfs() {
    if !with_cjk() {
        return;
    }
    use staunton::chess::annotated::{self, Letters, Limits};
    use staunton::render::article::{Article, ArticleOptions};
    use staunton::render::sheet::{Entry, Sheet, SheetOptions};
    let renderer = Renderer::default();
    let pgn = "[White \"羽生善治\"]\n[Black \"Kasparov\"]\n\n1. e4 {白の最善手 best} e5 *";
    let game = annotated::read(pgn, Letters::English, Limits::default()).expect("reads");
    let article = Article::new(&renderer, &game, ArticleOptions::default(), &|_| {
        Default::default()
    })
    .expect("lays out")
    .pdf(&renderer)
    .expect("a PDF with Japanese in it");
    let entry = Entry {
        position: staunton::Position::start(),
        caption: Some("初手の問題".into()),
        solution: Some("1. e4 先手".into()),
    };
    let options = SheetOptions {
        title: Some("詰め将棋 Puzzles".into()),
        solutions: true,
        ..SheetOptions::default()
    };
    let sheet = Sheet::new(&renderer, vec![entry], options)
        .expect("lays out")
        .pdf(&renderer)
        .expect("a PDF with Japanese in it");
    let Some(text) = poppler("pdftotext", &[], &article, "article.pdf") else {
        return;
    };
    for words in ["羽生善治 – Kasparov", "白の最善手 best"] {
        assert!(
            text.contains(words),
            "the article's text lacks {words:?}:\n{text}"
        );
    }
    let text = poppler("pdftotext", &[], &sheet, "sheet.pdf").expect("poppler is here");
    for words in ["詰め将棋 Puzzles", "初手の問題", "先手"] {
        assert!(
            text.contains(words),
            "the worksheet's text lacks {words:?}:\n{text}"
        );
    }
    // The structure keeps the text after the outlines: each `/Span` is a sequence of its
    // element's own, so the heading still reads on after it.
    let tree = poppler("pdfinfo", &["-struct-text"], &article, "article.pdf").expect("poppler");
    assert!(tree.contains("\" – Kasparov\""), "{tree}");
    let tree = poppler("pdfinfo", &["-struct-text"], &sheet, "sheet.pdf").expect("poppler");
    assert!(tree.contains("\" Puzzles\""), "{tree}");
}
