//! `staunton`: serve diagrams over HTTP, or render them to files.

use std::io::IsTerminal;
use std::process::ExitCode;

mod allocator;

fn main() -> ExitCode {
    allocator::return_memory_promptly();
    let cli = staunton::cli::Cli::from_env();
    let filter = tracing_subscriber::EnvFilter::try_from_default_env()
        .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("info"));
    let logs = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_writer(std::io::stderr);
    if cli.log_format == staunton::cli::LogFormat::Json {
        logs.json().init();
    } else {
        logs.with_ansi(std::io::stderr().is_terminal()).init();
    }
    match staunton::cli::run(cli) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) if e.is::<staunton::cli::ImagesDiffer>() => ExitCode::from(1),
        Err(e) if e.is::<staunton::cli::Unhealthy>() => {
            eprintln!("staunton: unhealthy: {e}");
            ExitCode::from(1)
        }
        Err(e) => {
            eprintln!("staunton: {e:#}");
            ExitCode::from(2)
        }
    }
}
