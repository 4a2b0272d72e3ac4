"""Errors: the service's sentences as exceptions, TypeError for a wrong type, and no input
that crashes the interpreter or leaks a PanicException."""

import random

import pytest

import staunton


def raises(kind, function, *args, **kwargs):
    with pytest.raises(kind) as info:
        function(*args, **kwargs)
    return info.value


def test_the_hierarchy():
    for kind in [staunton.FenError, staunton.PgnError, staunton.OptionError, staunton.RenderError]:
        assert issubclass(kind, staunton.StauntonError)
    assert issubclass(staunton.StauntonError, ValueError)
    assert staunton.FenError.__module__ == "staunton"


def test_a_bad_fen_is_a_fen_error_with_the_services_sentence():
    error = raises(staunton.FenError, staunton.png, "rnbqkbnr/pppppppp/8/8")
    assert str(error) == (
        'fen "rnbqkbnr/pppppppp/8/8" is not a valid FEN: placement has 4 ranks, '
        'expected 8 ranks separated by "/" (a board that is neither square nor 8 ranks '
        'tall needs its size: board=8x4)'
    )
    assert error.param == "fen"


def test_bad_options_are_option_errors_naming_the_parameter():
    error = raises(staunton.OptionError, staunton.png, "start", size=9000)
    assert str(error) == 'size "9000" is not allowed: expected a whole number of pixels from 16 to 2048'
    assert error.param == "size"
    error = raises(staunton.OptionError, staunton.svg, "start", orientation="up")
    assert str(error) == 'orientation "up" is not allowed: expected white, black or turn'
    error = raises(staunton.OptionError, staunton.png, "start", pieces="nope")
    assert error.param == "pieces" and "staunton-classic" in str(error)
    error = raises(staunton.OptionError, staunton.png, "start", arrows=[("e2", "e4", "purple")])
    assert "purple" in str(error)
    error = raises(staunton.OptionError, staunton.png, "start", squares=[64])
    assert error.param == "squares" and "0 (a1) to 63 (h8)" in str(error)


def test_game_errors_are_pgn_errors():
    error = raises(staunton.PgnError, staunton.png, pgn="1. e4 e5 2. Ke3 Ke6 3. Qh9")
    assert error.param == "pgn"
    error = raises(staunton.PgnError, staunton.png, pgn="1. e4 e5", ply=7)
    assert error.param == "ply"
    error = raises(staunton.PgnError, staunton.game_gif, "1. e4 e5", from_=2, to=1)
    assert str(error) == "from 2 is after to 1: the excerpt would be empty"
    raises(staunton.PgnError, staunton.game_gif)
    raises(staunton.PgnError, staunton.Game, moves="e2e5")


def test_value_errors_are_catchable_as_value_error():
    with pytest.raises(ValueError):
        staunton.png("not a fen")


def test_wrong_types_are_type_errors():
    raises(TypeError, staunton.png, 42)
    raises(TypeError, staunton.png, "start", size=2.5)
    raises(TypeError, staunton.png, "start", arrows=42)
    raises(TypeError, staunton.png, "start", arrows=[object()])
    raises(TypeError, staunton.png, "start", squares=[1.5])
    raises(TypeError, staunton.png, "start", last_move=object())
    error = raises(TypeError, staunton.png, "start", sizee=240)
    assert "sizee" in str(error)
    assert "first argument" in str(raises(TypeError, staunton.png, "start", fen="start"))
    raises(TypeError, staunton.png, "start", format="svg")
    raises(TypeError, staunton.png, "start", delay=20)  # an animation's option
    raises(TypeError, staunton.game_gif, "1. e4", ply=1)


def test_a_misspelt_keyword_names_the_nearest_one():
    error = str(raises(TypeError, staunton.png, "start", sise=300))
    assert error == "png() got an unexpected keyword argument 'sise': did you mean size?"
    error = str(raises(TypeError, staunton.svg, "start", orientaton="black"))
    assert error.endswith(": did you mean orientation?"), error
    error = str(raises(TypeError, staunton.png, "start", last_mov="e2e4"))
    assert error.endswith(": did you mean last_move?"), error
    assert str(raises(TypeError, staunton.game_gif, "1. e4", frm=2)).endswith(
        ": did you mean from_?"
    )
    # Nothing close: no guess.
    error = str(raises(TypeError, staunton.png, "start", wibble=1))
    assert error == "png() got an unexpected keyword argument 'wibble'"


def test_hostile_values_never_crash():
    # Random bytes, huge numbers, control characters and unicode in every parameter:
    # each call returns an image or raises a StauntonError, nothing else.
    rng = random.Random(20261126)
    names = ["size", "orientation", "coordinates", "pieces", "theme", "light", "dark",
             "background", "labels", "caption", "last_move", "check", "arrows", "squares",
             "highlight", "annotations", "pgn", "moves", "ply", "move", "glyph", "dpi", "turn",
             "lang", "style"]
    alphabet = "abcdefgh12345678KQRBNPkqrbnp/ -_,.%[]#@!?0x\u00e9\u265a\x00\x7f\ud7ff"
    values = ["", "-1", "99999999999999999999", "1e9", "NaN", "\x00", "a" * 5000]
    for _ in range(400):
        value = rng.choice(values) if rng.random() < 0.3 else "".join(
            rng.choice(alphabet) for _ in range(rng.randint(1, 30)))
        options = {rng.choice(names): value}
        fen = rng.choice(["start", "8/8/8/8/8/8/8/8", "".join(rng.choice(alphabet) for _ in range(20))])
        for function in (staunton.png, staunton.svg, staunton.text):
            try:
                function(fen, **options)
            except staunton.StauntonError:
                pass


def test_a_long_game_and_large_size_are_bounded_not_crashing():
    moves = ["g1f3", "g8f6", "f3g1", "f6g8"] * 260  # 1040 plies: over the limit
    raises(staunton.PgnError, staunton.game_gif, moves=moves)
