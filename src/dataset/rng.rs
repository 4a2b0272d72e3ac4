//! The dataset's random numbers: one small generator, written here so that a seed makes
//! the same images with every version of every dependency (a crate's generator may change
//! its stream between releases; a training set must not).
//!
//! SplitMix64 (Steele, Lea and Flood, 2014): 64 bits of state, each step adds a constant
//! and mixes. Every image has its own stream, [`Rng::for_image`] of the run's seed and the
//! image's index, so image 41 is the same whether it is drawn alone, in a shard or after
//! 40 others.

/// A stream of random numbers.
#[derive(Debug, Clone)]
pub struct Rng {
    state: u64,
}

const GAMMA: u64 = 0x9e37_79b9_7f4a_7c15;

/// SplitMix64's output function: a strong mix of 64 bits.
fn mix(mut z: u64) -> u64 {
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

impl Rng {
    /// The stream seeded with `seed`.
    pub fn new(seed: u64) -> Rng {
        Rng { state: mix(seed) }
    }

    /// The stream of image `index` of the run seeded with `seed`.
    pub fn for_image(seed: u64, index: u64) -> Rng {
        Rng::new(mix(seed ^ GAMMA).wrapping_add(mix(index)))
    }

    /// A stream of its own for one part of an image (`part` names it), so that a part
    /// draws the same numbers whatever the other parts drew before it.
    pub fn fork(&self, part: u64) -> Rng {
        Rng::new(self.state ^ mix(part.wrapping_add(GAMMA)))
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.state = self.state.wrapping_add(GAMMA);
        mix(self.state)
    }

    /// A number in [0, 1).
    pub fn unit(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 * (1.0 / (1u64 << 53) as f64)
    }

    /// A number in [lo, hi) (lo when they are equal).
    pub fn range(&mut self, lo: f64, hi: f64) -> f64 {
        lo + (hi - lo) * self.unit()
    }

    /// An integer in 0..n (0 when n is 0), without modulo bias worth measuring (n is
    /// small beside 2^64).
    pub fn below(&mut self, n: u64) -> u64 {
        if n == 0 {
            return 0;
        }
        ((u128::from(self.next_u64()) * u128::from(n)) >> 64) as u64
    }

    /// An integer in lo..=hi.
    pub fn between(&mut self, lo: u32, hi: u32) -> u32 {
        lo + self.below(u64::from(hi.saturating_sub(lo)) + 1) as u32
    }

    /// True with probability `p`.
    pub fn chance(&mut self, p: f64) -> bool {
        p > 0.0 && self.unit() < p
    }

    /// A standard normal number (Box–Muller).
    pub fn normal(&mut self) -> f64 {
        let u = 1.0 - self.unit();
        let v = self.unit();
        (-2.0 * u.ln()).sqrt() * (std::f64::consts::TAU * v).cos()
    }

    /// An index into `weights` drawn in proportion to them (`None` when they sum to 0).
    pub fn weighted(&mut self, weights: &[f64]) -> Option<usize> {
        let total: f64 = weights.iter().sum();
        if total <= 0.0 {
            return None;
        }
        let mut x = self.unit() * total;
        for (i, w) in weights.iter().enumerate() {
            if x < *w {
                return Some(i);
            }
            x -= w;
        }
        weights.iter().rposition(|w| *w > 0.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_image_stream_depends_on_the_seed_and_the_index_only() {
        let a: Vec<u64> = (0..4).map(|_| Rng::for_image(7, 41).next_u64()).collect();
        assert!(a.windows(2).all(|w| w[0] == w[1]));
        assert_ne!(
            Rng::for_image(7, 41).next_u64(),
            Rng::for_image(7, 42).next_u64()
        );
        assert_ne!(
            Rng::for_image(7, 41).next_u64(),
            Rng::for_image(8, 41).next_u64()
        );
        // The stream is fixed for good: a seed's images must not change between versions.
        assert_eq!(Rng::new(0).next_u64(), 0xe220_a839_7b1d_cdaf);
    }

    #[test]
    fn numbers_fall_in_their_ranges_and_spread() {
        let mut rng = Rng::new(1);
        let mut counts = [0u32; 4];
        for _ in 0..4000 {
            let u = rng.unit();
            assert!((0.0..1.0).contains(&u));
            counts[rng.below(4) as usize] += 1;
            assert!((3..=5).contains(&rng.between(3, 5)));
        }
        assert!(
            counts.iter().all(|&c| (900..1100).contains(&c)),
            "{counts:?}"
        );
        assert_eq!(rng.weighted(&[0.0, 0.0]), None);
        assert!((0..100).all(|_| rng.weighted(&[0.0, 1.0, 0.0]) == Some(1)));
    }
}
