//! `/image.gif`, a drop-in for lila-gif's still route: a diagram as GIF with the diagram's
//! parameters, and player bars above and below when `white` or `black` names a player.

use super::super::answer::Image;
use super::super::error::AppError;
use super::super::extract::Asked;
use super::super::state::AppState;
use super::endpoint::{Endpoint, Terms};
use super::operation::{error, parameters};
use super::skeleton::{Job, drawn, known_set};
use crate::render::options::Format;
use crate::render::spec::cost;
use crate::render::{Renderer, animate};
use crate::request::players::{MAX_PLAYER_CHARS, PLAYER_PARAMS};
use crate::request::{PARAMS, Param, Request};
use axum::response::Response;
use axum::routing::{MethodRouter, get};
use serde_json::{Value, json};
use std::sync::Arc;

/// A still GIF with lila-gif's parameters (`white`, `black` player bars).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct StillGif;

impl Endpoint for StillGif {
    fn router(&self) -> MethodRouter<Arc<AppState>> {
        get(image)
    }

    fn reads(&self) -> Vec<&'static Param> {
        PARAMS.iter().chain(PLAYER_PARAMS).collect()
    }

    fn operation(&self, terms: Terms<'_>, _: &str) -> (Vec<Value>, Value) {
        let keep = |p: &Param| !["format", "style", "dpi", "lang", "svg"].contains(&p.name);
        let edit = |p: &Param, v: &mut Value| {
            if PLAYER_PARAMS.contains(p) {
                *v = json!({
                    "name": p.name, "in": "query", "required": false, "description": p.doc,
                    "schema": { "type": "string", "maxLength": MAX_PLAYER_CHARS },
                });
            }
        };
        let parameters = parameters(self.reads(), terms, keep, edit);
        let responses = json!({
            "200": { "description": "The diagram as a GIF; cacheable for a year.", "content": { "image/gif": { "schema": { "type": "string", "format": "binary" } } } },
            "400": error("A bad parameter: one sentence naming it, the value and what is allowed."),
        });
        (parameters, responses)
    }

    fn image(&self, _: Option<Format>) -> Option<Format> {
        Some(Format::Gif)
    }
}

/// `/image.gif`, lila-gif's still route: a diagram as GIF, with player bars when `white` or
/// `black` names a player.
async fn image(asked: Asked) -> Result<Response, AppError> {
    drawn(asked, None, move |r, query, _, limits| {
        let request =
            Request::read(query, Some(Format::Gif), limits).map_err(AppError::bad_request)?;
        known_set(r, &request.options)?;
        let players = crate::request::players::players(query).map_err(AppError::bad_request)?;
        let bars = player_bars(&request, players);
        let mut key = crate::request::key::KeyWriter::new("image");
        request.key_fields(&mut key);
        key.optional(bars.as_ref().map(|[top, _]| &top.player))
            .optional(bars.as_ref().map(|[_, bottom]| &bottom.player));
        let image = Image::new(key.finish(), "image/gif");
        let units = cost::diagram(&request.options, Format::Gif);
        let job = move |renderer: &Renderer| match bars {
            None => renderer.render(&request.position, &request.options, Format::Gif),
            Some(bars) => {
                let frame = animate::Frame {
                    position: request.position,
                    options: request.options,
                    delay: 0,
                    bars: Some(bars),
                };
                animate::gif(renderer, std::slice::from_ref(&frame), false)
            }
        };
        Ok((image, Job(units, ("image", "gif"), job)))
    })
    .await
}

/// `/image.gif`'s player bars, top then bottom, when `white` or `black` names a player.
fn player_bars(
    request: &Request,
    [white, black]: [Option<String>; 2],
) -> Option<[animate::Bar; 2]> {
    (white.is_some() || black.is_some()).then(|| {
        let bar = |n: Option<String>, side: &str| animate::Bar {
            player: n.unwrap_or_else(|| side.to_string()),
            clock: None,
        };
        let (white, black) = (bar(white, "White"), bar(black, "Black"));
        match request.options.orientation.bottom(request.position.turn) {
            crate::chess::piece::Color::White => [black, white],
            crate::chess::piece::Color::Black => [white, black],
        }
    })
}
