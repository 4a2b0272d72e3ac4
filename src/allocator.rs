//! The binary's memory allocator and its settings (the library leaves the allocator to
//! its user). Also included by `benches/heavy.rs`, so that it measures renders under the
//! service's allocator.

/// Have the C allocator give memory back: blocks of 1 MiB and more (image buffers, the
/// boards of large contexts) are mapped and unmapped on their own rather than kept in its heap,
/// the heap's free top is returned past 128 KiB, and two arenas serve all threads. Under a
/// flood of new sizes this holds the resident size near what the caches report; with the
/// defaults (or mimalloc, used before) freed buffers of ever-different sizes stayed
/// resident (scripts/bench/cold.sh, README "Memory").
#[cfg(all(target_os = "linux", target_env = "gnu"))]
pub fn return_memory_promptly() {
    // SAFETY: mallopt only sets allocator parameters; it is called before any thread starts.
    unsafe {
        libc::mallopt(libc::M_MMAP_THRESHOLD, 1024 * 1024);
        libc::mallopt(libc::M_TRIM_THRESHOLD, 128 * 1024);
        libc::mallopt(libc::M_ARENA_MAX, 2);
    }
    // Free memory inside the heap (between live blocks) is returned only by a trim: one
    // every two seconds, a few hundred microseconds each, so a burst's leftovers go back.
    std::thread::spawn(|| {
        loop {
            std::thread::sleep(std::time::Duration::from_secs(2));
            // SAFETY: malloc_trim takes the allocator's own locks; no pointer is passed.
            unsafe {
                libc::malloc_trim(0);
            }
        }
    });
}

#[cfg(not(all(target_os = "linux", target_env = "gnu")))]
pub fn return_memory_promptly() {}

/// The static Linux binary's allocator (musl's own is slow under this load; see Cargo.toml).
#[cfg(all(target_os = "linux", target_env = "musl"))]
#[global_allocator]
static ALLOCATOR: tikv_jemallocator::Jemalloc = tikv_jemallocator::Jemalloc;

/// jemalloc's settings, as glibc's are set in return_memory_promptly: two arenas, and freed
/// pages returned at once. Under a flood of new sizes the peak stays within the bounds of
/// the book's Memory section (155 MiB at a 32 MiB cache; with jemalloc's defaults 239 MiB,
/// with mimalloc 399–521 MiB), for about 10 % more CPU than glibc's (musl's own: 50 %).
#[cfg(all(target_os = "linux", target_env = "musl"))]
#[unsafe(export_name = "_rjem_malloc_conf")]
pub static MALLOC_CONF: &[u8; 44] = b"narenas:2,dirty_decay_ms:0,muzzy_decay_ms:0\0";
