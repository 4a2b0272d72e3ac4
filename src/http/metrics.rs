//! Service metrics in the Prometheus text format.
//!
//! Owns the counters and the render-duration histogram; `/metrics` writes them with the
//! cache figures the state adds.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::sync::Mutex;
use std::sync::atomic::{AtomicU64, Ordering};

/// Upper bounds of the render-duration buckets, in seconds.
const BUCKETS: [f64; 10] = [
    0.00025, 0.0005, 0.001, 0.002, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25,
];

/// Counters of the service.
#[derive(Debug, Default)]
pub struct Metrics {
    requests: Mutex<BTreeMap<(String, u16), u64>>,
    render_buckets: [AtomicU64; BUCKETS.len()],
    render_count: AtomicU64,
    render_micros: AtomicU64,
    /// Answers from the image cache.
    pub hits: AtomicU64,
    /// Renders (cache misses).
    pub misses: AtomicU64,
    /// Requests turned away with 503 because the render queue was full.
    pub rejected: AtomicU64,
}

impl Metrics {
    /// Count one answer of `route` with `status`.
    pub fn request(&self, route: &str, status: u16) {
        if let Ok(mut map) = self.requests.lock() {
            *map.entry((route.to_string(), status)).or_insert(0) += 1;
        }
    }

    /// Record one render that took `seconds`.
    pub fn render(&self, seconds: f64) {
        for (bucket, bound) in self.render_buckets.iter().zip(BUCKETS) {
            if seconds <= bound {
                bucket.fetch_add(1, Ordering::Relaxed);
            }
        }
        self.render_count.fetch_add(1, Ordering::Relaxed);
        self.render_micros
            .fetch_add((seconds * 1e6) as u64, Ordering::Relaxed);
    }

    /// The Prometheus text, with the gauges the caller knows.
    pub fn render_text(
        &self,
        cache_entries: u64,
        cache_bytes: u64,
        queue_depth: u64,
        caches: &[crate::cache::Usage],
    ) -> String {
        let mut out = String::with_capacity(2048);
        let _ = writeln!(
            out,
            "# HELP staunton_requests_total HTTP answers by route and status."
        );
        let _ = writeln!(out, "# TYPE staunton_requests_total counter");
        if let Ok(map) = self.requests.lock() {
            for ((route, status), n) in map.iter() {
                let _ = writeln!(
                    out,
                    "staunton_requests_total{{route=\"{route}\",status=\"{status}\"}} {n}"
                );
            }
        }
        let _ = writeln!(
            out,
            "# HELP staunton_render_seconds Time to render one image (cache misses)."
        );
        let _ = writeln!(out, "# TYPE staunton_render_seconds histogram");
        for (bucket, bound) in self.render_buckets.iter().zip(BUCKETS) {
            let _ = writeln!(
                out,
                "staunton_render_seconds_bucket{{le=\"{bound}\"}} {}",
                bucket.load(Ordering::Relaxed)
            );
        }
        let count = self.render_count.load(Ordering::Relaxed);
        let _ = writeln!(out, "staunton_render_seconds_bucket{{le=\"+Inf\"}} {count}");
        let sum = self.render_micros.load(Ordering::Relaxed) as f64 / 1e6;
        let _ = writeln!(out, "staunton_render_seconds_sum {sum}");
        let _ = writeln!(out, "staunton_render_seconds_count {count}");
        let counters = [
            (
                "staunton_cache_hits_total",
                "Answers from the image cache.",
                &self.hits,
            ),
            (
                "staunton_cache_misses_total",
                "Images rendered.",
                &self.misses,
            ),
            (
                "staunton_rejected_total",
                "Requests answered 503 because the render queue was full.",
                &self.rejected,
            ),
        ];
        for (name, help, value) in counters {
            let _ = writeln!(
                out,
                "# HELP {name} {help}\n# TYPE {name} counter\n{name} {}",
                value.load(Ordering::Relaxed)
            );
        }
        let gauges = [
            (
                "staunton_cache_entries",
                "Images in the cache.",
                cache_entries,
            ),
            (
                "staunton_cache_weighted_bytes",
                "Bytes held by the image cache.",
                cache_bytes,
            ),
            (
                "staunton_render_queue_depth",
                "Renders running or waiting.",
                queue_depth,
            ),
        ];
        for (name, help, value) in gauges {
            let _ = writeln!(
                out,
                "# HELP {name} {help}\n# TYPE {name} gauge\n{name} {value}"
            );
        }
        type Field = fn(&crate::cache::Usage) -> u64;
        let per_cache: [(&str, &str, Field); 3] = [
            (
                "staunton_cache_bytes",
                "Bytes held by each cache (its entries' weights).",
                |u| u.bytes,
            ),
            (
                "staunton_cache_bound_bytes",
                "The most each cache holds.",
                |u| u.bound,
            ),
            (
                "staunton_cache_entries_held",
                "Entries held by each cache.",
                |u| u.entries,
            ),
        ];
        for (name, help, field) in per_cache {
            let _ = writeln!(out, "# HELP {name} {help}\n# TYPE {name} gauge");
            for usage in caches {
                let _ = writeln!(out, "{name}{{cache=\"{}\"}} {}", usage.name, field(usage));
            }
        }
        out
    }
}
