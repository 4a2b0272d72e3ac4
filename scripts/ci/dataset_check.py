#!/usr/bin/env python3
"""`staunton dataset`'s folders read by the tools that train on them (the contract:
docs of issue 63, "staunton dataset — the contract").

    dataset_check.py BIN WORK [--count N] [--seed S]

WORK holds the folders scripts/ci/dataset-test.sh made with BIN: full/ (`--count N --seed S`,
the default, full variety), plain/ (the same with --plain) and shard-0/ … shard-{K-1}/ (the
same as full/ with --shard k/K). Every folder is read with:

- pycocotools: coco.json loads; the 13 categories; per image one board annotation and one a
  piece with the spec's ids, boxes equal to metadata.jsonl's and inside the image, and
  segmentations that annToMask rasterises;
- Hugging Face datasets: load_dataset("imagefolder") loads; a row per image with the
  metadata's columns; the decoded image's size is the line's; the FEN's pieces are the
  `pieces`; 64 squares and 4 corners of 4 points;
- YOLO: data.yaml (PyYAML) and labels/*.txt equal to the COCO annotations (pieces, then the
  board);
- its own reading: the files metadata.jsonl names exist, decode whole and are its only
  images; lines sorted by index; the squares and corners agree with the orientation; each
  piece's box lies on its square.

Then: the shards together equal full/ (metadata lines and image bytes, COCO ids unique, the
COCO lists concatenated equal full/'s); a run killed with SIGKILL leaves whole images and
lines that name them, and a second run finishes it to exactly what an uninterrupted run
makes; another --seed into that folder is refused (exit status 2); bad options are refused
with one line naming them and no image. Prints a line a section and a summary; exits 1 if
anything failed (every problem is listed first).

Assumptions where the contract leaves a choice (the checks below follow them):

1. Coordinates in metadata.jsonl are rounded to 1/100 px; COCO's numbers may be the
   unrounded ones, so COCO and metadata agree within 0.015 px (area within the rounding of
   w*h). YOLO agrees with COCO within 1e-5 and is written with exactly 6 decimals.
2. The board's COCO bbox is the axis-aligned box of its four corners; its segmentation is
   the corners in the order TL, TR, BR, BL; a piece's segmentation is its box's four corners
   in any order. Every annotation's bbox lies inside the image ([0, width] x [0, height]).
3. Every piece of the FEN is labelled: `pieces` holds exactly the FEN's pieces, one each.
4. A square's corners: for White at the bottom a8 is drawn top left, so squares["a8"][0]
   is corners[0], h8's [1] is corners[1], h1's [2] corners[2], a1's [3] corners[3]; for
   Black h1, a1, a8, h8 take those places. Each piece's box centre lies inside its square's
   axis-aligned box (within 1 px).
5. images/ holds exactly the images metadata.jsonl names when a run has ended; after a
   SIGKILL it may also hold a temporary (a name starting with "."), which the next run
   removes; every file named like an image (00000042.png) decodes whole.
6. After a SIGKILL, metadata.jsonl's last line may be partial (no newline yet); every
   complete line parses and names an image that exists and decodes. The resumed run's
   metadata.jsonl, images, labels and coco.json are the uninterrupted run's (coco.json as
   JSON: no timestamp in it).
7. A refused option: exit status non-zero, exactly one non-empty line on stderr, holding the
   option's flag (`--count`, `--shard`, `--vary`, `--backgrounds`, `--pieces`; for --vary
   also the part's name). clap's own error format (an empty line and "For more information,
   try '--help'.") is more than one line. Another seed into a finished folder: exit status
   2, stderr mentions "seed", the folder unchanged.
8. --plain: every image a PNG, White at the bottom, no arrows, highlights, markers or last
   move, and no camera (the board's corners an axis-aligned square). The default (full
   variety) over N=60 images has both orientations, PNG and JPEG, more than one size, some
   arrows, highlights or markers, and some turned or tilted boards.
"""

import argparse
import atexit
import contextlib
import io
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import traceback

# The Hugging Face libraries: offline (nothing is fetched), quiet, and caching under /tmp.
os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("HF_DATASETS_OFFLINE", "1")
os.environ.setdefault("HF_DATASETS_DISABLE_PROGRESS_BARS", "1")
if "HF_DATASETS_CACHE" not in os.environ:
    os.environ["HF_DATASETS_CACHE"] = tempfile.mkdtemp(prefix="staunton-hf-cache-")
    atexit.register(shutil.rmtree, os.environ["HF_DATASETS_CACHE"], ignore_errors=True)

import datasets  # noqa: E402
import yaml  # noqa: E402
from PIL import Image  # noqa: E402
from pycocotools.coco import COCO  # noqa: E402

