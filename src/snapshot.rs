//! Snapshot tests of diagrams: a diagram kept as `tests/snapshots/NAME.png` and compared
//! by its decoded pixels, within a tolerance, never by its bytes.
//!
//! Owns the comparison of two RGBA images ([`compare`] → [`Diff`], [`diff_image`]), which
//! `staunton compare` shares, and the snapshot files: reading and writing them, the
//! `NAME.actual.png` and `NAME.diff.png` written on a mismatch, and
//! [`UPDATE_VARIABLE`] (`STAUNTON_UPDATE_SNAPSHOTS=1`), which writes new snapshots. Rendering
//! is [`Renderer::rgba`] and [`Renderer::png`]; this module only calls them.
//!
//! ```no_run
//! // In a test of your crate: keeps tests/snapshots/start.png beside its Cargo.toml.
//! staunton::assert_diagram!("start", "start", &staunton::RenderOptions::default());
//! ```
//!
//! [`Snapshots`] sets the folder and the tolerance; [`Snapshots::check`] is the same test
//! returning a [`SnapshotError`] instead of panicking.

use crate::chess::fen::FenError;
use crate::chess::position::Position;
use crate::echo::Echo;
use crate::render::options::RenderOptions;
use crate::render::{RenderError, Renderer, RgbaImage};
use std::fmt;
use std::io::Write as _;
use std::path::{Path, PathBuf};
use thiserror::Error;

/// The environment variable that writes snapshots: `STAUNTON_UPDATE_SNAPSHOTS=1 cargo test`
/// writes every snapshot that is missing or differs (and says so on stderr); `0` or unset
/// compares only.
pub const UPDATE_VARIABLE: &str = "STAUNTON_UPDATE_SNAPSHOTS";

/// Longest snapshot name, in bytes.
pub const MAX_NAME_BYTES: usize = 200;

/// How far two images may differ and still count as equal.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Tolerance {
    /// Largest difference of any channel (red, green, blue, alpha; 0–255) of a pixel that
    /// still counts as the same pixel.
    pub channel: u8,
    /// Pixels allowed to differ by more than `channel`.
    pub pixels: u64,
}

impl Default for Tolerance {
    /// 3 per channel (a palette PNG's own rounding), no pixel over it.
    fn default() -> Self {
        Tolerance {
            channel: 3,
            pixels: 0,
        }
    }
}

/// A rectangle of pixels.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Rect {
    /// Left column.
    pub x: u32,
    /// Top row.
    pub y: u32,
    /// Columns.
    pub width: u32,
    /// Rows.
    pub height: u32,
}

impl Rect {
    /// Whether pixel (`x`, `y`) lies inside.
    pub fn contains(&self, x: u32, y: u32) -> bool {
        x >= self.x && y >= self.y && x - self.x < self.width && y - self.y < self.height
    }
}

impl fmt::Display for Rect {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}×{} at x={}, y={}",
            self.width, self.height, self.x, self.y
        )
    }
}

/// How two images of one size differ.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Diff {
    /// The tolerance they were compared with.
    pub tolerance: Tolerance,
    /// Pixels with some channel differing by more than `tolerance.channel`.
    pub differing: u64,
    /// The largest difference of any channel of any pixel.
    pub largest: u8,
    /// The smallest rectangle holding every differing pixel (`None` when none differs).
    pub bounds: Option<Rect>,
}

impl Diff {
    /// Whether the images count as equal: at most `tolerance.pixels` pixels differ.
    pub fn matches(&self) -> bool {
        self.differing <= self.tolerance.pixels
    }
}

impl fmt::Display for Diff {
    /// `2304 pixels differ by more than 3 (0 allowed; largest difference 118) in the box
    /// 48×48 at x=192, y=288`, or `no pixel differs by more than 3 (largest difference 1)`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let t = self.tolerance.channel;
        match (self.differing, self.bounds) {
            (0, _) | (_, None) => write!(
                f,
                "no pixel differs by more than {t} (largest difference {})",
                self.largest
            ),
            (n, Some(bounds)) => write!(
                f,
                "{n} {} by more than {t} ({} allowed; largest difference {}) in the box {bounds}",
                if n == 1 {
                    "pixel differs"
                } else {
                    "pixels differ"
                },
                self.tolerance.pixels,
                self.largest,
            ),
        }
    }
}

