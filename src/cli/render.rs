//! `staunton render`: its flags, and one FEN, one game (a position or an animation), a
//! share card or every line of a FEN/EPD file written as image files or to standard output.

use super::flags::{FlagSet, TableFlags, all_but};
use super::shared::{command_renderer, format_of};
use crate::embed;
use crate::render::Renderer;
use crate::render::options::Format;
use crate::request::Param;
use anyhow::{Context, anyhow, bail};
use clap::Args;
use std::io::IsTerminal as _;
use std::path::{Path, PathBuf};

#[derive(Debug, Args)]
#[command(group = clap::ArgGroup::new("game").args(["pgn", "moves"]).multiple(true))]
pub(super) struct RenderArgs {
    /// The position (FEN, X-FEN, Shredder-FEN, `start` or `empty`).
    #[arg(required_unless_present_any = ["input", "pgn", "moves"], conflicts_with_all = ["input", "pgn"])]
    fen: Option<String>,
    // Output file (help: `output_help`).
    #[arg(short, long, conflicts_with = "input", help = output_help())]
    output: Option<PathBuf>,
    /// A PGN file: the game (its main line) instead of a FEN (or a game as `--moves`).
    #[arg(long, conflicts_with = "input")]
    pgn: Option<PathBuf>,
    /// A file of FENs, one per line (`.fen`, or `.epd` whose first four fields are read).
    #[arg(long, requires = "out_dir")]
    input: Option<PathBuf>,
    /// Directory for the images rendered from `--input` (created if missing).
    #[arg(long)]
    out_dir: Option<PathBuf>,
    // The format of `--input`'s files or of standard output (help: `format_help`).
    #[arg(long, help = format_help())]
    format: Option<String>,
    /// PNG only: spend more time for fewer bytes (oxipng's search over filters and colour
    /// types, compressed with libdeflate at its highest level), for files written once and
    /// read many times.
    #[arg(long)]
    optimize: bool,
    /// A folder whose subfolders are piece sets (see `serve --pieces-dir`).
    #[arg(long, env = "STAUNTON_PIECES_DIR")]
    pieces_dir: Option<PathBuf>,
    /// A share card instead of a diagram: a 1200×630 PNG for a link's og:image, the
    /// diagram at the left and --title and --subtitle at the right (with --pgn, the game's
    /// players, event, result and move when they are not given); the bytes of /card.png.
    #[arg(long, conflicts_with_all = ["input", "size"])]
    card: bool,
    /// Animations: play once instead of in a loop (`--loop=0`).
    #[arg(long, requires = "game", conflicts_with = "loop")]
    once: bool,
    #[command(flatten)]
    flags: TableFlags<RenderFlags>,
}

/// `--output`'s help, its extensions from the format table.
fn output_help() -> String {
    format!(
        "Output file; {} (a text board) decides the format, `--format` for a name without an extension such as /dev/null (with `--pgn` or `--moves`: `.gif` for an animated GIF of the game, `.png` for an animated PNG unless `--ply` or `--move` picks one position). Without it, or with `-o -`: standard output, in `--format` (PNG by default) when it is a pipe or a file, as a text board when it is a terminal",
        Format::files(&Format::ALL)
    )
}

/// `--format`'s help, its names from the format table.
fn format_help() -> String {
    format!(
        "Format of the files rendered from `--input`, or of standard output: {} (png the default)",
        Format::words(&Format::ALL)
    )
}

/// The flags of `render`: every diagram parameter (but the position, which is the FEN
/// argument or `--pgn`'s file, and the format, which `--format` and the output's name
/// decide), an animation's (with `--pgn`) and a share card's (with `--card`).
#[derive(Debug, Clone)]
pub(super) struct RenderFlags;

impl FlagSet for RenderFlags {
    fn flags() -> Vec<(&'static Param, Option<&'static str>)> {
        use crate::request::{GAME_PARAMS, PARAMS, share_card::CARD_PARAMS};
        let diagram = all_but(PARAMS, &["fen", "format", "pgn"], None);
        let game = all_but(GAME_PARAMS, &[], Some("game"));
        (diagram
            .chain(game)
            .chain(all_but(CARD_PARAMS, &[], Some("card"))))
        .collect()
    }
}

impl RenderArgs {
    /// The options as query pairs, so they are validated exactly like HTTP parameters.
    fn pairs(&self, fen: Option<&str>) -> Vec<(&'static str, String)> {
        let fen = fen.map(|f| ("fen", f.to_string()));
        let once = self.once.then(|| ("loop", "0".to_string()));
        let flags = self.flags.pairs().iter().cloned();
        fen.into_iter().chain(flags).chain(once).collect()
    }

    /// [`pairs`](Self::pairs) as a door hands them to [`embed`], which reads them under
    /// the doors' limits and prices them as the service does.
    fn query(&self, fen: Option<&str>) -> Vec<(String, String)> {
        let pairs = self.pairs(fen).into_iter();
        pairs.map(|(k, v)| (k.to_string(), v)).collect()
    }
}

