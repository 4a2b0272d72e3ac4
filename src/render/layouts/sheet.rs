//! Worksheets: many diagrams on printed pages, numbered and captioned, the side to move
//! under each board, and an optional answer key.
//!
//! Owns the page layout (a grid of cells in page pixels at a resolution) and its two
//! backends: an SVG page (each diagram is its own SVG, nested; text is glyph outlines) and
//! a raster page (each diagram is its own pixmap, pasted at whole pixels). A PDF is written
//! by `layouts::tagged_pdf`: real text, each diagram's SVG as a tagged figure. Every
//! diagram is the same drawing as when rendered alone at its size.

use crate::chess::piece::Color;
use crate::chess::position::Position;
use crate::render::art::font::TextFace;
use crate::render::layouts::page_text::{FONT_UNREADABLE, face};
/// A line of text on a page (an [`Item::Text`]).
pub use crate::render::layouts::page_text::PageText;
use crate::render::spec::options::{MAX_SIZE, MIN_SIZE, RenderOptions};
use crate::render::encode;
use crate::render::ground::{Indexed, RenderError};
use crate::render::Renderer;
use crate::render::ground::pdf_tags::About;
use crate::render::layouts::tagged_pdf::{TaggedPdf, TextKind};
use std::fmt::Write as _;

/// A paper size.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum Paper {
    /// ISO A4, 210 × 297 mm.
    #[default]
    A4,
    /// US Letter, 8.5 × 11 in.
    Letter,
}

impl Paper {
    /// Every paper size, by name.
    pub const ALL: [Paper; 2] = [Paper::A4, Paper::Letter];

    /// The name used on the command line and in URLs.
    pub fn name(self) -> &'static str {
        match self {
            Paper::A4 => "a4",
            Paper::Letter => "letter",
        }
    }

    /// The paper named `name` (case-insensitive).
    pub fn from_name(name: &str) -> Option<Paper> {
        Paper::ALL
            .into_iter()
            .find(|p| p.name().eq_ignore_ascii_case(name.trim()))
    }

    /// Width and height in points (1/72 in).
    pub fn points(self) -> (f32, f32) {
        match self {
            Paper::A4 => (595.276, 841.89),
            Paper::Letter => (612.0, 792.0),
        }
    }

    /// Width and height as SVG lengths with units.
    fn svg_size(self) -> (&'static str, &'static str) {
        match self {
            Paper::A4 => ("210mm", "297mm"),
            Paper::Letter => ("8.5in", "11in"),
        }
    }
}

/// One diagram of a sheet.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Entry {
    /// The position.
    pub position: Position,
    /// The caption written after its number, if any.
    pub caption: Option<String>,
    /// The answer, for the answer key (`1. Qxf7+ Kxf7 2. Bc4+`), if known.
    pub solution: Option<String>,
}

/// Most columns of diagrams on a page.
pub const MAX_COLUMNS: u8 = 6;
/// Most rows of diagrams on a page.
pub const MAX_ROWS: u8 = 10;
/// Lowest and highest resolution of a sheet's page pixels.
pub const DPI_RANGE: std::ops::RangeInclusive<u16> = 72..=300;
/// The default resolution: 150 pixels per inch (an A4 page is 1240 × 1754).
pub const DEFAULT_DPI: u16 = 150;

/// How a sheet is laid out.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct SheetOptions {
    /// The paper.
    pub paper: Paper,
    /// Diagrams per row, 1 to [`MAX_COLUMNS`].
    pub columns: u8,
    /// Rows per page, 1 to [`MAX_ROWS`]; `None`: as many as fit with boards at least 3/4
    /// of a column wide.
    pub rows: Option<u8>,
    /// A heading on the first page.
    pub title: Option<String>,
    /// Add the answer key after the diagrams.
    pub solutions: bool,
    /// Page pixels per inch.
    pub dpi: u16,
    /// How every diagram is drawn (its `size` is the layout's).
    pub diagram: RenderOptions,
}