/// Two images that cannot be compared pixel by pixel: their sizes differ.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Error)]
#[error(
    "the sizes differ: expected {}×{}, actual {}×{}",
    .expected.0, .expected.1, .actual.0, .actual.1
)]
pub struct SizeDiffers {
    /// Width and height of the expected image.
    pub expected: (u32, u32),
    /// Width and height of the actual image.
    pub actual: (u32, u32),
}

fn same_size(expected: &RgbaImage, actual: &RgbaImage) -> Result<(), SizeDiffers> {
    let sizes = (
        (expected.width, expected.height),
        (actual.width, actual.height),
    );
    let whole =
        |i: &RgbaImage| i.pixels.len() as u64 == u64::from(i.width) * u64::from(i.height) * 4;
    if sizes.0 != sizes.1 || !whole(expected) || !whole(actual) {
        return Err(SizeDiffers {
            expected: sizes.0,
            actual: sizes.1,
        });
    }
    Ok(())
}

/// The largest difference of any channel between two RGBA pixels.
fn distance(a: &[u8], b: &[u8]) -> u8 {
    a.iter()
        .zip(b)
        .map(|(a, b)| a.abs_diff(*b))
        .max()
        .unwrap_or(0)
}

/// Compare `actual` with `expected` pixel by pixel: how many pixels differ by more than
/// `tolerance.channel` on some channel, the largest difference, and where they lie.
/// Images of different sizes (or whose `pixels` do not hold `width × height` pixels) are
/// [`SizeDiffers`].
pub fn compare(
    expected: &RgbaImage,
    actual: &RgbaImage,
    tolerance: Tolerance,
) -> Result<Diff, SizeDiffers> {
    same_size(expected, actual)?;
    let width = expected.width.max(1) as usize;
    let (mut differing, mut largest) = (0u64, 0u8);
    // Left, top, right, bottom (inclusive) of the differing pixels.
    let mut edges: Option<(u32, u32, u32, u32)> = None;
    let pairs = expected
        .pixels
        .chunks_exact(4)
        .zip(actual.pixels.chunks_exact(4));
    for (i, (e, a)) in pairs.enumerate() {
        let d = distance(e, a);
        largest = largest.max(d);
        if d > tolerance.channel {
            differing += 1;
            let (x, y) = ((i % width) as u32, (i / width) as u32);
            edges = Some(match edges {
                None => (x, y, x, y),
                Some((l, t, r, b)) => (l.min(x), t.min(y), r.max(x), b.max(y)),
            });
        }
    }
    Ok(Diff {
        tolerance,
        differing,
        largest,
        bounds: edges.map(|(l, t, r, b)| Rect {
            x: l,
            y: t,
            width: r - l + 1,
            height: b - t + 1,
        }),
    })
}

/// Red: a pixel that differs by more than the tolerance, in a diff image.
pub const DIFF_RED: [u8; 4] = [255, 0, 0, 255];
/// Blue: the box around the differing pixels, two pixels outside them, in a diff image.
pub const DIFF_BOX: [u8; 4] = [0, 102, 255, 255];

