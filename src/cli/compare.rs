//! `staunton compare EXPECTED ACTUAL`: its flags, and two PNG images compared by their
//! pixels, with a picture of the difference on request.

use clap::Args;
use std::path::PathBuf;

#[derive(Debug, Args)]
pub(super) struct CompareArgs {
    /// The expected image (PNG).
    expected: PathBuf,
    /// The actual image (PNG).
    actual: PathBuf,
    /// Largest difference of any channel (0–255) of a pixel still counted as equal.
    #[arg(long, default_value_t = crate::snapshot::Tolerance::default().channel)]
    tolerance: u8,
    /// Pixels allowed to differ by more than the tolerance.
    #[arg(long, default_value_t = crate::snapshot::Tolerance::default().pixels)]
    max_pixels: u64,
    /// Where to write a picture of the difference when they differ: the expected image
    /// in grey, differing pixels red, their box blue.
    #[arg(long)]
    diff: Option<PathBuf>,
}

/// `staunton compare` found the images different: exit status 1, the report printed.
#[derive(Debug, thiserror::Error)]
#[error("the images differ")]
pub struct ImagesDiffer;

/// `staunton compare EXPECTED ACTUAL`: one line on stdout saying how they compare; `Err`
/// of [`ImagesDiffer`] when they differ, other errors when they cannot be compared.
pub(super) fn compare(args: CompareArgs) -> anyhow::Result<()> {
    use crate::snapshot::{self, Tolerance};
    let expected = snapshot::read_png(&args.expected)?;
    let actual = snapshot::read_png(&args.actual)?;
    let tolerance = Tolerance {
        channel: args.tolerance,
        pixels: args.max_pixels,
    };
    let both = format!("{} and {}", args.expected.display(), args.actual.display());
    let diff = match snapshot::compare(&expected, &actual, tolerance) {
        Ok(diff) => diff,
        Err(sizes) => {
            println!("{both} differ: {sizes}");
            return Err(ImagesDiffer.into());
        }
    };
    if diff.matches() {
        println!("{both} are equal: {diff}");
        return Ok(());
    }
    println!("{both} differ: {diff}");
    if let Some(path) = &args.diff {
        snapshot::write_png(path, &snapshot::diff_image(&expected, &actual, &diff)?)?;
        println!("wrote {}", path.display());
    }
    Err(ImagesDiffer.into())
}
