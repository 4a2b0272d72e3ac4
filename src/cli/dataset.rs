//! `staunton dataset`: training data for board recognition, written to a folder (images,
//! `metadata.jsonl`, `coco.json`, YOLO's `labels/` and `data.yaml`), and `--view IMAGE`:
//! an image of such a folder with its labels drawn over it.
//!
//! Reads the flags and the files they name (positions, piece sets, backgrounds), each
//! checked before any image is written; the images, labels and the run are
//! `crate::dataset`'s.

use crate::dataset::run::{self, Formats, Run, Shard};
use crate::dataset::variety::PARTS;
use crate::dataset::{Dataset, DatasetError, Labels, Settings, Variety, overlay, sources};
use anyhow::{Context, anyhow, bail};
use clap::Args;
use serde_json::{Value, json};
use std::io::IsTerminal;
use std::path::{Path, PathBuf};
use std::sync::Arc;

#[derive(Debug, Args)]
#[command(after_long_help = parts_help())]
pub(super) struct DatasetArgs {
    /// The folder to write (made if missing; a folder holding a run of the same settings
    /// is resumed). With --view: the picture to write (default NAME-view.png here).
    #[arg(short, long, value_name = "DIR", required_unless_present = "view")]
    out: Option<PathBuf>,
    /// Images in the run (all shards together), 1 to 10000000 [default: 1000, or one
    /// per position of --positions]
    #[arg(long, value_name = "N")]
    count: Option<u64>,
    /// The seed: image i depends on it and on i alone.
    #[arg(long, default_value_t = 0)]
    seed: u64,
    /// Draw these positions (FEN or EPD lines, or PGN games: every position of each)
    /// instead of random legal play; image i draws position i modulo their number.
    #[arg(long, value_name = "FILE")]
    positions: Option<PathBuf>,
    /// Make only shard K of N (K from 0): the images whose index leaves K divided by N.
    /// The shards together are the whole run.
    #[arg(long, value_name = "K/N")]
    shard: Option<String>,
    /// Every kind of variety off (a baseline set): then --vary turns parts back on.
    #[arg(long)]
    plain: bool,
    /// Set one part of the variety (repeatable); the parts are listed below.
    #[arg(long = "vary", value_name = "PART=VALUE")]
    vary: Vec<String>,
    /// Label files beside the images: any of coco, yolo and imagefolder (metadata.jsonl,
    /// always written: it is the run's manifest).
    #[arg(long, value_delimiter = ',', default_value = "coco,yolo,imagefolder")]
    formats: Vec<String>,
    /// A folder whose subfolders are piece sets (see `serve --pieces-dir`): they join the
    /// built-in sets in the `pieces` part. A set that does not load is an error.
    #[arg(long, alias = "pieces", value_name = "DIR")]
    pieces_dir: Option<PathBuf>,
    /// A folder of PNG or JPEG pictures for the `pictures` background.
    #[arg(long, value_name = "DIR")]
    backgrounds: Option<PathBuf>,
    /// Threads making images [default: one per core]
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..=256))]
    jobs: Option<u32>,
    /// Draw the labels of IMAGE (a file in a dataset's images/) over it, as PNG.
    #[arg(long, value_name = "IMAGE", conflicts_with_all = ["count", "positions", "shard", "plain", "vary"])]
    view: Option<PathBuf>,
}

/// The parts of the variety, for `--help`.
fn parts_help() -> String {
    let mut text =
        String::from("Parts of the variety (--vary PART=VALUE; full value, then --plain's):\n");
    for p in PARTS {
        let full = if p.full.is_empty() { "all" } else { p.full };
        text.push_str(&format!(
            "  {:<19} {}\n  {:<19} [{} | plain: {}]\n",
            p.name, p.about, "", full, p.plain
        ));
    }
    text.push_str("\nA chance is 0 to 1; a range is LOW-HIGH or one number; a choice is NAME or NAME:WEIGHT,…");
    text
}

pub(super) fn dataset(args: DatasetArgs) -> anyhow::Result<()> {
    if let Some(image) = &args.view {
        return view(image, args.out.as_deref());
    }
    let out = args
        .out
        .clone()
        .ok_or_else(|| anyhow!("--out DIR is needed"))?;
    let mut variety = if args.plain {
        Variety::plain()
    } else {
        Variety::full()
    };
    for pair in &args.vary {
        let (name, value) = pair.split_once('=').ok_or_else(|| {
            anyhow!(
                "--vary {}: give PART=VALUE, e.g. arrows=0.5",
                crate::echo::Echo(pair)
            )
        })?;
        variety
            .set(name, value)
            .map_err(|e| anyhow!("--vary {e}"))?;
    }
    let formats = formats(&args.formats)?;
    let piece_sets = args
        .pieces_dir
        .as_deref()
        .map(sources::piece_sets)
        .transpose()
        .map_err(flag_error)?;
    let pictures = match &args.backgrounds {
        Some(dir) => sources::pictures(dir).map_err(flag_error)?,
        None => Vec::new(),
    };
    let given = args
        .positions
        .as_deref()
        .map(sources::positions)
        .transpose()
        .map_err(flag_error)?;
    let count = args
        .count
        .or(given.as_ref().map(|g| g.len() as u64))
        .unwrap_or(1000);
    let shard = match &args.shard {
        Some(text) => Shard::parse(text).map_err(|e| anyhow!(e))?,
        None => Shard::ALL,
    };
    let settings = json!({
        "version": env!("CARGO_PKG_VERSION"),
        "seed": args.seed,
        "count": count,
        "shard": format!("{}/{}", shard.index, shard.of),
        "variety": variety.describe().into_iter().map(|(k, v)| (k.to_string(), Value::from(v))).collect::<serde_json::Map<_, _>>(),
        "positions": given.as_ref().map(|g| json!({"file": args.positions.as_ref().map(|p| p.display().to_string()), "positions": g.len(), "hash": sources::positions_hash(g)})),
        "piece sets": piece_sets.as_ref().map(|s| s.names().collect::<Vec<_>>()),
        "backgrounds": pictures.iter().map(|p| p.name.clone()).collect::<Vec<_>>(),
        "formats": {"coco": formats.coco, "yolo": formats.yolo},
    });
    let dataset = Dataset::new(Settings {
        seed: args.seed,
        variety,
        positions: given.map(Arc::new),
        piece_sets,
        pictures,
    })
    .map_err(flag_error)?;
    let jobs = args.jobs.map_or_else(
        || std::thread::available_parallelism().map_or(1, |n| n.get()),
        |n| n as usize,
    );
    let run = Run {
        dir: out.clone(),
        count,
        shard,
        formats,
        jobs,
        settings,
    };
    write(&dataset, &run)
}

