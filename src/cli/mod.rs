//! The command line: `staunton serve` and `staunton render`.
//!
//! Owns argument parsing (clap), reading FEN files, writing image files and the progress
//! bar. Options go through the same `Request` validation as HTTP queries, so the command
//! line and the service accept exactly the same values.

mod article;
mod markdown;
mod mdbook;

use crate::http::{self, AppState};
use crate::render::Renderer;
use crate::render::options::Format;
use crate::render::pieces::PieceSets;
use crate::request::Request;
use anyhow::{Context, anyhow, bail};
use clap::{Args, Parser, Subcommand};
use std::io::IsTerminal as _;
use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

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
    serve: ServeArgs,
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
    Serve(ServeArgs),
    /// Render one FEN, or every FEN of a file, to PNG, SVG, PDF, WebP, GIF or text files.
    Render(Box<RenderArgs>),
    /// Lay out a worksheet: the positions of an EPD, PGN or FEN file as numbered,
    /// captioned diagrams on A4 or Letter pages, as PDF, SVG or PNG.
    Sheet(Box<SheetArgs>),
    /// Typeset an annotated game (PGN) as an article: header, moves in figurines or the
    /// reader's letters, comments, variations, and a diagram wherever the game marks one;
    /// PDF (real text), HTML or SVG.
    Article(Box<article::ArticleArgs>),
    /// Compare two PNG images by their pixels: exit status 0 when equal within the
    /// tolerance, 1 when not (or of different sizes), 2 when a file is missing or not a PNG.
    Compare(CompareArgs),
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

#[derive(Debug, Args)]
struct CompareArgs {
    /// The expected image (PNG).
    expected: PathBuf,
    /// The actual image (PNG).
    actual: PathBuf,
    /// Largest difference of any channel (0–255) of a pixel still counted as equal.
    #[arg(long, default_value_t = crate::snapshot::Tolerance::default().channel)]
    tolerance: u8,
    /// Pixels allowed to differ by more than the tolerance.
    #[arg(long, default_value_t = crate::snapshot::Tolerance::default().pixels)]
    max_pixels: u64,
    /// Where to write a picture of the difference when they differ: the expected image
    /// in grey, differing pixels red, their box blue.
    #[arg(long)]
    diff: Option<PathBuf>,
}

/// `staunton compare` found the images different: exit status 1, the report printed.
#[derive(Debug, thiserror::Error)]
#[error("the images differ")]
pub struct ImagesDiffer;

/// Most diagrams on a sheet made on the command line.
pub const MAX_CLI_SHEET_DIAGRAMS: usize = 500;

#[derive(Debug, Args)]
struct SheetArgs {
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

#[derive(Debug, Args)]
struct ServeArgs {
    /// Address to listen on.
    #[arg(long, env = "STAUNTON_ADDR", default_value = "127.0.0.1:8080")]
    addr: SocketAddr,
    /// Byte budget of the image cache, e.g. 128MiB, 1GiB, 500MB or a plain number of bytes.
    #[arg(long, env = "STAUNTON_CACHE_SIZE", default_value = "128MiB", value_parser = parse_bytes)]
    cache_size: u64,
    /// Byte budget of the renderer's caches together (piece sprites, stamps, palette
    /// contexts, cell tiles, SVG parts).
    #[arg(long, env = "STAUNTON_RENDER_CACHE_SIZE", default_value = "64MiB", value_parser = parse_bytes)]
    render_cache_size: u64,
    /// A folder whose subfolders are piece sets (wK.svg … bP.svg, or wk.svg … bp.svg).
    #[arg(long, env = "STAUNTON_PIECES_DIR")]
    pieces_dir: Option<PathBuf>,
    /// Renders running at once (default: one per core).
    #[arg(long, env = "STAUNTON_WORKERS")]
    workers: Option<usize>,
    /// Renders waiting for a worker; beyond that, new cache misses get 503 with Retry-After.
    #[arg(long, env = "STAUNTON_QUEUE", default_value_t = 64)]
    queue: usize,
    /// Longest accepted query string, in bytes (longer: 414).
    #[arg(long, env = "STAUNTON_MAX_QUERY_BYTES", default_value_t = crate::http::MAX_QUERY_BYTES)]
    max_query_bytes: usize,
    /// Seconds allowed for a whole request (longer: 408).
    #[arg(long, env = "STAUNTON_REQUEST_TIMEOUT", default_value_t = 10)]
    request_timeout: u64,
    /// Longest accepted fen, in bytes.
    #[arg(long, env = "STAUNTON_MAX_FEN_BYTES", default_value_t = crate::request::MAX_FEN_BYTES)]
    max_fen_bytes: usize,
    /// Most arrows and circles in one request.
    #[arg(long, env = "STAUNTON_MAX_ARROWS", default_value_t = crate::request::MAX_ARROWS)]
    max_arrows: usize,
    /// Most squares in squares= and in highlight=.
    #[arg(long, env = "STAUNTON_MAX_SQUARES", default_value_t = crate::request::MAX_SQUARES)]
    max_squares: usize,
    /// Largest size= in pixels (16–2048).
    #[arg(long, env = "STAUNTON_MAX_SIZE", default_value_t = crate::render::options::MAX_SIZE,
          value_parser = clap::value_parser!(u32).range(16..=2048))]
    max_size: u32,
    /// Longest `pgn` or `moves` in a URL, in bytes (a longer game can be POSTed).
    #[arg(long, env = "STAUNTON_MAX_PGN_BYTES", default_value_t = crate::request::MAX_PGN_BYTES)]
    max_pgn_bytes: usize,
    /// Most plies (half-moves) in a game.
    #[arg(long, env = "STAUNTON_MAX_PLIES", default_value_t = crate::request::MAX_PLIES)]
    max_plies: usize,
    /// Longest request body (a POSTed PGN), in bytes (longer: 413).
    #[arg(long, env = "STAUNTON_MAX_BODY_BYTES", default_value_t = crate::http::MAX_BODY_BYTES)]
    max_body_bytes: usize,
    /// Seconds a client may take to send its request headers (slowloris guard).
    #[arg(long, env = "STAUNTON_HEADER_TIMEOUT", default_value_t = 5)]
    header_timeout: u64,
    /// Seconds requests in flight may take to finish after SIGTERM/SIGINT.
    #[arg(long, env = "STAUNTON_SHUTDOWN_GRACE", default_value_t = 10)]
    shutdown_grace: u64,
    /// Seconds to keep serving after SIGTERM/SIGINT with `/ready` answering 503, so a
    /// balancer (Kubernetes, nginx health checks) stops sending requests first.
    #[arg(long, env = "STAUNTON_DRAIN", default_value_t = 0)]
    drain: u64,
}

