"""100 distinct diagrams in LaTeX: the chessboard package against Staunton, side by side.

Three documents of the same 100 positions (the first 100 distinct placements of the games
in tests/fixtures/games/*.fens), one board a paragraph at chessboard's size (20 pt
squares, coordinates and the side to move shown, as chessboard draws by default); every
fourth position marks the move that led to it as chessboard's users do (its two squares
with markfields, an arrow with pgfstyle=straightmove and markmoves), every seventh is seen
from Black (inverse):

  chessboard    \\usepackage{chessboard} and \\chessboard[setfen=…, …]: drawn by TeX (pgf);
  bridge        the same file with \\usepackage[chessboard]{staunton} in that one line:
                the same \\chessboard commands, drawn by Staunton;
  chessdiagram  the same diagrams as \\usepackage{staunton} and \\chessdiagram[…]{FEN}.

Each is compiled with pdfLaTeX in a fresh folder, the way it is used:

  one run     chessboard: pdflatex, once (chessboard draws during the run);
  shell cold  pdflatex --shell-escape with no diagram drawn yet: each drawn during the run;
  shell warm  pdflatex --shell-escape again in the same folder: every diagram found drawn;
  two runs    pdflatex, `staunton latex JOB`, pdflatex (no shell escape): the three
              together, and `staunton latex` alone;

the median of RUNS runs of each, interleaved so that all see the same machine, and the
PDF's size. A run that leaves a diagram undrawn stops the benchmark.

  python3 latex/bench/compare.py [RUNS] [--keep DIR]

RUNS defaults to 3; --keep DIR writes the three documents there (to look at them).
Environment: STAUNTON_BIN_DIR  the folder of the `staunton` program (default: the
repository's target/release).
"""

import glob
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))),
                                "scripts", "ci"))
import boards  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
LATEX = os.path.dirname(HERE)
ROOT = os.path.dirname(LATEX)
BIN_DIR = os.path.abspath(os.environ.get("STAUNTON_BIN_DIR") or os.path.join(ROOT, "target", "release"))
BRIDGE = os.path.join(LATEX, "staunton-chessboard.tex")
ENV = dict(os.environ,
           PATH=BIN_DIR + os.pathsep + os.environ.get("PATH", ""),
           TEXINPUTS=LATEX + os.pathsep)
CHESSBOARD_LINE = "\\usepackage{chessboard}"
BRIDGE_LINE = "\\usepackage[chessboard]{staunton}"


# ---------------------------------------------------------------------------------------
# The positions and the moves that led to them

def placement(fen):
    """The pieces of a FEN as {square name: letter}."""
    return {"abcdefgh"[f] + str(r + 1): ch for (f, r), ch in boards.placement(fen).items()}


def last_move(before, after):
    """The move from FEN `before` to FEN `after` as (from, to): the squares the mover
    left and reached (a castling's king's, an en passant capture's pawn's)."""
    white = before.split()[1] == "w"
    mine = (lambda ch: ch.isupper()) if white else (lambda ch: ch.islower())
    old, new = placement(before), placement(after)
    left = [s for s, ch in old.items() if mine(ch) and new.get(s) != ch]
    reached = [s for s, ch in new.items() if mine(ch) and old.get(s) != ch]
    if len(left) == 1 and len(reached) == 1:
        return left[0], reached[0]
    king = "K" if white else "k"
    return ([s for s in left if old[s] == king] or left)[0], ([s for s in reached if new[s] == king] or reached)[0]


def positions(count=100):
    """The first `count` distinct placements of the fixture games: (FEN, the move that led
    to it, or None for a game's first position)."""
    seen, found = set(), []
    for path in sorted(glob.glob(os.path.join(ROOT, "tests/fixtures/games/*.fens"))):
        before = None
        with open(path, encoding="utf-8") as f:
            for line in f:
                fen = line.strip()
                if len(fen.split()) != 6:
                    continue
                if fen.split()[0] not in seen:
                    seen.add(fen.split()[0])
                    found.append((fen, last_move(before, fen) if before else None))
                before = fen
    if len(found) < count:
        sys.exit(f"only {len(found)} distinct positions in tests/fixtures/games")
    return found[:count]


# ---------------------------------------------------------------------------------------
# The documents

HEAD = "\\documentclass{article}\n%s\n\\setlength{\\parindent}{0pt}\n\\begin{document}\n"


def chessboard_document(diagrams):
    """chessboard's document: one \\chessboard a paragraph."""
    lines = []
    for i, (fen, move) in enumerate(diagrams):
        keys = [f"setfen={fen}"]
        if move and i % 4 == 0:
            keys += [f"markfields={{{move[0]},{move[1]}}}", "pgfstyle=straightmove",
                     f"markmoves={{{move[0]}-{move[1]}}}"]
        if i % 7 == 3:
            keys.append("inverse")
        lines.append("\\chessboard[" + ", ".join(keys) + "]\n")
    return HEAD % CHESSBOARD_LINE + "\n".join(lines) + "\\end{document}\n"


def chessdiagram_document(diagrams):
    """The same diagrams with \\chessdiagram: chessboard's size (8 squares of 20 pt and its
    coordinates' margin: 6.25 cm), the side to move shown, red marks and arrows."""
    lines = []
    for i, (fen, move) in enumerate(diagrams):
        keys = ["width=6.25cm"]
        if move and i % 4 == 0:
            keys += [f"marks={{square:R{move[0]},square:R{move[1]}}}", f"arrows={{R{move[0]}{move[1]}}}"]
        if i % 7 == 3:
            keys.append("orientation=black")
        lines.append(f"\\chessdiagram[{', '.join(keys)}]{{{fen}}}\n")
    return (HEAD % "\\usepackage{staunton}\n\\stauntonsetup{turn=true}"
            + "\n".join(lines) + "\\end{document}\n")


