//! The flow as one self-contained HTML page: no file beside it, no script, no web font.
//! Each diagram is inline SVG with alt text (`role="img"` and `aria-label`, the position
//! in words); the text reflows, in one or two columns.

use super::Article;
use super::flow::{Block, Word};
use crate::render::Renderer;
use crate::render::ground::RenderError;
use std::fmt::Write as _;

/// Escape text for HTML text and attribute values.
fn escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

const STYLE: &str = "body{margin:0;background:#fff;color:#111;font:16px/1.55 'DejaVu Sans',Verdana,sans-serif}\
article{max-width:46em;margin:2em auto;padding:0 1em}\
h1{font-size:1.5em;margin:0 0 .2em}header p{margin:0;color:#333}\
header{border-bottom:1px solid #111;padding-bottom:.6em;margin-bottom:1em}\
.columns{column-count:2;column-gap:2em}\
p{margin:0 0 .45em}p.v1{margin-left:1.5em;font-size:.92em}\
b{font-weight:700}\
figure{margin:.8em 0;text-align:center;break-inside:avoid}\
figure svg{max-width:100%;height:auto}\
figcaption{font-size:.9em}.fen{font-size:.7em;color:#444;overflow-wrap:anywhere}";

fn words(out: &mut String, words: &[Word]) {
    for (i, word) in words.iter().enumerate() {
        if i > 0 {
            out.push(' ');
        }
        for piece in word {
            match piece.bold {
                true => {
                    let _ = write!(out, "<b>{}</b>", escape(&piece.text));
                }
                false => out.push_str(&escape(&piece.text)),
            }
        }
    }
}

fn figure(
    out: &mut String,
    article: &Article,
    renderer: &Renderer,
    n: usize,
) -> Result<(), RenderError> {
    crate::render::cancel::check()?;
    let d = &article.flow.diagrams[n];
    let size = if d.in_variation {
        article.options.size * 3 / 4
    } else {
        article.options.size
    };
    let (position, options) = article.diagram(n, size);
    let svg = renderer.svg(position, &options)?;
    let label = crate::chess::describe::describe_in(position, article.options.lang);
    // Ids prefixed per diagram: several SVGs share the page's id space.
    let nested = crate::render::paint::svg::nested(&svg, &format!("d{n}-"), 0, 0);
    let _ = write!(
        out,
        r#"<figure id="diagram-{}"><div role="img" aria-label="{}">{}</div><figcaption>{}</figcaption>"#,
        n + 1,
        escape(&label),
        nested.replacen("<svg ", r#"<svg aria-hidden="true" "#, 1),
        escape(&d.caption)
    );
    if article.options.fen {
        let _ = write!(
            out,
            r#"<p class="fen">{}</p>"#,
            escape(&d.position.to_string())
        );
    }
    out.push_str("</figure>");
    Ok(())
}

/// The article as HTML.
fn write(article: &Article, renderer: &Renderer) -> Result<String, RenderError> {
    let flow = &article.flow;
    let mut out = String::with_capacity(128 * 1024);
    let _ = write!(
        out,
        r#"<!DOCTYPE html><html lang="{}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><meta name="generator" content="Staunton"><title>{}</title><style>{STYLE}</style></head><body><article><header><h1>{}</h1>"#,
        article.options.lang.code(),
        escape(&flow.header.title),
        escape(&flow.header.title)
    );
    for line in &flow.header.lines {
        let _ = write!(out, "<p>{}</p>", escape(line));
    }
    out.push_str("</header>");
    let class = if article.options.columns > 1 {
        "columns"
    } else {
        "game"
    };
    let _ = write!(out, r#"<div class="{class}">"#);
    for block in &flow.blocks {
        match block {
            Block::Para { depth, words: w } => {
                let _ = write!(out, r#"<p class="v{}">"#, depth.min(&1));
                words(&mut out, w);
                out.push_str("</p>");
            }
            Block::Diagram(n) => figure(&mut out, article, renderer, *n)?,
        }
    }
    out.push_str("</div></article></body></html>\n");
    Ok(out)
}

impl Article {
    /// The article as one self-contained HTML page (inline SVG diagrams with alt text).
    pub fn html(&self, renderer: &Renderer) -> Result<String, RenderError> {
        write(self, renderer)
    }
}
