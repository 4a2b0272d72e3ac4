"""Chess diagrams from FEN: Staunton's renderer, without the server.

    >>> import staunton
    >>> png = staunton.png("start", size=240, last_move="e2e4", arrows=["Gg1f3"])
    >>> png[:4]
    b'\\x89PNG'

`position` is a FEN (or `start`, `empty`), or any object with a `.fen()` method such as a
`chess.Board`. The options are the HTTP service's query parameters as keyword arguments in
snake_case (`last_move`, `orientation`, `arrows`, `check="auto"`, `theme`, `caption`, …);
lists take Python lists and python-chess objects (`last_move=board.peek()`,
`arrows=[chess.svg.Arrow(chess.E2, chess.E4)]`, `squares=[chess.E4]`). A bad value raises a
`StauntonError` (a `ValueError`) with the service's own sentence; a wrong type, `TypeError`.

The bytes are those of `staunton render … -o FILE` and of the service for the same options.
Renders release the GIL, so threads render in parallel.
"""

from __future__ import annotations

from typing import Any, Optional

from . import _native, _options
from ._dataset import Dataset
from ._native import (
    FenError,
    add_fonts,
    OptionError,
    PgnError,
    RenderError,
    SnapshotMismatch,
    StauntonError,
    __version__,
)

__all__ = [
    "add_fonts",
    "png",
    "svg",
    "pdf",
    "webp",
    "gif",
    "text",
    "describe",
    "game_gif",
    "game_png",
    "Diagram",
    "Game",
    "Dataset",
    "StauntonError",
    "FenError",
    "PgnError",
    "OptionError",
    "RenderError",
    "SnapshotMismatch",
    "__version__",
]


def _render(function: str, format: str, position: Any, options: dict) -> bytes:
    pairs = _options.pairs(function, _options.position_fen(position), options)
    return _native.render(pairs, format)


def png(position: Any = None, **options: Any) -> bytes:
    """The diagram as a PNG image (8-bit palette), e.g. `png(board, size=320)`.

    `position` may be left out when `pgn` or `moves` names a game (`ply` picks the position).
    """
    return _render("png", "png", position, options)


def svg(position: Any = None, **options: Any) -> str:
    """The diagram as a self-contained SVG document (its `<title>` describes the position)."""
    return _render("svg", "svg", position, options).decode("utf-8")


def pdf(position: Any = None, **options: Any) -> bytes:
    """The diagram as a one-page vector PDF (`dpi` sets the page size; default 72)."""
    return _render("pdf", "pdf", position, options)


def webp(position: Any = None, **options: Any) -> bytes:
    """The diagram as a lossless WebP image."""
    return _render("webp", "webp", position, options)


def gif(position: Any = None, **options: Any) -> bytes:
    """The diagram as a still GIF image (for a game's animation see `game_gif`)."""
    return _render("gif", "gif", position, options)


def text(position: Any = None, **options: Any) -> str:
    """The position as a text board, for terminals and text snapshots
    (`style="figurines"` for ♔♛; `coordinates="none"` without labels)."""
    return _render("text", "txt", position, options).decode("utf-8")


def describe(position: Any = None, lang: str = "en", **options: Any) -> str:
    """The position in words, as the service's `/describe` says it (and an SVG's title):
    for the alt text of an image. With `pgn` or `moves` it names the move that led there.
    `lang` is a language code (en, de, fr, es, …)."""
    options["lang"] = lang
    pairs = _options.pairs("describe", _options.position_fen(position), options)
    return _native.describe(pairs)[0]


def _game(function: str, kind: str, pgn: Any, position: Any, options: dict) -> bytes:
    fen = _options.position_fen(position)
    pairs = _options.pairs(function, fen, options, game=True)
    text = None if pgn is None else _options.value_of("pgn", pgn)
    return _native.render_game(pairs, text, kind)


def game_gif(pgn: Any = None, *, position: Any = None, **options: Any) -> bytes:
    """A whole game as an animated GIF, one frame per ply.

    `pgn` is the game's PGN text or a `chess.pgn.Game`; or leave it out and give `moves`
    (UCI moves, a list of them or of `chess.Move`) played from `position` (default: the
    start). Besides the diagram options: `delay` and `last_delay` (hundredths of a second),
    `loop`, `from_` and `to` (an excerpt, in plies), `players` (name bars).
    """
    return _game("game_gif", "gif", pgn, position, options)


def game_png(pgn: Any = None, *, position: Any = None, **options: Any) -> bytes:
    """A whole game as an animated PNG (APNG): the options of `game_gif`, full colour."""
    return _game("game_png", "apng", pgn, position, options)


from ._display import Diagram, Game  # noqa: E402  (they use the functions above)
