//! The command line, run as a real process.

use crate::common;

use std::path::PathBuf;
use std::process::Command;

fn staunton() -> Command {
    Command::new(env!("CARGO_BIN_EXE_staunton"))
}

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("staunton-cli-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("scratch dir");
    dir
}

#[test]
fn render_one_fen_to_png_and_svg() {
    let dir = scratch("one");
    let png = dir.join("start.png");
    let out = staunton()
        .args([
            "render",
            "start",
            "--size",
            "240",
            "--orientation",
            "black",
            "-o",
        ])
        .arg(&png)
        .output()
        .expect("runs");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let img = common::decode(&std::fs::read(&png).expect("written"));
    assert_eq!(img.width(), 240);

    let svg = dir.join("e4.svg");
    let out = staunton()
        .args([
            "render",
            "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1",
            "-o",
        ])
        .arg(&svg)
        .output()
        .expect("runs");
    assert!(out.status.success());
    let text = std::fs::read_to_string(&svg).expect("written");
    assert!(text.starts_with("<svg") && text.ends_with("</svg>"));
}

#[test]
fn both_built_in_sets_render() {
    let dir = scratch("builtin-sets");
    let render = |set: &str| {
        let png = dir.join(format!("{set}.png"));
        let out = staunton()
            .args(["render", "start", "--size", "320", "--pieces", set, "-o"])
            .arg(&png)
            .output()
            .expect("runs");
        assert!(
            out.status.success(),
            "{set}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        common::decode(&std::fs::read(&png).expect("written"))
    };
    for set in ["staunton", "staunton-classic"] {
        assert_eq!(render(set).width(), 320);
    }
}

#[test]
fn errors_print_one_line_and_exit_2() {
    let dir = scratch("errors");
    for args in [
        vec![
            "render",
            "rnbqkbnr/pppppppp/9/8/8/8/PPPPPPPP/RNBQKBNR",
            "-o",
            "x.png",
        ],
        vec!["render", "start", "--size", "4e2", "-o", "x.png"],
        vec!["render", "start", "-o", "x.jpeg"],
    ] {
        let out = staunton()
            .current_dir(&dir)
            .args(&args)
            .output()
            .expect("runs");
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(err.trim_end().lines().count(), 1, "one line: {err}");
        assert!(err.starts_with("staunton: "), "{err}");
    }
    assert!(!dir.join("x.png").exists());
}

#[test]
fn batch_renders_good_lines_and_reports_bad_ones() {
    let dir = scratch("batch");
    let input = dir.join("positions.epd");
    std::fs::write(
        &input,
        "# a comment\n\
         rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - bm e4; id \"start\";\n\
         \n\
         rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 id \"e4\";\n\
         rnbqkbnr/ppppxppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - id \"bad\";\n\
         8/8/8/2k5/4K3/8/8/8 w - - id \"kings\";\n",
    )
    .expect("input");
    let out_dir = dir.join("out");
    let out = staunton()
        .args(["render", "--input"])
        .arg(&input)
        .arg("--out-dir")
        .arg(&out_dir)
        .args(["--size", "160"])
        .output()
        .expect("runs");
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(
        err.contains("positions.epd:5:"),
        "names the bad line: {err}"
    );
    assert!(err.contains("'x'"), "says what is wrong: {err}");
    let mut written: Vec<String> = std::fs::read_dir(&out_dir)
        .expect("out dir")
        .map(|e| e.expect("entry").file_name().to_string_lossy().into_owned())
        .collect();
    written.sort();
    assert_eq!(
        written,
        ["line-00002.png", "line-00004.png", "line-00006.png"]
    );
}

fn http_get(addr: &str, target: &str) -> Option<String> {
    use std::io::{Read, Write};
    let mut stream = std::net::TcpStream::connect(addr).ok()?;
    write!(
        stream,
        "GET {target} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"
    )
    .ok()?;
    let mut raw = Vec::new();
    stream.read_to_end(&mut raw).ok()?;
    Some(String::from_utf8_lossy(&raw).into_owned())
}

#[test]
fn serve_loads_piece_sets_logs_json_and_stops_cleanly_on_sigterm() {
    // Regression: `serve` once ignored --pieces-dir (only `render` used it).
    let dir = scratch("serve");
    let set = dir.join("sets").join("mine");
    std::fs::create_dir_all(&set).expect("set dir");
    let assets = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("assets/pieces/staunton");
    for entry in std::fs::read_dir(&assets).expect("assets") {
        let path = entry.expect("entry").path();
        // The files only: the folder also holds the hinted drawings, in small/.
        if !path.is_file() {
            continue;
        }
        let name = path
            .file_name()
            .expect("name")
            .to_string_lossy()
            .to_lowercase();
        std::fs::copy(&path, set.join(name)).expect("copy");
    }
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .expect("port")
        .local_addr()
        .expect("addr")
        .port();
    let addr = format!("127.0.0.1:{port}");
    let child = staunton()
        .args([
            "serve",
            "--addr",
            &addr,
            "--log-format",
            "json",
            "--pieces-dir",
        ])
        .arg(dir.join("sets"))
        .env_remove("RUST_LOG")
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("starts");
    let mut health = None;
    for _ in 0..100 {
        health = http_get(&addr, "/health");
        if health.is_some() {
            break;
        }
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
    assert!(
        health.is_some_and(|h| h.starts_with("HTTP/1.1 200")),
        "serves /health"
    );
    let answer = http_get(&addr, "/diagram?fen=start&pieces=mine").expect("answers");
    assert!(
        answer.starts_with("HTTP/1.1 200"),
        "{}",
        &answer[..answer.len().min(300)]
    );
    let metrics = http_get(&addr, "/metrics").expect("answers");
    assert!(
        metrics.contains("staunton_cache_misses_total 1"),
        "{metrics}"
    );
    let killed = Command::new("kill")
        .args(["-TERM", &child.id().to_string()])
        .status()
        .expect("kill");
    assert!(killed.success());
    let out = child.wait_with_output().expect("exits");
    assert!(
        out.status.success(),
        "exit 0 after SIGTERM: {:?}",
        out.status
    );
    let logs = String::from_utf8_lossy(&out.stderr);
    assert!(logs.lines().count() >= 3, "{logs}");
    assert!(
        logs.lines().all(|l| l.starts_with('{') && l.ends_with('}')),
        "JSON lines: {logs}"
    );
    assert!(logs.contains("\"cache\":\"miss\""), "{logs}");
    assert!(
        logs.contains(&format!("\"addr\":\"{addr}\"")),
        "the listening line names the bound address: {logs}"
    );
    assert!(
        logs.contains(&format!("\"open\":\"http://{addr}/\"")),
        "the listening line names the page to open: {logs}"
    );
    assert!(
        !logs.contains("Config {"),
        "the configuration is logged at debug level only: {logs}"
    );
}

#[test]
fn render_a_game_as_gif_apng_or_one_position() {
    let dir = scratch("game");
    let pgn =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/games/opera.pgn");
    let run = |extra: &[&str], out: &std::path::Path| {
        staunton()
            .args(["render", "--pgn"])
            .arg(&pgn)
            .args(extra)
            .arg("-o")
            .arg(out)
            .output()
            .expect("runs")
    };
    let gif = dir.join("opera.gif");
    let out = run(&["--size", "160", "--delay", "40"], &gif);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let bytes = std::fs::read(&gif).expect("written");
    assert!(bytes.starts_with(b"GIF89a"));
    let mut decoder = gif::DecodeOptions::new()
        .read_info(&bytes[..])
        .expect("a GIF");
    let mut frames = 0;
    while decoder.read_next_frame().expect("a frame").is_some() {
        frames += 1;
    }
    assert_eq!(frames, 34, "the start and 33 plies");

    let apng = dir.join("opera.png");
    let out = run(&["--size", "160", "--from", "30"], &apng);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let reader = png::Decoder::new(std::io::Cursor::new(std::fs::read(&apng).expect("written")))
        .read_info()
        .expect("a PNG");
    assert_eq!(
        reader.info().animation_control().map(|a| a.num_frames),
        Some(4)
    );

    let svg = dir.join("opera-17.svg");
    let out = run(&["--move", "17w"], &svg);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = std::fs::read_to_string(&svg).expect("written");
    assert!(text.starts_with("<svg"), "{text:.60}");

    let out = run(&["--ply", "99"], &dir.join("x.png"));
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("ply 99 is past the end of the game, which has 33 plies"),
        "{err}"
    );
    let out = run(&["--ply", "3"], &dir.join("x.gif"));
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("an animation of the whole game"));
}

