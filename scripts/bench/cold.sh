#!/usr/bin/env bash
# Cold renders over loopback: Staunton against the naive baseline (examples/resvg_server.rs,
# "resvg rasterising the whole SVG per request": Staunton's SVG parsed by usvg, rendered by
# resvg and encoded by tiny-skia on every request, nothing cached). Three phases:
#   cold   every request a new position AND a new size (sizes 16 + (n*997) % 2033, a
#          permutation of 16..2048, so no size repeats within 2,033 requests; a longer
#          run comes round to sizes again, most likely evicted by then), 2 connections,
#          against Staunton and the baseline; prints the req/s ratio.
#   warm   new positions at sizes cycling 240, 400, 640, same; prints the ratio.
#   flood  a fresh Staunton with --cache-size CACHE, the cold mix on 4 connections for
#          FLOOD_SECONDS (default 60), then AFTER_SECONDS (default 30) idle; RSS sampled
#          every second from /proc/PID/status, the /metrics byte gauges at the RSS peak and
#          at the end, the count of non-2xx answers (wrk's Lua response callback).
# FLOOD_TEXT (default none) adds text to the flood's requests: "cjk" gives every diagram a
# caption of four CJK ideographs and makes every fourth request a share card titled in
# three (bold), all drawn by the system's fonts (fonts-noto-cjk) and new every request, so
# the faces are read and their glyphs drawn under the flood; "ascii" the same with Latin
# letters, which DejaVu draws (the control). FLOOD_ONLY=1 runs the flood alone.
# Positions: both kings and 8-28 other pieces on distinct squares (no pawns on ranks 1 and
# 8), placed by a small LCG seeded by the request number n, so every request is a distinct
# position (the fullmove number is n + 1 too, so no two requests share a cache key).
# Targets (the flood's memory): peak RSS (VmHWM) <= 1.1 x CACHE + 150 MiB, and RSS
# AFTER_SECONDS after the flood <= 1.1 x CACHE + 60 MiB; each printed with PASS or FAIL.
# The cold and warm phases have no fixed target here: they print the ratio Staunton/baseline
# of requests a second, and of each server's CPU time per request (user + system, from
# /proc/PID/stat over the phase): the steadier figure on a shared machine.
# Bounded (every wrk and curl under timeout), loopback only; the servers are stopped and the
# temporary files removed at the end or on error. Needs wrk and curl; honours
# CARGO_TARGET_DIR; STAUNTON_BIN names another staunton to measure (the static binary of
# scripts/dist.sh, say) against the same baseline; COLD_ADDR and COLD_BASE_ADDR move the two
# servers off 127.0.0.1:18096 and :18082.
# Usage: scripts/bench/cold.sh [SECONDS] [CACHE]   (defaults 20, 32MiB)
set -euo pipefail
cd "$(dirname "$0")/../.."
duration=${1:-20}
cache=${2:-32MiB}
flood_seconds=${FLOOD_SECONDS:-60}
flood_text=${FLOOD_TEXT:-none}
case $flood_text in none | ascii | cjk) ;; *) echo "cold.sh: FLOOD_TEXT is none, ascii or cjk, not $flood_text" >&2; exit 2 ;; esac
after_seconds=${AFTER_SECONDS:-30}
command -v wrk >/dev/null || { echo "cold.sh: wrk is not installed (apt-get install -y wrk)" >&2; exit 2; }
command -v curl >/dev/null || { echo "cold.sh: curl is not installed (apt-get install -y curl)" >&2; exit 2; }

# CACHE in bytes, with the units `staunton serve --cache-size` takes.
cache_lower=${cache,,}
cache_n=${cache_lower%%[!0-9]*}
case ${cache_lower#"$cache_n"} in
  "" | b) factor=1 ;;
  k | kb) factor=1000 ;;
  kib) factor=1024 ;;
  m | mb) factor=1000000 ;;
  mib) factor=1048576 ;;
  g | gb) factor=1000000000 ;;
  gib) factor=1073741824 ;;
  *) echo "cold.sh: cannot read the cache size $cache (e.g. 32MiB, 500MB, 1048576)" >&2; exit 2 ;;
esac
[[ -n $cache_n ]] || { echo "cold.sh: cannot read the cache size $cache" >&2; exit 2; }
cache_bytes=$((cache_n * factor))

