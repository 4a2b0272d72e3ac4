//! TEMPORARY: the signatures of `crate::markdown` (the contract) until it lands on main.
//! Deleted before the branch is merged.

use crate::render::Renderer;
use crate::render::options::Format;
use std::io::Write;
use std::path::PathBuf;

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Mode {
    Images {
        dir: PathBuf,
        link: String,
        format: Format,
    },
    Inline,
    Url {
        base: String,
    },
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Settings {
    pub mode: Mode,
    pub defaults: Vec<(String, String)>,
    pub lang: Option<String>,
    pub keep_going: bool,
}

#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Report {
    pub fences: usize,
    pub written: usize,
    pub warnings: Vec<String>,
}

#[derive(Debug, thiserror::Error)]
pub enum MarkdownError {
    #[error("line {line}: {sentence}")]
    Fence { line: usize, sentence: String },
    #[error("{0}")]
    Io(#[from] std::io::Error),
}

pub fn rewrite(
    document: &str,
    _settings: &Settings,
    _renderer: &Renderer,
    out: &mut dyn Write,
) -> Result<Report, MarkdownError> {
    out.write_all(document.as_bytes())?;
    Ok(Report::default())
}
