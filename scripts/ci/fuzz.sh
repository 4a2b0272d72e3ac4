#!/usr/bin/env bash
# Runs each cargo-fuzz target for SECONDS (default 60) from the seed corpus in fuzz/corpus
# (the shared FEN fixtures), and prints libFuzzer's final statistics. Needs cargo-fuzz
# (cargo install cargo-fuzz); RUSTC_BOOTSTRAP lets the stable toolchain build the
# sanitizer flags cargo-fuzz passes. A crash leaves its input in fuzz/artifacts/TARGET/.
set -euo pipefail
cd "$(dirname "$0")/../../fuzz"
seconds=${1:-60}
export RUSTC_BOOTSTRAP=1
for target in fen query_svg; do
  work=target/corpus-$target
  mkdir -p "$work"
  cp -n corpus/$target/* "$work"/ 2>/dev/null || true
  echo "== $target, ${seconds}s"
  cargo fuzz run "$target" "$work" -- -max_total_time="$seconds" -print_final_stats=1 2>&1 \
    | grep -E "^(stat::number_of_executed_units|stat::peak_rss_mb|Done|==.*ERROR|SUMMARY)" || true
done
