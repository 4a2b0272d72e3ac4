//! Pages of text lines, diagrams and rules written as one tagged PDF (PDF/UA-1): what
//! worksheets and articles print. Text is real text in the embedded faces
//! (`render::art::pdf_font`), each line a paragraph (a title a heading); a run in a face
//! that cannot be embedded is outlines carrying its text as `/ActualText`; each diagram is
//! its SVG's vector drawing (`ground::pdf::xobject`) in a figure with alternative text;
//! rules are decoration (artifacts). The structure tree, in the order things are drawn,
//! comes from `ground::pdf_tags`.

use crate::render::art::font::TextFace;
use crate::render::art::pdf_font::Fonts;
use crate::render::ground::RenderError;
use crate::render::ground::pdf::xobject;
use crate::render::ground::pdf_tags::{About, ContentRole, Tags};
use crate::render::layouts::page_text::PageText;
use pdf_writer::{Content, Finish, Name, Pdf, Rect, Ref, Str};

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

/// Share of the size that a bold line's figurines are stroked with: DejaVu draws them as
/// thin in bold as in book, and a move in the main line would read `2.♘f3` with a light
/// knight beside heavy letters.
const FIGURINE_STROKE: f32 = 0.02;

/// The chess figurines (U+2654–U+265F).
fn is_figurine(c: char) -> bool {
    ('\u{2654}'..='\u{265f}').contains(&c)
}

/// One line of text: real text in its faces (a bold line's figurines stroked heavier), or
/// outlines for a face that cannot be embedded, with their text as `/ActualText`. In an
/// element's sequence (`tags` given), a run of outlines gets a sequence of its own (see
/// [`show_outlines`]).
fn show_line(
    content: &mut Content,
    fonts: &mut Fonts,
    line: &PageText,
    h: f32,
    mut tags: Option<&mut Tags>,
) -> Result<(), RenderError> {
    let (size, mut pen) = (line.size, line.x);
    let builtin = line.face()?;
    let runs = builtin.runs(&line.text);
    // Whether the sequence open now holds something.
    let mut holds = false;
    for (n, (f, run)) in runs.iter().enumerate() {
        // A run of the system's faces (drawn through the built-in face's fallback), or of a
        // face that cannot be embedded: outlines.
        let Some(f) = f.filter(|f| f.pdf_face().embeddable()) else {
            let split = |content: &mut Content, tags: &mut Option<&mut Tags>| {
                if let Some(tags) = tags.as_deref_mut() {
                    Tags::end(content);
                    tags.resume(content);
                }
            };
            if holds {
                split(content, &mut tags);
            }
            let at = (size, pen, line.baseline);
            pen += show_outlines(content, fonts, (f.unwrap_or(builtin), builtin), run, at, h);
            holds = true;
            if n + 1 < runs.len() {
                split(content, &mut tags);
                holds = false;
            }
            continue;
        };
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
            holds = true;
        }
    }
    Ok(())
}

/// `run` in `face` (which cannot be embedded) drawn as outlines, `size` units, baseline
/// at (`x`, `baseline`) on a page `h` units tall, as a `/Span` whose `/ActualText` is the
/// run's text, with an invisible space of `builtin` (embedded) stretched over the outlines
/// (poppler gives an `/ActualText` back only where some text is shown inside it); its
/// width. Outlines are no text: without this, text extraction and screen readers get
/// nothing. The `/Span` is the only thing its element's sequence holds, because poppler's
/// reading of the structure ends an element's sequence at the first `EMC` inside it.
fn show_outlines(
    content: &mut Content,
    fonts: &mut Fonts,
    (face, builtin): (&TextFace, &'static TextFace),
    run: &str,
    (size, x, baseline): (f32, f32, f32),
    h: f32,
) -> f32 {
    let width = face.width(run, size);
    content
        .begin_marked_content_with_properties(Name(b"Span"))
        .properties()
        .pair(Name(b"ActualText"), Str(&utf16_with_bom(run)));
    outline(content, face, run, (size, x, baseline), h);
    fonts.mark_place(content, builtin.pdf_face(), (size, x, h - baseline), width);
    content.end_marked_content();
    width
}

/// `text` as a PDF text string in UTF-16BE after its byte order mark.
fn utf16_with_bom(text: &str) -> Vec<u8> {
    let mut out = vec![0xfe, 0xff];
    out.extend(text.encode_utf16().flat_map(u16::to_be_bytes));
    out
}

/// A page being written: its content and the diagrams it names.
struct Page {
    content: Content,
    objects: Vec<(String, Ref)>,
}

/// A tagged PDF being written, page by page, in layout units (y down) that a fixed number
/// of points make.
pub(crate) struct TaggedPdf {
    pdf: Pdf,
    next: Ref,
    catalog: Ref,
    tree: Ref,
    fonts: Fonts,
    tags: Tags,
    done: Vec<Page>,
    current: Option<Page>,
    /// The paper, in points.
    paper: (f32, f32),
    /// Points per layout unit.
    unit: f32,
    /// The kind, size and baseline of the last run of text drawn, when nothing else has
    /// been drawn since.
    last_text: Option<(TextKind, f32, f32)>,
}

/// What a run of text is to a reader.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum TextKind {
    /// Part of the title.
    Heading,
    /// Part of a paragraph: moves, comments, captions.
    Paragraph,
    /// Page furniture (page numbers, running titles), which readers skip.
    Artifact,
}