import boards  # noqa: E402  (scripts/ci/boards.py, beside this file: a FEN's pieces)

# FEN letters in COCO id order (id = position + 1; YOLO class = position), and their names.
CLASSES = "PNBRQKpnbrqk"
KINDS = ["pawn", "knight", "bishop", "rook", "queen", "king"]
NAMES = [f"white-{k}" for k in KINDS] + [f"black-{k}" for k in KINDS] + ["board"]
BOARD_ID = 13
KEYPOINTS = ["top-left", "top-right", "bottom-right", "bottom-left"]
FILES = "abcdefgh"
SQUARES = [f + str(r) for f in FILES for r in range(1, 9)]
COLUMNS = ["fen", "orientation", "corners", "squares", "pieces"]
IMAGE_NAME = re.compile(r"^(\d{8,})\.(png|jpg)$")
YOLO_LINE = re.compile(r"^(\d+)( -?\d+\.\d{6}){4}$")
TOLERANCE = 0.015  # px: metadata.jsonl rounds to 1/100 px (assumption 1)
TIMEOUT = 600  # s, for one run of the binary

problems = []


def problem(where, message):
    problems.append(f"{where}: {message}")


def near(a, b, tolerance=TOLERANCE):
    return abs(a - b) <= tolerance


def points_near(a, b, tolerance=TOLERANCE):
    return len(a) == len(b) and all(near(p, q, tolerance) for p, q in zip(a, b))


# ---------------------------------------------------------------------------------------
# Reading a folder

def read_lines(folder):
    """metadata.jsonl as [(line bytes, object)]; a line that is not JSON is a problem."""
    try:
        with open(os.path.join(folder, "metadata.jsonl"), "rb") as f:
            data = f.read()
    except OSError as e:
        problem(folder, f"no metadata.jsonl: {e}")
        return []
    if data and not data.endswith(b"\n"):
        problem(folder, "metadata.jsonl does not end with a newline")
    lines = []
    for number, line in enumerate(data.split(b"\n")[:-1], 1):
        try:
            lines.append((line, json.loads(line)))
        except ValueError as e:
            problem(folder, f"metadata.jsonl line {number} is not JSON: {e}")
    return lines


def placement(fen):
    """The pieces of a FEN as {square: letter}."""
    return {FILES[f] + str(r + 1): letter for (f, r), letter in boards.placement(fen).items()}


def decodes(path):
    """None when the image at path decodes whole, else why not; and its (format, size)."""
    try:
        with Image.open(path) as im:
            im.verify()  # chunk CRCs and structure (PNG)
        with Image.open(path) as im:
            im.load()  # every pixel: a truncated file raises
            return None, (im.format, im.size)
    except Exception as e:  # PIL raises many kinds for a broken file
        return f"does not decode: {e}", (None, None)


def image_files(folder):
    """The names in folder/images that are named like images (temporaries left out)."""
    images = os.path.join(folder, "images")
    if not os.path.isdir(images):
        return []
    return sorted(n for n in os.listdir(images) if IMAGE_NAME.match(n))


def bounds(points):
    xs, ys = [p[0] for p in points], [p[1] for p in points]
    return [min(xs), min(ys), max(xs), max(ys)]


# ---------------------------------------------------------------------------------------
# One folder: its files and its labels, as metadata.jsonl says

def check_layout(folder, lines, indices):
    """The files, the lines' fields and geometry; the lines are for `indices`, in order."""
    where = os.path.basename(folder)
    found = [m.get("index") for _, m in lines]
    if found != indices:
        problem(where, f"metadata.jsonl has indices {short(found)}, expected {short(indices)} "
                       f"(one line per image, sorted by index)")
    for name in ("dataset.json", "coco.json", "data.yaml"):
        if not os.path.isfile(os.path.join(folder, name)):
            problem(where, f"no {name}")
    named = set()
    for _, m in lines:
        at = f"{where} image {m.get('index')}"
        name = m.get("file_name", "")
        ext = os.path.splitext(name)[1]
        if name != f"images/{m.get('index', 0):08d}{ext}" or ext not in (".png", ".jpg"):
            problem(at, f"file_name {name!r} is not images/<index, 8 digits>.png or .jpg")
        named.add(os.path.basename(name))
        path = os.path.join(folder, name)
        if not os.path.isfile(path):
            problem(at, f"{name} does not exist")
            continue
        error, (fmt, size) = decodes(path)
        if error:
            problem(at, f"{name} {error}")
        elif fmt != {".png": "PNG", ".jpg": "JPEG"}.get(ext):
            problem(at, f"{name} is {fmt}")
        elif size != (m.get("width"), m.get("height")):
            problem(at, f"{name} is {size[0]}x{size[1]}, the line says "
                        f"{m.get('width')}x{m.get('height')}")
        check_geometry(at, m)
    on_disk = set(os.listdir(os.path.join(folder, "images"))) if os.path.isdir(
        os.path.join(folder, "images")) else set()
    if on_disk != named:
        problem(where, f"images/ holds {short(sorted(on_disk - named))} that no line names, "
                       f"lacks {short(sorted(named - on_disk))}")


