#!/usr/bin/env bash
# Installs and uses the artifacts scripts/dist.sh made, each in a clean place, as a user
# would get them:
#   - SHA256SUMS verifies every file;
#   - every artifact carries Cargo.toml's version (names, manifests, `--version`);
#   - the crate: at most 3 MiB, no tests, goldens, book or packages in it (`cargo package`
#     in dist.sh already built it alone);
#   - the static binary: statically linked, run with `env -i` in an empty temporary folder
#     (--version, a render, the service answering /health and a diagram); with NATIVE (the
#     glibc release build) given, both answer the recorded render cases with the same bytes;
#   - the wheel: abi3 for CPython >= 3.9, installed from dist/ alone (--no-index) into a
#     fresh venv whose PATH and HOME have no cargo or rustc, imported and used;
#   - the sdist: it holds both crates (dist.sh built the wheel from a copy of it outside the
#     repository), no goldens;
#   - the npm tarball: its package.json's version (scripts/ci/js-test.sh installs it into a
#     scratch project with STAUNTON_NPM_TARBALL).
# The static binary is left at $STAUNTON_STATIC_BIN (default target/dist-test/staunton) for
# the steps after this one (the composer's wasm test).
#
#   scripts/ci/dist-test.sh [NATIVE]
set -euo pipefail
native=""
if [[ -n ${1:-} ]]; then native="$(cd "$(dirname "$1")" && pwd)/$(basename "$1")"; fi
cd "$(dirname "$0")/../.."
root=$PWD
dist=${STAUNTON_DIST:-$root/dist}
version=$(sed -n 's/^version = "\(.*\)"$/\1/p' Cargo.toml | head -n 1)
triple=$(uname -m)-unknown-linux-musl
fail() { echo "dist-test: FAIL: $*" >&2; exit 1; }

scratch=$(mktemp -d "${TMPDIR:-/tmp}/staunton-dist-test.XXXXXX")
pids=()
cleanup() {
  for p in "${pids[@]}"; do kill "$p" 2> /dev/null || true; done
  rm -rf "$scratch"
}
trap cleanup EXIT

echo "== SHA256SUMS"
(cd "$dist" && sha256sum --strict -c SHA256SUMS)
listed=$(awk '{print $2}' "$dist/SHA256SUMS" | sort | tr '\n' ' ')
present=$(cd "$dist" && ls | grep -vx SHA256SUMS | sort | tr '\n' ' ')
[[ $listed == "$present" ]] || fail "SHA256SUMS lists [$listed], dist/ holds [$present]"

echo "== the crate"
crate=$dist/staunton-$version.crate
[[ -f $crate ]] || fail "no $crate"
bytes=$(wc -c < "$crate")
((bytes <= 3 * 1024 * 1024)) || fail "the crate is $bytes bytes, over 3 MiB"
tar -xzOf "$crate" "staunton-$version/Cargo.toml" | grep -qx "version = \"$version\"" \
  || fail "the crate's Cargo.toml is not version $version"
stray=$(tar -tzf "$crate" | grep -E "^staunton-$version/(tests|docs|js|python|benches|examples|fuzz)/" || true)
[[ -z $stray ]] || fail "the crate carries files that stay in the repository: $(echo "$stray" | head -3)"
echo "   $bytes bytes, $(tar -tzf "$crate" | wc -l) files, version $version"

echo "== the static binary, env -i in an empty folder"
tarball=$dist/staunton-$version-$triple.tar.gz
[[ -f $tarball ]] || fail "no $tarball"
tar -xzf "$tarball" -C "$scratch"
unpacked=$scratch/staunton-$version-$triple
for f in staunton README.md LICENSE-MIT LICENSE-APACHE; do
  [[ -f $unpacked/$f ]] || fail "$(basename "$tarball") has no $f"
done
file "$unpacked/staunton" | grep -Eq "statically linked|static-pie linked" \
  || fail "the binary is not static: $(file "$unpacked/staunton")"
mkdir "$scratch/empty"
cd "$scratch/empty"
said=$(env -i "$unpacked/staunton" --version)
[[ $said == "staunton $version" ]] || fail "--version says \"$said\", not \"staunton $version\""
env -i "$unpacked/staunton" render start --size 200 -o start.png
[[ $(head -c 8 start.png | od -An -tx1 | tr -d ' \n') == 89504e470d0a1a0a ]] || fail "render made no PNG"
env -i "$unpacked/staunton" serve --addr 127.0.0.1:18571 > serve.log 2>&1 &
pids+=($!)
for _ in $(seq 100); do curl -fs http://127.0.0.1:18571/health -o /dev/null && break; sleep 0.05; done
curl -fsS "http://127.0.0.1:18571/diagram?fen=start" -o served.png || fail "the service did not answer"
echo "   $said, $(wc -c < "$unpacked/staunton") bytes; render and service answer in an empty environment"
cd "$root"

