#!/usr/bin/env bash
# Makes the Typst package `fenster` (typst/): builds its plugin (typst/plugin, for
# wasm32-unknown-unknown), optimises it for size with wasm-opt (binaryen, the npm
# package's pinned devDependency), and lays the package out as Typst Universe wants it:
#
#   OUT/preview/fenster/VERSION/  typst.toml lib.typ fenster.wasm README.md LICENSE-MIT
#                                 LICENSE-APACHE LICENSE-DEJAVU thumbnail.png examples/
#
# OUT is a package path: `typst compile --package-path OUT` (or the Python package's
# `package_path=OUT`) finds `#import "@preview/fenster:VERSION"` there, as it would on
# Universe. Default OUT: target/typst. Prints the plugin's size.
#
#   scripts/typst-package.sh [OUT]
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
out=$(realpath -m "${1:-target/typst}")
version=$(sed -n 's/^version = "\(.*\)"$/\1/p' typst/typst.toml | head -n 1)
package=$out/preview/fenster/$version
target=wasm32-unknown-unknown

if command -v rustup > /dev/null && ! rustup target list --installed | grep -qx "$target"; then
  rustup target add "$target"
fi
# Its own target folder (a workspace of its own): never the crate's, whose features differ.
export CARGO_TARGET_DIR=$root/typst/plugin/target
(cd typst/plugin && cargo build --release --locked --target "$target")
built=$CARGO_TARGET_DIR/$target/release/fenster_plugin.wasm

wasm_opt=$root/js/node_modules/.bin/wasm-opt
[[ -x $wasm_opt ]] || (cd js && npm ci --no-audit --no-fund --loglevel=error)

rm -rf "$package"
mkdir -p "$package/examples"
"$wasm_opt" -Oz --enable-bulk-memory --enable-mutable-globals --enable-sign-ext \
  --enable-nontrapping-float-to-int --strip-debug --strip-producers \
  "$built" -o "$package/fenster.wasm"
cp typst/typst.toml typst/lib.typ typst/README.md typst/thumbnail.png "$package/"
cp typst/examples/*.typ "$package/examples/"
cp LICENSE-MIT LICENSE-APACHE "$package/"
# The plugin embeds DejaVu Sans (the labels and captions): its licence goes with it.
dejavu=$(cargo metadata --format-version 1 --locked --manifest-path typst/plugin/Cargo.toml |
  python3 -c 'import json, sys; print(next(p["manifest_path"] for p in json.load(sys.stdin)["packages"] if p["name"] == "dejavu"))')
cp "$(dirname "$dejavu")"/assets/dejavu-fonts-ttf-*/LICENSE "$package/LICENSE-DEJAVU"

size() { stat -c %s "$1" | sed ':a;s/\B[0-9]\{3\}\>/,&/;ta'; }
echo "typst-package: cargo $(size "$built") bytes, wasm-opt: fenster.wasm $(size "$package/fenster.wasm") bytes"
echo "typst-package: $package"
