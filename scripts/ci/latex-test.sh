#!/usr/bin/env bash
# The LaTeX package (latex/) in Debian's TeX Live, as an author uses it: latex/test/check.py
# compiles documents with pdfLaTeX, XeLaTeX and LuaLaTeX in both run modes (shell escape;
# two runs with `staunton latex JOB` between them) and with latexmk and latex/latexmkrc,
# reads the rasterised pages (pdftoppm) back to their positions, checks that a second run
# draws nothing and the PDF is vector, that a bad FEN stops the run with the service's
# sentence and the line, that shell syntax in a FEN or caption stays data, and that a
# tagged document's figures carry the alternative text (pikepdf, pinned, in a venv under
# /tmp).
#
#   scripts/ci/latex-test.sh [STAUNTON_BIN]
#   scripts/ci/latex-test.sh --install-only     # the packages only
#
# STAUNTON_BIN defaults to the release binary (scripts/target-dir.sh: target/release, or
# $CARGO_TARGET_DIR/release), built with `cargo build --release` when it is absent. What
# TeX Live packages are missing are installed with apt-get (l3build is Debian's
# texlive-latex-extra; chessboard and xskak are texlive-games). Then `l3build ctan` runs the
# package's regression tests, typesets the manual with the package, and packs the archive.
set -euo pipefail
cd "$(dirname "$0")/../.."

# Each step says what it does; the next prints how long it took (and the end, the total).
step_start=$SECONDS
step() {
  if [ -n "${step_name:-}" ]; then echo "   ($step_name: $((SECONDS - step_start)) s)"; fi
  step_name=$1
  step_start=$SECONDS
  echo "== latex-test: $1"
}
trap 'echo "   (${step_name:-start}: $((SECONDS - step_start)) s; all: $SECONDS s)"' EXIT

# What the checks need: TeX Live's packages (apt), and pikepdf (PyPI, pinned) in a venv.
venv=/tmp/staunton-latex-venv
install() {
  # texlive-pstricks: skak loads pst-node under XeLaTeX (xskak, in the l3build tests).
  local wanted=(texlive-latex-extra texlive-games texlive-luatex texlive-xetex texlive-pstricks latexmk poppler-utils python3-venv unzip)
  local missing=()
  for package in "${wanted[@]}"; do
    dpkg-query -W -f='${Status}' "$package" 2> /dev/null | grep -q "install ok installed" || missing+=("$package")
  done
  if [ ${#missing[@]} -gt 0 ]; then
    echo "installing: ${missing[*]}"
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" > /dev/null
  fi
  if [[ ! -x $venv/bin/python ]] || ! "$venv/bin/python" -c 'import pikepdf' 2> /dev/null; then
    python3 -m venv "$venv"
    "$venv/bin/pip" install --quiet pikepdf==10.18.0
  fi
}
# `--install-only`: only that (.ci/run does it in the background while cargo tests).
if [[ ${1:-} == --install-only ]]; then
  install
  exit 0
fi

step "TeX Live (pdfLaTeX, XeLaTeX, LuaLaTeX, chessboard, latexmk, l3build), poppler-utils, pikepdf"
install
pdflatex --version | head -n 1

step "the staunton binary"
if [ $# -ge 1 ]; then
  bin=$(realpath "$1")
else
  bin=$(scripts/target-dir.sh)/release/staunton
  [ -x "$bin" ] || cargo build --release
fi
"$bin" --version
# The package calls `staunton` by name (shell escape, latexmk's rule): a folder on the PATH
# that holds it under that name.
work=$(mktemp -d)
trap 'rm -rf "$work"; echo "   (${step_name:-start}: $((SECONDS - step_start)) s; all: $SECONDS s)"' EXIT
mkdir "$work/bin"
ln -s "$bin" "$work/bin/staunton"

step "latex/test/check.py: three engines, both run modes and latexmk, pages read back, errors, quoting, tagging"
STAUNTON_BIN_DIR="$work/bin" "$venv/bin/python" latex/test/check.py

step "l3build ctan: the regression tests (three engines), the manual typeset with the package, the archive"
(cd latex && rm -rf build staunton-ctan.zip && PATH="$work/bin:$PATH" l3build ctan > "$work/l3build.log" 2>&1) || {
  tail -n 60 "$work/l3build.log"
  for diff in latex/build/test/*.diff; do [ -f "$diff" ] && cat "$diff"; done
  exit 1
}
grep -E "All checks passed" "$work/l3build.log"
listing=$(unzip -l latex/staunton-ctan.zip)
for file in staunton.sty staunton-chessboard.tex README.md staunton-doc.pdf latexmkrc; do
  grep -q "staunton/$file" <<< "$listing" || { echo "the CTAN archive lacks $file"; exit 1; }
done
pdfinfo latex/build/doc/staunton-doc.pdf | grep -E "^Pages"
