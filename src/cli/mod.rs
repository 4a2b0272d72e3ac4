//! The command line: the top-level `Cli` and its subcommands, `run`, and what several
//! subcommands share (the board flags, the renderer with `--pieces-dir`'s sets, `--fonts`,
//! an output file's format).
//!
//! Each subcommand has a file beside its flags: `serve.rs`, `render.rs`, `sheet.rs`,
//! `article.rs`, `compare.rs`, `markdown.rs` (`markdown` and `fence`) and `mdbook.rs`.
//! Options go through the same `Request` validation as HTTP queries, so the command
//! line and the service accept exactly the same values.

mod article;
mod compare;
mod markdown;
mod mdbook;
mod render;
mod serve;
mod sheet;

pub use compare::ImagesDiffer;
pub use serve::parse_bytes;
pub use sheet::MAX_CLI_SHEET_DIAGRAMS;

use crate::render::Renderer;
use crate::render::options::Format;
use crate::render::pieces::PieceSets;
use anyhow::{Context, bail};
use clap::{Args, Parser, Subcommand};
use std::path::{Path, PathBuf};

/// Chess diagrams from FEN: an HTTP service and a command line.
#[derive(Debug, Parser)]
#[command(
    name = "staunton",
    version,
    about,
    args_conflicts_with_subcommands = true
)]
pub struct Cli {
    /// Log format: text (human-readable) or json (one object a line).
    #[arg(long, global = true, env = "STAUNTON_LOG_FORMAT", value_enum, default_value_t = LogFormat::Text)]
    pub log_format: LogFormat,
    /// A folder of fonts (.ttf, .otf, .ttc, .otc) that captions, cards, players' names and
    /// worksheets fall back on for characters DejaVu Sans lacks, e.g. a Japanese font.
    #[arg(long, global = true, env = "STAUNTON_FONTS", value_name = "DIR")]
    pub fonts: Option<PathBuf>,
    #[command(subcommand)]
    command: Option<Command>,
    /// With no subcommand, `staunton` serves.
    #[command(flatten)]
    serve: serve::ServeArgs,
}

/// How the logs are written (`--log-format`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
#[allow(missing_docs)] // a doc comment on a value would change `--help`
pub enum LogFormat {
    Text,
    Json,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Run the HTTP service (the default).
    Serve(serve::ServeArgs),
    /// Render one FEN, or every FEN of a file, to PNG, SVG, PDF, WebP, GIF or text files.
    Render(Box<render::RenderArgs>),
    /// Lay out a worksheet: the positions of an EPD, PGN or FEN file as numbered,
    /// captioned diagrams on A4 or Letter pages, as PDF, SVG or PNG.
    Sheet(Box<sheet::SheetArgs>),
    /// Typeset an annotated game (PGN) as an article: header, moves in figurines or the
    /// reader's letters, comments, variations, and a diagram wherever the game marks one;
    /// PDF (real text), HTML or SVG.
    Article(Box<article::ArticleArgs>),
    /// Compare two PNG images by their pixels: exit status 0 when equal within the
    /// tolerance, 1 when not (or of different sizes), 2 when a file is missing or not a PNG.
    Compare(compare::CompareArgs),
    /// Rewrite a Markdown document's diagram fences (```fen, ```chess, ```pgn) into
    /// images: files (--images DIR), inline SVG (the default) or service URLs (--url);
    /// everything else is left byte for byte.
    Markdown(Box<markdown::MarkdownArgs>),
    /// Render one fence (its info string in --info, its body on standard input) to a file
    /// and print three lines: the file's path, the alt text, the caption (for filters).
    Fence(Box<markdown::FenceArgs>),
    /// An mdBook preprocessor: the diagram fences of every chapter become images
    /// (`[preprocessor.staunton]` in book.toml).
    Mdbook(mdbook::MdbookArgs),
}

/// The look of the board, shared by `render` and `sheet`.
#[derive(Debug, Args)]
struct BoardArgs {
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
fn push_given<const N: usize>(
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
/// parameters: `first`, each optional value `given`, the board's, then `name=value` for
/// each flag that is set.
fn option_pairs<const N: usize, const F: usize>(
    first: Option<(&'static str, String)>,
    given: [(&'static str, &Option<String>); N],
    board: &BoardArgs,
    flags: [(bool, &'static str, &'static str); F],
) -> Vec<(&'static str, String)> {
    let mut pairs: Vec<(&'static str, String)> = first.into_iter().collect();
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
fn command_renderer(dir: Option<&Path>) -> Renderer {
    let cache = crate::render::DEFAULT_RENDER_CACHE_BYTES;
    renderer(dir, cache, |p| eprintln!("staunton: warning: {p}"))
}

/// A renderer with the built-in set and the sets of `dir`; `report` hears each skipped set.
fn renderer(dir: Option<&Path>, cache_bytes: u64, report: impl Fn(&str)) -> Renderer {
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
    Renderer::new(sets, cache_bytes)
}

/// Run the command line; the error is printed by `main` as one line.
pub fn run(cli: Cli) -> anyhow::Result<()> {
    if let Some(dir) = &cli.fonts {
        let names = staunton_fonts(dir)?.join(", ");
        match cli.command {
            None | Some(Command::Serve(_)) => tracing::info!(fonts = names, "fonts added"),
            _ => tracing::debug!(fonts = names, "fonts added"),
        }
    }
    match cli.command {
        None => serve::serve(cli.serve),
        Some(Command::Serve(args)) => serve::serve(args),
        Some(Command::Render(args)) => render::render(*args),
        Some(Command::Sheet(args)) => sheet::sheet(*args),
        Some(Command::Article(args)) => article::article(*args),
        Some(Command::Compare(args)) => compare::compare(args),
        Some(Command::Markdown(args)) => markdown::markdown(*args),
        Some(Command::Fence(args)) => markdown::fence(*args),
        Some(Command::Mdbook(args)) => mdbook::run(args),
    }
}

fn staunton_fonts(dir: &std::path::Path) -> anyhow::Result<Vec<String>> {
    crate::render::add_fonts(dir).with_context(|| format!("--fonts {}", dir.display()))
}

fn format_of(path: &Path) -> anyhow::Result<Format> {
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