/// Make the run, with a progress bar on a terminal and a summary line.
fn write(dataset: &Dataset, run: &Run) -> anyhow::Result<()> {
    let bar = std::io::stderr().is_terminal().then(|| {
        let bar = indicatif::ProgressBar::new(0);
        bar.set_style(
            indicatif::ProgressStyle::with_template(
                "{bar:40} {pos}/{len} images, {per_sec}, {eta} left",
            )
            .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar()),
        );
        bar
    });
    let started = std::time::Instant::now();
    let mut progress = |done: u64, total: u64| {
        if let Some(bar) = &bar {
            bar.set_length(total);
            bar.set_position(done);
        }
    };
    let report = run::write(dataset, run, &mut progress);
    if let Some(bar) = &bar {
        bar.finish_and_clear();
    }
    let report = report?;
    let seconds = started.elapsed().as_secs_f64();
    eprintln!(
        "staunton: {} images in {} ({} made, {} kept from an earlier run; {:.0} images/s, {} bytes an image)",
        report.kept + report.made,
        run.dir.display(),
        report.made,
        report.kept,
        report.made as f64 / seconds.max(1e-9),
        report.bytes.checked_div(report.made).unwrap_or(0),
    );
    Ok(())
}

fn formats(names: &[String]) -> anyhow::Result<Formats> {
    let mut formats = Formats {
        coco: false,
        yolo: false,
    };
    for name in names {
        match name.trim().to_ascii_lowercase().as_str() {
            "coco" => formats.coco = true,
            "yolo" => formats.yolo = true,
            "imagefolder" | "metadata" => {}
            _ => bail!(
                "--formats {}: the label formats are coco, yolo and imagefolder",
                crate::echo::Echo(name)
            ),
        }
    }
    Ok(formats)
}

/// A dataset's error as the flags name it: `--pieces-dir DIR: …`, `--vary pieces=…`.
fn flag_error(e: DatasetError) -> anyhow::Error {
    match e {
        DatasetError::Input {
            param: "pieces",
            message,
        } => anyhow!("--vary pieces={message}"),
        DatasetError::Input { param, message } => {
            anyhow!("--{} {message}", param.replace('_', "-"))
        }
        DatasetError::Variety(e) => anyhow!("--vary {e}"),
        other => anyhow!(other),
    }
}

/// `--view IMAGE`: the image with its labels (its line of the dataset's `metadata.jsonl`).
fn view(image: &Path, out: Option<&Path>) -> anyhow::Result<()> {
    let folder = image
        .parent()
        .and_then(Path::parent)
        .unwrap_or(Path::new("."));
    let name = image
        .file_name()
        .map(|n| n.to_string_lossy().to_string())
        .unwrap_or_default();
    let manifest = folder.join("metadata.jsonl");
    let text = std::fs::read_to_string(&manifest).with_context(|| {
        format!(
            "--view {}: cannot read the dataset's {}",
            image.display(),
            manifest.display()
        )
    })?;
    let wanted = format!("images/{name}");
    let line = text
        .lines()
        .filter_map(|l| serde_json::from_str::<Value>(l).ok())
        .find(|v| v["file_name"] == wanted.as_str())
        .ok_or_else(|| {
            anyhow!(
                "--view {}: {} has no line for {wanted}",
                image.display(),
                manifest.display()
            )
        })?;
    let labels = Labels::from_json(&line)
        .map_err(|e| anyhow!("--view: the line of {wanted} is not labels: {e}"))?;
    let bytes = std::fs::read(image)
        .with_context(|| format!("--view {}: cannot read it", image.display()))?;
    let png =
        overlay::view(&bytes, &labels).map_err(|e| anyhow!("--view {}: {e}", image.display()))?;
    let stem = Path::new(&name)
        .file_stem()
        .map(|s| s.to_string_lossy().to_string())
        .unwrap_or_default();
    let target = out.map_or_else(
        || PathBuf::from(format!("{stem}-view.png")),
        Path::to_path_buf,
    );
    crate::safe_write::write(&target, &png)
        .with_context(|| format!("cannot write {}", target.display()))?;
    eprintln!("staunton: {}", target.display());
    Ok(())
}
