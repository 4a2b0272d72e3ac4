"""The pytest plugin: assert_diagram keeps, compares and updates snapshots."""

TEST = """
def test_board(assert_diagram):
    assert_diagram("board", "{fen}", size=160)
"""
E4 = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1"


def test_missing_then_written_then_matching(pytester):
    pytester.makepyfile(test_board=TEST.format(fen="start"))
    result = pytester.runpytest()
    result.assert_outcomes(failed=1)
    result.stdout.fnmatch_lines(["*snapshot*board.png does not exist*"])
    snapshot = pytester.path / "snapshots" / "board.png"
    assert not snapshot.exists()

    pytester.runpytest("--staunton-update").assert_outcomes(passed=1)
    assert snapshot.read_bytes()[:4] == b"\x89PNG"
    pytester.runpytest().assert_outcomes(passed=1)


def test_a_change_fails_and_leaves_actual_and_diff(pytester):
    pytester.makepyfile(test_board=TEST.format(fen="start"))
    pytester.runpytest("--staunton-update").assert_outcomes(passed=1)
    pytester.makepyfile(test_board=TEST.format(fen=E4))
    result = pytester.runpytest()
    result.assert_outcomes(failed=1)
    result.stdout.fnmatch_lines(["*snapshot board does not match*--staunton-update*"])
    folder = pytester.path / "snapshots"
    assert (folder / "board.actual.png").exists() and (folder / "board.diff.png").exists()
    # Updating writes the new picture and clears the leftovers.
    pytester.runpytest("--staunton-update").assert_outcomes(passed=1)
    pytester.runpytest().assert_outcomes(passed=1)
    assert not (folder / "board.actual.png").exists()


def test_the_folder_and_tolerance_are_fixtures(pytester):
    pytester.makeconftest(
        """
import pathlib, pytest

@pytest.fixture
def staunton_snapshot_dir(tmp_path_factory):
    return pathlib.Path(__file__).parent / "elsewhere"

@pytest.fixture
def staunton_tolerance():
    return (255, 0)
"""
    )
    pytester.makepyfile(test_board=TEST.format(fen="start"))
    pytester.runpytest("--staunton-update").assert_outcomes(passed=1)
    assert (pytester.path / "elsewhere" / "board.png").exists()
    # Any pixel is within 255 per channel: another position still matches.
    pytester.makepyfile(test_board=TEST.format(fen=E4))
    pytester.runpytest().assert_outcomes(passed=1)


def test_bad_inputs_are_errors_not_mismatches(pytester):
    pytester.makepyfile(
        """
import staunton, pytest

def test_bad(assert_diagram):
    with pytest.raises(staunton.FenError):
        assert_diagram("bad", "not a fen")
"""
    )
    pytester.runpytest().assert_outcomes(passed=1)
