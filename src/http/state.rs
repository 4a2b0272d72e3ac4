//! What the service shares between requests: its limits ([`Config`]) and its state
//! ([`AppState`]: the renderer, the image cache, the render pool's counters, the metrics).

use super::metrics::Metrics;
use super::pace::Pace;
use crate::render::Renderer;
use crate::request::{Known, Request};
use bytes::Bytes;
use moka::future::Cache;
use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, OnceLock};
use std::time::Duration;
use tokio::sync::Semaphore;

/// Default byte budget of the image cache: 128 MiB.
pub const DEFAULT_CACHE_BYTES: u64 = 128 * 1024 * 1024;
/// Longest accepted query string, in bytes: room for a `pgn` of 16 KB, percent-encoded.
pub const MAX_QUERY_BYTES: usize = 48 * 1024;
pub use crate::request::MAX_BODY_BYTES;

/// The service's limits; each is a flag of `staunton serve` (see the README).
#[derive(Debug, Clone)]
pub struct Config {
    /// Byte budget of the image cache.
    pub cache_bytes: u64,
    /// Renders running at once (default: one per core).
    pub workers: usize,
    /// Renders waiting for a worker before new misses get 503.
    pub queue: usize,
    /// Longest accepted query string, in bytes.
    pub max_query_bytes: usize,
    /// Longest accepted request body (a POSTed PGN), in bytes.
    pub max_body_bytes: usize,
    /// Time allowed for a whole request.
    pub request_timeout: Duration,
    /// Time allowed for a client to send its request headers.
    pub header_timeout: Duration,
    /// Per-parameter limits (fen bytes, arrows, squares, size).
    pub limits: crate::request::Limits,
    /// After the shutdown signal, how long to keep serving with `/ready` answering 503, so
    /// a balancer stops sending new requests before the listener closes.
    pub drain: Duration,
}

impl Default for Config {
    fn default() -> Self {
        let workers = std::thread::available_parallelism().map_or(2, |n| n.get());
        Config {
            cache_bytes: DEFAULT_CACHE_BYTES,
            workers,
            queue: 64,
            max_query_bytes: MAX_QUERY_BYTES,
            max_body_bytes: MAX_BODY_BYTES,
            request_timeout: Duration::from_secs(10),
            header_timeout: Duration::from_secs(5),
            limits: crate::request::Limits::default(),
            drain: Duration::ZERO,
        }
    }
}

/// A function run inside each render before drawing: a hook for tests to inject faults
/// (a panic, a slow render) without touching real code. Unset in the service.
pub type FaultHook = Arc<dyn Fn(&Request) + Send + Sync>;

/// A function run on the render pool before each reading of a long request text (tests
/// only: one that waits shows that the async workers stay free meanwhile). Unset in the
/// service.
pub type TextHook = Arc<dyn Fn() + Send + Sync>;

/// What the service shares between requests.
pub struct AppState {
    pub(super) renderer: Arc<Renderer>,
    pub(super) cache: Cache<String, Bytes>,
    pub(super) renders: AtomicU64,
    /// Renders run on the async worker (quick ones), a part of `renders`.
    pub(super) inline_renders: AtomicU64,
    pub(super) pool: Arc<Semaphore>,
    /// Renders admitted and not yet ended (running or waiting for a worker).
    pub(super) queued: AtomicUsize,
    /// The estimated cost (`render::spec::cost` units) of those renders.
    pub(super) backlog: AtomicU64,
    /// Measured seconds per cost unit.
    pub(super) pace: Pace,
    pub(super) config: Config,
    pub(super) metrics: Metrics,
    pub(super) fault: Option<FaultHook>,
    pub(super) text_hook: Option<TextHook>,
    /// Set once the shutdown signal arrived: `/ready` answers 503.
    pub(super) draining: AtomicBool,
    /// What the route table tells the requests: set by `app` when it first builds a router
    /// over this state (the table stands above the state, whose routes use it).
    pub(super) described: OnceLock<Described>,
}

/// What the route table tells the requests (see [`AppState::openapi`] and
/// [`AppState::known`]), made from it once.
#[derive(Debug)]
pub(super) struct Described {
    /// `/openapi.json`: the routes, parameters, limits and piece sets.
    pub openapi: Bytes,
    /// The parameter names each route reads, by path (routes that read a query only).
    pub known: HashMap<&'static str, Known>,
}

impl std::fmt::Debug for AppState {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("AppState")
            .field("renders", &self.renders)
            .field("cache_entries", &self.cache.entry_count())
            .finish()
    }
}

impl AppState {
    /// State over `renderer` with an image cache of about `cache_bytes`, other limits default.
    pub fn new(renderer: Arc<Renderer>, cache_bytes: u64) -> AppState {
        AppState::with_config(
            renderer,
            Config {
                cache_bytes,
                ..Config::default()
            },
        )
    }

    /// State over `renderer` with `config`'s limits.
    pub fn with_config(renderer: Arc<Renderer>, config: Config) -> AppState {
        AppState {
            renderer,
            cache: Cache::builder()
                .max_capacity(config.cache_bytes)
                .weigher(|key: &String, value: &Bytes| {
                    crate::cache::entry_weight(key.capacity(), value.len())
                })
                .build(),
            renders: AtomicU64::new(0),
            inline_renders: AtomicU64::new(0),
            pool: Arc::new(Semaphore::new(config.workers.max(1))),
            queued: AtomicUsize::new(0),
            backlog: AtomicU64::new(0),
            pace: Pace::default(),
            config,
            metrics: Metrics::default(),
            fault: None,
            text_hook: None,
            draining: AtomicBool::new(false),
            described: OnceLock::new(),
        }
    }

    /// The same state with a fault hook (tests only; see [`FaultHook`]).
    pub fn with_fault_hook(mut self, hook: FaultHook) -> AppState {
        self.fault = Some(hook);
        self
    }

    /// The same state with a hook run before each long text is read (tests only; see
    /// [`TextHook`]).
    pub fn with_text_hook(mut self, hook: TextHook) -> AppState {
        self.text_hook = Some(hook);
        self
    }

    /// Mark the service as shutting down: `/ready` answers 503 from now on.
    pub fn start_draining(&self) {
        self.draining.store(true, Ordering::Relaxed);
    }

    /// Whether the service is shutting down.
    pub fn is_draining(&self) -> bool {
        self.draining.load(Ordering::Relaxed)
    }

    /// The counters.
    pub fn metrics(&self) -> &Metrics {
        &self.metrics
    }

    /// The renderer.
    pub fn renderer(&self) -> &Renderer {
        &self.renderer
    }

    /// How many images have been rendered (cache misses that ran the pipeline).
    pub fn renders(&self) -> u64 {
        self.renders.load(Ordering::Relaxed)
    }

    /// How many of [`AppState::renders`] ran on the async worker because they were quick.
    pub fn inline_renders(&self) -> u64 {
        self.inline_renders.load(Ordering::Relaxed)
    }

    /// `/openapi.json` (empty before `app` built a router over this state).
    pub(super) fn openapi(&self) -> Bytes {
        self.described
            .get()
            .map(|d| d.openapi.clone())
            .unwrap_or_default()
    }

    /// The parameter names `route` (a path of the route table) reads; `None` for a route
    /// that reads no query (or before `app` built a router over this state).
    pub(super) fn known(&self, route: &str) -> Option<&Known> {
        self.described.get()?.known.get(route)
    }

    /// Bytes held by the image cache (after pending maintenance).
    pub async fn cache_weighted_size(&self) -> u64 {
        self.cache.run_pending_tasks().await;
        self.cache.weighted_size()
    }
}