/// A picture of where `actual` differs from `expected`: `expected` greyed and faded (over
/// white), every pixel that differs by more than `diff`'s tolerance in [`DIFF_RED`], and the
/// box around them in [`DIFF_BOX`]. Greys are never red or blue, so a pixel of either
/// colour means what it says.
pub fn diff_image(
    expected: &RgbaImage,
    actual: &RgbaImage,
    diff: &Diff,
) -> Result<RgbaImage, SizeDiffers> {
    same_size(expected, actual)?;
    let mut pixels = Vec::with_capacity(expected.pixels.len());
    let pairs = expected
        .pixels
        .chunks_exact(4)
        .zip(actual.pixels.chunks_exact(4));
    for (e, a) in pairs {
        if distance(e, a) > diff.tolerance.channel {
            pixels.extend_from_slice(&DIFF_RED);
            continue;
        }
        let luma = (77 * u32::from(e[0]) + 150 * u32::from(e[1]) + 29 * u32::from(e[2])) >> 8;
        let alpha = u32::from(e[3]);
        let over_white = (luma * alpha + 255 * (255 - alpha)) / 255;
        let grey = (255 - (255 - over_white) / 2) as u8;
        pixels.extend_from_slice(&[grey, grey, grey, 255]);
    }
    let mut image = RgbaImage {
        width: expected.width,
        height: expected.height,
        pixels,
    };
    if let Some(bounds) = diff.bounds {
        outline(&mut image, bounds);
    }
    Ok(image)
}

/// Draw a one-pixel frame two pixels outside `inner` (clipped to the image), leaving red
/// pixels red.
fn outline(image: &mut RgbaImage, inner: Rect) {
    let (w, h) = (i64::from(image.width), i64::from(image.height));
    let (l, t) = (i64::from(inner.x) - 2, i64::from(inner.y) - 2);
    let (r, b) = (
        i64::from(inner.x) + i64::from(inner.width) + 1,
        i64::from(inner.y) + i64::from(inner.height) + 1,
    );
    let mut paint = |x: i64, y: i64| {
        if (0..w).contains(&x) && (0..h).contains(&y) {
            let at = ((y * w + x) * 4) as usize;
            let px = &mut image.pixels[at..at + 4];
            if px != DIFF_RED {
                px.copy_from_slice(&DIFF_BOX);
            }
        }
    };
    for x in l..=r {
        paint(x, t);
        paint(x, b);
    }
    for y in t..=b {
        paint(l, y);
        paint(r, y);
    }
}

/// Why PNG bytes could not be decoded, or pixels encoded: the codec's message.
#[derive(Debug, Error)]
#[error(transparent)]
pub struct PngError(image::ImageError);

/// PNG `bytes` as RGBA pixels (any colour type and depth, converted to 8-bit RGBA).
pub fn decode_png(bytes: &[u8]) -> Result<RgbaImage, PngError> {
    let decoded = image::load_from_memory_with_format(bytes, image::ImageFormat::Png)
        .map_err(PngError)?
        .to_rgba8();
    Ok(RgbaImage {
        width: decoded.width(),
        height: decoded.height(),
        pixels: decoded.into_raw(),
    })
}

/// `image` as an 8-bit RGBA PNG, lossless.
pub fn encode_png(image: &RgbaImage) -> Result<Vec<u8>, PngError> {
    use image::ImageEncoder as _;
    let mut out = Vec::new();
    image::codecs::png::PngEncoder::new(&mut out)
        .write_image(
            &image.pixels,
            image.width,
            image.height,
            image::ExtendedColorType::Rgba8,
        )
        .map_err(PngError)?;
    Ok(out)
}

/// The PNG file at `path`, decoded.
pub fn read_png(path: &Path) -> Result<RgbaImage, SnapshotError> {
    let bytes = std::fs::read(path).map_err(|error| SnapshotError::Read {
        path: path.to_path_buf(),
        error,
    })?;
    decode_png(&bytes).map_err(|error| SnapshotError::NotPng {
        path: path.to_path_buf(),
        error,
    })
}

/// Write `image` to `path` as PNG.
pub fn write_png(path: &Path, image: &RgbaImage) -> Result<(), SnapshotError> {
    let bytes = encode_png(image).map_err(|error| SnapshotError::Encode {
        path: path.to_path_buf(),
        error,
    })?;
    write(path, &bytes)
}

fn write(path: &Path, bytes: &[u8]) -> Result<(), SnapshotError> {
    crate::safe_write::write(path, bytes).map_err(|error| SnapshotError::Write {
        path: path.to_path_buf(),
        error,
    })
}

