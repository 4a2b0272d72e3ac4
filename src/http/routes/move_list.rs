//! `/game.json`: a game's main line as JSON, for a move list beside a board, from the game
//! in the query (`pgn`, or `moves` from `fen`) or the PGN POSTed as the body. Reading and
//! playing a game takes microseconds: no cache, no pool; the ETag of the game's text
//! answers revalidations.
//!
//! Owns the document's shape, written ([`json`]) and described (its schema in
//! `/openapi.json`); the game is read and played by `chess::game` (through
//! `request::move_list`). Keys are written in a fixed order, tags in the order of the PGN.
//!
//! ```json
//! {"plies":2,"start":"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
//!  "moves":[{"ply":1,"number":1,"side":"w","san":"e4","uci":"e2e4","fen":"…"},
//!           {"ply":2,"number":1,"side":"b","san":"e5","uci":"e7e5","fen":"…"}],
//!  "tags":{"White":"Morphy"},"result":"1-0"}
//! ```

use super::super::answer::{self, Image};
use super::super::error::AppError;
use super::super::extract::Asked;
use super::super::state::AppState;
use super::endpoint::{Endpoint, Terms, diagram_params};
use super::operation::{answers, parameters};
use super::skeleton::{get_or_post, read};
use crate::chess::game::Game;
use crate::request::Param;
use crate::request::move_list::{MOVE_LIST_PARAMS, MoveListRequest};
use axum::body::Body;
use axum::response::Response;
use axum::routing::MethodRouter;
use bytes::Bytes;
use serde_json::{Value, json};
use std::fmt::Write as _;
use std::sync::Arc;

/// A game's main line as JSON (GET with `pgn` or `moves`, or POST the PGN).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct MoveList;

impl Endpoint for MoveList {
    fn router(&self) -> MethodRouter<Arc<AppState>> {
        get_or_post(game_json)
    }

    fn reads(&self) -> Vec<&'static Param> {
        diagram_params(&MOVE_LIST_PARAMS).collect()
    }

    fn operation(&self, terms: Terms<'_>, _: &str) -> (Vec<Value>, Value) {
        let parameters = parameters(self.reads(), terms, |_| true, |_, _| {});
        let ply = json!({
            "type": "object",
            "required": ["ply", "number", "side", "san", "uci", "fen"],
            "properties": {
                "ply": { "type": "integer", "minimum": 1, "description": "Half-moves played after this move." },
                "number": { "type": "integer", "minimum": 1, "description": "The move number (`23` in `23...Qxf2+`)." },
                "side": { "type": "string", "enum": ["w", "b"], "description": "Who moved." },
                "san": { "type": "string", "example": "Nf3", "description": "Standard algebraic notation, with `+` or `#`." },
                "uci": { "type": "string", "example": "g1f3", "description": "UCI: castling is `e1g1` in standard chess, king takes rook in Chess960." },
                "fen": { "type": "string", "description": "The position after the move." },
            },
        });
        let schema = json!({
            "type": "object",
            "required": ["plies", "start", "moves", "tags", "result"],
            "properties": {
                "plies": { "type": "integer", "minimum": 0, "maximum": terms.limits.plies },
                "start": { "type": "string", "description": "The FEN before the first move." },
                "moves": { "type": "array", "items": ply },
                "tags": { "type": "object", "additionalProperties": { "type": "string" }, "description": "The tag pairs (the first of each name)." },
                "result": { "type": "string", "nullable": true, "example": "1-0", "description": "The result token ending the movetext, else the `Result` tag, else null." },
            },
        });
        let responses = answers(
            "The main line; cacheable for a year (the game's text decides the bytes).",
            json!({ "application/json": { "schema": schema } }),
            "A bad game: one sentence naming the parameter and, for a move, its number, as written, and why.",
            &["304", "413", "414"],
        );
        (parameters, responses)
    }

    fn posts(&self) -> bool {
        true
    }
}

/// `/game.json`: the main line of the game from the query or the POSTed `body`, as JSON.
async fn game_json(mut asked: Asked, body: Option<Body>) -> Result<Response, AppError> {
    let (key, document) = read(&mut asked, body, move |_, query, text, limits| {
        let request =
            MoveListRequest::from_pairs_with(query, text, limits).map_err(AppError::bad_request)?;
        let document = Bytes::from(json(&request.game));
        Ok((request.cache_key().to_string(), document))
    })
    .await?;
    let image = Image::new(key, "application/json; charset=utf-8");
    Ok(answer::held(&asked.headers, image, || document))
}

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
