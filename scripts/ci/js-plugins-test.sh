#!/usr/bin/env bash
# The build-time Markdown plugins of the npm package (js/remark.js, js/markdown-it.js) with
# the real tools, pinned in js/package-lock.json:
#   - unified + remark-parse + remark-rehype + rehype-stringify, and @mdx-js/mdx rendered
#     with React, on js/test/plugins-grammar.md (every info word, options in the info string
#     and in body lines, alt, caption, pgn fences, fences in lists and quotes, other code
#     left alone, bad fences, the per-document limits);
#   - markdown-it on the same document;
#   - the plugins against the crate's own `staunton markdown` (STAUNTON_BIN): the same SVG
#     bytes, file names, image bytes, service URLs and error sentences;
#   - VitePress builds js/test/site: its HTML holds each diagram with its alt text, every
#     image it links is published, and a page with a bad fence stops the build with
#     `bad.md:LINE: sentence`.
# Runs after scripts/ci/js-test.sh built js/dist/staunton.wasm (reused, not rebuilt).
#
#   scripts/ci/js-plugins-test.sh [STAUNTON_BIN]
#
# STAUNTON_BIN defaults to cargo's target folder/release/staunton.
set -euo pipefail
cd "$(dirname "$0")/../.."

fail() {
  echo "js-plugins-test: FAILED: $*" >&2
  exit 1
}

staunton=${1:-$(scripts/target-dir.sh)/release/staunton}
[ -x "$staunton" ] || fail "$staunton is not an executable file (build it with cargo build --release)"
staunton="$(cd "$(dirname "$staunton")" && pwd)/$(basename "$staunton")"
[ -s js/dist/staunton.wasm ] || fail "js/dist/staunton.wasm is missing: run scripts/ci/js-test.sh first"

cd js
# npm ci unless the tree it would make is there already (js-test.sh may have made it).
if [ ! -d node_modules/vitepress ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
  echo "== npm ci (js/)"
  npm ci --no-audit --no-fund --loglevel=error
fi

echo "== node --test test/plugins-*.test.mjs"
STAUNTON_BIN="$staunton" STAUNTON_REQUIRE_BIN=1 node --test test/plugins-*.test.mjs
echo "js-plugins-test: passed"
