//! The diagram in other encodings: a vector PDF of its SVG (svg2pdf, written by
//! `ground::pdf`, which `art` also runs to vet a piece, and re-exported here), and lossless
//! WebP and a still GIF of the pixels its PNG holds.

pub use crate::render::ground::pdf::pdf;
pub use crate::render::ground::pdf_tags::About;

use crate::render::encode::lzw::Lzw;
use crate::render::ground::{Indexed, RenderError};

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