cargo build --release --quiet --bin staunton --example resvg_server
target=$(scripts/target-dir.sh)/release
addr=${COLD_ADDR:-127.0.0.1:18096}
base=${COLD_BASE_ADDR:-127.0.0.1:18082}
staunton_pid=""
base_pid=""
wrk_pid=""
tmp=$(mktemp -d)
# wrk_pid is the subshell running the flood's `timeout wrk`: TERM its child, timeout, which
# passes the signal on to wrk.
trap '[[ -n $wrk_pid ]] && pkill -P "$wrk_pid" 2>/dev/null; kill $staunton_pid $base_pid $wrk_pid 2>/dev/null || true; rm -rf "$tmp"' EXIT

start_staunton() {
  RUST_LOG=warn "${STAUNTON_BIN:-$target/staunton}" serve --addr "$addr" --cache-size "$cache" & staunton_pid=$!
}
wait_for() { # url pid name: up to 10 s for a 200
  for _ in $(seq 100); do
    kill -0 "$2" 2>/dev/null || { echo "cold.sh: $3 exited (is the port in use?)" >&2; exit 1; }
    curl -fs --max-time 1 "$1" -o /dev/null && return 0
    sleep 0.1
  done
  echo "cold.sh: $3 did not answer $1 within 10 s" >&2
  exit 1
}
start_staunton
"$target/examples/resvg_server" "$base" & base_pid=$!
wait_for "http://$addr/health" "$staunton_pid" staunton
wait_for "http://$base/diagram?fen=start" "$base_pid" resvg_server

lua=$tmp/cold.lua
cat > "$lua" <<'LUA'
-- Arguments (after --): mode (cold | warm), stride (wrk threads), base (first n),
-- count ("count": tally non-2xx answers in a response callback, printed by done),
-- text (none | ascii | cjk: captions and card titles, see FLOOD_TEXT).
-- Thread t sends n = base + t, base + t + stride, ...: all threads together send every n once.
local next_id = 0
local threads = {}
function setup(thread)
  thread:set("id", next_id)
  next_id = next_id + 1
  table.insert(threads, thread)
end

local mode, stride, base, k, text = "cold", 1, 0, 0, "none"
function init(args)
  mode = args[1] or "cold"
  stride = tonumber(args[2]) or 1
  base = tonumber(args[3]) or 0
  text = args[5] or "none"
  if args[4] == "count" then
    non2xx = 0
    response = function(status, headers, body)
      if status < 200 or status > 299 then
        non2xx = non2xx + 1
      end
    end
  end
end

