//! `staunton article GAME.pgn -o OUT.pdf|.html|.svg`: an annotated game typeset. The
//! options are the service's (`/article.pdf`) query parameters, read by the same parser.

use super::shared::{BoardArgs, command_renderer, option_pairs};
use crate::render::article::Article;
use crate::request::Query;
use crate::request::article::{ArticleFormat, ArticleRequest, marks};
use anyhow::{Context, anyhow, bail};
use clap::Args;
use std::path::PathBuf;

#[derive(Debug, Args)]
pub struct ArticleArgs {
    /// The annotated game (PGN; the first game of the file).
    input: PathBuf,
    /// Output file: `.pdf` (real text, every page), `.html` (one self-contained page) or
    /// `.svg` (the pages one under the other).
    #[arg(short, long)]
    output: PathBuf,
    /// Columns of text: 1 or 2 (default 1).
    #[arg(long)]
    columns: Option<String>,
    /// Paper: a4 or letter (default a4).
    #[arg(long)]
    page: Option<String>,
    /// A main-line diagram's width in points, 96–480 (default 216).
    #[arg(long)]
    size: Option<String>,
    /// Also a diagram after every N plies of the main line.
    #[arg(long)]
    every: Option<String>,
    /// Also a diagram of the final position.
    #[arg(long)]
    end: bool,
    /// Ignore the game's diagram markers ({[#]}, [D], $201, …).
    #[arg(long)]
    no_markers: bool,
    /// Print each diagram's FEN under its caption.
    #[arg(long)]
    fen_under: bool,
    /// figurine (♘f3, the default) or letters (the piece letters of --lang).
    #[arg(long)]
    notation: Option<String>,
    /// The language of captions and piece letters (en, de, it, fr, es, nl, ja); moves may
    /// be written in its letters.
    #[arg(long)]
    lang: Option<String>,
    #[command(flatten)]
    board: BoardArgs,
    /// A folder whose subfolders are piece sets (see `serve --pieces-dir`).
    #[arg(long, env = "STAUNTON_PIECES_DIR")]
    pieces_dir: Option<PathBuf>,
}

/// Typeset the game of `args.input` into `args.output`.
pub fn article(args: ArticleArgs) -> anyhow::Result<()> {
    let extension = args
        .output
        .extension()
        .and_then(|e| e.to_str())
        .unwrap_or("");
    let Some(format) = ArticleFormat::from_extension(extension) else {
        bail!(
            "cannot tell what to write to {}: name it .pdf, .html or .svg",
            args.output.display()
        );
    };
    let pairs = option_pairs(
        [
            ("columns", &args.columns),
            ("page", &args.page),
            ("size", &args.size),
            ("every", &args.every),
            ("notation", &args.notation),
            ("lang", &args.lang),
        ],
        &args.board,
        [
            (args.end, "end", "1"),
            (args.no_markers, "markers", "0"),
            (args.fen_under, "fenUnder", "1"),
        ],
    );
    let text = std::fs::read_to_string(&args.input)
        .with_context(|| format!("cannot read {}", args.input.display()))?;
    let query = Query::from_pairs(pairs);
    let request = ArticleRequest::read(&query, Some(&text), format, &Default::default())
        .map_err(|e| anyhow!("{}: {e}", args.input.display()))?;
    let renderer = command_renderer(args.pieces_dir.as_deref());
    let article = Article::new(&renderer, &request.game, request.options, &marks)?;
    let bytes = match format {
        ArticleFormat::Pdf => article.pdf(&renderer)?,
        ArticleFormat::Html => article.html(&renderer)?.into_bytes(),
        ArticleFormat::Svg => article.svg(&renderer)?.into_bytes(),
    };
    crate::safe_write::write(&args.output, &bytes)
        .with_context(|| format!("cannot write {}", args.output.display()))?;
    let (pages, diagrams) = (article.pages.len(), article.flow.diagrams.len());
    let plural = |n: usize| if n == 1 { "" } else { "s" };
    // An HTML page reflows: it has no pages to count.
    let on_pages = match format {
        ArticleFormat::Html => String::new(),
        _ => format!(" on {pages} page{}", plural(pages)),
    };
    eprintln!(
        "wrote {}: {diagrams} diagram{}{on_pages}",
        args.output.display(),
        plural(diagrams)
    );
    Ok(())
}