def check_geometry(at, m):
    """Squares, corners and pieces agree with each other and the FEN (assumptions 3 and 4)."""
    corners, squares = m.get("corners"), m.get("squares") or {}
    if not is_quad(corners):
        problem(at, f"corners is not 4 points: {corners!r}")
        return
    if sorted(squares) != sorted(SQUARES) or not all(is_quad(q) for q in squares.values()):
        problem(at, f"squares is not 64 squares of 4 points each ({len(squares)} keys)")
        return
    places = ("a8", "h8", "h1", "a1") if m.get("orientation") == "white" else ("h1", "a1", "a8", "h8")
    if m.get("orientation") not in ("white", "black"):
        problem(at, f"orientation {m.get('orientation')!r}")
    for corner, square in enumerate(places):
        if not points_near(squares[square][corner], corners[corner]):
            problem(at, f"{m.get('orientation')} at the bottom, but corner {KEYPOINTS[corner]} "
                        f"{corners[corner]} is not {square}'s {squares[square][corner]}")
    try:
        fen_pieces = placement(m.get("fen", ""))
    except (IndexError, ValueError):
        problem(at, f"fen {m.get('fen')!r} does not read")
        return
    if len(m.get("fen", "").split()) != 6:
        problem(at, f"fen {m.get('fen')!r} is not six fields")
    labelled = {}
    for piece in m.get("pieces") or []:
        square, box = piece.get("square"), piece.get("box")
        if square in labelled:
            problem(at, f"two pieces on {square}")
        labelled[square] = piece.get("class")
        if square not in squares or not (isinstance(box, list) and len(box) == 4):
            problem(at, f"piece {piece!r}: no such square or no box of 4 numbers")
            continue
        x0, y0, x1, y1 = bounds(squares[square])
        cx, cy = (box[0] + box[2]) / 2, (box[1] + box[3]) / 2
        if not (box[0] < box[2] and box[1] < box[3]):
            problem(at, f"piece on {square}: box {box} is empty")
        elif not (x0 - 1 <= cx <= x1 + 1 and y0 - 1 <= cy <= y1 + 1):
            problem(at, f"piece on {square}: box {box} is not on the square "
                        f"({[round(v, 2) for v in (x0, y0, x1, y1)]})")
    if labelled != fen_pieces:
        diff = sorted(set(labelled.items()) ^ set(fen_pieces.items()))
        problem(at, f"pieces differ from the FEN's: {short(diff)}")


def is_quad(q):
    return (isinstance(q, list) and len(q) == 4
            and all(isinstance(p, list) and len(p) == 2
                    and all(isinstance(v, (int, float)) for v in p) for p in q))


# ---------------------------------------------------------------------------------------
# COCO with pycocotools

