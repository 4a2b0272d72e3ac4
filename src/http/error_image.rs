//! Errors a page can show: the 4xx of an image route as an image of its sentence, for a
//! client that prefers images (a browser's `<img>`) or asks with `errors=image`.
//!
//! Owns the decision (the route's format, `Accept`, `errors`), the card's size (`size`
//! from the query, the default when missing or bad, within the allowed range) and the
//! cache of cards; the card itself is `render::layouts::card`, the sentence `AppError`'s. Every
//! other answer passes through untouched: successes, 5xx, routes that are not images
//! (`/describe`, `/game.json`, …) and formats that are not (PDF, text). A card is made on
//! the render pool, admitted like a plain diagram of its size and format; when it cannot
//! be (the pool is full), the text answer goes out as it was.

use super::error::{AppError, Sentence};
use super::pool::{Deadline, run_job};
use super::routes::{ROUTES, Route};
use super::state::AppState;
use crate::render::layouts::card;
use crate::render::options::{DEFAULT_SIZE, Format, MIN_SIZE, RenderOptions};
use crate::render::spec::cost;
use crate::request::{Param, ParamKind, Query, named};
use axum::body::Body;
use axum::extract::{Request as HttpRequest, State};
use axum::http::{HeaderMap, HeaderValue, header};
use axum::middleware::Next;
use axum::response::Response;
use bytes::Bytes;
use std::sync::Arc;

/// Bytes of cards kept (a card is a few kilobytes: a page of ten broken images that is
/// reloaded makes them once).
pub const CARD_CACHE_BYTES: u64 = 8 * 1024 * 1024;

/// What `errors` is read as (listed with the service's other parameters elsewhere; only
/// read here): `image` asks for the card whatever `Accept` says; any other value for text.
const ERRORS: Param = Param {
    name: "errors",
    spellings: &["errors"],
    kind: ParamKind::Choice(&["image", "text"]),
    doc: "How a 4xx of an image route is answered: `image` (an image of the sentence) or `text`.",
    separator: None,
};

/// A card: the status, the sentence, its size and format.
type CardKey = (u16, String, u32, Format);

/// The layer's state: the service's (its pool, limits and timeout) and the cards made.
#[derive(Clone)]
pub(super) struct ErrorImages {
    state: Arc<AppState>,
    cards: moka::future::Cache<CardKey, Bytes>,
}

impl ErrorImages {
    /// The layer's state over `state`, with an empty cache of cards.
    pub fn new(state: Arc<AppState>) -> ErrorImages {
        let cards = moka::future::Cache::builder()
            .max_capacity(CARD_CACHE_BYTES)
            .weigher(|k: &CardKey, v: &Bytes| crate::cache::entry_weight(k.1.len(), v.len()))
            .build();
        ErrorImages { state, cards }
    }
}

/// How a client wants a 4xx of an image route.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Wanted {
    /// The plain-text sentence.
    Text,
    /// The card, in this format and size.
    Image(Format, u32),
}

/// The layer: runs the request, and answers its 4xx as a card when the client wants one
/// (see the module's documentation). Every 4xx of an image route says `Vary: Accept`.
pub(super) async fn answer(
    State(images): State<ErrorImages>,
    request: HttpRequest,
    next: Next,
) -> Response {
    let Some(route) = image_route(request.uri().path()) else {
        return next.run(request).await;
    };
    // Kept for a 4xx; the query is read only then, so a success costs no parsing here.
    let uri = request.uri().clone();
    let accept = request.headers().get(header::ACCEPT).cloned();
    let mut response = next.run(request).await;
    if !response.status().is_client_error() {
        return response;
    }
    response
        .headers_mut()
        .append(header::VARY, HeaderValue::from_static("accept"));
    let query = Query::parse(uri.query().unwrap_or_default());
    let mut headers = HeaderMap::new();
    if let Some(accept) = accept {
        headers.insert(header::ACCEPT, accept);
    }
    let max_size = images.state.config.limits.max_size;
    let fixed_size = route.endpoint.error_size();
    let wanted = route_format(route, &query).map(|f| {
        match (wanted(&headers, &query, f, max_size), fixed_size) {
            // A route that takes no size (a share card) fixes its error's.
            (Wanted::Image(format, _), Some(size)) => Wanted::Image(format, size),
            (w, _) => w,
        }
    });
    let (Some(Wanted::Image(format, size)), Some(Sentence(sentence))) =
        (wanted, response.extensions().get::<Sentence>().cloned())
    else {
        return response;
    };
    let status = response.status();
    let key = (status.as_u16(), sentence, size, format);
    let made = images
        .cards
        .try_get_with(key.clone(), make(&images.state, key))
        .await;
    match made {
        Ok(bytes) => as_image(response, format, bytes),
        // The pool is full, or the card could not be drawn: the text as it was.
        Err(_) => response,
    }
}

