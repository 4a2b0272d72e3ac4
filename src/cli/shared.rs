//! What several subcommands share: the board flags ([`BoardArgs`]), a command's options
//! as query pairs (validated exactly like HTTP parameters), the renderer with
//! `--pieces-dir`'s sets, and an output file's format from its name.

use crate::render::Renderer;
use crate::render::options::Format;
use crate::render::pieces::PieceSets;
use anyhow::bail;
use clap::Args;
use std::path::Path;

/// The look of the board, shared by `render`, `sheet` and `article`.
#[derive(Debug, Args)]
pub(super) struct BoardArgs {
    /// white, black or turn (side to move at the bottom).
    #[arg(long)]
    orientation: Option<String>,
    /// outside, inside or none.
    #[arg(long)]
    coordinates: Option<String>,
    /// Piece set name: staunton (the default) or staunton-classic (built in), or a set of
    /// --pieces-dir.
    #[arg(long)]
    pieces: Option<String>,
    /// Board colours (the list is the parser's own).
    #[arg(long, help = format!("Board colours: {}", crate::render::theme::theme_list()))]
    theme: Option<String>,
    /// Light-square colour, #rgb or #rrggbb (the # may be left out).
    #[arg(long)]
    light: Option<String>,
    /// Dark-square colour, #rgb or #rrggbb (the # may be left out).
    #[arg(long)]
    dark: Option<String>,
    /// How the FEN is read: standard (FEN, X-FEN, crazyhouse), fairy (Fairy FEN: neutral,
    /// turned pieces, text, markers) or letters (any other letter a lettered piece).
    #[arg(long)]
    dialect: Option<String>,
    /// The board's size, files x ranks (e.g. 8x7), for a FEN neither square nor 8 ranks
    /// tall.
    #[arg(long = "board")]
    board_size: Option<String>,
    /// Only part of the board: two corner squares, a1:d4 or e5-h8.
    #[arg(long)]
    region: Option<String>,
}

impl BoardArgs {
    /// The flags given, as query pairs appended to `pairs`.
    fn push_pairs(&self, pairs: &mut Vec<(&'static str, String)>) {
        push_given(
            pairs,
            [
                ("orientation", &self.orientation),
                ("coordinates", &self.coordinates),
                ("pieces", &self.pieces),
                ("theme", &self.theme),
                ("light", &self.light),
                ("dark", &self.dark),
                ("dialect", &self.dialect),
                ("board", &self.board_size),
                ("region", &self.region),
            ],
        );
    }
}

/// Appends `(name, value)` for each optional value that was given.
pub(super) fn push_given<const N: usize>(
    pairs: &mut Vec<(&'static str, String)>,
    optional: [(&'static str, &Option<String>); N],
) {
    for (name, value) in optional {
        if let Some(v) = value {
            pairs.push((name, v.clone()));
        }
    }
}

/// A command's options as query pairs, so they are validated exactly like HTTP
/// parameters: each optional value `given`, the board's, then `name=value` for each flag
/// that is set.
pub(super) fn option_pairs<const N: usize, const F: usize>(
    given: [(&'static str, &Option<String>); N],
    board: &BoardArgs,
    flags: [(bool, &'static str, &'static str); F],
) -> Vec<(&'static str, String)> {
    let mut pairs = Vec::new();
    push_given(&mut pairs, given);
    board.push_pairs(&mut pairs);
    for (set, name, value) in flags {
        if set {
            pairs.push((name, value.to_string()));
        }
    }
    pairs
}

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
            "cannot tell the format of {}: name it .png, .svg, .pdf, .webp, .gif or .txt",
            path.display()
        ),
    }
}