def check_coco(folder, lines):
    where = os.path.basename(folder) + " coco.json"
    try:
        with contextlib.redirect_stdout(io.StringIO()):  # "loading annotations into memory..."
            coco = COCO(os.path.join(folder, "coco.json"))
    except Exception as e:  # whatever pycocotools raises on a bad file
        problem(where, f"pycocotools cannot load it: {e}")
        return None
    categories = {c["id"]: c for c in coco.dataset.get("categories", [])}
    if sorted(categories) != list(range(1, 14)):
        problem(where, f"category ids {sorted(categories)}, expected 1..13")
    for cid, c in categories.items():
        if 1 <= cid <= 13 and c.get("name") != NAMES[cid - 1]:
            problem(where, f"category {cid} is named {c.get('name')!r}, expected {NAMES[cid - 1]!r}")
        if 1 <= cid <= 12 and c.get("fen") != CLASSES[cid - 1]:
            problem(where, f"category {cid}'s fen is {c.get('fen')!r}, expected {CLASSES[cid - 1]!r}")
    if categories.get(BOARD_ID, {}).get("keypoints") != KEYPOINTS:
        problem(where, f"the board category's keypoints are not {KEYPOINTS}")

    if len(coco.imgs) != len(lines):
        problem(where, f"{len(coco.imgs)} images, metadata.jsonl has {len(lines)}")
    expected_annotations = sum(len(m.get("pieces") or []) + 1 for _, m in lines)
    if len(coco.anns) != expected_annotations:
        problem(where, f"{len(coco.anns)} annotations, metadata.jsonl's pieces and boards make "
                       f"{expected_annotations}")
    for _, m in lines:
        index = m.get("index", -1)
        at = f"{where} image {index}"
        image = coco.imgs.get(index + 1)
        if image is None:
            problem(at, f"no image with id {index + 1}")
            continue
        for key in ("file_name", "width", "height"):
            if image.get(key) != m.get(key):
                problem(at, f"{key} {image.get(key)!r}, metadata.jsonl says {m.get(key)!r}")
        annotations = coco.loadAnns(coco.getAnnIds(imgIds=[index + 1]))
        pieces = m.get("pieces") or []
        board, piece_annotations = split_annotations(annotations)
        if board is None or len(piece_annotations) != len(pieces):
            problem(at, f"{len(annotations)} annotations, expected one of the board and "
                        f"{len(pieces)} of pieces")
            continue
        # id = index * 128 + k + 1 for the k-th piece (from 0, metadata order), and
        # index * 128 + 128 for the board.
        ids = [a["id"] for a in piece_annotations]
        wanted = [index * 128 + k + 1 for k in range(len(pieces))]
        if board["id"] != index * 128 + 128 or ids != wanted:
            problem(at, f"annotation ids: the board's {board['id']}, the pieces' {short(ids, 3)}; "
                        f"expected {index * 128 + 128} and {short(wanted, 3)}")
        check_board_annotation(at, board, m)
        for annotation, piece in zip(piece_annotations, pieces):
            check_piece_annotation(at, annotation, piece)
        for annotation in annotations:
            check_annotation(coco, at, annotation, image)
    return coco


def split_annotations(annotations):
    """An image's annotations as (the board's or None, the pieces' in id order)."""
    boards = [a for a in annotations if a.get("category_id") == BOARD_ID]
    pieces = sorted((a for a in annotations if a.get("category_id") != BOARD_ID), key=lambda a: a["id"])
    return (boards[0] if len(boards) == 1 else None), pieces


def check_board_annotation(at, a, m):
    corners = m["corners"]
    x0, y0, x1, y1 = bounds(corners)
    if not points_near(a.get("bbox", []), [x0, y0, x1 - x0, y1 - y0]):
        problem(at, f"board bbox {a.get('bbox')} is not the corners' box {[x0, y0, x1 - x0, y1 - y0]}")
    flat = [v for p in corners for v in p]
    if not points_near((a.get("segmentation") or [[]])[0], flat):
        problem(at, f"board segmentation {a.get('segmentation')} is not the corners {flat}")
    keypoints = [v for p in corners for v in (*p, 2)]
    if not points_near(a.get("keypoints", []), keypoints) or a.get("num_keypoints") != 4:
        problem(at, f"board keypoints {a.get('keypoints')} / {a.get('num_keypoints')} are not the "
                    f"corners with visibility 2, 4 of them")


def check_piece_annotation(at, a, piece):
    x0, y0, x1, y1 = piece["box"]
    category = CLASSES.find(piece.get("class", "?")) + 1
    if a.get("category_id") != category:
        problem(at, f"annotation {a['id']} has category {a.get('category_id')}, the piece "
                    f"{piece.get('class')} on {piece.get('square')} is {category}")
    if not points_near(a.get("bbox", []), [x0, y0, x1 - x0, y1 - y0]):
        problem(at, f"annotation {a['id']} bbox {a.get('bbox')} is not the piece's box {piece['box']}")
    segmentation = (a.get("segmentation") or [[]])[0]
    got = sorted(zip(segmentation[0::2], segmentation[1::2]))
    box_corners = sorted([(x0, y0), (x1, y0), (x1, y1), (x0, y1)])
    if len(segmentation) != 8 or not all(points_near(p, q) for p, q in zip(got, box_corners)):
        problem(at, f"annotation {a['id']} segmentation {segmentation} is not the box's corners")


def check_annotation(coco, at, a, image):
    """What every annotation has: its bbox inside the image, area, iscrowd, a mask."""
    x, y, w, h = (a.get("bbox") or [0, 0, 0, 0])[:4]
    if not (w > 0 and h > 0 and x >= 0 and y >= 0
            and x + w <= image["width"] + 1e-6 and y + h <= image["height"] + 1e-6):
        problem(at, f"annotation {a['id']} bbox {a.get('bbox')} is not inside the "
                    f"{image['width']}x{image['height']} image")
    if not near(a.get("area", -1), w * h, 0.02 * (w + h) + 1e-6):
        problem(at, f"annotation {a['id']} area {a.get('area')} is not w*h = {w * h}")
    if a.get("iscrowd") != 0:
        problem(at, f"annotation {a['id']} iscrowd {a.get('iscrowd')!r}")
    try:
        mask = coco.annToMask(a)
    except Exception as e:  # pycocotools' errors on a bad polygon vary
        problem(at, f"annotation {a['id']}: annToMask fails: {e}")
        return
    if mask.shape != (image["height"], image["width"]) or mask.sum() == 0:
        problem(at, f"annotation {a['id']}: annToMask gives {mask.shape} with {mask.sum()} pixels set")


