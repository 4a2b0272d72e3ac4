//! What a rewrite is asked for ([`Settings`], [`Mode`]: what each fence becomes) and what
//! it answers ([`Report`], [`MarkdownError`]): the words `rewrite` and `emit` share.

use super::fence;
use crate::render::options::Format;
use std::path::PathBuf;

/// What a diagram fence becomes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Mode {
    /// An image file in `dir` named by a hash of the request, linked as `![alt](link/name)`.
    Images {
        /// The folder the files are written to (created when missing).
        dir: PathBuf,
        /// What the document's links start with (usually `dir` as given).
        link: String,
        /// The files' format: SVG, PNG, PDF, WebP or GIF.
        format: Format,
    },
    /// The SVG itself, on one line, its ids and classes made its own.
    Inline,
    /// `<img src="{base}/diagram.svg?…">`, for a running service.
    Url {
        /// The service's address, e.g. `https://diagrams.example.org`.
        base: String,
    },
}

/// How [`rewrite`](super::rewrite) works.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Settings {
    /// What each fence becomes.
    pub mode: Mode,
    /// Options given to every fence before its own (`--set size=300`).
    pub defaults: Vec<(String, String)>,
    /// The language of the alt text (and of an SVG's title) unless a fence says `lang`.
    pub lang: Option<String>,
    /// Put an error card in a bad fence's place and go on, instead of stopping.
    pub keep_going: bool,
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            mode: Mode::Inline,
            defaults: Vec::new(),
            lang: None,
            keep_going: false,
        }
    }
}

impl Settings {
    /// The format of the images made: the files' in [`Mode::Images`], SVG otherwise.
    pub fn format(&self) -> Format {
        match &self.mode {
            Mode::Images { format, .. } => *format,
            Mode::Inline | Mode::Url { .. } => Format::Svg,
        }
    }

    /// The defaults every fence starts from: `lang`, then [`Settings::defaults`].
    pub(super) fn fence_defaults(&self) -> Vec<(String, String)> {
        let lang = self.lang.iter().map(|l| ("lang".to_string(), l.clone()));
        lang.chain(self.defaults.iter().cloned()).collect()
    }

    /// Whether the options every fence is given (`lang`, `defaults`) are good, checked once
    /// before a rewrite so that a bad one is not blamed on the first fence.
    pub fn check(&self) -> Result<(), crate::request::RequestError> {
        self.read("fen", "start", &self.fence_defaults())
            .map(|_| ())
    }

    /// A fence read over `defaults` for this mode: for a page ([`fence::read_for_page`])
    /// inline, else as an image in the mode's format.
    pub(super) fn read(
        &self,
        info: &str,
        body: &str,
        defaults: &[(String, String)],
    ) -> Result<fence::Diagram, crate::request::RequestError> {
        match self.mode {
            Mode::Inline => fence::read_for_page(info, body, defaults),
            Mode::Images { .. } | Mode::Url { .. } => {
                fence::read(info, body, defaults, self.format())
            }
        }
    }
}

/// What a rewrite did.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Report {
    /// Diagram fences found.
    pub fences: usize,
    /// Image files written (those already there with the same bytes are left alone;
    /// anything else at an image's name is replaced).
    pub written: usize,
    /// The image files and folders this rewrite created (or replaced), in order: what
    /// [`Report::remove_created`] takes away when a later step fails.
    pub created: Vec<PathBuf>,
    /// With `keep_going`: `line N: sentence` for each fence replaced by an error card.
    pub warnings: Vec<String>,
}

impl Report {
    /// Remove the files and folders [`Report::created`] lists, the last first (a folder
    /// only when empty): for a caller whose run fails after this rewrite succeeded, so
    /// that the run leaves no images behind.
    pub fn remove_created(&self) {
        remove_created(&self.created);
    }
}

/// Remove `created` (files and folders a run made), the last first; a folder that is no
/// longer empty stays.
pub(super) fn remove_created(created: &[PathBuf]) {
    for path in created.iter().rev() {
        if path.is_dir() {
            let _ = std::fs::remove_dir(path);
        } else {
            let _ = std::fs::remove_file(path);
        }
    }
}

/// Why a rewrite stopped.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum MarkdownError {
    /// A fence that cannot be rendered: its line (1-based) and the sentence.
    #[error("line {line}: {sentence}")]
    Fence {
        /// The line of the fence's opening.
        line: usize,
        /// What is wrong, in the HTTP 400's words.
        sentence: String,
    },
    /// The output or an image file could not be written.
    #[error("{0}")]
    Io(#[from] std::io::Error),
}
