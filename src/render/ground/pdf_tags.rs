//! Tagged PDF (PDF/UA-1): the structure tree every PDF of Staunton carries, and the
//! catalog, document info and XMP metadata that go with it. A writer opens a marked-content
//! sequence ([`Tags::begin`]) around each heading, line of text and diagram it draws, and
//! marks what is only decoration ([`Tags::artifact`]); [`Tags::write`] then writes one
//! `Document` element holding every element in the order they were drawn (reading order),
//! each diagram a `Figure` with its alternative text, and the `/ParentTree` that leads from
//! each page's marked content back to its element. Imports nothing of `render`.

use pdf_writer::types::StructRole;
use pdf_writer::writers::StructTreeRoot;
use pdf_writer::{Content, Finish, Name, Pdf, Ref, TextStr};

/// What a marked-content sequence is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ContentRole {
    /// A heading (the title of a worksheet or an article).
    Heading,
    /// A line of text (moves, comments, captions).
    Paragraph,
    /// A diagram, with its alternative text.
    Figure(String),
}

/// The document as a whole: its title (shown in the viewer's title bar) and language
/// (a BCP 47 code such as `en` or `de`).
#[derive(Debug, Clone, Copy)]
pub struct About<'a> {
    /// The title.
    pub title: &'a str,
    /// The language code.
    pub lang: &'a str,
}

/// The structure of a document being written: its elements in reading order.
#[derive(Debug, Default)]
pub struct Tags {
    /// Each element: what it is, and its sequences (page, MCID) in order.
    elements: Vec<(ContentRole, Vec<(usize, i32)>)>,
    /// How many MCIDs each page has used.
    pages: Vec<i32>,
}

impl Tags {
    /// Start a new page: later sequences are on it.
    pub fn page(&mut self) {
        self.pages.push(0);
    }

    /// Open a sequence for a new element of `role` on the current page (`/P << /MCID n >>
    /// BDC`, say); [`Tags::end`] closes it.
    pub fn begin(&mut self, content: &mut Content, role: ContentRole) {
        self.elements.push((role, Vec::new()));
        self.resume(content);
    }

    /// Open a further sequence of the element begun last (a paragraph's next line), on
    /// the current page; [`Tags::end`] closes it.
    pub fn resume(&mut self, content: &mut Content) {
        if self.pages.is_empty() {
            self.page();
        }
        let page = self.pages.len() - 1;
        let mcid = self.pages[page];
        self.pages[page] += 1;
        let Some((role, sequences)) = self.elements.last_mut() else {
            return;
        };
        let tag: &[u8] = match role {
            ContentRole::Heading => b"H1",
            ContentRole::Paragraph => b"P",
            ContentRole::Figure(_) => b"Figure",
        };
        content
            .begin_marked_content_with_properties(Name(tag))
            .properties()
            .identify(mcid);
        sequences.push((page, mcid));
    }

    /// The role of the element begun last.
    pub fn last(&self) -> Option<&ContentRole> {
        self.elements.last().map(|(role, _)| role)
    }

    /// Close the sequence opened last.
    pub fn end(content: &mut Content) {
        content.end_marked_content();
    }

    /// Open a sequence of decoration (`/Artifact BMC`), which readers skip; [`Tags::end`]
    /// closes it.
    pub fn artifact(content: &mut Content) {
        content.begin_marked_content(Name(b"Artifact"));
    }

    /// Write the structure tree, the document info and the XMP metadata, from `next`, and
    /// the catalog at `catalog` with the page tree `tree` (whose pages, `pages` in order,
    /// each carry `/StructParents` equal to their index).
    pub fn write(&self, pdf: &mut Pdf, next: &mut Ref, pages: &[Ref], (catalog, tree): (Ref, Ref), about: About) {
        let (root, document, info, metadata) = (next.bump(), next.bump(), next.bump(), next.bump());
        let refs: Vec<Ref> = self.elements.iter().map(|_| next.bump()).collect();
        let arrays: Vec<Ref> = pages.iter().map(|_| next.bump()).collect();
        for ((role, sequences), &id) in self.elements.iter().zip(&refs) {
            let mut element = pdf.struct_element(id);
            let first = sequences.first().map_or(0, |s| s.0);
            element.parent(document).page(pages[first]);
            match role {
                ContentRole::Heading => element.kind(StructRole::H1),
                ContentRole::Paragraph => element.kind(StructRole::P),
                ContentRole::Figure(alt) => element.kind(StructRole::Figure).alt(TextStr(alt)),
            };
            let mut children = element.children();
            for &(page, mcid) in sequences {
                if page == first {
                    children.marked_content_id(mcid);
                } else {
                    children
                        .marked_content_ref()
                        .marked_content_id(mcid)
                        .page(pages[page]);
                }
            }
        }
        let mut doc = pdf.struct_element(document);
        doc.kind(StructRole::Document)
            .parent(root)
            .lang(TextStr(about.lang));
        let mut children = doc.children();
        for &id in &refs {
            children.struct_element(id);
        }
        children.finish();
        doc.finish();
        // Each page's MCIDs, in order, lead to their elements.
        for (n, &array) in arrays.iter().enumerate() {
            let mut on_page: Vec<(i32, Ref)> = Vec::new();
            for ((_, sequences), &id) in self.elements.iter().zip(&refs) {
                on_page.extend(sequences.iter().filter(|s| s.0 == n).map(|s| (s.1, id)));
            }
            on_page.sort();
            pdf.indirect(array).array().items(on_page.into_iter().map(|(_, id)| id));
        }
        let mut tree_root = pdf.indirect(root).start::<StructTreeRoot>();
        tree_root.child(document);
        let mut parents = tree_root.parent_tree();
        let mut nums = parents.nums();
        for (n, &array) in arrays.iter().enumerate() {
            nums.insert(n as i32, array);
        }
        nums.finish();
        parents.finish();
        tree_root.parent_tree_next_key(pages.len() as i32);
        tree_root.finish();
        pdf.document_info(info)
            .title(TextStr(about.title))
            .creator(TextStr(CREATOR));
        let xmp = xmp(about);
        pdf.metadata(metadata, xmp.as_bytes());
        let mut cat = pdf.catalog(catalog);
        cat.pages(tree).lang(TextStr(about.lang)).metadata(metadata);
        cat.pair(Name(b"StructTreeRoot"), root);
        cat.mark_info().marked(true);
        cat.viewer_preferences().display_doc_title(true);
    }
}

