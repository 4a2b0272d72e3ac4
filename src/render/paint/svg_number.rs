//! How the SVG writers write a number that needs more than two decimals (viewBox sizes,
//! scales): [`Fine`], up to four, rounded as the float formatter rounds.

use std::fmt;

/// A number written with up to four decimals (viewBox sizes, where two are too coarse).
pub(super) struct Fine(pub(super) f32);

impl fmt::Display for Fine {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // In ten-thousandths, exactly as `{:.4}` rounds (an f32 times 10^4 is exact in an
        // f64), without the float formatter's arbitrary-precision path.
        let units = (f64::from(self.0) * 10_000.0).round_ties_even();
        if !units.is_finite() || units.abs() >= 1e18 {
            let text = format!("{:.4}", self.0);
            return f.write_str(text.trim_end_matches('0').trim_end_matches('.'));
        }
        let units = units as i64;
        if units < 0 {
            f.write_str("-")?;
        }
        let (whole, mut fraction) = (units.unsigned_abs() / 10_000, units.unsigned_abs() % 10_000);
        write!(f, "{whole}")?;
        if fraction == 0 {
            return Ok(());
        }
        let mut digits = 4;
        while fraction % 10 == 0 {
            fraction /= 10;
            digits -= 1;
        }
        write!(f, ".{fraction:0digits$}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fine_numbers_keep_four_decimals() {
        assert_eq!(Fine(888.888_9).to_string(), "888.8889");
        assert_eq!(Fine(100.0).to_string(), "100");
        assert_eq!(Fine(-0.000_01).to_string(), "0");
        assert_eq!(Fine(2.5).to_string(), "2.5");
        assert_eq!(Fine(-1.25).to_string(), "-1.25");
        assert_eq!(Fine(0.0312).to_string(), "0.0312");
    }

    #[test]
    fn fine_numbers_round_as_the_formatter_does() {
        for bits in (0..200_000u32).map(|i| 0x3a00_0000 + i * 7_993) {
            let value = f32::from_bits(bits);
            let text = format!("{value:.4}");
            let text = text.trim_end_matches('0').trim_end_matches('.');
            let expected = if text == "-0" { "0" } else { text };
            assert_eq!(Fine(value).to_string(), expected, "{value}");
        }
    }
}
