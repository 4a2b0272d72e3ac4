//! The flow set on pages: lines broken to the column, paragraphs indented by depth,
//! diagrams kept whole with their captions, one or two columns, the header on the first
//! page, a running title and page numbers. Units are points, y down from the page's top.

use super::flow::{Block, Flow, Word};
use super::options::ArticleOptions;
use crate::render::layouts::page_text::{PageText, face};
use crate::render::ground::RenderError;

const MARGIN: f32 = 54.0;
const COLUMN_GAP: f32 = 22.0;
const BODY: f32 = 10.0;
const VARIATION: f32 = 9.0;
const LEADING: f32 = 1.4;
/// The title's size (the tagged PDF makes its lines a heading).
pub(super) const TITLE: f32 = 15.0;
const SUBTITLE: f32 = 10.0;
const CAPTION: f32 = 9.0;
const FEN: f32 = 7.0;
/// The size of page numbers and running titles (the tagged PDF marks them furniture).
pub(super) const FOOTER: f32 = 8.0;
const INDENT: f32 = 14.0;
const PARA_GAP: f32 = 5.0;
const DIAGRAM_GAP: f32 = 10.0;

/// One thing drawn on a page.
#[derive(Debug, Clone, PartialEq)]
pub enum Item {
    /// A line of text in one weight, in points.
    Text(PageText),
    /// Diagram `n` of the flow, its top-left corner at (x, y), `size` points wide.
    Diagram {
        /// Which diagram.
        n: usize,
        /// Left.
        x: f32,
        /// Top.
        y: f32,
        /// Width of the board drawing (its `size`).
        size: u32,
    },
    /// A horizontal rule.
    Rule {
        /// Left end.
        x1: f32,
        /// Right end.
        x2: f32,
        /// Height.
        y: f32,
    },
}

/// A page: its items.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Page {
    /// What is drawn, in order.
    pub items: Vec<Item>,
}

/// Where the next block goes.
struct Cursor {
    pages: Vec<Page>,
    column: usize,
    y: f32,
    /// Where columns start on the current page.
    top: f32,
}

/// Sets a flow on pages.
struct Setter<'a> {
    options: &'a ArticleOptions,
    width: f32,
    height: f32,
    column_width: f32,
    columns: usize,
    at: Cursor,
}

