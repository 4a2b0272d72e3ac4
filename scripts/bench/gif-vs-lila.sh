#!/usr/bin/env bash
# Animated GIFs of a whole game: Staunton's POST /game.gif against lichess's lila-gif (the
# reference; github.com/lichess-org/lila-gif, AGPL: we run it, never copy it). One PGN game,
# the positions after every ply made by python-chess, both servers on loopback:
#   lila-gif  POST /game.gif, JSON {white, black, delay, coordinates: false, frames: [{fen,
#             lastMove (UCI), check (the king's square, when in check)}]}: the start position
#             and one frame per ply, every frame the default delay (DELAY, 50 cs; lila-gif's
#             own default when "delay" is left out is 0, not the 50 of its README).
#   Staunton  POST /game.gif?size=720&coordinates=none, the game's PGN as the body
#             (Content-Type: application/x-chess-pgn; headers and main line, comments and
#             variations dropped, unless PGN_AS_IS=1 sends the file's bytes).
# lila-gif's board is fixed: 720 px (90 px squares), no size parameter. It draws coordinates
# inside the edge squares by default ("coordinates": false turns them off, as here), and a
# 60 px player bar above and below the board (720x840) as soon as a white or black name (or a
# clock) is given; without names the image is exactly the 720x720 board. Names are sent by
# default (NAMES=1); NAMES=0 leaves them out, for a like-for-like comparison with a Staunton
# GIF that has no player bars. Its animation is the first frame in full, then only the
# changed squares on a transparent background, plus one extra frame at the end (1 cs, all
# bar colour: a workaround for Twitter), so its frame count is plies + 2 where a plain
# animation has plies + 1. Like-for-like therefore means: 720 px board, no coordinates on
# either side, the same bars (or none), and frames compared as plies + 1 against plies + 2.
# The table prints both GIFs' sizes (width x height), image count and total delay, so any
# difference in what was drawn shows there.
# Timing: curl's time_total per request (new connection each time, the whole body read),
# the first request to each fresh server ("first") separately, then WARMUP untimed requests
# each, then ROUNDS rounds, lila-gif and Staunton alternating; median and p90 (nearest rank)
# in ms, bytes, and the ratios Staunton / lila-gif. lila-gif has no cache (it renders every
# request). Staunton caches by a normalised key in which unknown query parameters do not
# appear, so every request is made distinct: BUST=n (default) adds &n=<request number>,
# which is ignored and so probably does NOT defeat the cache; BUST=delay sends
# delay=<80 + request number> instead (the same work, the delay field differs); BUST=pgn
# appends a comment { n } to the PGN; BUST=none sends identical requests. Whichever, the
# script reads staunton_cache_hits_total from /metrics before and after the timed rounds
# and warns if the cache answered any of them.
# One GIF from each is saved under OUT_DIR (default target/gif-vs-lila/).
# lila-gif: its checkout in LILA_GIF_DIR (default /tmp/lila-gif), built there with
# CARGO_TARGET_DIR=LILA_TARGET_DIR (default /tmp/lila-target), nice -n 10, if the binary is
# missing. Staunton is built with cargo build --release --bin staunton (honours
# CARGO_TARGET_DIR). ONLY_LILA=1 measures lila-gif alone (no Staunton build or server).
# A non-200 from either server prints the status and body and exits non-zero.
# Bounded (builds, python and every curl under timeout), loopback only; the servers are
# stopped and the temporary files removed at the end or on error. Needs curl and python3
# with python-chess (pip install chess).
# Usage: scripts/bench/gif-vs-lila.sh [PGN] [ROUNDS]   (defaults tests/fixtures/games/long.pgn, 30)
set -euo pipefail
cd "$(dirname "$0")/../.."
pgn=${1:-tests/fixtures/games/long.pgn}
rounds=${2:-30}
warmup=${WARMUP:-3}
delay=${DELAY:-50}
names=${NAMES:-1}
bust=${BUST:-n}
only_lila=${ONLY_LILA:-0}
out_dir=${OUT_DIR:-target/gif-vs-lila}
lila_dir=${LILA_GIF_DIR:-/tmp/lila-gif}
lila_target=${LILA_TARGET_DIR:-/tmp/lila-target}
me=gif-vs-lila.sh
[[ -f $pgn ]] || { echo "$me: no PGN file $pgn (usage: scripts/bench/gif-vs-lila.sh [PGN] [ROUNDS])" >&2; exit 2; }
[[ $rounds =~ ^[1-9][0-9]*$ ]] || { echo "$me: ROUNDS must be a positive integer, not $rounds" >&2; exit 2; }
case $bust in n | delay | pgn | none) ;; *) echo "$me: BUST must be n, delay, pgn or none" >&2; exit 2 ;; esac
command -v curl >/dev/null || { echo "$me: curl is not installed (apt-get install -y curl)" >&2; exit 2; }
command -v python3 >/dev/null || { echo "$me: python3 is not installed" >&2; exit 2; }
python3 -c 'import chess.pgn' 2>/dev/null ||
  { echo "$me: python-chess is missing (pip install chess)" >&2; exit 2; }

