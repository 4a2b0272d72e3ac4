"""Snapshot tests of chess diagrams from Python, with pytest and Staunton's command line.

    STAUNTON_BIN=target/release/staunton pytest examples/snapshots/python

Each test renders a position with `staunton render` and compares it with the committed
picture in ../expected/ using `staunton compare` (pixels within a tolerance, not bytes).
On a mismatch the test fails with compare's report and leaves the actual image and a diff
image under pytest's tmp_path. STAUNTON_UPDATE_SNAPSHOTS=1 writes the expected pictures.
"""

import os
import pathlib
import subprocess

import pytest

STAUNTON = os.environ.get("STAUNTON_BIN", "staunton")
EXPECTED = pathlib.Path(__file__).resolve().parent.parent / "expected"


def render(fen, path, *flags):
    subprocess.run([STAUNTON, "render", fen, "-o", str(path), *flags], check=True)


def assert_diagram(name, fen, tmp_path, *flags):
    expected = EXPECTED / f"{name}.png"
    actual = tmp_path / f"{name}.png"
    render(fen, actual, *flags)
    if os.environ.get("STAUNTON_UPDATE_SNAPSHOTS") == "1":
        expected.write_bytes(actual.read_bytes())
        pytest.skip(f"wrote {expected}")
    assert expected.exists(), f"no snapshot {expected}: run with STAUNTON_UPDATE_SNAPSHOTS=1"
    diff = tmp_path / f"{name}.diff.png"
    result = subprocess.run(
        [STAUNTON, "compare", str(expected), str(actual), "--diff", str(diff)],
        capture_output=True,
        text=True,
    )
    assert result.returncode == 0, f"{name}: {result.stdout}{result.stderr} (actual: {actual}, diff: {diff})"


@pytest.mark.parametrize(
    "name, fen, flags",
    [
        ("start", "start", ()),
        ("sicilian-black", "rnbqkbnr/pp1ppppp/8/2p5/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 1 2", ("--orientation", "black")),
    ],
)
def test_diagram_matches_its_snapshot(name, fen, flags, tmp_path):
    assert_diagram(name, fen, tmp_path, *flags)


def test_another_position_is_caught(tmp_path):
    # The start position after 1.e4 is not the start position: compare says so (exit 1).
    actual = tmp_path / "e4.png"
    render("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1", actual)
    result = subprocess.run(
        [STAUNTON, "compare", str(EXPECTED / "start.png"), str(actual)], capture_output=True, text=True
    )
    assert result.returncode == 1, result.stdout + result.stderr
