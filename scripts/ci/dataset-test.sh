#!/usr/bin/env bash
# `staunton dataset`'s folders read by the tools people train with: scripts/ci/dataset_check.py
# loads coco.json with pycocotools (every annotation's box inside its image, every
# segmentation rasterised by annToMask, ids and counts as metadata.jsonl says), the folder
# with Hugging Face datasets' imagefolder (a row per image, the decoded size and the FEN's
# pieces as the metadata says), and data.yaml and labels/ as YOLO reads them (equal to the
# COCO boxes). It checks that three shards together are the unsharded set byte for byte, that
# a run killed with SIGKILL leaves only whole images and resumes to exactly an uninterrupted
# run's folder, that another seed into a used folder is refused, and that bad options are
# refused with one line naming them and no image written.
#
#   scripts/ci/dataset-test.sh [STAUNTON_BIN]
#   scripts/ci/dataset-test.sh --install-only     # the packages only
#
# STAUNTON_BIN defaults to the release binary (scripts/target-dir.sh: target/release, or
# $CARGO_TARGET_DIR/release), built with `cargo build --release` when it is absent.
# pycocotools, datasets and Pillow (PyPI, pinned) go in a venv under /tmp; python3-venv is
# installed with apt-get when python3 has no venv module.
set -euo pipefail
cd "$(dirname "$0")/../.."

# Each step says what it does; the next prints how long it took (and the end, the total).
step_start=$SECONDS
step() {
  if [ -n "${step_name:-}" ]; then echo "   ($step_name: $((SECONDS - step_start)) s)"; fi
  step_name=$1
  step_start=$SECONDS
  echo "== dataset-test: $1"
}
trap 'echo "   (${step_name:-start}: $((SECONDS - step_start)) s; all: $SECONDS s)"' EXIT

# What the checks need: pycocotools, datasets and Pillow (PyPI, pinned) in a venv.
venv=/tmp/staunton-dataset-venv
install() {
  if ! python3 -c 'import ensurepip, venv' 2> /dev/null; then
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends python3-venv > /dev/null
  fi
  if [[ ! -x $venv/bin/python ]] || ! "$venv/bin/python" -c 'import pycocotools, datasets, PIL, yaml' 2> /dev/null; then
    python3 -m venv "$venv"
    "$venv/bin/pip" install --quiet pycocotools==2.0.11 datasets==5.2.0 pillow==13.0.0
  fi
}
# `--install-only`: only that (.ci/run does it in the background while cargo tests).
if [[ ${1:-} == --install-only ]]; then
  install
  exit 0
fi

step "the staunton binary"
if [ $# -ge 1 ]; then
  bin=$(realpath "$1")
else
  bin=$(scripts/target-dir.sh)/release/staunton
  [ -x "$bin" ] || cargo build --release
fi
"$bin" --version
work=$(mktemp -d)
trap 'rm -rf "$work"; echo "   (${step_name:-start}: $((SECONDS - step_start)) s; all: $SECONDS s)"' EXIT

step "pycocotools, datasets and Pillow (PyPI, pinned) in a venv; PyYAML comes with datasets"
install
"$venv/bin/python" -c 'import pycocotools, datasets, PIL, yaml; print("datasets", datasets.__version__, "Pillow", PIL.__version__, "PyYAML", yaml.__version__)'

# The runs dataset_check.py reads: WORK/full, WORK/plain and WORK/shard-K (K of 3).
count=60
seed=7
step "staunton dataset: $count images of the full variety (the default), and --plain"
"$bin" dataset -o "$work/full" --count "$count" --seed "$seed"
"$bin" dataset -o "$work/plain" --count "$count" --seed "$seed" --plain
ls "$work/full"

step "staunton dataset --shard 0/3, 1/3, 2/3: the same $count images in three folders"
for shard in 0 1 2; do
  "$bin" dataset -o "$work/shard-$shard" --count "$count" --seed "$seed" --shard "$shard/3"
done

step "dataset_check.py: COCO, imagefolder, YOLO, shards, a killed run resumed, bad options"
HF_DATASETS_CACHE="$work/hf-cache" "$venv/bin/python" scripts/ci/dataset_check.py "$bin" "$work" --count "$count" --seed "$seed"

step "examples/dataset/squares.py: a square classifier's input from full/ (each board unwarped by its corners)"
"$venv/bin/python" examples/dataset/squares.py "$work/full"
"$venv/bin/python" - "$work/full" <<'PY'
import json, sys
from pathlib import Path

import numpy as np

folder = Path(sys.argv[1])
data = np.load(folder / "squares.npz")
lines = [json.loads(line) for line in open(folder / "metadata.jsonl")]
placed = sum(sum(c.isalpha() for c in line["fen"].split()[0]) for line in lines)
assert data["x"].shape == (64 * len(lines), 32, 32, 3), data["x"].shape
assert int((data["y"] < 12).sum()) == placed, (int((data["y"] < 12).sum()), placed)
print(f"squares.py: {len(data['y'])} squares of {len(lines)} images, {placed} with a piece, as the FENs say")
PY
