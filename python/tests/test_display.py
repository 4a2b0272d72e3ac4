"""Diagram and Game: what Jupyter shows."""

import base64
import re

import pytest

import staunton

GAME = "1. e4 e5 2. Nf3 Nc6 3. Bb5 a6"


def test_a_diagram_shows_svg_png_and_an_img_with_alt_text():
    d = staunton.Diagram("start", size=240, last_move="e2e4")
    assert d._repr_svg_() == staunton.svg("start", size=240, last_move="e2e4")
    assert d._repr_png_() == staunton.png("start", size=240, last_move="e2e4")
    html = d._repr_html_()
    alt = re.search(r'alt="([^"]*)"', html).group(1)
    assert alt.startswith("White: King e1")
    data = re.search(r"base64,([^\"]*)", html).group(1)
    assert base64.b64decode(data).decode() == d.svg()
    assert repr(d) == "Diagram('start', size=240, last_move='e2e4')"


def test_a_diagram_checks_its_options_when_made():
    with pytest.raises(staunton.OptionError):
        staunton.Diagram("start", size=1)
    with pytest.raises(TypeError):
        staunton.Diagram("start", colour="red")


def test_a_diagram_saves_by_extension(tmp_path):
    d = staunton.Diagram("start")
    d.save(tmp_path / "a.pdf")
    assert (tmp_path / "a.pdf").read_bytes() == staunton.pdf("start")
    # The crate's sentence for a bad format, its list from the crate's table.
    with pytest.raises(staunton.OptionError, match="expected png, svg, pdf, webp, gif or txt"):
        d.save(tmp_path / "a.jpeg")
    assert not (tmp_path / "a.jpeg").exists()


def test_a_game_takes_the_options_it_is_animated_with():
    g = staunton.Game(GAME, size=200, delay=60, last_delay=200)
    assert g.plies == 6
    assert g.gif() == staunton.game_gif(GAME, size=200, delay=60, last_delay=200)
    assert g.describe() == staunton.Game(GAME, size=200).describe()


def test_a_game_is_its_animation_and_indexes_its_plies():
    g = staunton.Game(GAME, size=200)
    assert len(g) == 7 and g.plies == 6
    assert g._repr_png_() == staunton.game_png(GAME, size=200)
    assert g.gif() == staunton.game_gif(GAME, size=200)
    assert 'alt="An animation of a game of 6 plies. At the end: After 3...a6.' in g._repr_html_()
    third = g[3]
    assert isinstance(third, staunton.Diagram)
    assert third.png() == staunton.png(pgn=GAME, ply=3, size=200)
    assert g[-1].png() == staunton.png(pgn=GAME, size=200)
    assert g[0].describe().startswith("White: King e1")
    with pytest.raises(IndexError):
        g[7]
    with pytest.raises(TypeError):
        g["3"]


def test_a_game_of_moves_keeps_its_start():
    g = staunton.Game(moves=["e1e2"], position="4k3/8/8/8/8/8/8/4K3 w - - 0 1")
    assert g[1].png() == staunton.png("4k3/8/8/8/8/8/8/4K3 w - - 0 1", moves="e1e2")
