//! Move-list requests: `/game.json` query parameters (or a POSTed PGN) in, a played
//! [`Game`] out.
//!
//! Owns which parameters that route reads (the game alone: `pgn`, `moves`, `fen`) and its
//! cache key. The game is read and checked exactly as for a diagram or an animation, with
//! the same limits and the same one-sentence errors; writing it as JSON is `http`'s.

use super::chosen::{GAME_MISSING, choose_game};
use super::error::RequestError;
use super::key::KeyWriter;
use super::limits::Limits;
use super::params::named;
use super::query::Query;
use crate::chess::game::Game;

/// The diagram parameters `/game.json` reads; every other one is ignored.
pub const MOVE_LIST_PARAMS: [&str; 3] = ["pgn", "moves", "fen"];

/// A validated move-list request: the game, played.
#[derive(Debug, Clone)]
pub struct MoveListRequest {
    /// The game's main line, played by the rules.
    pub game: Game,
    key: String,
}

impl MoveListRequest {
    /// Validate the game of `pairs` (`pgn`, or `moves` from `fen`) or of `body`, a POSTed
    /// PGN, which wins over `pgn` and may be as long as the body limit allowed.
    pub fn from_pairs_with(
        query: &Query,
        body: Option<&str>,
        limits: &Limits,
    ) -> Result<MoveListRequest, RequestError> {
        let mut limits = *limits;
        if let Some(body) = body {
            limits.pgn_bytes = limits.pgn_bytes.max(body.len());
        }
        let get = |name: &str| -> Option<&str> {
            if name == "pgn" && body.is_some() {
                return body;
            }
            if !MOVE_LIST_PARAMS.contains(&name) {
                return None;
            }
            query.last(named(name))
        };
        let Some(chosen) = choose_game(&get, &limits)? else {
            return Err(RequestError::missing("pgn", GAME_MISSING));
        };
        let mut key = KeyWriter::new("game.json");
        match get("pgn") {
            Some(pgn) => key.field("pgn").field(pgn),
            None => key
                .field("moves")
                .optional(get("fen"))
                .optional(get("moves")),
        };
        Ok(MoveListRequest {
            game: chosen.game,
            key: key.finish_undrawn(),
        })
    }

    /// The cache key: the renderer version and the game's text (the answer is a function
    /// of them alone).
    pub fn cache_key(&self) -> &str {
        &self.key
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pairs(query: &[(&str, &str)]) -> Query {
        Query::from_pairs(query.iter().copied())
    }

    #[test]
    fn a_game_from_pgn_moves_or_a_body_and_the_key_tells_them_apart() {
        let limits = Limits::default();
        let by_pgn = MoveListRequest::from_pairs_with(
            &pairs(&[("PGN", "1. e4 e5"), ("ply", "1"), ("size", "x")]),
            None,
            &limits,
        )
        .expect("pgn");
        assert_eq!(by_pgn.game.len(), 2, "ply and image parameters are ignored");
        let by_moves =
            MoveListRequest::from_pairs_with(&pairs(&[("moves", "e2e4 e7e5")]), None, &limits)
                .expect("moves");
        assert_eq!(by_moves.game.position(2), by_pgn.game.position(2));
        assert_ne!(by_moves.cache_key(), by_pgn.cache_key());
        let posted = MoveListRequest::from_pairs_with(
            &pairs(&[("pgn", "1. d4")]),
            Some("1. e4 e5"),
            &limits,
        )
        .expect("body");
        assert_eq!(posted.cache_key(), by_pgn.cache_key(), "the body wins");
        let from = MoveListRequest::from_pairs_with(
            &pairs(&[("fen", "start"), ("moves", "e2e4")]),
            None,
            &limits,
        )
        .expect("fen");
        assert_ne!(from.cache_key(), by_moves.cache_key());
    }

    #[test]
    fn bad_games_are_the_game_routes_errors() {
        let limits = Limits {
            plies: 2,
            ..Limits::default()
        };
        for (query, param, text) in [
            (vec![], "pgn", "pgn is missing"),
            (
                vec![("pgn", "1. e4 e5 2. Ke3")],
                "pgn",
                "pgn: the game has 3 plies: at most 2 are allowed",
            ),
            (
                vec![("pgn", "1. e4 Ke6")],
                "pgn",
                "pgn: 1... Ke6 is not a legal move for Black after 1. e4",
            ),
            (
                vec![("moves", "e2e5")],
                "moves",
                "moves: 1. e2e5 is not a legal move for White in the starting position",
            ),
            (
                vec![("pgn", "1. e4"), ("fen", "start")],
                "fen",
                "fen and pgn cannot both be given",
            ),
        ] {
            let e =
                MoveListRequest::from_pairs_with(&pairs(&query), None, &limits).expect_err(text);
            assert_eq!(e.param, param, "{e}");
            assert!(e.to_string().starts_with(text), "{e}");
        }
        let long = "e2e4 ".repeat(4000);
        let e = MoveListRequest::from_pairs_with(&pairs(&[("moves", &long)]), None, &limits)
            .expect_err("too long");
        assert!(e.to_string().contains("at most 16384 bytes"), "{e}");
    }
}
