//! A dataset written to a folder: images made and written on every core, their labels
//! appended to the manifest (`metadata.jsonl`) in index order, each line after its image is
//! whole, so that a run stopped at any moment leaves whole images and a manifest of them
//! (and perhaps a few whole images beyond it, made again on resuming), and a second run
//! with the same settings carries on where it stopped. When every image is there, the COCO and YOLO files are written.
//!
//! Owns the folder's layout, the run's bounds ([`MAX_COUNT`], [`MAX_SHARDS`]), sharding,
//! resuming and its sentences. What an image is, is `sample`'s; the label files' texts are
//! `formats`'.

use super::formats;
use super::labels::Labels;
use super::sample::{Dataset, DatasetError};
use crate::safe_write;
use serde_json::{Value, json};
use std::collections::BTreeMap;
use std::fs;
use std::io::{self, BufRead, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::mpsc;

/// Most images a run may make.
pub const MAX_COUNT: u64 = 10_000_000;

/// Most shards a run may be split into.
pub const MAX_SHARDS: u64 = 100_000;

/// Which of a run's images this process makes: those whose index leaves `index` when
/// divided by `of`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Shard {
    /// This shard's number, from 0.
    pub index: u64,
    /// How many shards there are.
    pub of: u64,
}

impl Shard {
    /// The whole run.
    pub const ALL: Shard = Shard { index: 0, of: 1 };

    /// `K/N`, read and checked (`K` from 0 to `N - 1`).
    pub fn parse(text: &str) -> Result<Shard, String> {
        let bad = || {
            format!(
                "--shard {}: give K/N, shard K (from 0) of N (at most {MAX_SHARDS}), e.g. 0/4 to 3/4",
                crate::echo::Echo(text)
            )
        };
        let (k, n) = text.split_once('/').ok_or_else(bad)?;
        let (k, n): (u64, u64) = (
            k.trim().parse().map_err(|_| bad())?,
            n.trim().parse().map_err(|_| bad())?,
        );
        if n == 0 || n > MAX_SHARDS {
            return Err(bad());
        }
        if k >= n {
            return Err(format!(
                "--shard {k}/{n}: shards are numbered from 0 to {}",
                n - 1
            ));
        }
        Ok(Shard { index: k, of: n })
    }

    fn indices(self, count: u64) -> impl Iterator<Item = u64> {
        (self.index..count).step_by(self.of as usize)
    }
}

/// Which label files a run writes beside the images and `metadata.jsonl` (which is always
/// written: it is the run's manifest).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Formats {
    /// `coco.json`.
    pub coco: bool,
    /// `labels/` and `data.yaml`.
    pub yolo: bool,
}

/// How a run goes.
#[derive(Debug, Clone)]
pub struct Run {
    /// The folder.
    pub dir: PathBuf,
    /// Images in the whole run (all shards).
    pub count: u64,
    /// This process's part.
    pub shard: Shard,
    /// Label files.
    pub formats: Formats,
    /// Threads making images.
    pub jobs: usize,
    /// What makes the images (seed, variety, sources, version), recorded in
    /// `dataset.json`: a folder made with other settings is not resumed.
    pub settings: Value,
}

/// What a run did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Report {
    /// Images found whole from an earlier run.
    pub kept: u64,
    /// Images made now.
    pub made: u64,
    /// Bytes of the images made now.
    pub bytes: u64,
}

/// Why a run stopped.
#[derive(Debug, thiserror::Error)]
pub enum RunError {
    /// A setting is out of bounds, or the folder holds another run.
    #[error("{0}")]
    Refused(String),
    /// An image could not be made.
    #[error(transparent)]
    Dataset(#[from] DatasetError),
    /// A file could not be read or written.
    #[error("{path}: {error}")]
    Io {
        /// The file.
        path: PathBuf,
        /// What happened.
        error: io::Error,
    },
}

fn io_at(path: &Path) -> impl FnOnce(io::Error) -> RunError + '_ {
    move |error| RunError::Io {
        path: path.to_path_buf(),
        error,
    }
}

