//! `staunton render` without `-o`: the image's bytes through a pipe, a text board on a
//! terminal (a pseudo-terminal here), and no binary noise on a terminal.

use std::io::Read as _;
use std::os::fd::{FromRawFd as _, OwnedFd};
use std::path::Path;
use std::process::{Command, Output, Stdio};

fn staunton(dir: &Path) -> Command {
    let mut command = Command::new(env!("CARGO_BIN_EXE_staunton"));
    command.current_dir(dir);
    command
}

fn scratch(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("staunton-stdout-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("scratch dir");
    dir
}

fn succeeded(out: Output) -> Vec<u8> {
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    out.stdout
}

/// What `args` writes to standard output when it is a pipe.
fn piped(dir: &Path, args: &[&str]) -> Vec<u8> {
    succeeded(staunton(dir).args(args).output().expect("runs"))
}

/// What `args -o file` writes into the file.
fn written(dir: &Path, args: &[&str], file: &str) -> Vec<u8> {
    succeeded(
        staunton(dir)
            .args(args)
            .args(["-o", file])
            .output()
            .expect("runs"),
    );
    std::fs::read(dir.join(file)).expect("written")
}

/// Run `args` with standard output on a pseudo-terminal: its exit code, what it showed on
/// the terminal (line ends as written, the terminal's `\r\n` undone), and its stderr.
fn on_terminal(dir: &Path, args: &[&str]) -> (Option<i32>, String, String) {
    let (mut master, slave) = {
        let (mut master, mut slave) = (-1, -1);
        let made = unsafe {
            libc::openpty(
                &mut master,
                &mut slave,
                std::ptr::null_mut(),
                std::ptr::null(),
                std::ptr::null(),
            )
        };
        assert_eq!(made, 0, "openpty: {}", std::io::Error::last_os_error());
        // SAFETY: openpty returned two new descriptors that nothing else owns.
        unsafe {
            (
                std::fs::File::from(OwnedFd::from_raw_fd(master)),
                OwnedFd::from_raw_fd(slave),
            )
        }
    };
    let child = staunton(dir)
        .args(args)
        .stdout(Stdio::from(slave))
        .stderr(Stdio::piped())
        .spawn()
        .expect("runs");
    // The slave end moved into the Command; its copy of the terminal's slave end are gone: once the child exits,
    // reading the master ends (EIO on Linux).
    let mut shown = Vec::new();
    let mut chunk = [0u8; 4096];
    while let Ok(n @ 1..) = master.read(&mut chunk) {
        shown.extend_from_slice(&chunk[..n]);
    }
    let out = child.wait_with_output().expect("waits");
    let shown = String::from_utf8(shown).expect("text on the terminal");
    (
        out.status.code(),
        shown.replace("\r\n", "\n"),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn through_a_pipe_render_writes_the_bytes_that_o_writes() {
    let dir = scratch("pipe");
    let board = ["render", "start", "--size", "240", "--orientation", "black"];
    let png = piped(&dir, &board);
    assert!(png.starts_with(b"\x89PNG\r\n\x1a\n"), "a PNG");
    assert_eq!(png, written(&dir, &board, "board.png"));
    let dash: Vec<&str> = board.iter().copied().chain(["-o", "-"]).collect();
    assert_eq!(piped(&dir, &dash), png, "-o - is standard output too");

    let svg: Vec<&str> = board.iter().copied().chain(["--format", "svg"]).collect();
    assert_eq!(piped(&dir, &svg), written(&dir, &board, "board.svg"));

    let pgn = dir.join("game.pgn");
    std::fs::write(&pgn, "1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 *\n").expect("pgn");
    let game = ["render", "--pgn", "game.pgn", "--size", "160"];
    let apng = piped(&dir, &game);
    assert!(apng.windows(4).any(|w| w == b"acTL"), "an animated PNG");
    assert_eq!(apng, written(&dir, &game, "game.png"));
}

#[test]
fn on_a_terminal_render_shows_the_text_board() {
    let dir = scratch("tty");
    let (code, shown, err) = on_terminal(&dir, &["render", "start"]);
    assert_eq!(code, Some(0), "{err}");
    let text = written(&dir, &["render", "start"], "start.txt");
    assert_eq!(
        shown.as_bytes(),
        text,
        "the text board `-o start.txt` writes"
    );
    assert!(shown.contains("r n b q k b n r"), "{shown}");

    let (code, shown, err) = on_terminal(&dir, &["render", "start", "--format", "svg"]);
    assert_eq!(code, Some(0), "{err}");
    assert!(shown.starts_with("<svg"), "SVG is text: {shown:.40}");
}

#[test]
fn on_a_terminal_a_binary_format_is_refused_in_one_line() {
    let dir = scratch("tty-png");
    for format in ["png", "gif"] {
        let (code, shown, err) = on_terminal(&dir, &["render", "start", "--format", format]);
        assert_eq!(code, Some(2), "{err}");
        assert!(shown.is_empty(), "nothing on the terminal: {shown:?}");
        assert_eq!(err.trim_end().lines().count(), 1, "{err}");
        assert!(err.contains("terminal") && err.contains("-o FILE"), "{err}");
    }
    let out = staunton(&dir)
        .args(["render", "start", "--format", "png", "-o", "x.svg"])
        .output()
        .expect("runs");
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("disagrees with x.svg"));
}
