//! `staunton render`: its flags, and one FEN, one game (a position or an animation), a
//! share card or every line of a FEN/EPD file written as image files or to standard output.

use super::shared::{BoardArgs, command_renderer, format_of, option_pairs, push_given};
use crate::render::Renderer;
use crate::render::options::Format;
use crate::request::Request;
use anyhow::{Context, anyhow, bail};
use clap::Args;
use std::io::IsTerminal as _;
use std::path::{Path, PathBuf};

#[derive(Debug, Args)]
pub(super) struct RenderArgs {
    /// The position (FEN, X-FEN, Shredder-FEN, `start` or `empty`).
    #[arg(required_unless_present_any = ["input", "pgn"], conflicts_with_all = ["input", "pgn"])]
    fen: Option<String>,
    /// Output file; `.png`, `.svg`, `.pdf`, `.webp`, `.gif` or `.txt` (a text board)
    /// decides the format, `--format` for a name without an extension such as /dev/null
    /// (with `--pgn`: `.gif` for an animated GIF of the game, `.png` for
    /// an animated PNG unless `--ply` or `--move` picks one position). Without it, or with
    /// `-o -`: standard output, in `--format` (PNG by default) when it is a pipe or a file,
    /// as a text board when it is a terminal.
    #[arg(short, long, conflicts_with = "input")]
    output: Option<PathBuf>,
    /// A PGN file: the game (its main line) instead of a FEN.
    #[arg(long, conflicts_with = "input")]
    pgn: Option<PathBuf>,
    /// With --pgn: the position after this many half-moves (0 = the start).
    #[arg(long, requires = "pgn")]
    ply: Option<String>,
    /// With --pgn: the position after this move, e.g. 23w or 23b.
    #[arg(long = "move", requires = "pgn")]
    move_: Option<String>,
    /// A move annotation drawn on the last move's square: !, ?, !!, ??, !? or ?!.
    #[arg(long)]
    glyph: Option<String>,
    /// Animations: hundredths of a second per frame (default 80).
    #[arg(long, requires = "pgn")]
    delay: Option<String>,
    /// Animations: hundredths of a second for the last frame (default 300).
    #[arg(long, requires = "pgn")]
    last_delay: Option<String>,
    /// Animations: play once instead of in a loop.
    #[arg(long, requires = "pgn")]
    once: bool,
    /// Animations: the first ply shown (default 0).
    #[arg(long, requires = "pgn")]
    from: Option<String>,
    /// Animations: the last ply shown (default: the end).
    #[arg(long, requires = "pgn")]
    to: Option<String>,
    /// Animations: player bars, 1 or 0 (default: when the PGN names a player).
    #[arg(long, requires = "pgn")]
    players: Option<String>,
    /// A file of FENs, one per line (`.fen`, or `.epd` whose first four fields are read).
    #[arg(long, requires = "out_dir")]
    input: Option<PathBuf>,
    /// Directory for the images rendered from `--input` (created if missing).
    #[arg(long)]
    out_dir: Option<PathBuf>,
    /// Format of the files rendered from `--input`, or of standard output: png (the
    /// default), svg, pdf, webp, gif or txt.
    #[arg(long)]
    format: Option<String>,
    /// Width of the image in pixels, 16–2048.
    #[arg(long)]
    size: Option<String>,
    #[command(flatten)]
    board: BoardArgs,
    /// The last move in UCI (e2e4, e7e8q, N@f3): both squares tinted.
    #[arg(long)]
    last_move: Option<String>,
    /// A square, or auto (the side to move's king if attacked): a glow, red (in the theme's
    /// ink on print).
    #[arg(long)]
    check: Option<String>,
    /// Arrows and circles, e.g. Ge2e4,Rg1f3,Yd4.
    #[arg(long)]
    arrows: Option<String>,
    /// Squares marked with a cross, e.g. e4,d5.
    #[arg(long)]
    squares: Option<String>,
    /// Squares filled with colour, e.g. Ge4,Rd5.
    #[arg(long)]
    highlight: Option<String>,
    /// PGN comment commands, e.g. "[%cal Ge2e4][%csl Rd5][%mark dotted:d5]".
    #[arg(long)]
    annotations: Option<String>,
    /// Square markers, e.g. circle:Re4,dotted:d5,square:f3,triangle:g7,dot:e3,ring:d4,label:a3:12.
    #[arg(long)]
    marks: Option<String>,
    /// Squares marked with a dot, e.g. e3,Re4.
    #[arg(long)]
    dots: Option<String>,
    /// A square whose piece's legal moves are drawn as dots (captures as rings), e.g. e2.
    #[arg(long)]
    legal_moves: Option<String>,
    /// Outside the squares: light (the default), dark, transparent, a colour #rrggbb, or
    /// (SVG only) auto, following the reader's colour scheme.
    #[arg(long)]
    background: Option<String>,
    /// Colour of the labels and the caption, #rgb or #rrggbb (default: one that reads on
    /// the background).
    #[arg(long)]
    labels: Option<String>,
    /// Text under the board (at most 3 lines), or fen (the position's FEN) or move ("After
    /// 23...Qxf2+", with --pgn).
    #[arg(long)]
    caption: Option<String>,
    /// Mark the side to move beside the board.
    #[arg(long)]
    turn: bool,
    /// Text boards (`.txt`) only: letters (ASCII, the default) or figurines (Unicode
    /// chess symbols).
    #[arg(long)]
    style: Option<String>,
    /// SVG only: the language of the image's `<title>`, its description for screen
    /// readers: en (the default), de, it, fr, es, nl or ja.
    #[arg(long)]
    lang: Option<String>,
    /// SVG only: compact (the default, the fewest bytes) or portable (every piece written
    /// out, no `<symbol>`, `<use>` or CSS: also drawn by QtSvg and NanoSVG, e.g. PyQt and
    /// pygame).
    #[arg(long)]
    svg: Option<String>,
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
    /// With --card: the heading, at most 200 characters (wrapped to 3 lines).
    #[arg(long, requires = "card")]
    title: Option<String>,
    /// With --card: the line under the heading, at most 200 characters.
    #[arg(long, requires = "card")]
    subtitle: Option<String>,
}

