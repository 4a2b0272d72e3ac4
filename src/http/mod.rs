//! The HTTP service: routes, headers, the image cache, and the render pool.
//!
//! Owns everything axum knows. Requests are validated by `request.rs`, drawn by
//! `render.rs`; this module adds caching (moka, keyed by the normalised request, weighted
//! by bytes, single-flight), conditional requests (ETag / 304), and runs renders off the
//! async executor on a pool bounded to one job per core.

mod error;

pub use error::AppError;

use crate::options::Format;
use crate::render::Renderer;
use crate::request::Request;
use axum::Router;
use axum::extract::{RawQuery, Request as HttpRequest, State};
use axum::http::{HeaderMap, HeaderValue, StatusCode, header};
use axum::middleware::{self, Next};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use bytes::Bytes;
use moka::future::Cache;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Instant;
use tokio::sync::Semaphore;

/// Default byte budget of the image cache: 128 MiB.
pub const DEFAULT_CACHE_BYTES: u64 = 128 * 1024 * 1024;
/// Longest accepted query string, in bytes.
pub const MAX_QUERY_BYTES: usize = 4096;

/// What the service shares between requests.
pub struct AppState {
    renderer: Arc<Renderer>,
    cache: Cache<String, Bytes>,
    renders: AtomicU64,
    pool: Arc<Semaphore>,
}

impl std::fmt::Debug for AppState {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("AppState")
            .field("renders", &self.renders)
            .field("cache_entries", &self.cache.entry_count())
            .finish()
    }
}

impl AppState {
    /// State over `renderer` with an image cache of about `cache_bytes`.
    pub fn new(renderer: Arc<Renderer>, cache_bytes: u64) -> AppState {
        let workers = std::thread::available_parallelism().map_or(2, |n| n.get());
        AppState {
            renderer,
            cache: Cache::builder()
                .max_capacity(cache_bytes)
                .weigher(|key: &String, value: &Bytes| {
                    u32::try_from(key.len() + value.len()).unwrap_or(u32::MAX)
                })
                .build(),
            renders: AtomicU64::new(0),
            pool: Arc::new(Semaphore::new(workers)),
        }
    }

    /// How many images have been rendered (cache misses that ran the pipeline).
    pub fn renders(&self) -> u64 {
        self.renders.load(Ordering::Relaxed)
    }

    /// Bytes held by the image cache (after pending maintenance).
    pub async fn cache_weighted_size(&self) -> u64 {
        self.cache.run_pending_tasks().await;
        self.cache.weighted_size()
    }
}

/// Whether an answer came from the image cache; logged once per request.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum CacheStatus {
    Hit,
    Miss,
}

/// The router with every route, over `state`.
pub fn app(state: Arc<AppState>) -> Router {
    Router::new()
        .route("/diagram", get(|s, q, h| diagram(s, q, h, None)))
        .route(
            "/diagram.png",
            get(|s, q, h| diagram(s, q, h, Some(Format::Png))),
        )
        .route(
            "/diagram.svg",
            get(|s, q, h| diagram(s, q, h, Some(Format::Svg))),
        )
        .route(
            "/board.png",
            get(|s, q, h| diagram(s, q, h, Some(Format::Png))),
        )
        .route(
            "/board.svg",
            get(|s, q, h| diagram(s, q, h, Some(Format::Svg))),
        )
        .route("/health", get(health))
        .fallback(not_found)
        .layer(middleware::from_fn(log_request))
        .with_state(state)
}

async fn health() -> impl IntoResponse {
    (
        [(header::CONTENT_TYPE, "text/plain; charset=utf-8")],
        "ok\n",
    )
}

async fn not_found(uri: axum::http::Uri) -> AppError {
    AppError::new(
        StatusCode::NOT_FOUND,
        format!(
            "no route {}: try /diagram?fen=start, /diagram.svg, /board.png or /health",
            crate::request::Echo(uri.path())
        ),
    )
}

/// The strong ETag of a cache key: the bytes are a function of the key alone.
fn etag(key: &str) -> String {
    // FNV-1a, 64 bit: stable across runs and platforms.
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    for b in key.bytes() {
        hash ^= u64::from(b);
        hash = hash.wrapping_mul(0x0000_0100_0000_01b3);
    }
    format!("\"{hash:016x}\"")
}

/// True when `If-None-Match` lists `etag` (weak comparison, as RFC 9110 asks) or `*`.
fn not_modified(headers: &HeaderMap, etag: &str) -> bool {
    headers
        .get_all(header::IF_NONE_MATCH)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(','))
        .map(|t| t.trim())
        .any(|t| t == "*" || t.strip_prefix("W/").unwrap_or(t) == etag)
}