/// What a snapshot can show: a FEN (also `start`, `empty`) as `&str` or `String`, or a
/// parsed [`Position`].
pub trait Diagram {
    /// The position to draw.
    fn position(&self) -> Result<Position, FenError>;
}

impl Diagram for str {
    fn position(&self) -> Result<Position, FenError> {
        crate::chess::fen::parse(self)
    }
}

impl Diagram for String {
    fn position(&self) -> Result<Position, FenError> {
        crate::chess::fen::parse(self)
    }
}

impl Diagram for Position {
    fn position(&self) -> Result<Position, FenError> {
        Ok(self.clone())
    }
}

impl<T: Diagram + ?Sized> Diagram for &T {
    fn position(&self) -> Result<Position, FenError> {
        (**self).position()
    }
}

/// Why a snapshot test failed, or could not run. Every message names the file or the input
/// at fault and what to do.
#[derive(Debug, Error)]
pub enum SnapshotError {
    /// The name would not be one file in the snapshot folder.
    #[error("snapshot name {} is not allowed: {reason}", Echo(.name))]
    BadName {
        /// The name as given.
        name: String,
        /// What is wrong with it.
        reason: String,
    },
    /// [`UPDATE_VARIABLE`] holds something other than 1 or 0.
    #[error("{UPDATE_VARIABLE}={} is not allowed: expected 1 (write snapshots) or 0 (compare)", Echo(.value))]
    UpdateVariable {
        /// The value found.
        value: String,
    },
    /// No snapshot file, and no [`UPDATE_VARIABLE`] to write it.
    #[error(
        "snapshot {} does not exist: run the test with {UPDATE_VARIABLE}=1 to write it, look at it and commit it",
        .path.display()
    )]
    Missing {
        /// Where it should be.
        path: PathBuf,
    },
    /// A file could not be read.
    #[error("cannot read {}: {error}", .path.display())]
    Read {
        /// The file.
        path: PathBuf,
        /// Why.
        error: std::io::Error,
    },
    /// A file is not a PNG image.
    #[error("{} is not a PNG image: {error}", .path.display())]
    NotPng {
        /// The file.
        path: PathBuf,
        /// The decoder's complaint.
        error: PngError,
    },
    /// A file or folder could not be written.
    #[error("cannot write {}: {error}", .path.display())]
    Write {
        /// The file or folder.
        path: PathBuf,
        /// Why.
        error: std::io::Error,
    },
    /// An image could not be encoded as PNG.
    #[error("cannot encode {} as PNG: {error}", .path.display())]
    Encode {
        /// The file it was for.
        path: PathBuf,
        /// The encoder's complaint.
        error: PngError,
    },
    /// The FEN does not parse.
    #[error("snapshot {name}: {error}")]
    Fen {
        /// The snapshot.
        name: String,
        /// The parser's error.
        error: FenError,
    },
    /// The diagram could not be rendered (an unknown piece set).
    #[error("snapshot {name}: {error}")]
    Render {
        /// The snapshot.
        name: String,
        /// The renderer's error.
        error: RenderError,
    },
    /// The diagram is not the snapshot's size; the diagram was written to `actual`.
    #[error(
        "snapshot {name} does not match {}: {sizes}; wrote {}; if the change is intended, run the test with {UPDATE_VARIABLE}=1",
        .expected.display(), .actual.display()
    )]
    SizeDiffers {
        /// The snapshot.
        name: String,
        /// The snapshot file.
        expected: PathBuf,
        /// The two sizes.
        sizes: SizeDiffers,
        /// Where the diagram was written.
        actual: PathBuf,
    },
    /// More pixels differ than the tolerance allows; the files written say where.
    #[error("{0}")]
    Mismatch(Box<Mismatch>),
}

/// A diagram that does not match its snapshot: how, and the files written about it.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error(
    "snapshot {name} does not match {}: {diff}; wrote {} and {} (the snapshot in grey, differing pixels red, their box blue); if the change is intended, run the test with {UPDATE_VARIABLE}=1",
    .expected.display(), .actual.display(), .diff_image.display()
)]
pub struct Mismatch {
    /// The snapshot.
    pub name: String,
    /// The snapshot file.
    pub expected: PathBuf,
    /// How they differ.
    pub diff: Diff,
    /// Where the diagram was written (`NAME.actual.png`).
    pub actual: PathBuf,
    /// Where the picture of the difference (see [`diff_image`]) was written
    /// (`NAME.diff.png`).
    pub diff_image: PathBuf,
}