# ---------------------------------------------------------------------------------------
# YOLO: data.yaml and labels/, against COCO

def check_yolo(folder, lines, coco):
    where = os.path.basename(folder) + " YOLO"
    try:
        with open(os.path.join(folder, "data.yaml"), encoding="utf-8") as f:
            data = yaml.safe_load(f)
    except (OSError, yaml.YAMLError) as e:
        problem(where, f"data.yaml does not parse: {e}")
        data = {}
    data = data if isinstance(data, dict) else {}
    path = str(data.get("path", ""))
    if not os.path.isabs(path) or os.path.realpath(path) != os.path.realpath(folder):
        problem(where, f"data.yaml path {path!r} is not the folder's absolute path")
    for key, value in (("train", "images"), ("val", "images"), ("nc", 13), ("names", NAMES)):
        if data.get(key) != value:
            problem(where, f"data.yaml {key} is {data.get(key)!r}, expected {value!r}")
    labels = os.path.join(folder, "labels")
    stems = {os.path.splitext(os.path.basename(m.get("file_name", "")))[0] for _, m in lines}
    present = {os.path.splitext(n)[0] for n in os.listdir(labels)} if os.path.isdir(labels) else set()
    if present != stems:
        problem(where, f"labels/ has {short(sorted(present - stems))} that no image has, lacks "
                       f"{short(sorted(stems - present))}")
    if coco is None:
        return
    for _, m in lines:
        index = m.get("index", -1)
        stem = f"{index:08d}"
        if stem not in present:
            continue
        at = f"{where} {stem}.txt"
        with open(os.path.join(labels, stem + ".txt"), encoding="utf-8") as f:
            rows = f.read().splitlines()
        board, pieces = split_annotations(coco.loadAnns(coco.getAnnIds(imgIds=[index + 1])))
        ordered = pieces + [board] if board else pieces
        if len(rows) != len(ordered):
            problem(at, f"{len(rows)} lines, COCO has {len(ordered)} annotations")
            continue
        width, height = m["width"], m["height"]
        for n, (row, a) in enumerate(zip(rows, ordered), 1):
            if not YOLO_LINE.match(row):
                problem(at, f"line {n} {row!r} is not `class cx cy w h` with 6 decimals")
                continue
            fields = row.split()
            x, y, w, h = a["bbox"]
            expected = [(x + w / 2) / width, (y + h / 2) / height, w / width, h / height]
            if int(fields[0]) != a["category_id"] - 1:
                problem(at, f"line {n} class {fields[0]}, COCO's category is {a['category_id']}")
            if not points_near([float(v) for v in fields[1:]], expected, 1e-5):
                problem(at, f"line {n} {row!r} is not COCO's {a['bbox']} normalised "
                            f"({' '.join(f'{v:.6f}' for v in expected)})")


# ---------------------------------------------------------------------------------------
# imagefolder with Hugging Face datasets

def check_imagefolder(folder, lines):
    where = os.path.basename(folder) + " imagefolder"
    try:
        dataset = datasets.load_dataset("imagefolder", data_dir=folder, split="train")
    except Exception as e:  # datasets wraps Arrow's and its own errors in many types
        problem(where, f"load_dataset fails: {one_line(e)}")
        return
    if dataset.num_rows != len(lines):
        problem(where, f"{dataset.num_rows} rows, {len(lines)} images")
    missing = [c for c in ["image", "index", *COLUMNS] if c not in dataset.column_names]
    if missing:
        problem(where, f"no column {', '.join(missing)} (columns: {dataset.column_names})")
        return
    by_index = {m["index"]: m for _, m in lines}
    for number, index in enumerate(dataset["index"]):  # the column alone: no image decoded
        at = f"{where} row {index}"
        m = by_index.get(index)
        if m is None:
            problem(at, "no metadata line has this index")
            continue
        try:
            row = dataset[number]  # the image decoded
        except Exception as e:  # PIL's errors for a broken file, wrapped or not
            problem(at, f"the row does not decode: {one_line(e)}")
            continue
        if row["image"].size != (m["width"], m["height"]):
            problem(at, f"the decoded image is {row['image'].size}, the line says "
                        f"{m['width']}x{m['height']}")
        for column in ("fen", "orientation"):
            if row[column] != m[column]:
                problem(at, f"{column} {row[column]!r} is not the line's {m[column]!r}")
        if len(row["corners"]) != 4 or any(len(p) != 2 for p in row["corners"]):
            problem(at, "corners is not 4 points")
        squares = row["squares"] or {}
        if sorted(squares) != sorted(SQUARES) or any(
                len(q) != 4 or any(len(p) != 2 for p in q) for q in squares.values()):
            problem(at, "squares is not 64 squares of 4 points")
        pieces = {p["square"]: p["class"] for p in row["pieces"]}
        if pieces != placement(row["fen"]) or len(pieces) != len(row["pieces"]):
            problem(at, "the pieces column does not match the FEN's piece placement")


