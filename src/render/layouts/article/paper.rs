//! The pages drawn: as a PDF (text as text in embedded DejaVu, diagrams as vector
//! XObjects) or as one SVG (text as outlines, diagrams nested).

use super::Article;
use super::pages::Item;
use crate::render::art::font::TextFace;
use crate::render::art::pdf_font::Fonts;
use crate::render::layouts::page_text::PageText;
use crate::render::Renderer;
use crate::render::ground::RenderError;
use pdf_writer::{Content, Finish, Name, Pdf, Rect, Ref, TextStr};
use std::fmt::Write as _;

fn failed(e: impl std::fmt::Display) -> RenderError {
    RenderError::Encode(format!("the PDF could not be written: {e}"))
}

/// `text` in `face` drawn as filled outlines (a face whose outlines cannot be embedded, such
/// as a CFF font added with `--fonts`): `size` points, baseline at (`x`, `baseline`) in page
/// coordinates (y down), on a page `h` points tall.
fn outline(
    content: &mut Content,
    face: &TextFace,
    text: &str,
    (size, x, baseline): (f32, f32, f32),
    h: f32,
) {
    let mut last = (0.0, 0.0);
    face.outline(text, size, (x, baseline), &mut |command, points| {
        let up = |(px, py): (f32, f32)| (px, h - py);
        match (command, points) {
            ('M', [a]) => {
                let p = up(*a);
                content.move_to(p.0, p.1);
                last = *a;
            }
            ('L', [a]) => {
                let p = up(*a);
                content.line_to(p.0, p.1);
                last = *a;
            }
            ('Q', [c, e]) => {
                // A quadratic curve as the cubic that traces it.
                let third = |from: (f32, f32)| {
                    up((
                        from.0 + 2.0 / 3.0 * (c.0 - from.0),
                        from.1 + 2.0 / 3.0 * (c.1 - from.1),
                    ))
                };
                let (c1, c2, end) = (third(last), third(*e), up(*e));
                content.cubic_to(c1.0, c1.1, c2.0, c2.1, end.0, end.1);
                last = *e;
            }
            ('C', [a, b, e]) => {
                let (a, b, end) = (up(*a), up(*b), up(*e));
                content.cubic_to(a.0, a.1, b.0, b.1, end.0, end.1);
                last = *e;
            }
            ('Z', _) => {
                content.close_path();
            }
            _ => {}
        }
    });
    content.fill_nonzero();
}

/// A diagram's drawing as a PDF XObject: its objects renumbered from `next`, its root,
/// and its height over width.
fn diagram_object(svg: &str, next: &mut Ref) -> Result<(pdf_writer::Chunk, Ref, f32), RenderError> {
    let tree =
        svg2pdf::usvg::Tree::from_str(svg, &svg2pdf::usvg::Options::default()).map_err(failed)?;
    let ratio = tree.size().height() / tree.size().width();
    let (chunk, root) = svg2pdf::to_chunk(&tree, svg2pdf::ConversionOptions::default())
        .map_err(|e| failed(format!("{e:?}")))?;
    let mut renumbered = std::collections::HashMap::new();
    let chunk = chunk.renumber(|old| *renumbered.entry(old).or_insert_with(|| next.bump()));
    Ok((chunk, renumbered[&root], ratio))
}

/// Share of the size that a bold line's figurines are stroked with: DejaVu draws them as
/// thin in bold as in book, and a move in the main line would read `2.♘f3` with a light
/// knight beside heavy letters.
const FIGURINE_STROKE: f32 = 0.02;

/// The chess figurines (U+2654–U+265F).
fn is_figurine(c: char) -> bool {
    ('\u{2654}'..='\u{265f}').contains(&c)
}

