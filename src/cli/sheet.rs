//! `staunton sheet INPUT -o OUT`: its flags, and a worksheet of the positions of an EPD,
//! PGN or FEN file written as a PDF or as one SVG or PNG file a page.

use super::flags::{FlagSet, TableFlags, all_but, of};
use super::shared::{command_renderer, format_of};
use crate::render::options::Format;
use crate::request::Param;
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
    #[command(flatten)]
    flags: TableFlags<SheetFlags>,
    /// A folder whose subfolders are piece sets (see `serve --pieces-dir`).
    #[arg(long, env = "STAUNTON_PIECES_DIR")]
    pieces_dir: Option<PathBuf>,
}

/// The flags of `sheet`: the sheet's own parameters (but the positions, captions and
/// answers, which come from the file, and the format and page, which the file's name
/// decides) and the diagram parameters a sheet applies to every diagram.
#[derive(Debug, Clone)]
pub(super) struct SheetFlags;

impl FlagSet for SheetFlags {
    fn flags() -> Vec<(&'static Param, Option<&'static str>)> {
        use crate::request::sheet::{DIAGRAM_PARAMS, READING_PARAMS, SHEET_PARAMS};
        const FROM_FILES: &[&str] = &["fen", "caption", "solution", "format", "pageNumber"];
        let diagram = of(crate::request::PARAMS, DIAGRAM_PARAMS, None);
        let reading = of(crate::request::PARAMS, &READING_PARAMS, None);
        (all_but(SHEET_PARAMS, FROM_FILES, None)
            .chain(diagram)
            .chain(reading))
        .collect()
    }
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
    let pairs: Vec<(String, String)> = (args.flags.pairs().iter())
        .map(|(k, v)| (k.to_string(), v.clone()))
        .collect();
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
