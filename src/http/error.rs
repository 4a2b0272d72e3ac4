//! The service's one error type: a status and one sentence for the client.
//!
//! The sentence is the body (plain text) and, for programs and for pages that show the
//! answer as an image (`error_image`), also the `Staunton-Error` header and the answer's
//! [`Sentence`] extension.

use crate::request::RequestError;
use axum::http::{HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};

/// Longest `Staunton-Error` header value, in bytes; a longer sentence is cut, ending `...`.
pub const MAX_ERROR_HEADER_BYTES: usize = 1024;

/// The sentence of an error answer, kept in the response's extensions for the layers
/// around the handlers (the body is already text by then).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Sentence(pub String);

/// An HTTP error answer: plain text, one sentence, never cached long.
#[derive(Debug, Clone)]
pub struct AppError {
    status: StatusCode,
    message: String,
    /// Seconds for `Retry-After` (a 503 says 1 when not set).
    retry_after: Option<u64>,
}

impl AppError {
    /// An answer with `status` and `message`; a control character or non-character in it
    /// (user text a sentence repeated untamed) is sent as `?`, in the body, the header and
    /// an error image alike.
    pub fn new(status: StatusCode, message: impl Into<String>) -> AppError {
        let message = message.into();
        let message = match crate::echo::tame(&message) {
            std::borrow::Cow::Borrowed(_) => message,
            std::borrow::Cow::Owned(tamed) => tamed,
        };
        AppError {
            status,
            message,
            retry_after: None,
        }
    }

    /// 400 for a bad parameter.
    pub fn bad_request(e: RequestError) -> AppError {
        AppError::new(StatusCode::BAD_REQUEST, e.to_string())
    }

    /// 500: a defect on our side; logged, and the client gets a generic sentence.
    pub fn internal(detail: String) -> AppError {
        tracing::error!(detail, "render failed");
        AppError::new(
            StatusCode::INTERNAL_SERVER_ERROR,
            "the diagram could not be rendered because of an internal error",
        )
    }

    /// 503: try again later.
    pub fn unavailable(message: impl Into<String>) -> AppError {
        AppError::new(StatusCode::SERVICE_UNAVAILABLE, message)
    }

    /// The same answer with `Retry-After: seconds`.
    pub fn retry_after(mut self, seconds: u64) -> AppError {
        self.retry_after = Some(seconds);
        self
    }

    /// The status code.
    pub fn status(&self) -> StatusCode {
        self.status
    }
}

impl IntoResponse for AppError {
    fn into_response(self) -> Response {
        let header_value = header_safe(&self.message);
        let sentence = Sentence(self.message.clone());
        let mut body = self.message;
        body.push('\n');
        let mut response = (self.status, body).into_response();
        response.extensions_mut().insert(sentence);
        let h = response.headers_mut();
        if let Ok(value) = HeaderValue::from_str(&header_value) {
            h.insert(STAUNTON_ERROR, value);
        }
        h.insert(
            header::CONTENT_TYPE,
            HeaderValue::from_static("text/plain; charset=utf-8"),
        );
        h.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
        h.insert(
            header::X_CONTENT_TYPE_OPTIONS,
            HeaderValue::from_static("nosniff"),
        );
        if self.status == StatusCode::SERVICE_UNAVAILABLE || self.retry_after.is_some() {
            h.insert(
                header::RETRY_AFTER,
                HeaderValue::from(self.retry_after.unwrap_or(1)),
            );
        }
        response
    }
}

/// The header that carries an error's sentence.
pub const STAUNTON_ERROR: header::HeaderName = header::HeaderName::from_static("staunton-error");

/// `sentence` as a header value: printable ASCII kept, every other character (and `%`)
/// written as its UTF-8 bytes `%XX` (so `decodeURIComponent` restores it), at most
/// [`MAX_ERROR_HEADER_BYTES`] long (cut between characters, ending `...`).
pub fn header_safe(sentence: &str) -> String {
    let mut out = String::with_capacity(sentence.len().min(MAX_ERROR_HEADER_BYTES));
    let mut utf8 = [0u8; 4];
    for c in sentence.chars() {
        let piece = match c {
            ' '..='~' if c != '%' => c.to_string(),
            _ => c
                .encode_utf8(&mut utf8)
                .bytes()
                .map(|b| format!("%{b:02X}"))
                .collect(),
        };
        if out.len() + piece.len() > MAX_ERROR_HEADER_BYTES - 3 {
            out.push_str("...");
            break;
        }
        out.push_str(&piece);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_header_keeps_ascii_and_escapes_the_rest() {
        assert_eq!(header_safe("size \"x\" is 5%"), "size \"x\" is 5%25");
        assert_eq!(header_safe("é\n"), "%C3%A9%0A");
        let long = header_safe(&"é".repeat(2000));
        assert!(
            long.len() <= MAX_ERROR_HEADER_BYTES && long.ends_with("%A9..."),
            "{long}"
        );
        assert!(HeaderValue::from_str(&long).is_ok());
    }
}
