//! The caches report what they hold: the sum of their entries' weights (what `/metrics`
//! shows next to each bound) must match the bytes actually left allocated by filling them,
//! within 20 %.
//!
//! A counting global allocator (this test binary only) follows the live heap. The renders
//! run on a thread of their own, so its per-thread buffers are freed when it ends and only
//! what the caches keep stays allocated.

use staunton::Renderer;
use staunton::render::pieces::PieceSets;
use staunton::request::Request;
use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicIsize, Ordering};

struct Counting;

static LIVE: AtomicIsize = AtomicIsize::new(0);

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        LIVE.fetch_add(layout.size() as isize, Ordering::Relaxed);
        unsafe { System.alloc(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        LIVE.fetch_sub(layout.size() as isize, Ordering::Relaxed);
        unsafe { System.dealloc(ptr, layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        LIVE.fetch_add(
            new_size as isize - layout.size() as isize,
            Ordering::Relaxed,
        );
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

#[test]
fn the_caches_weigh_what_they_hold() {
    // Large enough that nothing is evicted while filling.
    let renderer = Renderer::new(PieceSets::builtin(), 1 << 30);
    let mut queries = Vec::new();
    for size in [120, 240, 333, 400, 512, 720, 800, 1000, 1600] {
        queries.push(format!("fen=start&size={size}"));
        queries.push(format!(
            "fen=r1bq1rk1/pp3ppp/3n4/2p1N3/2B5/7P/PPP2PP1/R1BQR1K1_w&size={size}&orientation=black"
        ));
        queries.push(format!(
            "fen=rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR_w_KQkq_-_1_3&size={size}\
             &lastMove=d8h4&check=auto&arrows=Gh4e1,Rg2g3,Yb1c3&highlight=Ge5,Rf3"
        ));
        queries.push(format!("fen=start&size={size}&format=svg&theme=blue"));
    }
    let requests: Vec<Request> = queries
        .iter()
        .map(|q| Request::from_query(q, None).expect("valid"))
        .collect();
    let empty: u64 = renderer.cache_usage().iter().map(|u| u.bytes).sum();
    assert_eq!(empty, 0, "a new renderer's caches are empty");

    let before = LIVE.load(Ordering::SeqCst);
    std::thread::scope(|s| {
        s.spawn(|| {
            for r in &requests {
                let out = renderer.render(&r.position, &r.options, r.format);
                assert!(out.is_ok_and(|bytes| !bytes.is_empty()));
            }
        });
    });
    // The pooled buffers of the large renders are not the caches'.
    staunton::render::release_buffers(std::time::Duration::ZERO);
    let usage = renderer.cache_usage();
    let held = LIVE.load(Ordering::SeqCst) - before;
    let weighed: u64 = usage.iter().map(|u| u.bytes).sum();
    for u in &usage {
        eprintln!("{}: {} entries, {} bytes", u.name, u.entries, u.bytes);
        assert!(u.bytes <= u.bound, "{} is over its bound", u.name);
    }
    eprintln!("weighed {weighed} bytes, allocated {held} bytes");
    assert!(
        usage.iter().filter(|u| u.entries > 0).count() == usage.len(),
        "every cache was used: {usage:?}"
    );
    let (held, weighed) = (held as f64, weighed as f64);
    assert!(
        (weighed - held).abs() <= 0.2 * held,
        "the caches report {weighed} bytes but hold {held}"
    );
}
