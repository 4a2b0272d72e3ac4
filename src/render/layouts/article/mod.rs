//! Articles: an annotated game typeset for print. The header from the tags, the moves in
//! figurines or the reader's piece letters, comments, variations (indented, deeper ones
//! in brackets), NAG glyphs, and a diagram wherever the game marks one, captioned.
//!
//! The pipeline, one file each: `flow` turns the game into blocks (paragraphs of words,
//! diagrams); `pages` sets them on paper; `paper` draws the pages as a PDF with real text
//! (`render::art::pdf_font`) and vector diagrams, or as one SVG; `html` writes the flow as
//! one self-contained HTML page that reflows.

pub mod flow;
mod html;
pub mod pages;
mod paper;

use crate::chess::annotated::Annotated;
use crate::chess::describe::Lang;
use crate::render::art::font::TextFace;
use crate::render::layouts::sheet::Paper;
use crate::render::spec::options::{CommentMarks, LastMove, RenderOptions};
use crate::render::Renderer;
use crate::render::ground::RenderError;

/// How moves are printed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum Notation {
    /// Figurines (`♘f3`): the same in every language.
    #[default]
    Figurine,
    /// The piece letters of the article's language (`Sf3` in German).
    Letters,
}

/// What a run of text costs to set and write, in `render::spec::cost` units.
const TEXT_UNITS: u64 = 200;

/// Most diagrams in one article.
pub const MAX_DIAGRAMS: usize = 64;
/// Diagram widths allowed, in points.
pub const SIZE_RANGE: std::ops::RangeInclusive<u32> = 96..=480;

/// What an article looks like.
#[derive(Debug, Clone, PartialEq)]
pub struct ArticleOptions {
    /// The paper.
    pub paper: Paper,
    /// One or two columns.
    pub columns: u8,
    /// A main-line diagram's width in points (at most the column's); variations' are ¾.
    pub size: u32,
    /// A diagram after every N plies of the main line, besides the game's markers.
    pub every: Option<u32>,
    /// A diagram of the final position (unless the last move has one already).
    pub at_end: bool,
    /// Whether the game's diagram markers (`{[#]}`, `[D]`, `$201`, …) are followed.
    pub markers: bool,
    /// The FEN under each diagram.
    pub fen: bool,
    /// Figurines or letters.
    pub notation: Notation,
    /// The language of captions and (with [`Notation::Letters`]) piece letters.
    pub lang: Lang,
    /// How every diagram is drawn (theme, pieces, coordinates, orientation); its size,
    /// last move and marks are the article's.
    pub diagram: RenderOptions,
}

impl Default for ArticleOptions {
    fn default() -> Self {
        ArticleOptions {
            paper: Paper::A4,
            columns: 1,
            size: 216,
            every: None,
            at_end: false,
            markers: true,
            fen: false,
            notation: Notation::Figurine,
            lang: Lang::En,
            diagram: RenderOptions::default(),
        }
    }
}

/// An article, laid out.
#[derive(Debug)]
pub struct Article {
    /// The blocks.
    pub flow: flow::Flow,
    /// The diagrams' comment marks, by diagram.
    marks: Vec<CommentMarks>,
    /// The pages (PDF and SVG).
    pub pages: Vec<pages::Page>,
    /// How it looks.
    pub options: ArticleOptions,
}

fn face(bold: bool) -> Result<&'static TextFace, RenderError> {
    TextFace::builtin(bold)
        .ok_or_else(|| RenderError::Encode("the built-in font could not be read".into()))
}

impl Article {
    /// Lay out `game`; `marks` reads a diagram's `[%…]` commands (the service has checked
    /// them). Fails only when a render is cancelled or the font is unreadable.
    pub fn new(
        renderer: &Renderer,
        game: &Annotated,
        options: ArticleOptions,
        marks: &dyn Fn(&[String]) -> CommentMarks,
    ) -> Result<Article, RenderError> {
        let flow = flow::flow(game, &options);
        let marks: Vec<CommentMarks> = flow.diagrams.iter().map(|d| marks(&d.commands)).collect();
        let mut article = Article {
            flow,
            marks,
            pages: Vec::new(),
            options,
        };
        let height = |n: usize, size: u32| {
            let (position, options) = article.diagram(n, size);
            let scene = renderer.layout(position, &options);
            scene.height as f32
        };
        let pages = pages::set(&article.flow, &article.options, &height)?;
        article.pages = pages;
        Ok(article)
    }

    /// Diagram `n`'s position and the options it is drawn with at `size`.
    pub fn diagram(
        &self,
        n: usize,
        size: u32,
    ) -> (&crate::chess::position::Position, RenderOptions) {
        let d = &self.flow.diagrams[n];
        let mut options = RenderOptions {
            size,
            last_move: d.last_move.map(|(from, to)| LastMove {
                from: Some(from),
                to,
                piece: None,
            }),
            lang: self.options.lang,
            ..self.options.diagram.clone()
        };
        self.marks[n].apply(&mut options);
        (&d.position, options)
    }

    /// The estimated cost of drawing it, in `render::spec::cost` units: each diagram as a PDF
    /// diagram costs, and each run of text as a small diagram's label.
    pub fn units(&self) -> u64 {
        let mut units = 0u64;
        for item in self.pages.iter().flat_map(|p| &p.items) {
            units += match item {
                pages::Item::Diagram { n, size, .. } => {
                    let (_, options) = self.diagram(*n, *size);
                    crate::render::spec::cost::diagram(
                        &options,
                        crate::render::spec::options::Format::Pdf,
                    )
                }
                _ => TEXT_UNITS,
            };
        }
        units
    }

    /// The article as a PDF: real text, vector diagrams.
    pub fn pdf(&self, renderer: &Renderer) -> Result<Vec<u8>, RenderError> {
        paper::write(self, renderer)
    }

    /// The article's pages as one SVG, one under the other (text as outlines).
    pub fn svg(&self, renderer: &Renderer) -> Result<String, RenderError> {
        paper::svg(self, renderer)
    }

    /// The article as one self-contained HTML page (inline SVG diagrams with alt text).
    pub fn html(&self, renderer: &Renderer) -> Result<String, RenderError> {
        html::write(self, renderer)
    }
}
