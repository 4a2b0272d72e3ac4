//! A zlib (RFC 1950 / RFC 1951) compressor made for our PNG scanlines.
//!
//! The PNG writer filters every row with the Up filter, and the pixels are 8-bit palette
//! indices, so what reaches the compressor is mostly long runs of zero with pockets of
//! literal bytes (piece outlines, antialiased edges, glyphs). For that data two things
//! matter, and nothing else paid off:
//!
//! - **Run-length matches only.** A byte that repeats the previous one starts a run; the
//!   run becomes matches of distance 1 (length 3..=258). There is no hash table and no
//!   match search: runs are measured eight bytes at a time (a `u64` compared with the byte
//!   splatted), so a long run of zeros costs little more than a memory scan.
//! - **A dynamic Huffman code fitted to each block.** The literals are few distinct values
//!   (0, ±1, ±2, … after the filter) and the match lengths cluster (full 258s, row
//!   remainders), so a code fitted to the block is far shorter than the fixed code.
//!
//! Measured on the start position (`cargo bench --bench deflate`): 400 × 400 px scanlines
//! deflate to 10.7 KB in 80 µs (fdeflate's fixed-code compressor: 17.3 KB in 54 µs),
//! 720 px to 20.2 KB in 171 µs (fdeflate: 34.8 KB in 157 µs). Adding matches at other
//! distances (e.g. the row above, or a general LZ77 search) made the output *larger*: the
//! Up filter has already turned vertical repetition into zero runs, and every extra
//! distance costs bits in the code.
//!
//! Each block holds at most [`BLOCK_TOKENS`] tokens, so memory is bounded by the block,
//! not the input. A block is written with whichever of the dynamic code, the fixed code
//! or stored bytes is smallest (stored bytes cap the growth of incompressible input).
//!
//! ```
//! use staunton::render::encode::deflate::Deflater;
//!
//! let mut deflater = Deflater::default();
//! let mut out = Vec::new();
//! deflater.zlib(&[0; 4096], &mut out);
//! assert!(out.len() < 40);
//! ```

use simd_adler32::adler32;

/// Most tokens (literals and matches) in one deflate block: bounds the token buffer.
pub const BLOCK_TOKENS: usize = 1 << 16;
/// Shortest run emitted as matches; shorter ones become literals (3 measured smaller
/// than 4 on our scanlines).
const MIN_MATCH: usize = 3;
/// Longest deflate match.
const MAX_MATCH: usize = 258;
/// Longest run measured in one tokeniser step, so that one step adds few tokens.
const RUN_CHUNK: usize = MAX_MATCH * 64;
/// Most tokens one tokeniser step adds: the matches of one run chunk, rounded up.
const STEP_TOKENS: usize = RUN_CHUNK / MAX_MATCH + 2;
/// Tokens per chunk: the block splitter decides, chunk by chunk, whether a chunk joins the
/// block or starts a new one. Every block costs a few microseconds (two Huffman codes and
/// their tables), so larger chunks, and fewer blocks, buy speed with a little size: chunks
/// of 512 and [`BLOCK_BITS`] 100 made the start position 1.4–2 % smaller but 30–40 %
/// slower to deflate (16 blocks instead of 7 at 400 px).
const CHUNK_TOKENS: usize = 1024;

/// Token values: `0..256` a literal byte, `256 + length - 3` a match of distance 1.
const TOKEN_VALUES: usize = 512;
/// Literal/length symbols a block can use (286 and 287 are reserved).
const LIT_SYMBOLS: usize = 286;
const END_OF_BLOCK: usize = 256;
/// Code-length alphabet: lengths 0..=15, then the run codes 16, 17 and 18.
const CL_SYMBOLS: usize = 19;
/// The order in which the code-length code's lengths are written.
const CL_ORDER: [usize; CL_SYMBOLS] = [
    16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15,
];
const MAX_LIT_BITS: u8 = 15;
const MAX_CL_BITS: u8 = 7;

/// First length of each length code (symbols 257..=285).
const LEN_BASE: [u16; 29] = [
    3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 15, 17, 19, 23, 27, 31, 35, 43, 51, 59, 67, 83, 99, 115, 131,
    163, 195, 227, 258,
];
/// Extra bits of each length code.
const LEN_EXTRA: [u8; 29] = [
    0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0,
];
/// Code lengths of the fixed literal/length code (RFC 1951 § 3.2.6), all 288 symbols:
/// the two reserved ones count when the canonical codes are assigned.
const FIXED_LIT_LENGTHS: [u8; 288] = {
    let mut lengths = [8u8; 288];
    let mut s = 144;
    while s < 256 {
        lengths[s] = 9;
        s += 1;
    }
    while s < 280 {
        lengths[s] = 7;
        s += 1;
    }
    lengths
};
/// The fixed distance code: 5 bits each (only distance 1, symbol 0, is used).
const FIXED_DIST_LENGTHS: [u8; 30] = [5; 30];
/// Our dynamic distance code: only symbol 0 (distance 1) is used, but two codes of one
/// bit make a complete code, which every inflater accepts (a lone code is a special case).
const DYNAMIC_DIST_LENGTHS: [u8; 2] = [1, 1];

/// Buffers kept between calls.
#[derive(Default, Debug)]
pub struct Deflater {
    /// Tokens of the block being built, then of the chunk being tokenised (see
    /// [`TOKEN_VALUES`]).
    tokens: Vec<u16>,
}

