//! Encoding pixels: a tiny-skia pixmap into PNG bytes.
//!
//! Owns the PNG settings. Opaque images (every diagram) are written as 8-bit RGB, which is
//! a quarter smaller than RGBA before compression; fast deflate settings.

use resvg::tiny_skia::Pixmap;

/// Encode `pixmap` as PNG.
pub fn png(pixmap: &Pixmap) -> Result<Vec<u8>, png::EncodingError> {
    let (w, h) = (pixmap.width(), pixmap.height());
    let data = pixmap.data();
    let opaque = data.chunks_exact(4).all(|px| px[3] == 255);
    let (color, pixels) = if opaque {
        let mut rgb = Vec::with_capacity((w * h * 3) as usize);
        for px in data.chunks_exact(4) {
            rgb.extend_from_slice(&px[..3]);
        }
        (png::ColorType::Rgb, rgb)
    } else {
        let mut rgba = Vec::with_capacity(data.len());
        for px in pixmap.pixels() {
            let c = px.demultiply();
            rgba.extend_from_slice(&[c.red(), c.green(), c.blue(), c.alpha()]);
        }
        (png::ColorType::Rgba, rgba)
    };
    let mut out = Vec::with_capacity(pixels.len() / 4);
    {
        let mut encoder = png::Encoder::new(&mut out, w, h);
        encoder.set_color(color);
        encoder.set_depth(png::BitDepth::Eight);
        encoder.set_compression(png::Compression::Fast);
        let mut writer = encoder.write_header()?;
        writer.write_image_data(&pixels)?;
        writer.finish()?;
    }
    Ok(out)
}
