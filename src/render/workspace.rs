//! The buffers a render works in ([`Workspace`]: the painters' canvas and the encoder's
//! buffers), reused between renders rather than allocated for each.
//!
//! A thread keeps its own workspace up to [`KEEP_BYTES`]. A larger one (a board above about
//! 1000 px) goes to a pool the threads share, where the next large render takes it; the
//! pool lets go of what has not been used for [`POOL_IDLE`]. Allocated for each render, a
//! 2048 px workspace (26 MB) was mapped and unmapped every time: a page fault every 4 KiB,
//! and each unmap stopped the other core to flush its address cache, so two large renders
//! side by side ran slower than one after the other (`benches/heavy.rs`).

use super::encode;
use super::paint::compose::Canvas;
use super::paint::raster::holding_stamps;
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// Per-thread buffers kept between renders at most this large (those of a diagram of about
/// 1000 px). Larger ones go to the shared pool after use.
pub const KEEP_BYTES: usize = 4 * 1024 * 1024;

/// How long a large workspace stays in the pool unused before it is let go (by the next
/// render that returns one, or by [`release_buffers`], which the service runs every second).
pub const POOL_IDLE: Duration = Duration::from_secs(2);

thread_local! {
    /// The pixels and encoder buffers of this thread's last render, reused by the next.
    static WORKSPACE: std::cell::RefCell<Workspace> = std::cell::RefCell::default();
}

/// Large workspaces not in use.
static POOL: Pool<Workspace> = Pool::new();

/// Whether large workspaces are pooled: not in WebAssembly, where `Instant` has no clock.
const POOLED: bool = !cfg!(target_arch = "wasm32");

/// A thread's buffers: the painters' canvas and the encoder's.
#[derive(Default)]
pub(super) struct Workspace {
    pub(super) canvas: Canvas,
    pub(super) encode: encode::Scratch,
}

impl Workspace {
    fn capacity(&self) -> usize {
        self.canvas.capacity() + self.encode.capacity()
    }
}

/// Run `f` (one render) with a workspace for `pixels` pixels, and the stamps it uses held
/// to its end: a large render takes a workspace from the pool when there is one, else
/// this thread's; afterwards a workspace past [`KEEP_BYTES`] goes to the pool.
pub(super) fn with_workspace<T>(pixels: u64, f: impl FnOnce(&mut Workspace) -> T) -> T {
    // Four bytes a pixel of RGBA and one of indices: more than this thread keeps. (In
    // WebAssembly, which has one thread and no clock, a large workspace is let go at once.)
    let large = pixels.saturating_mul(5) > KEEP_BYTES as u64 && POOLED;
    if let Some(mut pooled) = large.then(|| POOL.take()).flatten() {
        let out = holding_stamps(|| f(&mut pooled));
        POOL.give(pooled, Instant::now());
        return out;
    }
    WORKSPACE.with(|cell| {
        let mut guard = cell.borrow_mut();
        let out = holding_stamps(|| f(&mut guard));
        if guard.capacity() > KEEP_BYTES {
            let ws = std::mem::take(&mut *guard);
            if POOLED {
                POOL.give(ws, Instant::now());
            }
        }
        out
    })
}

/// Let go of the pooled workspaces of large renders unused for longer than `idle` (all of
/// them with `Duration::ZERO`). The service calls it every second with [`POOL_IDLE`], so a
/// burst's buffers go soon after it ends; a returned workspace also lets go of those idle
/// past [`POOL_IDLE`]. The system fonts' files go after their own idle time, 20 s (see
/// `render::hold_system_fonts_within`).
pub fn release_buffers(idle: Duration) {
    if POOLED {
        POOL.release_idle(Instant::now(), idle);
    }
    // The system fonts' files, after their own idle time (never sooner than the caches').
    crate::render::art::font::release_idle(idle.max(crate::render::art::font_held::FACE_IDLE));
}

/// Things not in use, each with when it was returned (most recent last): at most one a
/// core, none idle past [`POOL_IDLE`] once a return or [`Pool::release_idle`] has looked.
struct Pool<T>(Mutex<Vec<(T, Instant)>>);