impl Deflater {
    /// Append the zlib stream of `data` to `out`.
    pub fn zlib(&mut self, data: &[u8], out: &mut Vec<u8>) {
        // CMF: deflate, 32 KiB window; FLG: fastest compression, check bits.
        out.extend_from_slice(&[0x78, 0x01]);
        // There are never more tokens than bytes; a block holds at most BLOCK_TOKENS, the
        // chunk after it at most CHUNK_TOKENS plus one tokeniser step; the tokeniser
        // writes up to 8 tokens past its end.
        let room = data.len().min(BLOCK_TOKENS + CHUNK_TOKENS + STEP_TOKENS) + 8;
        if self.tokens.len() < room {
            self.tokens.resize(room, 0);
        }
        let tokens = &mut self.tokens[..];
        let mut bits = Bits::default();
        let mut block = Histogram::default();
        let mut chunk = Histogram::default();
        let mut merged = [0f32; PADDED_SYMBOLS]; // f·log2(f) of block + chunk
        let mut block_start = 0; // where the block's input starts
        let mut i = 0;
        loop {
            let chunk_start = i;
            let (end, block_end) = tokenize(data, i, tokens, block.tokens);
            i = end;
            chunk.count(&tokens[block.tokens..block_end]);
            let last = i == data.len();
            if block.tokens + chunk.tokens > BLOCK_TOKENS
                || block.worth_splitting(&mut chunk, &mut merged)
            {
                if block.tokens > 0 {
                    write_block(
                        &mut bits,
                        out,
                        &tokens[..block.tokens],
                        &block.freq,
                        &data[block_start..chunk_start],
                        false,
                    );
                }
                tokens.copy_within(block.tokens..block_end, 0);
                std::mem::swap(&mut block, &mut chunk);
                block_start = chunk_start;
            } else {
                block.add(&chunk, &merged);
            }
            if last {
                write_block(
                    &mut bits,
                    out,
                    &tokens[..block.tokens],
                    &block.freq,
                    &data[block_start..],
                    true,
                );
                break;
            }
        }
        bits.align(out);
        out.extend_from_slice(&adler32(&data).to_be_bytes());
    }

    /// Bytes held by the buffers.
    pub fn capacity(&self) -> usize {
        self.tokens.capacity() * size_of::<u16>()
    }
}

/// Literal/length symbols rounded up to a multiple of 8 lanes (286 and 287 stay 0).
const PADDED_SYMBOLS: usize = 288;

/// Literal/length symbol counts of a block or chunk (end of block not counted), and for
/// the block splitter `f·log2(f)` of each.
struct Histogram {
    freq: [u32; PADDED_SYMBOLS],
    f_log_f: [f32; PADDED_SYMBOLS],
    tokens: usize,
}

impl Default for Histogram {
    fn default() -> Self {
        Self {
            freq: [0; PADDED_SYMBOLS],
            f_log_f: [0.0; PADDED_SYMBOLS],
            tokens: 0,
        }
    }
}

/// Header cost of a used symbol, in bits, for the block splitter's estimate.
const HEADER_BITS_PER_SYMBOL: f32 = 4.0;
/// Fixed cost of a new block in bits, for the block splitter's estimate.
const BLOCK_BITS: f32 = 300.0;

impl Histogram {
    /// Set the counts to those of `tokens` (`f_log_f` is left for `worth_splitting`).
    fn count(&mut self, tokens: &[u16]) {
        // Two tables, so that repeated tokens do not wait on each other's increments.
        let mut counts = [[0u32; TOKEN_VALUES]; 2];
        let mut pairs = tokens.chunks_exact(2);
        for pair in &mut pairs {
            counts[0][usize::from(pair[0]) % TOKEN_VALUES] += 1;
            counts[1][usize::from(pair[1]) % TOKEN_VALUES] += 1;
        }
        for &t in pairs.remainder() {
            counts[0][usize::from(t) % TOKEN_VALUES] += 1;
        }
        let freq = &mut self.freq;
        for (f, (a, b)) in freq[..256].iter_mut().zip(counts[0].iter().zip(&counts[1])) {
            *f = a + b;
        }
        freq[256] = 0;
        // Each length code's lengths, summed in a register.
        for (code, f) in freq[257..LIT_SYMBOLS].iter_mut().enumerate() {
            let first = 256 + usize::from(LEN_BASE[code]) - 3;
            let last = LEN_BASE
                .get(code + 1)
                .map_or(TOKEN_VALUES, |&b| 256 + usize::from(b) - 3);
            *f = counts[0][first..last].iter().sum::<u32>()
                + counts[1][first..last].iter().sum::<u32>();
        }
        self.tokens = tokens.len();
    }

    /// Add `chunk`, given `merged`, the `f·log2(f)` of the sums.
    fn add(&mut self, chunk: &Histogram, merged: &[f32; PADDED_SYMBOLS]) {
        for (a, &b) in self.freq.iter_mut().zip(&chunk.freq) {
            *a += b;
        }
        self.f_log_f = *merged;
        self.tokens += chunk.tokens;
    }

    /// Whether `chunk` had better start a new block than join this one (always if this one
    /// is empty). Estimated size of a block: the entropy `T·log2(T) − Σ f·log2(f)` of its
    /// symbols, plus [`HEADER_BITS_PER_SYMBOL`] per used symbol; a new block costs
    /// [`BLOCK_BITS`]. Fills in `chunk.f_log_f`, and `merged` for [`Histogram::add`].
    fn worth_splitting(&self, chunk: &mut Histogram, merged: &mut [f32; PADDED_SYMBOLS]) -> bool {
        // Σ g(a + c) − g(a) − g(c) over the symbols (zero unless both use the symbol), in
        // eight lanes so that it vectorises.
        let mut mixed = [0f32; 8];
        let mut shared = [0u32; 8];
        let lanes = self
            .freq
            .chunks_exact(8)
            .zip(self.f_log_f.chunks_exact(8))
            .zip(chunk.freq.chunks_exact(8))
            .zip(chunk.f_log_f.chunks_exact_mut(8))
            .zip(merged.chunks_exact_mut(8));
        for ((((a, a_g), c), c_g), m_g) in lanes {
            for j in 0..8 {
                c_g[j] = f_log_f(c[j]);
                m_g[j] = f_log_f(a[j] + c[j]);
                mixed[j] += m_g[j] - a_g[j] - c_g[j];
                shared[j] += u32::from(a[j] != 0) & u32::from(c[j] != 0);
            }
        }
        if self.tokens == 0 {
            return true;
        }
        let mixed: f32 = mixed.iter().sum();
        let shared: u32 = shared.iter().sum();
        let (ta, tc) = (self.tokens as u32, chunk.tokens as u32);
        let one_block_more = f_log_f(ta + tc)
            - f_log_f(ta)
            - f_log_f(tc)
            - mixed
            - HEADER_BITS_PER_SYMBOL * shared as f32;
        one_block_more > BLOCK_BITS
    }
}

