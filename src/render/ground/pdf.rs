//! SVG to PDF through svg2pdf: a diagram's tagged page ([`pdf`]), any SVG as a form
//! XObject ([`xobject`], what worksheets and articles place), or untagged pages
//! ([`pdf_pages`]), with the
//! name-to-object dictionaries svg2pdf writes in hash order sorted, so the same drawing
//! gives the same bytes. Below every stage because more than one runs it: `encode`
//! writes `/diagram.pdf`, `layouts` writes worksheets and articles, and `art` vets a
//! loaded piece by converting it as those do. Imports nothing of `render` but
//! [`RenderError`] and the tagging beside it (`pdf_tags`).

use crate::render::ground::RenderError;
use crate::render::ground::pdf_tags::{About, ContentRole, Tags};
use pdf_writer::{Chunk, Content, Finish, Name, Pdf, Rect, Ref};

fn failed(e: impl std::fmt::Display) -> RenderError {
    RenderError::Encode(format!("the PDF could not be written: {e}"))
}

/// The drawing of `svg` as a PDF form XObject one unit square in size (scale it to where
/// it goes): its objects numbered from `next`, its root, and the SVG's width and height.
pub fn xobject(svg: &str, next: &mut Ref) -> Result<(Chunk, Ref, (f32, f32)), RenderError> {
    let tree =
        svg2pdf::usvg::Tree::from_str(svg, &svg2pdf::usvg::Options::default()).map_err(failed)?;
    let size = (tree.size().width(), tree.size().height());
    let (chunk, root) = svg2pdf::to_chunk(&tree, svg2pdf::ConversionOptions::default())
        .map_err(|e| failed(format!("{e:?}")))?;
    let mut renumbered = std::collections::HashMap::new();
    let chunk = chunk.renumber(|old| *renumbered.entry(old).or_insert_with(|| next.bump()));
    Ok((chunk, renumbered[&root], size))
}

/// A one-page tagged PDF (PDF/UA-1) of the diagram `svg`, `dpi` pixels to the inch (72:
/// 1 px = 1 pt): the drawing is one `Figure` whose alternative text is `alt`, in a document
/// titled and in the language as `about` says. Everything stays vector: pieces, squares,
/// marks and labels are paths (labels are glyph outlines).
pub fn pdf(svg: &str, dpi: u16, about: About, alt: &str) -> Result<Vec<u8>, RenderError> {
    let mut next = Ref::new(1);
    let (catalog, tree, page_ref, content_ref) = (next.bump(), next.bump(), next.bump(), next.bump());
    let (chunk, root, (w, h)) = xobject(svg, &mut next)?;
    let scale = 72.0 / f32::from(dpi.max(1));
    let (w, h) = (w * scale, h * scale);
    let mut pdf = Pdf::new();
    let mut tags = Tags::default();
    tags.page();
    let mut content = Content::new();
    tags.begin(&mut content, ContentRole::Figure(alt.to_string()));
    // The drawing at its own size (see `unscaled`), scaled by the resolution alone.
    content
        .save_state()
        .transform([scale, 0.0, 0.0, scale, 0.0, 0.0])
        .x_object(Name(b"D"))
        .restore_state();
    Tags::end(&mut content);
    pdf.stream(content_ref, &content.finish());
    let mut page = pdf.page(page_ref);
    page.media_box(Rect::new(0.0, 0.0, w, h))
        .parent(tree)
        .contents(content_ref)
        .struct_parents(0);
    page.resources().x_objects().pair(Name(b"D"), root);
    page.finish();
    pdf.extend(&chunk);
    pdf.pages(tree).count(1).kids([page_ref]);
    tags.write(&mut pdf, &mut next, &[page_ref], (catalog, tree), about);
    Ok(unscaled(sorted_references(pdf.finish()), root))
}

/// `pdf` with the form XObject `form`'s `/Matrix` (svg2pdf's scale to one unit) made the
/// identity, spaces keeping the line's length (so the cross-reference table stays right).
/// Drawn at its own size and scaled once, a diagram gives the pixels it gave when svg2pdf
/// wrote the whole page; scaled down to a unit and up again, a viewer's anti-aliasing
/// shifts at some edges (poppler: 2,935 pixels of the start position, by up to 14 of 255).
fn unscaled(mut pdf: Vec<u8>, form: Ref) -> Vec<u8> {
    let head = format!("\n{} 0 obj\n", form.get());
    let Some(start) = pdf.windows(head.len()).position(|w| w == head.as_bytes()) else {
        return pdf;
    };
    let dict_end = pdf[start..]
        .windows(7)
        .position(|w| w == b"stream\n")
        .map_or(pdf.len(), |i| start + i);
    let key = b"/Matrix [";
    let Some(at) = pdf[start..dict_end].windows(key.len()).position(|w| w == key) else {
        return pdf;
    };
    let at = start + at;
    let Some(close) = pdf[at..dict_end].iter().position(|&b| b == b']') else {
        return pdf;
    };
    let identity = b"/Matrix [1 0 0 1 0 0]";
    if close + 1 >= identity.len() {
        let span = &mut pdf[at..=at + close];
        span.fill(b' ');
        span[..identity.len()].copy_from_slice(identity);
    }
    pdf
}

