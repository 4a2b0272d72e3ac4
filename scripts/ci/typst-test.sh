#!/usr/bin/env bash
# The Typst package (typst/) in a real Typst compiler: the `typst` package on PyPI (pinned,
# in a venv under /tmp), which bundles one. The package is used as packed: dist.sh's
# fenster-V.tar.gz unpacked into a package path (or, without it, scripts/typst-package.sh's
# output), imported as `@preview/fenster:V`. typst/test/check.py then compiles every
# function and option family, exports PDF/UA-1 and reads each figure's alt text back
# (pikepdf), checks errors against the service's 400 sentences, compares each SVG with the
# service's byte for byte, and reads rasterised pages (pdftoppm) back to their positions.
# The example (typst/examples/basic.typ) must compile too.
#
#   scripts/ci/typst-test.sh STAUNTON_BIN
#
# Environment: FENSTER_TARBALL  the package to test (CI: dist/fenster-V.tar.gz).
set -euo pipefail
cd "$(dirname "$0")/../.."
root=$PWD
bin=$(realpath "${1:?usage: scripts/ci/typst-test.sh STAUNTON_BIN}")

command -v pdftoppm > /dev/null ||
  { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq poppler-utils > /dev/null; }
venv=/tmp/staunton-typst-venv
if [[ ! -x $venv/bin/python ]] || ! "$venv/bin/python" -c 'import typst, pikepdf' 2> /dev/null; then
  python3 -m venv "$venv"
  "$venv/bin/pip" install --quiet typst==0.15.2 pikepdf==10.18.0
fi

work=$(mktemp -d)
server=
cleanup() {
  if [[ -n $server ]]; then kill "$server" 2> /dev/null || true; fi
  rm -rf "$work"
}
trap cleanup EXIT

packages=$work/packages
if [[ -n ${FENSTER_TARBALL:-} ]]; then
  mkdir -p "$packages/preview"
  tar -xzf "$FENSTER_TARBALL" -C "$packages/preview"
else
  scripts/typst-package.sh "$packages"
fi
wasm=$(ls "$packages"/preview/fenster/*/fenster.wasm)
echo "typst-test: $(stat -c %s "$wasm") bytes of plugin, $wasm"

port=$((20000 + RANDOM % 20000))
"$bin" serve --addr "127.0.0.1:$port" --system-fonts false > "$work/service.log" 2>&1 &
server=$!
for _ in $(seq 50); do
  "$bin" health --url "http://127.0.0.1:$port" > /dev/null 2>&1 && break
  sleep 0.1
done

"$venv/bin/python" typst/test/check.py "$packages" "http://127.0.0.1:$port"
"$venv/bin/python" -c '
import sys, typst
typst.compile(sys.argv[1], output=sys.argv[2], package_path=sys.argv[3])
' "$root/typst/examples/basic.typ" "$work/basic.pdf" "$packages"
echo "typst-test: examples/basic.typ compiles ($(stat -c %s "$work/basic.pdf") bytes)"
