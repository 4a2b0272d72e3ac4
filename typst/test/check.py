"""CI's test of the Typst package (scripts/ci/typst-test.sh runs it), with the Typst
compiler of the `typst` package on PyPI and the package as packed:

  every     every.typ compiles (every function, every family of options) and, exported as
            PDF/UA-1, holds no raster image (pdfimages) and one tagged Figure per diagram
            whose /Alt is the describe text;
  raw       the plugin called by hand: CBOR pairs read, every other shape refused;
  errors    a bad FEN, a bad value, a misspelt name and a bad typeface stop the compile
            with the service's sentence (the service's 400 body for the same request);
  same      each diagram's SVG from the plugin equals, byte for byte, the service's
            /diagram.svg for the same request;
  pages     pages rasterised with pdftoppm read back, square by square, to their positions.

  python check.py PACKAGE_PATH SERVICE_URL
"""

import json
import os
import re
import subprocess
import sys
import tempfile
import urllib.error
import urllib.parse
import urllib.request

import pikepdf

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))),
                                "scripts", "ci"))
from boards import placement, ppm, square_at, tile  # noqa: E402
import typst

HERE = os.path.dirname(os.path.abspath(__file__))
PACKAGES, SERVICE = sys.argv[1], sys.argv[2].rstrip("/")
IMPORT = '#import "@preview/fenster:0.1.0": diagram, game, describe, svg\n'
failures = []


def check(ok, message):
    print(("ok   " if ok else "FAIL ") + message)
    if not ok:
        failures.append(message)


def service(path, pairs):
    """The service's answer to GET path?pairs: (status, bytes)."""
    url = f"{SERVICE}{path}?{urllib.parse.urlencode(pairs)}"
    try:
        with urllib.request.urlopen(url) as answer:
            return answer.status, answer.read()
    except urllib.error.HTTPError as e:
        return e.code, e.read()


def compile_doc(source, **options):
    """Compile Typst `source` (a document in a scratch folder): the PDF's bytes."""
    with tempfile.TemporaryDirectory() as scratch:
        doc = os.path.join(scratch, "doc.typ")
        with open(doc, "w") as f:
            f.write(source)
        return typst.compile(doc, package_path=PACKAGES, **options)


def figures(pdf_bytes):
    """The /Alt of every /Figure in a tagged PDF's structure tree, in order."""
    with tempfile.NamedTemporaryFile(suffix=".pdf") as f:
        f.write(pdf_bytes)
        f.flush()
        pdf = pikepdf.open(f.name)
        found = []

        def walk(node):
            if isinstance(node, pikepdf.Array):
                for kid in node:
                    walk(kid)
            elif isinstance(node, pikepdf.Dictionary):
                if node.get("/S") == "/Figure":
                    found.append(str(node.get("/Alt", "")))
                if "/K" in node:
                    walk(node.K)

        walk(pdf.Root.StructTreeRoot.K)
        return found


def test_every():
    with open(os.path.join(HERE, "every.typ")) as f:
        source = f.read()
    diagrams = len(re.findall(r"\b(?:diagram|game)\(", source))
    pdf = compile_doc(source, pdf_standards=["ua-1"])
    check(pdf.startswith(b"%PDF"), f"every.typ compiles as PDF/UA-1 ({len(pdf):,} bytes)")
    with tempfile.NamedTemporaryFile(suffix=".pdf") as f:
        f.write(pdf)
        f.flush()
        listed = subprocess.run(["pdfimages", "-list", f.name], check=True,
                                capture_output=True, text=True).stdout.splitlines()
    check(len(listed) == 2, f"no raster image in the PDF: the diagrams stay vectors ({len(listed) - 2} images)")
    alts = figures(pdf)
    check(len(alts) == diagrams, f"{len(alts)} tagged figures for {diagrams} diagrams")
    status, start = service("/describe", [("fen", "start")])
    check(status == 200 and start.decode().strip() in alts, "the start position's figure has /describe's text as /Alt")
    status, german = service("/describe", [("fen", "start"), ("lang", "de")])
    check(german.decode().strip() in alts, "lang: \"de\" gives the German description as /Alt")
    check(all(len(a) > 40 for a in alts), "every figure's /Alt is a description")


