//! The router and its handlers: each reads its request (see `request`), and answers through
//! the image cache and the render pool (see `answer`, `pool`); every request gets a
//! deadline and one log line.

use super::answer::{self, CacheStatus, Image};
use super::api::{self, Animation, Asset, Handler};
use super::error::AppError;
use super::extract::{Asked, Upload};
use super::pool::{Deadline, prepare, render, run_job};
use super::state::AppState;
use super::{metrics, move_list};
use crate::render::animate;
use crate::render::options::{Format, RenderOptions};
use crate::render::pieces::PieceSet;
use crate::render::spec::cost::{self, Glyphs};
use crate::render::{RenderError, Renderer};
use crate::request::{GameRequest, Limits, Query, Request};
use axum::Router;
use axum::body::Body;
use axum::extract::{Request as HttpRequest, State};
use axum::http::{HeaderValue, StatusCode, header};
use axum::middleware::{self, Next};
use axum::response::{IntoResponse, Response};
use axum::routing::{MethodRouter, get};
use bytes::Bytes;
use std::future::Future;
use std::sync::Arc;
use std::sync::atomic::Ordering;
use std::time::Instant;

/// The router with every route of `api::ROUTES`, over `state`.
pub fn app(state: Arc<AppState>) -> Router {
    let mut router = Router::new();
    for route in api::ROUTES {
        router = router.route(route.path, method_router(route.handler));
    }
    router
        .fallback(not_found)
        .layer(middleware::from_fn_with_state(
            state.clone(),
            enforce_deadline,
        ))
        .layer(middleware::from_fn_with_state(
            super::error_image::ErrorImages::new(state.clone()),
            super::error_image::answer,
        ))
        .layer(middleware::from_fn_with_state(state.clone(), log_request))
        .with_state(state)
}

fn method_router(handler: Handler) -> MethodRouter<Arc<AppState>> {
    match handler {
        Handler::Page(asset) => {
            let etag = page_etag(asset.body);
            get(move |h| page(asset, etag, h))
        }
        Handler::Diagram(format) => get(move |a| diagram(a, format)),
        Handler::Game(kind) => {
            get(move |a| game(a, None, kind)).post(move |a, body: Body| game(a, Some(body), kind))
        }
        Handler::Image => get(image),
        Handler::Piece => get(piece),
        Handler::MoveList => {
            get(|a| game_json(a, None)).post(|a, body: Body| game_json(a, Some(body)))
        }
        Handler::Sheet(format) => get(move |a| sheet(a, format)),
        Handler::Article(format) => get(move |a| article(a, None, format))
            .post(move |a, body: Body| article(a, Some(body), format)),
        Handler::Card => get(card),
        Handler::Describe => get(describe),
        Handler::OpenApi => get(openapi),
        Handler::Health => get(health),
        Handler::Ready => get(ready),
        Handler::Metrics => get(metrics),
    }
}

/// The front page's files: no caching beyond revalidation (a new release shows at once;
/// the ETag of the bytes makes a reload cheap), and a policy that lets the page reach this
/// origin only.
async fn page(asset: Asset, etag: HeaderValue, request: axum::http::HeaderMap) -> Response {
    let unchanged = answer::not_modified(&request, etag.to_str().unwrap_or_default());
    let headers = [
        (header::CACHE_CONTROL, HeaderValue::from_static("no-cache")),
        (header::ETAG, etag),
    ];
    if unchanged {
        return (StatusCode::NOT_MODIFIED, headers).into_response();
    }
    (
        headers,
        [
            (header::CONTENT_TYPE, asset.content_type),
            (header::X_CONTENT_TYPE_OPTIONS, "nosniff"),
            (header::CONTENT_SECURITY_POLICY, PAGE_POLICY),
            (header::REFERRER_POLICY, "no-referrer"),
        ],
        asset.body,
    )
        .into_response()
}

/// The front page's policy: this origin only, no inline script or style.
#[cfg(not(feature = "composer-wasm"))]
const PAGE_POLICY: &str = "default-src 'self'; img-src 'self' data:; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'";
#[cfg(feature = "composer-wasm")]
use super::composer_wasm::PAGE_POLICY;

/// The strong ETag of a page file's bytes.
fn page_etag(body: &[u8]) -> HeaderValue {
    let tag = format!("\"{:016x}\"", crate::hash::fnv1a(body.iter().copied()));
    HeaderValue::from_str(&tag).expect("hex digits in quotes")
}

