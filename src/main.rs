//! `staunton`: serve diagrams over HTTP, or render them to files.

use clap::Parser;
use std::io::IsTerminal;
use std::process::ExitCode;

/// mimalloc returns freed memory to the system promptly; with glibc's allocator, renders of
/// large images left the resident size at ten times the cache bound under a flood of
/// distinct sizes (measured with scripts/flood.sh).
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() -> ExitCode {
    let cli = staunton::cli::Cli::parse();
    let filter = tracing_subscriber::EnvFilter::try_from_default_env()
        .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("info"));
    let logs = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_writer(std::io::stderr);
    if cli.log_format == "json" {
        logs.json().init();
    } else {
        logs.with_ansi(std::io::stderr().is_terminal()).init();
    }
    match staunton::cli::run(cli) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("staunton: {e:#}");
            ExitCode::from(2)
        }
    }
}
