"""Every function and format, and bytes equal to the crate's for the golden cases."""

import os
import pathlib
import shutil
import subprocess
import urllib.parse

import pytest

import staunton
from conftest import FIXTURES, fnv1a

E4 = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1"
GAME = "1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 4. Ba4 Nf6"


def test_each_format_has_its_signature():
    assert staunton.png(E4)[:8] == b"\x89PNG\r\n\x1a\n"
    assert staunton.svg(E4).startswith("<svg") and staunton.svg(E4).rstrip().endswith("</svg>")
    assert staunton.pdf(E4).startswith(b"%PDF-")
    webp = staunton.webp(E4)
    assert webp[:4] == b"RIFF" and webp[8:12] == b"WEBP"
    assert staunton.gif(E4)[:6] == b"GIF89a"
    board = staunton.text(E4)
    assert "4 | . . . . P . . . |" in board and board.endswith("Black to move\n")


def test_size_is_the_png_width_and_height():
    png = staunton.png("start", size=240)
    assert int.from_bytes(png[16:20], "big") == 240 and int.from_bytes(png[20:24], "big") == 240


def test_options_change_the_image():
    plain = staunton.png(E4)
    for options in [
        dict(last_move="e2e4"),
        dict(orientation="black"),
        dict(arrows=["Ge2e4"]),
        dict(squares=["d5"]),
        dict(highlight=["Ge4"]),
        dict(theme="blue"),
        dict(coordinates="none"),
        dict(turn=True),
        dict(caption="After 1. e4"),
        dict(background="dark"),
    ]:
        assert staunton.png(E4, **options) != plain, options


def test_text_styles():
    assert "♙" in staunton.text(E4, style="figurines")
    assert "a b c" not in staunton.text(E4, coordinates="none")


def test_describe_in_languages():
    assert staunton.describe("8/8/8/8/8/8/8/k6K w").startswith("White: King h1. Black: King a1.")
    assert staunton.describe("8/8/8/8/8/8/8/k6K w", lang="de").startswith("Weiß: König h1.")
    after = staunton.describe(pgn=GAME, ply=3)
    assert after.startswith("After 2. Nf3.")


def test_a_position_of_a_game():
    # The position after 2. Nf3 from the PGN is that FEN with its last move tinted.
    fen = "rnbqkbnr/pppp1ppp/8/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 1 2"
    assert staunton.png(pgn=GAME, ply=3) == staunton.png(fen, last_move="g1f3")
    assert staunton.png(moves="e2e4 e7e5 g1f3") == staunton.png(fen, last_move="g1f3")
    assert staunton.png(moves=["e2e4", "e7e5", "g1f3"]) == staunton.png(fen, last_move="g1f3")


def test_game_animations():
    gif = staunton.game_gif(GAME)
    assert gif[:6] == b"GIF89a" and gif.count(b"\x21\xf9\x04") == 9  # a frame per position
    apng = staunton.game_png(GAME, delay=50, loop=False)
    assert apng[:8] == b"\x89PNG\r\n\x1a\n" and b"acTL" in apng
    assert int.from_bytes(apng[apng.index(b"acTL") + 4 :][:4], "big") == 9
    excerpt = staunton.game_gif(GAME, from_=2, to=4)
    assert excerpt.count(b"\x21\xf9\x04") == 3
    assert staunton.game_gif(moves=["e2e4", "e7e5"], size=160)[:6] == b"GIF89a"


def test_positions_kwargs_equal_query_spellings():
    # camelCase, snake_case and aliases are the same parameter, as in a URL.
    a = staunton.png(E4, last_move="e2e4", coordinates="none")
    assert staunton.png(E4, lastMove="e2e4", coords="none") == a


def read_cases():
    cases = []
    for line in (FIXTURES / "render-cases.txt").read_text().splitlines():
        line = line.strip()
        if line and not line.startswith("#"):
            name, query = line.split(" ", 1)
            cases.append((name, query))
    return cases


def recorded_hashes():
    hashes = {}
    for line in (FIXTURES / "render-hashes.txt").read_text().splitlines():
        name, fmt, value = line.split()
        hashes[(name, fmt)] = value
    return hashes


def call(query, fmt):
    """Render a case's query with the package: its pairs as keyword arguments."""
    pairs = urllib.parse.parse_qsl(query, keep_blank_values=True)
    options = dict(pairs)
    fen = options.pop("fen", None)
    function = staunton.text if fmt == "txt" else getattr(staunton, fmt)
    out = function(fen, **options)
    return out.encode("utf-8") if isinstance(out, str) else out


CASES = read_cases()
HASHES = recorded_hashes()