/// One line of text: real text in its faces (a bold line's figurines stroked heavier), or
/// outlines for a face that cannot be embedded.
fn show_line(
    content: &mut Content,
    fonts: &mut Fonts,
    line: &PageText,
    h: f32,
) -> Result<(), RenderError> {
    let (size, mut pen) = (line.size, line.x);
    for (f, run) in line.face()?.runs(&line.text) {
        if !f.pdf_face().embeddable() {
            outline(content, f, &run, (size, pen, line.baseline), h);
            pen += f.width(&run, size);
            continue;
        }
        // A bold line in pieces: figurines apart from the letters around them.
        let mut rest = run.as_str();
        while let Some(first) = rest.chars().next() {
            let figurines = line.bold && is_figurine(first);
            let end = rest
                .find(|c: char| (line.bold && is_figurine(c)) != figurines)
                .unwrap_or(rest.len());
            let (piece, after) = rest.split_at(end);
            let stroke = figurines.then_some(size * FIGURINE_STROKE);
            fonts.show(content, f.pdf_face(), (size, pen, h - line.baseline), piece, stroke);
            pen += f.width(piece, size);
            rest = after;
        }
    }
    Ok(())
}

/// The article as a PDF.
fn write(article: &Article, renderer: &Renderer) -> Result<Vec<u8>, RenderError> {
    let (w, h) = article.options.paper.points();
    let mut next = Ref::new(1);
    let (catalog, tree, info) = (next.bump(), next.bump(), next.bump());
    let mut pdf = Pdf::new();
    let mut fonts = Fonts::default();
    // Contents first (they decide which glyphs each font needs), then the pages.
    let mut pages = Vec::with_capacity(article.pages.len());
    for page in &article.pages {
        let mut content = Content::new();
        let mut objects = Vec::new();
        for item in &page.items {
            match item {
                Item::Text(line) => show_line(&mut content, &mut fonts, line, h)?,
                Item::Diagram { n, x, y, size } => {
                    let svg = article.diagram_svg(renderer, *n, *size)?;
                    let (chunk, root, ratio) = diagram_object(&svg, &mut next)?;
                    let (dw, dh) = (*size as f32, *size as f32 * ratio);
                    let name = format!("D{n}");
                    content
                        .save_state()
                        .transform([dw, 0.0, 0.0, dh, *x, h - y - dh])
                        .x_object(Name(name.as_bytes()))
                        .restore_state();
                    objects.push((name, root));
                    pdf.extend(&chunk);
                }
                Item::Rule { x1, x2, y } => {
                    content
                        .set_line_width(0.6)
                        .move_to(*x1, h - y)
                        .line_to(*x2, h - y)
                        .stroke();
                }
            }
        }
        pages.push((content.finish(), objects));
    }
    let font_refs: Vec<Ref> = (0..fonts.count()).map(|_| next.bump()).collect();
    let mut kids = Vec::with_capacity(pages.len());
    for (content, objects) in pages {
        let (page_ref, content_ref) = (next.bump(), next.bump());
        kids.push(page_ref);
        pdf.stream(content_ref, &content);
        let mut page = pdf.page(page_ref);
        page.media_box(Rect::new(0.0, 0.0, w, h))
            .parent(tree)
            .contents(content_ref);
        let mut resources = page.resources();
        let mut xobjects = resources.x_objects();
        for (name, root) in &objects {
            xobjects.pair(Name(name.as_bytes()), *root);
        }
        xobjects.finish();
        fonts.resources(&mut resources.fonts(), &font_refs);
        resources.finish();
        page.finish();
    }
    fonts
        .write(&mut pdf, &font_refs, &mut next)
        .map_err(failed)?;
    let title = &article.flow.header.title;
    pdf.document_info(info)
        .title(TextStr(title))
        .creator(TextStr("Staunton"));
    pdf.catalog(catalog)
        .pages(tree)
        .lang(TextStr(article.options.lang.code()));
    pdf.pages(tree).count(kids.len() as i32).kids(kids);
    Ok(crate::render::encode::convert::sorted_references(
        pdf.finish(),
    ))
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