/// A snapshot test that passed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Outcome {
    /// The diagram matches the snapshot (within the tolerance); the file is left as it was.
    Matched {
        /// The snapshot file.
        path: PathBuf,
        /// How close it was.
        diff: Diff,
    },
    /// [`UPDATE_VARIABLE`] was set and the snapshot was missing or differed: it was written.
    Written {
        /// The snapshot file.
        path: PathBuf,
        /// `true` when there was no snapshot before.
        created: bool,
    },
}

impl fmt::Display for Outcome {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Outcome::Matched { path, diff } => {
                write!(f, "snapshot {} matches: {diff}", path.display())
            }
            Outcome::Written { path, created } => write!(
                f,
                "{UPDATE_VARIABLE} is set: wrote {} snapshot {}",
                if *created { "new" } else { "changed" },
                path.display()
            ),
        }
    }
}

/// A folder of snapshots and how they are compared. Build one per test, or keep one:
///
/// ```no_run
/// use staunton::snapshot::{Snapshots, Tolerance};
/// use staunton::RenderOptions;
///
/// let snapshots = Snapshots::new(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/diagrams"))
///     .tolerance(Tolerance { channel: 8, pixels: 16 });
/// snapshots.assert("start", "start", &RenderOptions::default());
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Snapshots {
    dir: PathBuf,
    tolerance: Tolerance,
    update: Option<bool>,
}

impl Default for Snapshots {
    /// [`default_dir`], the default [`Tolerance`], updates as [`UPDATE_VARIABLE`] says.
    fn default() -> Self {
        Snapshots::new(default_dir())
    }
}

/// `tests/snapshots` of the package whose tests run: under `CARGO_MANIFEST_DIR` as
/// `cargo test` sets it for the test process, else relative to the current folder. The
/// [`assert_diagram!`](crate::assert_diagram) macro reads the variable when the test is
/// compiled instead, which holds however the test is run.
pub fn default_dir() -> PathBuf {
    std::env::var_os("CARGO_MANIFEST_DIR")
        .map(PathBuf::from)
        .unwrap_or_default()
        .join("tests")
        .join("snapshots")
}

impl Snapshots {
    /// Snapshots kept in `dir` (created when the first one is written).
    pub fn new(dir: impl Into<PathBuf>) -> Snapshots {
        Snapshots {
            dir: dir.into(),
            tolerance: Tolerance::default(),
            update: None,
        }
    }

    /// Compare with `tolerance` instead of the default (3 per channel, no pixel over it).
    pub fn tolerance(mut self, tolerance: Tolerance) -> Snapshots {
        self.tolerance = tolerance;
        self
    }

    /// Write snapshots that are missing or differ (`true`) or only compare (`false`),
    /// whatever [`UPDATE_VARIABLE`] says.
    pub fn update(mut self, update: bool) -> Snapshots {
        self.update = Some(update);
        self
    }

    /// The folder.
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// The file of snapshot `name`: `DIR/NAME.png` (the name is not checked).
    pub fn path(&self, name: &str) -> PathBuf {
        self.dir.join(format!("{name}.png"))
    }

    /// Render `diagram` with the built-in pieces as `options` ask and compare it with
    /// snapshot `name`: [`Outcome`] when it matches or was written, else the
    /// [`SnapshotError`] saying why (the mismatches write `NAME.actual.png`, and
    /// `NAME.diff.png` when the sizes agree).
    pub fn check(
        &self,
        name: &str,
        diagram: impl Diagram,
        options: &RenderOptions,
    ) -> Result<Outcome, SnapshotError> {
        self.check_with(crate::render::default_renderer(), name, diagram, options)
    }

