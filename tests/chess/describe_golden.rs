//! `/describe` in every language, against golden texts read and checked by people.
//!
//! Each position below is described in each of [`LANG_CODES`] through the router, as a
//! client asks for it, and compared with `tests/golden_describe/NAME.LANG.txt`. Together the
//! positions hold pieces of every kind (the archbishop and chancellor of a 10×8 board), a
//! pocket, promoted pieces, a game's last move, a side without pieces, and both sides to
//! move.
//!
//! A mismatch writes `NAME.LANG.actual.txt` beside the golden file. `UPDATE_GOLDEN=1 cargo
//! test --test chess describe_golden` rewrites the golden files and then fails, so a
//! rewrite is never a silent pass: read every text, commit them, and run the tests again.

use axum::body::Body;
use axum::http::{Request, StatusCode};
use http_body_util::BodyExt;
use staunton::Renderer;
use staunton::chess::describe::LANG_CODES;
use staunton::http::{AppState, DEFAULT_CACHE_BYTES, app};
use std::path::PathBuf;
use std::sync::Arc;
use tower::ServiceExt;

/// (name, query without `lang`).
const POSITIONS: &[(&str, &str)] = &[
    // The six standard kinds, plurals, White to move.
    ("start", "fen=start"),
    // Archbishops and chancellors on a 10×8 board, Black to move; the white rooks and the
    // last pawn on the i-file (Spanish: "a1 e i1").
    (
        "capablanca",
        "fen=r1b1k3cr/pppa1ppppp/10/10/4P5/10/PPPP1PPPP1/RNBQKABCR1_b_-_-_0_1",
    ),
    // Crazyhouse: both pockets, promoted pieces of both genders, White to move.
    (
        "crazyhouse",
        "fen=2Q~4k/8/8/N~7/8/8/8/K5r~1%5BPPNr%5D_w_-_-_0_1",
    ),
    // A game: the move that led here, its piece letters in the language; Black to move.
    (
        "game",
        "pgn=1.%20e4%20e5%202.%20Bc4%20Nc6%203.%20Qh5%20Nf6%204.%20Qxf7%23",
    ),
    // A side with no pieces at all.
    ("lone_king", "fen=8/8/8/4k3/8/8/8/8_b_-_-_0_1"),
];

fn golden_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests")
        .join("golden_describe")
}

async fn describe(state: &Arc<AppState>, query: &str) -> String {
    let request = Request::get(format!("/describe?{query}"))
        .body(Body::empty())
        .expect("request");
    let response = app(state.clone())
        .oneshot(request)
        .await
        .expect("infallible");
    assert_eq!(response.status(), StatusCode::OK, "{query}");
    let body = response
        .into_body()
        .collect()
        .await
        .expect("body")
        .to_bytes();
    String::from_utf8(body.to_vec()).expect("utf-8")
}

#[tokio::test]
async fn describe_in_every_language_matches_the_golden_texts() {
    let update = std::env::var_os("UPDATE_GOLDEN").is_some_and(|v| v == "1");
    let state = Arc::new(AppState::new(
        Arc::new(Renderer::default()),
        DEFAULT_CACHE_BYTES,
    ));
    let mut failures = Vec::new();
    for (name, query) in POSITIONS {
        for lang in LANG_CODES {
            let actual = describe(&state, &format!("{query}&lang={lang}")).await;
            let path = golden_dir().join(format!("{name}.{lang}.txt"));
            let actual_path = golden_dir().join(format!("{name}.{lang}.actual.txt"));
            if update {
                std::fs::create_dir_all(golden_dir()).expect("the golden folder");
                std::fs::write(&path, &actual).expect("golden written");
                failures.push(format!("{} rewritten", path.display()));
                continue;
            }
            let expected = std::fs::read_to_string(&path).unwrap_or_default();
            if expected == actual {
                let _ = std::fs::remove_file(&actual_path);
                continue;
            }
            std::fs::write(&actual_path, &actual).expect("actual written");
            failures.push(format!(
                "{name}.{lang}: expected {expected:?}\n  actual   {actual:?} (in {})",
                actual_path.display()
            ));
        }
        // English is the default: no `lang` is `lang=en`.
        let default = describe(&state, query).await;
        let en = std::fs::read_to_string(golden_dir().join(format!("{name}.en.txt")));
        if !update && en.is_ok_and(|en| en != default) {
            failures.push(format!("{name}: without lang is not English"));
        }
    }
    assert!(
        failures.is_empty(),
        "{}{}",
        failures.join("\n"),
        if update {
            "\nUPDATE_GOLDEN=1 rewrote the golden descriptions: read every one, commit them, \
             then run the tests without it"
        } else {
            ""
        }
    );
}