# ---------------------------------------------------------------------------------------
# Whole folders and how they relate

def check_dataset(folder, indices):
    """Every check of one finished folder whose images are `indices`; its lines."""
    lines = read_lines(folder)
    check_layout(folder, lines, indices)
    coco = check_coco(folder, lines)
    check_yolo(folder, lines, coco)
    check_imagefolder(folder, lines)
    return lines


def check_plain(lines):
    """--plain: no variety (assumption 8)."""
    for _, m in lines:
        at = f"plain image {m.get('index')}"
        if not m.get("file_name", "").endswith(".png"):
            problem(at, f"{m.get('file_name')} is not a PNG")
        if m.get("orientation") != "white":
            problem(at, "Black at the bottom")
        for key in ("arrows", "highlights", "markers"):
            if m.get(key):
                problem(at, f"has {key}")
        if m.get("last_move") is not None:
            problem(at, "has a last move")
        (ax, ay), (bx, by), (cx, cy), (dx, dy) = m["corners"]
        if not (near(ay, by) and near(cy, dy) and near(ax, dx) and near(bx, cx)
                and near(bx - ax, dy - ay)):
            problem(at, f"the board is not an upright square: corners {m['corners']}")


def check_variety(lines):
    """The default set varies (assumption 8)."""
    def upright(m):
        (ax, ay), (bx, by), (cx, cy), (dx, dy) = m["corners"]
        return near(ay, by) and near(cy, dy) and near(ax, dx) and near(bx, cx)

    seen = {
        "both orientations": {m["orientation"] for _, m in lines} == {"white", "black"},
        "PNG and JPEG": {os.path.splitext(m["file_name"])[1] for _, m in lines} == {".png", ".jpg"},
        "more than one size": len({(m["width"], m["height"]) for _, m in lines}) > 1,
        "marks (arrows, highlights or markers)": any(
            m["arrows"] or m["highlights"] or m["markers"] for _, m in lines),
        "a turned or tilted board": not all(upright(m) for _, m in lines),
    }
    for what, ok in seen.items():
        if not ok:
            problem("full", f"{len(lines)} images of the default variety, but not {what}")


def check_shards(work, full_lines, shards):
    """The shards ({folder: its lines}) together are full/: lines, image bytes, labels, COCO."""
    full = os.path.join(work, "full")
    merged, images, annotations = [], [], []
    for folder, lines in shards.items():
        merged += lines
        for _, m in lines:
            name = m.get("file_name", "")
            for kind, path in (("image", name), ("label", f"labels/{m.get('index', 0):08d}.txt")):
                if not same_bytes(os.path.join(folder, path), os.path.join(full, path)):
                    problem(os.path.basename(folder), f"{kind} {path} differs from full/'s")
        with open(os.path.join(folder, "coco.json"), encoding="utf-8") as f:
            coco = json.load(f)
        images += coco.get("images", [])
        annotations += coco.get("annotations", [])
    image_ids = [i.get("id") for i in images]
    annotation_ids = [a.get("id") for a in annotations]
    for what, ids in (("image", image_ids), ("annotation", annotation_ids)):
        twice = sorted({i for i in ids if ids.count(i) > 1})
        if twice:
            problem("shards", f"COCO {what} ids in more than one shard: {short(twice)}")
    merged.sort(key=lambda line: line[1].get("index", -1))
    if [line for line, _ in merged] != [line for line, _ in full_lines]:
        first = next((i for i, (a, b) in enumerate(zip(merged, full_lines)) if a[0] != b[0]),
                     min(len(merged), len(full_lines)))
        problem("shards", f"the shards' metadata lines, merged and sorted, differ from full/'s "
                          f"(first at line {first + 1}; {len(merged)} against {len(full_lines)})")
    with open(os.path.join(full, "coco.json"), encoding="utf-8") as f:
        whole = json.load(f)
    for key, merged_list in (("images", images), ("annotations", annotations)):
        if sorted(merged_list, key=lambda x: x.get("id")) != sorted(whole.get(key, []), key=lambda x: x.get("id")):
            problem("shards", f"the shards' COCO {key}, concatenated, are not full/'s")