# Builds.
lila_bin=$lila_target/release/lila-gif
if [[ ! -x $lila_bin ]]; then
  [[ -f $lila_dir/Cargo.toml ]] ||
    { echo "$me: no lila-gif checkout in $lila_dir (git clone https://github.com/lichess-org/lila-gif $lila_dir)" >&2; exit 2; }
  echo "building lila-gif in $lila_dir (target $lila_target)..." >&2
  (cd "$lila_dir" && CARGO_TARGET_DIR=$lila_target timeout 3600 nice -n 10 cargo build --release --quiet)
fi
if [[ $only_lila != 1 ]]; then
  timeout 3600 nice -n 10 cargo build --release --quiet --bin staunton
fi
staunton_bin=$(scripts/target-dir.sh)/release/staunton

lila_addr=127.0.0.1:18098
staunton_addr=127.0.0.1:18097
lila_pid=""
staunton_pid=""
tmp=$(mktemp -d)
trap 'kill $lila_pid $staunton_pid 2>/dev/null || true; rm -rf "$tmp"' EXIT

# The game: frames JSON for lila-gif, the PGN body for Staunton, the ply count and names.
cat > "$tmp/frames.py" <<'PY'
import json, sys
import chess, chess.pgn
path, out, delay, names, as_is = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4] == "1", sys.argv[5] == "1"
with open(path, encoding="utf-8-sig", errors="replace") as f:
    game = chess.pgn.read_game(f)
    more = chess.pgn.read_game(f) is not None
if game is None:
    sys.exit(f"no game in {path}")
if game.errors:
    sys.exit(f"{path}: python-chess could not read the game: {game.errors[0]}")
board = game.board()
def frame(board, move):
    f = {"fen": board.fen()}
    if move is not None:
        f["lastMove"] = move.uci()
    if board.is_check():
        f["check"] = chess.square_name(board.king(board.turn))
    return f
frames = [frame(board, None)]
for move in game.mainline_moves():
    board.push(move)
    frames.append(frame(board, move))
body = {"delay": delay, "coordinates": False, "frames": frames}
white, black = game.headers.get("White", ""), game.headers.get("Black", "")
if names:
    for key, name in (("white", white), ("black", black)):
        if name and name != "?":
            body[key] = name.encode()[:100].decode(errors="ignore")
with open(f"{out}/frames.json", "w") as f:
    json.dump(body, f)
if as_is:
    with open(path, "rb") as src, open(f"{out}/game.pgn", "wb") as dst:
        dst.write(src.read())
else:
    exporter = chess.pgn.StringExporter(headers=True, variations=False, comments=False)
    with open(f"{out}/game.pgn", "w") as f:
        f.write(game.accept(exporter) + "\n")