/// One PDF of several pages, each the drawing of one SVG document scaled to `page` (width
/// and height in points), untagged: what a loaded piece is vetted with. Everything stays
/// vector, as in [`pdf`].
pub fn pdf_pages(svgs: &[String], page: (f32, f32)) -> Result<Vec<u8>, RenderError> {
    let mut next = Ref::new(1);
    let catalog = next.bump();
    let tree = next.bump();
    let mut pdf = Pdf::new();
    let mut kids = Vec::with_capacity(svgs.len());
    for svg in svgs {
        let (chunk, root, _) = xobject(svg, &mut next)?;
        let (page_ref, content_ref) = (next.bump(), next.bump());
        kids.push(page_ref);
        let name = Name(b"D");
        let mut content = Content::new();
        content
            .save_state()
            .transform([page.0, 0.0, 0.0, page.1, 0.0, 0.0])
            .x_object(name)
            .restore_state();
        pdf.stream(content_ref, &content.finish());
        let mut writer = pdf.page(page_ref);
        writer
            .media_box(Rect::new(0.0, 0.0, page.0, page.1))
            .parent(tree)
            .contents(content_ref);
        writer.resources().x_objects().pair(name, root);
        writer.finish();
        pdf.extend(&chunk);
    }
    pdf.catalog(catalog).pages(tree);
    pdf.pages(tree).count(kids.len() as i32).kids(kids);
    Ok(sorted_references(pdf.finish()))
}

/// `pdf` with the entries of every dictionary that only maps names to objects (a page's
/// `/ExtGState`, `/XObject`, `/Pattern` … resources) sorted by name. svg2pdf writes those
/// from a hash map, in an order that changes from run to run; sorted, the same drawing gives
/// the same bytes. Only whole lines move within their dictionary, so every object keeps its
/// length and the cross-reference table stays right. Stream data is left alone.
pub(crate) fn sorted_references(mut pdf: Vec<u8>) -> Vec<u8> {
    // `  /Name 12 0 R` on a line of its own.
    fn is_entry(line: &[u8]) -> bool {
        let text = match std::str::from_utf8(line) {
            Ok(text) => text.trim_start_matches(' '),
            Err(_) => return false,
        };
        let mut parts = text.split(' ');
        matches!(
            (parts.next(), parts.next(), parts.next(), parts.next(), parts.next()),
            (Some(name), Some(number), Some("0"), Some("R"), None)
                if name.len() > 1
                    && name.starts_with('/')
                    && name[1..].bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_')
                    && !number.is_empty()
                    && number.bytes().all(|b| b.is_ascii_digit())
        )
    }
    let mut at = 0;
    while at < pdf.len() {
        let end = pdf[at..]
            .iter()
            .position(|&b| b == b'\n')
            .map_or(pdf.len(), |i| at + i);
        let line = &pdf[at..end];
        if line.ends_with(b"stream") && !line.ends_with(b"endstream") {
            // Skip to the end of the stream's data.
            let rest = &pdf[end..];
            at = rest
                .windows(10)
                .position(|w| w == b"\nendstream")
                .map_or(pdf.len(), |i| end + i + 1);
            continue;
        }
        if line.ends_with(b"<<") {
            // A run of entry lines right after it, then its closing `>>`.
            let start = end + 1;
            let mut lines = Vec::new();
            let mut cursor = start;
            while cursor < pdf.len() {
                let stop = pdf[cursor..]
                    .iter()
                    .position(|&b| b == b'\n')
                    .map_or(pdf.len(), |i| cursor + i);
                if !is_entry(&pdf[cursor..stop]) {
                    break;
                }
                lines.push(pdf[cursor..stop].to_vec());
                cursor = stop + 1;
            }
            let indent = pdf[cursor.min(pdf.len())..]
                .iter()
                .take_while(|&&b| b == b' ')
                .count();
            let closes = pdf[(cursor + indent).min(pdf.len())..].starts_with(b">>");
            if lines.len() > 1 && closes {
                lines.sort();
                let mut sorted = Vec::with_capacity(cursor - start);
                for line in &lines {
                    sorted.extend_from_slice(line);
                    sorted.push(b'\n');
                }
                pdf[start..cursor].copy_from_slice(&sorted);
            }
        }
        at = end + 1;
    }
    pdf
}

#[cfg(test)]
mod tests {
    use super::{sorted_references, unscaled};

    #[test]
    fn the_forms_matrix_becomes_the_identity_and_nothing_moves() {
        let pdf = b"x\n5 0 obj\n<<\n  /BBox [0 0 400 400]\n  /Matrix [0.0025 0 0 0.0025 0 0]\n>>\nstream\n/Matrix [2 0 0 2 0 0]\nendstream\n".to_vec();
        let out = unscaled(pdf.clone(), pdf_writer::Ref::new(5));
        assert_eq!(out.len(), pdf.len());
        let text = String::from_utf8(out).expect("ascii");
        assert!(text.contains("  /Matrix [1 0 0 1 0 0]          \n>>"), "{text}");
        // Another object, or the stream's data, is left alone.
        assert!(text.contains("stream\n/Matrix [2 0 0 2 0 0]"), "{text}");
        let other = unscaled(pdf.clone(), pdf_writer::Ref::new(6));
        assert_eq!(other, pdf);
    }

    #[test]
    fn name_to_object_dictionaries_are_sorted_and_nothing_else_moves() {
        let pdf = b"3 0 obj\n<<\n  /ExtGState <<\n    /gs2 8 0 R\n    /gs0 6 0 R\n    /gs1 7 0 R\n  >>\n  /MediaBox [0 0 1 1]\n>>\nendobj\n4 0 obj\n<< /Length 9 >>\nstream\n  /b 1 0 R\n  /a 2 0 R\n>>\nendstream\n".to_vec();
        let sorted = sorted_references(pdf.clone());
        assert_eq!(sorted.len(), pdf.len());
        let text = String::from_utf8(sorted).expect("ascii");
        assert!(
            text.contains("<<\n    /gs0 6 0 R\n    /gs1 7 0 R\n    /gs2 8 0 R\n  >>"),
            "{text}"
        );
        // Inside a stream nothing moves.
        assert!(
            text.contains("stream\n  /b 1 0 R\n  /a 2 0 R\n>>\nendstream"),
            "{text}"
        );
    }
}
