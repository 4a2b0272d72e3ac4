//! `check=auto` cross-checked against cozy-chess (MIT, a dev-dependency only) on random
//! legal positions reached by random play from the start.

use cozy_chess::{Board, Move};
use proptest::prelude::*;
use staunton::chess::{attacks, fen};

fn random_game(choices: &[u16]) -> Vec<Board> {
    let mut board = Board::default();
    let mut boards = vec![board.clone()];
    for choice in choices {
        let mut moves: Vec<Move> = Vec::new();
        board.generate_moves(|list| {
            moves.extend(list);
            false
        });
        if moves.is_empty() {
            break;
        }
        board.play_unchecked(moves[usize::from(*choice) % moves.len()]);
        boards.push(board.clone());
    }
    boards
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]
    #[test]
    fn auto_check_agrees_with_cozy_chess(choices in proptest::collection::vec(any::<u16>(), 1..120)) {
        for board in random_game(&choices) {
            let text = board.to_string();
            let pos = fen::parse(&text).map_err(|e| TestCaseError::fail(format!("{text}: {e}")))?;
            let ours = attacks::checked_king(&pos).is_some();
            let theirs = !board.checkers().is_empty();
            prop_assert_eq!(ours, theirs, "{}", text);
        }
    }
}

#[test]
fn the_comparison_sees_checks() {
    // Deterministic games: the property above is not vacuous only if checks occur.
    let mut seed: u64 = 0x1234_5678_9abc_def1;
    let (mut checks, mut positions) = (0, 0);
    for _ in 0..200 {
        let choices: Vec<u16> = (0..150)
            .map(|_| {
                seed ^= seed << 13;
                seed ^= seed >> 7;
                seed ^= seed << 17;
                seed as u16
            })
            .collect();
        for board in random_game(&choices) {
            let pos = fen::parse(&board.to_string()).expect("cozy writes valid FEN");
            let ours = attacks::checked_king(&pos).is_some();
            assert_eq!(ours, !board.checkers().is_empty(), "{board}");
            checks += usize::from(ours);
            positions += 1;
        }
    }
    assert!(
        checks > 100,
        "only {checks} checks in {positions} positions"
    );
}