RAW = [
    # (bytes given to the plugin's render, or None for Typst's own encoding of the pairs)
    ("cbor.encode(((\"fen\", \"start\"),))", True),
    ("bytes((0x81, 0x82, 0x63, 0x66, 0x65, 0x6e, 0x65, 0x73, 0x74, 0x61, 0x72, 0x74))", True),
    ("bytes((0x81, 0x81, 0x60))", False),  # a pair of one
    ("bytes((0x81, 0x82, 0x60, 0x01))", False),  # a number for a value
    ("bytes((0x9f, 0xff))", False),  # an indefinite array
    ("bytes((0x81,))", False),  # cut short
    ("bytes((0x80, 0x00))", False),  # bytes after the array
    ("bytes((0x9b, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff))", False),  # 2^64 pairs
    ("bytes((0x81, 0x82, 0x7a, 0xff, 0xff, 0xff, 0xff))", False),  # a text past the end
]


def test_raw():
    wasm = os.path.join(PACKAGES, "preview", "fenster", "0.1.0", "fenster.wasm")
    with tempfile.TemporaryDirectory() as scratch:
        with open(wasm, "rb") as f, open(os.path.join(scratch, "fenster.wasm"), "wb") as out:
            out.write(f.read())
        for argument, good in RAW:
            doc = os.path.join(scratch, "raw.typ")
            with open(doc, "w") as f:
                f.write(f'#let p = plugin("fenster.wasm")\n#metadata(str(p.render({argument}))) <out>\n')
            try:
                out = json.loads(typst.query(doc, "<out>", field="value"))
                check(good and out[0].startswith("<svg"), f"{argument}: an SVG")
            except (typst.TypstError, RuntimeError) as e:  # query's error is a RuntimeError
                check(not good and "cannot read" in str(e), f"{argument}: {str(e).splitlines()[0]}")


