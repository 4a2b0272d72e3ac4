//! `staunton markdown` (a document's diagram fences rewritten into images) and `staunton
//! fence` (one fence's image, for filters such as pandoc's that see one block at a time).

use crate::markdown::{self, Mode, Settings, fence};
use crate::render::Renderer;
use crate::render::options::Format;
use anyhow::{Context, anyhow, bail};
use clap::Args;
use std::io::{Read, Write};
use std::path::{Path, PathBuf};

/// The formats a fence's image is written in: every format but text.
fn image_formats() -> Vec<Format> {
    Format::ALL
        .into_iter()
        .filter(|&f| f != Format::Txt)
        .collect()
}

/// `--format`'s help, its names from the format table.
fn format_help() -> String {
    let words = Format::words(&image_formats());
    format!("Images only: their format, {words} (svg the default)")
}

/// How fences become images: the options `markdown` and `fence` share.
#[derive(Debug, Args)]
pub(super) struct FenceOptions {
    // The images' format (help: `format_help`).
    #[arg(long, help = format_help())]
    format: Option<String>,
    /// An option given to every fence before its own, e.g. --set size=300 (repeatable;
    /// any fence option).
    #[arg(long = "set", value_name = "KEY=VALUE")]
    set: Vec<String>,
    /// The language of the alt text (and of an SVG's title) unless a fence says lang:
    /// en (the default), de, it, fr, es, nl or ja.
    #[arg(long)]
    lang: Option<String>,
    /// A folder whose subfolders are piece sets (see `serve --pieces-dir`).
    #[arg(long, env = "STAUNTON_PIECES_DIR")]
    pieces_dir: Option<PathBuf>,
}

#[derive(Debug, Args)]
pub(super) struct MarkdownArgs {
    /// The Markdown document (default: standard input).
    input: Option<PathBuf>,
    /// Where to write the document (default: standard output).
    #[arg(short, long)]
    output: Option<PathBuf>,
    /// Write each diagram as a file in DIR, named by a hash of its request, and link it
    /// as ![alt](DIR/name).
    #[arg(long, value_name = "DIR", conflicts_with_all = ["inline", "url"])]
    images: Option<PathBuf>,
    /// With --images: what the links start with instead of DIR (e.g. the folder as the
    /// published page sees it).
    #[arg(long, requires = "images")]
    link: Option<String>,
    /// Put each diagram's SVG in the document (the default).
    #[arg(long, conflicts_with = "url")]
    inline: bool,
    /// Link each diagram from a running service: <img src="BASE/diagram.svg?…">.
    #[arg(long, value_name = "BASE")]
    url: Option<String>,
    /// Put an error card in a bad fence's place, warn, and go on (exit status 0).
    #[arg(long)]
    keep_going: bool,
    #[command(flatten)]
    fences: FenceOptions,
}

#[derive(Debug, Args)]
pub(super) struct FenceArgs {
    /// The fence's info string, e.g. "fen size=300" (its first word fen, chess,
    /// chessboard or pgn). The body is read from standard input.
    #[arg(long)]
    info: String,
    /// The folder the image is written to (created when missing).
    #[arg(long, value_name = "DIR", default_value = ".")]
    images: PathBuf,
    /// Refuse an --images folder that is not inside DIR once links are resolved, or
    /// that climbs with `..` (for filters that take the folder from a document, as
    /// pandoc's does with `staunton-images`); no folder is made outside DIR.
    #[arg(long, value_name = "DIR")]
    images_within: Option<PathBuf>,
    #[command(flatten)]
    fences: FenceOptions,
}

impl FenceOptions {
    /// The images' format: one of the image formats (not text).
    fn format(&self) -> anyhow::Result<Format> {
        let Some(value) = &self.format else {
            return Ok(Format::Svg);
        };
        match Format::from_extension(value) {
            Some(f) if f != Format::Txt => Ok(f),
            _ => bail!(
                "--format {value:?} is not allowed: expected {}",
                Format::words(&image_formats())
            ),
        }
    }

    /// The `--set` pairs.
    fn defaults(&self) -> anyhow::Result<Vec<(String, String)>> {
        self.set
            .iter()
            .map(|pair| match pair.split_once('=') {
                Some((k, v)) if !k.trim().is_empty() => Ok((k.trim().to_string(), v.to_string())),
                _ => Err(anyhow!(
                    "--set {pair:?} is not allowed: expected KEY=VALUE, e.g. size=300"
                )),
            })
            .collect()
    }

    fn renderer(&self) -> Renderer {
        super::shared::command_renderer(self.pieces_dir.as_deref())
    }
}

/// `staunton markdown`.
pub(super) fn markdown(args: MarkdownArgs) -> anyhow::Result<()> {
    let mode = match (&args.images, &args.url) {
        (Some(dir), _) => Mode::Images {
            dir: dir.clone(),
            link: args
                .link
                .clone()
                .unwrap_or_else(|| dir.to_string_lossy().into_owned()),
            format: args.fences.format()?,
        },
        (None, Some(base)) => Mode::Url { base: base.clone() },
        (None, None) => Mode::Inline,
    };
    if args.images.is_none() && args.fences.format.is_some() {
        bail!("--format chooses the files of --images: the other modes make SVG");
    }
    let settings = Settings {
        mode,
        defaults: args.fences.defaults()?,
        lang: args.fences.lang.clone(),
        keep_going: args.keep_going,
    };
    settings
        .check()
        .map_err(|e| anyhow!("the options given to every fence (--set, --lang): {e}"))?;
    let name = args
        .input
        .as_deref()
        .map_or("<stdin>".into(), |p| p.display().to_string());
    let document = read_document(args.input.as_deref(), &name)?;
    let renderer = args.fences.renderer();
    let report = match &args.output {
        Some(path) => write_output(path, &document, &settings, &renderer),
        None => {
            let stdout = std::io::stdout();
            let mut out = std::io::BufWriter::new(stdout.lock());
            let report = markdown::rewrite(&document, &settings, &renderer, &mut out);
            out.flush()?;
            report.map_err(anyhow::Error::from)
        }
    };
    let report = report.map_err(|e| match e.downcast_ref::<markdown::MarkdownError>() {
        Some(markdown::MarkdownError::Fence { line, sentence }) => {
            anyhow!("{name}:{line}: {sentence}")
        }
        _ => e,
    })?;
    for warning in &report.warnings {
        let warning = warning.strip_prefix("line ").unwrap_or(warning);
        eprintln!("staunton: warning: {name}:{warning}");
    }
    Ok(())
}