@pytest.mark.parametrize("name, query", CASES, ids=[c[0] for c in CASES])
def test_golden_case_bytes_are_the_recorded_ones(name, query):
    # render-hashes.txt is FNV-1a of the bytes of every format (scripts/ci/record-hashes.sh).
    for fmt in ["png", "svg", "pdf", "webp", "gif", "txt"]:
        try:
            made = call(query, fmt)
        except staunton.OptionError as refused:
            # The recorder renders every format; a request (the service's, the command
            # line's, this package's) refuses a transparent page in a palette format.
            assert fmt in ("webp", "gif") and "transparent" in str(refused), (name, fmt)
            continue
        assert f"{fnv1a(made):016x}" == HASHES[(name, fmt)], (name, fmt)


def cli_flags(query, tmp_path):
    flags = []
    for key, value in urllib.parse.parse_qsl(query, keep_blank_values=True):
        if key == "fen":
            continue
        if key == "pgn":
            path = tmp_path / "game.pgn"
            path.write_text(value)
            value = str(path)
        if key == "turn":
            flags.append("--turn")
            continue
        flags += ["--" + "".join("-" + c.lower() if c.isupper() else c for c in key), value]
    return flags


CLI = os.environ.get("STAUNTON_BIN") or shutil.which("staunton")


@pytest.mark.skipif(not CLI, reason="set STAUNTON_BIN to the staunton binary built from this tree")
@pytest.mark.parametrize("name, query", CASES, ids=[c[0] for c in CASES])
def test_golden_case_bytes_equal_the_command_line(name, query, tmp_path):
    given = dict(urllib.parse.parse_qsl(query))
    if "pgn" in given and "ply" not in given and "move" not in given:
        pytest.skip("the command line animates a whole --pgn game written to .png")
    for fmt in ["png", "svg", "webp", "txt"]:
        out = tmp_path / f"{name}.{fmt}"
        fen = [given["fen"]] if "fen" in given else []
        args = [CLI, "render", *fen, *cli_flags(query, tmp_path), "-o", str(out)]
        ran = subprocess.run(args, capture_output=True, text=True)
        if ran.returncode != 0:
            # Refused there, refused here, in the same words.
            with pytest.raises(staunton.StauntonError) as refused:
                call(query, fmt)
            assert str(refused.value) in ran.stderr, (name, fmt)
            continue
        assert call(query, fmt) == out.read_bytes(), (name, fmt)


@pytest.mark.skipif(not CLI, reason="set STAUNTON_BIN to the staunton binary built from this tree")
def test_game_animations_equal_the_command_line(tmp_path):
    pgn = tmp_path / "game.pgn"
    pgn.write_text(GAME)
    for suffix, function in [("gif", staunton.game_gif), ("png", staunton.game_png)]:
        out = tmp_path / f"game.{suffix}"
        subprocess.run([CLI, "render", "--pgn", str(pgn), "--size", "200", "--delay", "40", "-o", str(out)], check=True)
        assert function(GAME, size=200, delay=40) == out.read_bytes(), suffix


FAIRY = "8/8/5C2/8/4-*1k3/2''125/8/3*2Q4 w - - 0 1"
GRAND = "r8r/1nbqkcabn1/pppppppppp/10/10/10/10/PPPPPPPPPP/1NBQKCABN1/R8R w - - 0 1"


def png_size(png):
    return int.from_bytes(png[16:20], "big"), int.from_bytes(png[20:24], "big")


def test_fairy_fen_and_boards_of_any_size():
    described = staunton.describe(FAIRY, dialect="fairy")
    assert "Neutral: King (turned a quarter to the right) e4" in described
    assert "Queen (upside down) d1" in described and "Text: “12” c3" in described
    assert staunton.png(FAIRY, dialect="fairy")[:8] == b"\x89PNG\r\n\x1a\n"
    with pytest.raises(staunton.FenError):
        staunton.png(FAIRY)  # the standard dialect has no neutral or turned pieces
    assert staunton.describe(GRAND).startswith("A 10×10 board.")
    assert "10 | r . . . . . . . . r |" in staunton.text(GRAND)
    assert png_size(staunton.png("8/8/8/8/8/8/8", board="8x7", size=320, coordinates="none")) == (320, 280)


def test_markers_dots_legal_moves_and_regions():
    plain = staunton.png("start")
    for options in [dict(marks="circle:e4"), dict(dots="e3,e4"), dict(legal_moves="g1")]:
        assert staunton.png("start", **options) != plain, options
    width, height = png_size(staunton.png("start", region="a1:h4", size=320))
    assert width > height, (width, height)
    with pytest.raises(staunton.OptionError) as info:
        staunton.png("start", region="a1:q4")
    assert info.value.param == "region"
