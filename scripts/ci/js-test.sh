#!/usr/bin/env bash
# Builds and tests the npm package (js/) as a user would get it: `npm ci` (pinned
# devDependencies), `npm run build` (the wasm, once), `node --test`, then `npm pack` and the
# tarball installed into a scratch folder outside the repository, where a plain .mjs uses
# it with Node and with Deno (from the npm registry, pinned), and `deno check` type-checks a
# TypeScript file against the package's declarations.
#
#   scripts/ci/js-test.sh [STAUNTON_BIN]
#
# With STAUNTON_BIN (the native release binary), the WebP files whose bytes differ between
# the module and the native build (js/test/helpers.mjs, DIFFERENT) are decoded with
# Debian's dwebp (package webp, installed when missing) and must have the same pixels.
#
# With STAUNTON_NPM_TARBALL (CI: dist.sh's dist/staunton-V.tgz, whose wasm is js/dist's),
# neither the wasm nor the tarball is made again: that tarball is the one tested.
#
# Needs node (18+), npm, cargo and rustup (the build adds the wasm32 target); the network
# only for the npm registry and crates.io. The scratch folder is $STAUNTON_JS_SCRATCH
# (default: a temporary folder).
set -euo pipefail
bin=""
if [ -n "${1:-}" ]; then bin="$(cd "$(dirname "$1")" && pwd)/$(basename "$1")"; fi
tarball_given=""
if [ -n "${STAUNTON_NPM_TARBALL:-}" ]; then
  tarball_given="$(cd "$(dirname "$STAUNTON_NPM_TARBALL")" && pwd)/$(basename "$STAUNTON_NPM_TARBALL")"
fi
cd "$(dirname "$0")/../../js"

if [ -n "$tarball_given" ] && [ -s dist/staunton.wasm ]; then
  echo "== js-test: npm ci (the wasm and the tarball are dist.sh's)"
  npm ci --no-audit --no-fund --loglevel=error
else
  echo "== js-test: npm ci, npm run build"
  npm ci --no-audit --no-fund --loglevel=error
  npm run build
fi

echo "== js-test: node --test (the API; the plugins' tests are js-plugins-test.sh's)"
api_tests=()
for t in test/*.test.mjs; do
  [[ $(basename "$t") == plugins-* ]] || api_tests+=("$t")
done
node --test "${api_tests[@]}"

scratch=${STAUNTON_JS_SCRATCH:-${TMPDIR:-/tmp}/staunton-js-test}
rm -rf "$scratch"
mkdir -p "$scratch"

if [ -n "$bin" ]; then
  echo "== js-test: the WebP files that differ in bytes have the native files' pixels (dwebp)"
  if ! command -v dwebp > /dev/null; then
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends webp > /dev/null
  fi
  webp="$scratch/webp"
  mkdir -p "$webp"
  node test/different-webp.mjs "$webp"
  RUST_LOG=warn "$bin" serve --addr 127.0.0.1:18558 & serve_pid=$!
  for _ in $(seq 100); do curl -fs http://127.0.0.1:18558/health -o /dev/null && break; sleep 0.05; done
  for query in "$webp"/*.query; do
    name=$(basename "$query" .query)
    curl -fsS "http://127.0.0.1:18558/diagram.webp?$(cat "$query")" -o "$webp/$name.native.webp"
    dwebp -quiet -pam "$webp/$name.webp" -o "$webp/$name.pam"
    dwebp -quiet -pam "$webp/$name.native.webp" -o "$webp/$name.native.pam"
    if cmp -s "$webp/$name.webp" "$webp/$name.native.webp"; then
      echo "js-test: $name.webp is now the native file byte for byte: take it off DIFFERENT" >&2
      kill "$serve_pid"; exit 1
    fi
    cmp "$webp/$name.pam" "$webp/$name.native.pam" || { kill "$serve_pid"; exit 1; }
    echo "   $name.webp: other bytes, the same $(stat -c %s "$webp/$name.pam")-byte picture"
  done
  kill "$serve_pid"; wait "$serve_pid" || true
fi
if [ -n "$tarball_given" ]; then
  echo "== js-test: $(basename "$tarball_given"), installed into $scratch"
  cp "$tarball_given" "$scratch/"
  tarball=$(basename "$tarball_given")
else
  echo "== js-test: npm pack, installed into $scratch"
  tarball=$(npm pack --silent --pack-destination "$scratch" | tail -1)
fi
echo "   $tarball: $(wc -c < "$scratch/$tarball") bytes"
cp consumer/use.mjs consumer/types.ts "$scratch/"
cd "$scratch"
printf '{ "name": "staunton-consumer", "private": true, "type": "module" }\n' > package.json
npm install --no-audit --no-fund --loglevel=error --save-exact "./$tarball" deno@2.9.6
node use.mjs

echo "== js-test: Deno (the package's deno condition), and deno check of its types"
deno=node_modules/.bin/deno
export NO_COLOR=1
"$deno" --version | head -1
"$deno" run --allow-read use.mjs
"$deno" check types.ts
echo "js-test passed"