pub(super) fn render(args: RenderArgs) -> anyhow::Result<()> {
    let renderer = command_renderer(args.pieces_dir.as_deref());
    if let (Some(input), Some(out_dir)) = (&args.input, &args.out_dir) {
        return render_file(&renderer, &args, input, out_dir);
    }
    let output = Output::of(args.output.as_deref());
    if args.card {
        return render_card(&renderer, &args, &output);
    }
    if args.pgn.is_some() || args.flags.get("moves").is_some() {
        return render_game(&renderer, &args, &output);
    }
    let Some(fen) = &args.fen else {
        bail!("give a FEN, or --pgn FILE, or --input FILE --out-dir DIR");
    };
    let format = output.format(args.format.as_deref())?;
    let bytes = embed::render_with(&renderer, args.query(Some(fen)), format)?;
    output.write(&optimized(&args, format, bytes)?)
}

/// Where `render` writes: a file, whose extension names the format, or standard output
/// (no `-o`, or `-o -`).
enum Output<'a> {
    File(&'a Path),
    Stdout,
}

impl Output<'_> {
    fn of(path: Option<&Path>) -> Output<'_> {
        match path {
            Some(path) if path != Path::new("-") => Output::File(path),
            _ => Output::Stdout,
        }
    }

    /// The format: the file's extension (`--format`, if given, must agree), or for
    /// standard output `--format`, else a text board on a terminal and PNG elsewhere.
    /// Binary formats are refused on a terminal, before anything is rendered.
    fn format(&self, flag: Option<&str>) -> anyhow::Result<Format> {
        let flag = flag.map(format_flag).transpose()?;
        match self {
            // A name without an extension (`/dev/null`, `/dev/stdout`, a named pipe) takes
            // the format --format names.
            Output::File(path) if path.extension().is_none() && flag.is_some() => {
                Ok(flag.unwrap_or(Format::Png))
            }
            Output::File(path) => {
                let format = format_of(path)?;
                if let Some(flag) = flag.filter(|&f| f != format) {
                    bail!(
                        "--format {} disagrees with {}: the file's extension names the format",
                        flag.extension(),
                        path.display()
                    );
                }
                Ok(format)
            }
            Output::Stdout => {
                let terminal = std::io::stdout().is_terminal();
                let format = flag.unwrap_or(if terminal { Format::Txt } else { Format::Png });
                if terminal && !matches!(format, Format::Txt | Format::Svg) {
                    bail!(
                        "standard output is a terminal, where a {} would print as noise: write it with -o FILE or through a pipe, or leave out --format for a text board",
                        format.extension().to_ascii_uppercase()
                    );
                }
                Ok(format)
            }
        }
    }

    fn write(&self, bytes: &[u8]) -> anyhow::Result<()> {
        use std::io::Write as _;
        match self {
            Output::File(path) => crate::safe_write::write(path, bytes)
                .with_context(|| format!("cannot write {}", path.display())),
            Output::Stdout => {
                let mut out = std::io::stdout().lock();
                out.write_all(bytes)
                    .and_then(|()| out.flush())
                    .context("cannot write to standard output")
            }
        }
    }

    /// How errors name the output.
    fn name(&self) -> String {
        match self {
            Output::File(path) => path.display().to_string(),
            Output::Stdout => "standard output".to_string(),
        }
    }
}

/// `--format`'s value: one of [`Format::NAMES`].
fn format_flag(value: &str) -> anyhow::Result<Format> {
    Format::from_extension(value).ok_or_else(|| {
        let expected = Format::words(&Format::ALL);
        anyhow!("--format {value:?} is not allowed: expected {expected}")
    })
}

/// `bytes` through [`encode::optimize`](crate::render::encode::optimize) when `--optimize`
/// asks for it (PNG only).
fn optimized(args: &RenderArgs, format: Format, bytes: Vec<u8>) -> anyhow::Result<Vec<u8>> {
    if !args.optimize {
        return Ok(bytes);
    }
    if format != Format::Png {
        bail!(
            "--optimize makes PNG files smaller: the output is {}, not .png",
            format.extension()
        );
    }
    Ok(crate::render::encode::optimize(&bytes)?)
}

/// `--card`: a share card of the FEN or of the game of `--pgn` (its `--ply` or `--move`),
/// read like `/card.png`'s query, so the bytes are the route's.
fn render_card(renderer: &Renderer, args: &RenderArgs, output: &Output) -> anyhow::Result<()> {
    use crate::request::share_card::CardRequest;
    let format = output.format(args.format.as_deref())?;
    if format != Format::Png {
        bail!(
            "a share card is a PNG: write it to a .png file ({} is {})",
            output.name(),
            format.extension()
        );
    }
    let mut pairs = args.pairs(args.fen.as_deref());
    let mut limits = crate::request::Limits::default();
    if let Some(pgn) = &args.pgn {
        let text = std::fs::read_to_string(pgn)
            .with_context(|| format!("cannot read {}", pgn.display()))?;
        limits.pgn_bytes = limits.pgn_bytes.max(text.len());
        pairs.push(("pgn", text));
    }
    let request = CardRequest::from_pairs_with(pairs, &limits)?;
    let bytes = request.png(renderer)?;
    output.write(&optimized(args, format, bytes)?)
}

