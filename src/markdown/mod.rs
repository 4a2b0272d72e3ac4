//! Diagrams where people write: the fenced code blocks of a Markdown document rewritten
//! into images, every other byte left as it was.
//!
//! ```text
//!  document ──► pulldown-cmark (CommonMark blocks: fences in lists, quotes; not in HTML
//!               or indented code) ──► fence::read (grammar ─► Request, alt, caption)
//!            ──► emit (render each distinct request once, on every core; write files or
//!               inline SVG or a service URL) ──► the document with images in the fences' place
//! ```
//!
//! A fence is a diagram when its info string's first word is `fen`, `chess`, `chessboard`
//! or `pgn` ([`fence::INFO_WORDS`]).
//!
//! ```
//! use staunton::markdown::{rewrite, Mode, Settings};
//! use staunton::Renderer;
//!
//! let document = "# Opening\n\n```fen size=240\nstart\narrows: e2->e4\n```\n\nThe end.\n";
//! let settings = Settings { mode: Mode::Url { base: "https://example.org".into() }, ..Settings::default() };
//! let mut out = Vec::new();
//! rewrite(document, &settings, &Renderer::default(), &mut out)?;
//! let out = String::from_utf8(out).unwrap();
//! assert!(out.starts_with("# Opening\n\n<img src=\"https://example.org/diagram.svg?fen=start&amp;size=240&amp;arrows=e2e4\""));
//! assert!(out.ends_with("\n\nThe end.\n"));
//! # Ok::<(), staunton::markdown::MarkdownError>(())
//! ```

pub mod emit;
pub mod fence;

use crate::render::Renderer;
use crate::render::options::Format;
use emit::Emitter;
use fence::Diagram;
use pulldown_cmark::{CodeBlockKind, Event, Options, Parser, Tag, TagEnd};
use std::io::Write;
use std::ops::Range;
use std::path::PathBuf;

/// Fences read before their diagrams are rendered together: enough to keep both cores
/// busy, few enough that the rendered images held at once stay small.
const CHUNK: usize = 256;

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

/// How [`rewrite`] works.
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
    fn fence_defaults(&self) -> Vec<(String, String)> {
        let lang = self.lang.iter().map(|l| ("lang".to_string(), l.clone()));
        lang.chain(self.defaults.iter().cloned()).collect()
    }
}

/// What a rewrite did.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Report {
    /// Diagram fences found.
    pub fences: usize,
    /// Image files written (those already there are left alone).
    pub written: usize,
    /// With `keep_going`: `line N: sentence` for each fence replaced by an error card.
    pub warnings: Vec<String>,
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

/// A diagram fence found: where it is, its line, and what it reads as.
struct Found {
    range: Range<usize>,
    line: usize,
    diagram: Result<Diagram, String>,
}

/// Write `document` to `out` with each diagram fence replaced as `settings` say.
pub fn rewrite(
    document: &str,
    settings: &Settings,
    renderer: &Renderer,
    out: &mut dyn Write,
) -> Result<Report, MarkdownError> {
    let defaults = settings.fence_defaults();
    let mut emitter = Emitter::new(settings, renderer)?;
    let mut lines = LineCounter::default();
    let mut chunk: Vec<Found> = Vec::new();
    let mut written = 0;
    let mut open: Option<(String, Range<usize>, String)> = None;
    for (event, range) in Parser::new_ext(document, options()).into_offset_iter() {
        match event {
            Event::Start(Tag::CodeBlock(CodeBlockKind::Fenced(info)))
                if fence::is_diagram(&info) =>
            {
                open = Some((info.into_string(), range, String::new()));
            }
            Event::Text(text) => {
                if let Some((_, _, body)) = open.as_mut() {
                    body.push_str(&text);
                }
            }
            Event::End(TagEnd::CodeBlock) => {
                let Some((info, range, body)) = open.take() else {
                    continue;
                };
                let line = lines.line_at(document, range.start);
                let diagram = fence::read(&info, &body, &defaults, settings.format())
                    .map_err(|e| e.to_string());
                chunk.push(Found {
                    range,
                    line,
                    diagram,
                });
                if chunk.len() == CHUNK {
                    written = flush(document, &mut chunk, &mut emitter, written, out)?;
                }
            }
            _ => {}
        }
    }
    written = flush(document, &mut chunk, &mut emitter, written, out)?;
    out.write_all(&document.as_bytes()[written..])?;
    Ok(emitter.report())
}

/// The Markdown the fences are found in: CommonMark, with the extensions whose blocks
/// can hold or hide a fence (footnotes, front matter of static sites).
fn options() -> Options {
    Options::ENABLE_TABLES
        | Options::ENABLE_FOOTNOTES
        | Options::ENABLE_STRIKETHROUGH
        | Options::ENABLE_TASKLISTS
        | Options::ENABLE_YAML_STYLE_METADATA_BLOCKS
        | Options::ENABLE_PLUSES_DELIMITED_METADATA_BLOCKS
}

/// Render the chunk's diagrams, then write the document up to the chunk's last fence with
/// each fence replaced; returns how far the document is written.
fn flush(
    document: &str,
    chunk: &mut Vec<Found>,
    emitter: &mut Emitter,
    mut written: usize,
    out: &mut dyn Write,
) -> Result<usize, MarkdownError> {
    let diagrams: Vec<&Diagram> = chunk
        .iter()
        .filter_map(|f| f.diagram.as_ref().ok())
        .collect();
    emitter.render(&diagrams)?;
    for found in chunk.drain(..) {
        let text = emitter.replacement(found.line, &found.diagram)?;
        let original = &document[found.range.clone()];
        out.write_all(&document.as_bytes()[written..found.range.start])?;
        out.write_all(text.as_bytes())?;
        // The fence's own line ending stays: the next block starts as it did.
        let ending = ["\r\n", "\n", "\r"]
            .into_iter()
            .find(|e| original.ends_with(e));
        out.write_all(ending.unwrap_or("").as_bytes())?;
        written = found.range.end;
    }
    Ok(written)
}

/// Line numbers of byte offsets met in increasing order, counted once.
#[derive(Default)]
struct LineCounter {
    offset: usize,
    line: usize,
}

impl LineCounter {
    fn line_at(&mut self, document: &str, offset: usize) -> usize {
        let newlines = document.as_bytes()[self.offset..offset]
            .iter()
            .filter(|b| **b == b'\n')
            .count();
        self.line += newlines;
        self.offset = offset;
        self.line + 1
    }
}
