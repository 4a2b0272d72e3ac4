//! Whole games as animations, decoded: every frame of the GIF and of the APNG, composited
//! as a viewer does (each frame's rectangle laid over the last, transparent pixels keeping
//! what was there), shows the still diagram of its ply within the golden tolerance; and the
//! first, a middle and the last frame match golden images.

use crate::common;

use image::RgbaImage;
use staunton::Renderer;
use staunton::render::animate;
use staunton::request::{GameRequest, Limits, Request};
use staunton::snapshot::Tolerance;

/// Largest per-channel difference that still counts as equal, and the pixels allowed
/// beyond it per frame (edge noise).
const TOLERANCE: Tolerance = Tolerance {
    channel: 8,
    pixels: 24,
};

fn game_text(name: &str) -> String {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/games")
        .join(name);
    std::fs::read_to_string(path).expect("a fixture game")
}

fn request(query: &str, body: &str) -> GameRequest {
    let pairs = form_urlencoded::parse(query.as_bytes())
        .map(|(k, v)| (k.into_owned(), v.into_owned()))
        .collect();
    GameRequest::from_pairs_with(pairs, Some(body), "test", &Limits::default()).expect("valid")
}

/// The frames of a GIF as a viewer shows them, with their delays.
fn gif_frames(bytes: &[u8]) -> Vec<(RgbaImage, u16)> {
    let mut options = gif::DecodeOptions::new();
    options.set_color_output(gif::ColorOutput::RGBA);
    let mut decoder = options.read_info(bytes).expect("a GIF");
    let (w, h) = (u32::from(decoder.width()), u32::from(decoder.height()));
    let mut canvas = RgbaImage::new(w, h);
    let mut out = Vec::new();
    while let Some(frame) = decoder.read_next_frame().expect("a frame") {
        assert_eq!(frame.dispose, gif::DisposalMethod::Keep);
        lay_over(
            &mut canvas,
            &frame.buffer,
            frame.left.into(),
            frame.top.into(),
            frame.width.into(),
        );
        out.push((canvas.clone(), frame.delay));
    }
    out
}

/// The frames of an APNG as a viewer shows them, with their delays (centiseconds).
fn apng_frames(bytes: &[u8]) -> Vec<(RgbaImage, u16)> {
    let decoder = png::Decoder::new(std::io::Cursor::new(bytes));
    let mut reader = decoder.read_info().expect("a PNG");
    let info = reader.info();
    let (w, h) = (info.width, info.height);
    let frames = info.animation_control().expect("an APNG").num_frames;
    let mut canvas = RgbaImage::new(w, h);
    let mut out = Vec::new();
    let mut buffer = vec![0; reader.output_buffer_size().expect("a size")];
    for _ in 0..frames {
        reader.next_frame(&mut buffer).expect("a frame");
        let control = *reader.info().frame_control().expect("fcTL");
        assert_eq!(control.delay_den, 100);
        let size = (control.width * control.height * 4) as usize;
        lay_over(
            &mut canvas,
            &buffer[..size],
            control.x_offset,
            control.y_offset,
            control.width,
        );
        out.push((canvas.clone(), control.delay_num));
    }
    out
}

/// Lay an RGBA rectangle over `canvas` at (x, y): transparent pixels keep what is there.
fn lay_over(canvas: &mut RgbaImage, rgba: &[u8], x: u32, y: u32, width: u32) {
    for (i, px) in rgba.chunks_exact(4).enumerate() {
        if px[3] == 0 {
            continue;
        }
        let (dx, dy) = (i as u32 % width, i as u32 / width);
        canvas.put_pixel(x + dx, y + dy, image::Rgba([px[0], px[1], px[2], 255]));
    }
}

/// The board part of a frame (below the top bar, `bar` pixels high).
fn board(frame: &RgbaImage, bar: u32, size: u32) -> RgbaImage {
    image::imageops::crop_imm(frame, 0, bar, size, size).to_image()
}

#[test]
fn every_frame_shows_the_still_diagram_of_its_ply() {
    let renderer = Renderer::default();
    let pgn = game_text("immortal.pgn");
    let query = "size=200&delay=50&lastDelay=250";
    let game = request(query, &pgn);
    let gif = animate::gif(&renderer, &game.frames(), game.looped).expect("a GIF");
    let apng = animate::apng(&renderer, &game.frames(), game.looped).expect("an APNG");
    for (kind, frames) in [("gif", gif_frames(&gif)), ("apng", apng_frames(&apng))] {
        assert_eq!(frames.len(), 46, "{kind}: the start and 45 plies");
        let bar = (frames[0].0.height() - 200) / 2;
        assert!(bar > 0, "{kind}: the PGN names its players: bars");
        for (ply, (frame, delay)) in frames.iter().enumerate() {
            let last = ply == frames.len() - 1;
            assert_eq!(*delay, if last { 250 } else { 50 }, "{kind} {ply}");
            let still =
                Request::from_query(&format!("pgn={}&ply={ply}&size=200", urlencode(&pgn)), None)
                    .expect("valid");
            let png = renderer
                .png(&still.position, &still.options)
                .expect("renders");
            let diff = common::compare(&common::decode(&png), &board(frame, bar, 200), TOLERANCE);
            assert!(
                diff.matches(),
                "{kind} frame {ply}: {} pixels differ by more than {} (max {})",
                diff.differing,
                TOLERANCE.channel,
                diff.largest
            );
        }
    }
}