-- A position from n: both kings and 8-28 other pieces on distinct squares, no pawn on the
-- first or last rank. Park-Miller LCG (products stay below 2^53, exact in Lua numbers).
local kinds = "PNBRQpnbrqPp"
local function fen_for(n)
  local x = (n * 7919 + 12345) % 2147483647
  if x == 0 then x = 1 end
  local function rand(m)
    x = (x * 16807) % 2147483647
    return x % m
  end
  rand(2); rand(2)
  local board = {}
  local function place(piece)
    while true do
      local sq = rand(64)
      local row = math.floor(sq / 8)
      local pawn = piece == "P" or piece == "p"
      if board[sq] == nil and not (pawn and (row == 0 or row == 7)) then
        board[sq] = piece
        return
      end
    end
  end
  place("K")
  place("k")
  for _ = 1, 8 + rand(21) do
    local i = rand(#kinds) + 1
    place(kinds:sub(i, i))
  end
  local ranks = {}
  for row = 0, 7 do
    local s, empty = "", 0
    for file = 0, 7 do
      local p = board[row * 8 + file]
      if p then
        if empty > 0 then s = s .. empty; empty = 0 end
        s = s .. p
      else
        empty = empty + 1
      end
    end
    if empty > 0 then s = s .. empty end
    ranks[#ranks + 1] = s
  end
  local side = rand(2) == 0 and "w" or "b"
  return table.concat(ranks, "/") .. "_" .. side .. "_-_-_0_" .. (n + 1)
end

-- `count` characters for request n, percent-encoded: CJK ideographs (U+4E00-U+9FFF,
-- stepping through all 20,992 of them) or Latin letters.
local function words(n, count)
  local out = {}
  for i = 1, count do
    if text == "cjk" then
      local cp = 0x4E00 + (n * 7 + i * 2909) % 20992
      local b1 = 0xE0 + math.floor(cp / 4096)
      local b2 = 0x80 + math.floor(cp / 64) % 64
      local b3 = 0x80 + cp % 64
      out[#out + 1] = string.format("%%%02X%%%02X%%%02X", b1, b2, b3)
    else
      out[#out + 1] = string.char(97 + (n * 7 + i * 11) % 26)
    end
  end
  return table.concat(out)
end

local warm_sizes = { 240, 400, 640 }
request = function()
  local n = base + id + stride * k
  k = k + 1
  local size
  if mode == "warm" then
    size = warm_sizes[n % 3 + 1]
  else
    size = 16 + (n * 997) % 2033
  end
  if text == "none" then
    return wrk.format("GET", "/diagram?size=" .. size .. "&fen=" .. fen_for(n))
  end
  if n % 4 == 0 then
    return wrk.format("GET", "/card.png?title=" .. words(n, 3) .. "&fen=" .. fen_for(n))
  end
  return wrk.format("GET", "/diagram?size=" .. size .. "&caption=" .. words(n, 4) .. "&fen=" .. fen_for(n))
end

done = function(summary, latency, requests)
  local total, counted = 0, false
  for _, thread in ipairs(threads) do
    local c = thread:get("non2xx")
    if c then total = total + c; counted = true end
  end
  if counted then io.write(string.format("non-2xx (Lua count): %d\n", total)) end
end
LUA

# wrk_run out seconds connections url mode base [count]: wrk's report into the file out.
wrk_run() {
  local threads=2
  (( $3 < threads )) && threads=$3
  timeout $(($2 + 30)) wrk -t"$threads" -c"$3" -d"$2s" --timeout 10s --latency -s "$lua" "$4" \
    -- "$5" "$threads" "$6" "${7:--}" "${8:-none}" > "$1"
}
field() { # file what: req/s, p50, p99, requests, non-2xx
  case $2 in
    rps) awk '/Requests\/sec/ {print $2}' "$1" ;;
    p50) awk '$1 == "50%" {print $2}' "$1" ;;
    p99) awk '$1 == "99%" {print $2}' "$1" ;;
    requests) awk '/requests in/ {print $1}' "$1" ;;
    non2xx) awk '/Non-2xx or 3xx responses/ {print $NF}' "$1" ;;
    errors) awk '/Socket errors/ {sub(/^ *Socket errors: */, ""); print}' "$1" ;;
  esac
}
cpu_ticks() { # pid: the process's user + system CPU time so far, in clock ticks
  awk '{print $14 + $15}' "/proc/$1/stat"
}
cpu_ms() { # file ticks: the server's CPU milliseconds per answered request
  awk -v t="$2" -v n="$(field "$1" requests)" -v hz="$(getconf CLK_TCK)" \
    'BEGIN { if (n > 0) printf "%.2f", t * 1000 / hz / n; else print "?" }'
}
line() { # phase server file ticks
  local bad errs
  bad=$(field "$3" non2xx); errs=$(field "$3" errors)
  printf '%-6s %-9s %10s req/s   p50 %9s   p99 %9s   %7s requests   CPU %6s ms/request%s%s\n' "$1" "$2" \
    "$(field "$3" rps)" "$(field "$3" p50)" "$(field "$3" p99)" "$(field "$3" requests)" \
    "$(cpu_ms "$3" "$4")" "${bad:+, non-2xx $bad}" "${errs:+, socket errors: $errs}"
}
ratio() { # label file_staunton file_baseline ticks_staunton ticks_baseline
  awk -v a="$(field "$2" rps)" -v b="$(field "$3" rps)" -v l="$1" \
    -v ca="$(cpu_ms "$2" "$4")" -v cb="$(cpu_ms "$3" "$5")" \
    'BEGIN {
       if (b > 0) printf "%-6s Staunton/baseline %.1fx", l, a / b; else printf "%s no baseline figure", l
       if (ca > 0 && cb > 0) printf "   server CPU per request %.1fx", cb / ca
       printf "\n"
     }'
}

[[ ${FLOOD_ONLY:-0} == 1 ]] || {
echo "wrk, 2 connections, ${duration}s per phase, loopback, $(nproc) cores; baseline: resvg rasterising the whole SVG per request"
for phase in cold warm; do
  offset=0
  [[ $phase == warm ]] && offset=10000000
  t0=$(cpu_ticks "$staunton_pid")
  wrk_run "$tmp/$phase-staunton" "$duration" 2 "http://$addr/diagram" "$phase" "$offset"
  ticks_staunton=$(($(cpu_ticks "$staunton_pid") - t0))
  line "$phase" staunton "$tmp/$phase-staunton" "$ticks_staunton"
  t0=$(cpu_ticks "$base_pid")
  wrk_run "$tmp/$phase-baseline" "$duration" 2 "http://$base/diagram" "$phase" "$offset"
  ticks_baseline=$(($(cpu_ticks "$base_pid") - t0))
  line "$phase" baseline "$tmp/$phase-baseline" "$ticks_baseline"
  ratio "$phase" "$tmp/$phase-staunton" "$tmp/$phase-baseline" "$ticks_staunton" "$ticks_baseline"
done
}

