//! Real text in a PDF: the TrueType faces text is set in, cut down to the glyphs a
//! document uses and embedded as CID fonts with a `ToUnicode` map, so a reader can select,
//! search and copy the words (`pdftotext` gives them back).
//!
//! The cut keeps every glyph's number (an unused glyph's outline is simply left out), so the
//! content stream shows glyph numbers as they are (`Identity-H`, `CIDToGIDMap /Identity`)
//! and no renumbering is needed. Only faces with TrueType outlines (`glyf`) can be cut;
//! DejaVu, which every text of Staunton is set in, is one.

use pdf_writer::types::{
    CidFontType, FontFlags, LineJoinStyle, SystemInfo, TextRenderingMode, UnicodeCmap,
};
use pdf_writer::{Content, Dict, Filter, Finish, Name, Pdf, Rect, Ref, Str};
use std::collections::BTreeMap;

/// A face text is set in: its font file, and how its glyphs are found.
pub struct Face {
    /// The font file (TrueType outlines).
    pub data: &'static [u8],
    /// The face as parsed from `data`.
    pub parsed: &'static ttf_parser::Face<'static>,
}

impl Face {
    /// Whether its outlines are TrueType (`glyf`), which [`subset`] can cut; a face with
    /// CFF outlines is drawn as paths instead.
    pub fn embeddable(&self) -> bool {
        self.parsed.tables().glyf.is_some()
    }
}

/// The faces a document has used so far, and which glyphs of each (with the text each
/// glyph stands for).
#[derive(Default)]
pub struct Fonts {
    used: Vec<(Face, BTreeMap<u16, char>)>,
}

impl Fonts {
    /// The resource name of face `i` (`F0`, `F1`, …).
    fn name(i: usize) -> String {
        format!("F{i}")
    }

    fn index(&mut self, face: Face) -> usize {
        match self.used.iter().position(|(f, _)| std::ptr::eq(f.data, face.data)) {
            Some(i) => i,
            None => {
                self.used.push((face, BTreeMap::new()));
                self.used.len() - 1
            }
        }
    }

    /// The number of `face` and the codes of `text`'s glyphs in it (each glyph noted as
    /// used, with the character it stands for).
    fn codes(&mut self, face: Face, text: &str) -> (usize, Vec<u8>) {
        let i = self.index(face);
        let (parsed, glyphs) = (self.used[i].0.parsed, &mut self.used[i].1);
        let mut codes = Vec::with_capacity(text.len() * 2);
        for c in text.chars() {
            let g = parsed
                .glyph_index(c)
                .or_else(|| parsed.glyph_index('?'))
                .map_or(0, |g| g.0);
            glyphs.entry(g).or_insert(c);
            codes.extend_from_slice(&g.to_be_bytes());
        }
        (i, codes)
    }

    /// Show `text` in `face` at `size` points with the left end of its baseline at
    /// (`x`, `y`) (PDF coordinates, y up). Characters the face lacks show its `?`.
    /// `stroke`, when given, also strokes the glyphs' outlines that many points wide: a
    /// heavier weight of glyphs the bold face draws as thin as the book one.
    pub fn show(
        &mut self,
        content: &mut Content,
        face: Face,
        (size, x, y): (f32, f32, f32),
        text: &str,
        stroke: Option<f32>,
    ) {
        let (i, codes) = self.codes(face, text);
        if let Some(width) = stroke {
            content
                .save_state()
                .set_line_width(width)
                .set_line_join(LineJoinStyle::RoundJoin);
        }
        content.begin_text();
        if stroke.is_some() {
            content.set_text_rendering_mode(TextRenderingMode::FillStroke);
        }
        content
            .set_font(Name(Self::name(i).as_bytes()), size)
            .next_line(x, y)
            .show(Str(&codes))
            .end_text();
        if stroke.is_some() {
            content.restore_state();
        }
    }