/// Make `run`'s images of `dataset` in its folder, calling `progress(done, total)` as
/// they are written.
pub fn write(
    dataset: &Dataset,
    run: &Run,
    progress: &mut dyn FnMut(u64, u64),
) -> Result<Report, RunError> {
    if run.count == 0 || run.count > MAX_COUNT {
        return Err(RunError::Refused(format!(
            "--count {}: a run makes from 1 to {MAX_COUNT} images",
            run.count
        )));
    }
    let dir = &run.dir;
    for sub in ["images", "labels"]
        .iter()
        .filter(|s| **s == "images" || run.formats.yolo)
    {
        fs::create_dir_all(dir.join(sub)).map_err(io_at(&dir.join(sub)))?;
    }
    claim(dir, &run.settings)?;
    let all: Vec<u64> = run.shard.indices(run.count).collect();
    let kept = resume(dir, &all)?;
    let total = all.len() as u64;
    progress(kept, total);
    let todo = &all[kept as usize..];
    let (made, bytes) = make(dataset, run, todo, &mut |n| progress(kept + n, total))?;
    finish(run)?;
    Ok(Report { kept, made, bytes })
}

/// Record the run's settings in `dataset.json`, or refuse a folder that holds another run.
fn claim(dir: &Path, settings: &Value) -> Result<(), RunError> {
    let path = dir.join("dataset.json");
    match fs::read(&path) {
        Ok(bytes) => {
            let held: Value = serde_json::from_slice(&bytes).unwrap_or(Value::Null);
            let held = &held["settings"];
            if held != settings {
                let differs = settings
                    .as_object()
                    .into_iter()
                    .flatten()
                    .find(|(k, v)| held.get(k.as_str()) != Some(*v))
                    .map_or("settings".to_string(), |(k, v)| {
                        format!(
                            "{k} {v}, not {}",
                            held.get(k.as_str()).unwrap_or(&Value::Null)
                        )
                    });
                return Err(RunError::Refused(format!(
                    "{} holds a dataset made with other settings ({differs}); give another folder, or delete this one to start again",
                    dir.display()
                )));
            }
            Ok(())
        }
        Err(e) if e.kind() == io::ErrorKind::NotFound => {
            let record = json!({"made by": format!("staunton dataset {}", env!("CARGO_PKG_VERSION")), "settings": settings});
            let text = serde_json::to_string_pretty(&record).unwrap_or_default() + "\n";
            safe_write::write(&path, text.as_bytes()).map_err(io_at(&path))
        }
        Err(e) => Err(io_at(&path)(e)),
    }
}

/// How many of `all` an earlier run finished: the whole lines of `metadata.jsonl` that
/// name them in order, each with its image. The rest of the file (a line cut short) is
/// dropped, and temporaries left in `images/` and `labels/` are removed.
fn resume(dir: &Path, all: &[u64]) -> Result<u64, RunError> {
    let path = dir.join("metadata.jsonl");
    let text = match fs::read_to_string(&path) {
        Ok(text) => text,
        Err(e) if e.kind() == io::ErrorKind::NotFound => String::new(),
        Err(e) => return Err(io_at(&path)(e)),
    };
    let mut kept = 0usize;
    let mut end = 0usize;
    for line in text.split_inclusive('\n') {
        let whole = line.ends_with('\n')
            && serde_json::from_str::<Value>(line).is_ok_and(|v| {
                v["index"].as_u64() == all.get(kept).copied()
                    && v["file_name"]
                        .as_str()
                        .is_some_and(|f| dir.join(f).is_file())
            });
        if !whole {
            break;
        }
        kept += 1;
        end += line.len();
    }
    if end < text.len() {
        safe_write::write(&path, &text.as_bytes()[..end]).map_err(io_at(&path))?;
    }
    // Temporaries a stopped run left, in both folders it writes (images and YOLO files).
    for folder in [dir.join("images"), dir.join("labels")] {
        let Ok(entries) = fs::read_dir(&folder) else {
            continue;
        };
        for entry in entries.flatten() {
            let name = entry.file_name();
            let name = name.to_string_lossy();
            if name.starts_with('.') && name.ends_with(".tmp") {
                let _ = fs::remove_file(entry.path());
            }
        }
    }
    Ok(kept as u64)
}

