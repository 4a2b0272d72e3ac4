#!/usr/bin/env bash
# HTTP load test over loopback: cache misses, cache hits, and a bare axum handler that
# answers the same bytes (the floor), in one run. Needs wrk (apt-get install -y wrk).
# Bounded: each phase runs DURATION seconds with CONNECTIONS connections; the servers are
# stopped at the end (or on error). Usage: scripts/bench/load.sh [DURATION] [CONNECTIONS]
set -euo pipefail
cd "$(dirname "$0")/../.."
duration=${1:-10}
connections=${2:-2}
command -v wrk >/dev/null || { echo "load.sh: wrk is not installed (apt-get install -y wrk)" >&2; exit 2; }

cargo build --release --quiet --bin staunton --example bare_server
target=$(scripts/target-dir.sh)/release
addr=127.0.0.1:18080
bare=127.0.0.1:18081
RUST_LOG=warn "$target/staunton" serve --addr "$addr" & staunton_pid=$!
"$target/examples/bare_server" "$bare" & bare_pid=$!
trap 'kill $staunton_pid $bare_pid 2>/dev/null || true' EXIT
for a in $addr $bare; do
  for _ in $(seq 50); do curl -fs "http://$a/diagram?fen=start" -o /dev/null && break; sleep 0.1; done
done

lua=$(mktemp --suffix=.lua)
cat > "$lua" <<'LUA'
-- Every request a distinct FEN (the half-move clock counts up), so every one misses. Each
-- wrk thread counts from its own start, so no two threads send the same FEN.
local next_id = 0
function setup(thread)
  thread:set("id", next_id)
  next_id = next_id + 1
end
local n = 0
request = function()
  n = n + 1
  return wrk.format("GET", "/diagram?fen=rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR_w_KQkq_-_" .. (id * 100000000 + n) .. "_1")
end
LUA

run() { # name url [lua]
  local out
  out=$(timeout $((duration + 20)) wrk -t"$connections" -c"$connections" -d"${duration}s" --latency ${3:+-s "$3"} "$2")
  local rps p50 p99
  rps=$(awk '/Requests\/sec/ {print $2}' <<<"$out")
  p50=$(awk '$1 == "50%" {print $2}' <<<"$out")
  p99=$(awk '$1 == "99%" {print $2}' <<<"$out")
  printf '%-28s %10s req/s   p50 %8s   p99 %8s\n' "$1" "$rps" "$p50" "$p99"
}

echo "wrk, $connections connections, ${duration}s per phase, loopback, $(nproc) cores"
run "miss (distinct FENs)" "http://$addr/diagram" "$lua"
run "hit (one FEN)" "http://$addr/diagram?fen=start"
run "bare axum, same bytes" "http://$bare/diagram?fen=start"
rm -f "$lua"
