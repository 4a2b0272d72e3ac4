//! `staunton::dataset`, one test binary: the labels proven from the pixels across every
//! kind of variety (`labels_proven`), and the folder a run writes: formats, shards,
//! resuming, bounds (`run`).

mod common;
mod labels_proven;
mod run;