#[test]
fn optimize_makes_a_smaller_png_of_the_same_pixels() {
    let dir = scratch("optimize");
    let (fast, small) = (dir.join("fast.png"), dir.join("small.png"));
    let fen = "r1bq1rk1/pp3ppp/3n4/2p1N3/2B5/7P/PPP2PP1/R1BQR1K1 w - - 0 1";
    for (out, extra) in [(&fast, None), (&small, Some("--optimize"))] {
        let status = staunton()
            .args(["render", fen, "--theme", "print", "--size", "240"])
            .args(extra)
            .arg("-o")
            .arg(out)
            .status()
            .expect("runs");
        assert!(status.success());
    }
    let (a, b) = (
        std::fs::read(&fast).expect("fast"),
        std::fs::read(&small).expect("small"),
    );
    assert!(
        b.len() * 10 < a.len() * 9,
        "{} bytes optimised from {}",
        b.len(),
        a.len()
    );
    assert_eq!(common::decode(&a), common::decode(&b), "the same pixels");
    let out = staunton()
        .args(["render", "start", "--optimize", "-o"])
        .arg(dir.join("x.svg"))
        .output()
        .expect("runs");
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("--optimize makes PNG files smaller"));
}

#[test]
fn sheet_writes_pdf_svg_and_numbered_png_pages() {
    let dir = scratch("sheet");
    let epd = common_fixture("puzzles/eight.epd");
    let out = staunton()
        .current_dir(&dir)
        .args([
            "sheet",
            &epd,
            "-o",
            "sheet.pdf",
            "--solutions",
            "--title",
            "Tactics",
        ])
        .output()
        .expect("runs");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let said = String::from_utf8_lossy(&out.stderr);
    assert!(said.contains("8 diagrams on 3 pages"), "{said}");
    let pdf = std::fs::read(dir.join("sheet.pdf")).expect("written");
    assert!(pdf.starts_with(b"%PDF-"));
    let out = staunton()
        .current_dir(&dir)
        .args([
            "sheet",
            &epd,
            "-o",
            "sheet.png",
            "--page",
            "letter",
            "--dpi",
            "72",
        ])
        .output()
        .expect("runs");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    for n in [1, 2] {
        let png = std::fs::read(dir.join(format!("sheet-{n}.png"))).expect("a page");
        let img = image::load_from_memory(&png).expect("decodes");
        assert_eq!((img.width(), img.height()), (612, 792), "Letter at 72 dpi");
    }
    assert!(
        !dir.join("sheet.png").exists(),
        "several pages are numbered"
    );
    let pgn = common_fixture("puzzles/three.pgn");
    let out = staunton()
        .current_dir(&dir)
        .args(["sheet", &pgn, "-o", "games.svg", "--columns", "3"])
        .output()
        .expect("runs");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let svg = std::fs::read_to_string(dir.join("games.svg")).expect("one page");
    assert_eq!(
        svg.matches("<svg").count(),
        4,
        "the page and three diagrams"
    );
}