def documents(diagrams):
    """{name: LaTeX source}: the bridge's is chessboard's with one line changed."""
    docs = {"chessboard": chessboard_document(diagrams)}
    if os.path.exists(BRIDGE):
        bridge = docs["chessboard"].replace(CHESSBOARD_LINE, BRIDGE_LINE)
        changed = [a for a, b in zip(docs["chessboard"].splitlines(), bridge.splitlines()) if a != b]
        assert changed == [CHESSBOARD_LINE], "the bridge's document differs by one line"
        docs["bridge"] = bridge
    else:
        print(f"(no {os.path.relpath(BRIDGE, ROOT)}: the bridge is not timed)")
    docs["chessdiagram"] = chessdiagram_document(diagrams)
    return docs


# ---------------------------------------------------------------------------------------
# Timing

def timed(command, folder):
    """Seconds `command` took in `folder`; it must succeed."""
    start = time.perf_counter()
    done = subprocess.run(command, cwd=folder, env=ENV, capture_output=True, text=True, errors="replace")
    seconds = time.perf_counter() - start
    if done.returncode != 0:
        sys.exit(f"{' '.join(command)} failed in {folder} ({done.returncode}):\n{done.stdout[-2000:]}{done.stderr[-2000:]}")
    return seconds


def latex(folder, *flags):
    """One pdflatex run of doc.tex: its seconds; a run that leaves a diagram undrawn when
    it should not stops the benchmark."""
    return timed(["pdflatex", *flags, "-interaction=nonstopmode", "-halt-on-error", "doc.tex"], folder)


def drawn(folder):
    """The document is complete: its log warns of no diagram not drawn yet."""
    with open(os.path.join(folder, "doc.log"), encoding="utf-8", errors="replace") as f:
        if "not drawn yet" in f.read():
            sys.exit(f"diagrams left undrawn in {folder}")
    return os.path.getsize(os.path.join(folder, "doc.pdf"))


def fresh(source):
    folder = tempfile.mkdtemp(prefix="staunton-bench-")
    with open(os.path.join(folder, "doc.tex"), "w", encoding="utf-8") as f:
        f.write(source)
    return folder


def time_chessboard(source):
    folder = fresh(source)
    try:
        seconds = latex(folder)
        return {"one run": (seconds, os.path.getsize(os.path.join(folder, "doc.pdf")))}
    finally:
        shutil.rmtree(folder)


def time_staunton(source):
    """shell cold and warm in one folder, two runs in another: {run: (seconds, bytes)},
    and the seconds of `staunton latex` alone."""
    out = {}
    folder = fresh(source)
    try:
        out["shell cold"] = (latex(folder, "--shell-escape"), drawn(folder))
        out["shell warm"] = (latex(folder, "--shell-escape"), drawn(folder))
    finally:
        shutil.rmtree(folder)
    folder = fresh(source)
    try:
        first = latex(folder, "-no-shell-escape")
        program = timed(["staunton", "latex", "doc"], folder)
        second = latex(folder, "-no-shell-escape")
        out["two runs"] = (first + program + second, drawn(folder))
        out["staunton latex"] = (program, None)
    finally:
        shutil.rmtree(folder)
    return out


def main():
    args = sys.argv[1:]
    keep = None
    if "--keep" in args:
        at = args.index("--keep")
        keep = args[at + 1]
        del args[at:at + 2]
    runs = int(args[0]) if args else 3
    diagrams = positions()
    docs = documents(diagrams)
    if keep:
        os.makedirs(keep, exist_ok=True)
        for name, source in docs.items():
            with open(os.path.join(keep, name + ".tex"), "w", encoding="utf-8") as f:
                f.write(source)
    samples = {}  # (document, run) -> [seconds], and the PDF's bytes
    sizes = {}
    for i in range(runs):
        for name, source in docs.items():
            timings = time_chessboard(source) if name == "chessboard" else time_staunton(source)
            for run, (seconds, size) in timings.items():
                samples.setdefault((name, run), []).append(seconds)
                sizes[(name, run)] = size
            print(f"run {i + 1}/{runs}, {name}: "
                  + ", ".join(f"{run} {seconds:.2f} s" for run, (seconds, _) in timings.items()), flush=True)
    marked = sum(1 for i, (_, move) in enumerate(diagrams) if move and i % 4 == 0)
    print()
    print(f"{len(diagrams)} diagrams ({marked} with marked squares and an arrow), pdfLaTeX, "
          f"median of {runs} runs; staunton {version()}")
    print()
    print("| document | run | seconds | PDF bytes |")
    print("|---|---|---:|---:|")
    for (name, run), times in samples.items():
        size = sizes[(name, run)]
        print(f"| {name} | {run} | {statistics.median(times):.2f} | {f'{size:,}' if size else ''} |")
    base = statistics.median(samples[("chessboard", "one run")])
    for name in docs:
        if name != "chessboard":
            print(f"\n{name}: chessboard's time / this one's: "
                  + ", ".join(f"{run} {base / statistics.median(samples[(name, run)]):.1f}x"
                              for run in ("shell cold", "shell warm", "two runs")))


def version():
    done = subprocess.run(["staunton", "--version"], env=ENV, capture_output=True, text=True)
    return done.stdout.split()[-1] if done.returncode == 0 else "?"


if __name__ == "__main__":
    main()
