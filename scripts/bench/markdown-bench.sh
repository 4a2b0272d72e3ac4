#!/usr/bin/env bash
# The benchmark of issue 30: a Markdown document of 200 distinct diagram fences through
# `staunton markdown`, timed with hyperfine (wall time, mean of several runs):
#   - --images DIR (SVG files, the default format), a fresh DIR each run;
#   - --images DIR --format png, a fresh DIR each run;
#   - --url BASE and the default inline SVG, for comparison.
# The fences are realistic and all different: eight positions (openings, a middlegame,
# endings), sizes 240 to 400, black's side, captions, arrows, last moves, and pgn fences
# showing a ply of a game.
#
#   scripts/bench/markdown-bench.sh [STAUNTON_BIN]
#
# STAUNTON_BIN defaults to cargo's target folder/release/staunton, built with
# `cargo build --release` when missing. Installs Debian's hyperfine when it is missing.
# Prints hyperfine's table and the mean of each command. It asserts no timing (the
# numbers go in the README); exit status 1 only when a run fails or writes the wrong files.
set -euo pipefail
cd "$(dirname "$0")/../.."

fail() {
  echo "markdown-bench: FAILED: $*" >&2
  exit 1
}

staunton=${1:-$(scripts/target-dir.sh)/release/staunton}
if [ ! -x "$staunton" ]; then
  [ $# -eq 0 ] || fail "$staunton is not an executable file"
  echo "== cargo build --release"
  cargo build --release
fi
staunton=$(cd "$(dirname "$staunton")" && pwd)/$(basename "$staunton")
if ! command -v hyperfine >/dev/null; then
  apt-get update -qq && apt-get install -y -qq hyperfine >/dev/null
fi

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

fens=(
  "start"
  "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1"
  "rnbqkbnr/pp1ppppp/8/2p5/4P3/8/PPPP1PPP/RNBQKBNR w KQkq c6 0 2"
  "r1bqkbnr/pppp1ppp/2n5/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R b KQkq - 3 3"
  "rnbqkbnr/ppp1pppp/8/3p4/2PP4/8/PP2PPPP/RNBQKBNR b KQkq c3 0 2"
  "r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N1PN2/PP3PPP/R2QKB1R w KQ - 0 8"
  "1K1k4/1P6/8/8/8/8/r7/2R5 w - - 0 1"
  "8/8/8/4k3/8/8/4P3/4K3 w - - 0 1"
)
arrows=("e2->e4" "g1-f3, d2-d4" "e4-e5" "f1-b5, e1-g1" "c4-d5" "c1-g5" "c1-c4" "e1-d2")
sizes=(240 280 320 360 400)
game='[Event "Ruy Lopez"]

1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 4. Ba4 Nf6 5. O-O Be7 6. Re1 b5 7. Bb3 d6 8. c3 O-O'

# Fence i (0..199): (position, size) from i mod 40 and one of five kinds from i / 40, so
# no two fences make the same request.
fence() {
  local i=$1 p=$(($1 % 8)) s=${sizes[$((($1 / 8) % 5))]}
  case $(($1 / 40)) in
    0) printf '```fen size=%s\n%s\n```\n' "$s" "${fens[$p]}" ;;
    1) printf '```fen size=%s orientation=black\ncaption: Diagram %s, from black'"'"'s side\n%s\n```\n' \
      "$s" "$i" "${fens[$p]}" ;;
    2) printf '```chess\nsize: %s\narrows: %s\n%s\n```\n' "$s" "${arrows[$p]}" "${fens[$p]}" ;;
    3) printf '~~~chessboard size=%s coordinates=false\nlastMove: e2 e4\n%s\n~~~\n' "$s" "${fens[$p]}" ;;
    4) printf '```pgn ply=%s size=%s\n%s\n```\n' "$((p * 2 + 1))" "$s" "$game" ;;
  esac
}

doc=$work/doc.md
{
  echo "# Two hundred diagrams"
  echo
  for i in $(seq 0 199); do
    printf '## Position %s\n\nSome prose about the position, with *emphasis* and a [link](https://example.org/%s).\n\n' "$i" "$i"
    fence "$i"
    echo
  done
} >"$doc"
echo "== $doc: $(grep -cE '^(```|~~~)(fen|chess|chessboard|pgn)' "$doc") diagram fences, $(wc -c <"$doc") bytes"

# One run of each first: a failure stops here with staunton's own message.
for format in svg png; do
  "$staunton" markdown "$doc" -o "$work/out-$format.md" --images "$work/img-$format" --format "$format" ||
    fail "--images --format $format"
  count=$(find "$work/img-$format" -name "*.$format" | wc -l)
  [ "$count" -eq 200 ] || fail "--format $format wrote $count files, expected 200"
done
"$staunton" markdown "$doc" -o "$work/out-url.md" --url https://diagrams.example.org || fail "--url"
"$staunton" markdown "$doc" -o "$work/out-inline.md" || fail "inline"
for mode in svg png url inline; do
  if grep -qE '^(```|~~~)(fen|chess|chessboard|pgn)' "$work/out-$mode.md"; then
    fail "$mode left a diagram fence in the document"
  fi
done

if [ -x /usr/bin/time ]; then
  rm -rf "$work/img-svg"
  peak=$(/usr/bin/time -f '%M KB' "$staunton" markdown "$doc" -o "$work/out-svg.md" \
    --images "$work/img-svg" 2>&1 >/dev/null) || fail "the measured run"
  echo "== peak memory (maximum resident set) of one --images run (SVG): $peak"
fi

echo "== hyperfine ($(nproc) cores)"
hyperfine --warmup 2 --min-runs 20 --shell=none \
  --export-markdown "$work/table.md" --export-json "$work/times.json" \
  --prepare "rm -rf $work/img-svg" \
  -n "images svg" "$staunton markdown $doc -o $work/out-svg.md --images $work/img-svg" \
  --prepare "rm -rf $work/img-png" \
  -n "images png" "$staunton markdown $doc -o $work/out-png.md --images $work/img-png --format png" \
  --prepare "true" \
  -n "url" "$staunton markdown $doc -o $work/out-url.md --url https://diagrams.example.org" \
  --prepare "true" \
  -n "inline" "$staunton markdown $doc -o $work/out-inline.md" ||
  fail "a timed run failed"

echo
cat "$work/table.md"
echo
python3 - "$work/times.json" <<'EOF'
import json, sys
for r in json.load(open(sys.argv[1]))["results"]:
    print(f"mean wall time, {r['command']}: {r['mean'] * 1000:.1f} ms")
EOF