#[test]
fn bad_sheets_print_one_line_and_exit_2() {
    let dir = scratch("sheet-errors");
    std::fs::write(
        dir.join("bad.epd"),
        "8/8/8/8/8/8/8/K6k w - -\n\nrnbqkbnr/pppppppp/9/8 w - -\n",
    )
    .expect("written");
    std::fs::write(
        dir.join("many.fen"),
        "8/8/8/8/8/8/8/K6k w - - 0 1\n".repeat(501),
    )
    .expect("written");
    std::fs::write(dir.join("ok.fen"), "start\n").expect("written");
    for (args, says) in [
        (vec!["sheet", "ok.fen", "-o", "x.pdf", "--page", "a3"], "a3"),
        (vec!["sheet", "bad.epd", "-o", "x.pdf"], "bad.epd, line 3"),
        (vec!["sheet", "many.fen", "-o", "x.pdf"], "at most 500"),
        (vec!["sheet", "ok.fen", "-o", "x.gif"], ".pdf, .svg or .png"),
        (
            vec!["sheet", "ok.fen", "-o", "x.pdf", "--columns", "7"],
            "columns",
        ),
        (
            vec!["sheet", "ok.fen", "-o", "x.pdf", "--solutions"],
            "solution",
        ),
        (vec!["sheet", "ok.doc", "-o", "x.pdf"], ".epd, .pgn or .fen"),
    ] {
        let out = staunton()
            .current_dir(&dir)
            .args(&args)
            .output()
            .expect("runs");
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(err.trim_end().lines().count(), 1, "one line: {err}");
        assert!(err.contains(says), "{args:?}: {err}");
    }
    assert!(!dir.join("x.pdf").exists());
}