/// The program named in the document info and the XMP metadata.
const CREATOR: &str = "Staunton";

/// `text` with XML's special characters escaped.
fn escaped(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

/// The XMP metadata: title, language, creator, and the PDF/UA-1 identification.
fn xmp(about: About) -> String {
    format!(
        concat!(
            "<?xpacket begin=\"\u{feff}\" id=\"W5M0MpCehiHzreSzNTczkc9d\"?>\n",
            "<x:xmpmeta xmlns:x=\"adobe:ns:meta/\">\n",
            "<rdf:RDF xmlns:rdf=\"http://www.w3.org/1999/02/22-rdf-syntax-ns#\">\n",
            "<rdf:Description rdf:about=\"\"",
            " xmlns:dc=\"http://purl.org/dc/elements/1.1/\"",
            " xmlns:xmp=\"http://ns.adobe.com/xap/1.0/\"",
            " xmlns:pdfuaid=\"http://www.aiim.org/pdfua/ns/id/\">\n",
            "<dc:format>application/pdf</dc:format>\n",
            "<dc:title><rdf:Alt><rdf:li xml:lang=\"x-default\">{title}</rdf:li></rdf:Alt></dc:title>\n",
            "<dc:language><rdf:Bag><rdf:li>{lang}</rdf:li></rdf:Bag></dc:language>\n",
            "<xmp:CreatorTool>{creator}</xmp:CreatorTool>\n",
            "<pdfuaid:part>1</pdfuaid:part>\n",
            "</rdf:Description>\n</rdf:RDF>\n</x:xmpmeta>\n",
            "<?xpacket end=\"r\"?>"
        ),
        title = escaped(about.title),
        lang = escaped(about.lang),
        creator = CREATOR,
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_tree_holds_each_element_in_order_with_its_page_and_mcid() {
        let mut tags = Tags::default();
        let mut content = Content::new();
        tags.page();
        tags.begin(&mut content, ContentRole::Heading);
        Tags::end(&mut content);
        tags.resume(&mut content);
        Tags::end(&mut content);
        Tags::artifact(&mut content);
        Tags::end(&mut content);
        tags.page();
        tags.begin(&mut content, ContentRole::Figure("White: King e1.".into()));
        Tags::end(&mut content);
        let stream = String::from_utf8(content.finish()).expect("ascii");
        let stream = stream.split_whitespace().collect::<Vec<_>>().join(" ");
        assert!(stream.contains("/H1 << /MCID 0 >> BDC EMC"), "{stream}");
        assert!(stream.contains("/H1 << /MCID 1 >> BDC EMC"), "{stream}");
        assert!(stream.contains("/Artifact BMC EMC"), "{stream}");
        assert!(stream.contains("/Figure << /MCID 0 >> BDC EMC"), "{stream}");
        let mut pdf = Pdf::new();
        let mut next = Ref::new(3);
        let pages = [Ref::new(1), Ref::new(2)];
        let about = About { title: "A & B", lang: "de" };
        tags.write(&mut pdf, &mut next, &pages, (Ref::new(100), Ref::new(101)), about);
        let bytes = pdf.finish();
        let text = String::from_utf8_lossy(&bytes);
        for want in [
            "/Type /StructTreeRoot",
            "/S /Figure",
            "/K [0 1]",
            "/Alt (White: King e1.)",
            "/Lang (de)",
            "/Marked true",
            "/DisplayDocTitle true",
            "<pdfuaid:part>1</pdfuaid:part>",
            "A &amp; B",
            "/Title (A & B)",
        ] {
            assert!(text.contains(want), "{want} missing from {text}");
        }
    }
}