impl Default for SheetOptions {
    fn default() -> Self {
        SheetOptions {
            paper: Paper::A4,
            columns: 2,
            rows: None,
            title: None,
            solutions: false,
            dpi: DEFAULT_DPI,
            diagram: RenderOptions::default(),
        }
    }
}

/// Something drawn on a page, in page pixels.
#[derive(Debug, Clone, PartialEq)]
pub enum Item {
    /// A line of text.
    Text(PageText),
    /// Entry `entry`'s diagram, `size` pixels wide, its top left corner at (`x`, `y`).
    Diagram {
        /// Index into the entries.
        entry: usize,
        /// Left edge.
        x: u32,
        /// Top edge.
        y: u32,
        /// Width of the diagram (its render size).
        size: u32,
    },
}

/// One laid-out page.
#[derive(Debug, Clone, PartialEq)]
pub struct Page {
    /// Width in pixels.
    pub width: u32,
    /// Height in pixels.
    pub height: u32,
    /// What is drawn, in paint order.
    pub items: Vec<Item>,
}

/// A laid-out sheet: its entries, how they are drawn, and the pages.
#[derive(Debug, Clone)]
pub struct Sheet {
    /// The diagrams.
    pub entries: Vec<Entry>,
    /// The options it was laid out with.
    pub options: SheetOptions,
    /// The pages, diagrams first, then the answer key if asked for.
    pub pages: Vec<Page>,
}

/// Why a sheet cannot be laid out: one sentence.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{kind}")]
pub struct SheetError {
    /// What was wrong.
    pub kind: SheetErrorKind,
}

impl From<SheetErrorKind> for SheetError {
    fn from(kind: SheetErrorKind) -> SheetError {
        SheetError { kind }
    }
}

/// The kinds of [`SheetError`].
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum SheetErrorKind {
    /// No entries.
    #[error("a sheet needs at least one position")]
    NoPositions,
    /// The compiled-in text font could not be read.
    #[error("{FONT_UNREADABLE}")]
    Font,
    /// Even the smallest diagrams do not fit `rows` rows on a page of `paper`.
    #[error("{rows} rows of diagrams do not fit on a {} page: use fewer rows", paper.name())]
    RowsDoNotFit {
        /// The rows asked for (or chosen).
        rows: u32,
        /// The paper.
        paper: Paper,
    },
    /// An answer key was asked for, and no entry has a solution.
    #[error("no position has a solution to print (EPD bm or pv operations, PGN moves)")]
    NoSolutions,
}

/// Copy `image`'s pixels (opaque) into `page` with their top left corner at `at`, clipped
/// to the page.
fn paste(image: &Indexed, at: (u32, u32), page: &mut resvg::tiny_skia::Pixmap) {
    let (pw, ph) = (page.width() as usize, page.height() as usize);
    let (x0, y0) = (at.0 as usize, at.1 as usize);
    let w = (image.width as usize).min(pw.saturating_sub(x0));
    let data = page.data_mut();
    for (row, indices) in image.indices.chunks_exact(image.width as usize).enumerate() {
        let y = y0 + row;
        if y >= ph {
            break;
        }
        let line = &mut data[4 * (y * pw + x0)..4 * (y * pw + x0 + w)];
        for (pixel, &i) in line.chunks_exact_mut(4).zip(indices) {
            let c = 3 * usize::from(i);
            pixel.copy_from_slice(&[
                image.palette[c],
                image.palette[c + 1],
                image.palette[c + 2],
                255,
            ]);
        }
    }
}

/// Type sizes and spacing, in points.
const MARGIN: f32 = 42.5; // 15 mm
const TITLE: f32 = 16.0;
const CAPTION: f32 = 10.5;
const SIDE: f32 = 9.0;
const FOOTER: f32 = 8.0;
const COLUMN_GAP: f32 = 18.0;
const ROW_GAP: f32 = 16.0;
/// Most space added between rows when the page has room to spare.
const MAX_ROW_GAP: f32 = 60.0;
const LEADING: f32 = 1.3;
/// Lines a caption may take.
const CAPTION_LINES: usize = 2;


