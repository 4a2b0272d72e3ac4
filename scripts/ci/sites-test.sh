#!/usr/bin/env bash
# Builds three real sites with the Markdown plugins in their default, inline mode, as the
# book sets them up, and drives them in headless Chromium: Docusaurus 3 (staunton/remark in
# the docs preset, made as create-docusaurus makes a site: future.v4, Rspack and SWC's HTML
# minifier), VitePress 1.6 (staunton/markdown-it in markdown.config) and Astro 5 with
# Starlight (staunton/remark in markdown.remarkPlugins), each in js/test/sites/ with its own
# package.json and package-lock.json (exact versions).
#
#   scripts/ci/sites-test.sh [SITE…]     (docusaurus, vitepress, starlight; default: all)
#
# For each site: `npm ci`, the staunton tarball installed over it (`npm install --no-save`,
# so the lock files never name it), the site's own `npm run build`, then
# js/test/sites/check.mjs (playwright-core, pinned) serves each build on a loopback port
# and checks, on pages with several diagrams (a caption, a last move, arrows, a game):
#   - no console error and no page error (React's hydration error #418 among them);
#   - a page reached by clicking a link (the router's client-side navigation) shows its
#     first diagram with the same pixels as when loaded directly, its white king white;
#   - at 360×740 the page does not scroll sideways and every diagram fits the width;
#   - with the site's dark theme on, a diagram's margin is dark and its labels light;
# and leaves screenshots of each site, light and dark, phone and desktop, in $SHOTS. A
# failure prints the site, the page, the check and what was measured.
#
# Environment:
#   STAUNTON_NPM_TARBALL  the package to test (CI: dist.sh's dist/staunton-V.tgz). Without
#                         it, js/ is packed as it is (`npm pack`), after `npm run build`
#                         when js/dist/staunton.wasm is missing (Rust, rustup, the network).
#   CHROMIUM              default /usr/bin/chromium (Debian's: apt-get install -y chromium;
#                         this script installs no browser).
#   SHOTS                 the screenshots' folder, default $(scripts/target-dir.sh)/browser/sites.
#   STAUNTON_SITES_SCRATCH where the tarball is packed, default a temporary folder.
# Needs Node.js 20+ and npm; the network for the npm registry only. Each phase's time is
# printed (a warm npm cache: about 3 minutes in all).
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
sites_dir="$root/js/test/sites"
all_sites=(docusaurus vitepress starlight)
if [ "$#" -gt 0 ]; then sites=("$@"); else sites=("${all_sites[@]}"); fi
for site in "${sites[@]}"; do
  if [ ! -f "$sites_dir/$site/package.json" ]; then
    echo "sites-test: no site $site; the sites are ${all_sites[*]}" >&2
    exit 2
  fi
done

chromium="${CHROMIUM:-/usr/bin/chromium}"
if [ ! -x "$chromium" ]; then
  echo "sites-test: no Chromium at $chromium; install it (apt-get install -y chromium) or set CHROMIUM" >&2
  exit 1
fi
if ! command -v node > /dev/null || ! command -v npm > /dev/null; then
  echo "sites-test: Node.js 20+ and npm are needed (apt-get install -y nodejs npm)" >&2
  exit 1
fi
node_major="$(node -p 'process.versions.node.split(".")[0]')"
if [ "$node_major" -lt 20 ]; then
  echo "sites-test: Node.js $(node --version) is too old: Docusaurus 3.10 and playwright-core need 20 or later" >&2
  exit 1
fi

target="$(cd "$root" && scripts/target-dir.sh)"
case "$target" in /*) ;; *) target="$root/$target" ;; esac
shots="${SHOTS:-$target/browser/sites}"
mkdir -p "$shots"
export ASTRO_TELEMETRY_DISABLED=1 DO_NOT_TRACK=1

started=$SECONDS
# phase NAME COMMAND…: runs the command, then prints how long it took (failed or not).
phase() {
  local name=$1 start=$SECONDS status=0
  shift
  echo "== sites-test: $name"
  "$@" || status=$?
  if [ "$status" -eq 0 ]; then
    echo "   ($name: $((SECONDS - start)) s)"
  else
    echo "   ($name: $((SECONDS - start)) s, failed with status $status)"
  fi
  return "$status"
}
npm_ci() { npm ci --no-audit --no-fund --loglevel=error; }

# The tarball: given, or js/ packed as it is.
if [ -n "${STAUNTON_NPM_TARBALL:-}" ]; then
  tarball="$(cd "$(dirname "$STAUNTON_NPM_TARBALL")" && pwd)/$(basename "$STAUNTON_NPM_TARBALL")"
  if [ ! -s "$tarball" ]; then
    echo "sites-test: STAUNTON_NPM_TARBALL=$STAUNTON_NPM_TARBALL is not a file" >&2
    exit 1
  fi
else
  scratch="${STAUNTON_SITES_SCRATCH:-${TMPDIR:-/tmp}/staunton-sites-test}"
  rm -rf "$scratch"
  mkdir -p "$scratch"
  if [ ! -s "$root/js/dist/staunton.wasm" ]; then
    build_wasm() { (cd "$root/js" && npm_ci && npm run build); }
    phase "js: npm ci, npm run build (no js/dist/staunton.wasm)" build_wasm
  fi
  pack() { (cd "$root/js" && npm pack --silent --pack-destination "$scratch" > /dev/null); }
  phase "npm pack (js/)" pack
  packed=("$scratch"/staunton-*.tgz)
  tarball="${packed[0]}"
fi
echo "   $(basename "$tarball"): $(wc -c < "$tarball") bytes"

for site in "${sites[@]}"; do
  cd "$sites_dir/$site"
  # Last run's output and caches: Astro's data store and Rspack's persistent cache keep a
  # page's rendered Markdown across builds (in node_modules/, which npm ci empties too),
  # so a new tarball's diagrams would not show up in an old cache.
  rm -rf build .docusaurus dist .astro .vitepress/dist .vitepress/cache
  phase "$site: npm ci" npm_ci
  phase "$site: npm install --no-save $(basename "$tarball")" \
    npm install --no-save --no-audit --no-fund --loglevel=error "$tarball"
  phase "$site: npm run build" npm run build --silent
done

cd "$sites_dir"
phase "check.mjs: npm ci (playwright-core)" npm_ci
phase "check.mjs: the sites in Chromium (screenshots: $shots)" \
  env CHROMIUM="$chromium" SHOTS="$shots" node check.mjs "${sites[@]}"
echo "sites-test passed ($((SECONDS - started)) s)"
