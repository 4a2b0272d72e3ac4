//! `/card.png`, a share card for a link's `og:image`: a 1200×630 PNG of a diagram and a
//! title. Read here, drawn on the blocking pool, cached like a diagram (one entry per
//! normalised key, so a hit costs what a diagram's does).

use super::super::answer::Image;
use super::super::error::AppError;
use super::super::extract::Asked;
use super::super::state::AppState;
use super::endpoint::{Endpoint, Terms};
use super::operation::{answers, parameters};
use super::skeleton::{Job, drawn, known_set};
use crate::render::options::{Format, RenderOptions};
use crate::render::share_card::{HEIGHT, WIDTH};
use crate::render::spec::cost;
use crate::render::Renderer;
use crate::request::Param;
use crate::request::share_card::{CARD_PARAMS, CardRequest, MAX_CARD_TEXT_CHARS, diagram_params};
use axum::response::Response;
use axum::routing::{MethodRouter, get};
use serde_json::{Value, json};
use std::sync::Arc;

/// A share card: a 1200×630 PNG of a diagram and a title, for a link's `og:image`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Card;

impl Endpoint for Card {
    fn router(&self) -> MethodRouter<Arc<AppState>> {
        get(card)
    }

    fn reads(&self) -> Vec<&'static Param> {
        diagram_params().chain(CARD_PARAMS).collect()
    }

    fn operation(&self, terms: Terms<'_>, _: &str) -> (Vec<Value>, Value) {
        let edit = |p: &Param, v: &mut Value| {
            if CARD_PARAMS.contains(p) {
                v["schema"] = json!({
                    "type": "string",
                    "maxLength": MAX_CARD_TEXT_CHARS,
                    "pattern": "^[^\\u0000-\\u001f\\u007f-\\u009f]*$",
                });
            }
        };
        let parameters = parameters(self.reads(), terms, |_| true, edit);
        let responses = answers(
            "The card, 1200×630 pixels; cacheable for a year.",
            json!({ "image/png": { "schema": { "type": "string", "format": "binary" } } }),
            "A bad parameter: one sentence naming it, the value and what is allowed (a title or subtitle over 200 characters or with control characters, a bad position or game).",
            &["304", "414", "503"],
        );
        (parameters, responses)
    }

    fn image(&self, _: Option<Format>) -> Option<Format> {
        Some(Format::Png)
    }

    /// A card takes no `size`: its error is a square as tall as the card.
    fn error_size(&self) -> Option<u32> {
        Some(HEIGHT)
    }
}

/// The card the query asks for.
async fn card(asked: Asked) -> Result<Response, AppError> {
    drawn(asked, None, move |r, query, _, limits| {
        let request = CardRequest::read(query, limits).map_err(AppError::bad_request)?;
        known_set(r, &request.diagram.options)?;
        let image = Image::new(request.cache_key(), "image/png");
        // The diagram, and the card's pixels as a plain diagram's of its width would count.
        let page = RenderOptions {
            size: WIDTH.max(HEIGHT),
            ..RenderOptions::default()
        };
        let units = cost::diagram(&request.diagram.options, Format::Png)
            .saturating_add(cost::diagram(&page, Format::Png) / 2);
        let job = move |renderer: &Renderer| request.png(renderer);
        Ok((image, Job(units, ("card", "png"), job)))
    })
    .await
}
