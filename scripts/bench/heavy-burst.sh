#!/usr/bin/env bash
# Heavy renders in bursts against the memory bound: a fresh service with the default
# caches (--cache-size 128MiB, --render-cache-size 64MiB) and workers, then BURSTS bursts
# of SIZE requests sent at once, each a new 2048 px PNG under 64 arrows
# (scripts/bench/heavy_url.py), the next burst when the last answer came; then 30 s idle.
# RSS is read from /proc/PID/status every 0.2 s; prints the answers by status, the peak
# (VmHWM) against 1.1 x 128 MiB + 150 MiB, and the resident size 30 s after against
# 1.1 x 128 MiB + 60 MiB, each with PASS or FAIL, and /metrics' cache gauges at the end.
# Needs curl and python3; bounded (curl --max-time); the service is stopped at the end.
# STAUNTON_BIN names another staunton; BURST_ADDR moves it off 127.0.0.1:18098.
# Usage: scripts/bench/heavy-burst.sh [BURSTS] [SIZE]   (defaults 6, 24)
set -euo pipefail
cd "$(dirname "$0")/../.."
bursts=${1:-6}
size=${2:-24}
addr=${BURST_ADDR:-127.0.0.1:18098}
if [[ -z ${STAUNTON_BIN:-} ]]; then
  cargo build --release --quiet --bin staunton
  STAUNTON_BIN=$(cargo metadata --format-version 1 --no-deps |
    python3 -c 'import json, sys; print(json.load(sys.stdin)["target_directory"])')/release/staunton
fi
tmp=$(mktemp -d)
"$STAUNTON_BIN" serve --addr "$addr" >/dev/null 2>&1 &
pid=$!
trap 'kill "$pid" 2>/dev/null || true; rm -rf "$tmp"' EXIT
for _ in $(seq 100); do
  curl -sf --max-time 1 "http://$addr/health" >/dev/null && break
  sleep 0.1
done
kib() { awk -v k="$1" '$1 == k":" {print $2}' "/proc/$pid/status"; }

n=0
for b in $(seq "$bursts"); do
  urls=()
  for _ in $(seq "$size"); do
    n=$((n + 1))
    urls+=("$(python3 scripts/bench/heavy_url.py "$n" "$addr")")
  done
  pids=()
  for u in "${urls[@]}"; do
    curl -s --max-time 120 -o /dev/null -w '%{http_code}\n' "$u" >>"$tmp/codes" &
    pids+=($!)
  done
  for p in "${pids[@]}"; do wait "$p" || true; done
  echo "burst $b: peak so far $(awk '{printf "%.1f", $1 / 1024}' <<<"$(kib VmHWM)") MiB"
done
hwm=$(kib VmHWM)
sleep 30
after=$(kib VmRSS)
echo "answers by status: $(sort "$tmp/codes" | uniq -c | awk '{printf "%s %s, ", $2, $1}')"
awk -v h="$hwm" -v a="$after" 'BEGIN {
  peak = 1.1 * 128 + 150; rest = 1.1 * 128 + 60
  printf "peak resident (VmHWM) %.1f MiB, bound %.1f: %s\n", h / 1024, peak, (h / 1024 <= peak ? "PASS" : "FAIL")
  printf "resident 30 s after %.1f MiB, bound %.1f: %s\n", a / 1024, rest, (a / 1024 <= rest ? "PASS" : "FAIL")
}'
curl -fs --max-time 3 "http://$addr/metrics" | grep -E '^staunton_cache_bytes' || true
