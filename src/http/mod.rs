//! The HTTP service: routes, headers, the image cache, and the render pool.
//!
//! Owns everything axum knows. Requests are validated by `request/`, drawn by
//! `render/`; this module adds caching (moka, keyed by the normalised request, weighted
//! by bytes, single-flight), conditional requests (ETag / 304), and runs renders off the
//! async executor on a pool bounded to one job per core.
//!
//! By concern: `state` (the limits and what requests share), `app` (the router and the
//! layers every request passes), `routes` (one file a route, the route table, and
//! `/openapi.json` made from it), `extract` (the checked query, a POSTed PGN), `answer` (an
//! image answer: ETag, 304, cache, headers), `pool` (admission and where renders run),
//! `serve` (the server loop), `error`, `error_image` (a 4xx as an image a page shows),
//! `metrics`, `composer_wasm` (with the `composer-wasm` feature: the renderer as
//! WebAssembly for the composer's in-page previews).

mod answer;
mod app;
#[cfg(feature = "composer-wasm")]
mod composer_wasm;
mod error;
mod error_image;
mod extract;
mod metrics;
internal_mod!(pool);
mod pace;
internal_mod!(routes);
mod serve;
mod state;

pub use app::app;
pub use error::AppError;
pub use metrics::Metrics;
pub use pool::Deadline;
#[cfg_attr(not(feature = "cli"), allow(unused_imports))]
pub(crate) use routes::HEALTH_HEADER;
pub use serve::serve;
pub use state::{
    AppState, Config, DEFAULT_CACHE_BYTES, FaultHook, MAX_BODY_BYTES, MAX_QUERY_BYTES, TextHook,
};
