//! The HTTP floor for the load test: axum answering fixed bytes (a rendered start position)
//! with the same headers as Staunton, on 127.0.0.1. `cargo run --release --example
//! bare_server -- 127.0.0.1:18081`; used by `scripts/bench/load.sh`.

use axum::Router;
use axum::http::header;
use axum::routing::get;
use bytes::Bytes;

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let addr = std::env::args()
        .nth(1)
        .unwrap_or_else(|| "127.0.0.1:18081".to_string());
    let png = Bytes::from(staunton::render_png(
        "start",
        &staunton::RenderOptions::default(),
    )?);
    let app = Router::new().route(
        "/diagram",
        get(move || {
            let png = png.clone();
            async move {
                (
                    [
                        (header::CONTENT_TYPE, "image/png"),
                        (header::CACHE_CONTROL, "public, max-age=31536000, immutable"),
                    ],
                    png,
                )
            }
        }),
    );
    let listener = tokio::net::TcpListener::bind(&addr).await?;
    axum::serve(listener, app).await?;
    Ok(())
}