async fn describe(mut asked: Asked) -> Result<Response, AppError> {
    let (described, text) = read(&mut asked, None, move |_, query, _, limits| {
        let described = Request::described(query, limits).map_err(AppError::bad_request)?;
        let mut text = described.text();
        text.push('\n');
        Ok((described, text))
    })
    .await?;
    let mut response = (
        [
            (header::CONTENT_TYPE, "text/plain; charset=utf-8"),
            (header::CACHE_CONTROL, "public, max-age=31536000, immutable"),
            (header::X_CONTENT_TYPE_OPTIONS, "nosniff"),
        ],
        text,
    )
        .into_response();
    if let Some(plies) = described.plies {
        // The game's length, for the composer's slider.
        response
            .headers_mut()
            .insert("x-game-plies", HeaderValue::from(plies));
    }
    if let Some(label) = described.last_move.as_deref() {
        // The move as SAN (`23...Qxf2+`) whatever the language, for the slider's label.
        if let Ok(value) = HeaderValue::from_str(label) {
            response.headers_mut().insert("x-last-move", value);
        }
    }
    Ok(response)
}

async fn openapi(State(state): State<Arc<AppState>>) -> impl IntoResponse {
    (
        [
            (header::CONTENT_TYPE, "application/json"),
            (header::CACHE_CONTROL, "no-cache"),
            (header::X_CONTENT_TYPE_OPTIONS, "nosniff"),
        ],
        state.openapi.clone(),
    )
}

/// The header `/health` answers with, holding the service's version: what tells
/// `staunton health` that the answer is Staunton's and not another server's.
pub(crate) const HEALTH_HEADER: &str = "staunton-version";

async fn health() -> impl IntoResponse {
    (
        [
            (header::CONTENT_TYPE, "text/plain; charset=utf-8"),
            (
                header::HeaderName::from_static(HEALTH_HEADER),
                env!("CARGO_PKG_VERSION"),
            ),
        ],
        "ok\n",
    )
}

/// Readiness: 200 while the service takes new requests, 503 once it is shutting down.
async fn ready(State(state): State<Arc<AppState>>) -> impl IntoResponse {
    let (status, text) = match state.is_draining() {
        false => (StatusCode::OK, "ready\n"),
        true => (
            StatusCode::SERVICE_UNAVAILABLE,
            "draining: this replica is shutting down\n",
        ),
    };
    (
        status,
        [
            (header::CONTENT_TYPE, "text/plain; charset=utf-8"),
            (header::CACHE_CONTROL, "no-store"),
        ],
        text,
    )
}

async fn metrics(State(state): State<Arc<AppState>>) -> impl IntoResponse {
    state.cache.run_pending_tasks().await;
    let mut caches = vec![crate::cache::Usage {
        name: "images",
        bytes: state.cache.weighted_size(),
        bound: state.config.cache_bytes,
        entries: state.cache.entry_count(),
    }];
    caches.extend(state.renderer.cache_usage());
    let text = state.metrics.render_text(&metrics::Scrape {
        cache_entries: state.cache.entry_count(),
        cache_bytes: state.cache.weighted_size(),
        queue_depth: state.queued.load(Ordering::Relaxed) as u64,
        queue_limit: (state.config.workers.max(1) + state.config.queue) as u64,
        caches: &caches,
    });
    ([(header::CONTENT_TYPE, metrics::CONTENT_TYPE)], text)
}

async fn not_found(uri: axum::http::Uri) -> AppError {
    AppError::new(
        StatusCode::NOT_FOUND,
        format!(
            "no route {}: try /, /diagram?fen=start, /describe?fen=start or /openapi.json",
            crate::echo::Echo(uri.path())
        ),
    )
}

/// How an image's bytes are made, under the pool's admission (see `pool`).
trait Made: Send + 'static {
    /// The bytes, made by `deadline`.
    fn made(
        self,
        state: Arc<AppState>,
        deadline: Deadline,
    ) -> impl Future<Output = Result<Bytes, AppError>> + Send;
}

/// A diagram, with its piece set: priced, and drawn right on the async worker when it is
/// quick, by `pool::render`.
struct Diagram(Request, Arc<PieceSet>);

impl Made for Diagram {
    fn made(
        self,
        state: Arc<AppState>,
        deadline: Deadline,
    ) -> impl Future<Output = Result<Bytes, AppError>> + Send {
        render(state, (self.0, self.1), deadline)
    }
}

/// Any other image: its price in units, its labels in the metrics (route, format), and the
/// job that draws it on the blocking pool.
struct Job<J>(u64, (&'static str, &'static str), J);

