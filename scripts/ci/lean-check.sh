#!/usr/bin/env bash
# The renderer without the service: `cargo tree` of the library with no default features
# holds none of the server's or the command line's crates, and a scratch crate outside the
# repository that depends on staunton with `default-features = false` renders the start
# position to PNG and SVG with the crate docs' quickest use.
set -euo pipefail
cd "$(dirname "$0")/../.."
repo="$PWD"

echo "== cargo tree -e normal --no-default-features: no server or command-line crates"
crates=$(cargo tree -e normal --no-default-features --prefix none | sed 's/ v[0-9].*//' | sort -u)
found=$(grep -xE 'tokio|axum|hyper|hyper-util|tower-http|clap|prometheus-client|tracing-subscriber|indicatif' <<< "$crates" || true)
if [ -n "$found" ]; then
  echo "the lean library pulls in: $found" >&2
  exit 1
fi
# libc is no direct dependency of the renderer (moka, which its caches use, brings it).
if cargo tree -e normal --no-default-features --depth 1 --prefix none | grep -q '^libc '; then
  echo "libc is a direct dependency of the lean library" >&2
  exit 1
fi
echo "$(wc -l <<< "$crates") crates, none of the server's"

scratch="${TMPDIR:-/tmp}/staunton-lean-$$"
rm -rf "$scratch"
mkdir -p "$scratch/src"
cat > "$scratch/Cargo.toml" <<TOML
[package]
name = "staunton-lean"
version = "0.0.0"
edition = "2024"
publish = false

[dependencies]
staunton = { path = "$repo", default-features = false }

[workspace]
TOML
cat > "$scratch/src/main.rs" <<'RS'
use staunton::{RenderOptions, render_png, render_svg};

fn main() -> Result<(), staunton::Error> {
    let png = render_png("start", &RenderOptions::default())?;
    assert_eq!(&png[..8], b"\x89PNG\r\n\x1a\n");
    let options = RenderOptions { size: 240, ..RenderOptions::default() };
    let svg = render_svg("start", &options)?;
    assert!(svg.starts_with("<svg") && svg.trim_end().ends_with("</svg>"));
    println!("lean staunton: a {} byte PNG and a {} byte SVG", png.len(), svg.len());
    Ok(())
}
RS
echo "== a scratch crate with default-features = false renders PNG and SVG"
(cd "$scratch" && CARGO_TARGET_DIR="$("$repo"/scripts/target-dir.sh)/lean" cargo run -q)
if (cd "$scratch" && cargo tree -e normal --prefix none | grep -qxE 'tokio v.*|axum v.*'); then
  echo "the scratch crate pulls in the server" >&2
  exit 1
fi
# The README's other way in: a git dependency resolves (here from this repository's own
# history, by file URL; a user writes the URL they clone from).
if git -C "$repo" rev-parse -q --verify HEAD > /dev/null; then
  echo "== the same crate as a git dependency: cargo resolves it"
  sed -i "s|^staunton = .*|staunton = { git = \"file://$repo\", default-features = false }|" "$scratch/Cargo.toml"
  (cd "$scratch" && rm -f Cargo.lock && cargo tree -e normal --depth 1 --prefix none | grep -E '^staunton v.*file://')
fi
rm -rf "$scratch"
