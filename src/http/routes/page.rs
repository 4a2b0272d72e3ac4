//! The front page's files (`/`, `/app.js`, `/editor.js`, `/app.css`, and with the
//! `composer-wasm` feature the renderer as WebAssembly under `/js/`), embedded in the
//! binary: no caching beyond revalidation (a new release shows at once; the ETag of the
//! bytes makes a reload cheap), and a policy that lets the page reach this origin only.

use super::super::answer;
use super::super::state::AppState;
use super::endpoint::{Endpoint, Terms};
use super::operation::text;
use axum::http::{HeaderMap, HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::{MethodRouter, get};
use serde_json::{Value, json};
use std::sync::Arc;

/// A file of the front page, embedded in the binary.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Asset {
    /// Its content type.
    pub content_type: &'static str,
    /// Its bytes.
    pub body: &'static [u8],
}

/// An asset of `content_type` holding `body`.
const fn asset(content_type: &'static str, body: &'static [u8]) -> Asset {
    Asset { content_type, body }
}

/// The composer page.
pub const INDEX_HTML: Asset = asset(
    "text/html; charset=utf-8",
    include_bytes!("../../../assets/web/index.html"),
);
/// The composer's script.
pub const APP_JS: Asset = asset(JAVASCRIPT, include_bytes!("../../../assets/web/app.js"));
/// The composer's board editor.
pub const EDITOR_JS: Asset = asset(JAVASCRIPT, include_bytes!("../../../assets/web/editor.js"));
/// The composer's style sheet.
pub const APP_CSS: Asset = asset(
    "text/css; charset=utf-8",
    include_bytes!("../../../assets/web/app.css"),
);
/// The renderer as WebAssembly, for the composer's previews drawn in the page.
#[cfg(feature = "composer-wasm")]
pub const WASM: Asset = asset("application/wasm", super::super::composer_wasm::WASM);
/// The JavaScript package's browser entry.
#[cfg(feature = "composer-wasm")]
pub const WEB_JS: Asset = asset(JAVASCRIPT, super::super::composer_wasm::WEB_JS);
/// The JavaScript package's glue that [`WEB_JS`] imports.
#[cfg(feature = "composer-wasm")]
pub const CORE_JS: Asset = asset(JAVASCRIPT, super::super::composer_wasm::CORE_JS);
/// The content type of the composer's scripts.
const JAVASCRIPT: &str = "text/javascript; charset=utf-8";

/// A file of the front page.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Page(pub Asset);

impl Endpoint for Page {
    fn router(&self) -> MethodRouter<Arc<AppState>> {
        let (asset, etag) = (self.0, page_etag(self.0.body));
        get(move |headers| page(asset, etag, headers))
    }

    fn operation(&self, _: Terms<'_>, summary: &str) -> (Vec<Value>, Value) {
        let content_type = self.0.content_type.split(';').next().unwrap_or("text/plain");
        (Vec::new(), json!({ "200": text(summary, content_type) }))
    }
}

/// `asset`, with its ETag `etag`; `304 Not Modified` when `request` holds it.
async fn page(asset: Asset, etag: HeaderValue, request: HeaderMap) -> Response {
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
use super::super::composer_wasm::PAGE_POLICY;

/// The strong ETag of a page file's bytes.
fn page_etag(body: &[u8]) -> HeaderValue {
    let tag = format!("\"{:016x}\"", crate::hash::fnv1a(body.iter().copied()));
    HeaderValue::from_str(&tag).expect("hex digits in quotes")
}
