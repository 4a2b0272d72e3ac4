#!/usr/bin/env bash
# Builds the example book (integrations/mdbook/example-book) with mdBook and Staunton's
# preprocessor (`staunton mdbook`), in a temporary copy, and checks the pages:
#   - mode images (svg, then png): each chapter's HTML holds its diagrams with their alt
#     text and captions, no diagram fence is left as code, every image link resolves to a
#     file, and a second build writes no new file (so `mdbook serve` does not loop);
#   - mode inline: each diagram is an <svg role="img"> labelled with its alt text;
#   - mode url: each diagram is an <img> whose src is the service's address;
#   - a bad fence stops the build with `staunton: src/CHAPTER:LINE: sentence`, or with
#     keep-going = true becomes a warning; a bad config value stops it naming the key.
# Modes are switched with mdBook's environment overrides (MDBOOK_PREPROCESSOR__STAUNTON__MODE).
#
#   scripts/ci/mdbook-test.sh [STAUNTON_BIN]
#
# STAUNTON_BIN defaults to cargo's target folder/release/staunton, built when missing.
#
# Installs the pinned mdBook with `cargo install` when `mdbook --version` is another one.
# Exit status 1 with a message naming what failed.
set -euo pipefail
cd "$(dirname "$0")/../.."

fail() {
  echo "mdbook-test: FAILED: $*" >&2
  exit 1
}

