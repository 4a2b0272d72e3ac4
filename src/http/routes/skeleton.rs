//! The one way a route answers, which each route's file fills with what is its own: its
//! request read from the query (or a POSTed PGN) off the async threads when its text is
//! long ([`read`]), its image's key, how its bytes are made ([`Made`]: a [`Job`] on the
//! render pool, [`Outlined`] when its text is drawn), and the answer through the image
//! cache ([`drawn`]).

use super::super::answer::{self, Image};
use super::super::error::AppError;
use super::super::extract::Asked;
use super::super::pool::{Deadline, prepare, run_job};
use super::super::state::AppState;
use crate::render::options::{Format, RenderOptions};
use crate::render::pieces::PieceSet;
use crate::render::spec::cost::{self, Glyphs};
use crate::render::{RenderError, Renderer};
use crate::request::{Limits, Query};
use axum::body::Body;
use axum::http::StatusCode;
use axum::response::Response;
use axum::routing::{MethodRouter, get};
use bytes::Bytes;
use std::future::Future;
use std::sync::Arc;

/// The methods of a route that reads a PGN: GET (the game in the query) and POST (the PGN
/// as the body), both answered by `answer`, given the body for a POST.
pub(super) fn get_or_post<F, A>(answer: F) -> MethodRouter<Arc<AppState>>
where
    F: Fn(Asked, Option<Body>) -> A + Clone + Send + Sync + 'static,
    A: Future<Output = Result<Response, AppError>> + Send + 'static,
{
    let posted = answer.clone();
    get(move |asked| answer(asked, None)).post(move |asked, body: Body| posted(asked, Some(body)))
}

/// How an image's bytes are made, under the pool's admission (see `pool`).
pub(super) trait Made: Send + 'static {
    /// The bytes, made by `deadline`.
    fn made(
        self,
        state: Arc<AppState>,
        deadline: Deadline,
    ) -> impl Future<Output = Result<Bytes, AppError>> + Send;
}

/// The drawing of an image on the blocking pool, with the renderer.
pub(super) trait Draw: FnOnce(&Renderer) -> Result<Vec<u8>, RenderError> + Send + 'static {}

impl<J: FnOnce(&Renderer) -> Result<Vec<u8>, RenderError> + Send + 'static> Draw for J {}

/// Any image but a diagram: its price in units, its labels in the metrics (route, format),
/// and the job that draws it on the blocking pool.
pub(super) struct Job<J>(pub u64, pub (&'static str, &'static str), pub J);

impl<J: Draw> Made for Job<J> {
    fn made(
        self,
        state: Arc<AppState>,
        deadline: Deadline,
    ) -> impl Future<Output = Result<Bytes, AppError>> + Send {
        let Job(units, what, job) = self;
        run_job(state, (units, deadline), what, job)
    }
}

/// A job whose text is drawn as outlines (an article, a worksheet): refused with a 400
/// before it runs when the answer would outgrow [`ANSWER_SHARE`] of the image cache, by
/// the size its text's glyphs make (`cost::drawn_text_bytes`).
pub(super) struct Outlined<J>(pub Job<J>, pub (Glyphs, Format), pub &'static str);

/// The largest answer a text may make: an eighth of the image cache (16 MiB of the default
/// 128 MiB), so that no few answers fill it.
pub(super) const ANSWER_SHARE: u64 = 8;

impl<J: Draw> Made for Outlined<J> {
    fn made(
        self,
        state: Arc<AppState>,
        deadline: Deadline,
    ) -> impl Future<Output = Result<Bytes, AppError>> + Send {
        let Outlined(job, (glyphs, format), what) = self;
        let bound = state.config.cache_bytes / ANSWER_SHARE;
        let checked = cost::within_answer(glyphs, format, bound, what)
            .map_err(|why| AppError::new(StatusCode::BAD_REQUEST, why));
        async move {
            checked?;
            job.made(state, deadline).await
        }
    }
}

/// A request read by `read` from its query, the PGN its POST carries in `body` (none for a
/// GET) and the service's limits: right here when its text is short, else on the blocking
/// pool (see `prepare`). The query is taken out of `asked`.
pub(super) async fn read<T: Send + 'static>(
    asked: &mut Asked,
    body: Option<Body>,
    read: impl FnOnce(&Renderer, &Query, Option<&str>, &Limits) -> Result<T, AppError> + Send + 'static,
) -> Result<T, AppError> {
    let text = asked.posted(body).await?;
    let query = std::mem::take(&mut asked.query);
    let limits = asked.state.config.limits;
    let bytes = query.text_bytes() + text.as_ref().map_or(0, String::len);
    prepare(&asked.state, (bytes, asked.deadline), move |renderer| {
        read(renderer, &query, text.as_deref(), &limits)
    })
    .await
}

/// The answer of an image route: its request read by `read` (see [`read`]) into its image
/// (cache key, content type, headers of its own) and how that is made; then answered
/// through the image cache, made under admission on a miss.
pub(super) async fn drawn<M: Made>(
    mut asked: Asked,
    body: Option<Body>,
    read: impl FnOnce(&Renderer, &Query, Option<&str>, &Limits) -> Result<(Image, M), AppError>
    + Send
    + 'static,
) -> Result<Response, AppError> {
    let (image, made) = self::read(&mut asked, body, read).await?;
    let made = made.made(asked.state.clone(), asked.deadline);
    answer::cached(&asked.state, &asked.headers, image, made).await
}

/// The piece set `options` name, looked up once for the whole request; 400 when the
/// renderer has not loaded it.
pub(super) fn known_set(
    renderer: &Renderer,
    options: &RenderOptions,
) -> Result<Arc<PieceSet>, AppError> {
    renderer
        .shared_set(options)
        .cloned()
        .map_err(|e| AppError::new(StatusCode::BAD_REQUEST, e.to_string()))
}
