//! An image answer: the ETag of its cache key, `304 Not Modified` when the client holds it,
//! else the bytes (from the image cache, made on a miss) with the headers every image has.

use super::error::AppError;
use super::state::AppState;
use axum::http::{HeaderMap, HeaderName, HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use bytes::Bytes;
use std::future::Future;
use std::sync::Arc;

/// Whether an answer came from the image cache; logged once per request.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum CacheStatus {
    Hit,
    Miss,
}

/// What an image answer is: its cache key (which decides its bytes, so its ETag), its
/// content type, and headers of its own, if any.
pub(super) struct Image {
    pub key: String,
    pub content_type: &'static str,
    pub extra: Vec<(HeaderName, HeaderValue)>,
}

impl Image {
    /// An image of `key` and `content_type`, with no headers of its own.
    pub fn new(key: impl Into<String>, content_type: &'static str) -> Image {
        Image {
            key: key.into(),
            content_type,
            extra: Vec::new(),
        }
    }

    /// The same image with the header `name: value` too.
    pub fn with_header(mut self, name: &'static str, value: HeaderValue) -> Image {
        self.extra.push((HeaderName::from_static(name), value));
        self
    }
}

/// The answer of `image` through the image cache: 304 when `request` (its headers) already
/// holds it; else the cached bytes, made by `make` on a miss (identical concurrent misses
/// make it once; `make` admits its render to the pool, so a hit or a 304 never waits for
/// one). Hits and misses are counted and logged.
pub(super) async fn cached(
    state: &Arc<AppState>,
    request: &HeaderMap,
    image: Image,
    make: impl Future<Output = Result<Bytes, AppError>>,
) -> Result<Response, AppError> {
    let (common, unchanged) = revalidate(&image, request);
    if unchanged {
        return Ok((StatusCode::NOT_MODIFIED, common).into_response());
    }
    let entry = state
        .cache
        .entry(image.key)
        .or_try_insert_with(make)
        .await
        .map_err(|e| (*e).clone())?;
    let status = if entry.is_fresh() {
        state.metrics.misses.inc();
        CacheStatus::Miss
    } else {
        state.metrics.hits.inc();
        CacheStatus::Hit
    };
    let mut response = finish(common, image.content_type, entry.into_value());
    response.extensions_mut().insert(status);
    Ok(response)
}

/// The answer of `image` whose bytes are at hand (no cache): 304 when `request` already
/// holds it, else `body`, made only then.
pub(super) fn held(request: &HeaderMap, image: Image, body: impl FnOnce() -> Bytes) -> Response {
    match revalidate(&image, request) {
        (common, false) => finish(common, image.content_type, body()),
        (common, true) => (StatusCode::NOT_MODIFIED, common).into_response(),
    }
}

/// The headers of every answer of `image` (cacheable for a year, the ETag of its key, its
/// own header), and whether `request`'s `If-None-Match` names that ETag (then the answer
/// is a 304 with these headers).
fn revalidate(image: &Image, request: &HeaderMap) -> (HeaderMap, bool) {
    let tag = etag(&image.key);
    let mut common = HeaderMap::new();
    common.insert(
        header::CACHE_CONTROL,
        HeaderValue::from_static("public, max-age=31536000, immutable"),
    );
    if let Ok(value) = HeaderValue::from_str(&tag) {
        common.insert(header::ETAG, value);
    }
    for (name, value) in &image.extra {
        common.insert(name.clone(), value.clone());
    }
    let unchanged = not_modified(request, &tag);
    (common, unchanged)
}

/// The policy of an HTML page the service writes (an article): it runs no script, loads
/// nothing from anywhere (its diagrams are inline SVG, its style inline), sends no form
/// and changes no base URL. The escaping of every game text is the first wall; this is
/// the second.
const HTML_POLICY: &str = "default-src 'none'; style-src 'unsafe-inline'; img-src data:; base-uri 'none'; form-action 'none'";

/// The 200 answer: `common`, then `Content-Type` and `nosniff`; an SVG also gets a policy
/// that runs nothing and loads nothing (only its own inline styles), an HTML page
/// [`HTML_POLICY`].
fn finish(mut common: HeaderMap, content_type: &'static str, body: Bytes) -> Response {
    common.insert(header::CONTENT_TYPE, HeaderValue::from_static(content_type));
    common.insert(
        header::X_CONTENT_TYPE_OPTIONS,
        HeaderValue::from_static("nosniff"),
    );
    let policy = match content_type {
        t if t.starts_with("image/svg+xml") => {
            Some("default-src 'none'; style-src 'unsafe-inline'")
        }
        t if t.starts_with("text/html") => Some(HTML_POLICY),
        _ => None,
    };
    if let Some(policy) = policy {
        common.insert(
            header::CONTENT_SECURITY_POLICY,
            HeaderValue::from_static(policy),
        );
    }
    (StatusCode::OK, common, body).into_response()
}

/// The strong ETag of a cache key: the bytes are a function of the key alone, and of
/// the fonts added at start-up (`--fonts`), when there are any.
fn etag(key: &str) -> String {
    let hash = match crate::render::art::font::fallback_id() {
        0 => crate::hash::fnv1a(key.bytes()),
        fonts => crate::hash::fnv1a(key.bytes().chain(fonts.to_le_bytes())),
    };
    format!("\"{hash:016x}\"")
}

/// True when `If-None-Match` lists `etag` (weak comparison, as RFC 9110 asks) or `*`.
pub(super) fn not_modified(headers: &HeaderMap, etag: &str) -> bool {
    headers
        .get_all(header::IF_NONE_MATCH)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(','))
        .map(|t| t.trim())
        .any(|t| t == "*" || t.strip_prefix("W/").unwrap_or(t) == etag)
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
