//! The system's installed fonts (`render::use_system_fonts`, on by default in the command
//! line and the service): a Japanese caption drawn with Noto Sans CJK found in the
//! system's font folders, without `--fonts`; refused with `--system-fonts=false`; cache
//! keys (and so ETags and file names) that name the system face used. One test binary of
//! its own, because the system's fonts are turned on once per process.
//!
//! Needs Debian's `fonts-noto-cjk` (which `.ci/run` installs); without it the tests that
//! need it say so and pass, unless `STAUNTON_REQUIRE_CJK=1` (as in CI).

#[path = "../common/mod.rs"]
mod common;

use staunton::Renderer;
use staunton::request::Request;
use staunton::snapshot::Tolerance;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::sync::OnceLock;

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

/// Turn the system's fonts on in this process (once), over the machine's font folders.
fn system_fonts() {
    static ON: OnceLock<()> = OnceLock::new();
    ON.get_or_init(|| {
        staunton::render::use_system_fonts(staunton::render::system_font_dirs())
            .expect("turned on once");
    });
}

#[test]
fn a_japanese_caption_is_drawn_with_the_system_font_as_with_fonts() {
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