/// A sheet's pages in page pixels: their size, margin and columns, and the type faces.
struct Frame {
    /// Page pixels per point.
    scale: f32,
    width: u32,
    height: u32,
    margin: f32,
    columns: u32,
    /// The width of a column.
    column: f32,
    book: &'static TextFace,
    bold: &'static TextFace,
}

impl Frame {
    fn of(o: &SheetOptions) -> Result<Frame, SheetError> {
        let scale = f32::from(o.dpi) / 72.0;
        let (pw, ph) = o.paper.points();
        let (width, height) = ((pw * scale).round() as u32, (ph * scale).round() as u32);
        let (book, bold) = (
            face(false).map_err(|_| SheetErrorKind::Font)?,
            face(true).map_err(|_| SheetErrorKind::Font)?,
        );
        let columns = u32::from(o.columns.clamp(1, MAX_COLUMNS));
        let margin = MARGIN * scale;
        let column = ((width as f32 - 2.0 * margin - (columns - 1) as f32 * (COLUMN_GAP * scale))
            / columns as f32)
            .floor();
        Ok(Frame {
            scale,
            width,
            height,
            margin,
            columns,
            column,
            book,
            bold,
        })
    }

    /// `v` points in page pixels.
    fn pt(&self, v: f32) -> f32 {
        v * self.scale
    }

    /// An empty page.
    fn page(&self) -> Page {
        Page {
            width: self.width,
            height: self.height,
            items: Vec::new(),
        }
    }

    /// Page numbers in the footers, when there are several pages.
    fn number(&self, pages: &mut [Page]) {
        let count = pages.len();
        if count < 2 {
            return;
        }
        let px = self.pt(FOOTER);
        for (n, page) in pages.iter_mut().enumerate() {
            let text = format!("{} / {count}", n + 1);
            page.items.push(Item::Text(PageText {
                x: (self.width as f32 - self.book.width(&text, px)) / 2.0,
                baseline: self.height as f32 - self.margin + self.pt(FOOTER),
                text,
                bold: false,
                size: px,
            }));
        }
    }
}

/// The rows of diagrams on each page, their size, and the spaces.
struct Grid {
    /// Where the first row starts on the first page.
    top: f32,
    rows: u32,
    /// The diagrams' size.
    size: u32,
    /// Space added between rows.
    gap: f32,
    /// The height of the captions above each diagram.
    caption_band: f32,
    /// The height of a cell: captions, diagram, side to move.
    cell: f32,
    /// Per entry, its number and its caption's lines.
    captions: Vec<(String, Vec<String>)>,
}

/// The largest of `lo..=hi` that `fits`, given that what fits gets no larger when bigger;
/// `lo` when none does.
fn largest(lo: u32, hi: u32, fits: impl Fn(u32) -> bool) -> u32 {
    if fits(hi) {
        return hi;
    }
    let (mut lo, mut hi) = (lo, hi);
    while lo < hi {
        let mid = (lo + hi).div_ceil(2);
        if fits(mid) { lo = mid } else { hi = mid - 1 }
    }
    lo
}

/// "White to move" or "Black to move".
fn side_to_move(position: &Position) -> &'static str {
    match position.turn {
        Color::White => "White to move",
        Color::Black => "Black to move",
    }
}

impl Sheet {
    /// Lay out `entries` as `options` ask, measuring diagrams with `renderer`.
    pub fn new(
        renderer: &Renderer,
        entries: Vec<Entry>,
        options: SheetOptions,
    ) -> Result<Sheet, SheetError> {
        let mut sheet = Sheet {
            entries,
            options,
            pages: Vec::new(),
        };
        sheet.lay_out(renderer)?;
        Ok(sheet)
    }

    fn lay_out(&mut self, renderer: &Renderer) -> Result<(), SheetError> {
        if self.entries.is_empty() {
            return Err(SheetErrorKind::NoPositions.into());
        }
        let frame = Frame::of(&self.options)?;
        let mut first = frame.page();
        let top = self.title(&frame, &mut first);
        let captions = self.captions(&frame);
        let grid = self.grid(renderer, &frame, top, captions)?;
        let mut pages = self.place(renderer, &frame, &grid, first);
        if self.options.solutions {
            let (book, bold) = (frame.book, frame.bold);
            self.answer_key(&mut pages, frame.width, frame.height, book, bold)?;
        }
        frame.number(&mut pages);
        self.pages = pages;
        Ok(())
    }

