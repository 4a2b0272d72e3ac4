"""CI's test of the LaTeX package (scripts/ci/latex-test.sh runs it): documents compiled as
an author compiles them, with pdfLaTeX, XeLaTeX and LuaLaTeX, each in a fresh folder, the
package found through TEXINPUTS (latex/) and the `staunton` program on the PATH:

  pages     board-sized pages (two reference pages, then positions in both orientations)
            compiled by each engine in each run mode: shell escape (one run); two runs
            without shell escape and `staunton latex JOB` between them; latexmk with
            latex/latexmkrc (which must call `staunton latex` itself). Each PDF is
            rasterised with pdftoppm and read back, square by square, to its positions;
  bridge    the same pages written with chessboard's \\chessboard[setfen=…, inverse] under
            \\usepackage[chessboard]{staunton}, read back the same way;
  switch    a document written for chessboard (marks, coloured fields, arrows, pieces
            placed) compiles with chessboard, and switched by its package line, each
            board's PDF is byte for byte `staunton render` of the position, marks and
            arrows its keys say;
  again     a second shell-escape run draws nothing (no file of the folder touched, no
            command run), the PDF holds no raster image; a sidecar that names another
            request is never used for this one, and one whose PDF is gone is drawn again;
  errors    a bad FEN or value stops the run with the package's error naming the
            parameter, the service's sentence (its 400 body for the same request, from
            `staunton serve`) and the document's line; so does a program that draws nothing;
  quoting   FENs and captions full of shell syntax are data: a caption reaches the query
            intact, and no command in any of them runs;
  tagging   a tagged document (\\DocumentMetadata, TeX Live 2022's testphase=phase-II) holds
            each diagram as a Figure structure whose /Alt is the sidecar's alternative
            text (pikepdf reads the structure tree).

  python3 latex/test/check.py [TEST…]    (all of them, or those named: pages again …)

Environment: STAUNTON_BIN_DIR  the folder of the `staunton` program (default: the
repository's target/release).
"""

import os
import re
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.parse
import urllib.request

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))),
                                "scripts", "ci"))
from boards import placement, ppm, square_at, tile  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
LATEX = os.path.dirname(HERE)
ROOT = os.path.dirname(LATEX)
BIN_DIR = os.path.abspath(os.environ.get("STAUNTON_BIN_DIR") or os.path.join(ROOT, "target", "release"))
STAUNTON = os.path.join(BIN_DIR, "staunton")
LATEXMKRC = os.path.join(LATEX, "latexmkrc")
FOLDER = "staunton-diagrams"
ENGINES = ["pdflatex", "xelatex", "lualatex"]
# The environment of every run: the program on the PATH, the package (and its bridge) in
# latex/ ahead of TeX's own tree (the trailing ':'), and logs whose lines TeX does not
# break, so that a sentence is found whole.
ENV = dict(os.environ,
           PATH=BIN_DIR + os.pathsep + os.environ.get("PATH", ""),
           TEXINPUTS=LATEX + os.pathsep,
           max_print_line="10000")
failures = []


def check(ok, message):
    print(("ok   " if ok else "FAIL ") + message)
    if not ok:
        failures.append(message)


# ---------------------------------------------------------------------------------------
# Running LaTeX

def write(folder, name, text):
    with open(os.path.join(folder, name), "w", encoding="utf-8") as f:
        f.write(text)


def read(path):
    with open(path, encoding="utf-8", errors="replace") as f:
        return f.read()


def tex(engine, folder, job, *flags, halt=True):
    """Run `engine` once on JOB.tex in `folder`, stopping at the first error unless `halt`
    is false: (its exit status, its log)."""
    stop = ["-halt-on-error"] if halt else []
    done = subprocess.run([engine, *flags, "-interaction=nonstopmode", *stop, job + ".tex"],
                          cwd=folder, env=ENV, capture_output=True, text=True, errors="replace", timeout=600)
    log = os.path.join(folder, job + ".log")
    return done.returncode, read(log) if os.path.exists(log) else done.stdout


def first_error(log):
    """The log's first error line (`! …`), or its last line when it has none."""
    errors = [line for line in log.splitlines() if line.startswith("!")]
    return errors[0] if errors else (log.strip().splitlines() or [""])[-1]


