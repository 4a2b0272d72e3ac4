//! `/metrics`: the service's counters and histograms in the Prometheus text format, with
//! the image cache's and the renderer's caches' sizes and the render queue's depth read at
//! the scrape (the counters themselves are `http::metrics`).

use super::super::metrics::{CONTENT_TYPE, Scrape};
use super::super::state::AppState;
use super::endpoint::{Endpoint, Terms};
use super::operation::text;
use crate::cache::Usage;
use axum::extract::State;
use axum::http::header;
use axum::response::IntoResponse;
use axum::routing::{MethodRouter, get};
use serde_json::{Value, json};
use std::sync::Arc;
use std::sync::atomic::Ordering;

/// Prometheus counters.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Metrics;

impl Endpoint for Metrics {
    fn router(&self) -> MethodRouter<Arc<AppState>> {
        get(metrics)
    }

    fn operation(&self, _: Terms<'_>, summary: &str) -> (Vec<Value>, Value) {
        (Vec::new(), json!({ "200": text(summary, "text/plain") }))
    }
}

/// The scrape.
async fn metrics(State(state): State<Arc<AppState>>) -> impl IntoResponse {
    state.cache.run_pending_tasks().await;
    let mut caches = vec![Usage {
        name: "images",
        bytes: state.cache.weighted_size(),
        bound: state.config.cache_bytes,
        entries: state.cache.entry_count(),
    }];
    caches.extend(state.renderer.cache_usage());
    let text = state.metrics.render_text(&Scrape {
        cache_entries: state.cache.entry_count(),
        cache_bytes: state.cache.weighted_size(),
        queue_depth: state.queued.load(Ordering::Relaxed) as u64,
        queue_limit: (state.config.workers.max(1) + state.config.queue) as u64,
        caches: &caches,
    });
    ([(header::CONTENT_TYPE, CONTENT_TYPE)], text)
}
