#!/usr/bin/env bash
# Tests the Hugo render hooks of integrations/hugo: starts `staunton serve` on a free
# port, builds integrations/hugo/example-site against it, then checks every <img> of the
# generated page: the service answers its src with 200, the SVG is byte for byte the one
# `staunton render` makes from the options the fence asked for (listed below, in the
# order of the page), the alt text and captions are the expected ones, width and height
# are the SVG's own, and image, alt text, width and height are those `staunton markdown
# --url` gives for the same page. Also checks that a
# fence the service refuses stops the build with the service's sentence, and that the
# site still builds (plain alt texts, warnings) when no service answers.
#
# Run from anywhere:  scripts/ci/hugo-test.sh [STAUNTON_BIN]
# (default binary: target/release/staunton, built with cargo when missing).
# Installs hugo (Debian's 0.111), curl and python3 with apt-get when they are missing.
set -euo pipefail

root="$(cd "$(dirname "$0")/../.." && pwd)"
bin="${1:-${STAUNTON_BIN:-}}"
if [[ -z "$bin" ]]; then
  bin="$("$root"/scripts/target-dir.sh)/release/staunton"
  [[ -x "$bin" ]] || (cd "$root" && cargo build --release --quiet)
fi
bin="$(cd "$(dirname "$bin")" && pwd)/$(basename "$bin")"