staunton=${1:-$(scripts/target-dir.sh)/release/staunton}
if [ ! -x "$staunton" ]; then
  [ $# -eq 0 ] || fail "$staunton is not an executable file"
  echo "== cargo build --release"
  cargo build --release --quiet
fi
staunton="$(cd "$(dirname "$staunton")" && pwd)/$(basename "$staunton")"

mdbook_version=0.5.3
export PATH="${CARGO_HOME:-$HOME/.cargo}/bin:$PATH"
if [ "$(mdbook --version 2> /dev/null || true)" != "mdbook v$mdbook_version" ]; then
  echo "== cargo install mdbook $mdbook_version"
  # A target dir of its own, so the install neither waits for nor fills the crate's.
  CARGO_TARGET_DIR="${TMPDIR:-/tmp}/mdbook-build" \
    cargo install mdbook --version "$mdbook_version" --locked --quiet
fi
mdbook --version

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# book.toml says `command = "staunton mdbook"`: the binary under test is that `staunton`.
mkdir "$work/bin"
ln -s "$staunton" "$work/bin/staunton"
export PATH="$work/bin:$PATH"
[ "$(command -v staunton)" = "$work/bin/staunton" ] || fail "staunton on PATH is not $staunton"
staunton mdbook supports html || fail "staunton mdbook supports html: exit status $?"

# build NAME [VAR=VALUE...]: a fresh copy of the example book in $work/NAME, built with
# the variables set; mdBook's stderr (and so the preprocessor's) in $work/NAME.err.
build() {
  local name=$1
  shift
  rm -rf "${work:?}/$name"
  cp -r integrations/mdbook/example-book "$work/$name"
  rm -rf "$work/$name/book" "$work/$name/src/diagrams"
  rebuild "$name" "$@"
}

# rebuild NAME [VAR=VALUE...]: build $work/NAME again, as it is.
rebuild() {
  local name=$1
  shift
  env "$@" mdbook build "$work/$name" > "$work/$name.out" 2> "$work/$name.err"
}

cat > "$work/check.py" << 'EOF'
"""Check a built example book: python3 check.py MODE BOOK_DIR (MODE images, inline or url)."""
import html.parser, os, sys

mode, book = sys.argv[1], sys.argv[2]
out = os.path.join(book, "book")

# Per page: each diagram's expected alt text (a part of it) and caption (or None), in order.
PAGES = {
    "introduction.html": [("White: King e1", "The starting position"),
                          ("After 1.e4 e5, seen from Black", None)],
    "openings/index.html": [("Knights c6 and g8", "After 1.e4 e5 2.Nf3 Nc6")],
    "openings/italian.html": [("The Italian Game after 1.e4 e5 2.Nf3 Nc6 3.Bc4",
                               "The Italian Game, 3.Bc4"),
                              ("Knights b1 and f3", None)],
    "puzzles.html": [("Rook d1", "White mates in one"), ("Queen f7", None)],
}
DIAGRAM_LANGUAGES = {"language-fen", "language-pgn", "language-chess", "language-chessboard"}


class Page(html.parser.HTMLParser):
    """The diagrams of a page (img or svg with its alt), its captions, its code classes."""

    def __init__(self):
        super().__init__()
        self.diagrams, self.captions, self.code = [], [], set()
        self.in_caption = False

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "img":
            self.diagrams.append(("img", a.get("src", ""), a.get("alt", "")))
        elif tag == "svg" and a.get("role") == "img":
            self.diagrams.append(("svg", "", a.get("aria-label", "")))
        elif tag == "figcaption":
            self.in_caption = True
            self.captions.append("")
        elif tag == "code":
            self.code.update((a.get("class") or "").split())

    def handle_endtag(self, tag):
        if tag == "figcaption":
            self.in_caption = False

    def handle_data(self, data):
        if self.in_caption:
            self.captions[-1] += data


errors = []
for name, expected in PAGES.items():
    path = os.path.join(out, name)
    if not os.path.exists(path):
        errors.append(f"{path}: no such page")
        continue
    page = Page()
    with open(path, encoding="utf-8") as f:
        page.feed(f.read())
    where = f"{mode}: {name}"
    if page.code & DIAGRAM_LANGUAGES:
        errors.append(f"{where}: a diagram fence left as code ({page.code & DIAGRAM_LANGUAGES})")
    if name == "introduction.html" and "language-rust" not in page.code:
        errors.append(f"{where}: the Rust code block is gone")
    kind = "svg" if mode == "inline" else "img"
    diagrams = [d for d in page.diagrams if d[0] == kind]
    if len(diagrams) != len(expected):
        errors.append(f"{where}: {len(diagrams)} diagrams, expected {len(expected)}: {diagrams}")
        continue
    for (_, src, alt), (want_alt, caption) in zip(diagrams, expected):
        if want_alt not in alt:
            errors.append(f"{where}: alt text {alt!r} does not hold {want_alt!r}")
        if caption is not None and caption not in page.captions:
            errors.append(f"{where}: no caption {caption!r} (captions: {page.captions})")
        if mode == "url":
            if not src.startswith("https://diagrams.example.org/diagram.svg?"):
                errors.append(f"{where}: {src!r} is not the service's address")
        elif mode.startswith("images"):
            ext = "." + mode.split("-")[1]
            target = os.path.normpath(os.path.join(os.path.dirname(path), src))
            if src.startswith("/") or "://" in src:
                errors.append(f"{where}: {src!r} is not a relative link")
            elif not src.endswith(ext):
                errors.append(f"{where}: {src!r} is not a {ext} file")
            elif not os.path.isfile(target):
                errors.append(f"{where}: image {src!r} does not resolve ({target} is missing)")
    print(f"{where}: {len(diagrams)} diagrams")

# The print page holds every chapter at the root: mdBook must have rewritten the links.
if mode.startswith("images"):
    page = Page()
    with open(os.path.join(out, "print.html"), encoding="utf-8") as f:
        page.feed(f.read())
    srcs = [src for kind, src, _ in page.diagrams if kind == "img"]
    if len(srcs) != sum(map(len, PAGES.values())):
        errors.append(f"{mode}: print.html has {len(srcs)} diagrams")
    for src in srcs:
        if not os.path.isfile(os.path.join(out, src)):
            errors.append(f"{mode}: print.html: image {src!r} does not resolve")

for e in errors:
    print(e)
sys.exit(1 if errors else 0)
EOF

check() {
  python3 "$work/check.py" "$1" "$work/$2" || fail "the pages of mode $1 (above)"
}

for format in svg png; do
  echo "== mode images, format $format"
  build "images-$format" MDBOOK_PREPROCESSOR__STAUNTON__FORMAT="$format" ||
    fail "mdbook build (images, $format): $(cat "$work/images-$format.err")"
  check "images-$format" "images-$format"
done

echo "== a second build writes no new diagram (mdbook serve would loop)"
before=$(cd "$work/images-svg/src/diagrams" && ls -l --time-style=full-iso)
sleep 1 # so a rewritten file would show another time
rebuild images-svg || fail "mdbook build (images, again): $(cat "$work/images-svg.err")"
after=$(cd "$work/images-svg/src/diagrams" && ls -l --time-style=full-iso)
[ "$before" = "$after" ] || fail "the second build changed src/diagrams: $before -> $after"

echo "== mode inline"
build inline MDBOOK_PREPROCESSOR__STAUNTON__MODE=inline ||
  fail "mdbook build (inline): $(cat "$work/inline.err")"
check inline inline
[ ! -e "$work/inline/src/diagrams" ] || fail "mode inline wrote src/diagrams"

echo "== mode url"
build url MDBOOK_PREPROCESSOR__STAUNTON__MODE=url || fail "mdbook build (url): $(cat "$work/url.err")"
check url url

echo "== a bad fence stops the build with its chapter and line"
chapter=src/openings/italian.md
# The bad fence opens two lines after the chapter's end; its position stands on the next.
line=$(($(wc -l < integrations/mdbook/example-book/$chapter) + 3))
add_bad_fence() {
  printf '\n```fen\nrnbqkbnr/pppppppp/8/8 w\n```\n' >> "$work/$1/$chapter"
}
build bad
add_bad_fence bad
if rebuild bad; then
  fail "mdbook build succeeded with a bad fence"
fi
grep -q "^staunton: $chapter:$line: " "$work/bad.err" ||
  fail "no 'staunton: $chapter:$line: …' in mdBook's output: $(cat "$work/bad.err")"
grep "^staunton: $chapter:$line: " "$work/bad.err"

echo "== keep-going: a bad fence becomes a warning"
build keep
add_bad_fence keep
rebuild keep MDBOOK_PREPROCESSOR__STAUNTON__KEEP_GOING=true ||
  fail "mdbook build with keep-going: $(cat "$work/keep.err")"
grep -q "^staunton: warning: $chapter:$line: " "$work/keep.err" ||
  fail "no 'staunton: warning: $chapter:$line: …': $(cat "$work/keep.err")"

echo "== a bad config value stops the build naming the key"
if build config MDBOOK_PREPROCESSOR__STAUNTON__MODE=pictures; then
  fail "mdbook build succeeded with mode = pictures"
fi
grep -q 'staunton: \[preprocessor.staunton\] mode = "pictures"' "$work/config.err" ||
  fail "no sentence naming mode = \"pictures\": $(cat "$work/config.err")"

echo "mdbook-test: the example book builds in modes images (svg, png), inline and url"
