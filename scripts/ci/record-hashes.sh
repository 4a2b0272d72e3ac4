#!/usr/bin/env bash
# Records a hash of every format of every render case (tests/fixtures/render-cases.txt) from a
# release build into tests/fixtures/render-hashes.txt, which `cargo test` (a debug build,
# tests/render/determinism.rs) checks its own output against: the same bytes whatever the
# optimisation level. Run it when a drawing changes on purpose, and commit the file.
#
#   scripts/ci/record-hashes.sh           # write tests/fixtures/render-hashes.txt
#   scripts/ci/record-hashes.sh --check   # CI: fail if the release build disagrees with it
set -euo pipefail
cd "$(dirname "$0")/../.."
file=tests/fixtures/render-hashes.txt
fresh=$(mktemp)
trap 'rm -f "$fresh"' EXIT
cargo run --quiet --release --example render_hashes -- tests/fixtures/render-cases.txt > "$fresh"
if [[ ${1:-} == --check ]]; then
  if ! diff -u "$file" "$fresh"; then
    echo "record-hashes: the release build's bytes differ from $file (above: - recorded, + made)" >&2
    exit 1
  fi
  echo "record-hashes: the release build makes the $(wc -l < "$fresh") recorded outputs byte for byte"
else
  cp "$fresh" "$file"
  echo "record-hashes: wrote $(wc -l < "$file") hashes to $file"
fi
