//! What handlers take from a request beyond axum's own extractors: the query within the
//! service's length limit, and a POSTed PGN within its body limit.

use super::{AppError, AppState};
use crate::request::Query;
use axum::body::Body;
use axum::extract::FromRequestParts;
use axum::http::request::Parts;
use axum::http::{HeaderMap, StatusCode, header};
use std::sync::Arc;

/// The query string (empty when there is none), read once, at most
/// `Config::max_query_bytes` long: a longer one is answered 414 before the handler runs.
#[derive(Debug, Clone)]
pub(super) struct Checked(pub Query);

impl FromRequestParts<Arc<AppState>> for Checked {
    type Rejection = AppError;

    async fn from_request_parts(
        parts: &mut Parts,
        state: &Arc<AppState>,
    ) -> Result<Checked, AppError> {
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
        Ok(Checked(Query::parse(query)))
    }
}

/// The PGN of a POST: at most `max` bytes (else 413, at once, before `100 Continue`
/// when the declared `Content-Length` is over), UTF-8 text, not blank, and whole (a body
/// cut short or malformed is 400). `None` for a GET.
pub(super) async fn pgn_body(
    body: Option<Body>,
    headers: &HeaderMap,
    max: usize,
) -> Result<Option<String>, AppError> {
    use http_body_util::BodyExt as _;
    let Some(mut body) = body else {
        return Ok(None);
    };
    let too_long = || {
        AppError::new(
            StatusCode::PAYLOAD_TOO_LARGE,
            format!("the request body is too long: a PGN of at most {max} bytes is allowed"),
        )
    };
    let declared = headers
        .get(header::CONTENT_LENGTH)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.trim().parse::<u64>().ok());
    if declared.is_some_and(|n| n > max as u64) {
        // Answered before the body is read, so hyper never sends `100 Continue`.
        return Err(too_long());
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
                return Err(too_long());
            }
            bytes.extend_from_slice(&data);
        }
    }
    let text = String::from_utf8(bytes).map_err(|_| {
        AppError::new(
            StatusCode::BAD_REQUEST,
            "the request body is not UTF-8 text: POST the game's PGN as text",
        )
    })?;
    if text.trim().is_empty() {
        return Err(AppError::new(
            StatusCode::BAD_REQUEST,
            "the request body is empty: POST the game's PGN",
        ));
    }
    Ok(Some(text))
}