print(len(frames) - 1, white or "?", black or "?", "more" if more else "one", sep="\t")
PY
IFS=$'\t' read -r plies white black more < <(timeout 60 python3 "$tmp/frames.py" "$pgn" "$tmp" "$delay" "$names" "${PGN_AS_IS:-0}")
[[ -n ${plies:-} ]] || { echo "$me: could not turn $pgn into frames" >&2; exit 1; }
[[ $more == more ]] && echo "$me: $pgn holds more than one game; using the first" >&2

# GIF facts without dependencies: width, height, image descriptors, total delay (cs).
cat > "$tmp/gifinfo.py" <<'PY'
import sys
d = open(sys.argv[1], "rb").read()
if d[:6] not in (b"GIF87a", b"GIF89a"):
    sys.exit("not a GIF")
w, h, packed = d[6] | d[7] << 8, d[8] | d[9] << 8, d[10]
i = 13 + (3 << ((packed & 7) + 1) if packed & 0x80 else 0)
def skip_sub(i):
    while d[i]:
        i += d[i] + 1
    return i + 1
images = delay = 0
while i < len(d) and d[i] != 0x3B:
    if d[i] == 0x21:
        if d[i + 1] == 0xF9:
            delay += d[i + 4] | d[i + 5] << 8
        i = skip_sub(i + 2)
    elif d[i] == 0x2C:
        images += 1
        p = d[i + 9]
        i += 10 + (3 << ((p & 7) + 1) if p & 0x80 else 0)
        i = skip_sub(i + 1)
    else:
        sys.exit(f"bad block 0x{d[i]:02x} at {i}")
print(f"{w}x{h}", images, f"{delay / 100:.1f}s")
PY

wait_for() { # url pid name: up to 10 s for a 200
  for _ in $(seq 100); do
    kill -0 "$2" 2>/dev/null || { echo "$me: $3 exited (is the port in use?)" >&2; exit 1; }
    timeout 5 curl -fs --max-time 1 "$1" -o /dev/null && return 0
    sleep 0.1
  done
  echo "$me: $3 did not answer $1 within 10 s" >&2
  exit 1
}
"$lila_bin" --bind "$lila_addr" & lila_pid=$!
if [[ $only_lila != 1 ]]; then
  RUST_LOG=warn "$staunton_bin" serve --addr "$staunton_addr" & staunton_pid=$!
  wait_for "http://$staunton_addr/health" "$staunton_pid" staunton
fi
wait_for "http://$lila_addr/image.gif" "$lila_pid" lila-gif

# request server k out: one request (k its number, for cache busting); appends
# "ms bytes" to $tmp/server.times unless out is "-" and fails loudly on a non-200.
request() {
  local server=$1 k=$2 out=$3 body=$tmp/$1.body w code secs size
  if [[ $server == lila ]]; then
    w=$(timeout 130 curl -s --max-time 120 -o "$body" -w '%{http_code} %{time_total} %{size_download}' \
      -H 'Content-Type: application/json' --data-binary "@$tmp/frames.json" \
      "http://$lila_addr/game.gif") || true
  else
    local query="size=720&coordinates=none" pgn_body=$tmp/game.pgn
    case $bust in
      n) query+="&n=$k" ;;
      delay) query+="&delay=$((80 + k))" ;;
      pgn) pgn_body=$tmp/game-$k.pgn; { cat "$tmp/game.pgn"; echo "{ $k }"; } > "$pgn_body" ;;
    esac
    w=$(timeout 130 curl -s --max-time 120 -o "$body" -w '%{http_code} %{time_total} %{size_download}' \
      -H 'Content-Type: application/x-chess-pgn' --data-binary "@$pgn_body" \
      "http://$staunton_addr/game.gif?$query") || true
    [[ $bust == pgn ]] && rm -f "$pgn_body"
  fi
  read -r code secs size <<< "${w:-000 0 0}"
  if [[ $code != 200 ]]; then
    echo "$me: $server answered HTTP $code (request $k):" >&2
    head -c 2000 "$body" >&2 2>/dev/null || true
    echo >&2
    exit 1
  fi
  awk -v s="$secs" -v b="$size" 'BEGIN { printf "%.2f %d\n", s * 1000, b }' >> "$tmp/$server.$out"
  cp "$body" "$tmp/$server.gif"
}
cache_hits() {
  timeout 5 curl -fs --max-time 3 "http://$staunton_addr/metrics" |
    awk '$1 == "staunton_cache_hits_total" {print $2}' || true
}

