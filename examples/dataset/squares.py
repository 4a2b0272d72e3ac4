#!/usr/bin/env python3
"""Training input for a square classifier, from a `staunton dataset` folder.

A recogniser often works in two stages: find the board (its four corners), then classify
its 64 squares. This script makes the second stage's input: for every image of the folder
it unwarps the board from its labelled `corners` to an upright 256 x 256 grid (so a turned
or tilted board becomes square), cuts the 64 squares at 32 x 32 pixels and labels each with
its piece's class (0-11: P N B R Q K p n b r q k, as the dataset's YOLO classes) or 12,
empty. It writes DIR/squares.npz: `x` (N x 32 x 32 x 3, uint8) and `y` (N, uint8).

    python3 examples/dataset/squares.py DIR        # needs numpy and Pillow

and prints how many squares of each class it wrote.
"""

import json
import sys
from pathlib import Path

import numpy as np
from PIL import Image

CLASSES = "PNBRQKpnbrqk"
EMPTY = len(CLASSES)
GRID = 256
CELL = GRID // 8


def perspective_coefficients(corners):
    """PIL's perspective transform mapping the upright grid's corners onto `corners`
    (top left, top right, bottom right, bottom left in the image)."""
    grid = [(0, 0), (GRID, 0), (GRID, GRID), (0, GRID)]
    rows, rhs = [], []
    for (u, v), (x, y) in zip(grid, corners):
        rows.append([u, v, 1, 0, 0, 0, -x * u, -x * v])
        rows.append([0, 0, 0, u, v, 1, -y * u, -y * v])
        rhs += [x, y]
    return np.linalg.solve(np.array(rows, float), np.array(rhs, float))


def squares_of(folder, line):
    """The 64 squares of one image, upright, and their classes."""
    labels = json.loads(line)
    image = Image.open(folder / labels["file_name"]).convert("RGB")
    board = image.transform((GRID, GRID), Image.PERSPECTIVE,
                            perspective_coefficients(labels["corners"]), Image.BILINEAR)
    occupant = {p["square"]: CLASSES.index(p["class"]) for p in labels["pieces"]}
    pixels = np.asarray(board)
    white = labels["orientation"] == "white"
    for name in labels["squares"]:
        file, rank = "abcdefgh".index(name[0]), int(name[1]) - 1
        col, row = (file, 7 - rank) if white else (7 - file, rank)
        yield pixels[row * CELL:(row + 1) * CELL, col * CELL:(col + 1) * CELL], occupant.get(name, EMPTY)


def main():
    folder = Path(sys.argv[1])
    xs, ys = [], []
    with open(folder / "metadata.jsonl") as f:
        for line in f:
            for x, y in squares_of(folder, line):
                xs.append(x)
                ys.append(y)
    x, y = np.stack(xs), np.array(ys, np.uint8)
    np.savez_compressed(folder / "squares.npz", x=x, y=y)
    counts = np.bincount(y, minlength=EMPTY + 1)
    names = list(CLASSES) + ["empty"]
    print(f"{len(y)} squares:", ", ".join(f"{n} {c}" for n, c in zip(names, counts)))


if __name__ == "__main__":
    main()
