"""Snapshot tests of chess diagrams with pytest (installed with the package: entry point
`pytest11`, nothing to configure).

    def test_opening(assert_diagram):
        assert_diagram("italian", "r1bqk1nr/pppp1ppp/2n5/2b1p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4",
                       last_move="f8c5", size=320)

The snapshot is `snapshots/NAME.png` in the folder of the test file (so `tests/snapshots/`
for tests in `tests/`); override the `staunton_snapshot_dir` fixture to keep them
elsewhere. The diagram is compared with it by decoded pixels within a tolerance (3 per
channel, no pixel over it: override `staunton_tolerance` to loosen it), never by bytes. On a
mismatch the test fails and `NAME.actual.png` and `NAME.diff.png` are written beside the
snapshot. `pytest --staunton-update` (or `STAUNTON_UPDATE_SNAPSHOTS=1`) writes snapshots that
are missing or differ; look at them and commit them.
"""

from __future__ import annotations

import pathlib
from typing import Any, Callable, Tuple

import pytest

from . import _native, _options


def pytest_addoption(parser: Any) -> None:
    group = parser.getgroup("staunton", "chess diagram snapshots (staunton)")
    group.addoption(
        "--staunton-update",
        action="store_true",
        default=False,
        help="write diagram snapshots that are missing or differ, instead of failing",
    )


@pytest.fixture
def staunton_snapshot_dir(request: Any) -> pathlib.Path:
    """The folder of the snapshots: `snapshots/` beside the test file."""
    return pathlib.Path(str(request.node.path)).parent / "snapshots"


@pytest.fixture
def staunton_tolerance() -> Tuple[int, int]:
    """(largest difference per channel, pixels allowed over it)."""
    return (3, 0)


@pytest.fixture
def assert_diagram(
    request: Any, staunton_snapshot_dir: pathlib.Path, staunton_tolerance: Tuple[int, int]
) -> Callable[..., None]:
    """`assert_diagram(name, position, **options)`: render the diagram (the options of
    `staunton.png`) and compare it with snapshot `name`; fails the test on a mismatch."""
    # True writes; None leaves it to STAUNTON_UPDATE_SNAPSHOTS, as the Rust tests do.
    update = True if request.config.getoption("staunton_update") else None
    channel, pixels = staunton_tolerance

    def check(name: str, position: Any = None, **options: Any) -> None:
        __tracebackhide__ = True
        pairs = _options.pairs("assert_diagram", _options.position_fen(position), options)
        try:
            message, written = _native.snapshot(
                pairs, staunton_snapshot_dir, name, update, channel, pixels
            )
        except _native.SnapshotMismatch as mismatch:
            pytest.fail(str(mismatch).replace(
                "run the test with STAUNTON_UPDATE_SNAPSHOTS=1",
                "run pytest with --staunton-update (or STAUNTON_UPDATE_SNAPSHOTS=1)",
            ), pytrace=False)
        if written:
            print(message)

    return check