/// How many times a plain diagram's estimated cost (`render::spec::cost`) a card is admitted at.
/// `cargo bench --bench card` (release, 2 cores shared with other builds): a 2048 px card
/// takes 20 ms as PNG, 23 ms as GIF, 85 ms as WebP and 0.8 ms as SVG, against 2.4, 8.2, 59
/// and 0.02 ms for a warm plain diagram of that size (the cost model prices that PNG at
/// about 8 ms); a 400 px PNG card 4.4 ms. A card is worth about three diagrams' units, so
/// a flood of bad requests meets the same admission as a flood of real ones.
pub const CARD_FACTOR: u64 = 3;

/// The card of `key` made on the render pool, admitted at [`CARD_FACTOR`] times the cost
/// of a plain diagram of its size and format.
async fn make(state: &Arc<AppState>, key: CardKey) -> Result<Bytes, AppError> {
    let (status, sentence, size, format) = key;
    let options = RenderOptions {
        size,
        ..RenderOptions::default()
    };
    let units = cost::diagram(&options, format).saturating_mul(CARD_FACTOR);
    let deadline = Deadline(tokio::time::Instant::now() + state.config.request_timeout);
    let heading = heading(status);
    let job = move |_: &crate::render::Renderer| card::card(&heading, &sentence, size, format);
    run_job(
        state.clone(),
        (units, deadline),
        ("error", format.extension()),
        job,
    )
    .await
}

/// `400 Bad Request`: the status and its reason.
fn heading(status: u16) -> String {
    let reason = axum::http::StatusCode::from_u16(status)
        .ok()
        .and_then(|s| s.canonical_reason())
        .unwrap_or("Error");
    format!("{status} {reason}")
}

/// `response` (a 4xx) with `bytes`, the card in `format`, as its body: the same status and
/// headers but the type, plus the policy every SVG of the service has.
fn as_image(response: Response, format: Format, bytes: Bytes) -> Response {
    let (mut parts, _) = response.into_parts();
    let h = &mut parts.headers;
    h.remove(header::CONTENT_LENGTH);
    h.insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static(format.content_type()),
    );
    h.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    if format == Format::Svg {
        h.insert(
            header::CONTENT_SECURITY_POLICY,
            HeaderValue::from_static("default-src 'none'; style-src 'unsafe-inline'"),
        );
    }
    Response::from_parts(parts, Body::from(bytes))
}

/// The route at `path` if it answers images (its format may still be one that is not).
fn image_route(path: &str) -> Option<&'static Route> {
    ROUTES
        .iter()
        .find(|r| r.path == path && r.endpoint.image(None).is_some())
}

/// The image format `route` answers for `query`: fixed by the path, or `format` in the
/// query (the route's default when missing or not a format); `None` when that format is
/// not an image (PDF, text).
fn route_format(route: &Route, query: &Query) -> Option<Format> {
    let asked = query
        .last(named("format"))
        .and_then(|v| Format::from_extension(v.trim()));
    let format = route.endpoint.image(asked)?;
    card::draws(format).then_some(format)
}

/// How the client of `headers` and `query` wants a 4xx of a route answering `format`:
/// the card when `errors=image`, or when `Accept` ranks the format above text (see
/// [`prefers_image`]) and `errors` is not given; else text. The card's size is `size`
/// within [`MIN_SIZE`]..=`max_size`, [`DEFAULT_SIZE`] when missing or not a number.
pub fn wanted(headers: &HeaderMap, query: &Query, format: Format, max_size: u32) -> Wanted {
    let image = match query.last(&ERRORS) {
        Some(v) => v.trim().eq_ignore_ascii_case("image"),
        None => headers
            .get_all(header::ACCEPT)
            .iter()
            .filter_map(|v| v.to_str().ok())
            .any(|accept| prefers_image(accept, format.content_type())),
    };
    if !image {
        return Wanted::Text;
    }
    let size = query
        .last(named("size"))
        .and_then(|v| v.trim().parse::<u64>().ok())
        .map_or(DEFAULT_SIZE, |n| {
            n.clamp(u64::from(MIN_SIZE), u64::from(max_size.max(MIN_SIZE))) as u32
        });
    Wanted::Image(format, size)
}

/// Whether `accept` (an `Accept` header's value) ranks `image` (a content type) above
/// text: its quality (of the most specific range that matches it) is above zero and above
/// both `text/plain`'s and `text/html`'s. Chromium's and Firefox's `<img>` requests do
/// (`image/*` over `*/*;q=0.8`); `*/*` (curl, fetch) and a page's navigation
/// (`text/html` first) do not.
pub fn prefers_image(accept: &str, image: &str) -> bool {
    let wanted = quality(accept, image);
    wanted > 0.0 && wanted > quality(accept, "text/plain") && wanted > quality(accept, "text/html")
}