impl<J> Made for Job<J>
where
    J: FnOnce(&Renderer) -> Result<Vec<u8>, RenderError> + Send + 'static,
{
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
struct Outlined<J>(Job<J>, (Glyphs, Format), &'static str);

/// The largest answer a text may make: an eighth of the image cache (16 MiB of the default
/// 128 MiB), so that no few answers fill it.
pub(super) const ANSWER_SHARE: u64 = 8;

impl<J> Made for Outlined<J>
where
    J: FnOnce(&Renderer) -> Result<Vec<u8>, RenderError> + Send + 'static,
{
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
async fn read<T: Send + 'static>(
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
async fn drawn<M: Made>(
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

async fn diagram(asked: Asked, path_format: Option<Format>) -> Result<Response, AppError> {
    drawn(asked, None, move |r, query, _, limits| {
        let request = Request::read(query, path_format, limits).map_err(AppError::bad_request)?;
        let set = known_set(r, &request.options)?;
        let image = Image::new(request.cache_key(), request.format.content_type());
        Ok((image, Diagram(request, set)))
    })
    .await
}

/// The piece set `options` name, looked up once for the whole request; 400 when the
/// renderer has not loaded it.
fn known_set(renderer: &Renderer, options: &RenderOptions) -> Result<Arc<PieceSet>, AppError> {
    renderer
        .shared_set(options)
        .cloned()
        .map_err(|e| AppError::new(StatusCode::BAD_REQUEST, e.to_string()))
}

/// A whole game as an animation: the game from the query (`pgn`, `moves`) or the POSTed
/// body, rendered on the blocking pool, cached like a diagram.
async fn game(asked: Asked, body: Option<Body>, kind: Animation) -> Result<Response, AppError> {
    drawn(asked, body, move |r, query, text, limits| {
        let request =
            GameRequest::read(query, text, kind.name(), limits).map_err(AppError::bad_request)?;
        known_set(r, &request.play.options)?;
        let image = Image::new(request.cache_key(), kind.content_type());
        let (frames, looped) = (request.frames(), request.looped);
        let units = cost::frames(&frames);
        let job = move |renderer: &Renderer| match kind {
            Animation::Gif => animate::gif(renderer, &frames, looped),
            Animation::Apng => animate::apng(renderer, &frames, looped),
        };
        Ok((image, Job(units, ("game", kind.name()), job)))
    })
    .await
}

/// `/game.json`: the main line of the game from the query (`pgn`, `moves`) or the POSTed
/// body, as JSON. Reading and playing a game takes microseconds: no cache, no pool; the
/// ETag of the game's text answers revalidations.
async fn game_json(mut asked: Asked, body: Option<Body>) -> Result<Response, AppError> {
    use crate::request::move_list::MoveListRequest;
    let (key, json) = read(&mut asked, body, move |_, query, text, limits| {
        let request =
            MoveListRequest::from_pairs_with(query, text, limits).map_err(AppError::bad_request)?;
        let json = Bytes::from(move_list::json(&request.game));
        Ok((request.cache_key().to_string(), json))
    })
    .await?;
    let image = Image::new(key, "application/json; charset=utf-8");
    Ok(answer::held(&asked.headers, image, || json))
}

/// `/piece.svg`: one piece of a set, alone, for a palette: the document the set wrote once
/// at load, shared (no copy); cacheable like an image.
async fn piece(asked: Asked) -> Result<Response, AppError> {
    let request =
        crate::request::piece::PieceRequest::read(&asked.query).map_err(AppError::bad_request)?;
    let sets = asked.state.renderer.piece_sets();
    let Some(set) = sets.get(&request.piece_set) else {
        let known = sets.names().map(str::to_string).collect();
        let e = crate::render::RenderError::UnknownPieceSet(request.piece_set, known);
        return Err(AppError::new(StatusCode::BAD_REQUEST, e.to_string()));
    };
    let image = Image::new(request.cache_key(), "image/svg+xml");
    Ok(answer::held(&asked.headers, image, || {
        set.piece_svg(request.piece)
    }))
}

/// `/image.gif`, lila-gif's still route: a diagram as GIF, with player bars when `white` or
/// `black` names a player.
async fn image(asked: Asked) -> Result<Response, AppError> {
    drawn(asked, None, move |r, query, _, limits| {
        let request =
            Request::read(query, Some(Format::Gif), limits).map_err(AppError::bad_request)?;
        known_set(r, &request.options)?;
        let players = crate::request::players::players(query).map_err(AppError::bad_request)?;
        let bars = player_bars(&request, players);
        let mut key = crate::request::key::KeyWriter::new("image");
        request.key_fields(&mut key);
        key.optional(bars.as_ref().map(|[top, _]| &top.player))
            .optional(bars.as_ref().map(|[_, bottom]| &bottom.player));
        let image = Image::new(key.finish(), "image/gif");
        let units = cost::diagram(&request.options, Format::Gif);
        let job = move |renderer: &Renderer| match bars {
            None => renderer.render(&request.position, &request.options, Format::Gif),
            Some(bars) => {
                let frame = animate::Frame {
                    position: request.position,
                    options: request.options,
                    delay: 0,
                    bars: Some(bars),
                };
                animate::gif(renderer, std::slice::from_ref(&frame), false)
            }
        };
        Ok((image, Job(units, ("image", "gif"), job)))
    })
    .await
}

/// `/image.gif`'s player bars, top then bottom, when `white` or `black` names a player.
fn player_bars(
    request: &Request,
    [white, black]: [Option<String>; 2],
) -> Option<[animate::Bar; 2]> {
    (white.is_some() || black.is_some()).then(|| {
        let bar = |n: Option<String>, side: &str| animate::Bar {
            player: n.unwrap_or_else(|| side.to_string()),
            clock: None,
        };
        let (white, black) = (bar(white, "White"), bar(black, "Black"));
        match request.options.orientation.bottom(request.position.turn) {
            crate::chess::piece::Color::White => [black, white],
            crate::chess::piece::Color::Black => [white, black],
        }
    })
}

/// `/card.png`, a share card: read here, drawn on the blocking pool, cached like a diagram
/// (one entry per normalised key, so a hit costs what a diagram's does).
async fn card(asked: Asked) -> Result<Response, AppError> {
    use crate::render::share_card::{HEIGHT, WIDTH};
    use crate::request::share_card::CardRequest;
    drawn(asked, None, move |r, query, _, limits| {
        let request = CardRequest::read(query, limits).map_err(AppError::bad_request)?;
        known_set(r, &request.diagram.options)?;
        let image = Image::new(request.cache_key(), "image/png");
        // The diagram, and the card's pixels as a plain diagram's of its width would count.
        let page = RenderOptions {
            size: WIDTH.max(HEIGHT),
            ..RenderOptions::default()
        };
        let units = cost::diagram(&request.diagram.options, Format::Png)
            .saturating_add(cost::diagram(&page, Format::Png) / 2);
        let job = move |renderer: &Renderer| request.png(renderer);
        Ok((image, Job(units, ("card", "png"), job)))
    })
    .await
}

/// A worksheet: read and laid out (on the blocking pool when its query is long), drawn on
/// the blocking pool, cached like a diagram.
/// SVG and PNG are one page (`pageNumber`); every answer says how many pages there are.
async fn sheet(asked: Asked, path_format: Option<Format>) -> Result<Response, AppError> {
    use crate::render::sheet::Sheet;
    use crate::request::sheet::{MAX_SHEET_DIAGRAMS, SheetRequest};
    drawn(asked, None, move |r, query, _, limits| {
        let request = SheetRequest::read(query, path_format, MAX_SHEET_DIAGRAMS, true, limits)
            .map_err(AppError::bad_request)?;
        known_set(r, &request.options.diagram)?;
        let (format, page, key) = (request.format, request.page, request.cache_key());
        let sheet = Sheet::new(r, request.entries, request.options)
            .map_err(|e| AppError::new(StatusCode::BAD_REQUEST, e.to_string()))?;
        let pages = sheet.pages.len();
        if format != Format::Pdf && page >= pages {
            return Err(AppError::new(
                StatusCode::BAD_REQUEST,
                format!(
                    "pageNumber {} is not allowed: this sheet has {pages} page{}",
                    page + 1,
                    if pages == 1 { "" } else { "s" }
                ),
            ));
        }
        let image = Image::new(key, format.content_type())
            .with_header("x-sheet-pages", HeaderValue::from(pages));
        let units = sheet.units(format, page);
        let glyphs = match format {
            Format::Pdf => sheet.glyphs(&sheet.pages),
            _ => sheet.glyphs(&sheet.pages[page..=page]),
        };
        let job = move |renderer: &Renderer| match format {
            Format::Svg => sheet.svg(renderer, page).map(String::into_bytes),
            Format::Png => sheet.png(renderer, page),
            _ => sheet.pdf(renderer),
        };
        let job = Job(units, ("sheet", format.extension()), job);
        Ok((
            image,
            Outlined(
                job,
                (glyphs, format),
                "this worksheet's text (its title, captions and answers)",
            ),
        ))
    })
    .await
}

/// An article: the game read and laid out (on the blocking pool when it is long), drawn on the blocking pool,
/// cached like a diagram. The answer says how many pages and diagrams it has.
async fn article(
    asked: Asked,
    body: Option<Body>,
    format: crate::request::article::ArticleFormat,
) -> Result<Response, AppError> {
    use crate::render::article::Article;
    use crate::request::article::{ArticleFormat, ArticleRequest, marks};
    drawn(asked, body, move |r, query, text, limits| {
        let request =
            ArticleRequest::read(query, text, format, limits).map_err(AppError::bad_request)?;
        known_set(r, &request.options.diagram)?;
        let key = request.cache_key();
        let article = Article::new(r, &request.game, request.options, &marks)
            .map_err(|e| AppError::internal(e.to_string()))?;
        let (pages, diagrams) = (article.pages.len(), article.flow.diagrams.len());
        let image = Image::new(key, format.content_type())
            .with_header("x-article-pages", HeaderValue::from(pages))
            .with_header("x-article-diagrams", HeaderValue::from(diagrams));
        // An HTML page's words are text; a PDF's and an SVG's are drawn (see `cost`).
        let drawn_as = match format {
            ArticleFormat::Pdf => Format::Pdf,
            ArticleFormat::Svg => Format::Svg,
            ArticleFormat::Html => Format::Txt,
        };
        let (units, glyphs) = (article.units(drawn_as), article.glyphs());
        let job = move |renderer: &Renderer| match format {
            ArticleFormat::Pdf => article.pdf(renderer),
            ArticleFormat::Html => article.html(renderer).map(String::into_bytes),
            ArticleFormat::Svg => article.svg(renderer).map(String::into_bytes),
        };
        let job = Job(units, ("article", format.extension()), job);
        Ok((
            image,
            Outlined(
                job,
                (glyphs, drawn_as),
                "this article's text (its headers, moves and comments)",
            ),
        ))
    })
    .await
}

/// Every request's deadline, `Config::request_timeout` from now: put in its extensions for
/// admission (see `pool`), and kept here. Past it the answer is 408 with one sentence,
/// and the request's future is dropped, which cancels the render it waits for. This layer
/// sits inside the logging one, so a 408 is logged and counted like any answer.
async fn enforce_deadline(
    State(state): State<Arc<AppState>>,
    mut request: HttpRequest,
    next: Next,
) -> Response {
    let timeout = state.config.request_timeout;
    let deadline = tokio::time::Instant::now() + timeout;
    let upload = Upload::default();
    request.extensions_mut().insert(Deadline(deadline));
    request.extensions_mut().insert(upload.clone());
    match tokio::time::timeout_at(deadline, next.run(request)).await {
        Ok(response) => response,
        Err(_) => {
            let seconds = timeout.as_secs_f64();
            let why = match upload.arriving() {
                true => format!(
                    "the request body did not arrive within {seconds:.1} s, the time this service allows a request: send the PGN at once, not slowly or in pieces"
                ),
                false => format!(
                    "the answer was not ready within {seconds:.1} s, the time this service allows a request: ask for a smaller size, fewer marks, fewer moves or less text"
                ),
            };
            AppError::new(StatusCode::REQUEST_TIMEOUT, why).into_response()
        }
    }
}

/// One log line per request: method, path, status, milliseconds, cache hit or miss. Every
/// answer of a route also gets the `Staunton-Warning` its query earns (see `extract`).
async fn log_request(
    State(state): State<Arc<AppState>>,
    request: HttpRequest,
    next: Next,
) -> Response {
    let start = Instant::now();
    let method = request.method().clone();
    let path = request.uri().path().to_string();
    // The route as the router matched it (so metrics cannot drift from the routes);
    // anything the fallback answers counts as "other", keeping the label set bounded.
    let route = request
        .extensions()
        .get::<axum::extract::MatchedPath>()
        .map_or_else(|| "other".to_string(), |m| m.as_str().to_string());
    let warning = super::extract::warning(&state, &route, request.uri().query());
    let mut response = next.run(request).await;
    if let Some(warning) = warning {
        response.headers_mut().insert(api::WARNING_HEADER, warning);
    }
    let ms = start.elapsed().as_secs_f64() * 1000.0;
    let cache = match response.extensions().get::<CacheStatus>() {
        Some(CacheStatus::Hit) => "hit",
        Some(CacheStatus::Miss) => "miss",
        None => "-",
    };
    let status = response.status().as_u16();
    state.metrics.request(&route, status);
    if status >= 500 {
        tracing::error!(%method, path, status, ms = format!("{ms:.2}"), cache, "request");
    } else {
        tracing::info!(%method, path, status, ms = format!("{ms:.2}"), cache, "request");
    }
    response
}
