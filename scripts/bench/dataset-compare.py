"""Training images of chess boards, images per second: a Python script on python-chess and
CairoSVG (the route people take today) against `staunton dataset`.

  peer      what a user's script does: for image i, a random position (python-chess plays
            0-80 random legal moves from the start, seeded by (SEED, i)), drawn by
            chess.svg.board at 400 px with the variety chess.svg offers (square colours from
            five palettes, 0-2 arrows, 0-3 filled squares, either side at the bottom, the last
            move, the check, coordinates on or off), rasterised by cairosvg.svg2png and
            written as images/NNNNNNNN.png; its labels (the FEN, the board's and every
            square's corners, each piece's class, square and box: its square, as chess.svg's
            geometry gives them) go to labels.jsonl. A multiprocessing.Pool of WORKERS
            processes makes the images, the parent writes the labels in order.
  staunton  `staunton dataset -o DIR --count N --seed 1 --jobs WORKERS` twice: once with the
            variety cut down to what chess.svg can do (STAUNTON_SAME_VARIETY below), once
            with the defaults (the full variety: camera, noise, blur, backgrounds, JPEG…).

Each route runs with 2 workers (both cores of the CI machine) and with 1 (the time one image
costs one core), into a fresh folder every time (a used folder would resume, not draw). The
table gives the median of RUNS runs, interleaved so that all see the same machine: images
per second, wall milliseconds per image (with 1 worker: the time one image takes), CPU
milliseconds per image (all the route's processes; steadier than wall time on a busy
machine), and the images' mean size in bytes; then Staunton's speed over the peer's.

  python3 scripts/bench/dataset-compare.py [--count N] [--runs R] [--bin PATH] [--peer-only]

N defaults to 300, R to 3, PATH to the release binary (target/release/staunton, or under
$CARGO_TARGET_DIR); --peer-only times the peer alone (no binary needed). The peer's
packages (PyPI, pinned: PEER_PACKAGES) are installed in a venv at /tmp/staunton-bench-venv
the first time, and the script runs itself again in it. CairoSVG needs the cairo library
(Debian: libcairo2).
"""

import argparse
import json
import multiprocessing
import os
import random
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

VENV = "/tmp/staunton-bench-venv"
PEER_PACKAGES = ["chess==1.11.2", "cairosvg==2.9.1"]


def in_bench_venv():
    """Run this script in VENV with PEER_PACKAGES, making it the first time."""
    if os.path.realpath(sys.prefix) == os.path.realpath(VENV):
        return
    python = os.path.join(VENV, "bin", "python")
    if not os.path.exists(python):
        subprocess.run([sys.executable, "-m", "venv", VENV], check=True)
    if subprocess.run([python, "-c", "import chess.svg, cairosvg"], capture_output=True).returncode != 0:
        subprocess.run([python, "-m", "pip", "install", "--quiet", *PEER_PACKAGES], check=True)
    os.execv(python, [python, os.path.abspath(__file__), *sys.argv[1:]])


if __name__ == "__main__":
    in_bench_venv()

import cairosvg  # noqa: E402
import chess  # noqa: E402
import chess.svg  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SEED = 1
SIZE = 400

# ------------------------------------------------------------------------------------------
# Staunton's variety cut down to what chess.svg can do (colours, arrows, filled squares, orientation, last move, check,
# coordinates; 400 px, PNG, no camera, no noise, no background), as `--vary` arguments.
STAUNTON_SAME_VARIETY = [
    "--plain",  # every part off, then what chess.svg can do turned back on:
    "--vary", "theme=brown:1,blue:1,green:1,gray:1,wikipedia:1",  # five palettes, as the peer's
    "--vary", "coordinates=none:1,outside:1",
    "--vary", "orientation=white:1,black:1",
    "--vary", "last-move=0.5",
    "--vary", "check=1",
    "--vary", "arrows=0.67",
    "--vary", "highlights=0.75",
]
# ------------------------------------------------------------------------------------------

# chess.svg's geometry (chess/svg.py): 45-unit squares, a 15-unit coordinate margin when
# coordinates are on (no borders), the whole scaled to `size` pixels.
SQUARE_UNITS = 45
MARGIN_UNITS = 15
# Square colours as people pick them for chess.svg's `colors=`: (light, dark) of lichess's
# brown, blue and green boards, chess.com's green, and a gray one.
PALETTES = [
    ("#f0d9b5", "#b58863"),
    ("#dee3e6", "#8ca2ad"),
    ("#ffffdd", "#86a666"),
    ("#eeeed2", "#769656"),
    ("#e0e0e0", "#a0a0a0"),
]
FILL_COLOURS = ["#cc000080", "#15781b80", "#0000cc80", "#e6b40080"]
ARROW_COLOURS = ["green", "red", "yellow", "blue"]


