#!/usr/bin/env bash
# End-to-end test of the front page (the composer) in headless Chromium, and of the error
# images of a page's bad <img>s in Chromium and in Firefox's engine.
#
# Builds the release binary, serves it on a free loopback port, drives the page with
# playwright-core (tests/browser/e2e.mjs), runs Debian's firefox-esr headless on a page of
# bad <img>s (tests/browser/firefox.mjs) and leaves screenshots in $CARGO_TARGET_DIR/browser
# (target/browser by default). Needs Node.js 20+, Debian's chromium (`apt-get install -y
# chromium`) and, for the Firefox part, firefox-esr (`apt-get install -y firefox-esr`; CI
# installs both); this script installs no browser. Without firefox-esr the Firefox part is
# skipped with a note, unless STAUNTON_REQUIRE_FIREFOX=1 (CI), which makes it a failure.
# Run from anywhere:
#
#   scripts/ci/browser-test.sh
#
# Environment: CHROMIUM (default /usr/bin/chromium), FIREFOX (default /usr/bin/firefox-esr),
# STAUNTON_REQUIRE_FIREFOX, CARGO_TARGET_DIR, SHOTS (screenshot dir).
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
cd "$root"

chromium="${CHROMIUM:-/usr/bin/chromium}"
if [ ! -x "$chromium" ]; then
  echo "browser-test: no Chromium at $chromium; install it (apt-get install -y chromium) or set CHROMIUM" >&2
  exit 1
fi
if ! command -v node > /dev/null; then
  echo "browser-test: Node.js is needed (apt-get install -y nodejs npm)" >&2
  exit 1
fi

target="$(scripts/target-dir.sh)"
case "$target" in /*) ;; *) target="$root/$target" ;; esac
shots="${SHOTS:-$target/browser}"
mkdir -p "$shots"

echo "== cargo build --release"
cargo build --release --quiet
bin="$target/release/staunton"

port="$(node -e 'const s = require("net").createServer().listen(0, "127.0.0.1", () => { console.log(s.address().port); s.close(); });')"
url="http://127.0.0.1:$port"
log="$shots/server.log"
"$bin" serve --addr "127.0.0.1:$port" > "$log" 2>&1 &
server=$!
trap 'kill "$server" 2> /dev/null || true; wait "$server" 2> /dev/null || true' EXIT

echo "== serving $url (log: $log)"
ready=
for _ in $(seq 1 100); do
  if ! kill -0 "$server" 2> /dev/null; then
    echo "browser-test: the server exited; its log:" >&2
    cat "$log" >&2
    exit 1
  fi
  if node -e 'fetch(process.argv[1]).then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))' "$url/health"; then
    ready=1
    break
  fi
  sleep 0.1
done
if [ -z "$ready" ]; then
  echo "browser-test: $url/health did not answer within 10 s; server log:" >&2
  cat "$log" >&2
  exit 1
fi

if [ ! -d tests/browser/node_modules/playwright-core ]; then
  echo "== npm ci (tests/browser)"
  (cd tests/browser && npm ci --no-audit --no-fund --loglevel=error)
fi

echo "== node tests/browser/e2e.mjs"
STAUNTON_URL="$url" SHOTS="$shots" CHROMIUM="$chromium" node tests/browser/e2e.mjs
echo "== node tests/browser/editor.mjs"
STAUNTON_URL="$url" SHOTS="$shots" CHROMIUM="$chromium" node tests/browser/editor.mjs
firefox="${FIREFOX:-/usr/bin/firefox-esr}"
if [ -x "$firefox" ]; then
  echo "== node tests/browser/firefox.mjs ($firefox)"
  STAUNTON_URL="$url" SHOTS="$shots" FIREFOX="$firefox" node tests/browser/firefox.mjs
elif [ "${STAUNTON_REQUIRE_FIREFOX:-}" = 1 ]; then
  echo "browser-test: no Firefox at $firefox; install it (apt-get install -y firefox-esr) or set FIREFOX" >&2
  exit 1
else
  echo "== Firefox part skipped: no Firefox at $firefox (apt-get install -y firefox-esr, or set FIREFOX)"
fi
echo "screenshots: $shots/composer.png, $shots/composer-phone.png (and composer-dark.png, composer-error.png)"
echo "             $shots/editor-1200.png, editor-1200-dark.png, editor-390.png, editor-390-dark.png"
echo "             $shots/error-images.png (Chromium), firefox-errors.png (Firefox)"
echo "== node tests/browser/warning.mjs"
STAUNTON_URL="$url" SHOTS="$shots" CHROMIUM="$chromium" node tests/browser/warning.mjs
echo "== node tests/browser/page.mjs (background=auto, light and dark colour schemes)"
STAUNTON_URL="$url" SHOTS="$shots" CHROMIUM="$chromium" node tests/browser/page.mjs
