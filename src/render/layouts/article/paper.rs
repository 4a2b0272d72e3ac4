//! The pages drawn: as a tagged PDF (`layouts::tagged_pdf`: text as text in embedded
//! DejaVu, diagrams as vector XObjects with alternative text) or as one SVG (text as
//! outlines, diagrams nested).

use super::Article;
use super::pages::{self, Item};
use crate::chess::describe::describe_in;
use crate::render::Renderer;
use crate::render::ground::RenderError;
use crate::render::ground::pdf_tags::About;
use crate::render::layouts::page_text::PageText;
use crate::render::layouts::tagged_pdf::{TaggedPdf, TextKind};
use std::fmt::Write as _;

/// What a run of text on page `p` is: the title's lines (first page, title size) a
/// heading, page numbers and running titles (footer size) furniture, the rest paragraphs.
fn kind(p: usize, line: &PageText) -> TextKind {
    if p == 0 && line.size == pages::TITLE && line.bold {
        TextKind::Heading
    } else if line.size == pages::FOOTER {
        TextKind::Artifact
    } else {
        TextKind::Paragraph
    }
}

/// The article as a tagged PDF: its title a heading, each line of text a paragraph, each
/// diagram a figure whose alternative text describes its position, rules decoration.
fn write(article: &Article, renderer: &Renderer) -> Result<Vec<u8>, RenderError> {
    let title = &article.flow.header.title;
    let mut out = TaggedPdf::new(article.options.paper.points(), 1.0);
    for (p, page) in article.pages.iter().enumerate() {
        out.page();
        for item in &page.items {
            match item {
                Item::Text(line) => out.text(line, kind(p, line))?,
                Item::Diagram { n, x, y, size } => {
                    let svg = article.diagram_svg(renderer, *n, *size)?;
                    let (position, _) = article.diagram(*n, *size);
                    let alt = describe_in(position, article.options.lang);
                    out.diagram(&svg, alt, (*x, *y, *size as f32))?;
                }
                Item::Rule { x1, x2, y } => out.rule((*x1, *x2, *y)),
            }
        }
    }
    out.finish(About {
        title,
        lang: article.options.lang.code(),
    })
}

/// Space between pages in the SVG.
const PAGE_GAP: f32 = 24.0;

/// The pages as one SVG, one under the other on a grey ground.
fn svg(article: &Article, renderer: &Renderer) -> Result<String, RenderError> {
    let (w, h) = article.options.paper.points();
    let count = article.pages.len() as f32;
    let total = count * h + (count - 1.0) * PAGE_GAP;
    let mut out = String::with_capacity(256 * 1024);
    let _ = write!(
        out,
        r##"<svg xmlns="http://www.w3.org/2000/svg" width="{w}pt" height="{total}pt" viewBox="0 0 {w} {total}"><rect width="{w}" height="{total}" fill="#d8d8d8"/>"##
    );
    for (i, page) in article.pages.iter().enumerate() {
        let top = i as f32 * (h + PAGE_GAP);
        let _ = write!(
            out,
            r##"<rect y="{top}" width="{w}" height="{h}" fill="#ffffff"/>"##
        );
        for item in &page.items {
            match item {
                Item::Text(line) => line.write_svg(top, &mut out)?,
                Item::Diagram { n, x, y, size } => {
                    let svg = article.diagram_svg(renderer, *n, *size)?;
                    let (x, y) = (x.round() as u32, (top + y).round() as u32);
                    out.push_str(&crate::render::paint::svg::nested(
                        &svg,
                        &format!("d{n}-"),
                        x,
                        y,
                    ));
                }
                Item::Rule { x1, x2, y } => {
                    let _ = write!(
                        out,
                        r##"<path stroke="#000000" stroke-width="0.6" d="M{x1} {y0}H{x2}"/>"##,
                        y0 = top + y
                    );
                }
            }
        }
    }
    out.push_str("</svg>");
    Ok(out)
}

impl Article {
    /// The article as a PDF: real text, vector diagrams.
    pub fn pdf(&self, renderer: &Renderer) -> Result<Vec<u8>, RenderError> {
        write(self, renderer)
    }

    /// The article's pages as one SVG, one under the other (text as outlines).
    pub fn svg(&self, renderer: &Renderer) -> Result<String, RenderError> {
        svg(self, renderer)
    }
}
