//! Two heavy renders side by side against one after the other, on two worker threads.
//!
//! `cargo bench --bench heavy` (about a minute). Each iteration renders two new diagrams of
//! 2048 px with 64 arrows, a highlight and a last move, positions and arrows drawn from the
//! iteration's number (so every stamp and cell tile the arrows need may be new, as in a
//! service whose users send new annotations), with one shared `Renderer` whose caches have
//! the 2048 px board's context already (the first drawing of a size is `cold`'s subject):
//!
//! - `heavy/serial`: both renders on one worker, one after the other;
//! - `heavy/parallel`: one render on each of two workers at once.
//!
//! The workers are two long-lived threads, as the service's blocking pool keeps its threads
//! (their per-thread buffers live on between renders). The ratio parallel / serial is the
//! figure the issue asks for: 0.5 is perfect scaling on two cores, 1.0 no gain. The bench
//! sets the C allocator as the `staunton` binary does (`src/allocator.rs`): large buffers
//! mapped and unmapped on their own, which is what makes memory reuse matter here.

use criterion::{Criterion, SamplingMode, criterion_group, criterion_main};
use staunton::Renderer;
use staunton::request::Request;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, mpsc};
use std::time::{Duration, Instant};

/// A small deterministic generator (splitmix64) for positions and arrows.
struct Mix(u64);

impl Mix {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
}

/// The query of heavy diagram number `seed`: kings and up to 12 other pieces on squares
/// drawn from the seed, 64 distinct arrows in four colours, a highlight and a last move.
pub fn heavy_query(seed: u64) -> String {
    let mut mix = Mix(seed);
    let mut board = [b'.'; 64];
    board[mix.below(32) as usize] = b'K';
    board[32 + mix.below(32) as usize] = b'k';
    for _ in 0..12 {
        let at = mix.below(64) as usize;
        if board[at] == b'.' {
            board[at] = b"QRBNPqrbnp"[mix.below(10) as usize];
        }
    }
    let mut fen = String::new();
    for rank in (0..8).rev() {
        let mut empty = 0;
        for file in 0..8 {
            match board[rank * 8 + file] {
                b'.' => empty += 1,
                p => {
                    if empty > 0 {
                        fen.push_str(&empty.to_string());
                        empty = 0;
                    }
                    fen.push(p as char);
                }
            }
        }
        if empty > 0 {
            fen.push_str(&empty.to_string());
        }
        if rank > 0 {
            fen.push('/');
        }
    }
    let square = |i: u64| format!("{}{}", (b'a' + (i % 8) as u8) as char, i / 8 + 1);
    let mut arrows: Vec<String> = Vec::new();
    while arrows.len() < 64 {
        let (from, to) = (mix.below(64), mix.below(64));
        let colour = ["G", "R", "Y", "B"][mix.below(4) as usize];
        let arrow = format!("{colour}{}{}", square(from), square(to));
        if from != to && !arrows.contains(&arrow) {
            arrows.push(arrow);
        }
    }
    format!(
        "fen={fen}&size=2048&arrows={}&highlight=G{}&lastMove={}{}",
        arrows.join(","),
        square(mix.below(64)),
        square(8),
        square(16)
    )
}

/// A worker thread that renders the queries it is sent and says when each is done.
struct Worker {
    jobs: mpsc::Sender<String>,
    done: mpsc::Receiver<usize>,
}

impl Worker {
    fn new(renderer: Arc<Renderer>) -> Worker {
        let (jobs, inbox) = mpsc::channel::<String>();
        let (outbox, done) = mpsc::channel();
        std::thread::spawn(move || {
            for query in inbox {
                let r = Request::from_query(&query, None).expect("valid");
                let png = renderer.png(&r.position, &r.options).expect("renders");
                outbox.send(png.len()).expect("bench waits");
            }
        });
        Worker { jobs, done }
    }

    fn send(&self, query: String) {
        self.jobs.send(query).expect("worker runs");
    }

    fn wait(&self) -> usize {
        self.done.recv().expect("worker answers")
    }
}

/// The time `run` takes over `iters` pairs of new heavy queries (made outside the timing).
fn timed_pairs(iters: u64, next: &dyn Fn() -> u64, run: impl Fn(String, String)) -> Duration {
    let mut total = Duration::ZERO;
    for _ in 0..iters {
        let (a, b) = (heavy_query(next()), heavy_query(next()));
        let t = Instant::now();
        run(a, b);
        total += t.elapsed();
    }
    total
}

#[path = "../src/allocator.rs"]
mod allocator;

fn benches(c: &mut Criterion) {
    allocator::return_memory_promptly();
    let renderer = Arc::new(Renderer::default());
    let workers = [Worker::new(renderer.clone()), Worker::new(renderer.clone())];
    // The 2048 px board's context on both workers' renderer; each worker's buffers warm.
    for (i, w) in workers.iter().enumerate() {
        w.send(heavy_query(1_000_000 + i as u64));
        println!(
            "heavy: a 2048 px diagram with 64 arrows is {} bytes",
            w.wait()
        );
    }
    let seed = AtomicU64::new(1);
    let next = || seed.fetch_add(1, Ordering::Relaxed);
    let mut group = c.benchmark_group("heavy");
    group.sampling_mode(SamplingMode::Flat);
    group.sample_size(10);
    group.measurement_time(Duration::from_secs(20));
    group.bench_function("serial", |b| {
        b.iter_custom(|iters| {
            timed_pairs(iters, &next, |a, b| {
                workers[0].send(a);
                workers[0].wait();
                workers[0].send(b);
                workers[0].wait();
            })
        })
    });
    group.bench_function("parallel", |b| {
        b.iter_custom(|iters| {
            timed_pairs(iters, &next, |a, b| {
                workers[0].send(a);
                workers[1].send(b);
                workers[0].wait();
                workers[1].wait();
            })
        })
    });
    group.finish();
}

criterion_group!(heavy, benches);
criterion_main!(heavy);