servers=(lila)
[[ $only_lila != 1 ]] && servers+=(staunton)
# First request to each fresh server, then the warm-up, then the timed rounds, alternating.
for s in "${servers[@]}"; do request "$s" $((rounds + 1)) first; done
for i in $(seq "$warmup"); do
  for s in "${servers[@]}"; do request "$s" $((rounds + 1 + i)) warm; done
done
hits_before=""
[[ $only_lila != 1 ]] && hits_before=$(cache_hits)
for i in $(seq "$rounds"); do
  for s in "${servers[@]}"; do request "$s" "$i" times; done
done
hits_after=""
[[ $only_lila != 1 ]] && hits_after=$(cache_hits)

mkdir -p "$out_dir"
stat() { # server what: median | p90 | bytes
  case $2 in
    median) cut -d' ' -f1 "$tmp/$1.times" | sort -n | awk '{a[NR] = $1} END {printf "%.1f\n", (NR % 2) ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2}' ;;
    p90) cut -d' ' -f1 "$tmp/$1.times" | sort -n | awk '{a[NR] = $1} END {i = int(0.9 * NR); if (i < 0.9 * NR) i++; printf "%.1f\n", a[i]}' ;;
    bytes) cut -d' ' -f2 "$tmp/$1.times" | sort -n | uniq | tr '\n' ' ' | sed 's/ $//; s/ /,/g' ;;
    first) awk '{printf "%.1f\n", $1}' "$tmp/$1.first" ;;
  esac
}
echo "game: $pgn, $plies plies, $white - $black; $rounds timed rounds after $warmup warm-up requests each; loopback, $(nproc) cores"
printf '%-9s %10s %10s %10s %10s %10s %10s %12s\n' server first_ms median_ms p90_ms bytes size images duration
saved=()
for s in "${servers[@]}"; do
  cp "$tmp/$s.gif" "$out_dir/$s.gif"
  saved+=("$out_dir/$s.gif")
  read -r dims images duration < <(timeout 60 python3 "$tmp/gifinfo.py" "$tmp/$s.gif")
  printf '%-9s %10s %10s %10s %10s %10s %10s %12s\n' "$s" "$(stat "$s" first)" "$(stat "$s" median)" \
    "$(stat "$s" p90)" "$(stat "$s" bytes)" "$dims" "$images" "$duration"
done
echo "(lila-gif's images: the start position, one per ply and a closing 1 cs frame = plies + 2 = $((plies + 2)))"
if [[ $only_lila != 1 ]]; then
  awk -v sm="$(stat staunton median)" -v lm="$(stat lila median)" -v sp="$(stat staunton p90)" \
    -v lp="$(stat lila p90)" -v sb="$(stat staunton bytes | cut -d, -f1)" -v lb="$(stat lila bytes | cut -d, -f1)" \
    'BEGIN { printf "Staunton / lila-gif: median time %.2fx, p90 time %.2fx, bytes %.2fx\n", sm / lm, sp / lp, sb / lb }'
  if [[ -n $hits_before && -n $hits_after ]]; then
    hits=$(awk -v a="$hits_after" -v b="$hits_before" 'BEGIN {printf "%d", a - b}')
    if (( hits > 0 )); then
      echo "WARNING: Staunton's cache answered $hits of the $rounds timed requests (BUST=$bust): its times are not renders; try BUST=delay or BUST=pgn"
    else
      echo "Staunton's cache answered none of the timed requests (BUST=$bust)"
    fi
  else
    echo "(no staunton_cache_hits_total in /metrics: cache hits not checked)"
  fi
fi
echo "GIFs: ${saved[*]}"