impl TaggedPdf {
    /// A document on `paper` (width and height in points) whose pages are laid out in units
    /// `unit` points each (1: points; 72 / dpi: pixels at dpi).
    pub(crate) fn new(paper: (f32, f32), unit: f32) -> TaggedPdf {
        let mut next = Ref::new(1);
        let (catalog, tree) = (next.bump(), next.bump());
        TaggedPdf {
            pdf: Pdf::new(),
            next,
            catalog,
            tree,
            fonts: Fonts::default(),
            tags: Tags::default(),
            done: Vec::new(),
            current: None,
            paper,
            unit,
            last_text: None,
        }
    }

    /// The page's height in layout units.
    fn height(&self) -> f32 {
        self.paper.1 / self.unit
    }

    /// Start a new page.
    pub(crate) fn page(&mut self) {
        self.close();
        let mut content = Content::new();
        if self.unit != 1.0 {
            content.transform([self.unit, 0.0, 0.0, self.unit, 0.0, 0.0]);
        }
        self.tags.page();
        self.last_text = None;
        self.current = Some(Page {
            content,
            objects: Vec::new(),
        });
    }

    fn close(&mut self) {
        if let Some(page) = self.current.take() {
            self.done.push(page);
        }
    }

    /// Start a page when none is open.
    fn ensure_page(&mut self) {
        if self.current.is_none() {
            self.page();
        }
    }

    /// A run of text, what `kind` says. A heading or paragraph run goes on the element
    /// of the run drawn just before when that one is of the same kind and size and on the
    /// same line or the next (a paragraph's words and lines are one element); else it
    /// begins a new element.
    pub(crate) fn text(&mut self, line: &PageText, kind: TextKind) -> Result<(), RenderError> {
        let h = self.height();
        self.ensure_page();
        let page = self.current.as_mut().expect("a page is open");
        let role = match kind {
            TextKind::Heading => Some(ContentRole::Heading),
            TextKind::Paragraph => Some(ContentRole::Paragraph),
            TextKind::Artifact => None,
        };
        match role {
            None => Tags::artifact(&mut page.content),
            Some(role) => {
                let follows = self.last_text.as_ref().is_some_and(|(k, size, baseline)| {
                    let step = line.baseline - baseline;
                    *k == kind && *size == line.size && (-0.01..=line.size * 1.45).contains(&step)
                });
                if follows && self.tags.last() == Some(&role) {
                    self.tags.resume(&mut page.content);
                } else {
                    self.tags.begin(&mut page.content, role);
                }
                self.last_text = Some((kind, line.size, line.baseline));
            }
        }
        let tags = (kind != TextKind::Artifact).then_some(&mut self.tags);
        show_line(&mut page.content, &mut self.fonts, line, h, tags)?;
        Tags::end(&mut page.content);
        Ok(())
    }

    /// A diagram drawn from `svg`, `width` units wide with its top left corner at
    /// (`x`, `y`): a figure whose alternative text is `alt`.
    pub(crate) fn diagram(
        &mut self,
        svg: &str,
        alt: String,
        (x, y, width): (f32, f32, f32),
    ) -> Result<(), RenderError> {
        let h = self.height();
        let (chunk, root, (sw, sh)) = xobject(svg, &mut self.next)?;
        let (dw, dh) = (width, width * sh / sw);
        self.ensure_page();
        let page = self.current.as_mut().expect("a page is open");
        self.last_text = None;
        let name = format!("D{}", page.objects.len());
        self.tags.begin(&mut page.content, ContentRole::Figure(alt));
        page.content
            .save_state()
            .transform([dw, 0.0, 0.0, dh, x, h - y - dh])
            .x_object(Name(name.as_bytes()))
            .restore_state();
        Tags::end(&mut page.content);
        page.objects.push((name, root));
        self.pdf.extend(&chunk);
        Ok(())
    }

    /// A horizontal rule from `x1` to `x2` at height `y`: decoration.
    pub(crate) fn rule(&mut self, (x1, x2, y): (f32, f32, f32)) {
        let h = self.height();
        self.ensure_page();
        let page = self.current.as_mut().expect("a page is open");
        self.last_text = None;
        Tags::artifact(&mut page.content);
        page.content
            .set_line_width(0.6)
            .move_to(x1, h - y)
            .line_to(x2, h - y)
            .stroke();
        Tags::end(&mut page.content);
    }

    /// The finished document, titled and in the language as `about` says.
    pub(crate) fn finish(mut self, about: About) -> Result<Vec<u8>, RenderError> {
        self.close();
        let (w, h) = self.paper;
        let font_refs: Vec<Ref> = (0..self.fonts.count()).map(|_| self.next.bump()).collect();
        let mut kids = Vec::with_capacity(self.done.len());
        for (n, page) in self.done.into_iter().enumerate() {
            let (page_ref, content_ref) = (self.next.bump(), self.next.bump());
            kids.push(page_ref);
            self.pdf.stream(content_ref, &page.content.finish());
            let mut writer = self.pdf.page(page_ref);
            writer
                .media_box(Rect::new(0.0, 0.0, w, h))
                .parent(self.tree)
                .contents(content_ref)
                .struct_parents(n as i32);
            let mut resources = writer.resources();
            let mut xobjects = resources.x_objects();
            for (name, root) in &page.objects {
                xobjects.pair(Name(name.as_bytes()), *root);
            }
            xobjects.finish();
            self.fonts.resources(&mut resources.fonts(), &font_refs);
            resources.finish();
            writer.finish();
        }
        self.fonts
            .write(&mut self.pdf, &font_refs, &mut self.next)
            .map_err(failed)?;
        self.pdf.pages(self.tree).count(kids.len() as i32).kids(kids.iter().copied());
        self.tags
            .write(&mut self.pdf, &mut self.next, &kids, (self.catalog, self.tree), about);
        Ok(crate::render::ground::pdf::sorted_references(self.pdf.finish()))
    }
}
