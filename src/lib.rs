//! Staunton turns a chess position written in FEN into a diagram, PNG or SVG.
//!
//! One core, three faces: this library, the `staunton` command line and an HTTP service.
//! The folders are the pipeline, and it runs one way: no module imports one that comes
//! after it, and no two import each other (`scripts/ci/check-structure.py` checks both).
//!
//! ```text
//!  request/          chess/                  render/
//!  query or flags ─► fen::parse ─► Position ─► spec (options, theme, cost: the price first)
//!  (the options)     pgn, game, annotated       │
//!                    describe (alt text)        ▼
//!                                             scene::build ─► Scene: where everything goes
//!                                               │             (grid, marks, labels, figures;
//!                                               │              art: the label font)
//!                                   ┌───────────┴──────────────┐
//!                                   ▼                          ▼
//!                         paint::svg ─► SVG           paint::compose ─► pixels: tiles of
//!                                   │                 palette indices (paint::indexed), RGBA
//!                                   │                 where they miss (paint::raster; art: pieces)
//!                                   ▼                          ▼
//!                         encode::convert ─► PDF      encode ─► PNG (deflate), WebP, GIF
//!
//!  render::Renderer (render/mod.rs) runs spec → scene → paint → encode for one diagram and
//!  keeps the caches; render::layouts puts its diagrams on pages, frames and cards
//!  (worksheets, articles, animations, share cards); http/, cli/ and markdown/ are the
//!  faces over it; embed is the one door of the Python and npm packages. cache.rs:
//!  ByteCache, the byte-bounded cache everything kept lives in.
//! ```
//!
//! The quickest use, e.g. in a snapshot test:
//!
//! ```
//! use staunton::{render_png, render_svg, RenderOptions};
//!
//! let png = render_png("start", &RenderOptions::default())?;
//! assert_eq!(&png[1..4], b"PNG");
//!
//! let options = RenderOptions { size: 240, ..RenderOptions::default() };
//! let svg = render_svg("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1", &options)?;
//! assert!(svg.starts_with("<svg"));
//! # Ok::<(), staunton::Error>(())
//! ```
//!
//! For many renders, or a custom set of pieces, keep a [`Renderer`] and call it directly.

#![forbid(unsafe_code)]
#![warn(missing_docs)]

/// Declares a module that is the crate's own business: `pub(crate)`, or `pub` (and hidden
/// from the docs) with the `bench-internals` feature, which the benches and tests turn on.
macro_rules! internal_mod {
    ($($name:ident),* $(,)?) => {$(
        #[cfg(feature = "bench-internals")]
        #[doc(hidden)]
        pub mod $name;
        #[cfg(not(feature = "bench-internals"))]
        pub(crate) mod $name;
    )*};
}

internal_mod!(cache, echo, hash, safe_write);
pub mod chess;
/// The command line (the `staunton` binary's code): not a library API.
#[cfg(feature = "cli")]
#[doc(hidden)]
pub mod cli;
#[cfg(feature = "dataset")]
pub mod dataset;
pub mod embed;
#[cfg(feature = "server")]
pub mod http;
pub mod markdown;
pub mod render;
pub mod request;
pub mod snapshot;

pub use chess::fen::FenError;
pub use chess::piece::{Color, Piece, Role};
pub use chess::position::{BoardSize, Position, Square};
// Shown as re-exports, not inlined: their page is `render::options`'s (which is itself a
// re-export from `render::spec`, so rustdoc would otherwise copy them here).
#[doc(no_inline)]
pub use render::options::{Coordinates, Format, Orientation, RenderOptions, SvgForm, TextStyle};
pub use render::{RenderError, Renderer};

use render::default_renderer;

/// Anything that can go wrong in the library: one variant for each of its error types,
/// each shown as its own message, one sentence naming what was wrong, fit to show a user.
///
/// ```
/// use staunton::{render_png, Error, RenderOptions};
///
/// match render_png("rnbqkbnr/pppppppp/8/8", &RenderOptions::default()) {
///     Err(Error::Fen(e)) => assert!(e.to_string().contains("4 ranks")),
///     other => panic!("expected a FEN error, got {other:?}"),
/// }
/// ```
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// The FEN does not parse.
    #[error(transparent)]
    Fen(#[from] FenError),
    /// The render failed (e.g. an unknown piece set).
    #[error(transparent)]
    Render(#[from] RenderError),
    /// A PGN text could not be read.
    #[error(transparent)]
    Pgn(#[from] chess::pgn::PgnError),
    /// An EPD line could not be read.
    #[error(transparent)]
    Epd(#[from] chess::epd::EpdError),
    /// A game could not be read or played.
    #[error(transparent)]
    Game(#[from] chess::game::GameError),
    /// A worksheet could not be laid out.
    #[error(transparent)]
    Sheet(#[from] render::sheet::SheetError),
    /// A render would cost more than one request may.
    #[error(transparent)]
    Cost(#[from] render::CostError),
    /// A query's parameters do not make a request.
    #[error(transparent)]
    Request(#[from] request::RequestError),
    /// A snapshot test failed or could not run.
    #[error(transparent)]
    Snapshot(#[from] snapshot::SnapshotError),
    /// PNG bytes could not be decoded or encoded.
    #[error(transparent)]
    Png(#[from] snapshot::PngError),
}

/// Render `fen` as a PNG image with the built-in pieces.
pub fn render_png(fen: &str, options: &RenderOptions) -> Result<Vec<u8>, Error> {
    let position = chess::fen::parse(fen)?;
    Ok(default_renderer().png(&position, options)?)
}

/// Render `fen` as an SVG document with the built-in pieces.
pub fn render_svg(fen: &str, options: &RenderOptions) -> Result<String, Error> {
    let position = chess::fen::parse(fen)?;
    Ok(default_renderer().svg(&position, options)?)
}

/// `fen` as a text board, for terminals and text snapshots (the format is
/// [`render::text_board`]'s).
///
/// ```
/// use staunton::{render_text, Coordinates, RenderOptions, TextStyle};
///
/// let options = RenderOptions { coordinates: Coordinates::None, ..RenderOptions::default() };
/// let board = render_text("8/8/8/8/8/8/8/k6K b", &options)?;
/// assert!(board.ends_with("k . . . . . . K\nBlack to move\n"));
/// let figurines = RenderOptions { text_style: TextStyle::Figurines, ..options };
/// assert!(render_text("8/8/8/8/8/8/8/k6K b", &figurines)?.contains("♚ . . . . . . ♔"));
/// # Ok::<(), staunton::Error>(())
/// ```
pub fn render_text(fen: &str, options: &RenderOptions) -> Result<String, Error> {
    let position = chess::fen::parse(fen)?;
    Ok(default_renderer().text(&position, options))
}
