//! Worksheets: eight puzzles laid out on A4, then read back. Every page format (PNG, the
//! SVG rasterised by resvg, the PDF rasterised by poppler's pdftoppm) must show each board
//! where the layout put it, and each board, cut out square by square and matched against
//! reference tiles like the decoding test does, must be its puzzle's position.

use crate::common;

use image::RgbaImage;
use staunton::render::options::Region;
use staunton::render::sheet::{Entry, Item, Page, Sheet, SheetOptions};
use staunton::request::puzzles::{self, PuzzleFormat};
use staunton::snapshot::Tolerance;
use staunton::{Piece, Position, RenderOptions, Renderer, Square};

fn eight() -> Vec<Entry> {
    let text = std::fs::read_to_string(common::fixture("puzzles/eight.epd")).expect("fixture");
    puzzles::read(&text, PuzzleFormat::Epd, 100).expect("the fixture reads")
}

/// Reference tiles at `options`: (piece or empty, dark square?) → pixels. With a region,
/// from a region of its size in the a1 corner (which holds a1 and b1): squares as large.
pub(crate) fn references(
    renderer: &Renderer,
    options: &RenderOptions,
) -> Vec<(Option<Piece>, bool, RgbaImage)> {
    let corner = options.region.map(|r| {
        let far = Square::new(r.files().max(2) - 1, r.ranks() - 1);
        Region::new(Square::new(0, 0), far)
    });
    let options = &RenderOptions {
        region: corner,
        ..options.clone()
    };
    let mut refs = Vec::new();
    for piece in std::iter::once(None).chain(Piece::all().map(Some)) {
        let mut pos = Position::empty(8);
        pos.set(Square::new(0, 0), piece);
        pos.set(Square::new(1, 0), piece);
        let img = common::decode(&renderer.png(&pos, options).expect("renders"));
        refs.push((
            piece,
            true,
            square_at(&img, (0, 0), renderer, options, Square::new(0, 0)),
        ));
        refs.push((
            piece,
            false,
            square_at(&img, (0, 0), renderer, options, Square::new(1, 0)),
        ));
    }
    refs
}

/// The pixels of `square` of a diagram drawn with `options` whose top left corner is at
/// `origin` in `img` (White at the bottom; with a region, `square` inside it).
fn square_at(
    img: &RgbaImage,
    origin: (u32, u32),
    renderer: &Renderer,
    options: &RenderOptions,
    square: Square,
) -> RgbaImage {
    let scene = renderer.scene(&Position::empty(8), options);
    let s = scene.square;
    let (low, high) = options
        .region
        .map_or((Square::new(0, 0), Square::new(7, 7)), |r| (r.low, r.high));
    let x = origin.0 + scene.board.x + u32::from(square.file - low.file) * s;
    let y = origin.1 + scene.board.y + u32::from(high.rank - square.rank) * s;
    // The middle of the square: away from edges where two rasterisers differ most.
    let inset = s / 8;
    image::imageops::crop_imm(img, x + inset, y + inset, s - 2 * inset, s - 2 * inset).to_image()
}

/// The piece (or none) whose reference tile is nearest to `square` of the diagram drawn
/// with `options` at `origin` in `img`.
pub(crate) fn read_square(
    img: &RgbaImage,
    origin: (u32, u32),
    renderer: &Renderer,
    options: &RenderOptions,
    refs: &[(Option<Piece>, bool, RgbaImage)],
    square: Square,
) -> Option<Piece> {
    let tile = square_at(img, origin, renderer, options, square);
    refs.iter()
        .filter(|(_, dark, _)| *dark == square.is_dark())
        .min_by_key(|(_, _, r)| distance(r, &tile))
        .map(|(p, _, _)| *p)
        .expect("references")
}

fn distance(a: &RgbaImage, b: &RgbaImage) -> u64 {
    a.pixels()
        .zip(b.pixels())
        .map(|(p, q)| (0..3).map(|i| u64::from(p[i].abs_diff(q[i]))).sum::<u64>())
        .sum()
}

/// Read every board of `page` out of `img` and check it against its entry.
fn decode_page(
    img: &RgbaImage,
    page: &Page,
    sheet: &Sheet,
    renderer: &Renderer,
    what: &str,
) -> usize {
    assert_eq!(
        (img.width(), img.height()),
        (page.width, page.height),
        "{what}: the page's size"
    );
    let mut boards = 0;
    for item in &page.items {
        let Item::Diagram { entry, x, y, size } = item else {
            continue;
        };
        let options = sheet.diagram_options(*size);
        let refs = references(renderer, &options);
        let want = &sheet.entries[*entry].position;
        let shown = |sq: &Square| options.region.is_none_or(|r| r.contains(*sq));
        for sq in want.squares().filter(shown) {
            let best = read_square(img, (*x, *y), renderer, &options, &refs, sq);
            assert_eq!(
                best,
                want.get(sq),
                "{what}: diagram {} square {sq} reads as {best:?}",
                entry + 1
            );
        }
        boards += 1;
    }
    boards
}

