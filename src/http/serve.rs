//! The server loop: connections, the shutdown signal, the drain period and the grace.

use super::app::app;
use super::state::AppState;
use std::sync::Arc;
use std::time::Duration;

/// Serve `app(state)` on `listener` until `shutdown` resolves; then `/ready` answers 503
/// and requests are still taken for the configured drain period (`Config::drain`); then
/// stop accepting and let requests in flight finish for at most `grace`.
///
/// Connections are HTTP/1.1 with hyper's limits on header size and a header-read timeout
/// (`Config::header_timeout`), so a client that sends its headers slowly (slowloris) is cut
/// off rather than holding a connection open.
pub async fn serve(
    listener: tokio::net::TcpListener,
    state: Arc<AppState>,
    shutdown: impl std::future::Future<Output = ()> + Send + 'static,
    grace: Duration,
) -> std::io::Result<()> {
    use hyper_util::rt::{TokioIo, TokioTimer};
    let header_timeout = state.config.header_timeout;
    let drain = state.config.drain;
    let draining = state.clone();
    // Caches evict and expire idle entries only when something runs their upkeep: once a
    // second, so what a burst left goes within `cache::IDLE` of its end even if no request
    // follows; the pooled buffers of large renders go within `render::workspace::POOL_IDLE`.
    let upkeep = state.clone();
    let upkeep = tokio::spawn(async move {
        let mut tick = tokio::time::interval(Duration::from_secs(1));
        loop {
            tick.tick().await;
            upkeep.cache.run_pending_tasks().await;
            let renderer = upkeep.renderer.clone();
            let _ = tokio::task::spawn_blocking(move || {
                renderer.cache_usage();
                crate::render::release_buffers(crate::render::POOL_IDLE);
            })
            .await;
        }
    });
    let service = hyper_util::service::TowerToHyperService::new(app(state));
    let graceful = hyper_util::server::graceful::GracefulShutdown::new();
    let mut shutdown = std::pin::pin!(shutdown);
    let mut stop_at: Option<tokio::time::Instant> = None;
    loop {
        let deadline = stop_at.unwrap_or_else(tokio::time::Instant::now);
        let (stream, _) = tokio::select! {
            accepted = listener.accept() => match accepted {
                Ok(connection) => connection,
                // Out of file descriptors and the like: wait a little, keep serving.
                Err(e) => {
                    tracing::warn!(error = %e, "accept failed");
                    tokio::time::sleep(Duration::from_millis(50)).await;
                    continue;
                }
            },
            () = &mut shutdown, if stop_at.is_none() => {
                draining.start_draining();
                tracing::info!(?drain, "shutting down: /ready answers 503; draining");
                if drain.is_zero() {
                    break;
                }
                stop_at = Some(tokio::time::Instant::now() + drain);
                continue;
            }
            () = tokio::time::sleep_until(deadline), if stop_at.is_some() => break,
        };
        let mut builder = hyper::server::conn::http1::Builder::new();
        builder
            .timer(TokioTimer::new())
            .header_read_timeout(header_timeout);
        let connection = builder.serve_connection(TokioIo::new(stream), service.clone());
        let connection = graceful.watch(connection);
        tokio::spawn(async move {
            let _ = connection.await;
        });
    }
    drop(listener);
    upkeep.abort();
    tokio::select! {
        () = graceful.shutdown() => {}
        () = tokio::time::sleep(grace) => {
            tracing::warn!(?grace, "requests still in flight after the grace period; stopping");
        }
    }
    Ok(())
}