/// Make the images `todo` on `run.jobs` threads, each writing its images and YOLO files;
/// this thread appends their manifest lines in index order, each after its image is whole.
fn make(
    dataset: &Dataset,
    run: &Run,
    todo: &[u64],
    progress: &mut dyn FnMut(u64),
) -> Result<(u64, u64), RunError> {
    let next = AtomicU64::new(0);
    let stop = AtomicBool::new(false);
    let (send, receive) = mpsc::sync_channel(run.jobs * 4);
    let manifest_path = run.dir.join("metadata.jsonl");
    let mut manifest = fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(&manifest_path)
        .map_err(io_at(&manifest_path))?;
    std::thread::scope(|scope| {
        for _ in 0..run.jobs.max(1) {
            let send = send.clone();
            let (next, stop) = (&next, &stop);
            scope.spawn(move || {
                while !stop.load(Ordering::Relaxed) {
                    let k = next.fetch_add(1, Ordering::Relaxed) as usize;
                    let Some(&index) = todo.get(k) else { break };
                    if send.send((k, put(dataset, run, index))).is_err() {
                        break;
                    }
                }
            });
        }
        drop(send);
        let mut pending = BTreeMap::new();
        let (mut written, mut bytes) = (0u64, 0u64);
        let result = (|| {
            for (k, made) in receive.iter() {
                pending.insert(k, made?);
                while let Some((line, size)) = pending.remove(&(written as usize)) {
                    manifest
                        .write_all(line.as_bytes())
                        .map_err(io_at(&manifest_path))?;
                    bytes += size;
                    written += 1;
                    progress(written);
                }
            }
            Ok((written, bytes))
        })();
        stop.store(true, Ordering::Relaxed);
        // Let the workers finish the image in hand and see the stop.
        for _ in receive.iter() {}
        result
    })
}

/// Make image `index`, write it and its YOLO file: its manifest line (and the image's
/// size), for the writer to append.
fn put(dataset: &Dataset, run: &Run, index: u64) -> Result<(String, u64), RunError> {
    let sample = dataset.sample(index)?;
    let labels = &sample.labels;
    let image = run.dir.join(&labels.file_name);
    safe_write::write(&image, &sample.image).map_err(io_at(&image))?;
    if run.formats.yolo {
        let path = run
            .dir
            .join("labels")
            .join(format!("{:08}.txt", labels.index));
        safe_write::write(&path, formats::yolo(labels).as_bytes()).map_err(io_at(&path))?;
    }
    let mut line = serde_json::to_string(&labels.to_json()).unwrap_or_default();
    line.push('\n');
    Ok((line, sample.image.len() as u64))
}

/// Every image is there: write `coco.json` and `data.yaml`, reading the manifest.
fn finish(run: &Run) -> Result<(), RunError> {
    let manifest = run.dir.join("metadata.jsonl");
    if run.formats.coco {
        let path = run.dir.join("coco.json");
        safe_write::write_with(&path, |out| write_coco(&manifest, out)).map_err(io_at(&path))?;
    }
    if run.formats.yolo {
        let path = run.dir.join("data.yaml");
        let absolute = fs::canonicalize(&run.dir).unwrap_or_else(|_| run.dir.clone());
        let yaml = formats::data_yaml(&absolute.to_string_lossy());
        safe_write::write(&path, yaml.as_bytes()).map_err(io_at(&path))?;
    }
    Ok(())
}

/// `coco.json` streamed from the manifest, each line read once: the images go out as they
/// are read, the annotations to a temporary file beside it, copied after them. A large run
/// is never held in memory.
fn write_coco(manifest: &Path, out: &mut dyn Write) -> io::Result<()> {
    let spill_path = manifest.with_file_name(".coco-annotations.tmp");
    let mut spill = io::BufWriter::new(fs::File::create(&spill_path)?);
    let skeleton = formats::coco(Vec::new(), Vec::new(), "staunton dataset");
    write!(
        out,
        "{{\"info\":{},\"licenses\":[],\"categories\":{},\"images\":[",
        skeleton["info"], skeleton["categories"]
    )?;
    let reader = io::BufReader::new(fs::File::open(manifest)?);
    let mut first = true;
    for (i, line) in reader.lines().enumerate() {
        let value: Value = serde_json::from_str(&line?).map_err(io::Error::other)?;
        let labels = Labels::from_json(&value).map_err(io::Error::other)?;
        let (image, annotations) = formats::coco_entries(&labels);
        write!(out, "{}{image}", if i == 0 { "" } else { "," })?;
        for a in annotations {
            write!(spill, "{}{a}", if first { "" } else { "," })?;
            first = false;
        }
    }
    drop(spill.into_inner().map_err(|e| e.into_error())?);
    write!(out, "],\"annotations\":[")?;
    io::copy(&mut fs::File::open(&spill_path)?, out)?;
    let _ = fs::remove_file(&spill_path);
    writeln!(out, "]}}")
}