def shell_run(engine, folder, job):
    """Shell-escape mode: one run draws every diagram. The log of the run, or None."""
    status, log = tex(engine, folder, job, "--shell-escape")
    ok = status == 0 and "not drawn yet" not in log
    check(ok, f"{engine} --shell-escape: one run, every diagram drawn"
          + ("" if ok else f" (exit {status}: {first_error(log)})"))
    return log if ok else None


def two_runs(engine, folder, job):
    """Two-run mode: LaTeX without shell escape, `staunton latex JOB`, LaTeX again."""
    status, log = tex(engine, folder, job, "-no-shell-escape")
    first = status == 0 and "not drawn yet" in log and "runsystem(" not in log
    drawn = subprocess.run(["staunton", "latex", job], cwd=folder, env=ENV,
                           capture_output=True, text=True, errors="replace")
    status, log = tex(engine, folder, job, "-no-shell-escape")
    ok = first and drawn.returncode == 0 and status == 0 and "not drawn yet" not in log
    said = drawn.stderr.strip().splitlines()[:1]
    check(ok, f"{engine} -no-shell-escape, staunton latex {job}, {engine} again: every diagram drawn"
          + (f" ({said[0]})" if said else "") + ("" if ok else f" (exit {status}: {first_error(log)})"))
    return log if ok else None


def latexmk(engine, folder, job):
    """latexmk with the package's latexmkrc: its rule runs `staunton latex JOB` itself."""
    flag = {"pdflatex": "-pdf", "xelatex": "-xelatex", "lualatex": "-lualatex"}[engine]
    done = subprocess.run(["latexmk", flag, "-r", LATEXMKRC, "-interaction=nonstopmode", "-halt-on-error", job],
                          cwd=folder, env=ENV, capture_output=True, text=True, errors="replace", timeout=900)
    log = read(os.path.join(folder, job + ".log"))
    said = [line for line in (done.stdout + done.stderr).splitlines() if line.startswith("staunton latex:")]
    ok = (done.returncode == 0 and "not drawn yet" not in log and bool(said)
          and os.path.exists(os.path.join(folder, job + ".sto")))
    check(ok, f"latexmk {flag} -r latex/latexmkrc: the rule ran staunton latex, every diagram drawn"
          + (f" ({said[0]})" if said else " (staunton latex never ran)")
          + ("" if ok else f" (exit {done.returncode}: {first_error(log)})"))
    return log if ok else None


MODES = [("shell escape", shell_run), ("two runs", two_runs), ("latexmk", latexmk)]


# ---------------------------------------------------------------------------------------
# Reading pages back

def rasterise(pdf):
    """The pages of `pdf` at 150 dpi, as PPM images, in order."""
    with tempfile.TemporaryDirectory() as scratch:
        subprocess.run(["pdftoppm", "-r", "150", pdf, os.path.join(scratch, "page")], check=True)
        return [ppm(os.path.join(scratch, p)) for p in sorted(os.listdir(scratch))]


def squares(image, fen, orientation):
    """Each square of a page: (its name, its piece or None, whether it is dark, its tile)."""
    pieces = placement(fen)
    for row in range(8):
        for col in range(8):
            f, r = square_at(col, row, orientation)
            yield "abcdefgh"[f] + str(r + 1), pieces.get((f, r)), (f + r) % 2 == 0, tile(image, col, row)


# Two reference pages: every piece on a light and on a dark square (the kings and queens
# change places in the second), and empty squares of both colours.
REFERENCES = [
    ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "white"),
    ("rnbkqbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBKQBNR w - - 0 1", "white"),
]
# Positions from the games of tests/fixtures/games, each seen from both sides.
POSITIONS = [
    "rnb1kb1r/p2p1ppp/2p5/1B3Nqn/4PpP1/3P4/PPP4P/RNBQ1K1R b kq g3 0 10",  # immortal.fens
    "1n1Rkb1r/p4ppp/4q3/4p1B1/4P3/8/PPP2PPP/2K5 b k - 1 17",  # opera.fens
    "3r3r/1R3p1p/p4np1/1p1q4/kP6/P1Q2PPB/2P4P/1K6 b - - 0 30",  # kasparov_topalov.fens
]
BOARDS = [(fen, side) for fen in POSITIONS for side in ("white", "black")]