    /// The title, centred at the top of the first page, if there is one; where the grid
    /// starts below it.
    fn title(&self, f: &Frame, first: &mut Page) -> f32 {
        let mut top = f.margin;
        if let Some(title) = self
            .options
            .title
            .as_deref()
            .filter(|t| !t.trim().is_empty())
        {
            let px = f.pt(TITLE);
            let bold = f.bold;
            let text = bold.fit(title.trim(), px, f.width as f32 - 2.0 * f.margin);
            let x = (f.width as f32 - bold.width(&text, px)) / 2.0;
            top += bold.cap_height(px);
            first.items.push(Item::Text(PageText {
                text,
                bold: true,
                size: px,
                x,
                baseline: top,
            }));
            top += f.pt(TITLE * 0.9);
        }
        top
    }

    /// Per entry, its number and its caption wrapped to the column (after the number).
    fn captions(&self, f: &Frame) -> Vec<(String, Vec<String>)> {
        let caption_px = f.pt(CAPTION);
        self.entries
            .iter()
            .enumerate()
            .map(|(i, e)| {
                let number = format!("{}.", i + 1);
                let indent = f.bold.width(&format!("{number} "), caption_px);
                let lines = e.caption.as_deref().map_or_else(Vec::new, |c| {
                    f.book.wrap(c, caption_px, f.column - indent, CAPTION_LINES)
                });
                (number, lines)
            })
            .collect()
    }

    /// The height of the tallest shape on the sheet (10×8 boards, pockets) at `size`.
    fn diagram_height(&self, renderer: &Renderer, size: u32) -> u32 {
        let mut seen: Vec<(u8, bool)> = Vec::new();
        let mut tallest = 0;
        for e in &self.entries {
            let shape = (e.position.files(), e.position.pocket.is_some());
            if seen.contains(&shape) {
                continue;
            }
            seen.push(shape);
            let options = self.diagram_options(size);
            tallest = tallest.max(renderer.layout(&e.position, &options).height);
        }
        tallest
    }

    /// The rows of a page and the largest diagram size at which they fit under `top`.
    fn grid(
        &self,
        renderer: &Renderer,
        f: &Frame,
        top: f32,
        captions: Vec<(String, Vec<String>)>,
    ) -> Result<Grid, SheetError> {
        let o = &self.options;
        let caption_lines = captions.iter().map(|c| c.1.len()).max().unwrap_or(0).max(1);
        let caption_band = caption_lines as f32 * f.pt(CAPTION * LEADING) + f.pt(3.0);
        let side_band = f.pt(4.0) + f.pt(SIDE * LEADING);
        let cell =
            |size: u32| caption_band + self.diagram_height(renderer, size) as f32 + side_band;
        let footer = f.pt(FOOTER * 2.5);
        let available = f.height as f32 - top - f.margin - footer;
        let fits = |size: u32, rows: u32| {
            rows as f32 * cell(size) + rows.saturating_sub(1) as f32 * f.pt(ROW_GAP) <= available
        };
        let widest = (f.column as u32).min(MAX_SIZE);
        let rows = match o.rows {
            Some(r) => u32::from(r.clamp(1, MAX_ROWS)),
            // As many rows as fit with boards at least 3/4 of a column wide.
            None => (1..=u32::from(MAX_ROWS))
                .take_while(|&r| r == 1 || fits(widest * 3 / 4, r))
                .last()
                .unwrap_or(1),
        };
        // The largest size at which `rows` rows fit (heights grow with the size).
        let size = largest(MIN_SIZE, widest, |size| fits(size, rows));
        if !fits(size, rows) {
            let paper = o.paper;
            return Err(SheetErrorKind::RowsDoNotFit { rows, paper }.into());
        }
        let spare = available - rows as f32 * cell(size);
        let gap = match rows {
            1 => 0.0,
            r => (spare / (r - 1) as f32).min(f.pt(MAX_ROW_GAP)),
        };
        Ok(Grid {
            top,
            rows,
            size,
            gap,
            caption_band,
            cell: cell(size),
            captions,
        })
    }

