//! `staunton sheet INPUT -o OUT`: its flags, and a worksheet of the positions of an EPD,
//! PGN or FEN file written as a PDF or as one SVG or PNG file a page.

use super::shared::{BoardArgs, command_renderer, format_of, option_pairs};
use crate::render::options::Format;
use anyhow::{Context, anyhow, bail};
use clap::Args;
use std::path::{Path, PathBuf};

/// Most diagrams on a sheet made on the command line.
pub const MAX_CLI_SHEET_DIAGRAMS: usize = 500;

#[derive(Debug, Args)]
pub(super) struct SheetArgs {
    /// The positions: `.epd` (captions from `c0` or `id`, answers from `pv` or `bm`), `.pgn`
    /// (a game with a FEN tag is a puzzle, its moves the answer; other games are shown as
    /// they ended) or `.fen` (one FEN a line).
    input: PathBuf,
    /// Output file: `.pdf` (every page), `.svg` or `.png` (one file a page, numbered
    /// `-1`, `-2`, … when there are several).
    #[arg(short, long)]
    output: PathBuf,
    /// Diagrams per row, 1–6 (default 2).
    #[arg(long)]
    columns: Option<String>,
    /// Rows per page, 1–10 (default: as many as fit with boards at least 3/4 of a column wide).
    #[arg(long)]
    rows: Option<String>,
    /// Paper: a4 or letter (default a4).
    #[arg(long)]
    page: Option<String>,
    /// A heading on the first page.
    #[arg(long)]
    title: Option<String>,
    /// Add an answer key after the diagrams.
    #[arg(long)]
    solutions: bool,
    /// Page pixels per inch, 72–300 (default 150): the PNG's resolution.
    #[arg(long)]
    dpi: Option<String>,
    #[command(flatten)]
    board: BoardArgs,
    /// Mark the side to move beside each board.
    #[arg(long)]
    turn: bool,
    /// A folder whose subfolders are piece sets (see `serve --pieces-dir`).
    #[arg(long, env = "STAUNTON_PIECES_DIR")]
    pieces_dir: Option<PathBuf>,
}

/// `staunton sheet INPUT -o OUT`: a worksheet of the positions of INPUT.
pub(super) fn sheet(args: SheetArgs) -> anyhow::Result<()> {
    use crate::render::sheet::Sheet;
    use crate::request::puzzles::{self, PuzzleFormat};
    use crate::request::sheet::SheetRequest;
    let input = &args.input;
    let Some(kind) = input
        .extension()
        .and_then(|e| e.to_str())
        .and_then(PuzzleFormat::from_extension)
    else {
        bail!(
            "cannot tell what {} holds: name it .epd, .pgn or .fen",
            input.display()
        );
    };
    let format = format_of(&args.output)?;
    if !matches!(format, Format::Pdf | Format::Svg | Format::Png) {
        bail!(
            "a sheet is written as .pdf, .svg or .png, not .{}",
            format.extension()
        );
    }
    let pairs = option_pairs(
        [
            ("columns", &args.columns),
            ("rows", &args.rows),
            ("page", &args.page),
            ("title", &args.title),
            ("dpi", &args.dpi),
        ],
        &args.board,
        [(args.solutions, "solutions", "1"), (args.turn, "turn", "1")],
    );
    let pairs: Vec<(String, String)> = pairs.into_iter().map(|(k, v)| (k.to_string(), v)).collect();
    let request = SheetRequest::from_pairs(
        &pairs,
        Some(format),
        MAX_CLI_SHEET_DIAGRAMS,
        false,
        &Default::default(),
    )?;
    let text = std::fs::read_to_string(input)
        .with_context(|| format!("cannot read {}", input.display()))?;
    let entries = puzzles::read(&text, kind, MAX_CLI_SHEET_DIAGRAMS)
        .map_err(|e| anyhow!("{}, {e}", input.display()))?;
    let count = entries.len();
    let renderer = command_renderer(args.pieces_dir.as_deref());
    let sheet = Sheet::new(&renderer, entries, request.options)?;
    let pages = sheet.pages.len();
    let mut written = Vec::new();
    if format == Format::Pdf {
        written.push((args.output.clone(), sheet.pdf(&renderer)?));
    } else {
        for n in 0..pages {
            let bytes = match format {
                Format::Svg => sheet.svg(&renderer, n)?.into_bytes(),
                _ => sheet.png(&renderer, n)?,
            };
            let path = match pages {
                1 => args.output.clone(),
                _ => numbered(&args.output, n + 1),
            };
            written.push((path, bytes));
        }
    }
    // Every page or none: a failure leaves no page of this run (nor a temporary).
    crate::safe_write::write_all(&written).with_context(|| {
        let names: Vec<String> = written
            .iter()
            .map(|(p, _)| p.display().to_string())
            .collect();
        format!("cannot write {}", names.join(", "))
    })?;
    let names: Vec<String> = written
        .iter()
        .map(|(p, _)| p.display().to_string())
        .collect();
    eprintln!(
        "wrote {}: {count} diagram{} on {pages} page{}",
        names.join(", "),
        if count == 1 { "" } else { "s" },
        if pages == 1 { "" } else { "s" }
    );
    Ok(())
}

/// `sheet.png` as page `n`: `sheet-2.png`.
fn numbered(path: &Path, n: usize) -> PathBuf {
    let stem = path.file_stem().and_then(|s| s.to_str()).unwrap_or("sheet");
    let extension = path.extension().and_then(|e| e.to_str()).unwrap_or("");
    path.with_file_name(format!("{stem}-{n}.{extension}"))
}
