#!/usr/bin/env bash
# SVG compatibility: the SVG of marked real positions, rasterised by the renderers people
# put chess diagrams in, has the pixels of Staunton's own PNG of the same request.
#  - librsvg (Debian's rsvg-convert), CairoSVG, QtSvg (PyQt5, SVG Tiny 1.2) and NanoSVG
#    (pygame's SVG loader, through SDL_image) each draw `svg=portable`;
#  - Inkscape (Debian's 1.2) draws both forms, unless SVG_COMPAT_INKSCAPE=0 (it is a
#    100 MB install);
#  - librsvg and CairoSVG also draw the default compact SVG (QtSvg and NanoSVG do not:
#    QtSvg has no `<symbol>`, NanoSVG no `<use>`; the book says so);
#  - each raster is laid on white and compared with the PNG on white, in blocks of 4×4
#    pixels: the mean difference of a block (RGB, 0–255) must stay under BLOCK_LIMIT, and
#    that of the whole image under IMAGE_LIMIT (see compare() below for why).
# The renderers come from Debian (librsvg2-bin) and from PyPI at pinned versions, in a venv
# under /tmp.
#
# Run from anywhere:  scripts/ci/svg-compat-test.sh [STAUNTON_BIN]
# (default binary: target/release/staunton, built with cargo when missing).
# SVG_FORM=compact tests the compact SVG in every renderer instead (it fails in QtSvg and
# NanoSVG: that is the issue this test guards against).
# SHOTS=DIR writes each case's renderers side by side as DIR/svg-compat-CASE.png (the
# book's screenshots). KEEP=1 keeps the work folder.
set -euo pipefail

scripts="$(cd "$(dirname "$0")" && pwd)"
root="${scripts%/scripts/ci}"
bin="${1:-${STAUNTON_BIN:-$("$root"/scripts/target-dir.sh)/release/staunton}}"
[[ -x "$bin" ]] || (cd "$root" && cargo build --release --quiet)
bin="$(realpath "$bin")"
form="${SVG_FORM:-portable}"

need=()
command -v rsvg-convert >/dev/null || need+=(librsvg2-bin)
inkscape="${SVG_COMPAT_INKSCAPE:-1}"
if [[ "$inkscape" == 1 ]]; then
  command -v inkscape >/dev/null || need+=(inkscape)
fi
python3 -c "import venv, ensurepip" 2>/dev/null || need+=(python3-venv)
# What CairoSVG loads (cairocffi), and what PyQt5's wheel loads with the offscreen platform.
for lib in libcairo2 libgl1 libglib2.0-0 libfontconfig1 libdbus-1-3 libxkbcommon0; do
  dpkg -s "$lib" >/dev/null 2>&1 || need+=("$lib")