    /// An invisible space of `face` (an embeddable face) at `size` points, the left end of
    /// its baseline at (`x`, `y`) (PDF coordinates, y up), stretched to `width` points:
    /// where a run drawn as outlines stands, for text extraction, which takes the run's
    /// text from the `/ActualText` around both (poppler gives an `/ActualText` only where
    /// some text is shown inside it).
    pub fn mark_place(
        &mut self,
        content: &mut Content,
        face: Face,
        (size, x, y): (f32, f32, f32),
        width: f32,
    ) {
        let advance = face
            .parsed
            .glyph_index(' ')
            .and_then(|g| face.parsed.glyph_hor_advance(g))
            .map_or(0.0, |a| f32::from(a) / f32::from(face.parsed.units_per_em()) * size);
        let stretch = if advance > 0.0 && width > 0.0 {
            100.0 * width / advance
        } else {
            100.0
        };
        let (i, codes) = self.codes(face, " ");
        // Set back by hand, not by a saved state: a reader reads the run's size from the
        // font set when the `/ActualText` ends, after the space.
        content
            .begin_text()
            .set_text_rendering_mode(TextRenderingMode::Invisible)
            .set_horizontal_scaling(stretch)
            .set_font(Name(Self::name(i).as_bytes()), size)
            .next_line(x, y)
            .show(Str(&codes))
            .end_text()
            .set_text_rendering_mode(TextRenderingMode::Fill)
            .set_horizontal_scaling(100.0);
    }

    /// Name every face on a page's resources.
    pub fn resources(&self, fonts: &mut Dict, refs: &[Ref]) {
        for (i, r) in refs.iter().enumerate() {
            fonts.pair(Name(Self::name(i).as_bytes()), *r);
        }
    }

    /// How many faces were used.
    pub fn count(&self) -> usize {
        self.used.len()
    }

    /// Write every face used as a Type 0 font at `refs[i]` (five objects each from `next`).
    pub fn write(&self, pdf: &mut Pdf, refs: &[Ref], next: &mut Ref) -> Result<(), String> {
        for (i, (face, glyphs)) in self.used.iter().enumerate() {
            write_face(pdf, refs[i], next, face, glyphs, i)?;
        }
        Ok(())
    }
}

fn write_face(
    pdf: &mut Pdf,
    font: Ref,
    next: &mut Ref,
    face: &Face,
    glyphs: &BTreeMap<u16, char>,
    i: usize,
) -> Result<(), String> {
    let (cid, descriptor, file, cmap) = (next.bump(), next.bump(), next.bump(), next.bump());
    let f = face.parsed;
    let per_unit = 1000.0 / f32::from(f.units_per_em());
    // A tag of six capitals marks a subset (PDF 32000-1 §9.6.4); unique per face here.
    let name = format!("STN{}AA+{}", (b'A' + i as u8 % 26) as char, postscript_name(f));
    let name = Name(name.as_bytes());
    let system = SystemInfo {
        registry: Str(b"Adobe"),
        ordering: Str(b"Identity"),
        supplement: 0,
    };
    pdf.type0_font(font)
        .base_font(name)
        .encoding_predefined(Name(b"Identity-H"))
        .descendant_font(cid)
        .to_unicode(cmap);
    let mut cid_font = pdf.cid_font(cid);
    cid_font
        .subtype(CidFontType::Type2)
        .base_font(name)
        .system_info(system)
        .font_descriptor(descriptor)
        .cid_to_gid_map_predefined(Name(b"Identity"));
    let mut widths = cid_font.widths();
    for &g in glyphs.keys() {
        let advance = f.glyph_hor_advance(ttf_parser::GlyphId(g)).unwrap_or(0);
        widths.consecutive(g, [f32::from(advance) * per_unit]);
    }
    widths.finish();
    cid_font.finish();
    let b = f.global_bounding_box();
    let scaled = |v: i16| f32::from(v) * per_unit;
    pdf.font_descriptor(descriptor)
        .name(name)
        .flags(FontFlags::NON_SYMBOLIC)
        .bbox(Rect::new(
            scaled(b.x_min),
            scaled(b.y_min),
            scaled(b.x_max),
            scaled(b.y_max),
        ))
        .italic_angle(0.0)
        .ascent(scaled(f.ascender()))
        .descent(scaled(f.descender()))
        .cap_height(scaled(f.capital_height().unwrap_or(f.ascender())))
        .stem_v(if f.is_bold() { 140.0 } else { 80.0 })
        .font_file2(file);
    let cut = subset(face.data, glyphs.keys().copied())?;
    let packed = miniz_oxide::deflate::compress_to_vec_zlib(&cut, 6);
    pdf.stream(file, &packed)
        .filter(Filter::FlateDecode)
        .pair(Name(b"Length1"), cut.len() as i32);
    let mut map = UnicodeCmap::new(Name(b"Custom"), system);
    for (&g, &c) in glyphs {
        map.pair(g, c);
    }
    pdf.cmap(cmap, &map.finish());
    Ok(())
}

