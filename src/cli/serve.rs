//! `staunton serve` (and `staunton` with no subcommand): its flags, the byte sizes they
//! take, starting the HTTP service on a Tokio runtime and stopping it on SIGINT or SIGTERM.

use super::shared::renderer;
use crate::http::{self, AppState};
use anyhow::Context;
use clap::Args;
use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

#[derive(Debug, Args)]
pub(super) struct ServeArgs {
    /// Address to listen on.
    #[arg(long, env = "STAUNTON_ADDR", default_value = "127.0.0.1:8080")]
    addr: SocketAddr,
    /// Byte budget of the image cache, e.g. 128MiB, 1GiB, 500MB or a plain number of bytes.
    #[arg(long, env = "STAUNTON_CACHE_SIZE", default_value = "128MiB", value_parser = parse_bytes)]
    cache_size: u64,
    /// Byte budget of the renderer's caches together (piece sprites, stamps, palette
    /// contexts, cell tiles, SVG parts) and, with the system's fonts, of their files and
    /// glyphs (three eighths of it).
    #[arg(long, env = "STAUNTON_RENDER_CACHE_SIZE", default_value = "64MiB", value_parser = parse_bytes)]
    render_cache_size: u64,
    /// A folder whose subfolders are piece sets (wK.svg … bP.svg, or wk.svg … bp.svg).
    #[arg(long, env = "STAUNTON_PIECES_DIR")]
    pieces_dir: Option<PathBuf>,
    /// Renders running at once (default: one per core).
    #[arg(long, env = "STAUNTON_WORKERS")]
    workers: Option<usize>,
    /// Renders waiting for a worker; beyond that, new cache misses get 503 with Retry-After.
    #[arg(long, env = "STAUNTON_QUEUE", default_value_t = 64)]
    queue: usize,
    /// Longest accepted query string, in bytes (longer: 414).
    #[arg(long, env = "STAUNTON_MAX_QUERY_BYTES", default_value_t = crate::http::MAX_QUERY_BYTES)]
    max_query_bytes: usize,
    /// Seconds allowed for a whole request (longer: 408).
    #[arg(long, env = "STAUNTON_REQUEST_TIMEOUT", default_value_t = 10)]
    request_timeout: u64,
    /// Longest accepted fen, in bytes.
    #[arg(long, env = "STAUNTON_MAX_FEN_BYTES", default_value_t = crate::request::MAX_FEN_BYTES)]
    max_fen_bytes: usize,
    /// Most arrows and circles in one request.
    #[arg(long, env = "STAUNTON_MAX_ARROWS", default_value_t = crate::request::MAX_ARROWS)]
    max_arrows: usize,
    /// Most squares in squares= and in highlight=.
    #[arg(long, env = "STAUNTON_MAX_SQUARES", default_value_t = crate::request::MAX_SQUARES)]
    max_squares: usize,
    /// Largest size= in pixels (16–2048).
    #[arg(long, env = "STAUNTON_MAX_SIZE", default_value_t = crate::render::options::MAX_SIZE,
          value_parser = clap::value_parser!(u32).range(16..=2048))]
    max_size: u32,
    /// Longest `pgn` or `moves` in a URL, in bytes (a longer game can be POSTed).
    #[arg(long, env = "STAUNTON_MAX_PGN_BYTES", default_value_t = crate::request::MAX_PGN_BYTES)]
    max_pgn_bytes: usize,
    /// Most plies (half-moves) in a game.
    #[arg(long, env = "STAUNTON_MAX_PLIES", default_value_t = crate::request::MAX_PLIES)]
    max_plies: usize,
    /// Longest request body (a POSTed PGN), in bytes (longer: 413).
    #[arg(long, env = "STAUNTON_MAX_BODY_BYTES", default_value_t = crate::http::MAX_BODY_BYTES)]
    max_body_bytes: usize,
    /// Seconds a client may take to send its request headers (slowloris guard).
    #[arg(long, env = "STAUNTON_HEADER_TIMEOUT", default_value_t = 5)]
    header_timeout: u64,
    /// Seconds requests in flight may take to finish after SIGTERM/SIGINT.
    #[arg(long, env = "STAUNTON_SHUTDOWN_GRACE", default_value_t = 10)]
    shutdown_grace: u64,
    /// Seconds to keep serving after SIGTERM/SIGINT with `/ready` answering 503, so a
    /// balancer (Kubernetes, nginx health checks) stops sending requests first.
    #[arg(long, env = "STAUNTON_DRAIN", default_value_t = 0)]
    drain: u64,
}

