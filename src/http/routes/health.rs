//! `/health` and `/ready`, for whatever runs the service: liveness (`ok` while it runs,
//! with its version) and readiness (503 once it is shutting down, so a balancer drains it
//! first).

use super::super::state::AppState;
use super::endpoint::{Endpoint, Terms};
use super::operation::{error, text};
use axum::extract::State;
use axum::http::{StatusCode, header};
use axum::response::IntoResponse;
use axum::routing::{MethodRouter, get};
use serde_json::{Value, json};
use std::sync::Arc;

/// Liveness.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Health;

/// Readiness: 503 once shutting down.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Ready;

/// The header `/health` answers with, holding the service's version: what tells
/// `staunton health` that the answer is Staunton's and not another server's.
pub(crate) const HEALTH_HEADER: &str = "staunton-version";

impl Endpoint for Health {
    fn router(&self) -> MethodRouter<Arc<AppState>> {
        get(health)
    }

    fn operation(&self, _: Terms<'_>, summary: &str) -> (Vec<Value>, Value) {
        (Vec::new(), json!({ "200": text(summary, "text/plain") }))
    }
}

impl Endpoint for Ready {
    fn router(&self) -> MethodRouter<Arc<AppState>> {
        get(ready)
    }

    fn operation(&self, _: Terms<'_>, _: &str) -> (Vec<Value>, Value) {
        (
            Vec::new(),
            json!({
                "200": text("Ready: `ready`.", "text/plain"),
                "503": error("Shutting down: send new requests elsewhere."),
            }),
        )
    }
}

/// Liveness: `ok`, and the version in [`HEALTH_HEADER`].
async fn health() -> impl IntoResponse {
    (
        [
            (header::CONTENT_TYPE, "text/plain; charset=utf-8"),
            (
                header::HeaderName::from_static(HEALTH_HEADER),
                env!("CARGO_PKG_VERSION"),
            ),
        ],
        "ok\n",
    )
}

/// Readiness: 200 while the service takes new requests, 503 once it is shutting down.
async fn ready(State(state): State<Arc<AppState>>) -> impl IntoResponse {
    let (status, text) = match state.is_draining() {
        false => (StatusCode::OK, "ready\n"),
        true => (
            StatusCode::SERVICE_UNAVAILABLE,
            "draining: this replica is shutting down\n",
        ),
    };
    (
        status,
        [
            (header::CONTENT_TYPE, "text/plain; charset=utf-8"),
            (header::CACHE_CONTROL, "no-store"),
        ],
        text,
    )
}
