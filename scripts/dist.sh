#!/usr/bin/env bash
# Makes every release artifact into dist/ (or $STAUNTON_DIST), one version for all of them
# (Cargo.toml's; tests/version.rs fails when the manifests disagree):
#
#   crate    staunton-V.crate            `cargo package`: verified by building it alone
#   npm      staunton-V.tgz              `npm pack` of js/ (the wasm built once, `npm run build`)
#   binary   staunton-V-TRIPLE.tar.gz    the command line and service; on Linux static (musl),
#            (.zip on Windows)           built with the composer's wasm (--features composer-wasm)
#   python   staunton-V.tar.gz           the sdist (`maturin sdist`), then the abi3 wheel built
#            staunton-V-cp39-abi3-….whl  FROM that sdist, unpacked outside the repository
#   typst    fenster-V.tar.gz            the Typst package (scripts/typst-package.sh): its folder
#                                        fenster/V/, as Typst Universe takes it, the plugin built
#   sums     SHA256SUMS                  over every file in dist/
#
#   scripts/dist.sh             every part this machine makes (all of them on x86_64 Linux;
#                               elsewhere binary, python, sums), into an emptied dist/
#   scripts/dist.sh PART...     only those parts, into dist/ as it is (the release workflow
#                               builds parts on several machines and sums them at the end)
#
# Needs cargo (rustup adds the targets), node and npm for `npm` (and for `binary`, whose
# composer embeds the wasm), python3 for `python` (maturin, pinned, goes into a venv under
# target/), and on Linux musl-gcc (Debian: musl-tools) for the static binary. Each part
# prints its time; scripts/ci/dist-test.sh installs and uses every artifact.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
dist=${STAUNTON_DIST:-$root/dist}
maturin_version=1.13.1
zig_version=0.17.1 # Linux wheels: zig links against glibc 2.17's symbols (manylinux2014)

version=$(sed -n 's/^version = "\(.*\)"$/\1/p' Cargo.toml | head -n 1)
[[ -n $version ]] || { echo "dist: no version in Cargo.toml" >&2; exit 1; }

case "$(uname -s)" in
  Linux) os=linux ;;
  Darwin) os=macos ;;
  MINGW* | MSYS* | CYGWIN*) os=windows ;;
  *) echo "dist: $(uname -s) is not a platform dist.sh knows" >&2; exit 1 ;;
esac
arch=$(uname -m)
case "$arch" in arm64) arch=aarch64 ;; amd64) arch=x86_64 ;; esac
case "$os" in
  linux) triple=$arch-unknown-linux-musl ;;
  macos) triple=$arch-apple-darwin ;;
  windows) triple=$arch-pc-windows-msvc ;;
esac