impl Setter<'_> {
    fn bottom(&self) -> f32 {
        self.height - MARGIN
    }

    fn left(&self) -> f32 {
        MARGIN + self.at.column as f32 * (self.column_width + COLUMN_GAP)
    }

    fn page(&mut self) -> &mut Page {
        self.at.pages.last_mut().expect("a page")
    }

    /// Room for `h` points: the next column or page when the current one is full.
    fn room(&mut self, h: f32) {
        if self.at.y + h <= self.bottom() || self.at.y <= self.at.top {
            return;
        }
        if self.at.column + 1 < self.columns {
            self.at.column += 1;
        } else {
            self.at.pages.push(Page::default());
            self.at.column = 0;
            self.at.top = MARGIN;
        }
        self.at.y = self.at.top;
    }

    fn header(&mut self, flow: &Flow) -> Result<(), RenderError> {
        let (bold, book) = (face(true)?, face(false)?);
        let mut y = MARGIN + bold.cap_height(TITLE);
        for line in bold.wrap(&flow.header.title, TITLE, self.width - 2.0 * MARGIN, 3) {
            self.page().items.push(Item::Text(PageText {
                x: MARGIN,
                baseline: y,
                size: TITLE,
                bold: true,
                text: line,
            }));
            y += TITLE * 1.3;
        }
        for line in &flow.header.lines {
            for part in book.wrap(line, SUBTITLE, self.width - 2.0 * MARGIN, 3) {
                self.page().items.push(Item::Text(PageText {
                    x: MARGIN,
                    baseline: y,
                    size: SUBTITLE,
                    bold: false,
                    text: part,
                }));
                y += SUBTITLE * LEADING;
            }
        }
        let rule = y - SUBTITLE * LEADING + 8.0;
        let x2 = self.width - MARGIN;
        self.page().items.push(Item::Rule {
            x1: MARGIN,
            x2,
            y: rule,
        });
        self.at.top = rule + 14.0;
        self.at.y = self.at.top;
        Ok(())
    }

    fn para(&mut self, depth: usize, words: &[Word]) -> Result<(), RenderError> {
        let size = if depth == 0 { BODY } else { VARIATION };
        let indent = INDENT * depth.min(4) as f32;
        let lines = break_lines(words, size, self.column_width - indent)?;
        let leading = size * LEADING;
        for line in lines {
            self.room(leading);
            let mut x = self.left() + indent;
            let baseline = self.at.y + size;
            for word in &line {
                for piece in word {
                    let w = face(piece.bold)?.width(&piece.text, size);
                    self.page().items.push(Item::Text(PageText {
                        x,
                        baseline,
                        size,
                        bold: piece.bold,
                        text: piece.text.clone(),
                    }));
                    x += w;
                }
                x += face(false)?.width(" ", size);
            }
            self.at.y += leading;
        }
        self.at.y += PARA_GAP;
        Ok(())
    }

    fn diagram(&mut self, flow: &Flow, n: usize, height_of: &Heights) -> Result<(), RenderError> {
        let d = &flow.diagrams[n];
        let book = face(false)?;
        let wanted = if d.in_variation {
            self.options.size * 3 / 4
        } else {
            self.options.size
        };
        let mut size = (wanted as f32).min(self.column_width).floor() as u32;
        let fen = match self.options.fen {
            true => book.wrap(&d.position.to_string(), FEN, self.column_width, 3),
            false => Vec::new(),
        };
        let caption = book.wrap(&d.caption, CAPTION, self.column_width, 2);
        let text = caption.len() as f32 * CAPTION * LEADING + fen.len() as f32 * FEN * LEADING;
        let mut board = height_of(n, size);
        // Short of room, a diagram shrinks to as little as 3/4 of its size rather than
        // leaving the rest of the column empty.
        let room = self.bottom() - self.at.y - (2.0 * DIAGRAM_GAP + 4.0 + text);
        if board > room && room >= 0.75 * board {
            size = (size as f32 * room / board).floor() as u32;
            board = height_of(n, size);
        }
        let h = DIAGRAM_GAP + board + 4.0 + text + DIAGRAM_GAP;
        self.room(h);
        let centre = self.left() + self.column_width / 2.0;
        let top = (self.at.y + DIAGRAM_GAP).round();
        let x = (centre - size as f32 / 2.0).round();
        self.page().items.push(Item::Diagram { n, x, y: top, size });
        let mut baseline = top + board + 4.0 + CAPTION;
        let lines = caption
            .iter()
            .map(|l| (l, CAPTION))
            .chain(fen.iter().map(|l| (l, FEN)));
        for (line, px) in lines {
            let w = book.width(line, px);
            self.page().items.push(Item::Text(PageText {
                x: centre - w / 2.0,
                baseline,
                size: px,
                bold: false,
                text: line.clone(),
            }));
            baseline += px * LEADING;
        }
        self.at.y += h;
        Ok(())
    }

    /// Page numbers, and the title over every page after the first.
    fn furniture(&mut self, flow: &Flow) -> Result<(), RenderError> {
        let book = face(false)?;
        let count = self.at.pages.len();
        let title = book.fit(&flow.header.title, FOOTER, self.width - 2.0 * MARGIN - 60.0);
        for (i, page) in self.at.pages.iter_mut().enumerate() {
            let number = format!("{}", i + 1);
            if count > 1 {
                page.items.push(Item::Text(PageText {
                    x: (self.width - book.width(&number, FOOTER)) / 2.0,
                    baseline: self.height - MARGIN / 2.0,
                    size: FOOTER,
                    bold: false,
                    text: number,
                }));
            }
            if i > 0 {
                page.items.push(Item::Text(PageText {
                    x: MARGIN,
                    baseline: MARGIN / 2.0 + FOOTER,
                    size: FOOTER,
                    bold: false,
                    text: title.clone(),
                }));
            }
        }
        Ok(())
    }
}

/// The height in points of diagram `n` drawn `size` points wide.
pub type Heights<'a> = dyn Fn(usize, u32) -> f32 + 'a;