/// `f·log2(f)` (0 for 0), to within about 0.005·f: log2 from the float's exponent and a
/// quadratic in its mantissa.
#[inline(always)]
fn f_log_f(f: u32) -> f32 {
    let x = f as i32 as f32; // the counts are far below 2^31
    let bits = x.to_bits();
    let exponent = (bits >> 23) as f32 - 127.0;
    let m = f32::from_bits(bits & 0x007f_ffff | 0x3f80_0000) - 1.0;
    x * (exponent + m + 0.3466 * m * (1.0 - m))
}

/// Tokenise `data[i..]` into `tokens[k..]` until the chunk has [`CHUNK_TOKENS`] tokens (a
/// step more at most) or the input ends. Returns where the input and the tokens stopped.
/// Writes up to 8 tokens past the returned end.
fn tokenize(data: &[u8], mut i: usize, tokens: &mut [u16], mut k: usize) -> (usize, usize) {
    const ONES: u64 = u64::from_ne_bytes([0x01; 8]);
    const HIGHS: u64 = u64::from_ne_bytes([0x80; 8]);
    let n = data.len();
    let limit = k + CHUNK_TOKENS;
    if i == 0 {
        let Some(&first) = data.first() else {
            return (0, k);
        };
        tokens[k] = u16::from(first);
        k += 1;
        i = 1;
    }
    while i < n && k < limit {
        if i + 8 <= n {
            // Eight bytes at once: those up to the first that equals its predecessor are
            // literals (all eight are written; only those are kept).
            let word = u64::from_le_bytes(data[i..i + 8].try_into().expect("8 bytes"));
            let before = u64::from_le_bytes(data[i - 1..i + 7].try_into().expect("8 bytes"));
            let diff = word ^ before;
            // The lowest zero byte of `diff` is flagged exactly (higher flags may be false).
            let equal = diff.wrapping_sub(ONES) & !diff & HIGHS;
            let literals = (equal.trailing_zeros() / 8) as usize; // 8 if none
            for (j, token) in tokens[k..k + 8].iter_mut().enumerate() {
                *token = u16::from((word >> (8 * j)) as u8);
            }
            k += literals;
            i += literals;
            if literals == 8 {
                continue;
            }
        } else if data[i] != data[i - 1] {
            tokens[k] = u16::from(data[i]);
            k += 1;
            i += 1;
            continue;
        }
        // data[i] repeats data[i - 1]: a run.
        let byte = data[i];
        let run = run_length(data, i, byte);
        i += run;
        if run <= MAX_MATCH {
            // One match, or one or two literals.
            let is_match = run >= MIN_MATCH;
            tokens[k] = if is_match {
                (256 + run - 3) as u16
            } else {
                u16::from(byte)
            };
            tokens[k + 1] = u16::from(byte);
            k += if is_match { 1 } else { run };
            continue;
        }
        // Split the run into matches, none shorter than MIN_MATCH.
        let mut left = run;
        while left > 0 {
            let mut len = left.min(MAX_MATCH);
            if left - len != 0 && left - len < MIN_MATCH {
                len = left - MIN_MATCH;
            }
            tokens[k] = (256 + len - 3) as u16;
            k += 1;
            left -= len;
        }
    }
    (i, k)
}

/// How many bytes from `data[i]` on equal `byte` (at most [`RUN_CHUNK`]), 32 then 8 at a
/// time.
#[inline]
fn run_length(data: &[u8], i: usize, byte: u8) -> usize {
    let end = data.len().min(i + RUN_CHUNK);
    let splat = u64::from_ne_bytes([byte; 8]);
    let word = |j: usize| u64::from_le_bytes(data[j..j + 8].try_into().expect("8 bytes")) ^ splat;
    let mut j = i;
    while j + 32 <= end && (word(j) | word(j + 8) | word(j + 16) | word(j + 24)) == 0 {
        j += 32;
    }
    while j + 8 <= end {
        let w = word(j);
        if w != 0 {
            return j - i + (w.trailing_zeros() / 8) as usize;
        }
        j += 8;
    }
    while j < end && data[j] == byte {
        j += 1;
    }
    j - i
}

/// Write one block of `tokens` (which encode `raw`) in the cheapest of the three forms.
fn write_block(
    bits: &mut Bits,
    out: &mut Vec<u8>,
    tokens: &[u16],
    block_freq: &[u32; PADDED_SYMBOLS],
    raw: &[u8],
    last: bool,
) {
    let mut freq = [0u32; LIT_SYMBOLS];
    freq.copy_from_slice(&block_freq[..LIT_SYMBOLS]);
    freq[END_OF_BLOCK] = 1;
    let mut extra_bits = 0u64;
    let mut matches = 0u64;
    for (&count, &extra) in freq[257..].iter().zip(&LEN_EXTRA) {
        extra_bits += u64::from(count) * u64::from(extra);
        matches += u64::from(count);
    }

    let mut lit_lengths = [0u8; LIT_SYMBOLS];
    huffman_lengths(&freq, MAX_LIT_BITS, &mut lit_lengths);
    let header = DynamicHeader::new(&lit_lengths, &DYNAMIC_DIST_LENGTHS);
    let dynamic = 3
        + header.bits
        + cost(&freq, &lit_lengths)
        + extra_bits
        + matches * u64::from(DYNAMIC_DIST_LENGTHS[0]);
    let fixed = 3
        + cost(&freq, &FIXED_LIT_LENGTHS)
        + extra_bits
        + matches * u64::from(FIXED_DIST_LENGTHS[0]);
    // Each stored piece: 3 header bits, padding to a byte (≤ 7), LEN and NLEN, the bytes.
    let pieces = raw.len().div_ceil(usize::from(u16::MAX)).max(1) as u64;
    let stored = pieces * (3 + 7 + 32) + 8 * raw.len() as u64;

    if stored < dynamic.min(fixed) {
        write_stored(bits, out, raw, last);
    } else if fixed <= dynamic {
        bits.put(out, u32::from(last) | 1 << 1, 3);
        let (table, end_of_block) = token_table(&FIXED_LIT_LENGTHS, &FIXED_DIST_LENGTHS);
        bits.put_tokens(out, tokens, &table, end_of_block);
    } else {
        bits.put(out, u32::from(last) | 2 << 1, 3);
        header.write(bits, out);
        let (table, end_of_block) = token_table(&lit_lengths, &DYNAMIC_DIST_LENGTHS);
        bits.put_tokens(out, tokens, &table, end_of_block);
    }
}

