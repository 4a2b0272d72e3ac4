//! The fonts installed on the machine, for the characters neither DejaVu nor the fonts
//! added with `--fonts DIR` draw: where they are ([`system_font_dirs`], found without
//! fontconfig), and scanning them ([`load`]): each face's weight, size, outline size and
//! characters, from its table directory, without reading the whole file.
//!
//! Owns finding and scanning the files only; which face draws a character is the merged
//! map of `font_coverage.rs`, and holding faces and their glyphs within a budget is
//! `font_held.rs`. Nothing here
//! runs unless the caller asks for the system's fonts (`render::use_system_fonts`).

use std::path::{Path, PathBuf};

/// Most font files looked at, over every folder: a desktop with many fonts has a few
/// thousand.
pub const MAX_SYSTEM_FONT_FILES: usize = 10_000;

/// Largest font file looked at: as large as `--fonts` reads (a CJK collection is about
/// 20–27 MB).
pub const MAX_FONT_BYTES: u64 = 64 << 20;

/// How deep folders are walked below each font folder.
const MAX_DEPTH: usize = 8;

/// One installed face: the first face of a file (of a collection, its first, as with
/// `--fonts`). The scan ([`load`]) reads only its table directory, character map, weight
/// and glyph count; the whole file is read only when a glyph is drawn from it
/// ([`SystemFont::read`]), and held within the system fonts' byte budget (`font_held.rs`).
pub(crate) struct SystemFont {
    path: PathBuf,
    /// Its OS/2 weight (400 book, 700 bold).
    pub weight: u16,
    /// What tells this face from another, on this machine or another: its path, size and
    /// time of change, hashed. Cache keys carry it.
    pub id: u64,
    /// Its outline table's bytes (`glyf`, `CFF ` or `CFF2`) over its glyph count: how
    /// large an average glyph's drawing is, which prices drawing one (a CJK face's are
    /// about 250, DejaVu's about 90).
    pub outline_bytes: u32,
}

impl SystemFont {
    /// The file's size now; `None` if it can no longer be read.
    pub fn size(&self) -> Option<u64> {
        Some(std::fs::metadata(&self.path).ok()?.len().min(MAX_FONT_BYTES + 1))
    }

    /// The whole file; `None` if it can no longer be read or has grown past
    /// [`MAX_FONT_BYTES`].
    pub fn read(&self) -> Option<Vec<u8>> {
        use std::io::Read;
        let file = std::fs::File::open(&self.path).ok()?;
        let size = file.metadata().ok()?.len().min(MAX_FONT_BYTES + 1);
        // Exactly its size: the faces' cache weighs what is allocated.
        let mut data = Vec::with_capacity(usize::try_from(size).ok()?);
        file.take(MAX_FONT_BYTES + 1).read_to_end(&mut data).ok()?;
        data.shrink_to_fit();
        (data.len() as u64 <= MAX_FONT_BYTES).then_some(data)
    }
}

/// The folders that hold the machine's fonts, the user's first (a font a user installs
/// comes before the system's), each once: on Linux and the BSDs `$XDG_DATA_HOME/fonts`
/// (`~/.local/share/fonts`), `~/.fonts`, then `fonts` in each of `$XDG_DATA_DIRS`
/// (`/usr/local/share`, `/usr/share`), `/usr/share/fonts` and `/usr/local/share/fonts`; on
/// macOS `~/Library/Fonts`, `/Library/Fonts`, `/System/Library/Fonts`; on Windows the
/// user's and `%WINDIR%\Fonts`. Folders that do not exist are listed too (and skipped
/// when read).
pub fn system_font_dirs() -> Vec<PathBuf> {
    let env = |name: &str| std::env::var_os(name).filter(|v| !v.is_empty()).map(PathBuf::from);
    let home = env("HOME");
    let mut dirs: Vec<PathBuf> = Vec::new();
    if cfg!(windows) {
        dirs.extend(env("LOCALAPPDATA").map(|d| d.join("Microsoft\\Windows\\Fonts")));
        dirs.push(env("WINDIR").unwrap_or_else(|| "C:\\Windows".into()).join("Fonts"));
    } else if cfg!(target_os = "macos") {
        dirs.extend(home.as_ref().map(|h| h.join("Library/Fonts")));
        dirs.extend(["/Library/Fonts", "/System/Library/Fonts"].map(PathBuf::from));
    } else {
        let data_home = env("XDG_DATA_HOME").or_else(|| home.as_ref().map(|h| h.join(".local/share")));
        dirs.extend(data_home.map(|d| d.join("fonts")));
        dirs.extend(home.as_ref().map(|h| h.join(".fonts")));
        let data_dirs = std::env::var("XDG_DATA_DIRS").unwrap_or_default();
        let data_dirs = match data_dirs.is_empty() {
            true => "/usr/local/share:/usr/share".to_string(),
            false => data_dirs,
        };
        dirs.extend(data_dirs.split(':').filter(|d| !d.is_empty()).map(|d| Path::new(d).join("fonts")));
        dirs.extend(["/usr/share/fonts", "/usr/local/share/fonts"].map(PathBuf::from));
    }
    let mut seen = std::collections::HashSet::new();
    dirs.retain(|d| seen.insert(d.clone()));
    dirs
}

