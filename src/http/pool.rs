//! The render pool: admission, where a render runs, and stopping the abandoned ones.
//!
//! Every render is admitted with its estimated cost (`render::spec::cost` units) and the deadline
//! of its request. Admission answers 503 at once, with `Retry-After`, when `workers +
//! queue` renders are already admitted, or when the work already admitted would keep this
//! one from finishing within three quarters of the time to its deadline (the backlog's
//! units × the measured seconds per unit, shared among the workers). An admitted render is counted (queue gauge, backlog)
//! until it really ends, not until its request goes away.
//!
//! A render runs on tokio's blocking pool with one of `workers` permits, under a
//! [`Cancel`] token that the waiting future cancels when it is dropped (a timeout, a
//! client gone): the render stops at its next checkpoint and frees its permit.

use super::error::AppError;
use super::state::AppState;
use crate::render::cancel::Cancel;
use crate::render::pieces::PieceSet;
use crate::render::spec::cost;
use crate::render::{RenderError, Renderer};
use crate::request::Request;
use bytes::Bytes;
use std::sync::Arc;
use std::sync::atomic::Ordering;
use std::time::{Duration, Instant};

/// An admitted render: counted in the queue and its units in the backlog until dropped,
/// which is when the render ends (or its request goes away before it started).
pub(super) struct Admitted {
    state: Arc<AppState>,
    units: u64,
}

impl Drop for Admitted {
    fn drop(&mut self) {
        self.state.queued.fetch_sub(1, Ordering::Relaxed);
        self.state.backlog.fetch_sub(self.units, Ordering::Relaxed);
    }
}

/// When the request being served must be answered by: the service's deadline layer puts
/// one in every request's extensions.
#[derive(Debug, Clone, Copy)]
pub struct Deadline(pub tokio::time::Instant);

/// 503 with a `Retry-After` of `wait` (whole seconds, at least one).
fn busy(state: &AppState, wait: Duration) -> AppError {
    state.metrics.rejected.inc();
    let seconds = wait.as_secs_f64().ceil().max(1.0) as u64;
    AppError::unavailable(
        "the service is busy rendering other diagrams: retry in a moment".to_string(),
    )
    .retry_after(seconds)
}

/// Admit a render of `units` that must end by `deadline`, or answer 503 at once (see the
/// module's documentation); then wait for one of the `workers` permits.
pub(super) async fn admit(
    state: &Arc<AppState>,
    units: u64,
    deadline: Deadline,
) -> Result<(Admitted, tokio::sync::OwnedSemaphorePermit), AppError> {
    crate::render::spec::cost::within_bound(units, "this image", "choose a smaller size or fewer marks")
        .map_err(|why| AppError::new(axum::http::StatusCode::BAD_REQUEST, why.to_string()))?;
    let workers = state.config.workers.max(1);
    let limit = workers + state.config.queue;
    let pace = state.pace.seconds_per_unit();
    // Reserve first, then decide on what was there before: concurrent requests each see
    // the others' reservations (a check, then an add, would let a burst all through).
    let queued = state.queued.fetch_add(1, Ordering::Relaxed);
    let backlog = state.backlog.fetch_add(units, Ordering::Relaxed);
    let admitted = Admitted {
        state: state.clone(),
        units,
    };
    let wait = Duration::from_secs_f64(backlog as f64 * pace / workers as f64);
    if queued >= limit {
        return Err(busy(state, wait));
    }
    let own = Duration::from_secs_f64(units as f64 * pace);
    let left = deadline
        .0
        .saturating_duration_since(tokio::time::Instant::now());
    // With nothing admitted, waiting cannot make it sooner: a render alone always runs.
    // Else it must be expected to end within three quarters of its time: estimates of
    // single renders miss by a third either way (the marks' shapes, other work on the
    // machine).
    if backlog > 0 && wait + own > left.mul_f64(0.75) {
        return Err(busy(state, wait));
    }
    let permit = state
        .pool
        .clone()
        .acquire_owned()
        .await
        .map_err(|_| AppError::unavailable("the render pool is shutting down".to_string()))?;
    Ok((admitted, permit))
}

/// Run `job` on the blocking pool, holding `permit` and `admitted` until it ends; `what`
/// (kind of route, format) labels its render in the metrics. Dropping the returned future
/// cancels the job at its next checkpoint.
pub(super) async fn blocking(
    state: &Arc<AppState>,
    (admitted, permit): (Admitted, tokio::sync::OwnedSemaphorePermit),
    (route, format): (&'static str, &'static str),
    job: impl FnOnce(&Renderer) -> Result<Vec<u8>, RenderError> + Send + 'static,
) -> Result<Bytes, AppError> {
    let token = Cancel::new();
    let guard = token.on_drop();
    let worker = state.clone();
    let result = tokio::task::spawn_blocking(move || {
        let (_permit, units) = (permit, admitted.units);
        let _admitted = admitted;
        if token.is_cancelled() {
            // Its request went away while it waited for a thread.
            worker.metrics.cancelled.inc();
            return Err(RenderError::Cancelled);
        }
        let start = Instant::now();
        worker.renders.fetch_add(1, Ordering::Relaxed);
        let out = token.run(|| job(&worker.renderer));
        let seconds = start.elapsed().as_secs_f64();
        match &out {
            // Counted only when a checkpoint stopped it (a render that finished anyway is
            // thrown away, but it was not stopped); its time is no render's time.
            Err(RenderError::Cancelled) => {
                if token.stopped() {
                    worker.metrics.cancelled.inc();
                }
            }
            Ok(_) => {
                worker.metrics.render(route, format, seconds);
                worker.pace.observe(units, seconds);
            }
            Err(_) => worker.metrics.render(route, format, seconds),
        }
        out
    })
    .await;
    guard.disarm();
    match result {
        Ok(out) => rendered(out),
        Err(join) => Err(AppError::internal(format!("render task failed: {join}"))),
    }
}