# ------------------------------------------------------------------------------------------
# The peer: python-chess and CairoSVG

def geometry(coordinates):
    """chess.svg's margin in its units, and its units' size in pixels at SIZE."""
    margin = MARGIN_UNITS if coordinates else 0
    return margin, SIZE / (2 * margin + 8 * SQUARE_UNITS)


def square_box(square, orientation, coordinates):
    """The square's [x0, y0, x1, y1] in pixels of the SIZE-px image chess.svg draws."""
    margin, scale = geometry(coordinates)
    file, rank = chess.square_file(square), chess.square_rank(square)
    col, row = (file, 7 - rank) if orientation == chess.WHITE else (7 - file, rank)
    x, y = margin + col * SQUARE_UNITS, margin + row * SQUARE_UNITS
    return [x * scale, y * scale, (x + SQUARE_UNITS) * scale, (y + SQUARE_UNITS) * scale]


def quad(box):
    """A box's corners: top left, top right, bottom right, bottom left."""
    x0, y0, x1, y1 = box
    return [[x0, y0], [x1, y0], [x1, y1], [x0, y1]]


def peer_image(job):
    """Image `index` into folder/images; its labels."""
    folder, index = job
    rng = random.Random(f"{SEED}:{index}")
    board = chess.Board()
    for _ in range(rng.randint(0, 80)):
        moves = list(board.legal_moves)
        if not moves:
            break
        board.push(rng.choice(moves))
    orientation = rng.choice([chess.WHITE, chess.BLACK])
    coordinates = rng.random() < 0.5
    light, dark = rng.choice(PALETTES)
    squares = list(chess.SQUARES)
    arrows = [chess.svg.Arrow(*rng.sample(squares, 2), color=rng.choice(ARROW_COLOURS))
              for _ in range(rng.randint(0, 2))]
    fill = {s: rng.choice(FILL_COLOURS) for s in rng.sample(squares, rng.randint(0, 3))}
    lastmove = board.peek() if board.move_stack and rng.random() < 0.5 else None
    check = board.king(board.turn) if board.is_check() else None
    svg = chess.svg.board(board, orientation=orientation, lastmove=lastmove, check=check,
                          arrows=arrows, fill=fill, coordinates=coordinates, size=SIZE,
                          colors={"square light": light, "square dark": dark})
    name = f"images/{index:08d}.png"
    cairosvg.svg2png(bytestring=svg.encode(), write_to=os.path.join(folder, name))

    margin, scale = geometry(coordinates)
    edge = (margin + 8 * SQUARE_UNITS) * scale
    return {
        "file_name": name, "index": index, "width": SIZE, "height": SIZE, "fen": board.fen(),
        "orientation": "white" if orientation == chess.WHITE else "black",
        "corners": quad([margin * scale, margin * scale, edge, edge]),
        "squares": {chess.square_name(s): quad(square_box(s, orientation, coordinates)) for s in squares},
        "pieces": [{"class": piece.symbol(), "square": chess.square_name(s),
                    "box": square_box(s, orientation, coordinates)}
                   for s, piece in sorted(board.piece_map().items())],
        "arrows": [{"from": chess.square_name(a.tail), "to": chess.square_name(a.head),
                    "color": a.color} for a in arrows],
        "highlights": [{"square": chess.square_name(s), "color": c} for s, c in fill.items()],
        "last_move": {"from": chess.square_name(lastmove.from_square),
                      "to": chess.square_name(lastmove.to_square)} if lastmove else None,
        "check": chess.square_name(check) if check is not None else None,
    }


def run_peer(folder, count, workers):
    """The peer's COUNT images into folder with WORKERS processes."""
    os.makedirs(os.path.join(folder, "images"))
    with multiprocessing.Pool(workers) as pool, \
            open(os.path.join(folder, "labels.jsonl"), "w", encoding="utf-8") as out:
        for labels in pool.imap(peer_image, [(folder, i) for i in range(count)], chunksize=4):
            out.write(json.dumps(labels) + "\n")


# ------------------------------------------------------------------------------------------
# Staunton

