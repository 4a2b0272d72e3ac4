//! The other encodings: PDF (vector, the SVG's drawing), lossless WebP and still GIF (the
//! PNG's pixels), each decoded and compared with the PNG of the same request.

use crate::common;

use staunton::Renderer;
use staunton::render::options::Format;
use staunton::request::Request;
use staunton::snapshot::Tolerance;

const QUERY: &str = "fen=r1bqkb1r/pppp1Qpp/2n2n2/4p3/2B1P3/8/PPPP1PPP/RNB1K1NR_b_KQkq_-_0_4&lastMove=h5f7&check=auto&arrows=Gc4f7&highlight=Rh5";

fn render(query: &str, format: Format) -> Vec<u8> {
    let request = Request::from_query(query, Some(format)).expect("valid");
    Renderer::default()
        .render(&request.position, &request.options, format)
        .expect("renders")
}

#[test]
fn webp_and_gif_hold_exactly_the_png_s_pixels() {
    for query in [QUERY, "fen=start&size=240&theme=print", "fen=start&size=16"] {
        let png = common::decode(&render(query, Format::Png));
        let webp = image::load_from_memory_with_format(
            &render(query, Format::Webp),
            image::ImageFormat::WebP,
        )
        .expect("a WebP")
        .to_rgba8();
        assert_eq!(webp, png, "{query}: WebP");
        let bytes = render(query, Format::Gif);
        let mut options = gif::DecodeOptions::new();
        options.set_color_output(gif::ColorOutput::RGBA);
        let mut decoder = options.read_info(&bytes[..]).expect("a GIF");
        let frame = decoder
            .read_next_frame()
            .expect("decodes")
            .expect("a frame")
            .clone();
        assert!(
            decoder.read_next_frame().expect("decodes").is_none(),
            "one frame"
        );
        let gif = image::RgbaImage::from_raw(
            u32::from(frame.width),
            u32::from(frame.height),
            frame.buffer.to_vec(),
        )
        .expect("the frame's pixels");
        assert_eq!(gif, png, "{query}: GIF");
    }
}

/// The value of the first `/MediaBox [0 0 w h]` of a PDF.
fn media_box(pdf: &[u8]) -> (f32, f32) {
    let text = String::from_utf8_lossy(pdf);
    let at = text.find("/MediaBox [").expect("a MediaBox") + "/MediaBox [".len();
    let numbers: Vec<f32> = text[at..]
        .split(']')
        .next()
        .expect("closed")
        .split_whitespace()
        .map(|n| n.parse().expect("a number"))
        .collect();
    (numbers[2], numbers[3])
}

#[test]
fn the_pdf_is_one_vector_page_of_the_diagram_s_size() {
    let pdf = render(QUERY, Format::Pdf);
    assert!(pdf.starts_with(b"%PDF-"), "a PDF");
    assert!(
        pdf.ends_with(b"%%EOF\n") || pdf.ends_with(b"%%EOF"),
        "a whole PDF"
    );
    let text = String::from_utf8_lossy(&pdf);
    assert_eq!(
        text.matches("/Type /Page\n").count() + text.matches("/Type /Page ").count(),
        1,
        "one page"
    );
    assert_eq!(media_box(&pdf), (400.0, 400.0), "1 px = 1 pt");
    assert!(
        !text.contains("/Subtype /Image"),
        "no raster image anywhere"
    );
    let print = render("fen=start&theme=print&size=300", Format::Pdf);
    assert!(
        !String::from_utf8_lossy(&print).contains("/Subtype /Image"),
        "print: vector only"
    );
    let dense = render(&format!("{QUERY}&dpi=144"), Format::Pdf);
    assert_eq!(
        media_box(&dense),
        (200.0, 200.0),
        "dpi=144: 400 px are 200 pt"
    );
}

/// Rasterise with poppler's cairo backend (`pdftocairo`, Debian's poppler-utils), when it is
/// installed; `.ci/run` installs it and sets STAUNTON_REQUIRE_POPPLER=1, so there its absence
/// fails the test.
#[test]
fn the_pdf_rasterised_matches_the_png() {
    let have = std::process::Command::new("pdftocairo")
        .arg("-v")
        .output()
        .is_ok();
    if !have {
        assert!(
            std::env::var_os("STAUNTON_REQUIRE_POPPLER").is_none(),
            "pdftocairo is not installed (apt-get install -y poppler-utils)"
        );
        eprintln!("pdftocairo is not installed: the PDF is not rasterised here");
        return;
    }
    let dir = std::env::temp_dir().join(format!("staunton-pdf-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("scratch");
    for (name, query) in [
        ("marked", QUERY),
        (
            "print",
            "fen=r1bq1rk1/pp3ppp/3n4/2p1N3/2B5/7P/PPP2PP1/R1BQR1K1_w&theme=print&size=360",
        ),
    ] {
        let pdf = dir.join(format!("{name}.pdf"));
        std::fs::write(&pdf, render(query, Format::Pdf)).expect("written");
        let out = std::process::Command::new("pdftocairo")
            .args(["-png", "-r", "72", "-singlefile"])
            .arg(&pdf)
            .arg(dir.join(name))
            .output()
            .expect("runs");
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let raster =
            common::decode(&std::fs::read(dir.join(format!("{name}.png"))).expect("rasterised"));
        let png = common::decode(&render(query, Format::Png));
        assert_eq!(raster.dimensions(), png.dimensions(), "{name}");
        // Two rasterisers: cairo strokes piece outlines (and the print theme's hatching)
        // a little differently from tiny-skia, so edge pixels may differ more than the
        // golden tolerance; the picture must not. Pixel by pixel, 97.5 % within 8 (the
        // hatched board: each 4 × 4 block's mean, 99 %).
        let pixels = u64::from(png.width() * png.height());
        if name != "print" {
            // At most one pixel in 40 more than 8 apart, none more than 96.
            let tolerance = Tolerance {
                channel: 8,
                pixels: pixels / 40,
            };
            let diff = common::compare(&png, &raster, tolerance);
            assert!(
                diff.matches() && diff.largest <= 96,
                "{name}: {} of {pixels} pixels differ by more than 8 (max {})",
                diff.differing,
                diff.largest
            );
        }
        let blocks = |img: &image::RgbaImage| {
            image::imageops::resize(
                img,
                img.width() / 4,
                img.height() / 4,
                image::imageops::FilterType::Triangle,
            )
        };
        // At most one block in a hundred more than 8 apart.
        let tolerance = Tolerance {
            channel: 8,
            pixels: pixels / 16 / 100,
        };
        let diff = common::compare(&blocks(&png), &blocks(&raster), tolerance);
        assert!(
            diff.matches(),
            "{name}: {} of {} blocks differ by more than 8 (max {})",
            diff.differing,
            pixels / 16,
            diff.largest
        );
    }
}
