//! The system's installed faces at run time: which draws each character (the merged map
//! of `font_coverage.rs`, worked out once from the scan of `font_system.rs`), and their
//! files and glyphs, held within a byte budget.
//!
//! A face's file is read when a glyph is first drawn from it and kept in a byte-bounded
//! cache (`faces`), which lets it go once nothing asks for it for [`crate::cache::IDLE`],
//! or when another face needs the room; a face larger than its share is read for the
//! glyphs it is asked for and not kept. The glyphs drawn (outline, advance, box) are kept
//! in a second cache (`glyphs`), so text already drawn needs no file. Both budgets are a
//! part of the renderer's (see [`hold_system_fonts_within`]), and both caches show in
//! `/metrics`.

use crate::cache::{ByteCache, Usage, Weight};
use crate::render::art::font_coverage::{Coverage, Covered, Source};
use crate::render::art::font_system::{self, SystemFont};
use crate::render::art::pathdata::{Outline, Segment};
use std::path::PathBuf;
use std::sync::{Arc, OnceLock};

/// The system fonts' budget when none was set: three eighths of the renderer's default
/// 64 MiB, which holds one CJK face (about 20 MB) and a few thousand of its glyphs.
pub const DEFAULT_SYSTEM_FONT_BYTES: u64 = 24 << 20;

/// The budget set by [`hold_system_fonts_within`].
static BUDGET: OnceLock<u64> = OnceLock::new();

/// Hold the system's faces and their glyphs within `bytes` together (an eighth for the
/// glyphs). The service gives them three eighths of `--render-cache-size` and the renderer's
/// caches the rest. Once per process, before the first character is drawn from a system
/// face; `false` if the budget was already set (or the faces already read).
pub fn hold_system_fonts_within(bytes: u64) -> bool {
    BUDGET.set(bytes).is_ok()
}

/// One glyph of a system face, as drawn: its outline, advance and box, in font units.
#[derive(Debug)]
pub(crate) struct SystemGlyph {
    /// The outline (font units, y up); empty for a glyph with no ink.
    pub segments: Vec<Segment>,
    /// The advance, in font units.
    pub advance: f32,
    /// Font units per em of its face.
    pub units_per_em: f32,
    /// The box around its ink (x min, y min, x max, y max), font units.
    pub ink: Option<[f32; 4]>,
}

impl Weight for SystemGlyph {
    fn weight(&self) -> usize {
        self.segments.capacity() * std::mem::size_of::<Segment>()
    }
}

/// A face, by its index in the scan.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
struct FaceKey(u16);

/// A glyph: its face and character.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
struct GlyphKey(u16, char);

impl Weight for FaceKey {
    fn weight(&self) -> usize {
        0
    }
}

impl Weight for GlyphKey {
    fn weight(&self) -> usize {
        0
    }
}

/// The installed faces, their merged map, and what is held of them.
pub(crate) struct SystemFonts {
    /// The faces, in the order of their folders and paths.
    pub fonts: Vec<SystemFont>,
    coverage: Coverage,
    faces: ByteCache<FaceKey, Option<Arc<Vec<u8>>>>,
    glyphs: ByteCache<GlyphKey, Option<Arc<SystemGlyph>>>,
}

impl SystemFonts {
    /// Scan the faces under `dirs` and merge their characters with `fixed`, what DejaVu
    /// and the added fonts draw in book and bold text.
    pub fn scan(dirs: &[PathBuf], fixed: [&[u32]; 2]) -> SystemFonts {
        let scanned = font_system::load(dirs);
        let covered: Vec<Covered> = (scanned.iter())
            .map(|(font, characters)| Covered { characters, weight: font.weight })
            .collect();
        let coverage = Coverage::build(fixed, &covered);
        let budget = BUDGET.get().copied().unwrap_or(DEFAULT_SYSTEM_FONT_BYTES);
        SystemFonts {
            fonts: scanned.into_iter().map(|(font, _)| font).collect(),
            coverage,
            faces: ByteCache::new("system_faces", budget - budget / 8),
            glyphs: ByteCache::new("system_glyphs", budget / 8),
        }
    }

    /// Where `c` is drawn from in book or `bold` text.
    pub fn source(&self, c: char, bold: bool) -> Source {
        self.coverage.get(c, bold)
    }

    /// Glyph `c` of system face `face`; `None` if the face's file can no longer be read.
    pub fn glyph(&self, face: u16, c: char) -> Option<Arc<SystemGlyph>> {
        self.glyphs.get_with(GlyphKey(face, c), || self.read_glyph(face, c))
    }

    /// The glyph read from the face's file (held, or read now).
    fn read_glyph(&self, face: u16, c: char) -> Option<Arc<SystemGlyph>> {
        let font = self.fonts.get(usize::from(face))?;
        let bytes = self.faces.get_with(FaceKey(face), || font.read().map(Arc::new))?;
        let parsed = ttf_parser::Face::parse(&bytes, 0).ok()?;
        let id = parsed.glyph_index(c)?;
        let mut outline = Outline::default();
        let ink = parsed.outline_glyph(id, &mut outline).map(|b| {
            [b.x_min, b.y_min, b.x_max, b.y_max].map(f32::from)
        });
        let mut segments = outline.0;
        segments.shrink_to_fit();
        Some(Arc::new(SystemGlyph {
            segments,
            advance: f32::from(parsed.glyph_hor_advance(id).unwrap_or(0)),
            units_per_em: f32::from(parsed.units_per_em()),
            ink,
        }))
    }

    /// How full the faces' and the glyphs' caches are.
    pub fn usage(&self) -> [Usage; 2] {
        [self.faces.usage(), self.glyphs.usage()]
    }
}