def run_staunton(binary, variety):
    def run(folder, count, workers):
        command = [binary, "dataset", "-o", folder, "--count", str(count), "--seed", str(SEED),
                   "--jobs", str(workers), *variety]
        done = subprocess.run(command, capture_output=True, text=True, errors="replace")
        if done.returncode != 0:
            sys.exit(f"{' '.join(command)} failed ({done.returncode}):\n{done.stderr[-2000:]}")
    return run


# ------------------------------------------------------------------------------------------
# Timing

def cpu_seconds():
    """CPU time (user and system) of this process and its finished children so far."""
    return sum(r.ru_utime + r.ru_stime for r in (resource.getrusage(resource.RUSAGE_SELF),
                                                 resource.getrusage(resource.RUSAGE_CHILDREN)))


def timed(route, count, workers):
    """Seconds the route took for COUNT images with WORKERS, the CPU seconds it used (its
    processes', this one's included), and its images' mean bytes."""
    folder = tempfile.mkdtemp(prefix="staunton-dataset-bench-")
    target = os.path.join(folder, "set")
    try:
        start, start_cpu = time.perf_counter(), cpu_seconds()
        route(target, count, workers)
        seconds, cpu = time.perf_counter() - start, cpu_seconds() - start_cpu
        images = os.path.join(target, "images")
        sizes = [os.path.getsize(os.path.join(images, n)) for n in os.listdir(images)]
        if len(sizes) != count:
            sys.exit(f"{target}: {len(sizes)} images, expected {count}")
        return seconds, cpu, statistics.mean(sizes)
    finally:
        shutil.rmtree(folder)


def default_binary():
    target = os.environ.get("CARGO_TARGET_DIR") or os.path.join(ROOT, "target")
    return os.path.join(os.path.abspath(target), "release", "staunton")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--count", type=int, default=300, help="images a run makes (300)")
    parser.add_argument("--runs", type=int, default=3, help="runs of each route; the median is shown (3)")
    parser.add_argument("--bin", default=default_binary(), help="the staunton binary")
    parser.add_argument("--peer-only", action="store_true", help="time python-chess + CairoSVG alone")
    args = parser.parse_args()

    routes = {"python-chess + CairoSVG": run_peer}
    if not args.peer_only:
        binary = os.path.abspath(args.bin)
        if not os.access(binary, os.X_OK):
            sys.exit(f"no staunton binary at {binary}: cargo build --release, or --bin PATH, or --peer-only")
        routes["staunton, chess.svg's variety"] = run_staunton(binary, STAUNTON_SAME_VARIETY)
        routes["staunton, full variety and JPEG"] = run_staunton(binary, [])

    samples = {}  # (route, workers) -> [(seconds, CPU seconds)]
    sizes = {}  # (route, workers) -> mean bytes per image
    for run in range(args.runs):
        for name, route in routes.items():
            for workers in (2, 1):
                seconds, cpu, size = timed(route, args.count, workers)
                samples.setdefault((name, workers), []).append((seconds, cpu))
                sizes[(name, workers)] = size
                print(f"run {run + 1}/{args.runs}, {name}, {workers} worker{'s' if workers > 1 else ''}: "
                      f"{seconds:.2f} s, {cpu:.2f} CPU s", flush=True)

    print()
    print(f"{args.count} images of {SIZE} px, median of {args.runs} runs; python-chess {chess.__version__}, "
          f"CairoSVG {cairosvg.__version__}, Python {sys.version.split()[0]}, {os.cpu_count()} CPUs")
    print()
    print("| route | workers | images/s | ms per image | CPU ms per image | bytes per image |")
    print("|---|---:|---:|---:|---:|---:|")
    speed = {}
    for (name, workers), times in samples.items():
        seconds = statistics.median(t for t, _ in times)
        cpu = statistics.median(c for _, c in times)
        speed[(name, workers)] = args.count / seconds
        print(f"| {name} | {workers} | {args.count / seconds:.1f} | {1000 * seconds / args.count:.1f} "
              f"| {1000 * cpu / args.count:.1f} | {sizes[(name, workers)]:,.0f} |")
    peer = "python-chess + CairoSVG"
    for name in routes:
        if name != peer:
            print(f"\n{name}: " + ", ".join(
                f"{speed[(name, w)] / speed[(peer, w)]:.1f}x the peer's images/s with {w} worker{'s' if w > 1 else ''}"
                for w in (2, 1)))


if __name__ == "__main__":
    main()