if [[ -n $native ]]; then
  echo "== the static binary and the native build give the same bytes (the recorded render cases)"
  RUST_LOG=warn "$native" serve --addr 127.0.0.1:18572 > /dev/null 2>&1 &
  pids+=($!)
  for _ in $(seq 100); do curl -fs http://127.0.0.1:18572/health -o /dev/null && break; sleep 0.05; done
  n=0
  while read -r name query; do
    [[ -z $name || $name == \#* ]] && continue
    for route in diagram diagram.svg diagram.webp diagram.pdf; do
      # A case a format refuses (a transparent WebP, say) must be refused alike.
      a=$(curl -gsS "http://127.0.0.1:18571/$route?$query" -o "$scratch/a" -w '%{http_code}')
      b=$(curl -gsS "http://127.0.0.1:18572/$route?$query" -o "$scratch/b" -w '%{http_code}')
      [[ $a == "$b" ]] || fail "$name ($route?$query): the static build answered $a, the native $b"
      cmp -s "$scratch/a" "$scratch/b" || fail "$name ($route?$query): the two builds' bytes differ"
      n=$((n + 1))
    done
  done < tests/fixtures/render-cases.txt
  echo "   $n answers byte for byte"
fi
static_bin=${STAUNTON_STATIC_BIN:-$("$root"/scripts/target-dir.sh)/dist-test/staunton}
mkdir -p "$(dirname "$static_bin")"
cp "$unpacked/staunton" "$static_bin"

echo "== the wheel, in a fresh venv with no cargo or rustc on the PATH"
wheels=("$dist"/staunton-"$version"-cp39-abi3-*.whl)
[[ ${#wheels[@]} == 1 && -f ${wheels[0]} ]] || fail "not one cp39-abi3 wheel of $version in dist/: ${wheels[*]}"
echo "   $(basename "${wheels[0]}")"
venv=$scratch/venv
python3 -m venv "$venv"
home=$scratch/home
mkdir "$home"
clean_path=$venv/bin:/usr/local/bin:/usr/bin:/bin
if env -i HOME="$home" PATH="$clean_path" sh -c 'command -v cargo || command -v rustc'; then
  fail "cargo or rustc is on the clean PATH"
fi
env -i HOME="$home" PATH="$clean_path" "$venv/bin/python" -m pip install -q --no-index \
  --disable-pip-version-check "${wheels[0]}"
(cd "$scratch/empty" && env -i HOME="$home" PATH="$clean_path" "$venv/bin/python" - "$version" << 'EOF')
import sys
import staunton
assert staunton.__version__ == sys.argv[1], (staunton.__version__, sys.argv[1])
png = staunton.png("start", size=200)
assert png[:8] == b"\x89PNG\r\n\x1a\n", png[:8]
svg = staunton.svg("start")
assert "</svg>" in svg
print("   import staunton", staunton.__version__, "- a PNG of", len(png), "bytes")
EOF

echo "== the sdist"
sdist=$dist/staunton-$version.tar.gz
[[ -f $sdist ]] || fail "no $sdist"
listing=$(tar -tzf "$sdist")
grep -q "^staunton-$version/PKG-INFO$" <<< "$listing" || fail "the sdist has no PKG-INFO"
tar -xzOf "$sdist" "staunton-$version/PKG-INFO" | grep -qx "Version: $version" || fail "the sdist is not $version"
grep -q "/src/lib.rs$" <<< "$listing" || fail "the sdist lacks the crate's sources"
! grep -Eq "/tests/golden/|/docs/" <<< "$listing" || fail "the sdist carries goldens or the book"
echo "   $(wc -c < "$sdist") bytes, $(wc -l <<< "$listing") files"

echo "== the npm tarball"
tgz=$dist/staunton-$version.tgz
[[ -f $tgz ]] || fail "no $tgz"
tar -xzOf "$tgz" package/package.json | grep -q "\"version\": \"$version\"" || fail "the npm package is not $version"
# The list and the manifest read whole first: `grep -q` leaving a pipe early would fail
# tar (pipefail).
files=$(tar -tzf "$tgz")
grep -qx package/dist/staunton.wasm <<< "$files" || fail "the npm package lacks dist/staunton.wasm"
for licence in LICENSE-MIT LICENSE-APACHE; do
  grep -qx "package/$licence" <<< "$files" || fail "the npm package lacks $licence"
done
manifest=$(tar -xzOf "$tgz" package/package.json)
grep -q '"repository"' <<< "$manifest" || fail "the npm package names no repository"
echo "   $(wc -c < "$tgz") bytes"
echo "dist-test: passed"
