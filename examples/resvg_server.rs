//! The naive baseline for `scripts/bench/cold.sh`: "resvg rasterising the whole SVG per request".
//!
//! An axum server answering `GET /diagram?<query>` (the same query as Staunton's) by writing
//! Staunton's SVG of the diagram, then, per request and with no caching of any kind,
//! parsing that SVG with usvg, rendering it with resvg into a tiny-skia pixmap of the tree's
//! size and encoding it with tiny-skia's PNG encoder. The work runs in
//! `tokio::task::spawn_blocking`. A bad query is answered 400 with the error's text.
//!
//! `cargo run --release --example resvg_server -- 127.0.0.1:18082` (the default address).

use std::sync::Arc;

use axum::Router;
use axum::extract::{RawQuery, State};
use axum::http::{StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use resvg::tiny_skia;
use staunton::Renderer;
use staunton::render::options::Format;
use staunton::request::Request;

/// Why a request was not answered with a PNG.
enum Failure {
    /// The query (or the piece set it names) is not valid: 400.
    BadRequest(String),
    /// usvg, the pixmap or the encoder failed: 500.
    Internal(String),
}

/// Query → Staunton's SVG → usvg tree → resvg pixmap → PNG, all of it every time.
fn rasterise(renderer: &Renderer, query: &str) -> Result<Vec<u8>, Failure> {
    let request = Request::from_query(query, Some(Format::Png))
        .map_err(|e| Failure::BadRequest(e.to_string()))?;
    let svg = renderer
        .svg(&request.position, &request.options)
        .map_err(|e| Failure::BadRequest(e.to_string()))?;
    let tree = usvg::Tree::from_str(&svg, &usvg::Options::default())
        .map_err(|e| Failure::Internal(format!("usvg: {e}")))?;
    let size = tree.size().to_int_size();
    let mut pixmap = tiny_skia::Pixmap::new(size.width(), size.height()).ok_or_else(|| {
        Failure::Internal(format!(
            "cannot allocate a {}×{} pixmap",
            size.width(),
            size.height()
        ))
    })?;
    resvg::render(&tree, tiny_skia::Transform::default(), &mut pixmap.as_mut());
    pixmap
        .encode_png()
        .map_err(|e| Failure::Internal(format!("encode: {e}")))
}

async fn diagram(State(renderer): State<Arc<Renderer>>, RawQuery(query): RawQuery) -> Response {
    let query = query.unwrap_or_default();
    match tokio::task::spawn_blocking(move || rasterise(&renderer, &query)).await {
        Ok(Ok(png)) => ([(header::CONTENT_TYPE, "image/png")], png).into_response(),
        Ok(Err(Failure::BadRequest(message))) => (StatusCode::BAD_REQUEST, message).into_response(),
        Ok(Err(Failure::Internal(message))) => {
            (StatusCode::INTERNAL_SERVER_ERROR, message).into_response()
        }
        Err(join) => (
            StatusCode::INTERNAL_SERVER_ERROR,
            format!("render task failed: {join}"),
        )
            .into_response(),
    }
}

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let addr = std::env::args()
        .nth(1)
        .unwrap_or_else(|| "127.0.0.1:18082".to_string());
    let renderer = Arc::new(Renderer::default());
    let app = Router::new()
        .route("/diagram", get(diagram))
        .with_state(renderer);
    let listener = tokio::net::TcpListener::bind(&addr).await?;
    axum::serve(listener, app).await?;
    Ok(())
}