def pages_document(boards):
    """A document of one board a page, the page the board's size. graphicx's scaling may
    make the picture a few thousandths of a point taller than 8 cm, which would send the
    first (after LaTeX's opening \\write) to a page of its own: each page is enlarged by a
    point, below the paper's edge."""
    pages = [r"\enlargethispage{1pt}\noindent\chessdiagram[width=8cm,coordinates=none,orientation=%s]{%s}"
             % (side, fen) for fen, side in boards]
    return ("\\documentclass{article}\n"
            "\\usepackage[paperwidth=8cm,paperheight=8cm,margin=0pt]{geometry}\n"
            "\\usepackage{staunton}\n"
            "\\pagestyle{empty}\n"
            "\\begin{document}\n" + "\n\\newpage\n".join(pages) + "\n\\end{document}\n")


def bridge_document(boards):
    """The pages as a chessboard user writes them, switched to Staunton by the package
    line: squares of 1 cm, no labels, no mover."""
    pages = [r"\enlargethispage{1pt}\noindent\chessboard[setfen=%s, %slabel=false, showmover=false, "
             r"boardfontsize=1cm]" % (fen, "inverse, " if side == "black" else "") for fen, side in boards]
    return ("\\documentclass{article}\n"
            "\\usepackage[paperwidth=8cm,paperheight=8cm,margin=0pt]{geometry}\n"
            "\\usepackage[chessboard]{staunton}\n"
            "\\pagestyle{empty}\n"
            "\\begin{document}\n" + "\n\\newpage\n".join(pages) + "\n\\end{document}\n")


def read_back(pdf, label):
    """Read every page of `pdf` (REFERENCES, then BOARDS) back, square by square: each
    square is the piece (or emptiness) whose mean tile on the reference pages, on a square
    of its colour, is nearest."""
    images = rasterise(pdf)
    if len(images) != len(REFERENCES) + len(BOARDS):
        check(False, f"{label}: {len(images)} pages, not {len(REFERENCES) + len(BOARDS)}")
        return
    sums = {}
    for (fen, side), image in zip(REFERENCES, images):
        for _, piece, dark, samples in squares(image, fen, side):
            total, count = sums.get((piece, dark), ([0] * len(samples), 0))
            sums[(piece, dark)] = ([a + b for a, b in zip(total, samples)], count + 1)
    means = {key: [v / count for v in total] for key, (total, count) in sums.items()}
    wrong = []
    for (fen, side), image in zip(BOARDS, images[len(REFERENCES):]):
        for name, piece, dark, samples in squares(image, fen, side):
            nearest = min((key for key in means if key[1] == dark),
                          key=lambda key: sum(abs(a - b) for a, b in zip(means[key], samples)))
            if nearest[0] != piece:
                wrong.append(f"{name} ({side}) read {nearest[0] or 'empty'}")
    check(not wrong, f"{label}: {len(BOARDS)} boards read back square by square ({len(POSITIONS)} positions, both sides)"
          + (f": wrong on {', '.join(wrong[:8])}" if wrong else ""))


def test_pages():
    source = pages_document(REFERENCES + BOARDS)
    for engine in ENGINES:
        for name, run in MODES:
            with tempfile.TemporaryDirectory() as scratch:
                write(scratch, "pages.tex", source)
                if run(engine, scratch, "pages") is not None:
                    read_back(os.path.join(scratch, "pages.pdf"), f"{engine}, {name}")


def test_bridge():
    if not os.path.exists(os.path.join(LATEX, "staunton-chessboard.tex")):
        check(False, "no latex/staunton-chessboard.tex: the chessboard bridge is not tested")
        return
    source = bridge_document(REFERENCES + BOARDS)
    for engine in ENGINES:
        with tempfile.TemporaryDirectory() as scratch:
            write(scratch, "bridge.tex", source)
            if shell_run(engine, scratch, "bridge") is not None:
                read_back(os.path.join(scratch, "bridge.pdf"), f"{engine}, \\chessboard through the bridge")


