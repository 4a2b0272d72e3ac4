#!/usr/bin/env bash
# Prints the absolute path of the folder cargo builds this crate into, as cargo itself
# says (`cargo metadata`): CARGO_TARGET_DIR, relative to where it is run or absolute, a
# config's build.target-dir, or the crate's target/. Scripts find the binaries there
# (`"$(scripts/target-dir.sh)/release/staunton"`) instead of spelling the path themselves.
set -euo pipefail
cargo metadata --format-version 1 --no-deps --manifest-path "$(dirname "$0")/../Cargo.toml" |
  python3 -c 'import json, sys; print(json.load(sys.stdin)["target_directory"])'
