//! The service's one error type: a status and one sentence for the client.

use crate::request::RequestError;
use axum::http::{HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};

/// An HTTP error answer: plain text, one sentence, never cached long.
#[derive(Debug, Clone)]
pub struct AppError {
    status: StatusCode,
    message: String,
    /// Seconds for `Retry-After` (a 503 says 1 when not set).
    retry_after: Option<u64>,
}

impl AppError {
    /// An answer with `status` and `message`.
    pub fn new(status: StatusCode, message: impl Into<String>) -> AppError {
        AppError {
            status,
            message: message.into(),
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
        let mut body = self.message;
        body.push('\n');
        let mut response = (self.status, body).into_response();
        let h = response.headers_mut();
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
