//! `/game.gif` and `/game.png`: a whole game (`pgn` or `moves` in the query, or the PGN
//! POSTed as the body) as an animated GIF or APNG, drawn on the blocking pool and cached
//! like a diagram.

use super::super::answer::Image;
use super::super::error::AppError;
use super::super::extract::Asked;
use super::super::state::AppState;
use super::endpoint::{Endpoint, Terms};
use super::operation::{answers, parameters};
use super::skeleton::{Job, drawn, get_or_post, known_set};
use crate::render::options::Format;
use crate::render::spec::cost;
use crate::render::{Renderer, animate};
use crate::request::{GAME_PARAMS, GameRequest, PARAMS, Param};
use axum::body::Body;
use axum::response::Response;
use axum::routing::MethodRouter;
use serde_json::{Value, json};
use std::sync::Arc;

/// A whole game as an animated image.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Game(pub Animation);

/// The kind of whole-game image.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Animation {
    /// An animated GIF.
    Gif,
    /// An animated PNG (APNG), full colour.
    Apng,
}

impl Animation {
    /// Its content type.
    pub fn content_type(self) -> &'static str {
        match self {
            Animation::Gif => "image/gif",
            Animation::Apng => "image/png",
        }
    }

    /// Its name in cache keys and logs.
    pub fn name(self) -> &'static str {
        match self {
            Animation::Gif => "gif",
            Animation::Apng => "apng",
        }
    }
}

impl Endpoint for Game {
    fn router(&self) -> MethodRouter<Arc<AppState>> {
        let kind = self.0;
        get_or_post(move |asked, body| game(asked, body, kind))
    }

    fn reads(&self) -> Vec<&'static Param> {
        // A whole game has no one position: `ply` and `move` are left out of its frames.
        PARAMS
            .iter()
            .filter(|p| !["ply", "move"].contains(&p.name))
            .chain(GAME_PARAMS)
            .collect()
    }

    fn operation(&self, terms: Terms<'_>, _: &str) -> (Vec<Value>, Value) {
        // The frames are PNGs without words: format, style, lang and svg change nothing.
        let keep = |p: &Param| !["format", "style", "lang", "svg"].contains(&p.name);
        let parameters = parameters(self.reads(), terms, keep, |_, _| {});
        let responses = answers(
            "The animation; cacheable for a year.",
            json!({ self.0.content_type(): { "schema": { "type": "string", "format": "binary" } } }),
            "A bad parameter or game: one sentence naming it, the value and what is allowed (for a move: its number, as written, and why).",
            &["304", "413", "414", "503"],
        );
        (parameters, responses)
    }

    fn posts(&self) -> bool {
        true
    }

    fn image(&self, _: Option<Format>) -> Option<Format> {
        Some(match self.0 {
            Animation::Gif => Format::Gif,
            Animation::Apng => Format::Png,
        })
    }
}

/// A whole game as an animation: the game from the query (`pgn`, `moves`) or the POSTed
/// body, rendered on the blocking pool, cached like a diagram.
async fn game(asked: Asked, body: Option<Body>, kind: Animation) -> Result<Response, AppError> {
    drawn(asked, body, move |r, query, text, limits| {
        let request =
            GameRequest::read(query, text, kind.name(), limits).map_err(AppError::bad_request)?;
        known_set(r, &request.play.options)?;
        let image = Image::new(request.cache_key(), kind.content_type());
        let (frames, looped) = (request.frames(), request.looped);
        let units = cost::frames(&frames);
        let job = move |renderer: &Renderer| match kind {
            Animation::Gif => animate::gif(renderer, &frames, looped),
            Animation::Apng => animate::apng(renderer, &frames, looped),
        };
        Ok((image, Job(units, ("game", kind.name()), job)))
    })
    .await
}
