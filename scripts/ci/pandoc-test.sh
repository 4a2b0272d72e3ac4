#!/usr/bin/env bash
# Tests the pandoc filter integrations/pandoc/staunton.lua on integrations/pandoc/example.md:
#  - HTML: one <img> per diagram fence, its file the SVG that `staunton fence` makes for
#    the same fence, its alt text (and caption) the ones `staunton fence` prints, and its
#    width and height those `staunton fence` prints, which are the SVG's own;
#  - DOCX: the PNGs inside the archive have the pixels of `staunton fence --format png`
#    at print size (8 cm at 300 dpi, or size/96 inch for a fence with a size), and Word
#    is told to show them at that width;
#  - LaTeX: the .tex includes the PDFs `staunton fence --format pdf` makes, which exist
#    and start with %PDF;
#  - a fence staunton refuses stops pandoc with staunton's sentence; a fence pandoc reads
#    as inline code (options after a space) is named in a warning;
#  - a hostile document cannot choose the program (`staunton-bin`, in front matter or
#    --metadata: pandoc stops, nothing runs) nor put images outside the folder pandoc
#    runs in (`staunton-images` absolute, with `..`, or through a link: pandoc stops,
#    nothing is written there); a relative folder inside, and STAUNTON_IMAGES, work.
# The expected requests are written out below, one per fence of example.md, so the test
# also checks how the filter turns pandoc's attributes back into an info string.
#
# Run from anywhere:  scripts/ci/pandoc-test.sh [STAUNTON_BIN]
# (default binary: target/release/staunton, built with cargo when missing).
# Installs pandoc (Debian's 2.17) and python3 with apt-get when they are missing.
set -euo pipefail

root="$(cd "$(dirname "$0")/../.." && pwd)"
bin="${1:-${STAUNTON_BIN:-}}"
if [[ -z "$bin" ]]; then
  bin="$("$root"/scripts/target-dir.sh)/release/staunton"
  [[ -x "$bin" ]] || (cd "$root" && cargo build --release --quiet)
fi
bin="$(cd "$(dirname "$bin")" && pwd)/$(basename "$bin")"
export STAUNTON_BIN="$bin"