    /// Every entry in its cell of the grid, page after page, starting on `first`.
    fn place(&self, renderer: &Renderer, f: &Frame, grid: &Grid, first: Page) -> Vec<Page> {
        let mut pages: Vec<Page> = Vec::new();
        let per_page = (grid.rows * f.columns) as usize;
        let mut page = first;
        let mut row_top = grid.top;
        for i in 0..self.entries.len() {
            let slot = (i % per_page) as u32;
            if i > 0 && slot == 0 {
                pages.push(std::mem::replace(&mut page, f.page()));
                row_top = f.margin;
            }
            let (col, row) = (slot % f.columns, slot / f.columns);
            let cell_left = f.margin + col as f32 * (f.column + f.pt(COLUMN_GAP));
            let x = (cell_left + (f.column - grid.size as f32) / 2.0).round();
            let y0 = row_top + row as f32 * (grid.cell + grid.gap);
            self.place_entry(renderer, f, grid, i, (x, y0), &mut page);
        }
        pages.push(page);
        pages
    }

    /// Entry `i` in the cell whose diagram's left edge is `x` and whose top is `y0`: its
    /// number and caption, the diagram, the side to move under it.
    fn place_entry(
        &self,
        renderer: &Renderer,
        f: &Frame,
        grid: &Grid,
        i: usize,
        (x, y0): (f32, f32),
        page: &mut Page,
    ) {
        let (number, lines) = &grid.captions[i];
        let (book, bold) = (f.book, f.bold);
        let (caption_px, side_px) = (f.pt(CAPTION), f.pt(SIDE));
        let mut baseline = y0 + bold.cap_height(caption_px);
        page.items.push(Item::Text(PageText {
            text: number.clone(),
            bold: true,
            size: caption_px,
            x,
            baseline,
        }));
        let indent = bold.width(&format!("{number} "), caption_px);
        for line in lines {
            page.items.push(Item::Text(PageText {
                text: line.clone(),
                bold: false,
                size: caption_px,
                x: x + indent,
                baseline,
            }));
            baseline += f.pt(CAPTION * LEADING);
        }
        let size = grid.size;
        let y = (y0 + grid.caption_band).round();
        page.items.push(Item::Diagram {
            entry: i,
            x: x as u32,
            y: y as u32,
            size,
        });
        let position = &self.entries[i].position;
        let text = side_to_move(position);
        let shown = renderer.layout(position, &self.diagram_options(size)).height as f32;
        page.items.push(Item::Text(PageText {
            text: text.to_string(),
            bold: false,
            size: side_px,
            x: x + (size as f32 - book.width(text, side_px)) / 2.0,
            baseline: y + shown + f.pt(4.0) + book.cap_height(side_px),
        }));
    }