if (($#)); then
  parts=("$@")
else
  parts=(binary python sums)
  [[ $os-$arch == linux-x86_64 ]] && parts=(crate npm binary python typst sums)
  rm -rf "$dist"
fi
mkdir -p "$dist"
echo "dist: staunton $version, $triple, parts: ${parts[*]} -> $dist"

t0=$SECONDS
took() { echo "   ($1: $((SECONDS - t0)) s)"; t0=$SECONDS; }

# A temporary folder outside the repository, removed at the end.
scratch=$(mktemp -d "${TMPDIR:-/tmp}/staunton-dist.XXXXXX")
trap 'rm -rf "$scratch"' EXIT

part_crate() {
  echo "== crate: cargo package (builds the packaged crate on its own)"
  cargo package --locked
  local crate; crate=$(scripts/target-dir.sh)/package/staunton-$version.crate
  local bytes; bytes=$(wc -c < "$crate")
  if ((bytes > 3 * 1024 * 1024)); then
    echo "dist: $crate is $bytes bytes, over the 3 MiB the crate may weigh" >&2
    exit 1
  fi
  cp "$crate" "$dist/"
  echo "   staunton-$version.crate: $bytes bytes"
}

wasm() {
  (cd js && npm ci --no-audit --no-fund --loglevel=error && npm run build)
}

part_npm() {
  echo "== npm: npm ci, npm run build (the wasm), npm pack"
  wasm
  # The package carries the licences, and names the repository it is published from (npm
  # checks provenance against it): the placeholder's owner is the release's own.
  cp LICENSE-MIT LICENSE-APACHE js/
  if [[ -n ${GITHUB_REPOSITORY:-} ]]; then
    (cd js && npm pkg set "repository.url=git+${GITHUB_SERVER_URL:-https://github.com}/$GITHUB_REPOSITORY.git")
  fi
  (cd js && npm pack --silent --pack-destination "$dist" > /dev/null)
  echo "   staunton-$version.tgz: $(wc -c < "$dist/staunton-$version.tgz") bytes"
}

part_binary() {
  echo "== binary: $triple, --features composer-wasm, stripped"
  [[ -f js/dist/staunton.wasm ]] || wasm
  if command -v rustup > /dev/null && ! rustup target list --installed | grep -qx "$triple"; then
    rustup target add "$triple"
  fi
  if [[ $os == linux ]] && ! command -v musl-gcc > /dev/null; then
    echo "dist: the static binary needs musl-gcc (Debian and Ubuntu: apt-get install musl-tools)" >&2
    exit 1
  fi
  cargo build --release --locked --target "$triple" --features composer-wasm --bin staunton
  local name=staunton-$version-$triple exe=staunton
  [[ $os == windows ]] && exe=staunton.exe
  mkdir -p "$scratch/$name"
  cp "$(scripts/target-dir.sh)/$triple/release/$exe" README.md LICENSE-MIT LICENSE-APACHE "$scratch/$name/"
  [[ $os == windows ]] || strip "$scratch/$name/$exe"
  if [[ $os == windows ]]; then
    (cd "$scratch" && python -m zipfile -c "$dist/$name.zip" "$name")
  elif tar --version 2> /dev/null | grep -q GNU; then
    # The same bytes for the same files: sorted names, no owner, the last commit's time.
    tar --sort=name --owner=0 --group=0 --numeric-owner --mtime="@$(git log -1 --format=%ct)" \
      -C "$scratch" -cf - "$name" | gzip -n -9 > "$dist/$name.tar.gz"
  else
    tar -C "$scratch" -czf "$dist/$name.tar.gz" "$name"
  fi
  ls -l "$dist/$name".* | awk '{print "   " $NF ": " $5 " bytes"}'
  echo "   the binary alone: $(wc -c < "$scratch/$name/$exe") bytes"
}

part_python() {
  echo "== python: maturin sdist, then the abi3 wheel built from a copy of it outside the repository"
  local venv=target/dist-venv py=python3
  command -v python3 > /dev/null || py=python
  [[ -x $venv/bin/maturin || -x $venv/Scripts/maturin.exe ]] || {
    "$py" -m venv "$venv"
    local vpy=$venv/bin/python
    [[ -x $vpy ]] || vpy=$venv/Scripts/python.exe
    local tools=("maturin==$maturin_version")
    [[ $os == linux ]] && tools+=("ziglang==$zig_version")
    "$vpy" -m pip install -q --disable-pip-version-check "${tools[@]}"
  }
  local maturin=$venv/bin/maturin
  [[ -x $maturin ]] || maturin=$venv/Scripts/maturin.exe
  "$maturin" sdist --manifest-path python/Cargo.toml --out "$dist"
  local sdist=$dist/staunton-$version.tar.gz
  [[ -f $sdist ]] || { echo "dist: maturin made no $sdist" >&2; exit 1; }
  tar -xzf "$sdist" -C "$scratch"
  local compat=()
  # Linux: the oldest glibc the wheel may ask for is 2.17 (manylinux2014), which maturin
  # checks. Linked on this machine the wheel would need its glibc (2.36); zig (from PyPI,
  # in the venv) links against 2.17's symbols instead, C code (libdeflate) included.
  [[ $os == linux ]] && compat=(--zig --compatibility manylinux2014)
  (cd "$scratch/staunton-$version" &&
    PATH="$root/$(dirname "$maturin"):$PATH" CARGO_TARGET_DIR="$root/target/python" \
      "$root/$maturin" build --release --locked "${compat[@]}" --out "$dist")
  ls -l "$dist"/*.whl "$sdist" | awk '{print "   " $NF ": " $5 " bytes"}'
}

part_typst() {
  echo "== typst: the package fenster (scripts/typst-package.sh), its folder packed"
  scripts/typst-package.sh "$scratch/typst"
  tar -czf "$dist/fenster-$version.tar.gz" -C "$scratch/typst/preview" fenster
}

part_sums() {
  echo "== sums: SHA256SUMS"
  rm -f "$dist/SHA256SUMS"
  (cd "$dist" && if command -v sha256sum > /dev/null; then sha256sum -- *; else shasum -a 256 -- *; fi) \
    > "$scratch/SHA256SUMS"
  mv "$scratch/SHA256SUMS" "$dist/SHA256SUMS"
  cat "$dist/SHA256SUMS"
}

for part in "${parts[@]}"; do
  case "$part" in
    crate | npm | binary | python | typst | sums) "part_$part"; took "$part" ;;
    *) echo "dist: no part \"$part\" (crate, npm, binary, python, typst, sums)" >&2; exit 2 ;;
  esac
done
echo "dist: done ($SECONDS s)"
