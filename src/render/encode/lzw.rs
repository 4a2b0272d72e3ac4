//! GIF's LZW compression of 8-bit palette indices, as a GIF image block wants it: the
//! minimum code size, then the codes packed least-significant bit first.
//!
//! The dictionary is a table of 256 × 4096 next codes (a child per byte and code, byte
//! major: the strings of the few bytes a frame is made of stay within a few kilobytes,
//! in cache), so a step is one load; only the slots written since the last clear are reset. On animation
//! frames (mostly runs of the transparent index) this is several times faster than a
//! general encoder (`benches/games.rs`).

/// Codes are at most 12 bits wide.
const MAX_CODES: usize = 4096;
/// Every index is a byte: the minimum code size is 8 (clear = 256, end = 257).
const MIN_CODE_SIZE: u8 = 8;
const CLEAR: u16 = 256;
const END: u16 = 257;

/// An LZW encoder whose dictionary is kept between calls.
pub struct Lzw {
    /// `next[byte * 4096 + code]`: the code of `code`'s string followed by `byte`, or 0.
    next: Vec<u16>,
    /// The slots of `next` written since the last clear.
    written: Vec<u32>,
    /// Per byte `b`, the codes of `b` repeated 2, 3, 4… times, as far as the dictionary
    /// has them: a run is matched by counting, not by a lookup per byte.
    runs: Vec<Vec<u16>>,
}

impl std::fmt::Debug for Lzw {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Lzw").finish_non_exhaustive()
    }
}

impl Default for Lzw {
    fn default() -> Self {
        Lzw {
            next: vec![0; MAX_CODES * 256],
            written: Vec::with_capacity(MAX_CODES),
            runs: vec![Vec::new(); 256],
        }
    }
}

/// Codes packed least-significant bit first.
struct Bits<'a> {
    out: &'a mut Vec<u8>,
    acc: u64,
    bits: u32,
}

impl Bits<'_> {
    #[inline]
    fn put(&mut self, code: u16, width: u32) {
        self.acc |= u64::from(code) << self.bits;
        self.bits += width;
        while self.bits >= 8 {
            self.out.push(self.acc as u8);
            self.acc >>= 8;
            self.bits -= 8;
        }
    }

    fn finish(self) {
        if self.bits > 0 {
            self.out.push(self.acc as u8);
        }
    }
}

impl Lzw {
    fn clear(&mut self) {
        for &slot in &self.written {
            self.next[slot as usize] = 0;
        }
        self.written.clear();
        for run in &mut self.runs {
            run.clear();
        }
    }

    /// Append the image data of `indices` to `out`: the minimum code size byte, then the
    /// LZW stream (without the sub-block framing).
    pub fn encode(&mut self, indices: &[u8], out: &mut Vec<u8>) {
        out.push(MIN_CODE_SIZE);
        let mut bits = Bits {
            out,
            acc: 0,
            bits: 0,
        };
        let mut width = u32::from(MIN_CODE_SIZE) + 1;
        bits.put(CLEAR, width);
        self.clear();
        let Some(&first) = indices.first() else {
            bits.put(END, width);
            bits.finish();
            return;
        };
        let mut next_code = END + 1;
        let mut prefix = u16::from(first);
        // While `prefix` is `run_byte` repeated `run` times (else `run` is 0).
        let (mut run_byte, mut run) = (first, 1usize);
        let mut i = 1;
        while i < indices.len() {
            let byte = indices[i];
            if run > 0 && byte == run_byte {
                // Follow the run as far as the dictionary and the input go, by counting.
                let codes = &self.runs[usize::from(byte)];
                let longest = codes.len() + 1;
                if run < longest {
                    let more = indices[i..]
                        .iter()
                        .take(longest - run)
                        .take_while(|&&b| b == byte)
                        .count();
                    run += more;
                    i += more;
                    prefix = codes[run - 2];
                    continue;
                }
            }
            let slot = usize::from(byte) * MAX_CODES + usize::from(prefix);
            let child = self.next[slot];
            if child != 0 {
                prefix = child;
                run = if run > 0 && byte == run_byte {
                    run + 1
                } else {
                    0
                };
                i += 1;
                continue;
            }
            bits.put(prefix, width);
            if usize::from(next_code) < MAX_CODES {
                if u32::from(next_code) == 1 << width {
                    width += 1;
                }
                self.next[slot] = next_code;
                self.written.push(slot as u32);
                if run > 0 && byte == run_byte {
                    // The new string is `byte` repeated run + 1 times.
                    self.runs[usize::from(byte)].push(next_code);
                }
                next_code += 1;
            } else {
                bits.put(CLEAR, width);
                self.clear();
                width = u32::from(MIN_CODE_SIZE) + 1;
                next_code = END + 1;
            }
            prefix = u16::from(byte);
            (run_byte, run) = (byte, 1);
            i += 1;
        }
        bits.put(prefix, width);
        bits.put(END, width);
        bits.finish();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Decode a stream as GIF decoders do (the reference for what the encoder must write).
    fn decode(data: &[u8]) -> Vec<u8> {
        let (min, data) = data.split_first().expect("the code size");
        let mut decoder = weezl::decode::Decoder::new(weezl::BitOrder::Lsb, *min);
        decoder.decode(data).expect("decodes")
    }

    #[test]
    fn round_trips_runs_noise_and_long_inputs() {
        let mut lzw = Lzw::default();
        let mut seed = 12345u32;
        let mut noise = || {
            seed = seed.wrapping_mul(1_103_515_245).wrapping_add(12345);
            (seed >> 16) as u8
        };
        let cases: Vec<Vec<u8>> = vec![
            vec![],
            vec![7],
            vec![255; 100_000],
            (0..300_000).map(|_| noise()).collect(),
            (0..200_000u32).map(|i| ((i / 90) % 3) as u8 * 60).collect(),
            (0..50_000u32)
                .map(|i| if i % 7 == 0 { noise() } else { 255 })
                .collect(),
        ];
        for (i, case) in cases.iter().enumerate() {
            let mut out = Vec::new();
            lzw.encode(case, &mut out);
            assert_eq!(decode(&out), *case, "case {i}");
        }
        // Runs compress: 100,000 equal bytes take a few hundred codes.
        let mut out = Vec::new();
        lzw.encode(&[255; 100_000], &mut out);
        assert!(out.len() < 1000, "{} bytes", out.len());
    }
}