/// Stored block(s) of `raw`, at most 65535 bytes each.
fn write_stored(bits: &mut Bits, out: &mut Vec<u8>, raw: &[u8], last: bool) {
    let mut pieces = raw.chunks(usize::from(u16::MAX)).peekable();
    if pieces.peek().is_none() {
        bits.put(out, u32::from(last), 3);
        bits.align(out);
        out.extend_from_slice(&[0, 0, 0xff, 0xff]);
        return;
    }
    while let Some(piece) = pieces.next() {
        let final_piece = last && pieces.peek().is_none();
        bits.put(out, u32::from(final_piece), 3);
        bits.align(out);
        let len = piece.len() as u16;
        out.extend_from_slice(&len.to_le_bytes());
        out.extend_from_slice(&(!len).to_le_bytes());
        out.extend_from_slice(piece);
    }
}

/// Bits to code symbols with frequencies `freq` with code `lengths` (extra bits aside).
fn cost(freq: &[u32], lengths: &[u8]) -> u64 {
    freq.iter()
        .zip(lengths)
        .map(|(&f, &l)| u64::from(f) * u64::from(l))
        .sum()
}

/// For every token value, its bits (reversed Huffman code, then the length's extra bits,
/// then the distance code) as `bits << 6 | bit count`, and the end-of-block code likewise.
/// Unused symbols get count 0.
fn token_table(lit_lengths: &[u8], dist_lengths: &[u8]) -> ([u32; TOKEN_VALUES], u32) {
    let mut lit_codes = [0u16; 288];
    canonical_codes(lit_lengths, &mut lit_codes[..lit_lengths.len()]);
    let mut dist_codes = [0u16; 30];
    canonical_codes(dist_lengths, &mut dist_codes[..dist_lengths.len()]);
    let (dist_code, dist_len) = (u32::from(dist_codes[0]), u32::from(dist_lengths[0]));

    let mut table = [0u32; TOKEN_VALUES];
    for (byte, entry) in table[..256].iter_mut().enumerate() {
        *entry = u32::from(lit_codes[byte]) << 6 | u32::from(lit_lengths[byte]);
    }
    // Each length code's lengths: its Huffman code, then the extra bits counting up from
    // its first length, then the distance code.
    for (code, (&base, &extra_len)) in LEN_BASE.iter().zip(&LEN_EXTRA).enumerate() {
        let symbol = 257 + code;
        let huffman_len = u32::from(lit_lengths[symbol]);
        let extra_len = u32::from(extra_len);
        let head = u32::from(lit_codes[symbol]) | dist_code << (huffman_len + extra_len);
        let bit_count = huffman_len + extra_len + dist_len;
        let first = 256 + usize::from(base) - 3;
        // 258 has a code of its own, though the code before it has 5 extra bits.
        let last = LEN_BASE
            .get(code + 1)
            .map_or(TOKEN_VALUES, |&b| 256 + usize::from(b) - 3);
        for (extra, entry) in (0u32..).zip(&mut table[first..last]) {
            *entry = (head | extra << huffman_len) << 6 | bit_count;
        }
    }
    let end_of_block =
        u32::from(lit_codes[END_OF_BLOCK]) << 6 | u32::from(lit_lengths[END_OF_BLOCK]);
    (table, end_of_block)
}

/// The header of a dynamic block: counts, the code-length code, the run-coded lengths.
struct DynamicHeader {
    hlit: usize,
    hdist: usize,
    hclen: usize,
    /// Code-length symbols with their extra-bit values.
    items: [(u8, u8); LIT_SYMBOLS + 30],
    item_count: usize,
    cl_lengths: [u8; CL_SYMBOLS],
    cl_codes: [u16; CL_SYMBOLS],
    /// Header size in bits, after BFINAL and BTYPE.
    bits: u64,
}