/// The face's PostScript name, letters and digits only (a PDF name), or `Font`.
fn postscript_name(f: &ttf_parser::Face) -> String {
    let name = f
        .names()
        .into_iter()
        .find(|n| n.name_id == ttf_parser::name_id::POST_SCRIPT_NAME && n.is_unicode())
        .and_then(|n| n.to_string())
        .unwrap_or_default();
    let name: String = name
        .chars()
        .filter(|c| c.is_ascii_alphanumeric() || *c == '-')
        .collect();
    if name.is_empty() { "Font".into() } else { name }
}

/// Read a big-endian `u16` / `u32` at `at`, or fail naming the font as unreadable.
fn u16_at(data: &[u8], at: usize) -> Result<u16, String> {
    data.get(at..at + 2)
        .map(|b| u16::from_be_bytes([b[0], b[1]]))
        .ok_or_else(|| "the font file is cut short".to_string())
}

fn u32_at(data: &[u8], at: usize) -> Result<u32, String> {
    data.get(at..at + 4)
        .map(|b| u32::from_be_bytes([b[0], b[1], b[2], b[3]]))
        .ok_or_else(|| "the font file is cut short".to_string())
}

/// A font table: its tag and bytes.
type Table<'a> = ([u8; 4], &'a [u8]);

/// The tables of a font file.
fn tables(data: &[u8]) -> Result<Vec<Table<'_>>, String> {
    let count = usize::from(u16_at(data, 4)?);
    (0..count)
        .map(|n| {
            let record = 12 + 16 * n;
            let tag = data
                .get(record..record + 4)
                .ok_or("the font file is cut short")?;
            let (offset, length) = (
                u32_at(data, record + 8)? as usize,
                u32_at(data, record + 12)? as usize,
            );
            let bytes = data
                .get(offset..offset + length)
                .ok_or("a table of the font file lies outside it")?;
            Ok(([tag[0], tag[1], tag[2], tag[3]], bytes))
        })
        .collect()
}

/// Glyph `g`'s bytes in `glyf`, by `loca` (short or long offsets).
fn glyph_bytes<'a>(glyf: &'a [u8], loca: &[u8], long: bool, g: u16) -> Result<&'a [u8], String> {
    let g = usize::from(g);
    let (start, end) = match long {
        true => (u32_at(loca, 4 * g)? as usize, u32_at(loca, 4 * g + 4)? as usize),
        false => (
            usize::from(u16_at(loca, 2 * g)?) * 2,
            usize::from(u16_at(loca, 2 * g + 2)?) * 2,
        ),
    };
    glyf.get(start..end.max(start))
        .ok_or_else(|| "a glyph of the font file lies outside it".to_string())
}

/// The glyphs a composite glyph is built from.
fn components(glyph: &[u8]) -> Result<Vec<u16>, String> {
    let mut out = Vec::new();
    if glyph.len() < 10 || (u16_at(glyph, 0)? as i16) >= 0 {
        return Ok(out);
    }
    let mut at = 10;
    loop {
        let flags = u16_at(glyph, at)?;
        out.push(u16_at(glyph, at + 2)?);
        at += 4 + if flags & 0x0001 != 0 { 4 } else { 2 };
        at += match flags {
            f if f & 0x0008 != 0 => 2,
            f if f & 0x0040 != 0 => 4,
            f if f & 0x0080 != 0 => 8,
            _ => 0,
        };
        if flags & 0x0020 == 0 {
            return Ok(out);
        }
    }
}

