//! The diagram in other encodings: a vector PDF of its SVG (svg2pdf), and lossless WebP
//! and a still GIF of the pixels its PNG holds.

use crate::render::lzw::Lzw;
use crate::render::{Indexed, RenderError};

/// A one-page PDF of `svg`, `dpi` pixels to the inch (72: 1 px = 1 pt). Everything stays
/// vector: pieces, squares, marks and labels are paths (labels are glyph outlines).
pub fn pdf(svg: &str, dpi: u16) -> Result<Vec<u8>, RenderError> {
    let failed = |e: String| RenderError::Encode(format!("the PDF could not be written: {e}"));
    let tree = svg2pdf::usvg::Tree::from_str(svg, &svg2pdf::usvg::Options::default())
        .map_err(|e| failed(e.to_string()))?;
    let page = svg2pdf::PageOptions {
        dpi: f32::from(dpi.max(1)),
    };
    svg2pdf::to_pdf(&tree, svg2pdf::ConversionOptions::default(), page)
        .map_err(|e| failed(format!("{e:?}")))
}

/// One PDF of several pages, each the drawing of one SVG document scaled to `page` (width
/// and height in points). Everything stays vector, as in [`pdf`].
pub fn pdf_pages(svgs: &[String], page: (f32, f32)) -> Result<Vec<u8>, RenderError> {
    use pdf_writer::{Content, Finish, Name, Pdf, Rect, Ref};
    let failed = |e: String| RenderError::Encode(format!("the PDF could not be written: {e}"));
    let mut next = Ref::new(1);
    let catalog = next.bump();
    let tree = next.bump();
    let mut pdf = Pdf::new();
    let mut kids = Vec::with_capacity(svgs.len());
    for svg in svgs {
        let parsed = svg2pdf::usvg::Tree::from_str(svg, &svg2pdf::usvg::Options::default())
            .map_err(|e| failed(e.to_string()))?;
        let (chunk, root) = svg2pdf::to_chunk(&parsed, svg2pdf::ConversionOptions::default())
            .map_err(|e| failed(format!("{e:?}")))?;
        let mut renumbered = std::collections::HashMap::new();
        let chunk = chunk.renumber(|old| *renumbered.entry(old).or_insert_with(|| next.bump()));
        let root = renumbered[&root];
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
    Ok(pdf.finish())
}

/// The pixels of `image` as RGB triplets, row by row.
fn rgb(image: &Indexed) -> Vec<u8> {
    let p = &image.palette;
    image
        .indices
        .iter()
        .flat_map(|&i| {
            let at = 3 * usize::from(i);
            [p[at], p[at + 1], p[at + 2]]
        })
        .collect()
}

/// `image` as a lossless WebP (the `image` crate's encoder).
pub fn webp(image: &Indexed) -> Result<Vec<u8>, RenderError> {
    let mut out = Vec::new();
    image::codecs::webp::WebPEncoder::new_lossless(&mut out)
        .encode(
            &rgb(image),
            image.width,
            image.height,
            image::ExtendedColorType::Rgb8,
        )
        .map_err(|e| RenderError::Encode(format!("the WebP could not be written: {e}")))?;
    Ok(out)
}

/// `image` as a still GIF with its palette (our LZW).
pub fn gif(image: &Indexed) -> Result<Vec<u8>, RenderError> {
    let failed = |_| RenderError::Encode("the GIF could not be written".to_string());
    let mut palette = image.palette.clone();
    palette.resize(3 * 256, 0);
    let (w, h) = (image.width as u16, image.height as u16);
    let mut data = Vec::with_capacity(image.indices.len() / 8);
    Lzw::default().encode(&image.indices, &mut data);
    let mut encoder = gif::Encoder::new(Vec::new(), w, h, &palette).map_err(failed)?;
    let frame = gif::Frame {
        width: w,
        height: h,
        buffer: std::borrow::Cow::Owned(data),
        ..gif::Frame::default()
    };
    encoder
        .write_lzw_pre_encoded_frame(&frame)
        .map_err(failed)?;
    encoder.into_inner().map_err(failed)
}
