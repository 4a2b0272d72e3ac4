//! The command line as a real process, one test binary (each module was a test binary of
//! its own; one binary links the crate once): every subcommand (`cli`) and
//! `staunton compare` (`compare_cli`).

#[path = "../common/mod.rs"]
mod common;

mod cli;
mod compare_cli;
mod markdown_cli;
mod stdout;
