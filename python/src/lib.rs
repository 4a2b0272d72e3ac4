//! `staunton._native`: the crate's renderer for Python. The Python side (`staunton/__init__.py`)
//! turns keyword arguments into the service's query pairs; this module hands them to the
//! crate's one door for embedders (`staunton::embed`: the request parser, the limits, the
//! price, the renderer), so every option of the service works here and every error is the
//! sentence the service answers with a 400. It only marshals: failures become exceptions.

use pyo3::create_exception;
use pyo3::exceptions::{PyAssertionError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::PyBytes;
use staunton::Format;
use staunton::embed::{self, Failure, FailureKind};
use staunton::snapshot::{Snapshots, Tolerance};
use std::panic::{AssertUnwindSafe, catch_unwind};

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

/// The Python exception of a failure: the class follows the parameter at fault, the
/// message is the crate's sentence unchanged, and `param` names the parameter.
fn to_py(py: Python<'_>, failure: Failure) -> PyErr {
    let Failure {
        param,
        sentence,
        kind,
        ..
    } = failure;
    let error = match kind {
        FailureKind::Input => match param {
            "fen" => FenError::new_err(sentence),
            "pgn" | "moves" | "ply" | "move" | "from" | "to" => PgnError::new_err(sentence),
            _ => OptionError::new_err(sentence),
        },
        FailureKind::Mismatch => SnapshotMismatch::new_err(sentence),
        FailureKind::Render => RenderError::new_err(sentence),
        _ => StauntonError::new_err(sentence),
    };
    let param = (!param.is_empty()).then_some(param);
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
            Err(Failure::internal(&why))
        })
    })
    .map_err(|f| to_py(py, f))
}

/// Render the diagram of the query `pairs` in `format` (a name of the crate's format table).
#[pyfunction]
fn render<'py>(
    py: Python<'py>,
    pairs: Vec<(String, String)>,
    format: &str,
) -> PyResult<Bound<'py, PyBytes>> {
    let bytes = run(py, || embed::render(pairs, format))?;
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
    let bytes = run(py, || embed::render_game(pairs, pgn.as_deref(), kind))?;
    Ok(PyBytes::new(py, &bytes))
}

/// What `/describe` says of the query `pairs`, and the game's length in plies when the
/// query names a game.
#[pyfunction]
fn describe(py: Python<'_>, pairs: Vec<(String, String)>) -> PyResult<(String, Option<usize>)> {
    run(py, || embed::describe(pairs))
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
        let request = embed::request(pairs, Some(Format::Png))?;
        let mut snapshots = Snapshots::new(dir).tolerance(Tolerance { channel, pixels });
        if let Some(update) = update {
            snapshots = snapshots.update(update);
        }
        let outcome = snapshots.check_with(
            embed::renderer(),
            &name,
            &request.position,
            &request.options,
        )?;
        let written = matches!(outcome, staunton::snapshot::Outcome::Written { .. });
        Ok((outcome.to_string(), written))
    })
}

/// The parameters: `(canonical name, spellings, "image" or "game", list separator)` for
/// each, so the Python side can refuse a misspelt keyword instead of ignoring it as the
/// service does, and join a list's items as the crate reads them.
#[pyfunction]
fn parameters() -> Vec<(
    &'static str,
    Vec<&'static str>,
    &'static str,
    Option<&'static str>,
)> {
    embed::parameters()
        .map(|(p, kind)| (p.name, p.spellings.to_vec(), kind, p.separator))
        .collect()
}

/// The canonical name of the parameter nearest `name`, a keyword no parameter has (of the
/// diagram's, and the game's when `game`): the service's "did you mean".
#[pyfunction]
fn suggestion(name: &str, game: bool) -> Option<&'static str> {
    embed::suggestion(name, game)
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

/// A dataset of labelled training images (`staunton.Dataset`): image `i` made on demand
/// from the seed and `i` alone.
#[pyclass(module = "staunton._native", frozen)]
struct Dataset {
    inner: staunton::dataset::Dataset,
}

/// A dataset's failure as the exception of its parameter.
fn dataset_error(error: staunton::dataset::DatasetError) -> PyErr {
    use staunton::dataset::DatasetError;
    let param = match &error {
        DatasetError::Input { param, .. } => Some(*param),
        DatasetError::Variety(_) => Some("vary"),
        _ => None,
    };
    let error = match param {
        Some(_) => OptionError::new_err(error.to_string()),
        None => RenderError::new_err(error.to_string()),
    };
    Python::attach(|py| {
        let _ = error.value(py).setattr("param", param);
    });
    error
}

#[pymethods]
impl Dataset {
    /// The dataset of `seed`, its variety full (or plain) with `vary`'s parts set, its
    /// positions from `positions` (a file) or random play, with the sets of `pieces_dir`
    /// and the pictures of `backgrounds`. Every file is read here, before any image.
    #[new]
    #[pyo3(signature = (seed, vary, plain, positions=None, pieces_dir=None, backgrounds=None))]
    fn new(
        py: Python<'_>,
        seed: u64,
        vary: Vec<(String, String)>,
        plain: bool,
        positions: Option<std::path::PathBuf>,
        pieces_dir: Option<std::path::PathBuf>,
        backgrounds: Option<std::path::PathBuf>,
    ) -> PyResult<Dataset> {
        use staunton::dataset::{Settings, Variety, sources};
        py.detach(|| {
            let mut variety = if plain { Variety::plain() } else { Variety::full() };
            variety.set_all(vary.iter().map(|(k, v)| (k.as_str(), v.as_str())))?;
            let settings = Settings {
                seed,
                variety,
                positions: positions.as_deref().map(sources::positions).transpose()?.map(std::sync::Arc::new),
                piece_sets: pieces_dir.as_deref().map(sources::piece_sets).transpose()?,
                pictures: backgrounds.as_deref().map(sources::pictures).transpose()?.unwrap_or_default(),
            };
            staunton::dataset::Dataset::new(settings).map(|inner| Dataset { inner })
        })
        .map_err(dataset_error)
    }

    /// Image `index`: its encoded bytes (PNG or JPEG), and its labels as the JSON of its
    /// `metadata.jsonl` line.
    fn sample<'py>(&self, py: Python<'py>, index: u64) -> PyResult<(Bound<'py, PyBytes>, String)> {
        let sample = py.detach(|| catch_unwind(AssertUnwindSafe(|| self.inner.sample(index))));
        let sample = sample
            .map_err(|_| RenderError::new_err("the image could not be made (an internal error)"))?
            .map_err(dataset_error)?;
        Ok((PyBytes::new(py, &sample.image), sample.labels.to_json().to_string()))
    }
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
    m.add_function(wrap_pyfunction!(suggestion, m)?)?;
    m.add_function(wrap_pyfunction!(snapshot, m)?)?;
    m.add_function(wrap_pyfunction!(add_fonts, m)?)?;
    m.add_class::<Dataset>()?;
    m.add("SnapshotMismatch", py.get_type::<SnapshotMismatch>())?;
    m.add("StauntonError", py.get_type::<StauntonError>())?;
    m.add("FenError", py.get_type::<FenError>())?;
    m.add("PgnError", py.get_type::<PgnError>())?;
    m.add("OptionError", py.get_type::<OptionError>())?;
    m.add("RenderError", py.get_type::<RenderError>())?;
    m.add("__version__", VERSION)?;
    Ok(())
}
