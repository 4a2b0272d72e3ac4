//! What a dataset reads from files, each checked before any image is made: the positions
//! file, a folder of piece sets and a folder of background pictures. Shared by the command
//! line and the Python package, which name the same parameters.
//!
//! Owns the reading and its errors ([`DatasetError::Input`], naming the parameter); the
//! positions' format is `positions`', the pictures' decoding `camera`'s.

use super::camera::{self, Picture};
use super::positions::{self, Given, Kind, MAX_POSITIONS_BYTES};
use super::sample::DatasetError;
use crate::render::pieces::PieceSets;
use std::io::Read as _;
use std::path::Path;
use std::sync::Arc;

fn refuse(param: &'static str, message: String) -> DatasetError {
    DatasetError::Input { param, message }
}

/// The positions of the file at `path` (`positions`).
pub fn positions(path: &Path) -> Result<Vec<Given>, DatasetError> {
    let name = path.display();
    let unreadable =
        |e: std::io::Error| refuse("positions", format!("{name}: cannot read it: {e}"));
    let file = std::fs::File::open(path).map_err(unreadable)?;
    let mut text = String::new();
    file.take(MAX_POSITIONS_BYTES + 1)
        .read_to_string(&mut text)
        .map_err(unreadable)?;
    if text.len() as u64 > MAX_POSITIONS_BYTES {
        let most = MAX_POSITIONS_BYTES >> 20;
        return Err(refuse(
            "positions",
            format!("{name}: the file is over {most} MiB, the most read"),
        ));
    }
    let kind = Kind::of(path.extension().and_then(|e| e.to_str()), &text);
    positions::read(&text, kind).map_err(|e| refuse("positions", format!("{name}: {e}")))
}

/// A hash of `given`'s positions (for a run's record: a run resumed with other positions
/// is refused).
pub fn positions_hash(given: &[Given]) -> String {
    let text = given
        .iter()
        .map(|g| g.position.to_string())
        .collect::<Vec<_>>()
        .join("\n");
    format!("{:016x}", crate::hash::fnv1a(text.bytes()))
}

/// The built-in sets and every set of `dir` (`pieces_dir`): a set that does not load, or
/// a folder with none, is an error.
pub fn piece_sets(dir: &Path) -> Result<PieceSets, DatasetError> {
    let (sets, problems) = PieceSets::with_dir(dir);
    if let Some(problem) = problems.first() {
        return Err(refuse(
            "pieces_dir",
            format!("{}: {problem}", dir.display()),
        ));
    }
    if sets.names().count() == PieceSets::builtin().names().count() {
        return Err(refuse(
            "pieces_dir",
            format!(
                "{}: the folder holds no piece set (a set is a subfolder of wK.svg … bP.svg)",
                dir.display()
            ),
        ));
    }
    Ok(sets)
}

/// The pictures of `dir` (`backgrounds`).
pub fn pictures(dir: &Path) -> Result<Vec<Arc<Picture>>, DatasetError> {
    camera::load_pictures(dir).map_err(|e| refuse("backgrounds", e.to_string()))
}
