//! The measured speed of renders ([`Pace`]): the seconds one cost unit takes, learnt from
//! the renders that ran, by which the pool admits or refuses work against a deadline.

use std::sync::atomic::{AtomicU64, Ordering};

/// Seconds per cost unit assumed before any render has been measured: above what the
/// release build takes on the 2-core machine of the book's figures, 0.1–0.7 ns a unit
/// from a 2048 px board under 64 arrows to a 256 px plain one (`cargo bench --bench cost`;
/// see Reliability and operations). It was 2 ns while heavy renders mapped their buffers.
pub const DEFAULT_SECONDS_PER_UNIT: f64 = 1e-9;

/// Renders smaller than this many units are not measured for the pace: their time is
/// mostly fixed costs, not units.
const MEASURED_UNITS: u64 = 250_000;

/// The measured speed of renders: seconds per cost unit, rising fast towards a slower
/// render's (at most doubling with one render, so one cold render that drew a new size's
/// sprites does not make everything look slow) and falling slowly (a tenth of the way to a
/// faster one), so that a burst of slow work is never underestimated for long.
#[derive(Debug)]
pub struct Pace(AtomicU64);

impl Default for Pace {
    fn default() -> Self {
        Pace(AtomicU64::new(DEFAULT_SECONDS_PER_UNIT.to_bits()))
    }
}

impl Pace {
    /// Seconds per unit now.
    pub fn seconds_per_unit(&self) -> f64 {
        f64::from_bits(self.0.load(Ordering::Relaxed))
    }

    /// Learn from a render of `units` that took `seconds`.
    pub fn observe(&self, units: u64, seconds: f64) {
        if units < MEASURED_UNITS {
            return;
        }
        let sample = seconds / units as f64;
        let _ = self
            .0
            .fetch_update(Ordering::Relaxed, Ordering::Relaxed, |bits| {
                let old = f64::from_bits(bits);
                let new = match sample > old {
                    true => sample.min(2.0 * old),
                    false => old * 0.9 + sample * 0.1,
                };
                Some(new.to_bits())
            });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_pace_rises_fast_and_falls_slowly_and_ignores_small_renders() {
        let pace = Pace::default();
        let start = pace.seconds_per_unit();
        pace.observe(1000, 10.0);
        assert_eq!(
            pace.seconds_per_unit(),
            start,
            "a small render says nothing"
        );
        pace.observe(1_000_000, 1_000_000.0 * start * 1.5);
        assert!((pace.seconds_per_unit() - 1.5 * start).abs() < start * 1e-9);
        pace.observe(1_000_000, 1_000_000.0 * start * 100.0);
        assert!(
            (pace.seconds_per_unit() - 3.0 * start).abs() < start * 1e-9,
            "at most doubled"
        );
        pace.observe(1_000_000, 0.0);
        assert!((pace.seconds_per_unit() - 2.7 * start).abs() < start * 1e-9);
    }
}
