//! Training data for board recognition: images of positions drawn with every kind of
//! variety a recogniser meets (themes and random palettes, piece sets, sizes, coordinates,
//! orientation, marks, print hatching, backgrounds, and what a camera or a scan does), each
//! with exact labels (the FEN, the board's corners, every square's outline, every piece's
//! box) in the files trainers read (COCO, YOLO, a Hugging Face image folder).
//!
//! ```text
//!  variety (parts and values) ─┐
//!  positions (a file, or random play) ─► sample: plan from (seed, index) ─► Renderer
//!                                             │                             │ pixels
//!                                             ▼                             ▼
//!                                     labels::measure ◄── transform ── camera::develop
//!                                             │                             │ encode
//!                                             ▼                             ▼
//!                                  run: metadata.jsonl, formats (COCO, YOLO), images/
//! ```
//!
//! Image `i` depends on the seed and `i` alone ([`rng::Rng::for_image`]), so a run can be
//! split into shards, resumed, or any image made again on its own.
//!
//! ```
//! use staunton::dataset::{Dataset, Settings, Variety};
//!
//! let dataset = Dataset::new(Settings { seed: 7, variety: Variety::full(), ..Settings::default() })?;
//! let sample = dataset.sample(41)?;
//! assert_eq!(sample.labels.squares.len(), 64);
//! assert_eq!(sample.labels.file_name, format!("images/00000041.{}", sample.encoding.extension()));
//! # Ok::<(), staunton::dataset::DatasetError>(())
//! ```

pub mod camera;
pub mod formats;
pub mod labels;
pub mod overlay;
pub mod positions;
pub mod rng;
pub mod run;
pub mod sample;
pub mod sources;
pub mod variety;

pub use labels::Labels;
pub use sample::{Dataset, DatasetError, Sample, Settings};
pub use variety::{Variety, VarietyError};