ERRORS = [
    # (Typst call, the same request to the service: its 400 sentence is the error)
    ('diagram("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNX")', [("fen", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNX")]),
    ('diagram("start", orientation: "up")', [("fen", "start"), ("orientation", "up")]),
    ('diagram("start", arrows: ("Ge2e9",))', [("fen", "start"), ("arrows", "Ge2e9")]),
    ('diagram("start", size: 5)', [("fen", "start"), ("size", "5")]),
    ('game("1. e4 e5 2. Nf6", ply: 3)', [("pgn", "1. e4 e5 2. Nf6"), ("ply", "3")]),
]


def test_errors():
    for call, pairs in ERRORS:
        status, sentence = service("/diagram.svg", pairs)
        sentence = sentence.decode().strip()
        try:
            compile_doc(IMPORT + f"#{call}\n")
            check(False, f"{call} stops the compile")
        except typst.TypstError as e:
            message = str(e)
            check(status == 400 and sentence in message, f"{call}: {sentence!r} ({status})")
    for call, words in [
        ('diagram("start", last-mvoe: "e2e4")', "did you mean last-move?"),
        ('diagram("start", typeface: "serif")', 'typeface: "serif" is not a typeface'),
        ('diagram("start", typeface: "document", coordinates: "inside")', "coordinates: with typeface"),
        ('diagram("start", arrows: (1cm, 2cm), size: (:))', "is not a value the diagram takes"),
    ]:
        try:
            compile_doc(IMPORT + f"#{call}\n")
            check(False, f"{call} stops the compile")
        except typst.TypstError as e:
            check(words in str(e), f"{call}: {words!r} in {str(e).splitlines()[0]!r}")


# (fen, Typst options as JSON: {"rgb": …} a colour, {"cm": …} a length) and the service's
# query for the same request.
SAME = [
    ("start", {}, []),
    ("start", {"size": {"cm": 5}, "turn": True}, [("size", "189"), ("turn", "true")]),
    ("r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3",
     {"last-move": "g1f3", "orientation": "black", "theme": "print", "caption": "Two knights"},
     [("lastMove", "g1f3"), ("orientation", "black"), ("theme", "print"), ("caption", "Two knights")]),
    ("8/8/8/4k3/8/8/4K3/8 w - - 0 1",
     {"light": {"rgb": "#f0e6d2"}, "dark": {"rgb": "#785a3c"}, "background": {"rgb": "#1e1e1e"}, "coordinates": "inside"},
     [("light", "#f0e6d2"), ("dark", "#785a3c"), ("background", "#1e1e1e"), ("coordinates", "inside")]),
    ("start", {"arrows": ["Ge2e4", "Rd7d5"], "highlight": ["Yd4"], "squares": ["e5"], "marks": ["circle:Rf7", "label:Ya3:1"], "legal-moves": "Gg1"},
     [("arrows", "Ge2e4,Rd7d5"), ("highlight", "Yd4"), ("squares", "e5"), ("marks", "circle:Rf7,label:Ya3:1"), ("legalMoves", "Gg1")]),
    (None, {"pgn": "1. e4 e5 2. Nf3 {[%cal Gf3e5]} Nc6", "ply": 3, "glyph": "!?"},
     [("pgn", "1. e4 e5 2. Nf3 {[%cal Gf3e5]} Nc6"), ("ply", "3"), ("glyph", "!?")]),
    ("8/2-k5/8/3*1Q4/8/8/8/4K3 w - - 0 1", {"dialect": "fairy", "pieces": "staunton-classic"},
     [("dialect", "fairy"), ("pieces", "staunton-classic")]),
    ("rnbqkbnrca/pppppppppp/10/10/10/10/PPPPPPPPPP/RNBQKBNRCA w - - 0 1", {"board": "10x8", "lang": "de"},
     [("board", "10x8"), ("lang", "de")]),
]


def test_same():
    requests = [[fen, options] for fen, options, _ in SAME]
    with tempfile.TemporaryDirectory() as scratch:
        doc = os.path.join(scratch, "same.typ")
        with open(os.path.join(HERE, "same.typ")) as f, open(doc, "w") as out:
            out.write(f.read())
        svgs = typst.query(doc, "<fenster-svg>", field="value", package_path=PACKAGES,
                           sys_inputs={"requests": json.dumps(requests)})
    svgs = json.loads(svgs)
    check(len(svgs) == len(SAME), f"{len(svgs)} SVGs from the plugin for {len(SAME)} requests")
    for (fen, options, pairs), plugin_svg in zip(SAME, svgs):
        query = ([("fen", fen)] if fen else []) + pairs
        status, served = service("/diagram.svg", query)
        same = status == 200 and served == plugin_svg.encode()
        check(same, f"plugin SVG == /diagram.svg?{urllib.parse.urlencode(query)[:70]} ({len(served):,} bytes)")


REFERENCES = [
    ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "white"),
    ("rnbkqbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBKQBNR w - - 0 1", "white"),
]
BOARDS = [
    ("r1bqkb1r/pppp1ppp/2n2n2/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR w KQkq - 4 4", "white"),
    ("r1bqkb1r/pppp1ppp/2n2n2/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR w KQkq - 4 4", "black"),
    ("8/5k2/3p4/1p1Pp2p/pP2Pp1P/P4P1K/8/8 b - - 0 1", "white"),
    ("2kr3r/ppp2ppp/2n5/2b1q3/4P3/2N5/PPP1QPPP/R1B2RK1 b - - 0 13", "black"),
]


def test_pages():
    boards = REFERENCES + BOARDS
    with tempfile.TemporaryDirectory() as scratch:
        doc = os.path.join(scratch, "pages.typ")
        with open(os.path.join(HERE, "pages.typ")) as f, open(doc, "w") as out:
            out.write(f.read())
        pdf = os.path.join(scratch, "pages.pdf")
        typst.compile(doc, output=pdf, package_path=PACKAGES,
                      sys_inputs={"boards": json.dumps(boards)})
        subprocess.run(["pdftoppm", "-r", "150", pdf, os.path.join(scratch, "page")], check=True)
        pages = sorted(p for p in os.listdir(scratch) if p.endswith(".ppm"))
        images = [ppm(os.path.join(scratch, p)) for p in pages]
    check(len(images) == len(boards), f"{len(images)} pages rasterised by pdftoppm")
    refs = []
    for (fen, orientation), image in zip(REFERENCES, images):
        pieces = placement(fen)
        for row in range(8):
            for col in range(8):
                square = square_at(col, row, orientation)
                dark = (square[0] + square[1]) % 2 == 0
                refs.append((pieces.get(square), dark, tile(image, col, row)))
    for (fen, orientation), image in zip(BOARDS, images[len(REFERENCES):]):
        pieces = placement(fen)
        wrong = []
        for row in range(8):
            for col in range(8):
                square = square_at(col, row, orientation)
                dark = (square[0] + square[1]) % 2 == 0
                samples = tile(image, col, row)
                best = min((r for r in refs if r[1] == dark),
                           key=lambda r: sum(abs(a - b) for a, b in zip(r[2], samples)))
                if best[0] != pieces.get(square):
                    wrong.append("abcdefgh"[square[0]] + str(square[1] + 1))
        check(not wrong, f"page of {fen.split()[0]} ({orientation}) reads back"
              + (f": wrong on {', '.join(wrong)}" if wrong else ""))


for test in (test_every, test_raw, test_errors, test_same, test_pages):
    print(f"== {test.__name__[5:]}")
    test()
print(f"typst check: {len(failures)} failure(s)")
sys.exit(1 if failures else 0)
