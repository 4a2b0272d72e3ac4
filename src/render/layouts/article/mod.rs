//! Articles: an annotated game typeset for print. The header from the tags, the moves in
//! figurines or the reader's piece letters, comments, variations (indented, deeper ones
//! in brackets), NAG glyphs, and a diagram wherever the game marks one, captioned.
//!
//! The pipeline, one file each: `flow` turns the game into blocks (paragraphs of words,
//! diagrams); `pages` sets them on paper; `paper` draws the pages as a PDF with real text
//! (`render::art::pdf_font`) and vector diagrams, or as one SVG; `html` writes the flow as
//! one self-contained HTML page that reflows. `options` is what they all read. Each output's
//! method ([`Article::pdf`], [`Article::svg`], [`Article::html`]) is written beside its
//! writer, so the writers read the article and nothing reads back.

pub mod flow;
mod html;
mod options;
pub mod pages;
mod paper;

pub use options::{ArticleOptions, MAX_DIAGRAMS, Notation, SIZE_RANGE};

use crate::chess::annotated::Annotated;
use crate::render::spec::cost::Glyphs;
use crate::render::spec::options::{CommentMarks, Format, LastMove, RenderOptions};
use crate::render::Renderer;
use crate::render::ground::RenderError;

/// What a run of text costs to set and write, in `render::spec::cost` units.
const TEXT_UNITS: u64 = 200;

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

    /// Diagram `n` drawn `size` wide as SVG (the render stops here when cancelled).
    fn diagram_svg(&self, renderer: &Renderer, n: usize, size: u32) -> Result<String, RenderError> {
        crate::render::cancel::check()?;
        let (position, options) = self.diagram(n, size);
        renderer.svg(position, &options)
    }

    /// The estimated cost of drawing it as `format` (PDF, SVG, or `Txt` for an HTML page,
    /// whose words are text), in `render::spec::cost` units: each diagram as a PDF diagram
    /// costs, and its text by the faces that draw it.
    pub fn units(&self, format: Format) -> u64 {
        let mut units = crate::render::spec::cost::drawn_text(self.glyphs(), format);
        for item in self.pages.iter().flat_map(|p| &p.items) {
            units += match item {
                pages::Item::Diagram { n, size, .. } => {
                    let (_, options) = self.diagram(*n, *size);
                    crate::render::spec::cost::diagram(&options, Format::Pdf)
                }
                _ => TEXT_UNITS,
            };
        }
        units
    }

    /// What its text (headers, moves, comments, captions) costs to draw, by the faces that
    /// draw it.
    pub fn glyphs(&self) -> Glyphs {
        let lines = self.pages.iter().flat_map(|p| &p.items).filter_map(|item| match item {
            pages::Item::Text(line) => Some(line),
            _ => None,
        });
        crate::render::layouts::page_text::glyphs(lines)
    }
}