impl DynamicHeader {
    fn new(lit_lengths: &[u8; LIT_SYMBOLS], dist_lengths: &[u8]) -> Self {
        let hlit = lit_lengths
            .iter()
            .rposition(|&l| l != 0)
            .map_or(0, |p| p + 1)
            .max(257);
        let hdist = dist_lengths.len();
        let mut all = [0u8; LIT_SYMBOLS + 30];
        all[..hlit].copy_from_slice(&lit_lengths[..hlit]);
        all[hlit..hlit + hdist].copy_from_slice(dist_lengths);
        let all = &all[..hlit + hdist];

        // Run-code the lengths with 16 (repeat previous 3..=6), 17 (3..=10 zeros) and 18
        // (11..=138 zeros).
        let mut items = [(0u8, 0u8); LIT_SYMBOLS + 30];
        let mut item_count = 0;
        let mut push = |symbol: u8, extra: usize| {
            items[item_count] = (symbol, extra as u8);
            item_count += 1;
        };
        let mut k = 0;
        while k < all.len() {
            let len = all[k];
            let run = all[k..].iter().take_while(|&&l| l == len).count();
            k += run;
            let mut left = run;
            if len == 0 {
                while left >= 11 {
                    let n = left.min(138);
                    push(18, n - 11);
                    left -= n;
                }
                if left >= 3 {
                    push(17, left - 3);
                    left = 0;
                }
            } else {
                push(len, 0);
                left -= 1;
                while left >= 3 {
                    let n = left.min(6);
                    push(16, n - 3);
                    left -= n;
                }
            }
            for _ in 0..left {
                push(len, 0);
            }
        }

        let mut cl_freq = [0u32; CL_SYMBOLS];
        for &(symbol, _) in &items[..item_count] {
            cl_freq[usize::from(symbol)] += 1;
        }
        let mut cl_lengths = [0u8; CL_SYMBOLS];
        huffman_lengths(&cl_freq, MAX_CL_BITS, &mut cl_lengths);
        let mut cl_codes = [0u16; CL_SYMBOLS];
        canonical_codes(&cl_lengths, &mut cl_codes);
        let hclen = CL_ORDER
            .iter()
            .rposition(|&s| cl_lengths[s] != 0)
            .map_or(0, |p| p + 1)
            .max(4);
        let extra = [2u64, 3, 7];
        let bits = 5
            + 5
            + 4
            + 3 * hclen as u64
            + items[..item_count]
                .iter()
                .map(|&(s, _)| {
                    let s = usize::from(s);
                    u64::from(cl_lengths[s]) + if s >= 16 { extra[s - 16] } else { 0 }
                })
                .sum::<u64>();
        Self {
            hlit,
            hdist,
            hclen,
            items,
            item_count,
            cl_lengths,
            cl_codes,
            bits,
        }
    }

    fn write(&self, bits: &mut Bits, out: &mut Vec<u8>) {
        bits.put(out, (self.hlit - 257) as u32, 5);
        bits.put(out, (self.hdist - 1) as u32, 5);
        bits.put(out, (self.hclen - 4) as u32, 4);
        for &s in &CL_ORDER[..self.hclen] {
            bits.put(out, u32::from(self.cl_lengths[s]), 3);
        }
        for &(symbol, extra) in &self.items[..self.item_count] {
            let s = usize::from(symbol);
            bits.put(
                out,
                u32::from(self.cl_codes[s]),
                u32::from(self.cl_lengths[s]),
            );
            match symbol {
                16 => bits.put(out, u32::from(extra), 2),
                17 => bits.put(out, u32::from(extra), 3),
                18 => bits.put(out, u32::from(extra), 7),
                _ => {}
            }
        }
    }
}

/// The symbols (positions) whose value in `values` is not zero, in order, into `out`;
/// returns how many. Without branches: every symbol is written, the used ones kept.
fn used_symbols<T: Copy + Default + PartialEq>(values: &[T], out: &mut [u16]) -> usize {
    let mut n = 0;
    for (symbol, &v) in values.iter().enumerate() {
        out[n] = symbol as u16;
        n += usize::from(v != T::default());
    }
    n
}

/// Code lengths of a prefix code for symbols with frequencies `freq`, none longer than
/// `limit` bits (unused symbols get 0). The code is a minimum-redundancy (Huffman) code,
/// computed in place (Moffat and Katajainen); if that is too deep, the overlong codes are
/// clamped to `limit` and the Kraft sum is brought back to one by moving leaves down from
/// the deepest level with room (as miniz does), the longest codes going to the least
/// frequent symbols. A lone used symbol gets a partner so that the code is complete.
fn huffman_lengths(freq: &[u32], limit: u8, lengths: &mut [u8]) {
    assert!(freq.len() <= LIT_SYMBOLS && lengths.len() == freq.len() && limit <= 15);
    lengths.fill(0);
    // Sort the used symbols by frequency, ties by symbol. First gather them, then a counting
    // sort for the frequencies below 256 (most of them) and a comparison sort for the others.
    let mut gathered = [0u16; LIT_SYMBOLS];
    let used = used_symbols(freq, &mut gathered);
    let gathered = &gathered[..used];
    let mut start = [0u32; 257];
    let mut large = [0u64; LIT_SYMBOLS];
    let mut large_count = 0;
    for &symbol in gathered {
        let f = freq[usize::from(symbol)];
        start[(f as usize).min(256)] += 1;
        large[large_count] = u64::from(f) << 16 | u64::from(symbol);
        large_count += usize::from(f > 255);
    }
    let small_count = used - large_count;
    // Exclusive prefix sums over 1..=255, the small frequencies.
    let mut at = 0;
    for s in &mut start[1..256] {
        let count = *s;
        *s = at;
        at += count;
    }
    let mut order = [0u16; LIT_SYMBOLS];
    for &symbol in gathered {
        let f = freq[usize::from(symbol)] as usize;
        if f < 256 {
            order[start[f] as usize] = symbol;
            start[f] += 1;
        }
    }
    let large = &mut large[..large_count];
    large.sort_unstable();
    for (o, &key) in order[small_count..used].iter_mut().zip(large.iter()) {
        *o = key as u16;
    }
    let order = &order[..used];

    match order {
        [] => return,
        &[symbol] => {
            let symbol = usize::from(symbol);
            lengths[symbol] = 1;
            lengths[usize::from(symbol == 0)] = 1;
            return;
        }
        _ => {}
    }
    let mut depth = [0u64; LIT_SYMBOLS + 1];
    for (d, &symbol) in depth.iter_mut().zip(order) {
        *d = u64::from(freq[usize::from(symbol)]);
    }
    minimum_redundancy(&mut depth[..=used]);
    let depth = &mut depth[..used];

    let limit = usize::from(limit);
    if depth[0] as usize > limit {
        // depth[0] is the deepest: the lengths are non-increasing.
        let mut count = [0u32; 16];
        for &d in depth.iter() {
            count[(d as usize).min(limit)] += 1;
        }
        let mut kraft: u32 = (1..=limit).map(|i| count[i] << (limit - i)).sum();
        while kraft > 1 << limit {
            count[limit] -= 1;
            if let Some(i) = (1..limit).rev().find(|&i| count[i] != 0) {
                count[i] -= 1;
                count[i + 1] += 2;
            }
            kraft -= 1;
        }
        let mut k = 0;
        for len in (1..=limit).rev() {
            for _ in 0..count[len] {
                depth[k] = len as u64;
                k += 1;
            }
        }
    }
    for (&symbol, &d) in order.iter().zip(depth.iter()) {
        lengths[usize::from(symbol)] = d as u8;
    }
}