    /// The answer key: a heading, then each entry's number and solution, wrapped, on as
    /// many pages as it takes.
    fn answer_key(
        &self,
        pages: &mut Vec<Page>,
        width: u32,
        height: u32,
        book: &TextFace,
        bold: &TextFace,
    ) -> Result<(), SheetError> {
        if self.entries.iter().all(|e| e.solution.is_none()) {
            return Err(SheetErrorKind::NoSolutions.into());
        }
        let scale = f32::from(self.options.dpi) / 72.0;
        let pt = |v: f32| v * scale;
        let margin = pt(MARGIN);
        let bottom = height as f32 - margin - pt(FOOTER * 2.5);
        let px = pt(CAPTION);
        let line = pt(CAPTION * LEADING);
        let mut page = Page {
            width,
            height,
            items: Vec::new(),
        };
        let heading = pt(TITLE * 0.85);
        let mut baseline = margin + bold.cap_height(heading);
        page.items.push(Item::Text(PageText {
            text: "Solutions".into(),
            bold: true,
            size: heading,
            x: margin,
            baseline,
        }));
        baseline += pt(TITLE * 1.2);
        let indent = bold.width(&format!("{}. ", self.entries.len()), px) + pt(4.0);
        let wide = width as f32 - 2.0 * margin - indent;
        for (i, entry) in self.entries.iter().enumerate() {
            let text = entry.solution.as_deref().unwrap_or("—");
            let lines = book.wrap(text, px, wide, usize::MAX);
            let lines = if lines.is_empty() {
                vec!["—".to_string()]
            } else {
                lines
            };
            for (n, text) in lines.into_iter().enumerate() {
                if baseline > bottom {
                    pages.push(std::mem::replace(
                        &mut page,
                        Page {
                            width,
                            height,
                            items: Vec::new(),
                        },
                    ));
                    baseline = margin + book.cap_height(px);
                }
                if n == 0 {
                    page.items.push(Item::Text(PageText {
                        text: format!("{}.", i + 1),
                        bold: true,
                        size: px,
                        x: margin,
                        baseline,
                    }));
                }
                page.items.push(Item::Text(PageText {
                    text,
                    bold: false,
                    size: px,
                    x: margin + indent,
                    baseline,
                }));
                baseline += line;
            }
            baseline += pt(3.0);
        }
        pages.push(page);
        Ok(())
    }

    /// The options entry `entry`'s diagram is drawn with at `size`.
    pub fn diagram_options(&self, size: u32) -> RenderOptions {
        RenderOptions {
            size,
            ..self.options.diagram.clone()
        }
    }

    /// Entry `entry`'s position and the options its diagram is drawn with at `size`, once
    /// the render may go on (not cancelled).
    fn diagram(&self, entry: usize, size: u32) -> Result<(&Position, RenderOptions), RenderError> {
        crate::render::cancel::check()?;
        Ok((&self.entries[entry].position, self.diagram_options(size)))
    }

    /// Page `n` (0-based) as an SVG document whose size is the paper's.
    pub fn svg(&self, renderer: &Renderer, n: usize) -> Result<String, RenderError> {
        let page = &self.pages[n];
        let (w, h) = self.options.paper.svg_size();
        let mut out = String::with_capacity(64 * 1024);
        let _ = write!(
            out,
            r##"<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" viewBox="0 0 {} {}"><rect width="{}" height="{}" fill="#ffffff"/>"##,
            page.width, page.height, page.width, page.height
        );
        for item in &page.items {
            match item {
                Item::Text(line) => line.write_svg(0.0, &mut out)?,
                Item::Diagram { entry, x, y, size } => {
                    let (position, options) = self.diagram(*entry, *size)?;
                    let svg = renderer.svg(position, &options)?;
                    out.push_str(&crate::render::paint::svg::nested(
                        &svg,
                        &format!("d{}-", entry + 1),
                        *x,
                        *y,
                    ));
                }
            }
        }
        out.push_str("</svg>");
        Ok(out)
    }

    /// Page `n` (0-based) as a PNG: each diagram is the pixels it has alone.
    pub fn png(&self, renderer: &Renderer, n: usize) -> Result<Vec<u8>, RenderError> {
        let page = &self.pages[n];
        let mut pixmap = resvg::tiny_skia::Pixmap::new(page.width, page.height)
            .ok_or(RenderError::Allocate(page.width, page.height))?;
        pixmap.fill(resvg::tiny_skia::Color::WHITE);
        for item in &page.items {
            match item {
                Item::Text(line) => line.paint(&mut pixmap.as_mut())?,
                Item::Diagram { entry, x, y, size } => {
                    // The diagram's own PNG pixels, copied in.
                    let (position, options) = self.diagram(*entry, *size)?;
                    let mut diagram = Indexed::default();
                    renderer.indexed(position, &options, &mut diagram)?;
                    paste(&diagram, (*x, *y), &mut pixmap);
                }
            }
        }
        Ok(encode::png(&pixmap))
    }