need=()
command -v hugo >/dev/null || need+=(hugo)
command -v curl >/dev/null || need+=(curl)
command -v python3 >/dev/null || need+=(python3)
if ((${#need[@]})); then
  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${need[@]}" >/dev/null
fi

work="$(mktemp -d)"
server=""
cleanup() {
  [[ -n "$server" ]] && kill "$server" 2>/dev/null && wait "$server" 2>/dev/null
  [[ -n "${KEEP:-}" ]] || rm -rf "$work"
}
trap cleanup EXIT
fail() { echo "hugo-test: FAIL: $*" >&2; exit 1; }

# Port 0: the system picks a free port, which the server writes in its first log lines.
"$bin" serve --addr 127.0.0.1:0 >"$work/serve.log" 2>&1 &
server=$!
addr=""
for _ in $(seq 100); do
  addr="$(grep -o 'listening addr=[0-9.:]*' "$work/serve.log" | head -1 | cut -d= -f2 || true)"
  [[ -n "$addr" ]] && break
  kill -0 "$server" 2>/dev/null || { cat "$work/serve.log" >&2; fail "staunton serve exited"; }
  sleep 0.1
done
[[ -n "$addr" ]] || fail "staunton serve did not say where it listens"
service="http://$addr"
echo "hugo-test: staunton serve at $service"

# The site, against that service; built from a copy (hugo writes into the source folder)
# with its own cache folder, so no earlier answer is reused.
site="$work/site"
cp -r "$root/integrations/hugo/example-site" "$site"
rm -rf "$site/resources" "$site/.hugo_build.lock"
sed -i "s|^themesDir = .*|themesDir = \"$root/integrations\"|" "$site/config.toml"
HUGO_PARAMS_STAUNTON_SERVICE="$service" hugo --quiet --source "$site" \
  --destination "$work/public" --cacheDir "$work/cache" ||
  fail "hugo could not build the example site"
page="$work/public/diagrams/index.html"
[[ -f "$page" ]] || fail "no $page"

# What each image must be: the `staunton render` arguments, a start of the alt text,
# the caption (or -), in the order of content/diagrams.md.
printf '[Event "Example"]\n\n1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 *\n' >"$work/game.pgn"
cat >"$work/expected.tsv" <<TSV
start --size 320	White: King e1, Queen d1	-
r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3 --size 240 --orientation black --coordinates none	White: King e1, Queen d1, Rooks a1 and h1, Bishops c1 and f1, Knights b1 and f3	After 2...Nc6
rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2 --size 320 --arrows g1f3,Rd1h5 --last-move e7e5 --highlight Ge4,Re5 --theme blue	White: King e1	-
6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1 --size 320 --turn --lang de	Weiß: König g1, Turm d1	-
--pgn $work/game.pgn --move 2w --size 320	After 2. Nf3. White:	-
r1bqkb1r/pppp1Qpp/2n2n2/4p3/2B1P3/8/PPPP1PPP/RNB1K1NR b KQkq - 0 4 --size 200 --orientation black --last-move h5f7 --glyph !!	Scholar's mate: the queen takes f7.	-
TSV

# The same document through `staunton markdown --url` (the crate's own fence grammar, with
# the site's default size): the same images and alt texts as the hooks give.
"$bin" markdown --url "$service" --set size=320 \
  <"$root/integrations/hugo/example-site/content/diagrams.md" >"$work/markdown.html" ||
  fail "staunton markdown --url failed on the example page"

python3 - "$page" "$work" "$bin" <<'PY'
import html.parser, re, shlex, subprocess, sys, urllib.request

page, work, binary = sys.argv[1:4]

class Images(html.parser.HTMLParser):
    """Collects (src, alt, caption) of every <img>, caption from the enclosing <figure>."""
    def __init__(self):
        super().__init__()
        self.images, self.in_caption = [], False
    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "img":
            size = f"{a.get('width', '')} {a.get('height', '')}".strip()
            self.images.append([a.get("src", ""), a.get("alt", ""), "-", size])
        self.in_caption = tag == "figcaption"
    def handle_endtag(self, tag):
        self.in_caption = False
    def handle_data(self, data):
        if self.in_caption and self.images:
            self.images[-1][2] = data.strip()

def svg_size(data):
    """The width and height attributes of an SVG's root element, as "W H"."""
    root = re.search(rb"<svg[^>]*>", data)
    get = lambda name: re.search(rb'\s' + name + rb'="(\d+)"', root.group(0)) if root else None
    w, h = get(b"width"), get(b"height")
    return f"{int(w.group(1))} {int(h.group(1))}" if w and h else ""

def render_args(spec):
    """`FEN --opt …` -> the argv of `staunton render` (the FEN is everything before --)."""
    if spec.startswith("--"):
        return shlex.split(spec)
    fen, _, rest = spec.partition(" --")
    return [fen] + shlex.split("--" + rest)

parser = Images()
parser.feed(open(page, encoding="utf-8").read())
expected = [line.rstrip("\n").split("\t") for line in open(f"{work}/expected.tsv", encoding="utf-8")]
errors = []
if len(parser.images) != len(expected):
    errors.append(f"{len(parser.images)} images on the page, expected {len(expected)}")
for n, ((src, alt, caption, size), (spec, alt_start, want_caption)) in enumerate(zip(parser.images, expected), 1):
    try:
        with urllib.request.urlopen(src) as answer:
            status, got = answer.status, answer.read()
    except urllib.error.HTTPError as e:
        status, got = e.code, e.read()
    if status != 200:
        errors.append(f"image {n}: {src} answered {status}: {got[:200]!r}")
        continue
    out = f"{work}/expected-{n}.svg"
    subprocess.run([binary, "render", *render_args(spec), "-o", out], check=True)
    want = open(out, "rb").read()
    if got != want:
        errors.append(f"image {n}: {src} is not the image of `staunton render {spec}` "
                      f"({len(got)} bytes, expected {len(want)})")
    if not alt.startswith(alt_start):
        errors.append(f"image {n}: alt {alt!r} does not start with {alt_start!r}")
    if caption != want_caption:
        errors.append(f"image {n}: caption {caption!r}, expected {want_caption!r}")
    # The <img> keeps its room while it loads: the SVG's own width and height.
    if not size or size != svg_size(got):
        errors.append(f"image {n}: width and height {size!r}, the SVG's are {svg_size(got)!r}")
    print(f"hugo-test: image {n}: 200, {len(got)} bytes, {size}, same as `staunton render {spec}`")
# The hooks and `staunton markdown --url` must agree on every fence.
ours = Images()
ours.feed(open(f"{work}/markdown.html", encoding="utf-8").read())
if len(ours.images) != len(parser.images):
    errors.append(f"staunton markdown made {len(ours.images)} images, the hooks {len(parser.images)}")
for n, ((src, alt, _, size), (msrc, malt, _, msize)) in enumerate(zip(parser.images, ours.images), 1):
    if urllib.request.urlopen(src).read() != urllib.request.urlopen(msrc).read():
        errors.append(f"image {n}: the hook's {src} and staunton markdown's {msrc} differ")
    elif alt != malt:
        errors.append(f"image {n}: the hook's alt {alt!r}, staunton markdown's {malt!r}")
    elif size != msize:
        errors.append(f"image {n}: the hook's width and height {size!r}, staunton markdown's {msize!r}")
    else:
        print(f"hugo-test: image {n}: the same image, alt text, width and height as `staunton markdown --url`")
for e in errors:
    print(f"hugo-test: FAIL: {e}", file=sys.stderr)
sys.exit(1 if errors else 0)
PY

# A fence the service refuses must stop the build, with the service's sentence: a bad
# FEN (refused by /describe too) and a bad option (refused only by the image itself).
bad="$work/bad-site"
cp -r "$site" "$bad"
check_refused() { # FENCE-BODY EXPECTED-SENTENCE-REGEX
  # shellcheck disable=SC2016 # the backticks are Markdown's
  printf -- '---\ntitle: Bad\n---\n\n```fen\n%s\n```\n' "$1" >"$bad/content/bad.md"
  if HUGO_PARAMS_STAUNTON_SERVICE="$service" hugo --source "$bad" \
    --destination "$work/bad-public" --cacheDir "$work/cache" >"$work/bad.log" 2>&1; then
    fail "hugo built a site with the fence: $1"
  fi
  grep -q "refused this fence: $2" "$work/bad.log" ||
    { cat "$work/bad.log" >&2; fail "the build error does not carry the service's sentence"; }
  echo "hugo-test: refused as it should: $(grep -o 'refused this fence: .*' "$work/bad.log" | head -1 | cut -c1-110)"
}
check_refused 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNX w - - 0 1' 'fen .* is not a valid FEN'
check_refused "start
lastMove: e2e9" 'lastMove .* is not allowed'

# No service at build time (port 1: nothing listens there): the build still succeeds,
# with warnings and the plain alt text.
HUGO_PARAMS_STAUNTON_SERVICE="http://127.0.0.1:1" hugo --source "$site" \
  --destination "$work/offline" --cacheDir "$work/offline-cache" >"$work/offline.log" 2>&1 ||
  { cat "$work/offline.log" >&2; fail "hugo failed without a service"; }
grep -q 'alt="Chess diagram: start"' "$work/offline/diagrams/index.html" ||
  fail "without a service, the first image's alt text is not \"Chess diagram: start\""
grep -q 'did not answer' "$work/offline.log" || fail "without a service, hugo gave no warning"
echo "hugo-test: without a service: built, with warnings and alt=\"Chess diagram: start\""
echo "hugo-test: OK"