/// Parse a byte size: `128MiB`, `1GiB`, `64KiB`, `500MB`, `1GB`, or plain bytes.
pub fn parse_bytes(text: &str) -> Result<u64, String> {
    let t = text.trim();
    let split = t.find(|c: char| !c.is_ascii_digit()).unwrap_or(t.len());
    let (digits, unit) = t.split_at(split);
    let n: u64 = digits
        .parse()
        .map_err(|_| format!("{text:?} is not a size: expected e.g. 128MiB, 1GiB or 1048576"))?;
    let factor: u64 = match unit.trim().to_ascii_lowercase().as_str() {
        "" | "b" => 1,
        "k" | "kb" => 1000,
        "kib" => 1 << 10,
        "m" | "mb" => 1_000_000,
        "mib" => 1 << 20,
        "g" | "gb" => 1_000_000_000,
        "gib" => 1 << 30,
        _ => {
            return Err(format!(
                "{text:?} has an unknown unit: use B, KiB, MiB, GiB, KB, MB or GB"
            ));
        }
    };
    n.checked_mul(factor)
        .ok_or_else(|| format!("{text:?} is too large"))
}

pub(super) fn serve(args: ServeArgs) -> anyhow::Result<()> {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .context("cannot start the async runtime")?;
    runtime.block_on(async move {
        let listener = tokio::net::TcpListener::bind(args.addr)
            .await
            .with_context(|| format!("cannot listen on {}", args.addr))?;
        let dir = args.pieces_dir.as_deref();
        let renderer = renderer(dir, args.render_cache_size, |p| tracing::warn!("{p}"));
        let names: Vec<&str> = renderer.piece_sets().names().collect();
        // The built-in sets are parsed when first named: here, before the first request.
        names
            .iter()
            .for_each(|name| _ = renderer.piece_sets().get(name));
        tracing::info!(sets = names.join(", "), "piece sets loaded");
        // The system's fonts scanned now, off the request path: no request waits for it.
        tokio::task::spawn_blocking(crate::render::scan_system_fonts);
        let defaults = http::Config::default();
        let config = http::Config {
            cache_bytes: args.cache_size,
            workers: args.workers.unwrap_or(defaults.workers).max(1),
            queue: args.queue,
            max_query_bytes: args.max_query_bytes,
            max_body_bytes: args.max_body_bytes,
            request_timeout: Duration::from_secs(args.request_timeout.max(1)),
            header_timeout: Duration::from_secs(args.header_timeout.max(1)),
            drain: Duration::from_secs(args.drain),
            limits: crate::request::Limits {
                fen_bytes: args.max_fen_bytes,
                arrows: args.max_arrows,
                squares: args.max_squares,
                max_size: args.max_size,
                pgn_bytes: args.max_pgn_bytes,
                plies: args.max_plies,
            },
        };
        // The bound address, so `--addr 127.0.0.1:0` reports the port it got.
        let addr = listener.local_addr().unwrap_or(args.addr);
        tracing::info!(%addr, open = %open_url(addr), "staunton listening");
        tracing::debug!(?config, "configuration");
        let state = Arc::new(AppState::with_config(Arc::new(renderer), config));
        http::serve(
            listener,
            state,
            shutdown_signal(),
            Duration::from_secs(args.shutdown_grace),
        )
        .await
        .context("the server stopped")?;
        tracing::info!("staunton stopped");
        Ok(())
    })
}

/// Resolves on SIGINT (Ctrl-C) or SIGTERM.
/// The page to open in a browser for a server bound to `addr`: `localhost` where it listens
/// on every address (0.0.0.0 or ::).
fn open_url(addr: SocketAddr) -> String {
    if addr.ip().is_unspecified() {
        format!("http://localhost:{}/", addr.port())
    } else {
        format!("http://{addr}/")
    }
}

async fn shutdown_signal() {
    let ctrl_c = async {
        let _ = tokio::signal::ctrl_c().await;
    };
    #[cfg(unix)]
    let term = async {
        match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
            Ok(mut s) => {
                s.recv().await;
            }
            Err(_) => std::future::pending::<()>().await,
        }
    };
    #[cfg(not(unix))]
    let term = std::future::pending::<()>();
    tokio::select! {
        () = ctrl_c => {},
        () = term => {},
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_url_to_open_names_the_bound_address_or_localhost() {
        let cases = [
            ("127.0.0.1:8080", "http://127.0.0.1:8080/"),
            ("0.0.0.0:9000", "http://localhost:9000/"),
            ("[::]:80", "http://localhost:80/"),
            ("[::1]:8080", "http://[::1]:8080/"),
        ];
        for (addr, url) in cases {
            assert_eq!(open_url(addr.parse().expect("an address")), url, "{addr}");
        }
    }

    #[test]
    fn byte_sizes() {
        assert_eq!(parse_bytes("128MiB"), Ok(128 << 20));
        assert_eq!(parse_bytes("1GiB"), Ok(1 << 30));
        assert_eq!(parse_bytes("500MB"), Ok(500_000_000));
        assert_eq!(parse_bytes("4096"), Ok(4096));
        assert!(parse_bytes("lots").is_err());
        assert!(parse_bytes("12XB").is_err());
        assert!(parse_bytes("99999999999GiB").is_err());
    }
}