    /// [`Snapshots::check`] with `renderer` (for piece sets of your own).
    pub fn check_with(
        &self,
        renderer: &Renderer,
        name: &str,
        diagram: impl Diagram,
        options: &RenderOptions,
    ) -> Result<Outcome, SnapshotError> {
        check_name(name)?;
        let position = diagram.position().map_err(|error| SnapshotError::Fen {
            name: name.to_string(),
            error,
        })?;
        let rendered = |error| SnapshotError::Render {
            name: name.to_string(),
            error,
        };
        let actual = renderer.rgba(&position, options).map_err(rendered)?;
        // Only written files need the PNG: render it then, the same pixels.
        let png = |_: &Path| renderer.png(&position, options).map_err(rendered);
        self.compare_and_keep(name, &actual, &png)
    }

    /// Compare pixels rendered elsewhere (or changed) with snapshot `name`, as
    /// [`Snapshots::check`] does; files written are lossless RGBA PNGs.
    pub fn check_image(&self, name: &str, actual: &RgbaImage) -> Result<Outcome, SnapshotError> {
        check_name(name)?;
        let png = |path: &Path| {
            encode_png(actual).map_err(|error| SnapshotError::Encode {
                path: path.to_path_buf(),
                error,
            })
        };
        self.compare_and_keep(name, actual, &png)
    }

    /// [`Snapshots::check`], panicking with the error's message when it fails; a snapshot
    /// written under [`UPDATE_VARIABLE`] is reported on stderr (uncaptured, so `cargo test`
    /// shows it).
    #[track_caller]
    pub fn assert(&self, name: &str, diagram: impl Diagram, options: &RenderOptions) {
        report(self.check(name, diagram, options));
    }

    /// [`Snapshots::check_image`], panicking with the error's message when it fails.
    #[track_caller]
    pub fn assert_image(&self, name: &str, actual: &RgbaImage) {
        report(self.check_image(name, actual));
    }

    fn compare_and_keep(
        &self,
        name: &str,
        actual: &RgbaImage,
        png: &dyn Fn(&Path) -> Result<Vec<u8>, SnapshotError>,
    ) -> Result<Outcome, SnapshotError> {
        let update = match self.update {
            Some(update) => update,
            None => update_from_env()?,
        };
        let path = self.path(name);
        let actual_path = self.dir.join(format!("{name}.actual.png"));
        let diff_path = self.dir.join(format!("{name}.diff.png"));
        let expected = match read_png(&path) {
            Ok(expected) => Some(expected),
            Err(SnapshotError::Read { error, .. })
                if error.kind() == std::io::ErrorKind::NotFound =>
            {
                None
            }
            // A snapshot that cannot be read is rewritten when asked to.
            Err(_) if update => None,
            Err(e) => return Err(e),
        };
        let existed = expected.is_some() || path.exists();
        // Leftovers of an earlier failure would mislead.
        let stale = |paths: &[&Path]| {
            for p in paths {
                let _ = std::fs::remove_file(p);
            }
        };
        let compared = expected
            .as_ref()
            .map(|e| (e, compare(e, actual, self.tolerance)));
        let name = name.to_string();
        match compared {
            Some((_, Ok(diff))) if diff.matches() => {
                stale(&[&actual_path, &diff_path]);
                Ok(Outcome::Matched { path, diff })
            }
            _ if update => {
                std::fs::create_dir_all(&self.dir).map_err(|error| SnapshotError::Write {
                    path: self.dir.clone(),
                    error,
                })?;
                write(&path, &png(&path)?)?;
                stale(&[&actual_path, &diff_path]);
                Ok(Outcome::Written {
                    path,
                    created: !existed,
                })
            }
            None => Err(SnapshotError::Missing { path }),
            Some((expected, Ok(diff))) => {
                write(&actual_path, &png(&actual_path)?)?;
                if let Ok(picture) = diff_image(expected, actual, &diff) {
                    write_png(&diff_path, &picture)?;
                }
                Err(SnapshotError::Mismatch(Box::new(Mismatch {
                    name,
                    expected: path,
                    diff,
                    actual: actual_path,
                    diff_image: diff_path,
                })))
            }
            Some((_, Err(sizes))) => {
                write(&actual_path, &png(&actual_path)?)?;
                stale(&[&diff_path]);
                Err(SnapshotError::SizeDiffers {
                    name,
                    expected: path,
                    sizes,
                    actual: actual_path,
                })
            }
        }
    }
}

