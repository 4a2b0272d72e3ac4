//! The system's installed faces at run time: which draws each character (the merged map
//! of `font_coverage.rs`, worked out once from the scan of `font_system.rs`), and their
//! files and glyphs, held within a byte budget.
//!
//! A face's file is read when a glyph is first drawn from it and held (`Faces`) within
//! its share, the newest taking the room from the least recently used, alone when it is
//! larger; the service's upkeep lets go of a face nobody asked for in [`FACE_IDLE`]. So
//! the files held weigh at most the share, or one face when one alone is larger. The glyphs drawn (outline, advance, box) are kept
//! in a second cache (`glyphs`), so text already drawn needs no file. Both budgets are a
//! part of the renderer's (see [`hold_system_fonts_within`]), and both caches show in
//! `/metrics`.

use crate::cache::{ByteCache, Usage, Weight};
use crate::render::art::font_coverage::{Coverage, Covered, Source};
use crate::render::art::font_system::{self, SystemFont};
use crate::render::art::pathdata::{Outline, Segment};
use std::path::PathBuf;
use std::sync::{Arc, Mutex, OnceLock};
use std::time::{Duration, Instant};

/// The system fonts' budget when none was set: three eighths of the renderer's default
/// 64 MiB, which holds one CJK face (about 20 MB) and a few thousand of its glyphs.
pub const DEFAULT_SYSTEM_FONT_BYTES: u64 = 24 << 20;

/// How long a face's file is held after the last glyph read from it: the renderer's
/// caches' idle time.
pub const FACE_IDLE: Duration = crate::cache::IDLE;

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

/// A glyph: its face and character.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
struct GlyphKey(u16, char);

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
    faces: Faces,
    glyphs: ByteCache<GlyphKey, Option<Arc<SystemGlyph>>>,
    /// Held while a face's file is read.
    reading: Mutex<()>,
}

/// A face held: its index, its file's bytes, when a glyph was last read from it.
type Held = (u16, Arc<Vec<u8>>, Instant);

/// The font files held: each face's bytes and when it was last asked for, most recent
/// last, within `bound` bytes; the newest always stays (alone, when it is larger).
struct Faces {
    held: Mutex<Vec<Held>>,
    bound: u64,
}

impl Faces {
    fn lock(&self) -> std::sync::MutexGuard<'_, Vec<Held>> {
        self.held.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// Face `face`'s bytes if held (now the most recent).
    fn get(&self, face: u16) -> Option<Arc<Vec<u8>>> {
        let mut held = self.lock();
        let at = held.iter().position(|h| h.0 == face)?;
        let mut entry = held.remove(at);
        entry.2 = Instant::now();
        let bytes = entry.1.clone();
        held.push(entry);
        Some(bytes)
    }

    /// Hold `bytes` as face `face`'s, letting go of the least recently asked for until the
    /// rest fit beside it (unless another thread put it there first: then that one).
    fn put(&self, face: u16, bytes: Arc<Vec<u8>>) -> Arc<Vec<u8>> {
        let mut held = self.lock();
        if let Some(h) = held.iter().find(|h| h.0 == face) {
            return h.1.clone();
        }
        self.evict_for(&mut held, bytes.capacity() as u64);
        held.push((face, bytes.clone(), Instant::now()));
        bytes
    }

    /// Let go of the least recently asked for faces until `new` bytes fit beside the rest,
    /// before they are read: a face read to take another's place never sits beside it.
    fn make_room(&self, new: u64) {
        self.evict_for(&mut self.lock(), new);
    }

    fn evict_for(&self, held: &mut Vec<Held>, new: u64) {
        let weight = |h: &[Held]| -> u64 { h.iter().map(|(_, b, _)| b.capacity() as u64).sum() };
        while !held.is_empty() && weight(held) + new > self.bound {
            held.remove(0);
        }
    }

    /// Let go of the faces not asked for in `idle`.
    fn release_idle(&self, idle: Duration) {
        self.lock().retain(|h| h.2.elapsed() < idle);
    }

    fn usage(&self) -> Usage {
        let held = self.lock();
        Usage {
            name: "system_faces",
            bytes: held.iter().map(|(_, b, _)| b.capacity() as u64).sum(),
            bound: self.bound,
            entries: held.len() as u64,
        }
    }
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
            faces: Faces { held: Mutex::new(Vec::new()), bound: budget - budget / 8 },
            glyphs: ByteCache::new("system_glyphs", budget / 8),
            reading: Mutex::new(()),
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

    /// The advance of `c` in face `face` and the face's units per em, to measure text by:
    /// the drawn glyph's when it is held, else read from the face's metrics alone, its
    /// outline neither drawn nor kept (laying out 20,000 new ideographs drew each one's
    /// outline, a second before an article too large was refused).
    pub fn advance(&self, face: u16, c: char) -> Option<(f32, f32)> {
        if let Some(glyph) = self.glyphs.get(&GlyphKey(face, c)) {
            return glyph.map(|g| (g.advance, g.units_per_em));
        }
        let bytes = self.face(face)?;
        let parsed = ttf_parser::Face::parse(&bytes, 0).ok()?;
        let id = parsed.glyph_index(c)?;
        let advance = f32::from(parsed.glyph_hor_advance(id).unwrap_or(0));
        Some((advance, f32::from(parsed.units_per_em())))
    }

    /// The glyph read from the face's file (held, or read now).
    fn read_glyph(&self, face: u16, c: char) -> Option<Arc<SystemGlyph>> {
        let bytes = self.face(face)?;
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

    /// Face `face`'s file: held, or read now and held. One file is read at a time, so
    /// renders that miss the same face at once read it once (and two faces' reads do not
    /// add up in memory); room is made for it before it is read, so the faces held and
    /// the one being read stay within the share together (or are the one face alone).
    fn face(&self, face: u16) -> Option<Arc<Vec<u8>>> {
        if let Some(bytes) = self.faces.get(face) {
            return Some(bytes);
        }
        let _one = self.reading.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        if let Some(bytes) = self.faces.get(face) {
            return Some(bytes);
        }
        let font = self.fonts.get(usize::from(face))?;
        self.faces.make_room(font.size()?);
        let read = font.read()?;
        Some(self.faces.put(face, Arc::new(read)))
    }

    /// Let go of the faces not asked for in `idle`, and of the glyphs' cache's expired
    /// entries.
    pub fn release_idle(&self, idle: Duration) {
        self.faces.release_idle(idle);
    }

    /// How full the faces' and the glyphs' caches are.
    pub fn usage(&self) -> [Usage; 2] {
        [self.faces.usage(), self.glyphs.usage()]
    }
}
