"""Snapshot tests of chess diagrams from Python, with pytest and the staunton package.

    pip install ./python pytest
    pytest examples/snapshots/python

The package's pytest plugin gives the `assert_diagram(name, position, **options)` fixture:
it renders the position and compares it with the committed picture NAME.png (pixels within
a tolerance, not bytes). The pictures are in ../expected/, shared with the JavaScript
example, so this module overrides `staunton_snapshot_dir` (by default it is `snapshots/`
beside the test file). On a mismatch the test fails and leaves NAME.actual.png and
NAME.diff.png beside the snapshot; `pytest --staunton-update` writes the pictures.
"""

import pathlib

import pytest

EXPECTED = pathlib.Path(__file__).resolve().parent.parent / "expected"
E4 = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1"


@pytest.fixture
def staunton_snapshot_dir():
    return EXPECTED


@pytest.mark.parametrize(
    "name, fen, options",
    [
        ("start", "start", {}),
        ("sicilian-black", "rnbqkbnr/pp1ppppp/8/2p5/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 1 2", {"orientation": "black"}),
    ],
)
def test_diagram_matches_its_snapshot(assert_diagram, name, fen, options):
    assert_diagram(name, fen, **options)


def test_another_position_is_caught(assert_diagram):
    # The start position after 1.e4 is not the start position: the comparison fails, and
    # says where it wrote the picture made and the picture of the difference.
    with pytest.raises(pytest.fail.Exception, match="snapshot start does not match"):
        assert_diagram("start", E4)
    for leftover in ["start.actual.png", "start.diff.png"]:
        (EXPECTED / leftover).unlink()
