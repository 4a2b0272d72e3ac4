"""100 distinct diagrams in Typst: fenster against board-n-pieces 0.9, side by side.

Both documents draw the same 100 positions (the first 100 distinct placements of the
games in tests/fixtures/games/*.fens), one 6 cm board each, without coordinates (as
board-n-pieces draws by default). For each package, with the Typst compiler of the
`typst` package on PyPI:

  cold   a fresh Python process compiles the document (what `typst compile` costs once:
         the compiler's start, the fonts, the plugin loaded, every diagram drawn);
  warm   one compiler compiles it again after a first compile (Typst's memo warm: what a
         `typst watch` or an editor's preview costs after an edit elsewhere);

the median of RUNS runs of each, interleaved (fenster, then board-n-pieces) so both see
the same machine; and the PDF's size.

  python3 typst/bench/compare.py FENSTER_PACKAGES BNP_PACKAGES [RUNS]

FENSTER_PACKAGES: scripts/typst-package.sh's output; BNP_PACKAGES: a package path holding
preview/board-n-pieces/0.9.0 (see bnp_doc.py for how it is built: it is not in this
repository).
"""

import glob
import os
import statistics
import subprocess
import sys
import tempfile
import time

from bnp_doc import document as bnp_document
from bnp_doc import typst_string

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))


def positions(count=100):
    seen, fens = set(), []
    for path in sorted(glob.glob(os.path.join(ROOT, "tests/fixtures/games/*.fens"))):
        with open(path, encoding="utf-8") as f:
            for line in f:
                fields = line.split()
                if len(fields) == 6 and fields[0] not in seen:
                    seen.add(fields[0])
                    fens.append(line.strip())
    if len(fens) < count:
        sys.exit(f"only {len(fens)} distinct positions in tests/fixtures/games")
    return fens[:count]


def fenster_document(fens, width):
    lines = ['#import "@preview/fenster:0.1.0": diagram', ""]
    for fen in fens:
        lines.append(f'#diagram({typst_string(fen)}, width: {width}, coordinates: "none")')
        lines.append("")
    return "\n".join(lines)


COLD = """
import sys, time, typst
start = time.perf_counter()
pdf = typst.compile(sys.argv[1], package_path=sys.argv[2])
print(time.perf_counter() - start, len(pdf))
"""


def cold(doc, packages):
    """Seconds for a fresh process to compile `doc` (the process's start included), and
    the PDF's bytes."""
    start = time.perf_counter()
    out = subprocess.run([sys.executable, "-c", COLD, doc, packages],
                         check=True, capture_output=True, text=True).stdout.split()
    return time.perf_counter() - start, int(out[1])


def warm(doc, packages, runs):
    """Seconds for one compiler to compile `doc` again, `runs` times, after a first."""
    import typst

    compiler = typst.Compiler(doc, package_path=packages)
    compiler.compile()
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        compiler.compile()
        times.append(time.perf_counter() - start)
    return times


def main():
    fenster, bnp = sys.argv[1], sys.argv[2]
    runs = int(sys.argv[3]) if len(sys.argv) > 3 else 5
    fens = positions()
    with tempfile.TemporaryDirectory() as scratch:
        docs = {}
        for name, source, packages in [
            ("fenster", fenster_document(fens, "6cm"), fenster),
            ("board-n-pieces 0.9", bnp_document(fens, "6cm"), bnp),
        ]:
            path = os.path.join(scratch, name.split()[0] + ".typ")
            with open(path, "w", encoding="utf-8") as f:
                f.write(source)
            docs[name] = (path, packages)
        results = {name: {"cold": [], "pdf": 0} for name in docs}
        for _ in range(runs):
            for name, (path, packages) in docs.items():
                seconds, pdf = cold(path, packages)
                results[name]["cold"].append(seconds)
                results[name]["pdf"] = pdf
        for name, (path, packages) in docs.items():
            results[name]["warm"] = warm(path, packages, runs)
    print(f"{len(fens)} diagrams, 6 cm each, median of {runs} runs")
    print(f"{'':20} {'cold (s)':>9} {'warm (s)':>9} {'PDF (bytes)':>12}")
    for name, r in results.items():
        c, w = statistics.median(r["cold"]), statistics.median(r["warm"])
        print(f"{name:20} {c:9.3f} {w:9.3f} {r['pdf']:12,}")
    a, b = results["fenster"], results["board-n-pieces 0.9"]
    print(f"board-n-pieces / fenster: cold {statistics.median(b['cold']) / statistics.median(a['cold']):.2f}x, "
          f"warm {statistics.median(b['warm']) / statistics.median(a['warm']):.2f}x")


if __name__ == "__main__":
    main()
