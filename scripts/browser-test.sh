#!/usr/bin/env bash
# End-to-end test of the front page in headless Chromium: builds the release binary, serves
# it on a free loopback port, drives the page with playwright-core (tests/browser/e2e.mjs),
# and leaves screenshots in target/browser/. Needs Debian's chromium (`.ci/run` installs
# it) and Node.js; run from anywhere: scripts/browser-test.sh
set -euo pipefail
cd "$(dirname "$0")/.."
chromium="${CHROMIUM:-/usr/bin/chromium}"
if [ ! -x "$chromium" ]; then
  echo "no Chromium at $chromium: apt-get install -y chromium (or set CHROMIUM)" >&2
  exit 1
fi
cargo build --release --quiet
target="${CARGO_TARGET_DIR:-target}"
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
"$target/release/staunton" serve --addr "127.0.0.1:$port" > "$target/browser-server.log" 2>&1 &
server=$!
trap 'kill $server 2>/dev/null || true' EXIT
for _ in $(seq 1 100); do
  curl -fs "http://127.0.0.1:$port/health" > /dev/null && break
  sleep 0.1
done
if [ ! -d tests/browser/node_modules ]; then
  (cd tests/browser && npm ci --no-audit --no-fund --silent)
fi
STAUNTON_URL="http://127.0.0.1:$port" SHOTS="$target/browser" CHROMIUM="$chromium" \
  node tests/browser/e2e.mjs