/// Panic with `result`'s error, or report a written snapshot on stderr.
#[track_caller]
fn report(result: Result<Outcome, SnapshotError>) {
    match result {
        Ok(outcome @ Outcome::Written { .. }) => {
            // Straight to the stream: libtest captures `eprintln!` of passing tests.
            let _ = writeln!(std::io::stderr(), "staunton: {outcome}");
        }
        Ok(Outcome::Matched { .. }) => {}
        Err(e) => panic!("{e}"),
    }
}

/// Whether [`UPDATE_VARIABLE`] asks for snapshots to be written.
pub fn update_from_env() -> Result<bool, SnapshotError> {
    let value = match std::env::var_os(UPDATE_VARIABLE) {
        None => return Ok(false),
        Some(value) => value.to_string_lossy().into_owned(),
    };
    match value.trim() {
        "" | "0" | "false" | "no" => Ok(false),
        "1" | "true" | "yes" => Ok(true),
        _ => Err(SnapshotError::UpdateVariable { value }),
    }
}

/// Refuse a name that would not be one plain file in the snapshot folder.
fn check_name(name: &str) -> Result<(), SnapshotError> {
    let reason = if name.is_empty() {
        "it is empty".to_string()
    } else if name.contains(['/', '\\']) {
        "it contains a path separator: a name is one file in the snapshot folder (choose the folder with Snapshots::new)".to_string()
    } else if name.contains("..") {
        "it contains \"..\"".to_string()
    } else if name.starts_with('.') {
        "it starts with '.' (a hidden file)".to_string()
    } else if name.len() > MAX_NAME_BYTES {
        format!("it is longer than {MAX_NAME_BYTES} bytes")
    } else if name.to_ascii_lowercase().ends_with(".png") {
        "it ends in .png: give the name without the extension".to_string()
    } else if let Some(c) = name
        .chars()
        .find(|c| !(c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.')))
    {
        format!("it contains {c:?}: use ASCII letters, digits, '-', '_' and '.'")
    } else {
        return Ok(());
    };
    Err(SnapshotError::BadName {
        name: name.to_string(),
        reason,
    })
}

/// Compare `diagram` with `tests/snapshots/NAME.png` of the package under test
/// ([`default_dir`]), panicking with a message naming the files written when it differs.
/// See [`Snapshots`] for another folder or tolerance, and [`check_diagram`] for a
/// `Result`.
#[track_caller]
pub fn assert_diagram(name: &str, diagram: impl Diagram, options: &RenderOptions) {
    Snapshots::default().assert(name, diagram, options);
}

/// [`assert_diagram`] returning the outcome or the error instead of panicking.
pub fn check_diagram(
    name: &str,
    diagram: impl Diagram,
    options: &RenderOptions,
) -> Result<Outcome, SnapshotError> {
    Snapshots::default().check(name, diagram, options)
}

/// Assert that a diagram matches its snapshot in `tests/snapshots/` of the crate whose test
/// calls it (its `CARGO_MANIFEST_DIR`, read when the test is compiled):
/// `assert_diagram!(name, fen_or_position)` with the default options, or
/// `assert_diagram!(name, fen_or_position, &options)`. See [`snapshot`](crate::snapshot).
#[macro_export]
macro_rules! assert_diagram {
    ($name:expr, $diagram:expr $(,)?) => {
        $crate::assert_diagram!($name, $diagram, &$crate::RenderOptions::default())
    };
    ($name:expr, $diagram:expr, $options:expr $(,)?) => {
        $crate::snapshot::Snapshots::new(
            ::std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
                .join("tests")
                .join("snapshots"),
        )
        .assert($name, $diagram, $options)
    };
}
