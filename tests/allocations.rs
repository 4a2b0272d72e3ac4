//! Memory per render: after warm-up, a render allocates about what its output needs.
//!
//! Before per-thread buffers and cached boards, a 400 px start position allocated 1.16 MB;
//! now about 24 KB for an 18 KB PNG.
//!
//! A counting global allocator (this test binary only) measures the bytes allocated while
//! rendering, with the sprite and tile caches warm, as the service runs.

use staunton::Renderer;
use staunton::render::options::Format;
use staunton::request::Request;
use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

struct Counting;

static ALLOCATED: AtomicUsize = AtomicUsize::new(0);
static COUNTING: AtomicBool = AtomicBool::new(false);

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        if COUNTING.load(Ordering::Relaxed) {
            ALLOCATED.fetch_add(layout.size(), Ordering::Relaxed);
        }
        unsafe { System.alloc(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        unsafe { System.dealloc(ptr, layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        if COUNTING.load(Ordering::Relaxed) {
            ALLOCATED.fetch_add(new_size.saturating_sub(layout.size()), Ordering::Relaxed);
        }
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

/// Bytes allocated by one render of `query`, and the output's length.
fn measure(renderer: &Renderer, query: &str) -> (usize, usize) {
    let r = Request::from_query(query, None).expect("valid");
    let warm = renderer
        .render(&r.position, &r.options, r.format)
        .expect("renders");
    ALLOCATED.store(0, Ordering::SeqCst);
    COUNTING.store(true, Ordering::SeqCst);
    let out = renderer.render(&r.position, &r.options, r.format);
    COUNTING.store(false, Ordering::SeqCst);
    let out = out.expect("renders");
    assert_eq!(out, warm, "renders are deterministic");
    (ALLOCATED.load(Ordering::SeqCst), out.len())
}

#[test]
fn a_warm_render_allocates_little_beyond_its_output() {
    let renderer = Renderer::default();
    for query in [
        "fen=start",
        "fen=start&size=800",
        "fen=r1bq1rk1/pp3ppp/3n4/2p1N3/2B5/7P/PPP2PP1/R1BQR1K1_w&size=720",
        "fen=rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR_w_KQkq_-_1_3&lastMove=d8h4&check=auto&arrows=Gh4e1,Rg2g3,Yb1c3&highlight=Ge5,Rf3",
        "fen=start&format=svg",
    ] {
        let r = Request::from_query(query, None).expect("valid");
        let (allocated, output) = measure(&renderer, query);
        let size = r.options.size as usize;
        eprintln!("{query}: {allocated} bytes allocated for {output} bytes of output");
        match r.format {
            // No image-sized buffer per render (the pixels alone are four bytes a pixel):
            // the PNG itself, plus at most 64 KiB of bookkeeping (the scene, the palette,
            // tiny-skia's buffers for the marks drawn).
            Format::Png => assert!(
                allocated <= output + 64 * 1024 && allocated < size * size,
                "{query}: {allocated} bytes allocated, {output} bytes out"
            ),
            Format::Svg => assert!(allocated < 8 * output, "{query}: {allocated} bytes"),
            other => panic!("{query}: no allocation budget for {other:?}"),
        }
    }
}