/// `data` (a TrueType font) keeping only the outlines of `glyphs`, glyph 0 and the glyphs
/// they are built from; every glyph keeps its number. Only the tables a PDF reader needs
/// are kept (PDF 32000-1 §9.9).
pub fn subset(data: &'static [u8], glyphs: impl Iterator<Item = u16>) -> Result<Vec<u8>, String> {
    let all = tables(data)?;
    let table = |tag: &[u8; 4]| all.iter().find(|(t, _)| t == tag).map(|(_, b)| *b);
    let (Some(head), Some(loca), Some(glyf)) = (table(b"head"), table(b"loca"), table(b"glyf"))
    else {
        return Err("the font has no TrueType outlines to embed".into());
    };
    let long = u16_at(head, 50)? == 1;
    let mut keep: std::collections::BTreeSet<u16> = glyphs.chain([0]).collect();
    let mut todo: Vec<u16> = keep.iter().copied().collect();
    while let Some(g) = todo.pop() {
        for part in components(glyph_bytes(glyf, loca, long, g)?)? {
            if keep.insert(part) {
                todo.push(part);
            }
        }
    }
    let count = usize::from(u16_at(table(b"maxp").ok_or("the font has no maxp")?, 4)?);
    let (mut new_glyf, mut new_loca) = (Vec::new(), Vec::with_capacity(4 * count + 4));
    for g in 0..count as u16 {
        new_loca.extend_from_slice(&(new_glyf.len() as u32).to_be_bytes());
        if keep.contains(&g) {
            new_glyf.extend_from_slice(glyph_bytes(glyf, loca, long, g)?);
            new_glyf.resize(new_glyf.len().next_multiple_of(4), 0);
        }
    }
    new_loca.extend_from_slice(&(new_glyf.len() as u32).to_be_bytes());
    let mut new_head = head.to_vec();
    new_head[8..12].fill(0); // checkSumAdjustment, no longer right
    new_head[50..52].copy_from_slice(&1u16.to_be_bytes()); // long offsets
    let mut out_tables: Vec<([u8; 4], Vec<u8>)> = vec![
        (*b"glyf", new_glyf),
        (*b"head", new_head),
        (*b"loca", new_loca),
    ];
    for tag in [b"cvt ", b"fpgm", b"hhea", b"hmtx", b"maxp", b"prep"] {
        if let Some(bytes) = table(tag) {
            out_tables.push((*tag, bytes.to_vec()));
        }
    }
    out_tables.sort_by_key(|(tag, _)| *tag);
    Ok(font_file(&out_tables))
}

/// A TrueType file of `tables` (sorted by tag).
fn font_file(tables: &[([u8; 4], Vec<u8>)]) -> Vec<u8> {
    let n = tables.len() as u16;
    let power = 1u16 << (15 - n.leading_zeros().min(15));
    let mut out = Vec::new();
    out.extend_from_slice(&0x0001_0000u32.to_be_bytes());
    for v in [n, power * 16, power.trailing_zeros() as u16, n * 16 - power * 16] {
        out.extend_from_slice(&v.to_be_bytes());
    }
    let mut offset = 12 + 16 * tables.len();
    for (tag, bytes) in tables {
        let sum = bytes
            .chunks(4)
            .map(|c| {
                let mut word = [0u8; 4];
                word[..c.len()].copy_from_slice(c);
                u32::from_be_bytes(word)
            })
            .fold(0u32, u32::wrapping_add);
        out.extend_from_slice(tag);
        out.extend_from_slice(&sum.to_be_bytes());
        out.extend_from_slice(&(offset as u32).to_be_bytes());
        out.extend_from_slice(&(bytes.len() as u32).to_be_bytes());
        offset += bytes.len().next_multiple_of(4);
    }
    for (_, bytes) in tables {
        out.extend_from_slice(bytes);
        out.resize(out.len().next_multiple_of(4), 0);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_cut_font_keeps_the_glyphs_asked_for_and_drops_the_rest() {
        let data = dejavu::sans::regular();
        let face = ttf_parser::Face::parse(data, 0).expect("DejaVu reads");
        let wanted: Vec<u16> = "Nf3 ♘".chars().map(|c| face.glyph_index(c).expect("has it").0).collect();
        let cut = subset(data, wanted.iter().copied()).expect("cuts");
        assert!(cut.len() * 10 < data.len(), "{} of {} bytes", cut.len(), data.len());
        let small = ttf_parser::Face::parse(&cut, 0).expect("the cut font reads");
        assert_eq!(small.number_of_glyphs(), face.number_of_glyphs());
        let id = ttf_parser::GlyphId;
        for g in wanted {
            assert_eq!(small.glyph_bounding_box(id(g)), face.glyph_bounding_box(id(g)));
        }
        let other = face.glyph_index('Z').expect("has Z");
        assert!(face.glyph_bounding_box(other).is_some());
        assert_eq!(small.glyph_bounding_box(other), None, "Z is left out");
    }
}