/// A fixture's path as text, for arguments.
fn common_fixture(name: &str) -> String {
    common::fixture(name).display().to_string()
}

#[test]
fn render_writes_a_text_board_in_either_style() {
    let dir = scratch("text");
    let letters = dir.join("board.txt");
    let out = staunton()
        .args([
            "render",
            "rnabqkbcnr/pppppppppp/10/10/10/10/PPPPPPPPPP/RNABQKBCNR b KQkq - 0 1",
            "--orientation",
            "turn",
            "--coordinates",
            "inside",
            "--size",
            "300",
            "-o",
        ])
        .arg(&letters)
        .output()
        .expect("runs");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = std::fs::read_to_string(&letters).expect("written");
    assert!(
        text.starts_with("1 R N C B K Q B A N R\n2 P P P P P P P P P P\n"),
        "{text}"
    );
    assert!(
        text.ends_with("\n  j i h g f e d c b a\nBlack to move\n"),
        "{text}"
    );

    let figurines = dir.join("board-figurines.TXT");
    let out = staunton()
        .args(["render", "start", "--style", "figurines", "-o"])
        .arg(&figurines)
        .output()
        .expect("runs");
    assert!(out.status.success());
    let text = std::fs::read_to_string(&figurines).expect("written");
    assert!(text.contains("\n8 | ♜ ♞ ♝ ♛ ♚ ♝ ♞ ♜ |\n"), "{text}");

    for (args, words) in [
        (
            vec!["render", "start", "--style", "fancy", "-o", "x.txt"],
            &["style", "fancy", "letters", "figurines"][..],
        ),
        (
            vec!["render", "start", "-o", "x.text"],
            &["x.text", ".txt"][..],
        ),
        (
            vec!["render", "start", "--pieces", "nosuchset", "-o", "x.txt"],
            &["pieces", "nosuchset"][..],
        ),
    ] {
        let out = staunton()
            .current_dir(&dir)
            .args(&args)
            .output()
            .expect("runs");
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(err.trim_end().lines().count(), 1, "one line: {err}");
        for word in words {
            assert!(err.contains(word), "{args:?}: {err}");
        }
    }
    assert!(!dir.join("x.txt").exists(), "nothing written on an error");
}