/// A game (`--pgn FILE`, or `--moves` from the FEN or the start) to `-o OUT`: the whole
/// game as an animation (`.gif`, or `.png` without `--ply`/`--move`), or one position of
/// it.
fn render_game(renderer: &Renderer, args: &RenderArgs, output: &Output) -> anyhow::Result<()> {
    let pgn = args.pgn.as_deref();
    let text = match pgn {
        Some(pgn) => Some(
            std::fs::read_to_string(pgn)
                .with_context(|| format!("cannot read {}", pgn.display()))?,
        ),
        None => None,
    };
    let format = output.format(args.format.as_deref())?;
    let one_position = args.flags.get("ply").is_some() || args.flags.get("move").is_some();
    let kind = match format {
        Format::Gif if one_position => {
            bail!(
                "{} is a GIF: an animation of the whole game (drop --ply and --move, or write .png or .svg)",
                output.name()
            )
        }
        Format::Gif => Some("gif"),
        Format::Png if !one_position => Some("apng"),
        _ => None,
    };
    let in_file = |e: embed::Failure| match pgn {
        Some(pgn) => anyhow!("{}: {e}", pgn.display()),
        None => anyhow!(e),
    };
    let fen = args.fen.as_deref();
    let bytes = match kind {
        Some(kind) => {
            let pairs = args.query(fen);
            embed::render_game_with(renderer, pairs, text.as_deref(), kind).map_err(in_file)?
        }
        None => {
            let mut pairs = args.query(fen);
            pairs.extend(text.map(|text| ("pgn".to_string(), text)));
            let bytes = embed::render_with(renderer, pairs, format).map_err(in_file)?;
            optimized(args, format, bytes)?
        }
    };
    output.write(&bytes)
}

/// The FEN text of one line of a `.fen` or `.epd` file; `None` for blank and `#` lines.
fn fen_of_line(line: &str, epd: bool) -> Option<String> {
    let line = line.trim();
    if line.is_empty() || line.starts_with('#') {
        return None;
    }
    if epd {
        // EPD: placement, side, castling, en passant, then operations (`bm Nf3; id "…";`).
        Some(
            line.split_whitespace()
                .take(4)
                .collect::<Vec<_>>()
                .join(" "),
        )
    } else {
        Some(line.to_string())
    }
}

fn render_file(
    renderer: &Renderer,
    args: &RenderArgs,
    input: &Path,
    out_dir: &Path,
) -> anyhow::Result<()> {
    let format = format_flag(args.format.as_deref().unwrap_or("png"))?;
    let text = std::fs::read_to_string(input)
        .with_context(|| format!("cannot read {}", input.display()))?;
    std::fs::create_dir_all(out_dir)
        .with_context(|| format!("cannot create {}", out_dir.display()))?;
    let epd = input
        .extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("epd"));
    let lines: Vec<(usize, String)> = text
        .lines()
        .enumerate()
        .filter_map(|(i, l)| fen_of_line(l, epd).map(|f| (i + 1, f)))
        .collect();
    let bar = indicatif::ProgressBar::new(lines.len() as u64);
    bar.set_style(
        indicatif::ProgressStyle::with_template("{bar:40} {pos}/{len} {msg}")
            .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar()),
    );
    let mut failed = 0usize;
    for (number, fen) in &lines {
        let outcome = embed::render_with(renderer, args.query(Some(fen)), format)
            .map_err(anyhow::Error::from)
            .and_then(|bytes| optimized(args, format, bytes))
            .and_then(|bytes| {
                let path = out_dir.join(format!("line-{number:05}.{}", format.extension()));
                crate::safe_write::write(&path, &bytes)
                    .with_context(|| format!("cannot write {}", path.display()))
            });
        if let Err(e) = outcome {
            failed += 1;
            bar.suspend(|| eprintln!("{}:{number}: {e:#}", input.display()));
        }
        bar.inc(1);
    }
    bar.finish_and_clear();
    let done = lines.len() - failed;
    eprintln!(
        "rendered {done} of {} positions into {}",
        lines.len(),
        out_dir.display()
    );
    if failed > 0 {
        return Err(anyhow!(
            "{failed} of {} lines of {} failed",
            lines.len(),
            input.display()
        ));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn epd_lines_keep_four_fields() {
        assert_eq!(
            fen_of_line(
                "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - bm e4; id \"x\";",
                true
            ),
            Some("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq -".to_string())
        );
        assert_eq!(fen_of_line("  # comment", false), None);
        assert_eq!(fen_of_line("", true), None);
    }
}
