//! `/piece.svg`: one piece of a set as SVG, alone on a transparent square, for a palette:
//! the document the set wrote once at load, shared (no copy); cacheable like an image.

use super::super::answer::{self, Image};
use super::super::error::AppError;
use super::super::extract::Asked;
use super::super::state::AppState;
use super::endpoint::{Endpoint, Terms};
use super::operation::{answers, parameters};
use crate::render::RenderError;
use crate::render::options::Format;
use crate::request::Param;
use crate::request::piece::{PIECE_CODES, PIECE_PARAMS, PieceRequest};
use axum::http::StatusCode;
use axum::response::Response;
use axum::routing::{MethodRouter, get};
use serde_json::{Value, json};
use std::sync::Arc;

/// One piece of a set as SVG, for a palette.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Piece;

impl Endpoint for Piece {
    fn router(&self) -> MethodRouter<Arc<AppState>> {
        get(piece)
    }

    fn reads(&self) -> Vec<&'static Param> {
        PIECE_PARAMS.iter().collect()
    }

    fn operation(&self, terms: Terms<'_>, _: &str) -> (Vec<Value>, Value) {
        let edit = |p: &Param, v: &mut Value| {
            if p.name == "piece" {
                v["required"] = json!(true);
                v["schema"] = json!({ "type": "string", "enum": PIECE_CODES });
            }
        };
        let parameters = parameters(self.reads(), terms, |_| true, edit);
        let responses = answers(
            "The piece as SVG; cacheable for a year.",
            json!({ "image/svg+xml": { "schema": { "type": "string" } } }),
            "A bad `piece` or `pieces`: one sentence naming it, the value and what is allowed.",
            &["304"],
        );
        (parameters, responses)
    }

    fn image(&self, _: Option<Format>) -> Option<Format> {
        Some(Format::Svg)
    }
}

/// The piece the query names, from the set it names.
async fn piece(asked: Asked) -> Result<Response, AppError> {
    let request = PieceRequest::read(&asked.query).map_err(AppError::bad_request)?;
    let sets = asked.state.renderer.piece_sets();
    let Some(set) = sets.get(&request.piece_set) else {
        let known = sets.names().map(str::to_string).collect();
        let e = RenderError::UnknownPieceSet(request.piece_set, known);
        return Err(AppError::new(StatusCode::BAD_REQUEST, e.to_string()));
    };
    let image = Image::new(request.cache_key(), "image/svg+xml");
    Ok(answer::held(&asked.headers, image, || {
        set.piece_svg(request.piece)
    }))
}