# A chessboard user's document, as written for chessboard: marks, coloured fields and
# arrows in chessboard's keys, in order (a pgfstyle or color applies to what follows it).
# Each board's Staunton parameters, as the bridge must read them, beside it.
SWITCHED = [
    (r"setfen=r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3, "
     r"pgfstyle=border, markfields={e4,d5}, color=blue, pgfstyle=straightmove, "
     r"markmoves={f3-e5,d2-d4}",
     [("fen", "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3"),
      ("turn", "1"), ("arrows", "Bf3e5,Bd2d4"), ("marks", "square:Re4,square:Rd5")]),
    (r"setfen=8/5k2/3p4/1p1Pp2p/pP2Pp1P/P4P1K/8/8 b - - 0 1, inverse, showmover=false, "
     r"pgfstyle=color, color=yellow, markfields={f7,h3}, pgfstyle=circle, color=green, "
     r"markfield=d6",
     [("fen", "8/5k2/3p4/1p1Pp2p/pP2Pp1P/P4P1K/8/8 b - - 0 1"), ("orientation", "black"),
      ("highlight", "Yf7,Yh3"), ("marks", "circle:Gd6")]),
    (r"setwhite={kg1,qd1,pe2}, addblack={kg8,pf7}, label=false, pgfstyle=cross, "
     r"markfields={f8,h8}, color=red, pgfstyle=straightmove, markmove=d1-d8",
     [("fen", "6k1/5p2/8/8/8/8/4P3/3Q2K1 w"), ("coordinates", "none"), ("turn", "1"),
      ("arrows", "Rd1d8"), ("squares", "f8,h8")]),
]


def switched_document(package_line):
    boards = "\n\n".join("\\chessboard[%s]" % keys for keys, _ in SWITCHED)
    return ("\\documentclass{article}\n" + package_line + "\n"
            "\\begin{document}\n" + boards + "\n\\end{document}\n")


def test_switch():
    """The same document, chessboard's then Staunton's by its package line: chessboard
    compiles it, and through the bridge each board's PDF is byte for byte what `staunton
    render` draws of the position, marks and arrows the chessboard keys say."""
    with tempfile.TemporaryDirectory() as scratch:
        write(scratch, "cb.tex", switched_document("\\usepackage{chessboard}"))
        status, log = tex("pdflatex", scratch, "cb")
        check(status == 0, "the chessboard document compiles with chessboard itself"
              + ("" if status == 0 else f" ({first_error(log)})"))
        write(scratch, "sw.tex", switched_document("\\usepackage[chessboard]{staunton}"))
        if shell_run("pdflatex", scratch, "sw") is None:
            return
        requests = read(os.path.join(scratch, "sw.stn")).splitlines()[2:]
        check(len(requests) == len(SWITCHED), f"the switched document asks for {len(requests)} diagrams")
        for line, (keys, params) in zip(requests, SWITCHED):
            name = line.split(" ", 1)[0]
            expected = os.path.join(scratch, f"expected-{name}.pdf")
            flags = [f"--{key}={value}" for key, value in params if key != "fen"]
            fen = dict(params)["fen"]
            subprocess.run([STAUNTON, "render", fen, *flags, "-o", expected], check=True, env=ENV,
                           cwd=scratch)
            with open(expected, "rb") as f, open(os.path.join(scratch, FOLDER, name + ".pdf"), "rb") as g:
                same = f.read() == g.read()
            check(same, f"\\chessboard[{keys[:60]}…] is staunton render {' '.join(flags)}")


# ---------------------------------------------------------------------------------------
# A second run, vectors, and the cache

def folder_state(folder):
    """Every file of the diagram folder: {name: (size, mtime in ns)}."""
    path = os.path.join(folder, FOLDER)
    return {name: (os.stat(os.path.join(path, name)).st_size, os.stat(os.path.join(path, name)).st_mtime_ns)
            for name in sorted(os.listdir(path))} if os.path.isdir(path) else {}


def runs_of(log):
    """How many commands the run ran (TeX logs each as `runsystem(…)`)."""
    return sum(1 for line in log.splitlines() if line.startswith("runsystem("))


