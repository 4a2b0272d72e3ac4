#!/usr/bin/env bash
# Flood test over loopback: distinct FENs at every size from 16 to 2048 px, as fast as
# possible for DURATION seconds (default 60), while sampling the server's resident memory
# and the image cache's weighted bytes (from /metrics) every second. Prints the samples,
# the peak and the final plateau against the configured bound, and the count of 5xx.
# Bounded and loopback-only; stops the server at the end. Needs wrk and curl.
set -euo pipefail
cd "$(dirname "$0")/.."
duration=${1:-60}
cache=${2:-128MiB}
command -v wrk >/dev/null || { echo "flood.sh: wrk is not installed (apt-get install -y wrk)" >&2; exit 2; }
cargo build --release --quiet --bin staunton
bin=${CARGO_TARGET_DIR:-target}/release/staunton
addr=127.0.0.1:18095
RUST_LOG=warn "$bin" serve --addr "$addr" --cache-size "$cache" & pid=$!
trap 'kill $pid 2>/dev/null || true' EXIT
until curl -fs "http://$addr/health" -o /dev/null; do sleep 0.05; done

lua=$(mktemp --suffix=.lua)
cat > "$lua" <<'LUA'
-- Distinct FENs (the half-move clock counts up) at sizes sweeping 16..2048 px.
local n = 0
request = function()
  n = n + 1
  local size = 16 + (n * 37) % 2033
  return wrk.format("GET", "/diagram?size=" .. size .. "&fen=r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R_w_KQkq_-_" .. n .. "_3")
end
response = function(status, headers, body)
  if status >= 500 then
    errors = (errors or 0) + 1
  end
end
done = function(summary, latency, requests)
  io.write(string.format("requests %d, non-2xx/3xx %d\n", summary.requests, summary.errors.status))
end
LUA

echo "second  rss_MiB  cache_MiB"
timeout $((duration + 30)) wrk -t2 -c4 -d"${duration}s" -s "$lua" "http://$addr/diagram" > /tmp/flood-wrk.txt &
wrk_pid=$!
peak_rss=0; peak_cache=0
for i in $(seq "$duration"); do
  sleep 1
  rss=$(awk '/VmRSS/ {print int($2/1024)}' /proc/$pid/status)
  cache_bytes=$(curl -fs "http://$addr/metrics" | awk '/^staunton_cache_weighted_bytes/ {print $2}')
  cache_mib=$((cache_bytes / 1048576))
  (( rss > peak_rss )) && peak_rss=$rss
  (( cache_mib > peak_cache )) && peak_cache=$cache_mib
  printf '%6d  %7d  %9d\n' "$i" "$rss" "$cache_mib"
done
wait $wrk_pid || true
fivexx=$(curl -fs "http://$addr/metrics" | awk -F'[ "]' '/^staunton_requests_total/ && $4 ~ /^5/ {s += $NF} END {print s + 0}')
grep -E "requests|Requests/sec" /tmp/flood-wrk.txt || true
echo "peak: rss ${peak_rss} MiB, cache ${peak_cache} MiB (bound ${cache}); final: rss ${rss} MiB, cache ${cache_mib} MiB; 5xx answers: ${fivexx}"
rm -f "$lua"