# The flood: a fresh Staunton process, the cold mix on 4 connections.
kill "$base_pid" "$staunton_pid" 2>/dev/null || true
wait "$base_pid" "$staunton_pid" 2>/dev/null || true
base_pid=""
start_staunton
wait_for "http://$addr/health" "$staunton_pid" staunton
status=/proc/$staunton_pid/status
kib() { awk -v k="$1" '$1 == k":" {print $2}' "$status"; }
mib() { awk -v k="$1" 'BEGIN {printf "%.1f", k / 1024}'; }
metrics() { timeout 5 curl -fs --max-time 3 "http://$addr/metrics" | grep -E '^staunton_[a-z0-9_]*_bytes(\{| )' || true; }

echo "flood: fresh staunton --cache-size $cache, cold mix, text $flood_text, 4 connections, ${flood_seconds}s, then ${after_seconds}s idle"
wrk_run "$tmp/flood" "$flood_seconds" 4 "http://$addr/diagram" cold 20000000 count "$flood_text" &
wrk_pid=$!
samples=()
peak=0
peak_metrics=""
while kill -0 "$wrk_pid" 2>/dev/null; do
  sleep 1
  rss=$(kib VmRSS)
  samples+=("$((rss / 1024))")
  if (( rss > peak )); then
    peak=$rss
    peak_metrics=$(metrics)
  fi
done
wait "$wrk_pid" || echo "cold.sh: wrk failed or timed out during the flood" >&2
wrk_pid=""
end_rss=$(kib VmRSS)
hwm=$(kib VmHWM)
end_metrics=$(metrics)
after=()
for _ in $(seq "$after_seconds"); do
  sleep 1
  after+=("$(($(kib VmRSS) / 1024))")
done
after_rss=$(kib VmRSS)
after_metrics=$(metrics)

echo "RSS MiB, every second of the flood: ${samples[*]}"
echo "RSS MiB, every second after it:     ${after[*]}"
echo "/metrics byte gauges, MiB (at the RSS peak, sampled $(mib "$peak") MiB | end of the flood | ${after_seconds}s later):"
printf '%s\n' "$peak_metrics" > "$tmp/m1"
printf '%s\n' "$end_metrics" > "$tmp/m2"
printf '%s\n' "$after_metrics" > "$tmp/m3"
awk 'NF >= 2 {
       k = $0; sub(/[ \t]+[^ \t]+$/, "", k)
       if (!(k in seen)) { seen[k] = 1; order[++n] = k }
       v[k, FILENAME] = sprintf("%.1f", $NF / 1048576)
     }
     END {
       if (n == 0) print "  (none)"
       for (i = 1; i <= n; i++) {
         k = order[i]
         printf "  %-48s %9s %9s %9s\n", k, v[k, ARGV[1]] "", v[k, ARGV[2]] "", v[k, ARGV[3]] ""
       }
     }' "$tmp/m1" "$tmp/m2" "$tmp/m3"
lua_non2xx=$(awk '/non-2xx \(Lua count\)/ {print $NF}' "$tmp/flood")
printf 'flood: %s requests, %s req/s, p99 %s, non-2xx %s%s\n' "$(field "$tmp/flood" requests)" \
  "$(field "$tmp/flood" rps)" "$(field "$tmp/flood" p99)" "${lua_non2xx:-?}" \
  "$(e=$(field "$tmp/flood" errors); echo "${e:+, socket errors: $e}")"
verdict() { awk -v v="$1" -v b="$2" 'BEGIN {print (v <= b) ? "PASS" : "FAIL"}'; }
peak_bound=$(awk -v c="$cache_bytes" 'BEGIN {printf "%d", 1.1 * c / 1024 + 150 * 1024}')
after_bound=$(awk -v c="$cache_bytes" 'BEGIN {printf "%d", 1.1 * c / 1024 + 60 * 1024}')
printf 'peak RSS (VmHWM)        %8s MiB   bound 1.1 x cache + 150 MiB = %8s MiB   %s\n' \
  "$(mib "$hwm")" "$(mib "$peak_bound")" "$(verdict "$hwm" "$peak_bound")"
printf 'RSS at the end          %8s MiB\n' "$(mib "$end_rss")"
printf 'RSS %3ss later          %8s MiB   bound 1.1 x cache +  60 MiB = %8s MiB   %s\n' \
  "$after_seconds" "$(mib "$after_rss")" "$(mib "$after_bound")" "$(verdict "$after_rss" "$after_bound")"
