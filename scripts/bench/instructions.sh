#!/usr/bin/env bash
# Instructions per warm PNG render, counted by callgrind: repeatable whatever else the
# machine is doing, so a change's effect can be seen apart from timing noise. Needs valgrind
# (apt-get install -y valgrind). Usage: scripts/bench/instructions.sh [QUERY...]
set -euo pipefail
cd "$(dirname "$0")/../.."
command -v valgrind >/dev/null || { echo "instructions.sh: valgrind is not installed" >&2; exit 2; }
cargo build --release --quiet --example repeat
bin=$(scripts/target-dir.sh)/release/examples/repeat
annotated='fen=rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR_w_KQkq_-_1_3'
[ $# -gt 0 ] || set -- 'fen=start' 'fen=start&size=720' 'fen=start&size=800' "$annotated" \
  "$annotated&lastMove=d8h4&check=auto&arrows=Gh4e1,Rg2g3,Yb1c3&highlight=Ge5,Rf3"
count() { # query renders -> total instructions
  valgrind --tool=callgrind --callgrind-out-file=/dev/null "$bin" "$1" "$2" 2>&1 |
    awk '/Collected :/ {print $NF}'
}
for query in "$@"; do
  # One render warms the caches; the difference over 40 more is the cost of a warm one.
  one=$(count "$query" 1)
  more=$(count "$query" 41)
  printf '%12d instructions  %s\n' $(( (more - one) / 40 )) "$query"
done