/// Moffat and Katajainen, "In-place calculation of minimum-redundancy codes" (1995), with
/// a sentinel: `a` holds at least two weights in non-decreasing order, then one spare
/// slot; on return, the weights' code lengths (non-increasing).
fn minimum_redundancy(a: &mut [u64]) {
    let n = a.len() - 1;
    debug_assert!(n >= 2 && a[..n].is_sorted());
    a[n] = u64::MAX; // the leaf after the last: never chosen
    // First pass, left to right: build the tree, internal nodes pointing to their parent.
    // The choices are data-dependent, so they are made without branches.
    a[0] += a[1];
    let (mut root, mut leaf) = (0, 2);
    for next in 1..n - 1 {
        let (r, l) = (a[root], a[leaf]);
        let take_root = r < l;
        a[root] = if take_root { next as u64 } else { r };
        a[next] = if take_root { r } else { l };
        root += usize::from(take_root);
        leaf += usize::from(!take_root);

        let (r, l) = (a[root], a[leaf]);
        let take_root = root < next && r < l;
        // When `root == next`, this stores a[next] back unchanged.
        a[root] = if take_root { next as u64 } else { r };
        a[next] += if take_root { r } else { l };
        root += usize::from(take_root);
        leaf += usize::from(!take_root);
    }
    // Second pass, right to left: depths of the internal nodes.
    a[n - 2] = 0;
    for next in (0..n - 2).rev() {
        a[next] = a[a[next] as usize] + 1;
    }
    // Third pass, right to left: depths of the leaves.
    let (mut available, mut used, mut depth) = (1usize, 0usize, 0u64);
    let mut root = n as isize - 2;
    let mut next = n as isize - 1;
    while available > 0 {
        while root >= 0 && a[root as usize] == depth {
            used += 1;
            root -= 1;
        }
        while available > used {
            a[next as usize] = depth;
            next -= 1;
            available -= 1;
        }
        available = 2 * used;
        depth += 1;
        used = 0;
    }
}

/// Canonical codes (RFC 1951 § 3.2.2) for `lengths`, bit-reversed, since deflate writes
/// Huffman codes most significant bit first into a least-significant-first stream.
/// Symbols of length 0 get 0.
fn canonical_codes(lengths: &[u8], codes: &mut [u16]) {
    assert!(lengths.len() <= 288 && codes.len() == lengths.len());
    codes.fill(0);
    // Blocks use few symbols: gather the used ones first, so that the passes below skip the
    // others and no counter is incremented over and over for length 0.
    let mut used = [0u16; 288];
    let n = used_symbols(lengths, &mut used);
    let used = &used[..n];
    let mut count = [0u32; 16];
    for &s in used {
        count[usize::from(lengths[usize::from(s)]) % 16] += 1;
    }
    let mut next = [0u32; 16];
    let mut code = 0;
    for bits in 1..16 {
        code = (code + count[bits - 1]) << 1;
        next[bits] = code;
    }
    for &s in used {
        let l = usize::from(lengths[usize::from(s)]) % 16;
        codes[usize::from(s)] = reverse16(next[l] as u16) >> (16 - l);
        next[l] += 1;
    }
}

/// Each byte with its bits reversed.
const REVERSED_BYTES: [u8; 256] = {
    let mut table = [0u8; 256];
    let mut b = 0;
    while b < 256 {
        table[b] = (b as u8).reverse_bits();
        b += 1;
    }
    table
};

/// `x` with its 16 bits reversed, by table: `u16::reverse_bits` compiles to a long chain
/// of shifts and masks on x86-64, which has no bit-reverse instruction.
#[inline]
fn reverse16(x: u16) -> u16 {
    let [lo, hi] = x.to_le_bytes();
    u16::from_le_bytes([
        REVERSED_BYTES[usize::from(hi)],
        REVERSED_BYTES[usize::from(lo)],
    ])
}

/// Bit writer: a `u64` accumulator, least significant bit first. Between calls it holds
/// fewer than 8 bits; whole bytes are in `out`.
#[derive(Default)]
struct Bits {
    acc: u64,
    n: u32,
}

impl Bits {
    /// Append the low `n` bits of `bits` (`n` < 32).
    fn put(&mut self, out: &mut Vec<u8>, bits: u32, n: u32) {
        debug_assert!(n < 32 && bits >> n == 0);
        self.acc |= u64::from(bits) << self.n;
        self.n += n;
        while self.n >= 8 {
            out.push(self.acc as u8);
            self.acc >>= 8;
            self.n -= 8;
        }
    }

    /// Pad with zeros to a byte boundary.
    fn align(&mut self, out: &mut Vec<u8>) {
        if self.n > 0 {
            out.push(self.acc as u8);
        }
        self.acc = 0;
        self.n = 0;
    }

