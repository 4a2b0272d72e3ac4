#!/usr/bin/env bash
# Builds and tests the npm package (js/) as a user would get it: `npm ci` (pinned
# devDependencies), `npm run build` (the wasm, once), `node --test`, then `npm pack` and the
# tarball installed into a scratch folder outside the repository, where a plain .mjs uses
# it with Node and with Deno (from the npm registry, pinned), and `deno check` type-checks a
# TypeScript file against the package's declarations.
#
#   scripts/ci/js-test.sh
#
# Needs node (18+), npm, cargo and rustup (the build adds the wasm32 target); the network
# only for the npm registry and crates.io. The scratch folder is $STAUNTON_JS_SCRATCH
# (default: a temporary folder).
set -euo pipefail
cd "$(dirname "$0")/../../js"

echo "== js-test: npm ci, npm run build"
npm ci --no-audit --no-fund --loglevel=error
npm run build

echo "== js-test: node --test (the API; the plugins' tests are js-plugins-test.sh's)"
api_tests=()
for t in test/*.test.mjs; do
  [[ $(basename "$t") == plugins-* ]] || api_tests+=("$t")
done
node --test "${api_tests[@]}"

scratch=${STAUNTON_JS_SCRATCH:-${TMPDIR:-/tmp}/staunton-js-test}
rm -rf "$scratch"
mkdir -p "$scratch"
echo "== js-test: npm pack, installed into $scratch"
tarball=$(npm pack --silent --pack-destination "$scratch" | tail -1)
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
