"""The Python door against the crate: each case of the parity corpus
(tests/fixtures/doors.json) gives the crate's own answer (doors-answers.txt, which the
crate's `embed` unit test checks): the same bytes, or the same parameter, sentence and
suggestion. The npm package's js/test/doors.test.mjs holds the JavaScript door to it too."""

import json
from typing import Any, Dict, List

import pytest

import staunton
from conftest import FIXTURES, fnv1a

CASES: List[Dict[str, Any]] = json.loads((FIXTURES / "doors.json").read_text("utf-8"))["cases"]
ANSWERS = {
    line.split("\t")[0]: line.split("\t")[1:]
    for line in (FIXTURES / "doors-answers.txt").read_text("utf-8").splitlines()
}


def value(given: Any) -> Any:
    """A corpus value as Python gives it: `{repeat, times}` written out."""
    if isinstance(given, dict):
        return given["repeat"] * given["times"]
    return given


def call(case: Dict[str, Any]) -> bytes:
    options = {key: value(v) for key, v in case["options"].items()}
    function = case["call"]
    if function == "game_gif":
        pgn = case.get("pgn")
        return staunton.game_gif(None if pgn is None else value(pgn), **options)
    out = getattr(staunton, function)(case.get("position"), **options)
    return out.encode("utf-8") if isinstance(out, str) else out


def test_every_case_has_an_answer():
    assert [c["name"] for c in CASES] == list(ANSWERS)


@pytest.mark.parametrize("case", CASES, ids=[c["name"] for c in CASES])
def test_the_python_door_answers_as_the_crate(case):
    answer = ANSWERS[case["name"]]
    if answer[0] == "ok":
        assert f"{fnv1a(call(case)):016x}" == answer[1]
        return
    _, param, suggestion, sentence = answer
    if param == "":
        # A name that is no parameter: a TypeError of the call, with the crate's suggestion.
        with pytest.raises(TypeError) as raised:
            call(case)
        assert getattr(raised.value, "suggestion", "missing") == (suggestion or None)
        return
    with pytest.raises(staunton.StauntonError) as raised:
        call(case)
    assert (raised.value.param, str(raised.value)) == (param, sentence)
