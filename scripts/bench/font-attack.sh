#!/usr/bin/env bash
# Cache hits with non-ASCII text, before and after an attack on the font lookup (issue 58):
# a fresh service (system fonts on, the default), then
#   1. hits: wrk, 32 connections, SECONDS (default 10), on one cached /game.gif whose PGN
#      holds 470 non-ASCII characters, and one cached diagram with a 190-character CJK
#      caption; /health asked every 50 ms meanwhile (its slowest answer printed);
#   2. the attack: POST /game.json twice with 16,000 private-use characters each (what
#      filled the old per-character memo, after which every unknown character re-scanned
#      every installed face), then 200 diagrams whose captions hold 64 new CJK ideographs
#      each;
#   3. the hits of 1 again.
# Prints req/s and /health's slowest answer for each, and the ratio after/before. Needs wrk
# and curl; honours CARGO_TARGET_DIR and STAUNTON_BIN; FONT_ATTACK_ADDR moves the service
# off 127.0.0.1:18097. Loopback only; every wrk and curl under timeout.
# Usage: scripts/bench/font-attack.sh [SECONDS]
set -euo pipefail
cd "$(dirname "$0")/../.."
seconds=${1:-10}
command -v wrk >/dev/null || { echo "font-attack.sh: wrk is not installed (apt-get install -y wrk)" >&2; exit 2; }
cargo build --release --quiet --bin staunton
bin=${STAUNTON_BIN:-$(scripts/target-dir.sh)/release/staunton}
addr=${FONT_ATTACK_ADDR:-127.0.0.1:18097}
tmp=$(mktemp -d)
pid=""
trap 'kill $pid 2>/dev/null || true; rm -rf "$tmp"' EXIT
RUST_LOG=warn "$bin" serve --addr "$addr" & pid=$!
for _ in $(seq 100); do curl -fs --max-time 1 "http://$addr/health" -o /dev/null && break; sleep 0.1; done

# Percent-encoded UTF-8 of code points first, first + step, ... (count of them).
encoded() { # first step count
  python3 -c 'import sys, urllib.parse
first, step, count = (int(a, 0) for a in sys.argv[1:])
print(urllib.parse.quote("".join(chr(first + i * step) for i in range(count)), safe=""))' "$@"
}
# Players' names of 235 letters each that DejaVu draws (Ä, Ö).
pgn="[White \"$(python3 -c 'print("Ä" * 235)')\"][Black \"$(python3 -c 'print("Ö" * 235)')\"] 1. e4 e5 *"
game="/game.gif?pgn=$(python3 -c 'import sys, urllib.parse; print(urllib.parse.quote(sys.argv[1], safe=""))' "$pgn")"
caption="/diagram?fen=start&size=320&caption=$(encoded 0x4E00 37 190)"
for path in "$game" "$caption"; do
  curl -fs --max-time 20 "http://$addr$path" -o /dev/null || { echo "font-attack.sh: $path failed" >&2; exit 1; }
done

lua=$tmp/hits.lua
cat > "$lua" <<LUA
local paths = { "$game", "$caption" }
local i = 0
request = function()
  i = i + 1
  return wrk.format("GET", paths[i % 2 + 1])
end
LUA

# hits label: wrk on the two cached paths while /health is asked every 50 ms.
hits() {
  local slowest=0 t
  timeout $((seconds + 20)) wrk -t2 -c32 -d"${seconds}s" --latency -s "$lua" "http://$addr" > "$tmp/wrk" &
  local wrk=$!
  while kill -0 "$wrk" 2>/dev/null; do
    t=$(curl -fs --max-time 5 -o /dev/null -w '%{time_total}' "http://$addr/health" || echo 5)
    slowest=$(awk -v a="$slowest" -v b="$t" 'BEGIN {print (b > a) ? b : a}')
    sleep 0.05
  done
  wait "$wrk"
  rps=$(awk '/Requests\/sec/ {print $2}' "$tmp/wrk")
  printf '%-7s %10s req/s   p99 %8s   /health slowest %6.1f ms\n' "$1" "$rps" \
    "$(awk '$1 == "99%" {print $2}' "$tmp/wrk")" "$(awk -v t="$slowest" 'BEGIN {print t * 1000}')"
  echo "$rps" > "$tmp/$1"
}

echo "wrk -c32, ${seconds}s, two cached answers with non-ASCII text (a /game.gif, a CJK caption); $(nproc) cores"
hits before
for k in 0 1; do
  body=$(python3 -c 'import sys; print("[Event \"" + "".join(chr(0xF0000 + int(sys.argv[1]) * 16000 + i) for i in range(16000)) + "\"] 1. e4 *")' "$k")
  curl -s --max-time 20 -o /dev/null -w "attack: POST /game.json (16,000 private-use characters) %{http_code}\n" \
    -H 'content-type: application/x-chess-pgn' --data-binary "$body" "http://$addr/game.json"
done
for n in $(seq 0 199); do
  curl -s --max-time 20 -o /dev/null "http://$addr/diagram?fen=start&size=200&caption=$(encoded $((0x5000 + n * 64)) 1 64)"
done
echo "attack: 200 captions of 64 new CJK ideographs each"
hits after
awk -v a="$(cat "$tmp/after")" -v b="$(cat "$tmp/before")" 'BEGIN {printf "after/before %.2f\n", a / b}'
