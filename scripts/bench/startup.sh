#!/usr/bin/env bash
# Start-up time (process start to the first 200 from /health) and resident memory at idle,
# of the release build with the default cache. Loopback only; stops the server at the end.
set -euo pipefail
cd "$(dirname "$0")/../.."
cargo build --release --quiet --bin staunton
bin=$(scripts/target-dir.sh)/release/staunton
addr=127.0.0.1:18090
start=$(date +%s%N)
RUST_LOG=warn "$bin" serve --addr "$addr" & pid=$!
trap 'kill $pid 2>/dev/null || true' EXIT
until curl -fs "http://$addr/health" -o /dev/null; do sleep 0.005; done
ready=$(date +%s%N)
echo "start-up to first /health answer: $(( (ready - start) / 1000000 )) ms"
curl -fs "http://$addr/diagram?fen=start" -o /dev/null
sleep 1
echo "resident memory at idle after one render: $(awk '/VmRSS/ {print $2, $3}' /proc/$pid/status)"
