//! Games played by the rules against a reference: the position after every ply of real
//! games (and a few constructed ones: promotions to every piece, en passant both ways,
//! Chess960 castling) must equal python-chess's, written once into
//! `tests/fixtures/games/*.fens` by `scripts/gen/game_fixtures.py`.

use staunton::chess::game::Game;
use std::path::Path;

#[test]
fn every_ply_of_every_fixture_game_matches_python_chess() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/games");
    let mut games = 0;
    let mut plies = 0;
    let mut entries: Vec<_> = std::fs::read_dir(&dir)
        .expect("the fixture folder")
        .map(|e| e.expect("an entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "pgn"))
        .collect();
    entries.sort();
    for pgn_path in entries {
        let name = pgn_path.file_name().unwrap().to_string_lossy().into_owned();
        let pgn = std::fs::read_to_string(&pgn_path).expect("reads");
        let fens = std::fs::read_to_string(pgn_path.with_extension("fens")).expect("its .fens");
        let expected: Vec<&str> = fens.lines().filter(|l| !l.is_empty()).collect();
        let game = Game::from_pgn(&pgn, 1000).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(game.len() + 1, expected.len(), "{name}: plies");
        for (ply, fen) in expected.iter().enumerate() {
            assert_eq!(
                game.position(ply).to_string(),
                *fen,
                "{name}: after ply {ply} ({})",
                game.label(ply).unwrap_or_default()
            );
        }
        games += 1;
        plies += game.len();
    }
    assert!(games >= 8 && plies >= 300, "{games} games, {plies} plies");
}

#[test]
fn written_san_round_trips_through_the_reader() {
    // Every move written back in SAN (with check and mate marks) reads as the same move.
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/games");
    for name in [
        "immortal.pgn",
        "kasparov_topalov.pgn",
        "promotions.pgn",
        "chess960.pgn",
    ] {
        let text = std::fs::read_to_string(dir.join(name)).expect("reads");
        let game = Game::from_pgn(&text, 1000).expect("plays");
        let fen = game.position(0).to_string();
        let sans: Vec<String> = (1..=game.len())
            .map(|p| game.san(p).expect("a move"))
            .collect();
        let header = format!("[Variant \"Chess960\"]\n[FEN \"{fen}\"]\n\n");
        let again = Game::from_pgn(&format!("{header}{}", sans.join(" ")), 1000)
            .unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(
            again.position(again.len()),
            game.position(game.len()),
            "{name}"
        );
    }
}

proptest::proptest! {
    #![proptest_config(proptest::test_runner::Config::with_cases(2000))]

    /// No text makes the reader or the player panic: a game or one sentence.
    #[test]
    fn any_text_is_a_game_or_a_sentence(text in "\\PC{0,200}") {
        if let Err(e) = Game::from_pgn(&text, 1000) {
            proptest::prop_assert!(!e.to_string().is_empty());
        }
    }

    /// PGN-shaped soup (tags, numbers, moves, comments, variations, NAGs, results) likewise.
    #[test]
    fn pgn_soup_is_a_game_or_a_sentence(tokens in proptest::collection::vec(
        proptest::sample::select(vec![
            "[White \"x\"]", "[FEN \"8/8/8/8/8/8/8/K6k w - - 0 1\"]", "[Variant \"Chess960\"]",
            "1.", "1...", "12.", "e4", "e5", "Nf3", "Nc6", "O-O", "0-0-0", "exd6", "e.p.", "e8=Q",
            "Qxf7#", "{", "}", "(", ")", "$1", "$300", "!?", ";", "\n", "1-0", "*", "[", "]", "\"",
            "Kxe2", "a1=N", "Bb5+", "…",
        ]),
        0..40,
    )) {
        let text = tokens.join(" ");
        if let Err(e) = Game::from_pgn(&text, 1000) {
            proptest::prop_assert!(!e.to_string().is_empty());
        }
        let _ = Game::from_uci(&staunton::Position::start(), &text, 1000);
    }
}
