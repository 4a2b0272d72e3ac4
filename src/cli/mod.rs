//! The command line: the top-level `Cli` and its subcommands, and `run`; the flags made
//! from the parameter tables are `flags.rs`; what several subcommands share (the renderer
//! with `--pieces-dir`'s sets, an output file's format) is `shared.rs`.
//!
//! Each subcommand has a file beside its flags: `serve.rs`, `render.rs`, `sheet.rs`,
//! `article.rs`, `compare.rs`, `markdown.rs` (`markdown` and `fence`), `mdbook.rs`,
//! `latex.rs`, `dataset.rs` and `health.rs`.
//! Options go through the same `Request` validation as HTTP queries, so the command
//! line and the service accept exactly the same values.

mod article;
mod compare;
mod dataset;
mod flags;
mod health;
mod latex;
mod markdown;
mod mdbook;
mod render;
mod serve;
mod shared;
mod sheet;

pub use compare::ImagesDiffer;
pub use health::Unhealthy;
pub use serve::parse_bytes;
pub use sheet::MAX_CLI_SHEET_DIAGRAMS;

use anyhow::Context;
use clap::{Parser, Subcommand};
use std::path::PathBuf;

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
    /// Fall back on the fonts installed on this machine for characters neither DejaVu Sans
    /// nor --fonts draws (their folders are read on the first such character).
    #[arg(long, global = true, env = "STAUNTON_SYSTEM_FONTS", value_name = "BOOL", default_value_t = true,
          action = clap::ArgAction::Set, value_parser = clap::builder::BoolishValueParser::new())]
    pub system_fonts: bool,
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
    // Render one FEN, or every FEN of a file, to image or text files (`render_about`).
    #[command(about = render_about())]
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
    /// and print four lines: the file's path, the alt text, the caption, and its width and
    /// height in pixels (for filters).
    Fence(Box<markdown::FenceArgs>),
    /// An mdBook preprocessor: the diagram fences of every chapter become images
    /// (`[preprocessor.staunton]` in book.toml).
    Mdbook(mdbook::MdbookArgs),
    /// The LaTeX package's renderer: draw the diagrams a LaTeX run asked for (in JOB.stn,
    /// or a --requests file) as PDF files, each beside a sidecar the next run reads (its
    /// alt text, or why it is refused), and write JOB.sto; a diagram already drawn for the
    /// same query is not drawn again.
    Latex(Box<latex::LatexArgs>),
    /// Training data for board recognition: N images of positions (random legal play, or
    /// a FEN, EPD or PGN file) in varied styles, with exact labels (FEN, corners, squares,
    /// piece boxes, marks) as COCO, YOLO and a Hugging Face image folder; resumable and
    /// shardable. --view IMAGE draws an image's labels over it.
    Dataset(Box<dataset::DatasetArgs>),
    /// Ask a running service for /health (for container health checks: no curl needed):
    /// exit status 0 on a 200, 1 with one sentence otherwise.
    Health(health::HealthArgs),
}

impl Cli {
    /// The command line of this process, or the process ends with clap's message (exit
    /// status 2). A misspelt flag that a parameter's flag is near is answered with the
    /// suggestion every door makes for the same slip.
    pub fn from_env() -> Cli {
        use clap::error::{ContextKind, ContextValue, ErrorKind};
        let error = match <Cli as Parser>::try_parse() {
            Ok(cli) => return cli,
            Err(error) => error,
        };
        let typed = match (error.kind(), error.get(ContextKind::InvalidArg)) {
            (ErrorKind::UnknownArgument, Some(ContextValue::String(typed))) => typed.clone(),
            _ => error.exit(),
        };
        let command = std::env::args().skip(1).find(|a| !a.starts_with('-'));
        match command.as_deref().and_then(|c| misspelt(c, &typed)) {
            Some(sentence) => {
                eprintln!("staunton: {sentence}");
                std::process::exit(2)
            }
            None => error.exit(),
        }
    }
}

/// The sentence for flag `typed`, unknown to subcommand `command`, when a flag made from a
/// parameter is near it: `"--sise" is not a flag of staunton render: did you mean --size?`.
fn misspelt(command: &str, typed: &str) -> Option<String> {
    let near = match command {
        "render" => flags::nearest_flag::<render::RenderFlags>(typed),
        "sheet" => flags::nearest_flag::<sheet::SheetFlags>(typed),
        "article" => flags::nearest_flag::<article::ArticleFlags>(typed),
        _ => None,
    }?;
    let shown = crate::echo::Echo(typed);
    Some(format!(
        "{shown} is not a flag of staunton {command}: did you mean {near}?"
    ))
}

/// `render`'s line in `--help`, its formats from the format table.
fn render_about() -> String {
    let labels = crate::render::options::Format::labels(&crate::render::options::Format::ALL);
    format!("Render one FEN, or every FEN of a file, to {labels} files")
}

/// Run the command line; the error is printed by `main` as one line.
pub fn run(cli: Cli) -> anyhow::Result<()> {
    // A health check runs every few seconds: it reads no fonts.
    if let Some(Command::Health(args)) = &cli.command {
        return health::health(args);
    }
    if let Some(dir) = &cli.fonts {
        let names = staunton_fonts(dir)?.join(", ");
        match cli.command {
            None | Some(Command::Serve(_)) => tracing::info!(fonts = names, "fonts added"),
            _ => tracing::debug!(fonts = names, "fonts added"),
        }
    }
    if cli.system_fonts {
        crate::render::use_system_fonts(crate::render::system_font_dirs())?;
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
        Some(Command::Latex(args)) => latex::latex(*args),
        Some(Command::Dataset(args)) => dataset::dataset(*args),
        Some(Command::Health(args)) => health::health(&args),
    }
}

fn staunton_fonts(dir: &std::path::Path) -> anyhow::Result<Vec<String>> {
    crate::render::add_fonts(dir).with_context(|| format!("--fonts {}", dir.display()))
}
