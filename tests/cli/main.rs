//! The command line as a real process, one test binary (each module was a test binary of
//! its own; one binary links the crate once): every subcommand (`cli`), `staunton
//! markdown` and `staunton fence` (`markdown_cli`), `staunton compare` (`compare_cli`), how every command writes its files (`files`), the
//! book's command-line chapter against `--help` (`docs_flags`), `staunton health` against a
//! real service (`health`), `staunton latex`'s request files, PDFs and sidecars (`latex`).

#[path = "../common/mod.rs"]
mod common;
#[path = "../common/doors.rs"]
mod doors_corpus;

mod card;
mod cli;
mod compare_cli;
mod docs_flags;
mod doors;
mod files;
mod health;
mod latex;
mod markdown_cli;
mod stdout;
mod version;