def test_again():
    boards = REFERENCES + BOARDS
    source = pages_document(boards)
    for engine in ENGINES:
        with tempfile.TemporaryDirectory() as scratch:
            write(scratch, "again.tex", source)
            first = shell_run(engine, scratch, "again")
            if first is None:
                continue
            before = folder_state(scratch)
            check(runs_of(first) == len(boards) and len(before) == 2 * len(boards),
                  f"{engine}: the first run drew {runs_of(first)} diagrams, "
                  f"{len(before)} files in {FOLDER}/ (a PDF and a sidecar each)")
            time.sleep(0.05)  # a file written again now would have another mtime
            second = shell_run(engine, scratch, "again")
            if second is None:
                continue
            after = folder_state(scratch)
            check(runs_of(second) == 0 and after == before,
                  f"{engine}: the second run ran {runs_of(second)} commands and touched "
                  f"{sum(1 for k in after if after[k] != before.get(k))} files of {FOLDER}/")
            images = subprocess.run(["pdfimages", "-list", os.path.join(scratch, "again.pdf")],
                                    check=True, capture_output=True, text=True).stdout.splitlines()[2:]
            check(not images, f"{engine}: no raster image in the PDF, the diagrams are vectors ({len(images)} images)")
    # latexmk again: nothing to do; with a diagram added, its rule draws that one alone.
    with tempfile.TemporaryDirectory() as scratch:
        write(scratch, "more.tex", pages_document(REFERENCES[:1]))
        if latexmk("pdflatex", scratch, "more") is None:
            return
        rerun = subprocess.run(["latexmk", "-pdf", "-r", LATEXMKRC, "-interaction=nonstopmode", "more"],
                               cwd=scratch, env=ENV, capture_output=True, text=True, errors="replace")
        said = rerun.stdout + rerun.stderr
        check(rerun.returncode == 0 and "up-to-date" in said and "staunton latex:" not in said,
              "latexmk again, nothing changed: all targets up-to-date, staunton latex not run")
        write(scratch, "more.tex", pages_document(REFERENCES))
        latexmk("pdflatex", scratch, "more")
        drawn = len(folder_state(scratch)) // 2
        check(drawn == 2, f"latexmk after a diagram is added: {drawn} diagrams drawn")
    # A sidecar whose first line is another query is not this diagram's: the run draws
    # it again (a stale file, or one planted under the name).
    with tempfile.TemporaryDirectory() as scratch:
        write(scratch, "cache.tex", pages_document(REFERENCES[:1]))
        if shell_run("pdflatex", scratch, "cache") is None:
            return
        (txt,) = [n for n in os.listdir(os.path.join(scratch, FOLDER)) if n.endswith(".txt")]
        sidecar = os.path.join(scratch, FOLDER, txt)
        lines = read(sidecar).split("\n")
        write(os.path.join(scratch, FOLDER), txt, "\n".join(["fen=8/8/8/8/8/8/8/8"] + lines[1:]))
        again = shell_run("pdflatex", scratch, "cache")
        check(again is not None and runs_of(again) == 1 and read(sidecar).split("\n")[0] == lines[0],
              "a sidecar that names another query is not used: the diagram is drawn again")
        # A sidecar without its PDF (a folder cleaned by hand): the diagram is drawn again,
        # as `staunton latex` would draw it, rather than the run stopping at a missing file.
        os.remove(sidecar[:-len(".txt")] + ".pdf")
        status, log = tex("pdflatex", scratch, "cache", "--shell-escape")
        check(status == 0 and runs_of(log) == 1 and os.path.exists(sidecar[:-len(".txt")] + ".pdf"),
              "a sidecar whose PDF is gone: the diagram is drawn again"
              + ("" if status == 0 else f" (exit {status}: {first_error(log)})"))


# ---------------------------------------------------------------------------------------
# Errors: the service's sentence