/// The rewritten document written to `path` safely ([`crate::safe_write`]); when that
/// fails after the rewrite, the images it created are removed too.
fn write_output(
    path: &Path,
    document: &str,
    settings: &Settings,
    renderer: &Renderer,
) -> anyhow::Result<markdown::Report> {
    let mut rewritten: Option<markdown::Report> = None;
    let written = crate::safe_write::write_with(path, |out| {
        let report = markdown::rewrite(document, settings, renderer, out)?;
        rewritten = Some(report.clone());
        Ok::<_, anyhow::Error>(report)
    });
    written.map_err(|e| {
        if let Some(report) = rewritten {
            report.remove_created();
        }
        match e.downcast::<std::io::Error>() {
            Ok(io) => anyhow!("cannot write {}: {io}", path.display()),
            Err(e) => e,
        }
    })
}

/// The document at `path` (standard input when none), which must be UTF-8.
fn read_document(path: Option<&Path>, name: &str) -> anyhow::Result<String> {
    let mut bytes = Vec::new();
    match path {
        Some(p) => bytes = std::fs::read(p).with_context(|| format!("cannot read {name}"))?,
        None => {
            std::io::stdin().read_to_end(&mut bytes)?;
        }
    }
    String::from_utf8(bytes).map_err(|e| {
        anyhow!(
            "{name} is not UTF-8 text (byte {} is not): Markdown is read as UTF-8",
            e.utf8_error().valid_up_to()
        )
    })
}

/// Make the folder `images` (what is missing of it) only inside `root`: a `..`, or a
/// folder or link that leads outside `root`, is refused before anything is made there.
fn folder_within(images: &Path, root: &Path) -> anyhow::Result<()> {
    use std::path::Component;
    let outside = || {
        anyhow!(
            "--images {} is not inside {} (--images-within): name a folder under it, without `..` and without links that lead out",
            images.display(),
            root.display()
        )
    };
    if images.components().any(|c| c == Component::ParentDir) {
        return Err(outside());
    }
    std::fs::create_dir_all(root).with_context(|| format!("cannot make {}", root.display()))?;
    let root_real =
        std::fs::canonicalize(root).with_context(|| format!("cannot find {}", root.display()))?;
    let mut here = match images.is_absolute() {
        true => PathBuf::from("/"),
        false => std::env::current_dir().context("cannot tell the current folder")?,
    };
    for component in images.components() {
        let name = match component {
            Component::Normal(name) => name,
            _ => continue,
        };
        let next = here.join(name);
        match std::fs::symlink_metadata(&next) {
            Ok(_) => {
                here = std::fs::canonicalize(&next)
                    .with_context(|| format!("cannot find {}", next.display()))?;
            }
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                if !here.starts_with(&root_real) {
                    return Err(outside());
                }
                std::fs::create_dir(&next)
                    .with_context(|| format!("cannot make {}", next.display()))?;
                here = next;
            }
            Err(e) => return Err(e).with_context(|| format!("cannot find {}", next.display())),
        }
    }
    if !here.starts_with(&root_real) {
        return Err(outside());
    }
    if !here.is_dir() {
        bail!("--images {} is not a folder", images.display());
    }
    Ok(())
}

/// `staunton fence`: one fence's image written, its path, alt text and caption printed.
pub(super) fn fence(args: FenceArgs) -> anyhow::Result<()> {
    let mut body = String::new();
    std::io::stdin()
        .read_to_string(&mut body)
        .context("the fence's body on standard input is not UTF-8 text")?;
    let mut defaults: Vec<(String, String)> = Vec::new();
    if let Some(lang) = &args.fences.lang {
        defaults.push(("lang".into(), lang.clone()));
    }
    defaults.extend(args.fences.defaults()?);
    let format = args.fences.format()?;
    let diagram = fence::read(&args.info, &body, &defaults, format).map_err(|e| anyhow!("{e}"))?;
    let renderer = args.fences.renderer();
    let r = &diagram.request;
    let bytes = renderer.render(&r.position, &r.options, r.format)?;
    match &args.images_within {
        Some(root) => folder_within(&args.images, root)?,
        None => std::fs::create_dir_all(&args.images)
            .with_context(|| format!("cannot make {}", args.images.display()))?,
    }
    let path = args.images.join(diagram.file_name());
    crate::safe_write::write_if_changed(&path, &bytes)
        .with_context(|| format!("cannot write {}", path.display()))?;
    let caption = diagram.caption.as_deref().unwrap_or("");
    // A fourth line, after the three older filters read: the image's width and height in
    // pixels (points for PDF), for `<img width height>`.
    let scene = renderer.layout(&r.position, &r.options);
    println!(
        "{}\n{}\n{caption}\n{} {}",
        path.display(),
        diagram.alt,
        scene.width,
        scene.height
    );
    Ok(())
}
