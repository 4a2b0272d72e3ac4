#!/usr/bin/env bash
# Tests the tagged PDFs (PDF/UA-1) of a diagram, a worksheet and an article, read back two
# ways:
#  - poppler's `pdfinfo` (Debian's poppler-utils): the document is tagged, has the title,
#    and `pdfinfo -struct-text` shows the structure tree (a Document of headings,
#    paragraphs with their words, and one Figure per diagram);
#  - pikepdf (PyPI, pinned, in a venv under /tmp): the catalog's /StructTreeRoot, /Lang,
#    /MarkInfo /Marked true and /ViewerPreferences /DisplayDocTitle true; the document
#    info's /Title; every Figure's /Alt (the /describe sentence, in the document's
#    language); the XMP metadata's pdfuaid:part 1 and dc:title; /StructParents on every
#    page and a /ParentTree entry for it; and /Artifact marked content in the article (its
#    rule).
# veraPDF (Java, from GitHub) is not run: CI reaches no GitHub downloads.
#
# Run from anywhere:  scripts/ci/pdf-ua-test.sh STAUNTON_BIN
# Installs poppler-utils with apt-get when pdfinfo is missing.
set -euo pipefail

root="$(cd "$(dirname "$0")/../.." && pwd)"
bin="${1:?usage: scripts/ci/pdf-ua-test.sh STAUNTON_BIN}"

if ! command -v pdfinfo >/dev/null; then
  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq poppler-utils >/dev/null
fi
venv=/tmp/staunton-pdfua-venv
if [[ ! -x "$venv/bin/python" ]] || ! "$venv/bin/python" -c 'import pikepdf' 2>/dev/null; then
  python3 -m venv "$venv"
  "$venv/bin/pip" install --quiet pikepdf==10.18.0
fi

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
"$bin" render start -o "$work/diagram.pdf" --lang de
"$bin" sheet "$root/tests/fixtures/puzzles/eight.epd" -o "$work/sheet.pdf" --title "Eight puzzles" >/dev/null
"$bin" article "$root/tests/fixtures/articles/opera.pgn" -o "$work/article.pdf" >/dev/null

fail() { echo "pdf-ua-test: $*" >&2; exit 1; }

# name, expected title, expected figures
check_poppler() {
  local pdf="$work/$1.pdf" title="$2" figures="$3" info tree
  info="$(pdfinfo "$pdf")"
  grep -q '^Tagged: *yes' <<<"$info" || fail "$1: pdfinfo does not call it tagged"
  grep -qF "Title:           $title" <<<"$info" || fail "$1: pdfinfo shows no title \"$title\""
  tree="$(pdfinfo -struct-text "$pdf")"
  [[ "$(head -1 <<<"$tree")" == Document ]] || fail "$1: the structure tree has no Document root"
  [[ "$(grep -c '^  Figure' <<<"$tree")" == "$figures" ]] || fail "$1: not $figures Figure elements"
  echo "pdf-ua-test: $1: pdfinfo reads a tagged PDF titled \"$title\" with $figures figure(s)"
}
check_poppler diagram "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1" 1
check_poppler sheet "Eight puzzles" 8
check_poppler article "Morphy, Paul – Duke Karl of Brunswick and Count Isouard" 3
pdfinfo -struct-text "$work/sheet.pdf" | grep -q '^  H1' || fail "sheet: no H1 heading"
pdfinfo -struct-text "$work/article.pdf" | grep -q '"Nf3"\|"♘f3"\|"2.♘f3"' || fail "article: the moves are not text in the tree"

"$venv/bin/python" - "$work" <<'PY'
import sys, pikepdf

work = sys.argv[1]

def fail(message):
    sys.exit(f"pdf-ua-test: {message}")

def elements(node, out):
    """Every structure element under node, in order."""
    kids = node.get("/K")
    if kids is None:
        return out
    if not isinstance(kids, pikepdf.Array):
        kids = [kids]
    for kid in kids:
        if isinstance(kid, pikepdf.Dictionary) and "/S" in kid:
            out.append(kid)
            elements(kid, out)
    return out

def check(name, lang, figures, alt_word, artifacts):
    pdf = pikepdf.open(f"{work}/{name}.pdf")
    root = pdf.Root
    if "/StructTreeRoot" not in root:
        fail(f"{name}: no /StructTreeRoot")
    if str(root.get("/Lang")) != lang:
        fail(f"{name}: /Lang is {root.get('/Lang')}, not {lang}")
    if not bool(root.MarkInfo.Marked):
        fail(f"{name}: /MarkInfo /Marked is not true")
    if not bool(root.ViewerPreferences.DisplayDocTitle):
        fail(f"{name}: /DisplayDocTitle is not true")
    title = str(pdf.docinfo.get("/Title", ""))
    if not title:
        fail(f"{name}: no /Title in the document info")
    meta = pdf.open_metadata()
    if str(meta.get("pdfuaid:part")) != "1":
        fail(f"{name}: the XMP has no pdfuaid:part 1")
    if str(meta.get("dc:title")) != title:
        fail(f"{name}: the XMP's dc:title is not the title")
    found = elements(root.StructTreeRoot, [])
    alts = [str(e.Alt) for e in found if e.S == "/Figure" and "/Alt" in e]
    if len([e for e in found if e.S == "/Figure"]) != figures or len(alts) != figures:
        fail(f"{name}: {len(alts)} figures with /Alt, not {figures}")
    if not all(alt_word in alt for alt in alts):
        fail(f"{name}: a figure's /Alt lacks {alt_word!r}: {alts}")
    parents = root.StructTreeRoot.ParentTree.Nums
    keys = {int(parents[i]) for i in range(0, len(parents), 2)}
    for n, page in enumerate(pdf.pages):
        key = int(page.obj.get("/StructParents", -1))
        if key not in keys:
            fail(f"{name}: page {n + 1} has no /StructParents in the /ParentTree")
    marked = sum(
        1
        for page in pdf.pages
        for operands, op in pikepdf.parse_content_stream(page)
        if str(op) == "BMC" and operands and str(operands[0]) == "/Artifact"
    )
    if marked < artifacts:
        fail(f"{name}: {marked} /Artifact sequences, expected at least {artifacts}")
    print(f"pdf-ua-test: {name}: pikepdf reads /Lang {lang}, title {title!r}, "
          f"{figures} figure(s) with /Alt, pdfuaid:part 1, {marked} artifact(s)")
    print(f"pdf-ua-test: {name}: first /Alt: {alts[0]}")

check("diagram", "de", 1, "Weiß", 0)
check("sheet", "en", 8, "White", 0)
check("article", "en", 3, "White", 1)
PY
echo "pdf-ua-test: the diagram, the worksheet and the article are tagged PDFs as PDF/UA-1 asks"