    /// The estimated cost of drawing this sheet in `format` (page `n` for SVG and PNG, every
    /// page for PDF), in `render::spec::cost` units: its diagrams, a PNG's page pixels, and
    /// its text by the faces that draw it.
    pub fn units(&self, format: crate::render::spec::options::Format, n: usize) -> u64 {
        use crate::render::spec::options::Format;
        let pages = match format {
            Format::Pdf => &self.pages[..],
            _ => {
                &self.pages[n.min(self.pages.len().saturating_sub(1))..][..1.min(self.pages.len())]
            }
        };
        let diagram_format = match format {
            Format::Png => Format::Png,
            _ => Format::Svg,
        };
        let mut units = 0u64;
        for page in pages {
            if format == Format::Png {
                units += u64::from(page.width) * u64::from(page.height);
            }
            for item in &page.items {
                if let Item::Diagram { size, .. } = item {
                    let options = self.diagram_options(*size);
                    units += crate::render::spec::cost::diagram(&options, diagram_format);
                }
            }
        }
        let units = match format {
            Format::Pdf => units * crate::render::spec::cost::PDF_FACTOR,
            _ => units,
        };
        units + crate::render::spec::cost::drawn_text(self.glyphs(pages), format)
    }

    /// What the text of `pages` (titles, captions, answers) costs to draw, by the faces
    /// that draw it.
    pub fn glyphs(&self, pages: &[Page]) -> crate::render::spec::cost::Glyphs {
        let lines = pages.iter().flat_map(|p| &p.items).filter_map(|item| match item {
            Item::Text(line) => Some(line),
            _ => None,
        });
        crate::render::layouts::page_text::glyphs(lines)
    }

    /// Every page as one tagged PDF, vector throughout: the title a heading, each line of
    /// text a paragraph, each diagram a figure whose alternative text describes its
    /// position (`layouts::tagged_pdf`).
    pub fn pdf(&self, renderer: &Renderer) -> Result<Vec<u8>, RenderError> {
        let paper = self.options.paper.points();
        let width = self.pages.first().map_or(paper.0, |p| p.width as f32);
        let mut out = TaggedPdf::new(paper, paper.0 / width);
        let lang = self.options.diagram.lang;
        for (p, page) in self.pages.iter().enumerate() {
            out.page();
            for item in &page.items {
                match item {
                    Item::Text(line) => {
                        let heading = p == 0 && self.options.title.as_deref() == Some(&*line.text);
                        let kind = if heading {
                            TextKind::Heading
                        } else {
                            TextKind::Paragraph
                        };
                        out.text(line, kind)?;
                    }
                    Item::Diagram { entry, x, y, size } => {
                        let (position, options) = self.diagram(*entry, *size)?;
                        let svg = renderer.svg(position, &options)?;
                        let alt = crate::chess::describe::describe_in(position, lang);
                        out.diagram(&svg, alt, (*x as f32, *y as f32, *size as f32))?;
                    }
                }
            }
        }
        let title = self.options.title.as_deref().unwrap_or(UNTITLED);
        out.finish(About {
            title,
            lang: lang.code(),
        })
    }
}

/// The document title of a worksheet without a heading.
const UNTITLED: &str = "Chess worksheet";

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_error_kind_has_its_exact_message() {
        let message = |kind: SheetErrorKind| SheetError::from(kind).to_string();
        assert_eq!(
            message(SheetErrorKind::NoPositions),
            "a sheet needs at least one position"
        );
        assert_eq!(
            message(SheetErrorKind::Font),
            "the built-in text font could not be read"
        );
        let paper = Paper::Letter;
        assert_eq!(
            message(SheetErrorKind::RowsDoNotFit { rows: 9, paper }),
            "9 rows of diagrams do not fit on a letter page: use fewer rows"
        );
        assert_eq!(
            message(SheetErrorKind::NoSolutions),
            "no position has a solution to print (EPD bm or pv operations, PGN moves)"
        );
    }

    #[test]
    fn an_empty_sheet_is_refused_with_its_kind() {
        let renderer = Renderer::default();
        let error = Sheet::new(&renderer, Vec::new(), SheetOptions::default());
        assert_eq!(error.map(|_| ()), Err(SheetErrorKind::NoPositions.into()));
    }
}