/// The quality `accept` gives `media` (`type/subtype`): that of the most specific range
/// matching it (`type/subtype`, then `type/*`, then `*/*`), 0 when none does. A range
/// whose `q` is not a number from 0 to 1 is skipped.
fn quality(accept: &str, media: &str) -> f32 {
    let media = media.split(';').next().unwrap_or_default().trim();
    let (kind, _) = media.split_once('/').unwrap_or((media, ""));
    let mut best: Option<(u8, f32)> = None;
    for range in accept.split(',') {
        let mut parts = range.split(';');
        let name = parts.next().unwrap_or_default().trim();
        let specificity = if name.eq_ignore_ascii_case(media) {
            3
        } else if name.len() == kind.len() + 2
            && name.ends_with("/*")
            && name[..kind.len()].eq_ignore_ascii_case(kind)
        {
            2
        } else if name == "*/*" {
            1
        } else {
            continue;
        };
        let q = parts
            .filter_map(|p| p.split_once('='))
            .find(|(k, _)| k.trim().eq_ignore_ascii_case("q"))
            .map_or(Some(1.0), |(_, v)| {
                v.trim()
                    .parse::<f32>()
                    .ok()
                    .filter(|q| (0.0..=1.0).contains(q))
            });
        let Some(q) = q else { continue };
        if best.is_none_or(|(s, _)| specificity > s) {
            best = Some((specificity, q));
        }
    }
    best.map_or(0.0, |(_, q)| q)
}

#[cfg(test)]
mod tests {
    use super::*;

    const CHROMIUM_IMG: &str = "image/avif,image/webp,image/apng,image/svg+xml,image/*,*/*;q=0.8";
    const FIREFOX_IMG: &str =
        "image/avif,image/webp,image/png,image/svg+xml,image/*;q=0.8,*/*;q=0.5";
    const CHROMIUM_TAB: &str = "text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,image/apng,*/*;q=0.8,application/signed-exchange;v=b3;q=0.7";
    const FIREFOX_TAB: &str = "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8";

    #[test]
    fn browsers_images_prefer_images_and_tabs_and_curl_prefer_text() {
        for image in ["image/png", "image/svg+xml", "image/gif", "image/webp"] {
            assert!(prefers_image(CHROMIUM_IMG, image), "chromium {image}");
            assert!(prefers_image(FIREFOX_IMG, image), "firefox {image}");
            for text in [CHROMIUM_TAB, FIREFOX_TAB, "*/*", "", "text/plain, image/*"] {
                assert!(!prefers_image(text, image), "{text:?} {image}");
            }
        }
        assert!(prefers_image("image/png", "image/png"));
        assert!(!prefers_image("image/png;q=0", "image/png"));
        assert!(!prefers_image("IMAGE/PNG;q=0.4, */*;q=0.5", "image/png"));
        // An unreadable quality is skipped, not read as 1.
        assert!(!prefers_image("image/png;q=high, */*", "image/png"));
    }

    #[test]
    fn errors_decides_before_accept_and_size_is_kept_in_range() {
        let mut headers = HeaderMap::new();
        let q = |s: &str| Query::parse(s);
        assert_eq!(
            wanted(&headers, &q("fen=x"), Format::Png, 2048),
            Wanted::Text
        );
        assert_eq!(
            wanted(&headers, &q("errors=image&size=300"), Format::Gif, 2048),
            Wanted::Image(Format::Gif, 300)
        );
        headers.insert(header::ACCEPT, HeaderValue::from_static(CHROMIUM_IMG));
        assert_eq!(
            wanted(&headers, &q("size=big"), Format::Svg, 2048),
            Wanted::Image(Format::Svg, DEFAULT_SIZE)
        );
        assert_eq!(
            wanted(&headers, &q("size=9000"), Format::Png, 1000),
            Wanted::Image(Format::Png, 1000)
        );
        assert_eq!(
            wanted(&headers, &q("size=3"), Format::Png, 1000),
            Wanted::Image(Format::Png, MIN_SIZE)
        );
        assert_eq!(
            wanted(&headers, &q("errors=text"), Format::Png, 2048),
            Wanted::Text
        );
        assert_eq!(
            wanted(&headers, &q("errors=bogus"), Format::Png, 2048),
            Wanted::Text
        );
    }

    #[test]
    fn image_routes_have_their_format_and_others_none() {
        let f = |uri: &str| {
            let uri: axum::http::Uri = uri.parse().expect("uri");
            let query = Query::parse(uri.query().unwrap_or_default());
            route_format(image_route(uri.path())?, &query)
        };
        assert_eq!(f("/diagram?fen=x"), Some(Format::Png));
        assert_eq!(f("/diagram?format=svg"), Some(Format::Svg));
        assert_eq!(f("/diagram?format=bmp"), Some(Format::Png));
        assert_eq!(f("/diagram?format=pdf"), None);
        assert_eq!(f("/diagram.txt"), None);
        assert_eq!(f("/diagram.webp"), Some(Format::Webp));
        assert_eq!(f("/board.svg"), Some(Format::Svg));
        assert_eq!(f("/image.gif"), Some(Format::Gif));
        assert_eq!(f("/game.gif"), Some(Format::Gif));
        assert_eq!(f("/game.png"), Some(Format::Png));
        assert_eq!(f("/sheet"), None);
        assert_eq!(f("/sheet?format=png"), Some(Format::Png));
        for other in [
            "/describe",
            "/game.json",
            "/openapi.json",
            "/health",
            "/",
            "/nowhere.png",
        ] {
            assert_eq!(f(other), None, "{other}");
        }
    }
}