#[test]
fn eight_puzzles_on_a4_png_pages_show_each_board_where_it_was_put() {
    let renderer = Renderer::default();
    let sheet = Sheet::new(&renderer, eight(), SheetOptions::default()).expect("lays out");
    assert_eq!(sheet.pages.len(), 2, "six a page in two columns");
    let mut boards = 0;
    for (n, page) in sheet.pages.iter().enumerate() {
        let img = common::decode(&sheet.png(&renderer, n).expect("renders"));
        boards += decode_page(
            &img,
            page,
            &sheet,
            &renderer,
            &format!("PNG page {}", n + 1),
        );
        // Each diagram is the drawing it is alone.
        for item in &page.items {
            if let Item::Diagram { entry, x, y, size } = item {
                let alone = common::decode(
                    &renderer
                        .png(
                            &sheet.entries[*entry].position,
                            &sheet.diagram_options(*size),
                        )
                        .expect("renders"),
                );
                let cut = image::imageops::crop_imm(&img, *x, *y, alone.width(), alone.height())
                    .to_image();
                // Every PNG is palettised within the encoder's tolerance; a page has more
                // colours than one diagram, so its palette may round differently.
                let tolerance = Tolerance {
                    channel: staunton::render::encode::PALETTE_TOLERANCE,
                    pixels: 0,
                };
                let diff = common::compare(&alone, &cut, tolerance);
                assert!(
                    diff.matches(),
                    "diagram {} differs from itself alone (max {}, {x},{y} size {size})",
                    entry + 1,
                    diff.largest
                );
            }
        }
    }
    assert_eq!(boards, 8);
}