#[test]
fn render_titles_an_svg_in_the_language_of_lang() {
    let dir = scratch("lang");
    let svg = dir.join("start.svg");
    let out = staunton()
        .args([
            "render",
            "8/8/8/4k3/8/8/3Q4/4K3 b - - 0 1",
            "--lang",
            "de",
            "-o",
        ])
        .arg(&svg)
        .output()
        .expect("runs");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = std::fs::read_to_string(&svg).expect("written");
    assert!(
        text.contains("<title id=\"title\">Weiß: König e1, Dame d2. Schwarz: König e5. Schwarz am Zug.</title>"),
        "{text}"
    );
    let out = staunton()
        .args(["render", "start", "--lang", "pt", "-o"])
        .arg(dir.join("pt.svg"))
        .output()
        .expect("runs");
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("lang \"pt\" is not allowed: expected one of en, de, it, fr, es, nl, ja"),
        "{stderr}"
    );
}

#[test]
fn render_reads_a_lichess_url_and_colours_without_the_hash() {
    let dir = scratch("lichess-url");
    let render = |fen: &str, light: &str, out: &str| {
        let status = staunton()
            .current_dir(&dir)
            .args(["render", fen, "--light", light, "--size", "200", "-o", out])
            .status()
            .expect("runs");
        assert!(status.success(), "{fen} {light}");
        std::fs::read(dir.join(out)).expect("written")
    };
    let from_url = render(
        "https://lichess.org/analysis/rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR_b_KQkq_-_0_1",
        "eee",
        "url.png",
    );
    let from_fen = render(
        "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1",
        "#eeeeee",
        "fen.png",
    );
    assert_eq!(from_url, from_fen);
    assert_ne!(from_url, render("start", "#eeeeee", "start.png"));
}

#[test]
fn article_writes_html_pdf_and_svg_and_names_what_is_wrong() {
    let dir = scratch("article");
    let game = common::fixture("articles/opera.pgn");
    let html = dir.join("opera.html");
    let out = staunton()
        .arg("article")
        .arg(&game)
        .args([
            "--lang",
            "de",
            "--notation",
            "letters",
            "--columns",
            "2",
            "--fen-under",
            "-o",
        ])
        .arg(&html)
        .output()
        .expect("runs");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(
        String::from_utf8_lossy(&out.stderr).trim(),
        format!("wrote {}: 3 diagrams", html.display())
    );
    let text = std::fs::read_to_string(&html).expect("written");
    assert!(text.contains("<html lang=\"de\">") && text.contains("<b>2.Sf3</b>"));
    assert!(text.contains("class=\"columns\"") && text.contains("class=\"fen\""));
    for (name, magic) in [("opera.pdf", &b"%PDF-"[..]), ("opera.svg", &b"<svg"[..])] {
        let file = dir.join(name);
        let out = staunton()
            .arg("article")
            .arg(&game)
            .arg("-o")
            .arg(&file)
            .output()
            .expect("runs");
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        assert!(
            std::fs::read(&file).expect("written").starts_with(magic),
            "{name}"
        );
    }
    let png = staunton()
        .arg("article")
        .arg(&game)
        .arg("-o")
        .arg(dir.join("x.png"))
        .output();
    let png = png.expect("runs");
    assert_eq!(png.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&png.stderr).contains("name it .pdf, .html or .svg"));
    let bad = staunton()
        .arg("article")
        .arg(&game)
        .args(["--columns", "3", "-o"])
        .arg(dir.join("x.pdf"))
        .output()
        .expect("runs");
    assert_eq!(bad.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&bad.stderr);
    assert!(
        stderr.contains("columns") && stderr.contains('3'),
        "{stderr}"
    );
    assert_eq!(stderr.trim_end().lines().count(), 1, "one line: {stderr}");
}
