//! `staunton render --card`: the share card of `/card.png`, byte for byte.

use axum::body::Body;
use http_body_util::BodyExt;
use staunton::Renderer;
use staunton::http::{AppState, DEFAULT_CACHE_BYTES, app};
use std::process::Command;
use std::sync::Arc;
use tower::ServiceExt;

/// The body `/card.png?{query}` answers, through the router.
fn route(query: &str) -> Vec<u8> {
    let state = Arc::new(AppState::new(
        Arc::new(Renderer::default()),
        DEFAULT_CACHE_BYTES,
    ));
    let runtime = tokio::runtime::Runtime::new().expect("runtime");
    runtime.block_on(async {
        let request = axum::http::Request::get(format!("/card.png?{query}"))
            .body(Body::empty())
            .expect("request");
        let response = app(state).oneshot(request).await.expect("infallible");
        assert_eq!(response.status(), 200);
        let body = response.into_body().collect().await.expect("body");
        body.to_bytes().to_vec()
    })
}

/// What `staunton render ARGS -o card.png` writes.
fn cli(name: &str, args: &[&str]) -> Vec<u8> {
    let dir = std::env::temp_dir().join(format!("staunton-card-{}-{name}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("scratch dir");
    let out = dir.join("card.png");
    let run = Command::new(env!("CARGO_BIN_EXE_staunton"))
        .arg("render")
        .args(args)
        .arg("-o")
        .arg(&out)
        .output()
        .expect("runs");
    assert!(
        run.status.success(),
        "{}",
        String::from_utf8_lossy(&run.stderr)
    );
    let bytes = std::fs::read(&out).expect("written");
    let _ = std::fs::remove_dir_all(&dir);
    bytes
}

#[test]
fn the_card_of_a_fen_is_the_routes() {
    let fen = "r1bqkb1r/pppp1Qpp/2n2n2/4p3/2B1P3/8/PPPP1PPP/RNB1K1NR b KQkq - 0 4";
    let args = [
        fen,
        "--card",
        "--title",
        "Scholar's Mate",
        "--subtitle",
        "Qxf7#",
        "--theme",
        "blue",
        "--last-move",
        "h5f7",
    ];
    let query = "fen=r1bqkb1r/pppp1Qpp/2n2n2/4p3/2B1P3/8/PPPP1PPP/RNB1K1NR_b_KQkq_-_0_4&title=Scholar%27s%20Mate&subtitle=Qxf7%23&theme=blue&lastMove=h5f7";
    assert_eq!(cli("fen", &args), route(query));
}

#[test]
fn the_card_of_a_game_is_the_routes() {
    let path = crate::common::fixture("games/kasparov_topalov.pgn");
    let pgn = std::fs::read_to_string(&path).expect("fixture");
    let encoded: String = pgn
        .bytes()
        .map(|b| match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' => (b as char).to_string(),
            _ => format!("%{b:02X}"),
        })
        .collect();
    let path = path.to_str().expect("UTF-8 path");
    let bytes = cli("pgn", &["--pgn", path, "--move", "24w", "--card"]);
    assert_eq!(bytes, route(&format!("pgn={encoded}&move=24w")));
}

#[test]
fn a_card_is_a_png_of_its_own_size() {
    let run = Command::new(env!("CARGO_BIN_EXE_staunton"))
        .args(["render", "start", "--card", "--size", "300", "-o", "x.png"])
        .output()
        .expect("runs");
    assert!(!run.status.success(), "--size conflicts with --card");
}
