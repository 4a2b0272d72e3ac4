//! `staunton article GAME.pgn -o OUT.pdf|.html|.svg`: an annotated game typeset. The
//! options are the service's (`/article.pdf`) query parameters, read by the same parser.

use super::flags::{FlagSet, TableFlags, all_but, of};
use super::shared::command_renderer;
use crate::render::article::Article;
use crate::request::article::{ArticleFormat, ArticleRequest, marks};
use crate::request::{Param, Query};
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
    /// Ignore the game's diagram markers ({[#]}, [D], $201, …): `--markers=0`.
    #[arg(long, conflicts_with = "markers")]
    no_markers: bool,
    #[command(flatten)]
    flags: TableFlags<ArticleFlags>,
    /// A folder whose subfolders are piece sets (see `serve --pieces-dir`).
    #[arg(long, env = "STAUNTON_PIECES_DIR")]
    pieces_dir: Option<PathBuf>,
}

/// The flags of `article`: the article's own parameters (but the game, which is the
/// file) and the diagram parameters an article applies to every diagram.
#[derive(Debug, Clone)]
pub struct ArticleFlags;

impl FlagSet for ArticleFlags {
    fn flags() -> Vec<(&'static Param, Option<&'static str>)> {
        use crate::request::article::{ARTICLE_PARAMS, DIAGRAM_PARAMS};
        let diagram = of(crate::request::PARAMS, DIAGRAM_PARAMS, None);
        (all_but(ARTICLE_PARAMS, &["pgn"], None).chain(diagram)).collect()
    }
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
    let mut pairs = args.flags.pairs().to_vec();
    if args.no_markers {
        pairs.push(("markers", "0".to_string()));
    }
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
