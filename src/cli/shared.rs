//! What several subcommands share: the renderer with `--pieces-dir`'s sets, and an output
//! file's format from its name. (Their flags are made from the parameter tables:
//! `flags.rs`.)

use crate::render::Renderer;
use crate::render::options::Format;
use crate::render::pieces::PieceSets;
use anyhow::bail;
use std::path::Path;

/// A command's renderer: the built-in set and the sets of `dir`, the default cache, and a
/// warning on standard error for each skipped set.
pub(super) fn command_renderer(dir: Option<&Path>) -> Renderer {
    let cache = crate::render::DEFAULT_RENDER_CACHE_BYTES;
    renderer(dir, cache, |p| eprintln!("staunton: warning: {p}"))
}

/// A renderer with the built-in set and the sets of `dir`; `report` hears each skipped set.
pub(super) fn renderer(dir: Option<&Path>, cache_bytes: u64, report: impl Fn(&str)) -> Renderer {
    let sets = match dir {
        Some(dir) => {
            let (sets, problems) = PieceSets::with_dir(dir);
            for p in &problems {
                report(p);
            }
            sets
        }
        None => PieceSets::builtin(),
    };
    // The system's fonts, when used, hold their faces and glyphs within three eighths of
    // the budget; the renderer's caches share the rest.
    let fonts = match crate::render::system_fonts_on() {
        true => cache_bytes / 8 * 3,
        false => 0,
    };
    crate::render::hold_system_fonts_within(fonts);
    Renderer::new(sets, cache_bytes - fonts)
}

/// The format an output file's extension names.
pub(super) fn format_of(path: &Path) -> anyhow::Result<Format> {
    match path
        .extension()
        .and_then(|e| e.to_str())
        .map(str::to_ascii_lowercase)
        .as_deref()
    {
        Some(extension) if Format::from_extension(extension).is_some() => {
            Ok(Format::from_extension(extension).expect("checked"))
        }
        _ => bail!(
            "cannot tell the format of {}: name it {}",
            path.display(),
            Format::files(&Format::ALL)
        ),
    }
}
