#!/usr/bin/env bash
# The composer draws its previews in the page: builds the service with `--features
# composer-wasm` (which embeds js/dist/staunton.wasm and the package's browser glue) and runs
# tests/browser/offline.mjs in headless Chromium, which stops the service halfway and checks
# the previews go on, with the service's pixels. Screenshots go to $CARGO_TARGET_DIR/browser.
#
# Reuses js/dist/staunton.wasm when it is there (CI's scripts/ci/js-test.sh built it
# earlier); else builds it with `npm ci` and `npm run build` in js/. Needs Node.js 20+ and Debian's
# chromium, like scripts/ci/browser-test.sh. The feature build's binary is kept as
# $target/composer-wasm/staunton; target/release/staunton is the default build again at the
# end when it was before. Run from anywhere:
#
#   scripts/ci/composer-wasm-test.sh              # builds the feature
#   scripts/ci/composer-wasm-test.sh STAUNTON_BIN # a binary built with it (CI: dist.sh's)
#
# Environment: CHROMIUM (default /usr/bin/chromium; the test says when it cannot start it),
# CARGO_TARGET_DIR, SHOTS.
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
cd "$root"

target="$(scripts/target-dir.sh)"
case "$target" in /*) ;; *) target="$root/$target" ;; esac
shots="${SHOTS:-$target/browser}"
mkdir -p "$shots" "$target/composer-wasm"

if [ -s js/dist/staunton.wasm ]; then
  echo "== js/dist/staunton.wasm: $(stat -c %s js/dist/staunton.wasm) bytes (built earlier)"
else
  echo "== npm ci, npm run build (js/): js/dist/staunton.wasm"
  (cd js && npm ci --no-audit --no-fund --loglevel=error && npm run build)
fi

if [ -n "${1:-}" ]; then
  echo "== $1 (built with --features composer-wasm)"
  cp "$1" "$target/composer-wasm/staunton"
else
  had_default=
  if [ -x "$target/release/staunton" ]; then had_default=1; fi
  echo "== cargo build --release --features composer-wasm"
  cargo build --release --quiet --features composer-wasm
  cp "$target/release/staunton" "$target/composer-wasm/staunton"
  if [ -n "$had_default" ]; then
    # Back to the default build's binary (its compiled crate is still there: no rebuild).
    cargo build --release --quiet
  fi
fi

if [ ! -d tests/browser/node_modules/playwright-core ]; then
  echo "== npm ci (tests/browser)"
  (cd tests/browser && npm ci --no-audit --no-fund --loglevel=error)
fi

echo "== node tests/browser/offline.mjs"
STAUNTON_BIN="$target/composer-wasm/staunton" SHOTS="$shots" node tests/browser/offline.mjs
echo "screenshots: $shots/composer-offline.png, composer-offline-error.png"