#[derive(Debug, Args)]
struct RenderArgs {
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

/// Parse a byte size: `128MiB`, `1GiB`, `64KiB`, `500MB`, `1GB`, or plain bytes.
pub fn parse_bytes(text: &str) -> Result<u64, String> {
    let t = text.trim();
    let split = t.find(|c: char| !c.is_ascii_digit()).unwrap_or(t.len());
    let (digits, unit) = t.split_at(split);
    let n: u64 = digits
        .parse()
        .map_err(|_| format!("{text:?} is not a size: expected e.g. 128MiB, 1GiB or 1048576"))?;
    let factor: u64 = match unit.trim().to_ascii_lowercase().as_str() {
        "" | "b" => 1,
        "k" | "kb" => 1000,
        "kib" => 1 << 10,
        "m" | "mb" => 1_000_000,
        "mib" => 1 << 20,
        "g" | "gb" => 1_000_000_000,
        "gib" => 1 << 30,
        _ => {
            return Err(format!(
                "{text:?} has an unknown unit: use B, KiB, MiB, GiB, KB, MB or GB"
            ));
        }
    };
    n.checked_mul(factor)
        .ok_or_else(|| format!("{text:?} is too large"))
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
        None => serve(cli.serve),
        Some(Command::Serve(args)) => serve(args),
        Some(Command::Render(args)) => render(*args),
        Some(Command::Sheet(args)) => sheet(*args),
        Some(Command::Article(args)) => article::article(*args),
        Some(Command::Compare(args)) => compare(args),
        Some(Command::Markdown(args)) => markdown::markdown(*args),
        Some(Command::Fence(args)) => markdown::fence(*args),
        Some(Command::Mdbook(args)) => mdbook::run(args),
    }
}

fn staunton_fonts(dir: &std::path::Path) -> anyhow::Result<Vec<String>> {
    crate::render::add_fonts(dir).with_context(|| format!("--fonts {}", dir.display()))
}

fn serve(args: ServeArgs) -> anyhow::Result<()> {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .context("cannot start the async runtime")?;
    runtime.block_on(async move {
        let listener = tokio::net::TcpListener::bind(args.addr)
            .await
            .with_context(|| format!("cannot listen on {}", args.addr))?;
        let dir = args.pieces_dir.as_deref();
        let renderer = renderer(dir, args.render_cache_size, |p| tracing::warn!("{p}"));
        let names: Vec<&str> = renderer.piece_sets().names().collect();
        tracing::info!(sets = names.join(", "), "piece sets loaded");
        let defaults = http::Config::default();
        let config = http::Config {
            cache_bytes: args.cache_size,
            workers: args.workers.unwrap_or(defaults.workers).max(1),
            queue: args.queue,
            max_query_bytes: args.max_query_bytes,
            max_body_bytes: args.max_body_bytes,
            request_timeout: Duration::from_secs(args.request_timeout.max(1)),
            header_timeout: Duration::from_secs(args.header_timeout.max(1)),
            drain: Duration::from_secs(args.drain),
            limits: crate::request::Limits {
                fen_bytes: args.max_fen_bytes,
                arrows: args.max_arrows,
                squares: args.max_squares,
                max_size: args.max_size,
                pgn_bytes: args.max_pgn_bytes,
                plies: args.max_plies,
            },
        };
        // The bound address, so `--addr 127.0.0.1:0` reports the port it got.
        let addr = listener.local_addr().unwrap_or(args.addr);
        tracing::info!(%addr, ?config, "staunton listening");
        let state = Arc::new(AppState::with_config(Arc::new(renderer), config));
        http::serve(
            listener,
            state,
            shutdown_signal(),
            Duration::from_secs(args.shutdown_grace),
        )
        .await
        .context("the server stopped")?;
        tracing::info!("staunton stopped");
        Ok(())
    })
}