need=()
command -v pandoc >/dev/null || need+=(pandoc)
command -v python3 >/dev/null || need+=(python3)
if ((${#need[@]})); then
  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${need[@]}" >/dev/null
fi

work="$(mktemp -d)"
trap 'if [[ -n "${KEEP:-}" ]]; then echo "pandoc-test: kept $work"; else rm -rf "$work"; fi' EXIT
fail() { echo "pandoc-test: FAIL: $*" >&2; exit 1; }
filter="$root/integrations/pandoc/staunton.lua"
cp "$root/integrations/pandoc/example.md" "$work/example.md"

# The fences of example.md: info string, body, and the size in CSS pixels the fence asks
# for (0: none, so 8 cm on paper).
infos=(
  'fen'
  'fen caption="After 2...Nc6" coordinates=none orientation=black'
  'chess'
  'chessboard'
  'pgn move=3w'
)
bodies=(
  $'start\n'
  $'r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3\n'
  $'rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2\narrows: g1->f3\nlastMove: e7 e5\ntheme: blue\n'
  $'6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1\nsize: 240\nturn: 1\n'
  $'[Event "Example"]\n\n1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 *\n'
)
css=(0 0 0 240 0)

# expected FORMAT: runs `staunton fence` for every fence into $work/expect-FORMAT and
# writes its four lines per fence, tab-separated, to $work/expect-FORMAT.tsv.
expected() {
  local format=$1 dir="$work/expect-$1" i info body px extra
  mkdir -p "$dir"
  : >"$dir.tsv"
  for i in "${!infos[@]}"; do
    info="${infos[$i]}" body="${bodies[$i]}" extra=()
    if [[ $format == png ]]; then
      # 8 cm = 945 px at 300 dpi; a fence's size S (CSS px) is S*300/96 px.
      px=945
      ((css[i])) && px=$(((css[i] * 300 + 48) / 96))
      info="$info size=$px"
      body="$(printf '%s' "$body" | grep -v '^size:')"$'\n'
    elif [[ $format == pdf ]]; then
      extra=(--set size=227)
    fi
    extra+=(--lang en) # example.md says lang: en
    (cd "$work" && printf '%s' "$body" |
      "$bin" fence --info "$info" --images "expect-$format/staunton-diagrams" --format "$format" "${extra[@]}") |
      paste -sd '\t' >>"$dir.tsv" || fail "staunton fence --info '$info' failed"
  done
}

run_pandoc() { # OUTPUT-DIR PANDOC-ARGS...: runs the filter in a folder of its own
  local out="$work/$1"
  shift
  mkdir -p "$out"
  (cd "$out" && pandoc --lua-filter "$filter" "$work/example.md" "$@") ||
    fail "pandoc $* failed"
}

for format in svg png pdf; do expected "$format"; done
run_pandoc html -s -t html5 -o out.html
run_pandoc docx -t docx -o out.docx
run_pandoc latex -s -t latex -o out.tex

python3 - "$work" "$bin" <<'PY' || fail "see above"
import html.parser, os, re, struct, subprocess, sys, zipfile

work, binary = sys.argv[1:3]
errors = []

def expected(fmt):
    """The four lines `staunton fence` printed per fence: path, alt, caption, "W H"."""
    rows = []
    for line in open(f"{work}/expect-{fmt}.tsv", encoding="utf-8"):
        path, alt, caption, size = (line.rstrip("\n").split("\t") + ["", "", ""])[:4]
        rows.append((f"{work}/{path}", alt, caption, size))
    return rows

def same_count(what, got, want):
    if len(got) != len(want):
        errors.append(f"{what}: {len(got)} diagrams, expected {len(want)}")

class Images(html.parser.HTMLParser):
    """(src, alt, caption) of every <img>; the caption from an enclosing <figure>."""
    def __init__(self):
        super().__init__()
        self.images, self.in_caption = [], False
    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "img":
            size = f"{a.get('width', '')} {a.get('height', '')}".strip()
            self.images.append([a.get("src", ""), a.get("alt", ""), "", size])
        self.in_caption = tag == "figcaption"
    def handle_endtag(self, tag):
        self.in_caption = False
    def handle_data(self, data):
        if self.in_caption and self.images:
            self.images[-1][2] += data

def svg_size(data):
    """The width and height attributes of an SVG's root element, as "W H"."""
    root = re.search(rb"<svg[^>]*>", data)
    get = lambda name: re.search(rb'\s' + name + rb'="(\d+)"', root.group(0)) if root else None
    w, h = get(b"width"), get(b"height")
    return f"{int(w.group(1))} {int(h.group(1))}" if w and h else ""

def check_html():
    parser = Images()
    page = open(f"{work}/html/out.html", encoding="utf-8").read()
    parser.feed(page)
    want = expected("svg")
    same_count("HTML", parser.images, want)
    for n, ((src, alt, caption, size), (path, walt, wcaption, wsize)) in enumerate(zip(parser.images, want), 1):
        data = open(f"{work}/html/{src}", "rb").read() if os.path.exists(f"{work}/html/{src}") else b""
        if os.path.basename(src) != os.path.basename(path) or data != open(path, "rb").read():
            errors.append(f"HTML image {n}: {src} is not {os.path.basename(path)}")
        elif not data.startswith(b"<svg"):
            errors.append(f"HTML image {n}: {src} is not an SVG")
        # The <img> keeps its room while it loads: the size staunton printed, the SVG's own.
        if not size or size != wsize or size != svg_size(data):
            errors.append(f"HTML image {n}: width and height {size!r}, staunton fence printed "
                          f"{wsize!r}, the SVG is {svg_size(data)!r}")
        # pandoc writes text as words and single spaces.
        if alt.split() != walt.split() or caption.split() != wcaption.split():
            errors.append(f"HTML image {n}: alt {alt!r} / caption {caption!r}, expected {walt!r} / {wcaption!r}")
    if "not a diagram" not in page:
        errors.append("HTML: the python code block is gone")
    print(f"pandoc-test: HTML: {len(parser.images)} SVG images, as `staunton fence` makes them, with their "
          f"alt texts, widths and heights ({', '.join(i[3] for i in parser.images)})")

def png_width(data):
    return struct.unpack(">I", data[16:20])[0]

def check_docx():
    docx = zipfile.ZipFile(f"{work}/docx/out.docx")
    document = docx.read("word/document.xml").decode("utf-8")
    rels = docx.read("word/_rels/document.xml.rels").decode("utf-8")
    targets = dict(re.findall(r'Id="(rId\d+)"[^>]*Target="([^"]+)"', rels))
    targets.update({i: t for t, i in re.findall(r'Target="([^"]+)"[^>]*Id="(rId\d+)"', rels)})
    embeds = re.findall(r'r:embed="(rId\d+)"', document)
    extents = [int(cx) for cx in re.findall(r'<wp:extent cx="(\d+)"', document)]
    want = expected("png")
    same_count("DOCX", embeds, want)
    # 8 cm, and 240 CSS px = 2.5 inch, in EMU (914400 a inch).
    want_cx = [2880000, 2880000, 2880000, 2286000, 2880000]
    for n, (rid, (path, alt, caption, _size)) in enumerate(zip(embeds, want), 1):
        data = docx.read("word/" + targets[rid])
        actual = f"{work}/docx-{n}.png"
        open(actual, "wb").write(data)
        if subprocess.run([binary, "compare", path, actual], stdout=subprocess.DEVNULL).returncode != 0:
            errors.append(f"DOCX image {n} ({targets[rid]}): pixels differ from {path}")
        if n <= len(extents) and abs(extents[n - 1] - want_cx[n - 1]) > 1000:
            errors.append(f"DOCX image {n}: shown {extents[n - 1]} EMU wide, expected {want_cx[n - 1]}")
        print(f"pandoc-test: DOCX image {n}: {png_width(data)} px PNG, same pixels as `staunton fence`, "
              f"{extents[n - 1] / 360000:.2f} cm wide")
    if "After 2...Nc6" not in document:
        errors.append("DOCX: the caption is missing")

def check_latex():
    tex = open(f"{work}/latex/out.tex", encoding="utf-8").read().split("\\begin{document}", 1)[-1]
    files = re.findall(r"\\includegraphics(?:\[[^\]]*\])?\{([^}]*)\}", tex)
    want = expected("pdf")
    same_count("LaTeX", files, want)
    for n, (name, (path, _alt, _caption, _size)) in enumerate(zip(files, want), 1):
        full = f"{work}/latex/{name}"
        data = open(full, "rb").read() if os.path.exists(full) else b""
        if not data.startswith(b"%PDF"):
            errors.append(f"LaTeX figure {n}: {name} is missing or not a PDF")
        elif data != open(path, "rb").read():
            errors.append(f"LaTeX figure {n}: {name} is not {os.path.basename(path)}")
    if "\\caption{After 2...Nc6}" not in tex:
        errors.append("LaTeX: the figure caption is missing")
    print(f"pandoc-test: LaTeX: {len(files)} \\includegraphics of PDFs, as `staunton fence` makes them", flush=True)

for check in (check_html, check_docx, check_latex):
    try:
        check()
    except Exception as e:  # a missing file or archive member is a failure, said plainly
        errors.append(f"{check.__name__}: {e!r}")
for e in errors:
    print(f"pandoc-test: FAIL: {e}", file=sys.stderr)
sys.exit(1 if errors else 0)
PY

# A fence that staunton refuses stops pandoc, with staunton's sentence.
# shellcheck disable=SC2016 # the backticks are Markdown's
printf '```fen\nrnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNX w - - 0 1\n```\n' >"$work/bad.md"
if (cd "$work" && pandoc --lua-filter "$filter" bad.md -t html5 -o bad.html 2>bad.log); then
  fail "pandoc succeeded on a bad FEN"
fi
grep -q 'is not a valid FEN' "$work/bad.log" || { cat "$work/bad.log" >&2; fail "no sentence in pandoc's error"; }
echo "pandoc-test: a bad FEN stops pandoc: $(grep -o 'staunton: fen.*' "$work/bad.log" | cut -c1-110)"

# A fence whose options follow a space is inline code to pandoc's Markdown reader: the
# filter names it in a warning instead of letting the diagram vanish in silence.
printf 'Text\n\n```fen size=300 orientation=black\nstart\n```\n' >"$work/misread.md"
(cd "$work" && pandoc --lua-filter "$filter" misread.md -t html5 -o misread.html 2>misread.log) ||
  fail "pandoc failed on a misread fence"
grep -q "took a fen fence for inline code" "$work/misread.log" ||
  { cat "$work/misread.log" >&2; fail "no warning for a fence pandoc read as inline code"; }
grep -q '<code>fen size=300' "$work/misread.html" || fail "the misread fence's text is gone"
echo "pandoc-test: a fence read as inline code is named: $(cut -c1-100 "$work/misread.log")"
# Hostile documents. Each runs in a folder of its own under $work/hostile; `outside` is
# where they try to reach.
hostile="$work/hostile" outside="$work/outside"
mkdir -p "$hostile" "$outside"
printf '#!/bin/sh\ntouch "%s/ran"\n' "$outside" >"$work/evil.sh"
chmod +x "$work/evil.sh"
ln -s "$outside" "$hostile/out-link"
fence='```fen\nstart\n```\n'
# expect_refused NAME FRONT-MATTER SENTENCE [PANDOC-ARGS...]: pandoc fails with SENTENCE
# in its error, and nothing was run or written outside.
expect_refused() {
  local name=$1 front=$2 sentence=$3
  shift 3
  printf -- '---\n%s\n---\n\n%b' "$front" "$fence" >"$hostile/$name.md"
  if (cd "$hostile" && pandoc --lua-filter "$filter" "$name.md" -t html5 -o "$name.html" "$@" 2>"$name.log"); then
    fail "$name: pandoc succeeded on a hostile document"
  fi
  [[ ! -e "$outside/ran" ]] || fail "$name: the document's program was run"
  [[ -z "$(ls -A "$outside")" ]] || fail "$name: files written outside: $(ls -A "$outside")"
  [[ ! -e "$work/out" ]] || fail "$name: ../out was made"
  grep -q -- "$sentence" "$hostile/$name.log" || { cat "$hostile/$name.log" >&2; fail "$name: no '$sentence' in pandoc's error"; }
  echo "pandoc-test: refused $name: $(grep -o "staunton.lua: .*\|staunton: .*" "$hostile/$name.log" | head -1 | cut -c1-100)"
}
expect_refused bin "staunton-bin: $work/evil.sh" 'never taken from a document'
expect_refused bin-touch 'staunton-bin: /usr/bin/touch' 'never taken from a document'
printf '%b' "$fence" >"$hostile/plain.md"
if (cd "$hostile" && pandoc --lua-filter "$filter" plain.md -t html5 -o plain.html \
  --metadata "staunton-bin=$work/evil.sh" 2>plain.log); then
  fail "pandoc succeeded with --metadata staunton-bin"
fi
[[ ! -e "$outside/ran" ]] || fail "--metadata staunton-bin: the program was run"
expect_refused images-absolute "staunton-images: $outside/figures" 'staunton-images .* is not allowed'
expect_refused images-up 'staunton-images: ../out' 'staunton-images .* is not allowed'
expect_refused images-up-inside 'staunton-images: figures/../../out' 'staunton-images .* is not allowed'
expect_refused images-link 'staunton-images: out-link/figures' 'is not inside'

# What is allowed: a relative folder inside, and STAUNTON_IMAGES anywhere.
printf -- '---\nstaunton-images: figures/chess\n---\n\n%b' "$fence" >"$hostile/inside.md"
(cd "$hostile" && pandoc --lua-filter "$filter" inside.md -t html5 -o inside.html) ||
  fail "staunton-images: figures/chess was refused"
ls "$hostile/figures/chess/"*.svg >/dev/null 2>&1 || fail "no image in figures/chess"
grep -q 'src="figures/chess/' "$hostile/inside.html" || fail "inside.html does not link figures/chess"
(cd "$hostile" && STAUNTON_IMAGES="$work/chosen" pandoc --lua-filter "$filter" plain.md -t html5 -o chosen.html) ||
  fail "STAUNTON_IMAGES=$work/chosen was refused"
ls "$work/chosen/"*.svg >/dev/null 2>&1 || fail "no image in STAUNTON_IMAGES"
echo "pandoc-test: staunton-images inside the folder and STAUNTON_IMAGES anywhere are written"
echo "pandoc-test: OK"