class Service:
    """`staunton serve` on a free loopback port, for the sentences of its 400 answers."""

    def __enter__(self):
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            port = s.getsockname()[1]
        self.url = f"http://127.0.0.1:{port}"
        self.server = subprocess.Popen([STAUNTON, "serve", "--addr", f"127.0.0.1:{port}", "--system-fonts", "false"],
                                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        for _ in range(100):
            if subprocess.run([STAUNTON, "health", "--url", self.url], capture_output=True).returncode == 0:
                break
            time.sleep(0.1)
        return self

    def __exit__(self, *_):
        self.server.terminate()
        self.server.wait()

    def answer(self, pairs):
        """The status and the body of the service's answer to /diagram.pdf?pairs."""
        try:
            with urllib.request.urlopen(f"{self.url}/diagram.pdf?{urllib.parse.urlencode(pairs)}") as answer:
                return answer.status, ""
        except urllib.error.HTTPError as e:
            return e.code, e.read().decode().strip()


def error_message(log):
    """The first `Package staunton Error` of a log as one line (LaTeX wraps a message and
    starts each further line with `(staunton)`), and the number of the document's line
    it names (`l.N`), or None."""
    lines = log.splitlines()
    for i, line in enumerate(lines):
        if line.startswith("! Package staunton Error:"):
            message = [line[2:]]
            for more in lines[i + 1:]:
                if not more.startswith("(staunton)"):
                    break
                message.append(more[len("(staunton)"):])
            at = next((re.match(r"l\.(\d+) ", rest) for rest in lines[i:] if re.match(r"l\.\d+ ", rest)), None)
            return " ".join(" ".join(message).split()), int(at.group(1)) if at else None
    return None, None


# (a diagram the service refuses, the same request to the service, the parameter named)
ERRORS = [
    (r"\chessdiagram{rnbqkbnr/ppp/8 w}", [("fen", "rnbqkbnr/ppp/8 w")], "fen"),
    (r"\chessdiagram[orientation=up]{start}", [("orientation", "up"), ("fen", "start")], "orientation"),
    (r"\chessdiagram[arrows={Ge2e9,Rd7d5}]{start}", [("arrows", "Ge2e9,Rd7d5"), ("fen", "start")], "arrows"),
]


def bad_document(call, preamble=""):
    """A document with a good diagram, then `call`: the source and the number of its line."""
    source = ("\\documentclass{article}\n\\usepackage" + preamble + "{staunton}\n\\begin{document}\n"
              "A good diagram first.\n\n\\chessdiagram{start}\n\n" + call + "\n\\end{document}\n")
    return source, source.splitlines().index(call) + 1


def test_errors():
    with Service() as service:
        sentences = [service.answer(pairs) for _, pairs, _ in ERRORS]
    for (call, pairs, param), (status, sentence) in zip(ERRORS, sentences):
        check(status == 400 and param in sentence, f"the service refuses {urllib.parse.urlencode(pairs)}: "
              f"{status} {sentence!r}")
        source, line = bad_document(call)
        for engine in ENGINES:
            for name, flags in [("shell escape", ["--shell-escape"]), ("two runs", ["-no-shell-escape"])]:
                with tempfile.TemporaryDirectory() as scratch:
                    write(scratch, "bad.tex", source)
                    status, log = tex(engine, scratch, "bad", *flags)
                    if name == "two runs":  # the first run only asks; the error is the next run's
                        subprocess.run(["staunton", "latex", "bad"], cwd=scratch, env=ENV, capture_output=True)
                        status, log = tex(engine, scratch, "bad", *flags)
                    message, at = error_message(log)
                    ok = (status != 0 and message is not None and message.startswith("Package staunton Error")
                          and f"({param})" in message and " ".join(sentence.split()) in message and at == line)
                    check(ok, f"{engine}, {name}: {call} stops the run at l.{at}: {message!r}")
    # Shell escape, and no program that draws: the run stops where the diagram is asked,
    # with the package's sentence (a program that is not installed, or one that does nothing).
    for program in ["staunton-not-installed", "true"]:
        source = (f"\\documentclass{{article}}\n\\usepackage[program={program}]{{staunton}}\n"
                  "\\begin{document}\n\\chessdiagram{start}\n\\end{document}\n")
        with tempfile.TemporaryDirectory() as scratch:
            write(scratch, "none.tex", source)
            status, log = tex("pdflatex", scratch, "none", "--shell-escape")
            message, at = error_message(log)
            ok = status != 0 and message is not None and "did not draw this diagram" in message and at == 4
            check(ok, f"program={program}: the run stops at l.{at}: {message or first_error(log)!r}")


# ---------------------------------------------------------------------------------------
# Quoting: what the document says is data, never a command

CAPTION_TEX = r'Say "hi" \$(touch pwned) `touch pwned3` ; touch pwned2 \textbackslash n \& more'
CAPTION = 'Say "hi" $(touch pwned) `touch pwned3` ; touch pwned2 \\n & more'
# Text beyond ASCII reaches the query as UTF-8 from every engine (pdfTeX reads bytes).
UNICODE = "Échec et mat – Müller, Straße"
BAD_FENS_TEX = [
    r'8/8/8/8/8/8/8/8 w "\$(touch pwned4)"',
    r"8/8/8/8/8/8/8/8 w `touch pwned5`; touch pwned6",
    r"8/8/8/8/8/8/8/8 w \textbackslash\$HOME'; touch pwned7 #",
]


def test_quoting():
    good = ("\\documentclass{article}\n\\usepackage{staunton}\n\\begin{document}\n"
            f"\\chessdiagram[caption={{{CAPTION_TEX}}}]{{start}}\n\n"
            f"\\chessdiagram[caption={{{UNICODE}}}]{{start}}\n\\end{{document}}\n")
    bad = ("\\documentclass{article}\n\\usepackage{staunton}\n\\begin{document}\n"
           + "".join(f"\\chessdiagram{{{fen}}}\n\n" for fen in BAD_FENS_TEX)
           + f"\\chessdiagram[caption={{{CAPTION_TEX}^^Jtouch pwned8}}]{{start}}\n"
           + "\\end{document}\n")
    for engine in ENGINES:
        with tempfile.TemporaryDirectory() as scratch:
            write(scratch, "good.tex", good)
            log = shell_run(engine, scratch, "good")
            requests = read(os.path.join(scratch, "good.stn")).splitlines()[2:]
            captions = [dict(urllib.parse.parse_qsl(r.split(" ", 1)[1])).get("caption") for r in requests]
            check(captions == [CAPTION, UNICODE], f"{engine}: the captions reach the query intact: {captions}")
            write(scratch, "bad.tex", bad)
            status, log = tex(engine, scratch, "bad", "--shell-escape", halt=False)
            refused = log.count("! Package staunton Error:")
            planted = sorted(n for n in os.listdir(scratch) if n.startswith("pwned"))
            check(log.count("runsystem(") == len(BAD_FENS_TEX) + 1 and refused >= len(BAD_FENS_TEX) and not planted,
                  f"{engine}: FENs and a caption of shell syntax are data: {log.count('runsystem(')} diagrams asked, "
                  f"{refused} refused by Staunton, files made by them: {planted or 'none'}")


# ---------------------------------------------------------------------------------------
# Tagging: each diagram a Figure with its alternative text

TAGGED = r"""\DocumentMetadata{testphase=phase-II, pdfstandard=A-2b}
\documentclass{article}
\usepackage{staunton}
\begin{document}
The start position, then another with an alternative text of the author's.

\chessdiagram[width=4cm]{start}

\chessdiagram[width=4cm,alt={White to play and win}]{8/8/4kpp1/3p1b2/p6P/2B5/6P1/6K1 b - - 1 47}
\end{document}
"""


def figures(pdf_path):
    """The /Alt of every /Figure in a tagged PDF's structure tree, in order."""
    import pikepdf

    with pikepdf.open(pdf_path) as pdf:
        if "/StructTreeRoot" not in pdf.Root:
            return []
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


def test_tagging():
    try:
        import pikepdf  # noqa: F401
    except ImportError:
        check(False, "pikepdf is not importable: the structure tree cannot be read "
              "(scripts/ci/latex-test.sh runs this check in a venv that has it)")
        return
    for engine in ["lualatex", "pdflatex", "xelatex"]:
        with tempfile.TemporaryDirectory() as scratch:
            write(scratch, "tagged.tex", TAGGED)
            if shell_run(engine, scratch, "tagged") is None:
                continue
            stn = read(os.path.join(scratch, "tagged.stn")).splitlines()[2:]
            start = stn[0].split(" ", 1)[0]
            alt = read(os.path.join(scratch, FOLDER, start + ".txt")).split("\n")[2]
            found = figures(os.path.join(scratch, "tagged.pdf"))
            shown = [a if len(a) < 50 else a[:47] + "..." for a in found]
            check(found == [alt, "White to play and win"],
                  f"{engine}: a Figure a diagram, /Alt the sidecar's text or the author's: {shown}")


if not os.access(STAUNTON, os.X_OK):
    sys.exit(f"latex check: no program {STAUNTON} (build it, or set STAUNTON_BIN_DIR)")
TESTS = (test_pages, test_bridge, test_switch, test_again, test_errors, test_quoting, test_tagging)
for test in TESTS:
    if len(sys.argv) > 1 and test.__name__[5:] not in sys.argv[1:]:
        continue
    print(f"== {test.__name__[5:]}", flush=True)
    test()
print(f"latex check: {len(failures)} failure(s)")
sys.exit(1 if failures else 0)