/// The width of `word` at `size`.
fn measure(word: &Word, size: f32) -> Result<f32, RenderError> {
    let mut w = 0.0;
    for piece in word {
        w += face(piece.bold)?.width(&piece.text, size);
    }
    Ok(w)
}

/// `word` as it fits lines `width` points wide: itself, or, wider than a line (text without
/// spaces, as Japanese is written; a long link), cut between characters into line-wide parts.
fn fit(word: &Word, size: f32, width: f32) -> Result<Vec<Word>, RenderError> {
    let [piece] = word.as_slice() else {
        return Ok(vec![word.clone()]);
    };
    let f = face(piece.bold)?;
    if f.width(&piece.text, size) <= width {
        return Ok(vec![word.clone()]);
    }
    let part = |text: String| {
        vec![super::flow::Span {
            bold: piece.bold,
            text,
        }]
    };
    // The chunk's width and length kept as it grows (linear in the word, however long).
    let (mut parts, mut chunk, mut w, mut n) = (Vec::new(), String::new(), 0.0f32, 0usize);
    for c in piece.text.chars() {
        let advance = f.advance(c, size);
        if n >= 1 && w + advance > width {
            parts.push(part(std::mem::take(&mut chunk)));
            (w, n) = (0.0, 0);
        }
        chunk.push(c);
        (w, n) = (w + advance, n + 1);
    }
    parts.push(part(chunk));
    Ok(parts)
}

/// `words` in lines at most `width` points wide at `size`.
fn break_lines(words: &[Word], size: f32, width: f32) -> Result<Vec<Vec<Word>>, RenderError> {
    let space = face(false)?.width(" ", size);
    let (mut lines, mut line, mut x): (Vec<Vec<Word>>, Vec<Word>, f32) =
        (Vec::new(), Vec::new(), 0.0);
    for word in words {
        for part in fit(word, size, width)? {
            let w = measure(&part, size)?;
            if !line.is_empty() && x + space + w > width {
                lines.push(std::mem::take(&mut line));
                x = 0.0;
            }
            x += if line.is_empty() { w } else { space + w };
            line.push(part);
        }
    }
    if !line.is_empty() {
        lines.push(line);
    }
    Ok(lines)
}

/// The flow on pages of the options' paper.
pub fn set(
    flow: &Flow,
    options: &ArticleOptions,
    height_of: &Heights,
) -> Result<Vec<Page>, RenderError> {
    let (width, height) = options.paper.points();
    let columns = usize::from(options.columns.clamp(1, 2));
    let column_width =
        ((width - 2.0 * MARGIN) - (columns - 1) as f32 * COLUMN_GAP) / columns as f32;
    let mut s = Setter {
        options,
        width,
        height,
        column_width,
        columns,
        at: Cursor {
            pages: vec![Page::default()],
            column: 0,
            y: MARGIN,
            top: MARGIN,
        },
    };
    s.header(flow)?;
    for block in &flow.blocks {
        crate::render::cancel::check()?;
        match block {
            Block::Para { depth, words } => s.para(*depth, words)?,
            Block::Diagram(n) => s.diagram(flow, *n, height_of)?,
        }
    }
    s.furniture(flow)?;
    Ok(s.at.pages)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::render::layouts::article::flow::Span;

    #[test]
    fn no_line_is_wider_than_its_column_even_with_a_word_wider_than_one() {
        let word = |text: &str| {
            vec![Span {
                bold: false,
                text: text.into(),
            }]
        };
        let long = "https://example.org/".to_string() + &"a-very-long-path/".repeat(12);
        let words = vec![word("See"), word(&long), word("for"), word("more.")];
        let lines = break_lines(&words, BODY, 200.0).expect("breaks");
        assert!(lines.len() >= 4, "{lines:?}");
        for line in &lines {
            let w: f32 = line
                .iter()
                .map(|w| measure(w, BODY).expect("measures"))
                .sum();
            assert!(w <= 200.0 + 0.01, "{w} pt: {line:?}");
        }
        let text: String = lines
            .iter()
            .flatten()
            .flatten()
            .map(|p| p.text.as_str())
            .collect();
        assert_eq!(text, format!("See{long}formore."), "nothing is lost");
    }
}
