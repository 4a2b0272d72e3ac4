"""Staunton against python-chess in one process: PNG (staunton.png against chess.svg.board()
then cairosvg.svg2png) and SVG (staunton.svg against chess.svg.board()), over the same
positions with their last move and an arrow, at the same size.

    pip install ./python chess==1.11.2 cairosvg==2.9.1
    python python/bench/bench.py [--positions 200] [--size 400] [--rounds 3]

Prints the mean time per render of each, and the ratios. Positions are those of a few
random games (a fixed seed), so no two renders are of the same diagram.
"""

import argparse
import random
import statistics
import time

import cairosvg
import chess
import chess.svg

import staunton


def positions(count, seed=1):
    """`count` distinct (board, last move) pairs from random games."""
    rng = random.Random(seed)
    found, seen = [], set()
    while len(found) < count:
        board = chess.Board()
        for _ in range(rng.randint(10, 80)):
            moves = list(board.legal_moves)
            if not moves:
                break
            board.push(rng.choice(moves))
            if board.fen() not in seen:
                seen.add(board.fen())
                found.append(board.copy())
    return found[:count]


def per_render(function, boards, rounds):
    """The best of `rounds` passes over `boards`, as seconds per render."""
    best = float("inf")
    for _ in range(rounds):
        start = time.perf_counter()
        for board in boards:
            function(board)
        best = min(best, (time.perf_counter() - start) / len(boards))
    return best


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--positions", type=int, default=200)
    parser.add_argument("--size", type=int, default=400)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    boards = positions(args.positions)
    size = args.size

    def arrow(board):
        move = board.peek()
        return move.from_square, move.to_square

    def chess_svg(board):
        tail, head = arrow(board)
        return chess.svg.board(board, size=size, lastmove=board.peek(),
                               arrows=[chess.svg.Arrow(tail, head)])

    def chess_png(board):
        return cairosvg.svg2png(bytestring=chess_svg(board).encode())

    def staunton_svg(board):
        return staunton.svg(board, size=size, last_move=board.peek(), arrows=[arrow(board)])

    def staunton_png(board):
        return staunton.png(board, size=size, last_move=board.peek(), arrows=[arrow(board)])

    # One warm-up render each: module imports, font and sprite caches.
    for f in (chess_svg, chess_png, staunton_svg, staunton_png):
        f(boards[0])
    results = {}
    for name, f, rounds in [
        ("python-chess SVG (chess.svg.board)", chess_svg, args.rounds),
        ("staunton.svg", staunton_svg, args.rounds),
        ("python-chess PNG (chess.svg.board + cairosvg.svg2png)", chess_png, 1),
        ("staunton.png", staunton_png, args.rounds),
    ]:
        results[name] = per_render(f, boards, rounds)
        print(f"{name:55} {results[name] * 1e6:10.1f} µs per render")
    svg_ratio = results["python-chess SVG (chess.svg.board)"] / results["staunton.svg"]
    png_ratio = results["python-chess PNG (chess.svg.board + cairosvg.svg2png)"] / results["staunton.png"]
    print(f"SVG: staunton is {svg_ratio:.1f}x faster (goal 10x)")
    print(f"PNG: staunton is {png_ratio:.1f}x faster (goal 200x)")
    print(f"({len(boards)} distinct positions, {size} px, last move and an arrow each, "
          f"python-chess {chess.__version__}, cairosvg {cairosvg.__version__}, staunton {staunton.__version__})")


if __name__ == "__main__":
    main()