/// Whether `path` is named as a font file (`.ttf`, `.otf`, `.ttc`, `.otc`).
pub(crate) fn is_font(path: &Path) -> bool {
    let ext = path.extension().and_then(|e| e.to_str()).unwrap_or("");
    ["ttf", "otf", "ttc", "otc"]
        .iter()
        .any(|f| ext.eq_ignore_ascii_case(f))
}

/// The font files under `dirs`, each folder's in the order of their paths, at most
/// [`MAX_SYSTEM_FONT_FILES`]. A folder reached twice (a link) is read once.
fn font_files(dirs: &[PathBuf]) -> Vec<PathBuf> {
    let mut seen = std::collections::HashSet::new();
    let mut files = Vec::new();
    for dir in dirs {
        let mut found = Vec::new();
        walk(dir, 0, &mut seen, &mut found);
        found.sort();
        files.extend(found);
        if files.len() >= MAX_SYSTEM_FONT_FILES {
            files.truncate(MAX_SYSTEM_FONT_FILES);
            break;
        }
    }
    files
}

fn walk(dir: &Path, depth: usize, seen: &mut std::collections::HashSet<PathBuf>, out: &mut Vec<PathBuf>) {
    let Ok(real) = std::fs::canonicalize(dir) else { return };
    if depth > MAX_DEPTH || out.len() >= MAX_SYSTEM_FONT_FILES || !seen.insert(real) {
        return;
    }
    let Ok(entries) = std::fs::read_dir(dir) else { return };
    for path in entries.filter_map(|e| e.ok().map(|e| e.path())) {
        if path.is_dir() {
            walk(&path, depth + 1, seen, out);
        } else if is_font(&path) && path.is_file() {
            out.push(path);
        }
    }
}

/// The faces of the font files under `dirs` (see [`system_font_dirs`]) that can draw
/// text, each with the characters it maps to a glyph (sorted): upright (no italic or
/// oblique), with outlines (not bitmaps alone, as colour emoji fonts are), of at most
/// [`MAX_FONT_BYTES`]. Files that cannot be read are left out.
pub(crate) fn load(dirs: &[PathBuf]) -> Vec<(SystemFont, Vec<u32>)> {
    font_files(dirs).into_iter().filter_map(open).collect()
}

/// The tables of a face this scan reads: where each lies in the file.
struct Directory {
    tables: Vec<([u8; 4], u64, u64)>,
}

impl Directory {
    /// The table directory of the first face of `file` (a font or a collection).
    fn read(file: &mut std::fs::File) -> Option<Directory> {
        let head = read_at(file, 0, 16)?;
        let start = match &head[..4] {
            b"ttcf" => u64::from(u32::from_be_bytes(head[12..16].try_into().ok()?)),
            _ => 0,
        };
        let count = u16::from_be_bytes(read_at(file, start + 4, 2)?.try_into().ok()?);
        let records = read_at(file, start + 12, 16 * u64::from(count))?;
        let tables = records
            .chunks_exact(16)
            .map(|r| {
                let at = |i: usize| u64::from(u32::from_be_bytes([r[i], r[i + 1], r[i + 2], r[i + 3]]));
                ([r[0], r[1], r[2], r[3]], at(8), at(12))
            })
            .collect();
        Some(Directory { tables })
    }

    /// Where table `tag` lies: (offset, length).
    fn find(&self, tag: &[u8; 4]) -> Option<(u64, u64)> {
        self.tables.iter().find(|t| &t.0 == tag).map(|t| (t.1, t.2))
    }
}