async fn diagram(
    State(state): State<Arc<AppState>>,
    RawQuery(query): RawQuery,
    headers: HeaderMap,
    path_format: Option<Format>,
) -> Result<Response, AppError> {
    let query = query.unwrap_or_default();
    if query.len() > MAX_QUERY_BYTES {
        return Err(AppError::new(
            StatusCode::URI_TOO_LONG,
            format!(
                "the query string is {} bytes long: at most {MAX_QUERY_BYTES} bytes are allowed",
                query.len()
            ),
        ));
    }
    let request = Request::from_query(&query, path_format).map_err(AppError::bad_request)?;
    if let Err(e) = state.renderer.set(&request.options) {
        return Err(AppError::new(StatusCode::BAD_REQUEST, e.to_string()));
    }
    let key = request.cache_key();
    let tag = etag(&key);
    let mut common = HeaderMap::new();
    common.insert(
        header::CACHE_CONTROL,
        HeaderValue::from_static("public, max-age=31536000, immutable"),
    );
    if let Ok(value) = HeaderValue::from_str(&tag) {
        common.insert(header::ETAG, value);
    }
    if not_modified(&headers, &tag) {
        return Ok((StatusCode::NOT_MODIFIED, common).into_response());
    }

    let format = request.format;
    let entry = state
        .cache
        .entry(key)
        .or_try_insert_with(render(state.clone(), request))
        .await
        .map_err(|e| (*e).clone())?;
    let status = if entry.is_fresh() {
        CacheStatus::Miss
    } else {
        CacheStatus::Hit
    };
    common.insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static(format.content_type()),
    );
    common.insert(
        header::X_CONTENT_TYPE_OPTIONS,
        HeaderValue::from_static("nosniff"),
    );
    if format == Format::Svg {
        common.insert(
            header::CONTENT_SECURITY_POLICY,
            HeaderValue::from_static("default-src 'none'; style-src 'unsafe-inline'"),
        );
    }
    let mut response = (StatusCode::OK, common, entry.into_value()).into_response();
    response.extensions_mut().insert(status);
    Ok(response)
}

/// Render off the async executor, at most one job per core at a time.
async fn render(state: Arc<AppState>, request: Request) -> Result<Bytes, AppError> {
    let permit = state
        .pool
        .clone()
        .acquire_owned()
        .await
        .map_err(|_| AppError::unavailable("the render pool is shutting down"))?;
    let worker = state.clone();
    let result = tokio::task::spawn_blocking(move || {
        let _permit = permit;
        worker.renders.fetch_add(1, Ordering::Relaxed);
        worker
            .renderer
            .render(&request.position, &request.options, request.format)
    })
    .await;
    match result {
        Ok(Ok(bytes)) => Ok(Bytes::from(bytes)),
        Ok(Err(e)) => Err(AppError::internal(e.to_string())),
        Err(join) => Err(AppError::internal(format!("render task failed: {join}"))),
    }
}

/// One log line per request: method, path, status, milliseconds, cache hit or miss.
async fn log_request(request: HttpRequest, next: Next) -> Response {
    let start = Instant::now();
    let method = request.method().clone();
    let path = request.uri().path().to_string();
    let response = next.run(request).await;
    let ms = start.elapsed().as_secs_f64() * 1000.0;
    let cache = match response.extensions().get::<CacheStatus>() {
        Some(CacheStatus::Hit) => "hit",
        Some(CacheStatus::Miss) => "miss",
        None => "-",
    };
    let status = response.status().as_u16();
    if status >= 500 {
        tracing::error!(%method, path, status, ms = format!("{ms:.2}"), cache, "request");
    } else {
        tracing::info!(%method, path, status, ms = format!("{ms:.2}"), cache, "request");
    }
    response
}

/// Serve `app(state)` on `listener` until `shutdown` resolves, then finish in-flight requests.
pub async fn serve(
    listener: tokio::net::TcpListener,
    state: Arc<AppState>,
    shutdown: impl std::future::Future<Output = ()> + Send + 'static,
) -> std::io::Result<()> {
    axum::serve(listener, app(state))
        .with_graceful_shutdown(shutdown)
        .await
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn etags_are_quoted_and_stable() {
        let t = etag("a");
        assert_eq!(t.len(), 18);
        assert!(t.starts_with('"') && t.ends_with('"'));
        assert_eq!(t, etag("a"));
        assert_ne!(t, etag("b"));
    }

    #[test]
    fn if_none_match_lists_and_weak_tags_match() {
        let mut h = HeaderMap::new();
        h.insert(
            header::IF_NONE_MATCH,
            HeaderValue::from_static("\"x\", W/\"abc\""),
        );
        assert!(not_modified(&h, "\"abc\""));
        assert!(!not_modified(&h, "\"abd\""));
        h.insert(header::IF_NONE_MATCH, HeaderValue::from_static("*"));
        assert!(not_modified(&h, "\"q\""));
        assert!(!not_modified(&HeaderMap::new(), "\"q\""));
    }
}
