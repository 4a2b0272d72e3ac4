//! `staunton._native`: the crate's renderer for Python. The Python side (`staunton/__init__.py`)
//! turns keyword arguments into the service's query pairs; this module reads them with the
//! crate's own request parser, so every option of the service works here and every error is
//! the sentence the service answers with a 400.

use pyo3::create_exception;
use pyo3::exceptions::{PyAssertionError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::PyBytes;
use staunton::request::{GAME_PARAMS, GameRequest, Limits, PARAMS, Query, Request, RequestError};
use staunton::snapshot::{SnapshotError, Snapshots, Tolerance};
use staunton::{Format, RenderError as CrateRenderError, Renderer};
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::OnceLock;

create_exception!(
    staunton,
    StauntonError,
    PyValueError,
    "Base of Staunton's errors: a bad position, game or option, or a failed render."
);
create_exception!(
    staunton,
    FenError,
    StauntonError,
    "The position is not a FEN Staunton can read (the `fen` parameter)."
);
create_exception!(
    staunton,
    PgnError,
    StauntonError,
    "The game (`pgn` or `moves`) or the ply chosen in it (`ply`, `move`, `from`, `to`) is wrong."
);
create_exception!(
    staunton,
    OptionError,
    StauntonError,
    "An option's value is not allowed; its `param` attribute names the option."
);
create_exception!(
    staunton,
    RenderError,
    StauntonError,
    "The render failed (e.g. an encoder error), or stopped on an internal error."
);
create_exception!(
    staunton,
    SnapshotMismatch,
    PyAssertionError,
    "A diagram does not match its snapshot, or has none yet (a test failure, not a bad input)."
);

/// Every render shares one renderer and its caches (it is `Sync`: the service shares one
/// between its workers).
fn renderer() -> &'static Renderer {
    static RENDERER: OnceLock<Renderer> = OnceLock::new();
    RENDERER.get_or_init(Renderer::default)
}

/// What a call into the crate can fail with, carried out of the GIL-free section.
enum Failure {
    Request(RequestError),
    Render(CrateRenderError),
    Snapshot(SnapshotError),
    Panic(String),
}

impl From<RequestError> for Failure {
    fn from(e: RequestError) -> Failure {
        Failure::Request(e)
    }
}

impl From<CrateRenderError> for Failure {
    fn from(e: CrateRenderError) -> Failure {
        Failure::Render(e)
    }
}

/// The Python exception of a failure: the class follows the parameter at fault, the
/// message is the crate's sentence unchanged, and `param` names the parameter.
fn to_py(py: Python<'_>, failure: Failure) -> PyErr {
    let (error, param) = match failure {
        Failure::Request(e) => {
            let message = e.to_string();
            let error = match e.param {
                "fen" => FenError::new_err(message),
                "pgn" | "moves" | "ply" | "move" | "from" | "to" => PgnError::new_err(message),
                _ => OptionError::new_err(message),
            };
            (error, Some(e.param))
        }
        Failure::Render(e @ CrateRenderError::UnknownPieceSet(..)) => {
            (OptionError::new_err(e.to_string()), Some("pieces"))
        }
        Failure::Render(e) => (RenderError::new_err(e.to_string()), None),
        Failure::Snapshot(
            e @ (SnapshotError::Mismatch(_)
            | SnapshotError::SizeDiffers { .. }
            | SnapshotError::Missing { .. }),
        ) => (SnapshotMismatch::new_err(e.to_string()), None),
        Failure::Snapshot(SnapshotError::Render { error, .. }) => {
            return to_py(py, Failure::Render(error));
        }
        Failure::Snapshot(e) => (StauntonError::new_err(e.to_string()), None),
        Failure::Panic(why) => (
            RenderError::new_err(format!("internal error in the renderer: {why}")),
            None,
        ),
    };
    // An attribute that cannot be set leaves the exception as it is: the message is the point.
    let _ = error.value(py).setattr("param", param);
    error
}

/// Run `work` without the GIL (other Python threads run meanwhile), turning a panic into
/// an error: no input may take the interpreter down or surface as a `PanicException`.
fn run<T: Send>(py: Python<'_>, work: impl FnOnce() -> Result<T, Failure> + Send) -> PyResult<T> {
    py.detach(|| {
        catch_unwind(AssertUnwindSafe(work)).unwrap_or_else(|panic| {
            let why = panic
                .downcast_ref::<&str>()
                .map(|s| s.to_string())
                .or_else(|| panic.downcast_ref::<String>().cloned())
                .unwrap_or_else(|| "a panic".to_string());
            Err(Failure::Panic(why))
        })
    })
    .map_err(|f| to_py(py, f))
}

/// Limits of the service, except that a game may be as long as it is (as the command line
/// allows for a PGN file): a local caller has no URL to keep short.
fn limits(pairs: &[(String, String)], body: Option<&str>) -> Limits {
    let longest = pairs
        .iter()
        .filter(|(k, _)| k == "pgn" || k == "moves")
        .map(|(_, v)| v.len())
        .chain(body.map(str::len))
        .max()
        .unwrap_or(0);
    let defaults = Limits::default();
    Limits {
        pgn_bytes: defaults.pgn_bytes.max(longest),
        ..defaults
    }
}

fn format_named(name: &str) -> PyResult<Format> {
    Format::from_extension(name)
        .ok_or_else(|| PyValueError::new_err(format!("no format named {name:?}")))
}

