#!/usr/bin/env bash
# Two heavy cold renders over HTTP, sent together against sent one after the other, on a
# fresh service with 2 workers (the in-process version is `cargo bench --bench heavy`).
# Each request is a 2048 px PNG of kings on new squares under 64 new arrows in four
# colours, a highlight and a last move (arrows drawn by a seeded generator, so no two
# requests share a stamp set or a cache key). Per round: two requests in turn (serial),
# then two others at once (pair); prints both times and pair / serial (0.5 = the second
# core doubles the throughput, 1.0 = no gain). The 2048 px board's context is made first.
# Needs curl and python3; bounded (curl --max-time); the service is stopped at the end.
# STAUNTON_BIN names another staunton to measure; PAIR_ADDR moves it off 127.0.0.1:18097.
# Usage: scripts/bench/heavy-pair.sh [ROUNDS]   (default 5)
set -euo pipefail
cd "$(dirname "$0")/../.."
rounds=${1:-5}
addr=${PAIR_ADDR:-127.0.0.1:18097}
if [[ -z ${STAUNTON_BIN:-} ]]; then
  cargo build --release --quiet --bin staunton
  STAUNTON_BIN=$(scripts/target-dir.sh)/release/staunton
fi
"$STAUNTON_BIN" serve --addr "$addr" --workers 2 >/dev/null 2>&1 &
pid=$!
trap 'kill "$pid" 2>/dev/null || true' EXIT
for _ in $(seq 100); do
  curl -sf --max-time 1 "http://$addr/health" >/dev/null && break
  sleep 0.1
done

# The URL of heavy request number $1 (scripts/bench/heavy_url.py).
url() { python3 scripts/bench/heavy_url.py "$1" "$addr"; }
get() { curl -sf --max-time 30 -o /dev/null "$1"; }
now() { date +%s.%N; }

get "$(url 0)"
printf 'round  serial (s)  pair (s)  pair / serial\n'
for r in $(seq "$rounds"); do
  a=$(url $((r * 4 + 1))) b=$(url $((r * 4 + 2))) c=$(url $((r * 4 + 3))) d=$(url $((r * 4 + 4)))
  t0=$(now)
  get "$a"
  get "$b"
  t1=$(now)
  get "$c" &
  first=$!
  get "$d"
  wait "$first"
  t2=$(now)
  python3 -c "s, p = $t1 - $t0, $t2 - $t1; print(f'{$r:5d}  {s:10.3f}  {p:8.3f}  {p / s:13.2f}')"
done
