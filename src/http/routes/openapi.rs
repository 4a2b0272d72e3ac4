//! `/openapi.json`: this API's description, made once from the route table when the router
//! is built (see `routes::table`), and served as it was made.

use super::super::state::AppState;
use super::endpoint::{Endpoint, Terms};
use axum::extract::State;
use axum::http::header;
use axum::response::IntoResponse;
use axum::routing::{MethodRouter, get};
use serde_json::{Value, json};
use std::sync::Arc;

/// This API description.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct OpenApi;

impl Endpoint for OpenApi {
    fn router(&self) -> MethodRouter<Arc<AppState>> {
        get(openapi)
    }

    fn operation(&self, _: Terms<'_>, _: &str) -> (Vec<Value>, Value) {
        (
            Vec::new(),
            json!({ "200": { "description": "This document.", "content": { "application/json": { "schema": { "type": "object" } } } } }),
        )
    }
}

/// The document, as the state holds it.
async fn openapi(State(state): State<Arc<AppState>>) -> impl IntoResponse {
    (
        [
            (header::CONTENT_TYPE, "application/json"),
            (header::CACHE_CONTROL, "no-cache"),
            (header::X_CONTENT_TYPE_OPTIONS, "nosniff"),
        ],
        state.openapi(),
    )
}