/// Admit `job` (of `units`, by `deadline`) and run it on the blocking pool.
pub(super) async fn run_job(
    state: Arc<AppState>,
    (units, deadline): (u64, Deadline),
    what: (&'static str, &'static str),
    job: impl FnOnce(&Renderer) -> Result<Vec<u8>, RenderError> + Send + 'static,
) -> Result<Bytes, AppError> {
    let admitted = admit(&state, units, deadline).await?;
    blocking(&state, admitted, what, job).await
}

/// Requests whose text (query and body) is at most this many bytes are read, and their
/// text laid out, right on the async worker: a FEN, its marks and a caption read in a few
/// microseconds, less than two thread wake-ups cost.
pub const QUICK_TEXT_BYTES: usize = 2048;

/// Read a request and lay out its text with `work`, as its length (`bytes`) says: right
/// here when it is short (at most [`QUICK_TEXT_BYTES`]), else on the blocking pool,
/// admitted at its price ([`cost::text`]) by `deadline` like a render. A PGN of 64 KiB,
/// or player names of thousands of characters, so never hold up the async workers (and
/// with them `/health` and every other answer), and the request's deadline covers them.
pub(super) async fn prepare<T: Send + 'static>(
    state: &Arc<AppState>,
    (bytes, deadline): (usize, Deadline),
    work: impl FnOnce(&Renderer) -> Result<T, AppError> + Send + 'static,
) -> Result<T, AppError> {
    if bytes <= QUICK_TEXT_BYTES {
        return work(&state.renderer);
    }
    let admitted = admit(state, cost::text(bytes), deadline).await?;
    let worker = state.clone();
    let out = tokio::task::spawn_blocking(move || {
        let _held = admitted;
        if let Some(hook) = &worker.text_hook {
            hook();
        }
        work(&worker.renderer)
    })
    .await;
    out.map_err(|join| AppError::internal(format!("reading the request failed: {join}")))?
}

/// The body of a finished render, or the error it met.
pub(super) fn rendered(out: Result<Vec<u8>, RenderError>) -> Result<Bytes, AppError> {
    match out {
        Ok(mut bytes) => {
            // The cache weighs entries by length: hold no more than that.
            bytes.shrink_to_fit();
            Ok(Bytes::from(bytes))
        }
        Err(e) => Err(AppError::internal(e.to_string())),
    }
}

/// Render a diagram under the pool's admission (see the module's documentation).
///
/// A quick render (its estimated cost at most [`cost::QUICK_UNITS`], and for a PNG the
/// board's context at this size held) runs right here, on the async worker: handing it to
/// the blocking pool and back costs two thread wake-ups, more than the render itself (warm
/// throughput over HTTP doubled: see the README's Performance). Every other render goes to
/// the blocking pool, so a slow one never holds up the executor: the estimate counts the
/// marks, so a one-megapixel board under 64 arrows goes there too. With a fault hook
/// installed every render goes to the pool.
pub(super) async fn render(
    state: Arc<AppState>,
    (request, set): (Request, Arc<PieceSet>),
    deadline: Deadline,
) -> Result<Bytes, AppError> {
    let units = cost::position(&request.position, &request.options, request.format);
    let admitted = admit(&state, units, deadline).await?;
    if state.fault.is_none() {
        let start = Instant::now();
        let (position, options) = (&request.position, &request.options);
        // Priced once, above: quick by its units, then by what the renderer holds.
        let quick = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            (units <= cost::QUICK_UNITS)
                .then(|| state.renderer.render_if_held(&set, position, options, request.format))
                .flatten()
        }));
        match quick {
            Ok(Some(out)) => {
                drop(admitted);
                state.renders.fetch_add(1, Ordering::Relaxed);
                state.inline_renders.fetch_add(1, Ordering::Relaxed);
                let format = request.format.extension();
                state
                    .metrics
                    .render("diagram", format, start.elapsed().as_secs_f64());
                return rendered(out);
            }
            Ok(None) => {}
            Err(_) => {
                return Err(AppError::internal(
                    "the render failed (panicked)".to_string(),
                ));
            }
        }
    }
    let hook = state.fault.clone();
    let request_format = request.format.extension();
    let job = move |renderer: &Renderer| {
        if let Some(hook) = &hook {
            hook(&request);
        }
        renderer.render_with(&set, &request.position, &request.options, request.format)
    };
    let what = ("diagram", request_format);
    blocking(&state, admitted, what, job).await
}
