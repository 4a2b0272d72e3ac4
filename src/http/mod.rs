//! The HTTP service: routes, headers, the image cache, and the render pool.
//!
//! Owns everything axum knows. Requests are validated by `request/`, drawn by
//! `render/`; this module adds caching (moka, keyed by the normalised request, weighted
//! by bytes, single-flight), conditional requests (ETag / 304), and runs renders off the
//! async executor on a pool bounded to one job per core.
//!
//! By concern: `state` (the limits and what requests share), `routes` (the router and its
//! handlers), `extract` (the checked query, a POSTed PGN), `answer` (an image answer: ETag,
//! 304, cache, headers), `pool` (admission and where renders run), `serve` (the server
//! loop), `error`, `error_image` (a 4xx as an image a page shows), `metrics`, `api` (the
//! route table and `/openapi.json`), `composer_wasm` (with the `composer-wasm` feature: the
//! renderer as WebAssembly for the composer's in-page previews).

mod answer;
internal_mod!(api);
#[cfg(feature = "composer-wasm")]
mod composer_wasm;
mod error;
mod error_image;
mod extract;
mod metrics;
mod move_list;
internal_mod!(pool);
mod pace;
mod routes;
mod serve;
mod state;

pub use error::AppError;
pub use metrics::Metrics;
pub use pool::Deadline;
#[cfg_attr(not(feature = "cli"), allow(unused_imports))]
pub(crate) use routes::HEALTH_HEADER;
pub use routes::app;
pub use serve::serve;
pub use state::{
    AppState, Config, DEFAULT_CACHE_BYTES, FaultHook, MAX_BODY_BYTES, MAX_QUERY_BYTES, TextHook,
};