/// Resolves on SIGINT (Ctrl-C) or SIGTERM.
async fn shutdown_signal() {
    let ctrl_c = async {
        let _ = tokio::signal::ctrl_c().await;
    };
    #[cfg(unix)]
    let term = async {
        match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
            Ok(mut s) => {
                s.recv().await;
            }
            Err(_) => std::future::pending::<()>().await,
        }
    };
    #[cfg(not(unix))]
    let term = std::future::pending::<()>();
    tokio::select! {
        () = ctrl_c => {},
        () = term => {},
    }
}

impl RenderArgs {
    /// The options as query pairs, so they are validated exactly like HTTP parameters.
    fn pairs(&self, fen: Option<&str>) -> Vec<(&'static str, String)> {
        let mut pairs: Vec<(&'static str, String)> =
            fen.map(|f| ("fen", f.to_string())).into_iter().collect();
        push_given(
            &mut pairs,
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
            ],
        );
        self.board.push_pairs(&mut pairs);
        push_given(
            &mut pairs,
            [
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
            ],
        );
        if self.turn {
            pairs.push(("turn", "1".to_string()));
        }
        if self.once {
            pairs.push(("loop", "0".to_string()));
        }
        pairs
    }
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

fn render(args: RenderArgs) -> anyhow::Result<()> {
    let cache = crate::render::DEFAULT_RENDER_CACHE_BYTES;
    let renderer = renderer(args.pieces_dir.as_deref(), cache, |p| {
        eprintln!("staunton: warning: {p}")
    });
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

/// `staunton sheet INPUT -o OUT`: a worksheet of the positions of INPUT.
fn sheet(args: SheetArgs) -> anyhow::Result<()> {
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
    let mut pairs = Vec::new();
    push_given(
        &mut pairs,
        [
            ("columns", &args.columns),
            ("rows", &args.rows),
            ("page", &args.page),
            ("title", &args.title),
            ("dpi", &args.dpi),
        ],
    );
    args.board.push_pairs(&mut pairs);
    for (flag, name) in [(args.solutions, "solutions"), (args.turn, "turn")] {
        if flag {
            pairs.push((name, "1".to_string()));
        }
    }
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
    let renderer = renderer(
        args.pieces_dir.as_deref(),
        crate::render::DEFAULT_RENDER_CACHE_BYTES,
        |p| eprintln!("staunton: warning: {p}"),
    );
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

/// `staunton compare EXPECTED ACTUAL`: one line on stdout saying how they compare; `Err`
/// of [`ImagesDiffer`] when they differ, other errors when they cannot be compared.
fn compare(args: CompareArgs) -> anyhow::Result<()> {
    use crate::snapshot::{self, Tolerance};
    let expected = snapshot::read_png(&args.expected)?;
    let actual = snapshot::read_png(&args.actual)?;
    let tolerance = Tolerance {
        channel: args.tolerance,
        pixels: args.max_pixels,
    };
    let both = format!("{} and {}", args.expected.display(), args.actual.display());
    let diff = match snapshot::compare(&expected, &actual, tolerance) {
        Ok(diff) => diff,
        Err(sizes) => {
            println!("{both} differ: {sizes}");
            return Err(ImagesDiffer.into());
        }
    };
    if diff.matches() {
        println!("{both} are equal: {diff}");
        return Ok(());
    }
    println!("{both} differ: {diff}");
    if let Some(path) = &args.diff {
        snapshot::write_png(path, &snapshot::diff_image(&expected, &actual, &diff)?)?;
        println!("wrote {}", path.display());
    }
    Err(ImagesDiffer.into())
}

/// `sheet.png` as page `n`: `sheet-2.png`.
fn numbered(path: &Path, n: usize) -> PathBuf {
    let stem = path.file_stem().and_then(|s| s.to_str()).unwrap_or("sheet");
    let extension = path.extension().and_then(|e| e.to_str()).unwrap_or("");
    path.with_file_name(format!("{stem}-{n}.{extension}"))
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
            bar.suspend(|| eprintln!("{}:{number}: {e}", input.display()));
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
    fn byte_sizes() {
        assert_eq!(parse_bytes("128MiB"), Ok(128 << 20));
        assert_eq!(parse_bytes("1GiB"), Ok(1 << 30));
        assert_eq!(parse_bytes("500MB"), Ok(500_000_000));
        assert_eq!(parse_bytes("4096"), Ok(4096));
        assert!(parse_bytes("lots").is_err());
        assert!(parse_bytes("12XB").is_err());
        assert!(parse_bytes("99999999999GiB").is_err());
    }

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
