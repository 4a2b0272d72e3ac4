//! `/game.json`: a game's main line as JSON, for a move list beside a board.
//!
//! Owns the document's shape only; the game is read and played by `chess::game` (through
//! `request::move_list`). Keys are written in a fixed order, tags in the order of the PGN.
//!
//! ```json
//! {"plies":2,"start":"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
//!  "moves":[{"ply":1,"number":1,"side":"w","san":"e4","uci":"e2e4","fen":"…"},
//!           {"ply":2,"number":1,"side":"b","san":"e5","uci":"e7e5","fen":"…"}],
//!  "tags":{"White":"Morphy"},"result":"1-0"}
//! ```

use crate::chess::game::Game;
use serde_json::Value;
use std::fmt::Write as _;

/// `text` as a JSON string, quoted and escaped.
fn string(text: &str) -> String {
    Value::from(text).to_string()
}

/// The JSON document of `game`'s main line: `plies`, `start` (FEN), `moves` (one object
/// per ply: `ply`, `number`, `side` `w`/`b`, `san`, `uci`, `fen` after it), `tags` (each
/// tag pair once, the first of a name), `result` (the movetext's result token, else the
/// `[Result]` tag, else `null`).
pub fn json(game: &Game) -> String {
    let mut out = String::with_capacity(128 + game.len() * 120);
    // Writing into a String cannot fail; the results are ignored for that reason.
    let _ = write!(
        out,
        r#"{{"plies":{},"start":{},"moves":["#,
        game.len(),
        string(&game.position(0).to_string())
    );
    for ply in 1..=game.len() {
        if ply > 1 {
            out.push(',');
        }
        let side = game.mover(ply).map_or('w', |c| c.letter());
        let _ = write!(
            out,
            r#"{{"ply":{ply},"number":{},"side":"{side}","san":{},"uci":{},"fen":{}}}"#,
            game.move_number(ply).unwrap_or(0),
            string(&game.san(ply).unwrap_or_default()),
            string(&game.uci(ply).unwrap_or_default()),
            string(&game.position(ply).to_string()),
        );
    }
    out.push_str(r#"],"tags":{"#);
    let mut seen: Vec<&str> = Vec::new();
    for (name, value) in game.headers() {
        if seen.iter().any(|s| s.eq_ignore_ascii_case(name)) {
            continue;
        }
        if !seen.is_empty() {
            out.push(',');
        }
        seen.push(name);
        let _ = write!(out, "{}:{}", string(name), string(value));
    }
    let result = game.result().or_else(|| game.header("Result"));
    let _ = write!(
        out,
        r#"}},"result":{}}}"#,
        result.map_or("null".to_string(), string)
    );
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_document_parses_escapes_tags_and_keeps_one_of_a_name() {
        let pgn =
            "[White \"Tab\tand \\\"quote\\\"\"]\n[white \"again\"]\n[Result \"*\"]\n1. e4 e5 1-0";
        let game = Game::from_pgn(pgn, 10).expect("plays");
        let doc: Value = serde_json::from_str(&json(&game)).expect("JSON");
        assert_eq!(doc["plies"], 2);
        assert_eq!(doc["moves"][1]["side"], "b");
        assert_eq!(doc["moves"][1]["number"], 1);
        assert_eq!(doc["moves"][1]["uci"], "e7e5");
        assert_eq!(doc["tags"].as_object().expect("tags").len(), 2);
        assert_eq!(doc["tags"]["White"], "Tab\tand \"quote\"");
        assert_eq!(
            doc["result"], "1-0",
            "the movetext's result wins over the tag"
        );
        let tagged = Game::from_pgn("[Result \"0-1\"]\n1. e4", 10).expect("plays");
        assert!(json(&tagged).ends_with(r#""tags":{"Result":"0-1"},"result":"0-1"}"#));
        let bare =
            Game::from_uci(&crate::chess::position::Position::start(), "", 10).expect("no moves");
        assert_eq!(
            json(&bare),
            r#"{"plies":0,"start":"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1","moves":[],"tags":{},"result":null}"#
        );
    }
}