impl RenderArgs {
    /// The options as query pairs, so they are validated exactly like HTTP parameters.
    fn pairs(&self, fen: Option<&str>) -> Vec<(&'static str, String)> {
        let fen = fen.map(|f| ("fen", f.to_string()));
        let options = option_pairs(
            [
                ("ply", &self.ply),
                ("move", &self.move_),
                ("glyph", &self.glyph),
                ("delay", &self.delay),
                ("lastDelay", &self.last_delay),
                ("from", &self.from),
                ("to", &self.to),
                ("players", &self.players),
                ("size", &self.size),
                ("lastMove", &self.last_move),
                ("check", &self.check),
                ("arrows", &self.arrows),
                ("squares", &self.squares),
                ("highlight", &self.highlight),
                ("annotations", &self.annotations),
                ("marks", &self.marks),
                ("dots", &self.dots),
                ("legalMoves", &self.legal_moves),
                ("background", &self.background),
                ("labels", &self.labels),
                ("caption", &self.caption),
                ("style", &self.style),
                ("lang", &self.lang),
                ("svg", &self.svg),
            ],
            &self.board,
            [(self.turn, "turn", "1"), (self.once, "loop", "0")],
        );
        fen.into_iter().chain(options).collect()
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
    if let Some(pgn) = &args.pgn {
        return render_game(&renderer, &args, pgn, &output);
    }
    let Some(fen) = &args.fen else {
        bail!("give a FEN, or --pgn FILE, or --input FILE --out-dir DIR");
    };
    let format = output.format(args.format.as_deref())?;
    let request = Request::from_pairs(args.pairs(Some(fen)), Some(format))?;
    let bytes = renderer.render(&request.position, &request.options, request.format)?;
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

/// `--format`'s value: png, svg, pdf, webp, gif or txt.
fn format_flag(value: &str) -> anyhow::Result<Format> {
    Format::from_extension(value).ok_or_else(|| {
        anyhow!(
            "--format {value:?} is not allowed: expected {}",
            Format::ALL.map(Format::extension).join(", ")
        )
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
    push_given(
        &mut pairs,
        [("title", &args.title), ("subtitle", &args.subtitle)],
    );
    let request = CardRequest::from_pairs_with(pairs, &limits)?;
    let bytes = request.png(renderer)?;
    output.write(&optimized(args, format, bytes)?)
}

/// `--pgn FILE -o OUT`: the whole game as an animation (`.gif`, or `.png` without
/// `--ply`/`--move`), or one position of it.
fn render_game(
    renderer: &Renderer,
    args: &RenderArgs,
    pgn: &Path,
    output: &Output,
) -> anyhow::Result<()> {
    let text =
        std::fs::read_to_string(pgn).with_context(|| format!("cannot read {}", pgn.display()))?;
    let format = output.format(args.format.as_deref())?;
    let one_position = args.ply.is_some() || args.move_.is_some();
    let limits = crate::request::Limits {
        pgn_bytes: text.len(),
        ..Default::default()
    };
    let animation = match format {
        Format::Gif if one_position => {
            bail!(
                "{} is a GIF: an animation of the whole game (drop --ply and --move, or write .png or .svg)",
                output.name()
            )
        }
        Format::Gif => Some(true),
        Format::Png if !one_position => Some(false),
        _ => None,
    };
    let bytes = match animation {
        Some(gif) => {
            let pairs = args
                .pairs(None)
                .into_iter()
                .map(|(k, v)| (k.to_string(), v))
                .collect();
            let kind = if gif { "gif" } else { "apng" };
            let game =
                crate::request::GameRequest::from_pairs_with(pairs, Some(&text), kind, &limits)
                    .map_err(|e| anyhow::anyhow!("{}: {e}", pgn.display()))?;
            match gif {
                true => crate::render::animate::gif(renderer, &game.frames(), game.looped)?,
                false => crate::render::animate::apng(renderer, &game.frames(), game.looped)?,
            }
        }
        None => {
            let mut pairs = args.pairs(None);
            pairs.push(("pgn", text.clone()));
            let request = Request::from_pairs_with(pairs, Some(format), &limits)
                .map_err(|e| anyhow::anyhow!("{}: {e}", pgn.display()))?;
            let bytes = renderer.render(&request.position, &request.options, request.format)?;
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
        let outcome = Request::from_pairs(args.pairs(Some(fen)), Some(format))
            .map_err(anyhow::Error::from)
            .and_then(|r| Ok(renderer.render(&r.position, &r.options, r.format)?))
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
