//! What handlers take from a request ([`Asked`]): the query within the service's length
//! limit (and, with `strict=1`, only names its route reads), the headers, the deadline, a
//! POSTed PGN within its body limit; and the `Staunton-Warning` naming the names a route
//! ignores.

use super::error::AppError;
use super::pool::Deadline;
use super::state::AppState;
use crate::request::{Query, query_names};
use axum::body::Body;
use axum::extract::{FromRequestParts, MatchedPath};
use axum::http::request::Parts;
use axum::http::{HeaderMap, HeaderValue, StatusCode, header};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

/// What a route's handler takes: the service; the query string (empty when there is none),
/// read once, at most `Config::max_query_bytes` long (a longer one is answered 414 before
/// the handler runs; one whose escapes decode to bytes that are not UTF-8, 400; with
/// `strict=1`, a name the route does not read is answered 400: see [`warning`]); the
/// request's headers, its deadline and its [`Upload`].
#[derive(Debug, Clone)]
pub(super) struct Asked {
    pub state: Arc<AppState>,
    pub query: Query,
    pub headers: HeaderMap,
    pub deadline: Deadline,
    pub upload: Upload,
}

impl FromRequestParts<Arc<AppState>> for Asked {
    type Rejection = AppError;

    async fn from_request_parts(
        parts: &mut Parts,
        state: &Arc<AppState>,
    ) -> Result<Asked, AppError> {
        let query = parts.uri.query().unwrap_or_default();
        let max = state.config.max_query_bytes;
        if query.len() > max {
            return Err(AppError::new(
                StatusCode::URI_TOO_LONG,
                format!(
                    "the query string is {} bytes long: at most {max} bytes are allowed",
                    query.len()
                ),
            ));
        }
        // Strictly: a name or value that is not UTF-8 is answered 400, never read as U+FFFD.
        let query = Query::decode(query).map_err(AppError::bad_request)?;
        let route = parts
            .extensions
            .get::<MatchedPath>()
            .map(MatchedPath::as_str);
        if let Some((route, known)) = route.and_then(|r| Some((r, state.known(r)?))) {
            known
                .check_strict(&query, route)
                .map_err(AppError::bad_request)?;
        }
        // The deadline layer puts both in every request's extensions.
        let missing = || AppError::internal("the request has no deadline".to_string());
        let deadline = parts
            .extensions
            .get::<Deadline>()
            .copied()
            .ok_or_else(missing)?;
        let upload = parts
            .extensions
            .get::<Upload>()
            .cloned()
            .ok_or_else(missing)?;
        Ok(Asked {
            state: state.clone(),
            query,
            headers: parts.headers.clone(),
            deadline,
            upload,
        })
    }
}

impl Asked {
    /// The PGN this request POSTs (see [`pgn_body`]); `None` for a GET (no `body`).
    pub async fn posted(&self, body: Option<Body>) -> Result<Option<String>, AppError> {
        let max = self.state.config.max_body_bytes;
        pgn_body(body, &self.headers, max, &self.upload).await
    }
}

/// The header every answer of a route that reads a query may carry: see [`warning`].
pub(super) const WARNING_HEADER: &str = "staunton-warning";

/// The `Staunton-Warning` of a request to `route` (as the router matched it) with `query`:
/// the names it gives that the route does not read, which it ignores, each with the
/// nearest parameter name. `None` when every name is known, or the route reads no query;
/// then nothing is allocated.
pub(super) fn warning(state: &AppState, route: &str, query: Option<&str>) -> Option<HeaderValue> {
    let (known, query) = (state.known(route)?, query?);
    if query.len() > state.config.max_query_bytes {
        return None; // answered 414, and not worth reading
    }
    let mut unknown = Vec::new();
    for name in query_names(query) {
        if !known.knows(&name) {
            unknown.push(name);
        }
    }
    if unknown.is_empty() {
        return None;
    }
    let text = crate::request::warning(&known.unknown(unknown.iter().map(|n| &**n)))?;
    HeaderValue::from_str(&text).ok()
}

