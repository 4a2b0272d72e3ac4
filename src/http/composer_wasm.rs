//! The composer's in-page renderer (the `composer-wasm` feature): the renderer compiled to
//! WebAssembly (`js/dist/staunton.wasm`) and the npm package's browser glue (`js/lib/web.js`,
//! `js/lib/core.js`), embedded in the binary and served as page files under `/js/`.
//!
//! The route table serves them (`routes::page`); the front page finds them in `/openapi.json` and
//! then draws its previews itself (see docs/src/composer.md). The wasm is built, not
//! committed: run `npm run build` in `js/` before `cargo build --features composer-wasm`; a
//! missing `js/dist/staunton.wasm` stops the build at the `include_bytes!` below, which
//! names the file.

/// The renderer as WebAssembly, made by `npm run build` in `js/`.
pub(super) const WASM: &[u8] = include_bytes!(concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/js/dist/staunton.wasm"
));

/// The package's browser entry: `init()` and the API functions.
pub(super) const WEB_JS: &[u8] =
    include_bytes!(concat!(env!("CARGO_MANIFEST_DIR"), "/js/lib/web.js"));

/// The glue `web.js` imports: the API functions over an instance of the wasm.
pub(super) const CORE_JS: &[u8] =
    include_bytes!(concat!(env!("CARGO_MANIFEST_DIR"), "/js/lib/core.js"));

/// The front page's policy with the in-page renderer: the page's own scripts may compile
/// WebAssembly (`wasm-unsafe-eval`, which allows no `eval` of JavaScript), and previews
/// may be `blob:` URLs of images drawn in the page.
pub(super) const PAGE_POLICY: &str = "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; img-src 'self' data: blob:; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'";
