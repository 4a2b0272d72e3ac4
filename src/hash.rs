//! FNV-1a: the one small, stable hash of the crate (ETags, content-derived SVG names, and
//! hash maps keyed by path data). Stable across runs and platforms; not for keys an attacker
//! chooses to collide.

use std::hash::Hasher;

const OFFSET: u64 = 0xcbf2_9ce4_8422_2325;
const PRIME: u64 = 0x0000_0100_0000_01b3;

/// FNV-1a of `bytes`.
pub fn fnv1a(bytes: impl IntoIterator<Item = u8>) -> u64 {
    bytes
        .into_iter()
        .fold(OFFSET, |hash, b| (hash ^ u64::from(b)).wrapping_mul(PRIME))
}

/// `len` base-36 digits (`0-9a-z`) of `hash`, least significant first.
pub fn base36(mut hash: u64, len: usize) -> String {
    (0..len)
        .map(|_| {
            let digit = b"0123456789abcdefghijklmnopqrstuvwxyz"[(hash % 36) as usize];
            hash /= 36;
            char::from(digit)
        })
        .collect()
}

/// FNV-1a as a [`Hasher`], for maps keyed by content the program itself produced.
#[derive(Default)]
pub struct Fnv(Option<u64>);

impl Hasher for Fnv {
    fn finish(&self) -> u64 {
        self.0.unwrap_or(OFFSET)
    }
    fn write(&mut self, bytes: &[u8]) {
        let mut hash = self.0.unwrap_or(OFFSET);
        for b in bytes {
            hash = (hash ^ u64::from(*b)).wrapping_mul(PRIME);
        }
        self.0 = Some(hash);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn known_values_and_the_hasher_agree() {
        assert_eq!(fnv1a(*b""), 0xcbf2_9ce4_8422_2325);
        assert_eq!(fnv1a(*b"a"), 0xaf63_dc4c_8601_ec8c);
        let mut h = Fnv::default();
        h.write(b"a");
        assert_eq!(h.finish(), fnv1a(*b"a"));
        assert_eq!(base36(35, 2), "z0");
        assert_eq!(base36(36, 2), "01");
    }
}