def same_bytes(a, b):
    try:
        with open(a, "rb") as fa, open(b, "rb") as fb:
            return fa.read() == fb.read()
    except OSError:
        return False


# ---------------------------------------------------------------------------------------
# Running the binary: interrupted runs, refused settings, bad options

def run(binary, *args):
    """The binary run to its end: (exit status, stderr)."""
    done = subprocess.run([binary, *args], capture_output=True, text=True, errors="replace",
                          timeout=TIMEOUT, stdin=subprocess.DEVNULL)
    return done.returncode, done.stderr


def check_resume(binary, work, seed):
    """Killed mid-run, then run again: the same folder as an uninterrupted run."""
    args = ["--count", "40", "--seed", str(seed)]
    straight = fresh(work, "resume-straight")
    killed = fresh(work, "resume-killed")
    code, err = run(binary, "dataset", "-o", straight, *args)
    if code != 0:
        problem("resume", f"the uninterrupted run failed ({code}): {one_line(err)}")
        return

    with open(os.path.join(work, "resume-killed.log"), "wb") as log:
        process = subprocess.Popen([binary, "dataset", "-o", killed, *args],
                                   stdout=log, stderr=log, stdin=subprocess.DEVNULL)
        deadline = time.monotonic() + TIMEOUT
        while process.poll() is None and len(image_files(killed)) < 3 and time.monotonic() < deadline:
            time.sleep(0.001)
        if process.poll() is not None:
            problem("resume", f"the run ended ({process.returncode}) before 3 images appeared: "
                              f"nothing was interrupted")
            return
        process.send_signal(signal.SIGKILL)
        process.wait()
    names = image_files(killed)
    for name in names:
        error, _ = decodes(os.path.join(killed, "images", name))
        if error:
            problem("resume", f"after SIGKILL, images/{name} {error}")
    try:
        with open(os.path.join(killed, "metadata.jsonl"), "rb") as f:
            data = f.read()
    except FileNotFoundError:
        data = b""
    complete = data.split(b"\n")[:-1]  # the last piece is a partial line, or empty
    for number, line in enumerate(complete, 1):
        try:
            name = json.loads(line)["file_name"]
        except (ValueError, KeyError, TypeError):
            problem("resume", f"after SIGKILL, metadata.jsonl's complete line {number} is not a "
                              f"line of an image: {line[:80]!r}")
            continue
        if os.path.basename(name) not in names:
            problem("resume", f"after SIGKILL, metadata.jsonl names {name}, which is not there whole")
    print(f"   resume: killed after {len(names)} images on disk, {len(complete)} complete lines")

    code, err = run(binary, "dataset", "-o", killed, *args)
    if code != 0:
        problem("resume", f"the second run failed ({code}): {one_line(err)}")
        return
    compare_folders(straight, killed)

    before = folder_state(killed)
    code, err = run(binary, "dataset", "-o", killed, "--count", "40", "--seed", str(seed + 1))
    if code != 2 or "seed" not in err.lower():
        problem("resume", f"another --seed into the folder: exit status {code} (expected 2), "
                          f"stderr {one_line(err)!r} (expected a sentence about the seed)")
    if folder_state(killed) != before:
        problem("resume", "the refused run changed the folder")


def fresh(work, name):
    """work/name, gone if an earlier check left it (the binary makes it)."""
    folder = os.path.join(work, name)
    shutil.rmtree(folder, ignore_errors=True)
    return folder


def folder_state(folder):
    """{relative path: bytes} of every file under folder."""
    state = {}
    for root, _, files in os.walk(folder):
        for name in files:
            path = os.path.join(root, name)
            with open(path, "rb") as f:
                state[os.path.relpath(path, folder)] = f.read()
    return state


def compare_folders(straight, resumed):
    """The resumed run made what the uninterrupted one did (assumption 6)."""
    a, b = folder_state(straight), folder_state(resumed)
    compared = [p for p in sorted(set(a) | set(b))
                if p == "metadata.jsonl" or p.startswith(("images" + os.sep, "labels" + os.sep))]
    for path in compared:
        if path not in a:
            problem("resume", f"the resumed folder has {path}, the uninterrupted one does not")
        elif path not in b:
            problem("resume", f"the resumed folder lacks {path}")
        elif a[path] != b[path]:
            problem("resume", f"{path} differs from the uninterrupted run's")
    coco = [json.loads(state.get("coco.json", b"null")) for state in (a, b)]
    if coco[0] != coco[1]:
        problem("resume", "coco.json differs from the uninterrupted run's")