/// Render the diagram of the query `pairs` in `format` (png, svg, pdf, webp, gif, txt).
#[pyfunction]
fn render<'py>(
    py: Python<'py>,
    pairs: Vec<(String, String)>,
    format: &str,
) -> PyResult<Bound<'py, PyBytes>> {
    let format = format_named(format)?;
    let bytes = run(py, || {
        let limits = limits(&pairs, None);
        let request = Request::from_pairs_with(pairs, Some(format), &limits)?;
        Ok(renderer().render(&request.position, &request.options, request.format)?)
    })?;
    Ok(PyBytes::new(py, &bytes))
}

/// Render a whole game as an animation, `kind` `gif` or `apng`: the game is `pgn` (the
/// text of a PGN), or `pairs` name it (`moves`).
#[pyfunction]
#[pyo3(signature = (pairs, pgn, kind))]
fn render_game<'py>(
    py: Python<'py>,
    pairs: Vec<(String, String)>,
    pgn: Option<String>,
    kind: &str,
) -> PyResult<Bound<'py, PyBytes>> {
    let gif = match kind {
        "gif" => true,
        "apng" => false,
        _ => return Err(PyValueError::new_err(format!("no animation kind {kind:?}"))),
    };
    let bytes = run(py, || {
        let limits = limits(&pairs, pgn.as_deref());
        let game = GameRequest::from_pairs_with(pairs, pgn.as_deref(), kind, &limits)?;
        let frames = game.frames();
        let r = renderer();
        Ok(match gif {
            true => staunton::render::animate::gif(r, &frames, game.looped)?,
            false => staunton::render::animate::apng(r, &frames, game.looped)?,
        })
    })?;
    Ok(PyBytes::new(py, &bytes))
}

/// What `/describe` says of the query `pairs`, and the game's length in plies when the
/// query names a game.
#[pyfunction]
fn describe(py: Python<'_>, pairs: Vec<(String, String)>) -> PyResult<(String, Option<usize>)> {
    run(py, || {
        let limits = limits(&pairs, None);
        let described = Request::described(&Query::from_pairs(pairs), &limits)?;
        Ok((described.text(), described.plies))
    })
}

/// Compare the diagram of the query `pairs` with snapshot `name` in `dir` (`DIR/NAME.png`)
/// as the crate's `Snapshots` does: pixels within `channel` per channel, at most `pixels`
/// over it; `update` writes the snapshot when it is missing or differs (`None`: as
/// `STAUNTON_UPDATE_SNAPSHOTS` says). Returns what happened, and whether a file was written.
#[pyfunction]
#[pyo3(signature = (pairs, dir, name, update, channel, pixels))]
fn snapshot(
    py: Python<'_>,
    pairs: Vec<(String, String)>,
    dir: std::path::PathBuf,
    name: String,
    update: Option<bool>,
    channel: u8,
    pixels: u64,
) -> PyResult<(String, bool)> {
    run(py, || {
        let limits = limits(&pairs, None);
        let request = Request::from_pairs_with(pairs, Some(Format::Png), &limits)?;
        let mut snapshots = Snapshots::new(dir).tolerance(Tolerance { channel, pixels });
        if let Some(update) = update {
            snapshots = snapshots.update(update);
        }
        let outcome = snapshots
            .check_with(renderer(), &name, &request.position, &request.options)
            .map_err(Failure::Snapshot)?;
        let written = matches!(outcome, staunton::snapshot::Outcome::Written { .. });
        Ok((outcome.to_string(), written))
    })
}

/// The parameters: `(canonical name, spellings, "image" or "game")` for each, so the
/// Python side can refuse a misspelt keyword instead of ignoring it as the service does.
#[pyfunction]
fn parameters() -> Vec<(&'static str, Vec<&'static str>, &'static str)> {
    let image = PARAMS.iter().map(|p| (p, "image"));
    let game = GAME_PARAMS.iter().map(|p| (p, "game"));
    image
        .chain(game)
        .map(|(p, kind)| (p.name, p.spellings.to_vec(), kind))
        .collect()
}

/// Add a folder of fonts that free text (captions, card titles, players' names) falls back
/// on for characters DejaVu Sans lacks, e.g. Japanese (`--fonts DIR` of the command line).
/// Once per process; returns the files' names. A folder that cannot be used is a
/// `ValueError` naming it (an `OSError` would hide the sentence's reason).
#[pyfunction]
fn add_fonts(py: Python<'_>, dir: std::path::PathBuf) -> PyResult<Vec<String>> {
    py.detach(|| staunton::render::add_fonts(&dir))
        .map_err(|e| StauntonError::new_err(e.to_string()))
}

/// The package's version.
const VERSION: &str = env!("CARGO_PKG_VERSION");

#[pymodule]
fn _native(m: &Bound<'_, PyModule>) -> PyResult<()> {
    let py = m.py();
    m.add_function(wrap_pyfunction!(render, m)?)?;
    m.add_function(wrap_pyfunction!(render_game, m)?)?;
    m.add_function(wrap_pyfunction!(describe, m)?)?;
    m.add_function(wrap_pyfunction!(parameters, m)?)?;
    m.add_function(wrap_pyfunction!(snapshot, m)?)?;
    m.add_function(wrap_pyfunction!(add_fonts, m)?)?;
    m.add("SnapshotMismatch", py.get_type::<SnapshotMismatch>())?;
    m.add("StauntonError", py.get_type::<StauntonError>())?;
    m.add("FenError", py.get_type::<FenError>())?;
    m.add("PgnError", py.get_type::<PgnError>())?;
    m.add("OptionError", py.get_type::<OptionError>())?;
    m.add("RenderError", py.get_type::<RenderError>())?;
    m.add("__version__", VERSION)?;
    Ok(())
}