/// `len` bytes of `file` from `offset` (at most [`MAX_FONT_BYTES`]).
fn read_at(file: &mut std::fs::File, offset: u64, len: u64) -> Option<Vec<u8>> {
    use std::io::{Read, Seek, SeekFrom};
    if len > MAX_FONT_BYTES {
        return None;
    }
    file.seek(SeekFrom::Start(offset)).ok()?;
    let mut buf = vec![0; usize::try_from(len).ok()?];
    file.read_exact(&mut buf).ok()?;
    Some(buf)
}

/// A face's description and characters, if it can draw text (see [`load`]).
fn open(path: PathBuf) -> Option<(SystemFont, Vec<u32>)> {
    let mut file = std::fs::File::open(&path).ok()?;
    let meta = file.metadata().ok()?;
    if meta.len() > MAX_FONT_BYTES {
        return None;
    }
    let dir = Directory::read(&mut file)?;
    let outline = [b"glyf", b"CFF ", b"CFF2"].iter().find_map(|t| dir.find(t));
    // OS/2: the weight at byte 4, fsSelection at 62 (bit 0 italic, bit 9 oblique).
    let (weight, slanted) = match dir.find(b"OS/2") {
        Some((at, len)) if len >= 64 => {
            let os2 = read_at(&mut file, at, 64)?;
            let selection = u16::from_be_bytes([os2[62], os2[63]]);
            (u16::from_be_bytes([os2[4], os2[5]]), selection & 0x201 != 0)
        }
        _ => (400, false),
    };
    let (Some((_, outline_len)), false) = (outline, slanted) else { return None };
    // maxp: the glyph count at byte 4.
    let (at, _) = dir.find(b"maxp")?;
    let maxp = read_at(&mut file, at, 6)?;
    let glyphs = u64::from(u16::from_be_bytes([maxp[4], maxp[5]])).max(1);
    let (at, len) = dir.find(b"cmap")?;
    let data = read_at(&mut file, at, len)?;
    let characters = characters(ttf_parser::cmap::Table::parse(&data)?);
    let changed = meta
        .modified()
        .ok()
        .and_then(|t| t.duration_since(std::time::UNIX_EPOCH).ok())
        .map_or(0, |d| d.as_secs());
    let identity = format!("{}|{}|{changed}", path.display(), meta.len());
    let font = SystemFont {
        path,
        weight,
        id: crate::hash::fnv1a(identity.bytes()),
        outline_bytes: u32::try_from(outline_len / glyphs).unwrap_or(u32::MAX),
    };
    Some((font, characters))
}

/// The characters `cmap` maps to a real glyph (not `.notdef`), from its Unicode
/// subtables, sorted, each once.
pub(crate) fn characters(cmap: ttf_parser::cmap::Table) -> Vec<u32> {
    let mut out = Vec::new();
    for table in cmap.subtables.into_iter().filter(|t| t.is_unicode()) {
        table.codepoints(|c| {
            if table.glyph_index(c).is_some_and(|g| g.0 != 0) {
                out.push(c);
            }
        });
    }
    out.sort_unstable();
    out.dedup();
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn folders_are_listed_once_and_files_found_in_order() {
        let dirs = system_font_dirs();
        let unique: std::collections::HashSet<_> = dirs.iter().collect();
        assert_eq!(unique.len(), dirs.len(), "{dirs:?}");
        let base = std::env::temp_dir().join(format!("staunton-sysfonts-{}", std::process::id()));
        let deep = base.join("b/c");
        std::fs::create_dir_all(&deep).expect("dirs");
        for f in ["z.ttf", "a.OTF", "notes.txt", "b/c/m.ttc"] {
            std::fs::write(base.join(f), "x").expect("file");
        }
        let files = font_files(&[base.clone(), base.clone()]);
        let names: Vec<_> = files.iter().map(|p| p.strip_prefix(&base).unwrap().to_owned()).collect();
        let expected: Vec<PathBuf> = ["a.OTF", "b/c/m.ttc", "z.ttf"].map(PathBuf::from).into();
        assert_eq!(names, expected);
        // None of them is a font: nothing is loaded, and nothing fails.
        assert!(load(std::slice::from_ref(&base)).is_empty());
        let _ = std::fs::remove_dir_all(&base);
    }
}