/// Whether a request's body is still arriving: set while [`pgn_body`] reads it, so that a
/// request that runs out of time then is told that its upload was too slow, not that its
/// picture was too large. The deadline layer puts one in every request's extensions.
#[derive(Debug, Clone, Default)]
pub struct Upload(Arc<AtomicBool>);

impl Upload {
    /// Whether the body was still being read (a read that ended, in error or not, clears it).
    pub fn arriving(&self) -> bool {
        self.0.load(Ordering::Relaxed)
    }
}

/// Clears an [`Upload`] when the read ends, not when it is abandoned halfway.
struct Reading<'a>(&'a Upload);

impl Reading<'_> {
    fn start(upload: &Upload) -> Reading<'_> {
        upload.0.store(true, Ordering::Relaxed);
        Reading(upload)
    }

    fn done<T>(self, out: T) -> T {
        self.0.0.store(false, Ordering::Relaxed);
        out
    }
}

/// The PGN of a POST: at most `max` bytes (else 413, at once, before `100 Continue`
/// when the declared `Content-Length` is over), UTF-8 text, not blank, and whole (a body
/// cut short or malformed is 400). `None` for a GET.
async fn pgn_body(
    body: Option<Body>,
    headers: &HeaderMap,
    max: usize,
    upload: &Upload,
) -> Result<Option<String>, AppError> {
    let Some(body) = body else {
        return Ok(None);
    };
    let reading = Reading::start(upload);
    let bytes = read_body(body, headers, max).await;
    reading.done(bytes).and_then(pgn_text).map(Some)
}

/// The body's bytes, at most `max` (see [`pgn_body`]).
async fn read_body(mut body: Body, headers: &HeaderMap, max: usize) -> Result<Vec<u8>, AppError> {
    use http_body_util::BodyExt as _;
    // The sentence of every door (`embed`), the body's length as declared when it is.
    let too_long = |declared: Option<u64>| {
        let long = declared.map_or(format!("more than {max}"), |n| n.to_string());
        AppError::new(
            StatusCode::PAYLOAD_TOO_LARGE,
            format!("pgn (the request body) is {long} bytes long: at most {max} bytes are read"),
        )
    };
    let declared = headers
        .get(header::CONTENT_LENGTH)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.trim().parse::<u64>().ok());
    if declared.is_some_and(|n| n > max as u64) {
        // Answered before the body is read, so hyper never sends `100 Continue`.
        return Err(too_long(declared));
    }
    let mut bytes = Vec::new();
    while let Some(frame) = body.frame().await {
        let frame = frame.map_err(|e| {
            AppError::new(
                StatusCode::BAD_REQUEST,
                format!(
                    "the request body could not be read ({}): POST the whole PGN, with a correct Content-Length or chunked encoding",
                    crate::echo::Echo(&e.to_string())
                ),
            )
        })?;
        if let Ok(data) = frame.into_data() {
            if bytes.len() + data.len() > max {
                return Err(too_long(None));
            }
            bytes.extend_from_slice(&data);
        }
    }
    Ok(bytes)
}

/// The body as a PGN: UTF-8 text (else 400 showing the first bytes that are not, as
/// `%XX`, and where they stand), not blank.
fn pgn_text(bytes: Vec<u8>) -> Result<String, AppError> {
    let text = String::from_utf8(bytes).map_err(|e| {
        let bytes = e.as_bytes();
        let (at, bad) = crate::echo::not_utf8(bytes).unwrap_or((0, bytes));
        let line = 1 + bytes[..at].iter().filter(|&&b| b == b'\n').count();
        AppError::new(
            StatusCode::BAD_REQUEST,
            format!(
                "the request body is not UTF-8 text: the bytes {} at byte {} (line {line}) are not UTF-8; POST the game's PGN as UTF-8 text",
                crate::echo::Escaped(bad),
                at + 1
            ),
        )
    })?;
    if text.trim().is_empty() {
        return Err(AppError::new(
            StatusCode::BAD_REQUEST,
            "the request body is empty: POST the game's PGN",
        ));
    }
    Ok(text)
}
