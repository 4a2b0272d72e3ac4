//! The router: every route of the table (`routes::ROUTES`) at its path, and the layers
//! every request passes, outermost first: one log line (and the `Staunton-Warning` its
//! query earns), error images (`error_image`), the deadline; a path no route has is a 404
//! with one sentence. The router also hands the state what the table tells the requests
//! ([`Described`]: `/openapi.json`, the names each route reads).

use super::answer::CacheStatus;
use super::error::AppError;
use super::error_image::{self, ErrorImages};
use super::extract::{Upload, WARNING_HEADER, warning};
use super::pool::Deadline;
use super::routes::{ROUTES, openapi};
use super::state::{AppState, Described};
use crate::request::Known;
use axum::Router;
use axum::extract::{MatchedPath, Request, State};
use axum::http::{StatusCode, Uri};
use axum::middleware::{self, Next};
use axum::response::{IntoResponse, Response};
use bytes::Bytes;
use std::sync::Arc;
use std::time::Instant;

/// The router with every route of `routes::ROUTES`, over `state`.
pub fn app(state: Arc<AppState>) -> Router {
    state.described.get_or_init(|| described(&state));
    let mut router = Router::new();
    for route in ROUTES {
        router = router.route(route.path, route.endpoint.router());
    }
    router
        .fallback(not_found)
        .layer(middleware::from_fn_with_state(
            state.clone(),
            enforce_deadline,
        ))
        .layer(middleware::from_fn_with_state(
            ErrorImages::new(state.clone()),
            error_image::answer,
        ))
        .layer(middleware::from_fn_with_state(state.clone(), log_request))
        .with_state(state)
}

/// What the table tells the requests over `state`: `/openapi.json` with its limits and
/// piece sets, and the names each route that reads a query knows.
fn described(state: &AppState) -> Described {
    let sets: Vec<String> = state
        .renderer
        .piece_sets()
        .names()
        .map(str::to_string)
        .collect();
    let openapi = Bytes::from(openapi(&state.config.limits, &sets).to_string());
    let known = ROUTES
        .iter()
        .map(|route| (route.path, route.endpoint.reads()))
        .filter(|(_, params)| !params.is_empty())
        .map(|(path, params)| (path, Known::new(params)))
        .collect();
    Described { openapi, known }
}

/// The answer to a path no route has.
async fn not_found(uri: Uri) -> AppError {
    AppError::new(
        StatusCode::NOT_FOUND,
        format!(
            "no route {}: try /, /diagram?fen=start, /describe?fen=start or /openapi.json",
            crate::echo::Echo(uri.path())
        ),
    )
}

/// Every request's deadline, `Config::request_timeout` from now: put in its extensions for
/// admission (see `pool`), and kept here. Past it the answer is 408 with one sentence,
/// and the request's future is dropped, which cancels the render it waits for. This layer
/// sits inside the logging one, so a 408 is logged and counted like any answer.
async fn enforce_deadline(
    State(state): State<Arc<AppState>>,
    mut request: Request,
    next: Next,
) -> Response {
    let timeout = state.config.request_timeout;
    let deadline = tokio::time::Instant::now() + timeout;
    let upload = Upload::default();
    request.extensions_mut().insert(Deadline(deadline));
    request.extensions_mut().insert(upload.clone());
    match tokio::time::timeout_at(deadline, next.run(request)).await {
        Ok(response) => response,
        Err(_) => {
            let seconds = timeout.as_secs_f64();
            let why = match upload.arriving() {
                true => format!(
                    "the request body did not arrive within {seconds:.1} s, the time this service allows a request: send the PGN at once, not slowly or in pieces"
                ),
                false => format!(
                    "the answer was not ready within {seconds:.1} s, the time this service allows a request: ask for a smaller size, fewer marks, fewer moves or less text"
                ),
            };
            AppError::new(StatusCode::REQUEST_TIMEOUT, why).into_response()
        }
    }
}

/// One log line per request: method, path, status, milliseconds, cache hit or miss. Every
/// answer of a route also gets the `Staunton-Warning` its query earns (see `extract`).
async fn log_request(State(state): State<Arc<AppState>>, request: Request, next: Next) -> Response {
    let start = Instant::now();
    let method = request.method().clone();
    let path = request.uri().path().to_string();
    // The route as the router matched it (so metrics cannot drift from the routes);
    // anything the fallback answers counts as "other", keeping the label set bounded.
    let route = request
        .extensions()
        .get::<MatchedPath>()
        .map_or_else(|| "other".to_string(), |m| m.as_str().to_string());
    let warning = warning(&state, &route, request.uri().query());
    let mut response = next.run(request).await;
    if let Some(warning) = warning {
        response.headers_mut().insert(WARNING_HEADER, warning);
    }
    let ms = start.elapsed().as_secs_f64() * 1000.0;
    let cache = match response.extensions().get::<CacheStatus>() {
        Some(CacheStatus::Hit) => "hit",
        Some(CacheStatus::Miss) => "miss",
        None => "-",
    };
    let status = response.status().as_u16();
    state.metrics.request(&route, status);
    if status >= 500 {
        tracing::error!(%method, path, status, ms = format!("{ms:.2}"), cache, "request");
    } else {
        tracing::info!(%method, path, status, ms = format!("{ms:.2}"), cache, "request");
    }
    response
}