#[test]
fn the_svg_pages_rasterised_read_back_the_same() {
    let renderer = Renderer::default();
    let sheet = Sheet::new(&renderer, eight(), SheetOptions::default()).expect("lays out");
    let mut boards = 0;
    for (n, page) in sheet.pages.iter().enumerate() {
        let svg = sheet.svg(&renderer, n).expect("renders");
        assert!(
            svg.contains(r#"width="210mm" height="297mm""#),
            "A4 in print units"
        );
        let tree = resvg::usvg::Tree::from_str(&svg, &resvg::usvg::Options::default())
            .expect("the page parses");
        let mut pixmap = resvg::tiny_skia::Pixmap::new(page.width, page.height).expect("sized");
        let scale = page.width as f32 / tree.size().width();
        resvg::render(
            &tree,
            resvg::tiny_skia::Transform::from_scale(scale, scale),
            &mut pixmap.as_mut(),
        );
        let img = common::from_pixmap(&pixmap);
        boards += decode_page(
            &img,
            page,
            &sheet,
            &renderer,
            &format!("SVG page {}", n + 1),
        );
    }
    assert_eq!(boards, 8);
}

/// The PDF, rasterised by pdftoppm (Debian's poppler-utils) at the sheet's resolution.
/// `.ci/run` installs it and sets STAUNTON_REQUIRE_POPPLER=1, so there its absence fails.
#[test]
fn the_pdf_printed_by_pdftoppm_reads_back_the_same() {
    if std::process::Command::new("pdftoppm")
        .arg("-v")
        .output()
        .is_err()
    {
        assert!(
            std::env::var_os("STAUNTON_REQUIRE_POPPLER").is_none(),
            "pdftoppm is not installed (apt-get install -y poppler-utils)"
        );
        eprintln!("pdftoppm is not installed: the sheet's PDF is not rasterised here");
        return;
    }
    let renderer = Renderer::default();
    let options = SheetOptions {
        solutions: true,
        title: Some("Eight puzzles".into()),
        ..SheetOptions::default()
    };
    let sheet = Sheet::new(&renderer, eight(), options).expect("lays out");
    assert_eq!(
        sheet.pages.len(),
        3,
        "two pages of diagrams and the answer key"
    );
    let pdf = sheet.pdf(&renderer).expect("renders");
    let text = String::from_utf8_lossy(&pdf);
    assert!(text.starts_with("%PDF-"));
    let pages = text.matches("/Type /Page").count() - text.matches("/Type /Pages").count();
    assert_eq!(pages, 3, "three pages");
    assert!(!text.contains("/Subtype /Image"), "no raster anywhere");
    let dir = std::env::temp_dir().join(format!("staunton-sheet-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("scratch");
    let file = dir.join("sheet.pdf");
    std::fs::write(&file, &pdf).expect("written");
    let out = std::process::Command::new("pdftoppm")
        .args(["-png", "-r", &sheet.options.dpi.to_string()])
        .args(["-scale-to-x", &sheet.pages[0].width.to_string()])
        .args(["-scale-to-y", &sheet.pages[0].height.to_string()])
        .arg(&file)
        .arg(dir.join("page"))
        .output()
        .expect("runs");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let mut boards = 0;
    for (n, page) in sheet.pages.iter().enumerate() {
        let png = std::fs::read(dir.join(format!("page-{}.png", n + 1))).expect("a page");
        let img = common::decode(&png);
        boards += decode_page(
            &img,
            page,
            &sheet,
            &renderer,
            &format!("PDF page {}", n + 1),
        );
    }
    assert_eq!(boards, 8);
    // The answer key is text on the last page: dark ink where the answers are.
    let key = common::decode(&std::fs::read(dir.join("page-3.png")).expect("the key"));
    let ink = key.pixels().filter(|p| p[0] < 100).count();
    assert!(ink > 2000, "the answer key has text ({ink} dark pixels)");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn columns_rows_and_paper_shape_the_grid() {
    let renderer = Renderer::default();
    let layout = |options: SheetOptions| Sheet::new(&renderer, eight(), options).expect("lays out");
    let diagrams = |sheet: &Sheet| -> Vec<(usize, u32, u32, u32)> {
        sheet
            .pages
            .iter()
            .enumerate()
            .flat_map(|(n, p)| {
                p.items.iter().filter_map(move |i| match i {
                    Item::Diagram { x, y, size, .. } => Some((n, *x, *y, *size)),
                    _ => None,
                })
            })
            .collect()
    };
    let two = layout(SheetOptions::default());
    let d = diagrams(&two);
    assert_eq!(d.len(), 8);
    // Numbered left to right, then down: 1 and 2 share a row, 3 is under 1.
    assert_eq!(d[0].2, d[1].2);
    assert!(d[1].1 > d[0].1);
    assert_eq!(d[2].1, d[0].1);
    assert!(d[2].2 > d[0].2);
    // No two boards overlap, and every board is inside the page's margins.
    for (i, a) in d.iter().enumerate() {
        let page = &two.pages[a.0];
        assert!(a.1 > 0 && a.1 + a.3 < page.width && a.2 + a.3 < page.height);
        for b in &d[i + 1..] {
            let apart = a.0 != b.0
                || a.1 + a.3 <= b.1
                || b.1 + b.3 <= a.1
                || a.2 + a.3 <= b.2
                || b.2 + b.3 <= a.2;
            assert!(apart, "{a:?} overlaps {b:?}");
        }
    }
    let four = layout(SheetOptions {
        columns: 4,
        rows: Some(2),
        paper: staunton::render::sheet::Paper::Letter,
        ..SheetOptions::default()
    });
    assert_eq!(four.pages.len(), 1, "eight fit on one page of 4 × 2");
    assert_eq!(four.pages[0].width, 1275, "Letter at 150 dpi");
    assert!(
        diagrams(&four)[0].3 < d[0].3,
        "narrower columns, smaller boards"
    );
    let tall = layout(SheetOptions {
        columns: 1,
        rows: Some(3),
        ..SheetOptions::default()
    });
    assert_eq!(tall.pages.len(), 3, "three a page: 3 + 3 + 2");
    let size = diagrams(&tall)[0].3;
    assert!(
        size < tall.pages[0].width / 2,
        "shrunk to fit three rows: {size}"
    );
}

#[test]
fn a_sheet_of_king_sides_shows_only_the_region_of_each_board_readably() {
    let renderer = Renderer::default();
    let region = Region::new(Square::new(7, 7), Square::new(4, 4));
    let options = SheetOptions {
        diagram: RenderOptions {
            region: Some(region),
            ..RenderOptions::default()
        },
        ..SheetOptions::default()
    };
    let sheet = Sheet::new(&renderer, eight(), options).expect("lays out");
    let img = common::decode(&sheet.png(&renderer, 0).expect("renders"));
    let boards = decode_page(&img, &sheet.pages[0], &sheet, &renderer, "region");
    assert!(boards >= 2, "{boards} boards read");
    // The region's diagrams are as tall as wide (4×4), whatever the board.
    let options = sheet.diagram_options(200);
    let scene_height = renderer.scene(&sheet.entries[0].position, &options).height;
    assert!(scene_height <= 201, "{scene_height}");
}