done
if ((${#need[@]})); then
  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null
fi

venv=/tmp/staunton-svg-compat-venv
if [[ ! -x "$venv/bin/python" ]]; then
  python3 -m venv "$venv"
fi
# Every package pinned, dependencies too.
"$venv/bin/pip" install -q --disable-pip-version-check \
  CairoSVG==2.7.1 cairocffi==1.7.1 cffi==2.1.1 cssselect2==0.10.1 defusedxml==0.7.1 \
  pycparser==3.12 tinycss2==1.5.1 webencodings==0.6.1 pillow==11.0.0 \
  PyQt5==5.15.11 PyQt5-Qt5==5.15.19 PyQt5_sip==12.20.0 pygame==2.6.1

work="$(mktemp -d)"
trap 'if [[ -n "${KEEP:-}" ]]; then echo "svg-compat-test: kept $work"; else rm -rf "$work"; fi' EXIT

# name|FEN|options: real positions with every kind of mark, labels inside and outside, a
# caption, a flipped board, the classic set and a Fairy board with neutral and turned
# pieces and neutral markers.
cases=(
  'ruy-lopez|r1bqkbnr/pppp1ppp/2n5/1B2p3/4P3/5N2/PPPP1PPP/RNBQK2R b KQkq - 3 3|--size 320 --last-move f1b5 --arrows Ga7a6,Rb5c6,Yd7 --highlight Rc6,Ge5 --squares d5'
  'flipped|r2q1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N1PN2/PP2BPPP/R2Q1RK1 w - - 0 10|--size 320 --orientation black --coordinates inside --marks circle:Re4,dotted:d5,square:f3,triangle:g7,dot:e3,ring:d4,label:a3:12 --caption "Black to play" --turn'
  'check|rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3|--size 320 --check auto --last-move d8h4 --glyph !! --legal-moves e1 --caption "Fool'"'"'s mate"'
  'classic|6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1|--size 280 --pieces staunton-classic --theme blue --coordinates none --arrows Bd1d8'
  'fairy|4-k3/8/2'"''"'12*1N4/8/3C'"'"'A3/8/2-C-S4/3*2Q3T w - - 0 1|--size 320 --dialect fairy --caption "Neutral, turned, text"'
  'region|r1bqkbnr/pppp1ppp/2n5/1B2p3/4P3/5N2/PPPP1PPP/RNBQK2R b KQkq - 3 3|--size 240 --region a5:d8 --arrows Ga7a6'
)

for case in "${cases[@]}"; do
  IFS='|' read -r name fen options <<<"$case"
  eval "opts=($options)"
  "$bin" render "$fen" "${opts[@]}" -o "$work/$name.png"
  "$bin" render "$fen" "${opts[@]}" --svg "$form" -o "$work/$name.svg"
  "$bin" render "$fen" "${opts[@]}" -o "$work/$name.compact.svg"
  grep -q '</svg>' "$work/$name.svg"
  rsvg-convert "$work/$name.svg" -o "$work/$name.librsvg.png"
  rsvg-convert "$work/$name.compact.svg" -o "$work/$name.compact-librsvg.png"
  if [[ "$inkscape" == 1 ]]; then
    for f in "$name" "$name.compact"; do
      inkscape "$work/$f.svg" --export-type=png --export-filename="$work/$f.inkscape.png" 2>/dev/null
    done
    mv "$work/$name.compact.inkscape.png" "$work/$name.compact-inkscape.png"
  fi
done

cat >"$work/compare.py" <<'PY'
"""Rasterise each case's SVG with CairoSVG, QtSvg and NanoSVG (librsvg's rasters are made
by the shell script) and compare every raster with Staunton's PNG."""
import os
import sys

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
# QtSvg's complaints (an undefined link: a piece it cannot draw) show as a failed compare.
os.environ.setdefault("QT_LOGGING_RULES", "qt.svg=false")
os.environ.setdefault("XDG_RUNTIME_DIR", sys.argv[1])

import re

import cairosvg
import pygame
from PIL import Image, ImageChops, ImageDraw, ImageStat
from PyQt5.QtCore import Qt
from PyQt5.QtGui import QImage, QPainter
from PyQt5.QtSvg import QSvgRenderer
from PyQt5.QtWidgets import QApplication

# Anti-aliasing differs between renderers: an edge pixel may be a quarter, or half, off.
# In a 4×4 block on an edge that averages well under 48 of 255 (measured: at most 24 in
# librsvg, CairoSVG, Inkscape and NanoSVG, 37 in QtSvg), while a block inside a missing
# piece, label or mark differs by the full contrast of what is missing (130 and more: see
# the mutants below). A whole image differs by under 2.5 on average when everything is
# drawn (measured: at most 1.17).
BLOCK = 4
BLOCK_LIMIT = 48
IMAGE_LIMIT = 2.5

APP = QApplication.instance() or QApplication([])


def on_white(image):
    image = image.convert("RGBA")
    white = Image.new("RGBA", image.size, (255, 255, 255, 255))
    return Image.alpha_composite(white, image).convert("RGB")


def cairo(svg, out):
    cairosvg.svg2png(url=svg, write_to=out)


def qt(svg, out):
    renderer = QSvgRenderer(svg)
    if not renderer.isValid():
        raise RuntimeError("QtSvg cannot read " + svg)
    image = QImage(renderer.defaultSize(), QImage.Format_ARGB32)
    image.fill(Qt.transparent)
    painter = QPainter(image)
    renderer.render(painter)
    painter.end()
    image.save(out)


def nano(svg, out):
    pygame.image.save(pygame.image.load(svg), out)


def compare(raster, expected):
    """The worst 4×4 block's mean difference and the whole image's, or a size mismatch."""
    got = on_white(Image.open(raster))
    if got.size != expected.size:
        return None, f"size {got.size} instead of {expected.size}"
    # Per pixel, the largest difference of its three channels.
    r, g, b = ImageChops.difference(got, expected).split()
    diff = ImageChops.lighter(ImageChops.lighter(r, g), b)
    image_mean = ImageStat.Stat(diff).mean[0]
    w, h = diff.size
    # The block means: shrink by averaging (box filter) over whole blocks.
    blocks = diff.crop((0, 0, w - w % BLOCK, h - h % BLOCK)).reduce(BLOCK)
    return (max(blocks.getdata()), image_mean), None


def side_by_side(paths, labels, out):
    images = [on_white(Image.open(p)) for p in paths]
    w, h = images[0].size
    strip = Image.new("RGB", (len(images) * (w + 8) - 8, h + 18), "white")
    draw = ImageDraw.Draw(strip)
    for i, (image, label) in enumerate(zip(images, labels)):
        strip.paste(image, (i * (w + 8), 18))
        draw.text((i * (w + 8) + 2, 3), label, fill=(0, 0, 0))
    # A palette of 64 colours: small files for the book, every renderer quantised alike.
    strip.quantize(64, dither=Image.Dither.NONE).save(out, optimize=True)


def main(work, names, shots):
    failures = 0
    for name in names:
        svg = os.path.join(work, name + ".svg")
        compact = os.path.join(work, name + ".compact.svg")
        rasters = {"librsvg": os.path.join(work, name + ".librsvg.png")}
        rasters["compact librsvg"] = os.path.join(work, name + ".compact-librsvg.png")
        for label, file in [("Inkscape", ".inkscape.png"), ("compact Inkscape", ".compact-inkscape.png")]:
            if os.path.exists(os.path.join(work, name + file)):
                rasters[label] = os.path.join(work, name + file)
        for label, draw, source in [
            ("CairoSVG", cairo, svg),
            ("compact CairoSVG", cairo, compact),
            ("QtSvg", qt, svg),
            ("NanoSVG", nano, svg),
        ]:
            out = os.path.join(work, f"{name}.{label.replace(' ', '-')}.png")
            try:
                draw(source, out)
                rasters[label] = out
            except Exception as error:  # a renderer that refuses the file fails the case
                print(f"FAIL {name} {label}: {error}")
                failures += 1
        expected = on_white(Image.open(os.path.join(work, name + ".png")))
        for label, raster in rasters.items():
            numbers, problem = compare(raster, expected)
            if problem is None:
                worst, mean = numbers
                ok = worst < BLOCK_LIMIT and mean < IMAGE_LIMIT
                problem = f"worst block {worst:.1f}, image {mean:.2f}"
            else:
                ok = False
            print(f"{'ok  ' if ok else 'FAIL'} {name:10} {label:17} {problem}")
            failures += 0 if ok else 1
        if shots:
            order = ["librsvg", "CairoSVG", "Inkscape", "QtSvg", "NanoSVG"]
            paths = [os.path.join(work, name + ".png")] + [rasters[k] for k in order if k in rasters]
            labels = ["Staunton PNG"] + [k for k in order if k in rasters]
            side_by_side(paths, labels, os.path.join(shots, f"svg-compat-{name}.png"))
    return failures


# The test's own check that it sees what goes missing: the first case's compact SVG with
# one thing taken out must fail the comparison.
MUTANTS = [
    ("a piece", r'<use xlink:href="#[wb][A-Z]"[^>]*/>'),
    ("the labels", r'<path transform="scale\([^"]*\)"[^>]*/>'),
    ("an arrow", r'<path d="M[^"]*Z" fill="#[0-9a-f]{6}" fill-opacity="[^"]*"/>'),
]


def mutants(work, name):
    """How many mutants of `name` wrongly pass."""
    source = open(os.path.join(work, name + ".compact.svg")).read()
    expected = on_white(Image.open(os.path.join(work, name + ".png")))
    passed = 0
    for what, pattern in MUTANTS:
        mutant, n = re.subn(pattern, "", source, count=1)
        out = os.path.join(work, "mutant.png")
        if n == 1:
            cairosvg.svg2png(bytestring=mutant.encode(), write_to=out)
            (worst, mean), _ = compare(out, expected)
            caught = worst >= BLOCK_LIMIT or mean >= IMAGE_LIMIT
        else:
            caught, worst = False, 0
        print(f"{'ok  ' if caught else 'FAIL'} {name:10} without {what}: worst block {worst:.1f}")
        passed += 0 if caught else 1
    return passed


if __name__ == "__main__":
    work, shots, names = sys.argv[1], sys.argv[2], sys.argv[3:]
    failures = main(work, names, shots or None) + mutants(work, names[0])
    sys.exit(1 if failures else 0)
PY

names=()
for case in "${cases[@]}"; do names+=("${case%%|*}"); done
shots="${SHOTS:-}"
if [[ -n "$shots" ]]; then
  mkdir -p "$shots"
  shots="$(cd "$shots" && pwd)"
fi
if ! "$venv/bin/python" "$work/compare.py" "$work" "$shots" "${names[@]}"; then
  echo "svg-compat-test: FAIL: a renderer's raster of the SVG ($form) differs from the PNG" >&2
  exit 1
fi
echo "svg-compat-test: ok (${#names[@]} cases; librsvg, CairoSVG, $([[ "$inkscape" == 1 ]] && echo "Inkscape, ")QtSvg, NanoSVG)"