    /// Append every token's code from `table` (see [`token_table`]), then `end_of_block`.
    /// The hot loop: two tokens (at most 2 × 21 bits) go into the accumulator, then all
    /// eight bytes are stored and the position advances by the whole bytes.
    fn put_tokens(
        &mut self,
        out: &mut Vec<u8>,
        tokens: &[u16],
        table: &[u32; TOKEN_VALUES],
        end_of_block: u32,
    ) {
        let start = out.len();
        // A token takes at most 21 bits (dynamic: 15 + 5 extra + 1 distance; fixed:
        // 8 + 5 + 5), so 3 bytes each, plus the end of block and an 8-byte store's slack.
        out.resize(start + 3 * tokens.len() + 16, 0);
        let buf = out.as_mut_slice();
        let (mut acc, mut n, mut pos) = (self.acc, self.n, start);
        let mut pairs = tokens.chunks_exact(2);
        for pair in &mut pairs {
            let a = table[usize::from(pair[0]) % TOKEN_VALUES];
            let b = table[usize::from(pair[1]) % TOKEN_VALUES];
            // The pair's bits first, off the accumulator's dependency chain.
            let pair_bits = u64::from(a >> 6) | u64::from(b >> 6) << (a & 63);
            acc |= pair_bits << n;
            n += (a & 63) + (b & 63);
            let Some(slot) = buf.get_mut(pos..pos + 8) else {
                unreachable!("3 bytes per token are reserved")
            };
            slot.copy_from_slice(&acc.to_le_bytes());
            let whole = n / 8;
            pos += whole as usize;
            acc >>= whole * 8;
            n -= whole * 8;
        }
        let rest = pairs.remainder().iter();
        for e in rest
            .map(|&t| table[usize::from(t) % TOKEN_VALUES])
            .chain([end_of_block])
        {
            acc |= u64::from(e >> 6) << n;
            n += e & 63;
            buf[pos..pos + 8].copy_from_slice(&acc.to_le_bytes());
            let whole = n / 8;
            pos += whole as usize;
            acc >>= whole * 8;
            n -= whole * 8;
        }
        out.truncate(pos);
        self.acc = acc;
        self.n = n;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn compress(data: &[u8]) -> Vec<u8> {
        let mut out = Vec::new();
        Deflater::default().zlib(data, &mut out);
        out
    }

    /// Compress, inflate with miniz_oxide, compare; returns the stream.
    fn round_trip(data: &[u8]) -> Vec<u8> {
        let stream = compress(data);
        assert_eq!(
            u16::from_be_bytes([stream[0], stream[1]]) % 31,
            0,
            "zlib header"
        );
        let back = miniz_oxide::inflate::decompress_to_vec_zlib(&stream)
            .unwrap_or_else(|e| panic!("invalid stream for {} bytes: {e:?}", data.len()));
        assert_eq!(back.len(), data.len());
        assert!(back == data, "round trip differs");
        stream
    }

    /// xorshift64*: deterministic test data.
    struct Rng(u64);
    impl Rng {
        fn next(&mut self) -> u64 {
            self.0 ^= self.0 >> 12;
            self.0 ^= self.0 << 25;
            self.0 ^= self.0 >> 27;
            self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
        }
        fn below(&mut self, n: u64) -> u64 {
            self.next() % n
        }
    }

    #[test]
    fn empty_input() {
        let stream = round_trip(&[]);
        assert!(stream.len() <= 2 + 2 + 4 + 4, "{} bytes", stream.len());
    }

    #[test]
    fn one_byte() {
        for byte in [0, 1, 255] {
            round_trip(&[byte]);
        }
    }

    #[test]
    fn runs_around_the_longest_match() {
        for len in [
            2,
            3,
            4,
            5,
            257,
            258,
            259,
            260,
            261,
            262,
            515,
            516,
            517,
            518,
            RUN_CHUNK + 1,
        ] {
            for byte in [0, 9] {
                let mut data = vec![byte; len];
                round_trip(&data);
                data.insert(0, 1);
                data.push(1);
                round_trip(&data);
            }
        }
    }

    #[test]
    fn all_byte_values() {
        let data: Vec<u8> = (0..=255).collect();
        round_trip(&data);
        let data: Vec<u8> = (0..=255u8).flat_map(|b| [b; 5]).collect();
        round_trip(&data);
    }

    #[test]
    fn a_megabyte_of_zeros() {
        let stream = round_trip(&vec![0; 1 << 20]);
        // 4065 matches of 258 at about two bits each.
        assert!(stream.len() < 1500, "{} bytes", stream.len());
    }

    #[test]
    fn only_runs() {
        let mut rng = Rng(7);
        let mut data = Vec::new();
        while data.len() < 300_000 {
            let byte = rng.below(6) as u8;
            if data.last() != Some(&byte) {
                let len = 3 + rng.below(700) as usize;
                data.resize(data.len() + len, byte);
            }
        }
        round_trip(&data);
    }

    #[test]
    fn several_blocks_and_bounded_buffers() {
        // Low-entropy literals (no byte repeats its predecessor), so every block is
        // written with the dynamic code, with runs across the block boundaries.
        let mut rng = Rng(11);
        let mut data = vec![0u8];
        while data.len() < 5 * BLOCK_TOKENS {
            let last = *data.last().unwrap();
            if rng.below(50) == 0 {
                let len = 1 + rng.below(2000) as usize;
                data.resize(data.len() + len, last);
            } else {
                data.push((last + 1 + rng.below(3) as u8) % 4);
            }
        }
        let stream = round_trip(&data);
        assert!(stream.len() < data.len() / 3, "{} bytes", stream.len());

        let mut deflater = Deflater::default();
        let mut out = Vec::new();
        deflater.zlib(&data, &mut out);
        assert_eq!(out, stream, "same output from a kept deflater");
        let capacity = deflater.capacity();
        assert!(
            capacity <= 2 * (BLOCK_TOKENS + STEP_TOKENS) * 2,
            "{capacity} bytes"
        );
        out.clear();
        deflater.zlib(&data, &mut out);
        assert_eq!(out, stream, "same output from a warm deflater");
        assert_eq!(
            deflater.capacity(),
            capacity,
            "a warm call keeps its buffers"
        );
    }

    #[test]
    fn sixteen_megabytes() {
        let mut rng = Rng(5);
        let mut data = vec![0u8; 16 << 20];
        for _ in 0..200_000 {
            let at = rng.below(data.len() as u64) as usize;
            data[at] = rng.next() as u8;
        }
        let mut deflater = Deflater::default();
        let mut stream = Vec::new();
        deflater.zlib(&data, &mut stream);
        assert!(deflater.capacity() <= 2 * (BLOCK_TOKENS + STEP_TOKENS) * 2);
        let back = miniz_oxide::inflate::decompress_to_vec_zlib(&stream).expect("valid");
        assert!(back == data);
    }

    #[test]
    fn random_bytes_are_stored() {
        let mut rng = Rng(3);
        let data: Vec<u8> = (0..300_000).map(|_| rng.next() as u8).collect();
        let stream = round_trip(&data);
        // Stored blocks: 5 bytes per 65535, plus the zlib header and trailer.
        let pieces = data.len().div_ceil(65535) + data.len().div_ceil(BLOCK_TOKENS);
        assert!(
            stream.len() <= data.len() + 5 * pieces + 6,
            "{} bytes",
            stream.len()
        );
    }

    /// Rows of 401 bytes as the Up filter leaves our diagrams: a filter byte, mostly
    /// zeros, square edges as short runs, pieces as pockets of small differences.
    fn sample_scanlines() -> Vec<u8> {
        let mut rng = Rng(1);
        let mut data = Vec::new();
        for y in 0..400 {
            let mut row = [0u8; 401];
            row[0] = 2;
            if y % 50 == 0 {
                for (x, b) in row[1..].iter_mut().enumerate() {
                    *b = if (x / 50) % 2 == 0 { 3 } else { 253 };
                }
            }
            if (y % 50) > 8 && (y % 50) < 44 {
                for square in 0..8 {
                    if rng.below(3) == 0 {
                        continue;
                    }
                    for x in square * 50 + 10..square * 50 + 40 {
                        if rng.below(4) == 0 {
                            row[1 + x] = [1, 255, 2, 254, 5, 251][rng.below(6) as usize];
                        }
                    }
                }
            }
            data.extend_from_slice(&row);
        }
        data
    }

    #[test]
    fn smaller_than_fdeflate_on_scanlines() {
        let data = sample_scanlines();
        let ours = round_trip(&data);
        let theirs = fdeflate::compress_to_vec(&data);
        assert!(
            ours.len() * 10 < theirs.len() * 8,
            "ours {} bytes, fdeflate {} bytes",
            ours.len(),
            theirs.len()
        );
    }

    /// Kraft sum of `lengths`, in units of 2^-15.
    fn kraft(lengths: &[u8]) -> u64 {
        lengths
            .iter()
            .filter(|&&l| l != 0)
            .map(|&l| 1u64 << (15 - l))
            .sum()
    }

    fn check_code(freq: &[u32], limit: u8) -> Vec<u8> {
        let mut lengths = vec![0u8; freq.len()];
        huffman_lengths(freq, limit, &mut lengths);
        for (s, (&f, &l)) in freq.iter().zip(&lengths).enumerate() {
            assert!(l <= limit, "symbol {s}: {l} bits > {limit}");
            if f != 0 {
                assert!(l > 0, "used symbol {s} has no code");
            }
        }
        assert_eq!(kraft(&lengths), 1 << 15, "complete code: {lengths:?}");
        lengths
    }

    #[test]
    fn huffman_codes_respect_the_limit_and_kraft() {
        // Fibonacci frequencies make the deepest possible Huffman trees.
        let mut fib = vec![1u32, 1];
        while fib.len() < 47 {
            fib.push(fib[fib.len() - 1] + fib[fib.len() - 2]);
        }
        let mut freq = vec![1u32; LIT_SYMBOLS];
        freq[..fib.len()].copy_from_slice(&fib);
        // The unlimited code would be too deep: the limit is exercised.
        let mut depth: Vec<u64> = freq.iter().map(|&f| u64::from(f)).collect();
        depth.sort_unstable();
        depth.push(0); // the spare slot
        minimum_redundancy(&mut depth);
        assert!(depth[0] > 15, "{}", depth[0]);
        check_code(&freq, 15);

        let cl: Vec<u32> = fib[..CL_SYMBOLS].to_vec();
        let lengths = check_code(&cl, 7);
        assert_eq!(lengths.iter().max(), Some(&7));

        // Equal frequencies: a balanced code.
        let lengths = check_code(&[5; 16], 15);
        assert!(lengths.iter().all(|&l| l == 4));
        // A lone symbol gets a one-bit code and a partner; none is all zeros.
        let mut lone = [0u32; LIT_SYMBOLS];
        lone[END_OF_BLOCK] = 1;
        let lengths = check_code(&lone, 15);
        assert_eq!(lengths[END_OF_BLOCK], 1);
        let lengths = check_code(&[3, 0, 0], 7);
        assert_eq!(lengths, [1, 1, 0]);
        // Unused symbols get no code.
        let lengths = check_code(&[0, 10, 0, 1, 1, 0, 30], 15);
        assert_eq!(lengths, [0, 2, 0, 3, 3, 0, 1]);
    }

    #[test]
    fn huffman_codes_are_optimal_when_short_enough() {
        // Compare the cost with a textbook heap-based Huffman construction.
        let mut rng = Rng(9);
        for _ in 0..200 {
            let n = 2 + rng.below(40) as usize;
            let freq: Vec<u32> = (0..n).map(|_| 1 + rng.below(1000) as u32).collect();
            let lengths = check_code(&freq, 15);
            let mut heap: std::collections::BinaryHeap<std::cmp::Reverse<u64>> = freq
                .iter()
                .map(|&f| std::cmp::Reverse(u64::from(f)))
                .collect();
            let mut optimal = 0;
            while heap.len() > 1 {
                let a = heap.pop().unwrap().0;
                let b = heap.pop().unwrap().0;
                optimal += a + b;
                heap.push(std::cmp::Reverse(a + b));
            }
            assert_eq!(cost(&freq, &lengths), optimal);
        }
    }

    fn runs_and_literals() -> impl Strategy<Value = Vec<u8>> {
        prop::collection::vec((any::<u8>(), 1usize..600, any::<bool>()), 0..40).prop_map(
            |segments| {
                let mut data = Vec::new();
                for (byte, len, run) in segments {
                    if run {
                        data.resize(data.len() + len, byte);
                    } else {
                        data.extend((0..len % 40).map(|i| byte.wrapping_mul(i as u8 | 1)));
                    }
                }
                data
            },
        )
    }

    proptest! {
        #[test]
        fn round_trips(data in runs_and_literals()) {
            round_trip(&data);
        }
    }
}