fn urlencode(text: &str) -> String {
    form_urlencoded::byte_serialize(text.as_bytes()).collect()
}

#[test]
fn first_middle_and_last_frames_match_golden_images() {
    let renderer = Renderer::default();
    let pgn = game_text("chess960.pgn");
    let game = request("size=240&orientation=black", &pgn);
    let gif = animate::gif(&renderer, &game.frames(), game.looped).expect("a GIF");
    let apng = animate::apng(&renderer, &game.frames(), game.looped).expect("an APNG");
    let update = std::env::var_os("UPDATE_GOLDEN").is_some_and(|v| v == "1");
    let dir = common::golden_dir();
    let mut failures = Vec::new();
    for (kind, frames) in [("gif", gif_frames(&gif)), ("apng", apng_frames(&apng))] {
        let n = frames.len();
        for (label, i) in [("first", 0), ("middle", n / 2), ("last", n - 1)] {
            let name = format!("game-{kind}-{label}");
            let path = dir.join(format!("{name}.png"));
            let actual = &frames[i].0;
            if update {
                actual.save(&path).expect("write golden");
                continue;
            }
            let expected = common::decode(&std::fs::read(&path).expect("a golden image"));
            let diff = common::compare(&expected, actual, TOLERANCE);
            if !diff.matches() {
                common::write_mismatch(
                    &expected,
                    actual,
                    &diff,
                    (
                        &dir.join(format!("{name}.actual.png")),
                        &dir.join(format!("{name}.diff.png")),
                    ),
                );
                failures.push(format!(
                    "{name}: {} pixels differ (max {})",
                    diff.differing, diff.largest
                ));
            }
        }
    }
    assert!(
        !update,
        "UPDATE_GOLDEN=1 rewrote the game golden images: look, then run again"
    );
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn excerpts_loops_and_bars_follow_the_parameters() {
    let renderer = Renderer::default();
    let pgn = game_text("opera.pgn");
    let game = request("size=160&from=30&to=33&loop=0&players=0", &pgn);
    assert_eq!(game.frames().len(), 4);
    assert!(!game.looped);
    let gif = animate::gif(&renderer, &game.frames(), game.looped).expect("a GIF");
    let frames = gif_frames(&gif);
    assert_eq!(frames.len(), 4);
    assert_eq!(frames[0].0.dimensions(), (160, 160), "no bars");
    // No NETSCAPE loop extension when played once; one when looped.
    let netscape = |b: &[u8]| b.windows(11).any(|w| w == b"NETSCAPE2.0");
    assert!(!netscape(&gif));
    let looped = request("size=160&from=30&to=33", &pgn);
    assert!(netscape(
        &animate::gif(&renderer, &looped.frames(), true).expect("a GIF")
    ));
    // The opera game has no names in tags: no bars by default either.
    assert_eq!(looped.frames()[0].bars, None);
    let named = request("size=160&players=1", &pgn);
    assert!(named.frames()[0].bars.is_some(), "players=1 asks for them");
}

#[test]
fn comment_marks_show_in_their_frames_as_in_the_still_diagrams() {
    let renderer = Renderer::default();
    let pgn = "1. e4 {[%mark circle:e4,label:d5:1]} e5 {[%cal Gg1f3][%mark dot:f3]} 2. Nf3 *";
    let frames = |pgn: &str| {
        let game = request("size=160&players=0", pgn);
        gif_frames(&animate::gif(&renderer, &game.frames(), game.looped).expect("a GIF"))
    };
    let (marked, plain) = (frames(pgn), frames("1. e4 e5 2. Nf3 *"));
    assert_eq!(marked.len(), 4, "the start and 3 plies");
    for (ply, ((frame, _), (bare, _))) in marked.iter().zip(&plain).enumerate() {
        let still =
            Request::from_query(&format!("pgn={}&ply={ply}&size=160", urlencode(pgn)), None)
                .expect("valid");
        let png = renderer
            .png(&still.position, &still.options)
            .expect("renders");
        let diff = common::compare(&common::decode(&png), frame, TOLERANCE);
        assert!(
            diff.matches(),
            "frame {ply}: {} pixels differ",
            diff.differing
        );
        let has_marks = ply == 1 || ply == 2;
        let differs = !common::compare(frame, bare, TOLERANCE).matches();
        assert_eq!(
            differs, has_marks,
            "frame {ply}: marks drawn only after 1. e4 and 1... e5"
        );
    }
}
