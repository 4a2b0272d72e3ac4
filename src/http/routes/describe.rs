//! `/describe`: a position in words (English, German, Italian, French, Spanish, Dutch or
//! Japanese), for alt text and screen readers; with a game's length and last move in
//! headers, for the composer's slider.

use super::super::error::AppError;
use super::super::extract::Asked;
use super::super::state::AppState;
use super::endpoint::{Endpoint, Terms, diagram_params};
use super::operation::{error, parameters, text};
use super::skeleton::read;
use crate::request::{Param, Request};
use axum::http::{HeaderValue, header};
use axum::response::{IntoResponse, Response};
use axum::routing::{MethodRouter, get};
use serde_json::{Value, json};
use std::sync::Arc;

/// The plain-English description of a position.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Describe;

/// The diagram parameters `/describe` reads: the position (and how its FEN is read) or
/// game, and the language.
const DESCRIBE_PARAMS: [&str; 8] = [
    "fen", "dialect", "board", "pgn", "moves", "ply", "move", "lang",
];

impl Endpoint for Describe {
    fn router(&self) -> MethodRouter<Arc<AppState>> {
        get(describe)
    }

    fn reads(&self) -> Vec<&'static Param> {
        diagram_params(&DESCRIBE_PARAMS).collect()
    }

    fn operation(&self, terms: Terms<'_>, _: &str) -> (Vec<Value>, Value) {
        let parameters = parameters(self.reads(), terms, |_| true, |_, _| {});
        let responses = json!({
            "200": text("The position in words, one line, in the language `lang` names (English by default).", "text/plain"),
            "400": error("A bad `fen`, game or `lang`: one sentence naming the fault (for `lang`, listing the languages)."),
        });
        (parameters, responses)
    }
}

/// The words of the position the query names.
async fn describe(mut asked: Asked) -> Result<Response, AppError> {
    let (described, text) = read(&mut asked, None, move |_, query, _, limits| {
        let described = Request::described(query, limits).map_err(AppError::bad_request)?;
        let mut text = described.text();
        text.push('\n');
        Ok((described, text))
    })
    .await?;
    let mut response = (
        [
            (header::CONTENT_TYPE, "text/plain; charset=utf-8"),
            (header::CACHE_CONTROL, "public, max-age=31536000, immutable"),
            (header::X_CONTENT_TYPE_OPTIONS, "nosniff"),
        ],
        text,
    )
        .into_response();
    if let Some(plies) = described.plies {
        // The game's length, for the composer's slider.
        response
            .headers_mut()
            .insert("x-game-plies", HeaderValue::from(plies));
    }
    if let Some(label) = described.last_move.as_deref() {
        // The move as SAN (`23...Qxf2+`) whatever the language, for the slider's label.
        if let Ok(value) = HeaderValue::from_str(label) {
            response.headers_mut().insert("x-last-move", value);
        }
    }
    Ok(response)
}
