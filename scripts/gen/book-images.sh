#!/usr/bin/env bash
# Renders again every picture of the book and README that shows pieces, with the commands
# the chapters give for them, so a change of the piece drawing reaches the docs in one step:
#
#   scripts/gen/book-images.sh
#
# - every table row `| ![…](img/NAME.png) | … | `/diagram?…` |` of docs/src/*.md: the URL,
#   asked of a release build serving on a spare port;
# - the Opera Game after 16. Qb8+!! and as a GIF (games.md), the worksheet page (worksheets.md,
#   through pdftoppm), the corner of a printed PDF (formats.md, through pdftocairo), and the
#   contact sheets and proportions (pieces.md).
# Needs poppler-utils (pdftoppm, pdftocairo) and curl. Look at every picture afterwards.
set -euo pipefail
cd "$(dirname "$0")/../.."

cargo build --release --quiet --bin staunton --example contact_sheet
bin=target/release/staunton
img=docs/src/img
tmp=$(mktemp -d)
port=18931
"$bin" serve --addr "127.0.0.1:$port" > "$tmp/serve.log" 2>&1 &
server=$!
trap 'kill $server 2> /dev/null || true; rm -rf "$tmp"' EXIT
for _ in $(seq 50); do
  curl -fs "http://127.0.0.1:$port/health" > /dev/null && break
  sleep 0.1
done

echo "== URL rows of the book"
grep -ho '^| !\[[^]]*\](img/[a-z0-9-]*\.png) |.*`/diagram?[^`]*`' docs/src/*.md |
  sed -E 's/^\| !\[[^]]*\]\(img\/([a-z0-9-]+\.png)\) \|.*`(\/diagram\?[^`]*)`.*/\1 \2/' |
  while read -r name url; do
    case "$url" in *"…"*) continue ;; esac # abridged: below
    # `[`, `]`, `%` and spaces as a browser would send them.
    query=$(printf '%s' "$url" | sed -e 's/ /%20/g' -e 's/\[/%5B/g' -e 's/\]/%5D/g')
    curl -fsS "http://127.0.0.1:$port$query" -o "$img/$name"
    echo "   $name"
  done

echo "== games, worksheets, formats"
curl -fsS -G "http://127.0.0.1:$port/diagram" --data-urlencode pgn@tests/fixtures/games/opera.pgn \
  -d ply=31 -d size=240 -o "$img/g-pgn-badge.png"
"$bin" render --pgn tests/fixtures/games/opera.pgn --size 320 --delay 70 -o "$img/opera.gif"
"$bin" sheet tests/fixtures/puzzles/eight.epd -o "$tmp/sheet.pdf" --title "Homework 3: tactics" --solutions
pdftoppm -r 72 -f 1 -l 1 -png -singlefile "$tmp/sheet.pdf" "$tmp/page"
mv "$tmp/page.png" "$img/sheet-a4.png"
"$bin" render 'r1bq1rk1/pp3ppp/3n4/2p1N3/2B5/7P/PPP2PP1/R1BQR1K1 w' --theme print --size 240 -o "$tmp/print.pdf"
pdftocairo -r 216 -png -singlefile -x 0 -y 0 -W 360 -H 360 "$tmp/print.pdf" "$tmp/corner"
mv "$tmp/corner.png" "$img/pdf-print-corner.png"

echo "== contact sheets"
cargo run --release --quiet --example contact_sheet -- "$img"
echo "done: look at every picture in $img before committing"
