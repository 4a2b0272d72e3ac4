//! The system's installed fonts (`render::use_system_fonts`, on by default in the command
//! line and the service): a Japanese caption drawn with Noto Sans CJK found in the
//! system's font folders, without `--fonts`; refused with `--system-fonts=false`; cache
//! keys (and so ETags and file names) that name the system face used. One test binary of
//! its own, because the system's fonts are turned on once per process.
//!
//! Needs Debian's `fonts-noto-cjk` (which `.ci/run` installs); without it the tests that
//! need it say so and pass, unless `STAUNTON_REQUIRE_CJK=1` (as in CI).
//!
//! Also what the system's fonts cost (issue 58): the merged map that tells which face
//! draws a character remembers nothing per character asked; the faces' files are held
//! within their budget; text they draw is priced by its faces, and an answer it would make
//! too large for the image cache is refused before it is made. A counting allocator (this
//! binary only, per thread, so tests running beside do not count) measures what is held.

#[path = "../common/mod.rs"]
mod common;

use staunton::Renderer;
use staunton::request::Request;
use staunton::snapshot::Tolerance;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::sync::OnceLock;

/// Bytes allocated and not yet freed by the current thread while it counts.
struct Counting;

thread_local! {
    static LIVE: std::cell::Cell<isize> = const { std::cell::Cell::new(0) };
    static PEAK: std::cell::Cell<isize> = const { std::cell::Cell::new(0) };
    static COUNTS: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

fn count(bytes: isize) {
    let _ = COUNTS.try_with(|on| {
        if on.get() {
            let _ = LIVE.try_with(|live| {
                live.set(live.get() + bytes);
                let _ = PEAK.try_with(|peak| peak.set(peak.get().max(live.get())));
            });
        }
    });
}

unsafe impl std::alloc::GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: std::alloc::Layout) -> *mut u8 {
        count(layout.size() as isize);
        unsafe { std::alloc::System.alloc(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: std::alloc::Layout) {
        count(-(layout.size() as isize));
        unsafe { std::alloc::System.dealloc(ptr, layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: std::alloc::Layout, size: usize) -> *mut u8 {
        count(size as isize - layout.size() as isize);
        unsafe { std::alloc::System.realloc(ptr, layout, size) }
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

/// What `work` leaves allocated on this thread, in bytes.
fn held_after(work: impl FnOnce()) -> isize {
    LIVE.with(|l| l.set(0));
    COUNTS.with(|c| c.set(true));
    work();
    COUNTS.with(|c| c.set(false));
    LIVE.with(|l| l.get())
}

/// The most `work` held allocated on this thread at once, above what was before.
fn peak_during(work: impl FnOnce()) -> isize {
    LIVE.with(|l| l.set(0));
    PEAK.with(|p| p.set(0));
    COUNTS.with(|c| c.set(true));
    work();
    COUNTS.with(|c| c.set(false));
    PEAK.with(|p| p.get())
}

/// Held by the tests that draw with the system faces in this process, so the faces one
/// reads and lets go are not another's (the faces held are the process's).
fn one_at_a_time() -> std::sync::MutexGuard<'static, ()> {
    static ONE: std::sync::Mutex<()> = std::sync::Mutex::new(());
    ONE.lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
}

/// Where Debian installs Noto Sans CJK.
const NOTO: &str = "/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc";

/// The Japanese caption of `tests/golden/ja-caption.png` (drawn there with `--fonts`).
const JA_CAPTION: &str = "fen=r1bqkb1r/pppp1ppp/2n2n2/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR_w_KQkq_-_4_4&caption=%E7%99%BD%E7%95%AA%E3%81%A7%E4%B8%80%E6%89%8B%E8%A9%B0%E3%82%81%E3%80%82%E9%BB%92%E3%81%AF%E3%80%81%E3%81%BE%E3%81%A0%E6%B0%97%E3%81%A5%E3%81%84%E3%81%A6%E3%81%84%E3%81%AA%E3%81%84%E3%80%8C%E5%95%8F%E9%A1%8C%EF%BC%93%E3%80%8D&lang=ja&size=360";

/// Whether this machine has the CJK font (a failure when it is required).
fn has_cjk() -> bool {
    let found = Path::new(NOTO).is_file();
    let required = std::env::var("STAUNTON_REQUIRE_CJK").as_deref() == Ok("1");
    assert!(found || !required, "STAUNTON_REQUIRE_CJK=1 but no {NOTO}");
    if !found {
        eprintln!("skipped: no {NOTO} on this machine (apt-get install fonts-noto-cjk)");
    }
    found
}

/// The system fonts' budget in this process: the default, which holds Noto Sans CJK's
/// book face (19.5 MB) or its bold one (20.1 MB), not both.
const BUDGET: u64 = staunton::render::DEFAULT_SYSTEM_FONT_BYTES;

/// Turn the system's fonts on in this process (once), over the machine's font folders,
/// and scan them.
fn system_fonts() {
    static ON: OnceLock<()> = OnceLock::new();
    ON.get_or_init(|| {
        assert!(staunton::render::hold_system_fonts_within(BUDGET));
        staunton::render::use_system_fonts(staunton::render::system_font_dirs())
            .expect("turned on once");
        staunton::render::scan_system_fonts();
    });
}

#[test]
fn a_japanese_caption_is_drawn_with_the_system_font_as_with_fonts() {
    let _one = one_at_a_time();
    system_fonts();
    if !has_cjk() {
        return;
    }
    let request = Request::from_query(JA_CAPTION, None).expect("valid");
    let png = Renderer::default()
        .png(&request.position, &request.options)
        .expect("drawn with the system's font");
    // The same face as the golden's `--fonts` folder: the same pixels.
    let golden = std::fs::read(common::golden_dir().join("ja-caption.png")).expect("golden");
    let (expected, actual) = (common::decode(&golden), common::decode(&png));
    assert_eq!(expected.dimensions(), actual.dimensions());
    let tolerance = Tolerance {
        channel: 8,
        pixels: 16,
    };
    let diff = common::compare(&expected, &actual, tolerance);
    assert!(diff.matches(), "{} pixels differ", diff.differing);
}

#[test]
fn keys_name_the_system_face_only_where_it_draws() {
    let _one = one_at_a_time();
    system_fonts();
    let key = |q: &str| Request::from_query(q, None).expect("valid").cache_key();
    // Text DejaVu draws keeps the key it always had.
    let latin = key("fen=start&caption=Wei%C3%9F%20zieht");
    assert!(!latin.contains("system fonts"), "{latin}");
    if !has_cjk() {
        return;
    }
    let japanese = key(JA_CAPTION);
    assert!(japanese.contains("|29:system fonts "), "{japanese}");
    assert_eq!(japanese, key(JA_CAPTION), "the same text, the same face");
}

/// `staunton fence` for `info` (body: the start position) with `envs` and `args`.
fn fence(info: &str, home: &Path, args: &[&str]) -> Output {
    let images = home.join("images");
    Command::new(env!("CARGO_BIN_EXE_staunton"))
        .args(["fence", "--info", info, "--images"])
        .arg(&images)
        .args(args)
        .env("HOME", home)
        .env("XDG_DATA_HOME", home.join("share"))
        .env_remove("STAUNTON_FONTS")
        .env_remove("STAUNTON_SYSTEM_FONTS")
        .stdin(std::fs::File::open(write_start(home)).expect("body"))
        .output()
        .expect("runs")
}

fn write_start(home: &Path) -> PathBuf {
    let body = home.join("body.txt");
    std::fs::write(&body, "start\n").expect("body");
    body
}

fn first_line(out: &Output) -> String {
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .next()
        .expect("a path")
        .to_string()
}

#[test]
fn the_command_line_uses_the_system_fonts_unless_told_not_to() {
    if !has_cjk() {
        return;
    }
    let base = std::env::temp_dir().join(format!("staunton-sysfonts-{}", std::process::id()));
    let (plain, linked) = (base.join("plain"), base.join("linked"));
    std::fs::create_dir_all(plain.join("share")).expect("dir");
    std::fs::create_dir_all(linked.join("share/fonts")).expect("dir");
    // The user's font folder comes first: a link there to the same file is another face
    // to the keys (another path), drawing the same pixels.
    let _ = std::fs::remove_file(linked.join("share/fonts/cjk.ttc"));
    std::os::unix::fs::symlink(NOTO, linked.join("share/fonts/cjk.ttc")).expect("link");
    let ja = "fen image_caption=白番";
    let a = first_line(&fence(ja, &plain, &[]));
    let b = first_line(&fence(ja, &linked, &[]));
    let name = |p: &str| Path::new(p).file_name().map(|n| n.to_owned());
    assert_ne!(name(&a), name(&b), "the face used is in the key");
    assert_eq!(
        std::fs::read(&a).expect("a"),
        std::fs::read(&b).expect("b"),
        "the same font, the same pixels"
    );
    // Latin text keeps its name, whatever the system's fonts.
    let en = "fen image_caption=White";
    let c = first_line(&fence(en, &plain, &[]));
    let d = first_line(&fence(en, &linked, &["--system-fonts=false"]));
    assert_eq!(name(&c), name(&d));
    // Turned off, the Japanese caption is refused with a sentence that says so.
    let off = fence(ja, &plain, &["--system-fonts=false"]);
    let said = String::from_utf8_lossy(&off.stderr);
    assert!(!off.status.success());
    assert!(
        said.contains("the character U+767D at character")
            && said.contains("--fonts DIR")
            && said.contains("--system-fonts=false"),
        "{said}"
    );
    let _ = std::fs::remove_dir_all(&base);
}

/// The key of a text of `chars`.
fn key_of(chars: impl Iterator<Item = char>) -> String {
    let text: String = chars.collect();
    staunton::request::key::KeyWriter::new("t")
        .field(&text)
        .finish()
}

#[test]
fn asking_which_face_draws_a_character_holds_nothing_however_many_are_asked() {
    system_fonts();
    // Characters no face has (private use: the attack that filled the old memo), and every
    // CJK ideograph, each asked in book and bold, in keys of 4,096 characters.
    let private = ('\u{E000}'..='\u{F8FF}').chain('\u{F0000}'..='\u{FFFFD}');
    let ideographs = '\u{4E00}'..='\u{9FFF}';
    let all: Vec<char> = private.chain(ideographs).collect();
    assert!(all.len() > 90_000, "more than the old memo kept (65,536)");
    let held = held_after(|| {
        for chunk in all.chunks(4096) {
            let key = key_of(chunk.iter().copied());
            assert!(key.len() > 4096);
        }
    });
    // The old memo kept 65,536 answers (about 2 MB) and then re-scanned every face for
    // each character it could no longer keep.
    assert!(
        held < 64 << 10,
        "{held} bytes held after asking {} characters",
        all.len()
    );
    // And nothing changed: the same text, the same key.
    let some = || all[..300].iter().copied();
    assert_eq!(key_of(some()), key_of(some()));
}

#[test]
fn faces_are_held_within_their_budget_and_glyphs_drawn_once() {
    let _one = one_at_a_time();
    system_fonts();
    if !has_cjk() {
        return;
    }
    let usage = |name: &str| {
        let all = staunton::render::art::font::system_usage();
        all.into_iter()
            .find(|u| u.name == name)
            .expect("a cache of system fonts")
    };
    let renderer = Renderer::default();
    let caption = |text: &str| {
        let q = format!("fen=start&size=240&caption={}", encode(text));
        let r = Request::from_query(&q, None).expect("valid");
        renderer.png(&r.position, &r.options).expect("drawn")
    };
    let card = |title: &str| {
        let q = format!("fen=start&title={}", encode(title));
        let r = staunton::request::share_card::CardRequest::read(
            &staunton::request::Query::parse(&q),
            &Default::default(),
        )
        .expect("valid");
        r.png(&renderer).expect("drawn")
    };
    // Book text, then bold (a card's title): two faces of about 20 MB each, read from
    // their files, each let go or kept within the budget.
    caption("白番で一手詰め");
    card("黒番の問題");
    caption("白番で二手詰め");
    // Both faces were read (40 MB): one of them stays, within the budget (the old code
    // kept every face it read for the life of the process).
    let faces = usage("system_faces");
    assert!(
        faces.bytes <= faces.bound && faces.bound < BUDGET,
        "{faces:?}"
    );
    assert_eq!(faces.entries, 1, "{faces:?}");
    assert!(
        faces.bytes > 19_000_000,
        "the face read last stays: {faces:?}"
    );
    let glyphs = usage("system_glyphs");
    assert!(
        glyphs.entries >= 12 && glyphs.bytes <= glyphs.bound,
        "{glyphs:?}"
    );
}

#[test]
fn a_face_read_in_place_of_another_never_sits_beside_it() {
    system_fonts();
    if !has_cjk() {
        return;
    }
    let _one = one_at_a_time();
    let renderer = Renderer::default();
    // Characters no other test draws, so their glyphs are read from the faces here.
    let r = Request::from_query(
        &format!("fen=start&size=200&caption={}", encode("桜")),
        None,
    )
    .expect("valid");
    renderer.png(&r.position, &r.options).expect("drawn");
    let card = staunton::request::share_card::CardRequest::read(
        &staunton::request::Query::parse(&format!("fen=start&title={}", encode("梅"))),
        &Default::default(),
    )
    .expect("valid");
    // The book face (19.5 MB) is held; the bold one (20.1 MB) takes its place. Room is
    // made before the file is read, so the two never sit side by side (before: 20 MB more
    // at the peak, the held face let go only after the new one was read).
    let peak = peak_during(|| {
        card.png(&renderer).expect("drawn");
    });
    assert!(
        peak < 8_000_000,
        "drawing in the other face held {peak} bytes more at its peak"
    );
    let faces = staunton::render::art::font::system_usage()
        .into_iter()
        .find(|u| u.name == "system_faces")
        .expect("a cache of system fonts");
    assert_eq!(faces.entries, 1, "{faces:?}");
    assert!(faces.bytes > 19_000_000, "the bold face is held: {faces:?}");
}

/// `text` percent-encoded for a query.
fn encode(text: &str) -> String {
    form_urlencoded::byte_serialize(text.as_bytes()).collect()
}

/// An article's PGN with `comment` after White's first move.
fn commented(comment: &str) -> String {
    format!("[White \"A\"]\n[Black \"B\"]\n\n1. e4 {{{comment}}} e5 2. Nf3 Nc6 *\n")
}

/// Article `pgn` laid out: its cost as a PDF, and its text.
fn article(pgn: &str) -> (u64, staunton::render::spec::cost::Glyphs) {
    use staunton::render::article::Article;
    use staunton::render::options::Format;
    use staunton::request::article::{ArticleFormat, ArticleRequest, marks};
    let query = staunton::request::Query::parse("");
    let request = ArticleRequest::read(&query, Some(pgn), ArticleFormat::Pdf, &Default::default())
        .expect("a valid article");
    let a = Article::new(&Renderer::default(), &request.game, request.options, &marks)
        .expect("laid out");
    (a.units(Format::Pdf), a.glyphs())
}

#[test]
fn text_in_a_system_face_is_priced_by_that_face() {
    system_fonts();
    if !has_cjk() {
        return;
    }
    // The same number of bytes of comment: Latin letters DejaVu draws as real text, and
    // Japanese the system's CJK face draws as outlines.
    let latin = "Weiss zieht und gewinnt ".repeat(64);
    let japanese = "白番で一手詰め".repeat(latin.len() / "白番で一手詰め".len());
    let (latin_units, latin_glyphs) = article(&commented(&latin));
    let (japanese_units, japanese_glyphs) = article(&commented(&japanese));
    assert_eq!(latin_glyphs.system, 0);
    assert!(japanese_glyphs.system >= 400, "{japanese_glyphs:?}");
    // Drawing a CJK glyph as outlines costs far more than a Latin letter as text.
    assert!(
        japanese_units > 10 * latin_units,
        "{japanese_units} units against {latin_units}"
    );
}

/// `POST uri` with `pgn` to a service whose image cache holds `cache_bytes`: the status and
/// the body as text.
async fn post_article(cache_bytes: u64, uri: &str, pgn: &str) -> (u16, String) {
    use http_body_util::BodyExt;
    use tower::ServiceExt;
    let state = std::sync::Arc::new(staunton::http::AppState::new(
        std::sync::Arc::new(Renderer::default()),
        cache_bytes,
    ));
    let request = axum::http::Request::post(uri)
        .header("content-type", "application/x-chess-pgn")
        .body(axum::body::Body::from(pgn.to_string()))
        .expect("request");
    let response = staunton::http::app(state)
        .oneshot(request)
        .await
        .expect("answer");
    let status = response.status().as_u16();
    let body = response
        .into_body()
        .collect()
        .await
        .expect("body")
        .to_bytes();
    (status, String::from_utf8_lossy(&body).into_owned())
}

#[tokio::test]
// The guard keeps the other tests of this binary off the system faces for the whole test,
// awaits included; the runtime is this test's own, on one thread.
#[allow(clippy::await_holding_lock)]
async fn an_answer_its_text_would_make_too_large_is_refused_before_it_is_made() {
    let _one = one_at_a_time();
    system_fonts();
    if !has_cjk() {
        return;
    }
    // 6,000 ideographs of comment: about 10 MB as outlines, over an eighth of a 32 MiB
    // image cache (4.2 MB); 40 of them are not.
    let long: String = ('\u{4E00}'..).step_by(3).take(6000).collect();
    let glyphs = || {
        let all = staunton::render::art::font::system_usage();
        all.into_iter()
            .find(|u| u.name == "system_glyphs")
            .expect("the glyphs' cache")
            .entries
    };
    let before = glyphs();
    for uri in ["/article.pdf", "/article.svg"] {
        let (status, said) = post_article(32 << 20, uri, &commented(&long)).await;
        assert_eq!(status, 400, "{uri}: {said}");
        assert_eq!(said.trim_end().lines().count(), 1, "one sentence: {said}");
        for words in [
            "this article's text",
            "drawn as outlines from the system's fonts",
            "MB (an eighth of the image cache)",
        ] {
            assert!(said.contains(words), "{uri}: {said:?} lacks {words:?}");
        }
    }
    // Laying the text out measured each ideograph by its advance alone: none was drawn
    // (before, each one's outline was drawn and kept, a second of work for a refusal).
    let drawn = glyphs() - before;
    assert!(drawn < 100, "{drawn} glyphs drawn for answers refused");
    // An HTML page writes its words as text: the same comment is a small page.
    let (status, said) = post_article(32 << 20, "/article.html", &commented(&long)).await;
    assert_eq!(status, 200, "{said}");
    let short: String = long.chars().take(40).collect();
    let (status, said) = post_article(32 << 20, "/article.pdf", &commented(&short)).await;
    assert_eq!(status, 200, "{said}");
}