impl<T> Pool<T> {
    const fn new() -> Pool<T> {
        Pool(Mutex::new(Vec::new()))
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Vec<(T, Instant)>> {
        self.0.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// The most recently returned, if any.
    fn take(&self) -> Option<T> {
        self.lock().pop().map(|(item, _)| item)
    }

    /// Return `item` at `now`, letting go of what is idle and, past one a core, the oldest.
    fn give(&self, item: T, now: Instant) {
        let most = std::thread::available_parallelism().map_or(2, |n| n.get());
        let dropped = {
            let mut pool = self.lock();
            let mut dropped = idle(&mut pool, now, POOL_IDLE);
            pool.push((item, now));
            if pool.len() > most {
                dropped.push(pool.remove(0).0);
            }
            dropped
        };
        // Freed outside the lock: unmapping takes a while.
        drop(dropped);
    }

    /// Let go of what has been idle longer than `longer` at `now`; how many are left.
    fn release_idle(&self, now: Instant, longer: Duration) -> usize {
        let (dropped, left) = {
            let mut pool = self.lock();
            (idle(&mut pool, now, longer), pool.len())
        };
        drop(dropped);
        left
    }
}

/// Remove the items of `pool` idle longer than `longer` at `now` (all, for zero), and
/// return them.
fn idle<T>(pool: &mut Vec<(T, Instant)>, now: Instant, longer: Duration) -> Vec<T> {
    let keep_from =
        pool.partition_point(|(_, at)| longer.is_zero() || now.duration_since(*at) > longer);
    pool.drain(..keep_from).map(|(item, _)| item).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_pool_gives_back_the_latest_and_lets_go_of_the_idle_and_the_surplus() {
        let pool = Pool::new();
        let t0 = Instant::now();
        pool.give(1, t0);
        pool.give(2, t0 + Duration::from_millis(10));
        assert_eq!(pool.take(), Some(2), "not the most recent");
        pool.give(3, t0 + Duration::from_millis(20));
        // Just within POOL_IDLE of 1's return: both kept.
        assert_eq!(pool.release_idle(t0 + POOL_IDLE, POOL_IDLE), 2);
        // Past it: 1 goes, 3 stays until its own time is up.
        let just_past = POOL_IDLE + Duration::from_millis(1);
        assert_eq!(pool.release_idle(t0 + just_past, POOL_IDLE), 1);
        assert_eq!(pool.release_idle(t0 + just_past + Duration::from_millis(20), POOL_IDLE), 0);
        assert_eq!(pool.take(), None);
        // At most one a core: the oldest goes first.
        let most = std::thread::available_parallelism().map_or(2, |n| n.get());
        for i in 0..most + 3 {
            pool.give(i, t0);
        }
        assert_eq!(pool.release_idle(t0, POOL_IDLE), most);
        assert_eq!(pool.take(), Some(most + 2));
        let rest: Vec<usize> = std::iter::from_fn(|| pool.take()).collect();
        assert_eq!(rest.last(), Some(&3), "the oldest were not the ones let go");
        // Zero: everything goes, however recent.
        pool.give(7, t0);
        assert_eq!(pool.release_idle(t0, Duration::ZERO), 0);
    }

    #[test]
    fn a_large_render_returns_its_workspace_to_the_pool_and_a_small_one_keeps_its_own() {
        // The shared pool: other tests may take from it, so only what this thread sees
        // is asserted.
        let renderer = crate::Renderer::default();
        let position = crate::chess::fen::parse("8/8/8/4k3/8/8/3K4/8 w - - 0 1").expect("valid");
        let options = crate::RenderOptions {
            size: 1200,
            ..crate::RenderOptions::default()
        };
        // 1200 × 1200 pixels, five bytes each, are more than KEEP_BYTES: a large render.
        renderer.png(&position, &options).expect("renders");
        let kept = WORKSPACE.with(|cell| cell.borrow().capacity());
        assert!(kept <= KEEP_BYTES, "this thread kept {kept} bytes");
        let small = crate::RenderOptions {
            size: 400,
            ..crate::RenderOptions::default()
        };
        renderer.png(&position, &small).expect("renders");
        let kept = WORKSPACE.with(|cell| cell.borrow().capacity());
        assert!(kept > 0 && kept <= KEEP_BYTES, "a small render kept {kept} bytes");
    }
}
