//! What the router tests share: a service with the defaults, and one request through the
//! router (`oneshot`) with its answer read whole.

use axum::body::Body;
use axum::http::{HeaderMap, HeaderName, Request, StatusCode};
use http_body_util::BodyExt;
use staunton::Renderer;
use staunton::http::{AppState, DEFAULT_CACHE_BYTES, app};
use std::sync::Arc;
use tower::ServiceExt;

/// The service's state with the built-in pieces and the default cache.
pub fn state() -> Arc<AppState> {
    Arc::new(AppState::new(
        Arc::new(Renderer::default()),
        DEFAULT_CACHE_BYTES,
    ))
}

/// An answer, read whole.
pub struct Answer {
    pub status: StatusCode,
    pub headers: HeaderMap,
    pub body: Vec<u8>,
}

impl Answer {
    /// The header `name`, which must be there.
    pub fn header(&self, name: impl AsRef<str>) -> &str {
        let name = name.as_ref();
        self.optional(name)
            .unwrap_or_else(|| panic!("no {name} header"))
    }

    /// The header `name`, if there.
    pub fn optional(&self, name: &str) -> Option<&str> {
        self.headers.get(name).map(|v| v.to_str().expect("ASCII"))
    }

    /// The body as text.
    pub fn text(&self) -> String {
        String::from_utf8(self.body.clone()).expect("utf-8 body")
    }
}

/// `request` through the router over `state`.
pub async fn send(state: &Arc<AppState>, request: Request<Body>) -> Answer {
    let response = app(state.clone())
        .oneshot(request)
        .await
        .expect("infallible");
    let (status, headers) = (response.status(), response.headers().clone());
    let body = response.into_body().collect().await.expect("body");
    Answer {
        status,
        headers,
        body: body.to_bytes().to_vec(),
    }
}

/// `GET uri`, with the header `name: value` when there is a value.
pub async fn get_with(
    state: &Arc<AppState>,
    uri: &str,
    name: HeaderName,
    value: Option<&str>,
) -> Answer {
    let mut request = Request::get(uri);
    if let Some(value) = value {
        request = request.header(name, value);
    }
    send(state, request.body(Body::empty()).expect("request")).await
}

/// A route as the tests over every route tell them apart (what base query it needs, which
/// parameters change nothing on it), read from its path; the route table itself names no
/// kinds: each route is a type of its own behind one trait.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// `/diagram`, or a path that fixes its format (`/diagram.svg`, `/board.png`, …).
    Diagram(Option<staunton::Format>),
    /// `/image.gif`, lila-gif's still GIF.
    StillGif,
    /// `/game.gif`, `/game.png`.
    Game,
    /// `/game.json`.
    MoveList,
    /// `/piece.svg`.
    Piece,
    /// `/sheet`, or a path that fixes its format.
    Sheet(Option<staunton::Format>),
    /// `/article.pdf`, `.html`, `.svg`.
    Article,
    /// `/card.png`.
    Card,
    /// `/describe`.
    Describe,
    /// A route that reads no query (a page, `/health`, …).
    Other,
}

/// The kind of the route at `path`.
pub fn kind(path: &str) -> Kind {
    let (stem, extension) = match path.split_once('.') {
        Some((stem, extension)) => (stem, Some(extension)),
        None => (path, None),
    };
    let format = extension.and_then(staunton::Format::from_extension);
    match stem {
        "/diagram" | "/board" => Kind::Diagram(format),
        "/sheet" => Kind::Sheet(format),
        "/image" => Kind::StillGif,
        "/game" if extension == Some("json") => Kind::MoveList,
        "/game" => Kind::Game,
        "/piece" => Kind::Piece,
        "/article" => Kind::Article,
        "/card" => Kind::Card,
        "/describe" => Kind::Describe,
        _ => Kind::Other,
    }
}
