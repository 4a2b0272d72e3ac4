//! The shared FEN corpus (`tests/fixtures/`, a copy of `../shared/fixtures/`), and
//! properties of the parser.

mod common;

use proptest::prelude::*;
use staunton::fen;
use staunton::{Color, Piece, Position, Square};

/// Lines of the shared corpus whose *expected* placement is itself malformed, with what we
/// expect instead. Reported to the product side; the test proves each expectation is
/// malformed, so when the corpus is corrected this list must shrink.
const CORPUS_ERRATA: &[(&str, &str)] = &[(
    // "2Q5k" has 9 squares: the `~` mark was counted as a square. The crazyhouse queen
    // stands on c8 and rank 8 reads "2Q4k".
    "2Q~4k/8/8/8/8/8/8/4K3[Pp] b - - 0 30",
    "2Q4k/8/8/8/8/8/8/4K3",
)];

#[test]
fn every_valid_fixture_parses_to_its_placement() {
    let cases = common::fixture_cases("valid.fen");
    assert!(cases.len() >= 20, "the corpus is there");
    for (input, expected) in cases {
        let pos = fen::parse(&input).unwrap_or_else(|e| panic!("{input:?}: {e}"));
        match CORPUS_ERRATA.iter().find(|(line, _)| *line == input) {
            Some((_, corrected)) => {
                assert!(
                    fen::parse(&expected).is_err(),
                    "the corpus expectation {expected:?} parses now: drop the erratum"
                );
                assert_eq!(fen::placement(&pos), *corrected, "{input:?}");
            }
            None => assert_eq!(fen::placement(&pos), expected, "{input:?}"),
        }
    }
}

#[test]
fn every_invalid_fixture_fails_naming_its_word() {
    let cases = common::fixture_cases("invalid.fen");
    assert!(cases.len() >= 10);
    for (input, word) in cases {
        let err = fen::parse(&input).expect_err(&input).to_string();
        assert!(
            err.to_lowercase().contains(&word.to_lowercase()),
            "{input:?}: {err:?} lacks {word:?}"
        );
        assert_eq!(err.lines().count(), 1, "one line: {err}");
    }
}

fn arb_position() -> impl Strategy<Value = Position> {
    let files = prop_oneof![Just(8u8), Just(10u8)];
    files
        .prop_flat_map(|files| {
            let squares =
                proptest::collection::vec(proptest::option::weighted(0.4, 0usize..16), 80);
            let promoted = proptest::collection::vec(any::<bool>(), 80);
            let pocket = proptest::option::of(proptest::collection::vec(0usize..16, 0..6));
            let castling = prop_oneof![
                Just("-".to_string()),
                Just("KQkq".to_string()),
                Just("Kq".to_string()),
                Just("AHah".to_string()),
                Just("Q".to_string()),
            ];
            let ep = proptest::option::of((0..files, prop_oneof![Just(2u8), Just(5u8)]));
            (
                Just(files),
                squares,
                promoted,
                pocket,
                any::<bool>(),
                castling,
                ep,
                0u32..500,
                0u32..500,
            )
        })
        .prop_map(
            |(files, squares, promoted, pocket, white, castling, ep, half, full)| {
                let pieces: Vec<Piece> = Piece::all().collect();
                let mut pos = Position::empty(files);
                let all: Vec<Square> = pos.squares().collect();
                for (i, sq) in all.iter().enumerate() {
                    pos.set(*sq, squares[i].map(|p| pieces[p]));
                    pos.set_promoted(*sq, promoted[i]);
                }
                pos.pocket = pocket.map(|list| {
                    let mut p = staunton::position::Pocket::default();
                    for i in list {
                        p.add(pieces[i]);
                    }
                    p
                });
                pos.turn = if white { Color::White } else { Color::Black };
                pos.castling = castling;
                pos.en_passant = ep.map(|(f, r)| Square::new(f, r));
                pos.halfmove = half;
                pos.fullmove = full;
                pos
            },
        )
}

proptest! {
    #[test]
    fn writing_and_reading_back_gives_the_same_position(pos in arb_position()) {
        let text = pos.to_string();
        let back = fen::parse(&text).map_err(|e| TestCaseError::fail(format!("{text}: {e}")))?;
        prop_assert_eq!(back, pos);
    }

    #[test]
    fn arbitrary_text_never_panics(text in ".{0,300}") {
        let _ = fen::parse(&text);
    }

    #[test]
    fn fen_like_text_never_panics(text in "[rnbqkpacRNBQKPAC0123456789/ ~\\[\\]wKQkq_\"FEN-]{0,120}") {
        if let Err(e) = fen::parse(&text) {
            let message = e.to_string();
            prop_assert!(message.starts_with("invalid FEN: "));
            prop_assert_eq!(message.lines().count(), 1);
        }
    }
}
