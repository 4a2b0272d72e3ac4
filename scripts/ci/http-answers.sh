#!/usr/bin/env bash
# The service's answers to the paths the HTTP tests ask for: each path's status, headers
# (the date dropped) and a hash of its body, so two builds can be compared byte for byte
# (a refactoring must change nothing: diff the two outputs).
# Usage: scripts/ci/http-answers.sh [BIN] [PORT] [PATHS] > answers.txt
set -euo pipefail
cd "$(dirname "$0")/../.."
bin=${1:-$(scripts/target-dir.sh)/release/staunton}; port=${2:-18557}
paths=${3:-tests/fixtures/http-answer-paths.txt}
tmp=$(mktemp -d)
RUST_LOG=warn "$bin" serve --addr 127.0.0.1:$port & pid=$!
trap 'rm -rf "$tmp"; kill $pid 2>/dev/null; wait $pid 2>/dev/null || true' EXIT
for _ in $(seq 200); do curl -fs http://127.0.0.1:$port/health -o /dev/null && break; sleep 0.05; done
while IFS= read -r path; do
  echo "== GET $path"
  curl -sS -D "$tmp/h" -o "$tmp/b" "http://127.0.0.1:$port$path" || echo "curl failed"
  grep -viE '^(date|x-render-ms|server-timing|x-request-id):' "$tmp/h" | tr -d '\r' | sort |
    { if [[ $path == /metrics* ]]; then grep -v '^content-length'; else cat; fi; }
  if [[ $path == /metrics* ]]; then echo "(metrics length and body not compared)"; else sha256sum < "$tmp/b"; fi
done < "$paths"
# Two POST bodies: PGN games.
for route in /game.gif /game.json; do
  echo "== POST $route"
  curl -sS -D "$tmp/h" -o "$tmp/b" -H 'content-type: application/x-chess-pgn' --data-binary '1. e4 e5 2. Nf3 Nc6 3. Bb5 a6' "http://127.0.0.1:$port$route" || true
  grep -viE '^(date|x-render-ms|server-timing|x-request-id):' "$tmp/h" | tr -d '\r' | sort
  sha256sum < "$tmp/b"
done