# The refused options: (arguments, what stderr's line must name).
BAD_OPTIONS = [
    (["--count", "0"], ["--count"]),
    (["--count", "999999999999"], ["--count"]),
    (["--count", "5", "--shard", "3/3"], ["--shard"]),
    (["--count", "5", "--vary", "arrows=2"], ["--vary", "arrows"]),
    (["--count", "5", "--vary", "nonsense=1"], ["--vary", "nonsense"]),
    (["--count", "5", "--backgrounds", "/nonexistent"], ["--backgrounds"]),
    (["--count", "5", "--pieces", "/nonexistent"], ["--pieces"]),
]


def check_errors(binary, work):
    for n, (args, named) in enumerate(BAD_OPTIONS):
        folder = fresh(work, f"refused-{n}")
        at = f"refused `dataset {' '.join(args)}`"
        code, err = run(binary, "dataset", "-o", folder, *args)
        said = [line for line in err.splitlines() if line.strip()]
        if code == 0:
            problem(at, "exit status 0")
        if len(said) != 1:
            problem(at, f"{len(said)} lines on stderr, expected one: {err[:300]!r}")
        elif not all(word in said[0] for word in named):
            problem(at, f"stderr {said[0]!r} does not name {' and '.join(named)}")
        if image_files(folder):
            problem(at, f"wrote {len(image_files(folder))} images")


# ---------------------------------------------------------------------------------------

def one_line(text, limit=300):
    text = " ".join(str(text).split())
    return text if len(text) <= limit else text[:limit - 1] + "…"


def short(items, limit=8):
    items = list(items)
    return str(items) if len(items) <= limit else f"{items[:limit]}… ({len(items)} in all)"


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("binary", help="the staunton binary")
    parser.add_argument("work", help="the folder holding full/, plain/ and shard-K/")
    parser.add_argument("--count", type=int, default=60, help="the runs' --count")
    parser.add_argument("--seed", type=int, default=7, help="the runs' --seed")
    args = parser.parse_args()
    work = os.path.abspath(args.work)
    shard_folders = sorted((os.path.join(work, n) for n in os.listdir(work) if re.fullmatch(r"shard-\d+", n)),
                           key=lambda p: int(p.rsplit("-", 1)[1]))
    if not shard_folders:
        print(f"dataset-check: no shard-K folders in {work}")
        return 1
    everything = list(range(args.count))
    passed, failed = 0, 0

    def section(name, check, *check_args):
        """check(*check_args) as a section: its line, its problems counted; its value."""
        nonlocal passed, failed
        before, start = len(problems), time.monotonic()
        try:
            value = check(*check_args)
        except Exception:  # a file so malformed that a check tripped: say where, go on
            problem(name, "the check stopped:\n" + traceback.format_exc(limit=-3))
            value = None
        new = len(problems) - before
        passed, failed = passed + (new == 0), failed + (new > 0)
        print(f"== {name}: {'ok' if new == 0 else f'{new} problems'} ({time.monotonic() - start:.1f} s)",
              flush=True)
        return value

    full = section("full/: layout, COCO (pycocotools), YOLO, imagefolder (datasets)",
                   check_dataset, os.path.join(work, "full"), everything) or []
    plain = section("plain/: layout, COCO (pycocotools), YOLO, imagefolder (datasets)",
                    check_dataset, os.path.join(work, "plain"), everything) or []
    section("full/: the default varies", check_variety, full)
    section("plain/: no variety", check_plain, plain)
    shards = {}
    for k, folder in enumerate(shard_folders):
        wanted = [i for i in everything if i % len(shard_folders) == k]
        shards[folder] = section(f"shard-{k}/ of {len(shard_folders)}: layout, COCO, YOLO, imagefolder",
                                 check_dataset, folder, wanted) or []
    section(f"the {len(shards)} shards together are full/", check_shards, work, full, shards)
    section("SIGKILL mid-run, then resumed: the uninterrupted run's folder; another seed refused",
            check_resume, args.binary, work, args.seed)
    section("bad options refused: one line naming the option, no image", check_errors, args.binary, work)

    for line in problems:
        print(line)
    images = len(full) + len(plain) + sum(len(lines) for lines in shards.values())
    print(f"dataset-check: {images} images read in full/, plain/ and {len(shards)} shards; "
          f"{len(problems)} problem{'s' if len(problems) != 1 else ''}")
    print(f"dataset-check: {passed} passed, {failed} failed")
    return 1 if problems else 0

if __name__ == "__main__":
    sys.exit(main())
