//! Fonts added from a folder at start-up (`--fonts DIR`, [`add_fonts`]): free text
//! (captions, share cards, players' names, worksheets) falls back on them for characters
//! the built-in DejaVu Sans lacks, such as Japanese.
//!
//! Owns reading the folder only; how text picks a face is `font.rs`. The fonts are the
//! operator's choice, like piece sets: none is compiled in. They come before the fonts
//! installed on the machine (`font_system.rs`), which only the characters neither DejaVu
//! nor these draw reach.

use crate::render::art::font::{FallbackError, add_fallback_faces};
use crate::render::art::font_system::is_font;
use std::path::{Path, PathBuf};

/// Most font files a folder may hold: a few scripts' regular and bold faces.
pub const MAX_FONT_FILES: usize = 16;

/// Largest font file read (a CJK collection is about 20–27 MB).
pub const MAX_FONT_BYTES: u64 = 64 << 20;

/// Why a font folder could not be used; each says which file and what to do.
#[derive(Debug, thiserror::Error)]
pub enum FontError {
    /// The folder or a file in it could not be read.
    #[error("cannot read {}: {source}", path.display())]
    Io {
        /// What could not be read.
        path: PathBuf,
        /// Why.
        source: std::io::Error,
    },
    /// The folder has no font file.
    #[error("{} has no font file (.ttf, .otf, .ttc or .otc)", .0.display())]
    Empty(PathBuf),
    /// The folder holds more font files than are read.
    #[error("{} has {count} font files: at most {MAX_FONT_FILES} are read", dir.display())]
    TooMany {
        /// The folder.
        dir: PathBuf,
        /// How many font files it has.
        count: usize,
    },
    /// A file is larger than [`MAX_FONT_BYTES`].
    #[error("{} is {bytes} bytes: font files of at most {MAX_FONT_BYTES} bytes are read", path.display())]
    TooLarge {
        /// The file.
        path: PathBuf,
        /// Its size.
        bytes: u64,
    },
    /// A file is not a font, or fonts were added before.
    #[error(transparent)]
    Face(#[from] FallbackError),
}

/// Add every font file of `dir` (`.ttf`, `.otf`, and the first face of a `.ttc` or
/// `.otc` collection), in the order of their names, as faces that free text falls back
/// on. Once per process, before the first render. Returns the files' names.
///
/// The files stay in memory for the life of the process (they are read once).
pub fn add_fonts(dir: &Path) -> Result<Vec<String>, FontError> {
    let io = |path: &Path| {
        let path = path.to_path_buf();
        move |source| FontError::Io { path, source }
    };
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .map_err(io(dir))?
        .filter_map(|entry| entry.ok().map(|e| e.path()))
        .filter(|p| is_font(p) && p.is_file())
        .collect();
    files.sort();
    match files.len() {
        0 => return Err(FontError::Empty(dir.to_path_buf())),
        n if n > MAX_FONT_FILES => {
            return Err(FontError::TooMany {
                dir: dir.to_path_buf(),
                count: n,
            });
        }
        _ => {}
    }
    let mut fonts = Vec::with_capacity(files.len());
    for path in &files {
        let len = std::fs::metadata(path).map_err(io(path))?.len();
        if len > MAX_FONT_BYTES {
            return Err(FontError::TooLarge {
                path: path.clone(),
                bytes: len,
            });
        }
        let data = std::fs::read(path).map_err(io(path))?;
        let name = path
            .file_name()
            .map_or_else(String::new, |n| n.to_string_lossy().into_owned());
        // Kept for the life of the process: faces borrow their bytes, and are set once.
        fonts.push((name, &*Box::leak(data.into_boxed_slice())));
    }
    let names = fonts.iter().map(|(n, _)| n.clone()).collect();
    add_fallback_faces(fonts)?;
    Ok(names)
}
