"""Diagrams and games that show themselves in Jupyter (and IPython's rich display)."""

from __future__ import annotations

import base64
import html
from typing import Any, Optional

from . import _native, _options


class Diagram:
    """A diagram that Jupyter shows: `Diagram(board, last_move=board.peek())` as the last
    expression of a cell draws the board, as SVG (crisp at any zoom) with a PNG beside it
    for viewers without SVG, and an `<img>` whose alt text describes the position.

    The options are those of `staunton.png`; they are checked when the diagram is made.
    `png()`, `svg()`, `describe()` give the renders, `save(path)` writes one by extension.
    """

    def __init__(self, position: Any = None, **options: Any) -> None:
        self.fen: Optional[str] = _options.position_fen(position)
        self.options = dict(options)
        self._pairs = _options.pairs("Diagram", self.fen, self.options)
        self._svg: Optional[str] = None
        self._png: Optional[bytes] = None
        self._alt: Optional[str] = None
        # A bad option or position fails here, not later in a notebook's display.
        self.svg()

    def svg(self) -> str:
        """The SVG document."""
        if self._svg is None:
            self._svg = _native.render(self._pairs, "svg").decode("utf-8")
        return self._svg

    def png(self) -> bytes:
        """The PNG image."""
        if self._png is None:
            self._png = _native.render(self._pairs, "png")
        return self._png

    def render(self, format: str) -> bytes:
        """The diagram in `format`: png, svg, pdf, webp, gif or txt."""
        return _native.render(self._pairs, format)

    def describe(self) -> str:
        """The position in words (in the `lang` option's language), the image's alt text."""
        if self._alt is None:
            self._alt = _native.describe(self._pairs)[0]
        return self._alt

    def save(self, path: Any) -> None:
        """Write the diagram to `path`, in the format its extension names."""
        name = str(path)
        extension = name.rsplit(".", 1)[-1].lower() if "." in name else ""
        # The crate names the formats (an OptionError of `format` for any other).
        data = self.render(extension)
        with open(path, "wb") as out:
            out.write(data)

    def _repr_svg_(self) -> str:
        return self.svg()

    def _repr_png_(self) -> bytes:
        return self.png()

    def _repr_html_(self) -> str:
        data = base64.b64encode(self.svg().encode("utf-8")).decode("ascii")
        alt = html.escape(self.describe(), quote=True)
        return f'<img src="data:image/svg+xml;base64,{data}" alt="{alt}" title="{alt}"/>'

    def __repr__(self) -> str:
        shown = ", ".join(f"{k}={v!r}" for k, v in self.options.items())
        return f"Diagram({self.fen!r}{', ' if shown else ''}{shown})"


class Game:
    """A game that Jupyter shows as its animation (an animated PNG, and an `<img>` with
    alt text); `game[12]` is the `Diagram` of the position after ply 12 (`game[0]` the
    start, `game[-1]` the end), with its last move tinted.

    `pgn` is the PGN text or a `chess.pgn.Game`; or give `moves` (and `position`). The
    options are the diagram options plus the animation's (`delay`, `last_delay`, `loop`,
    `from_`, `to`, `players`); a diagram taken by index keeps the diagram options.
    """

    def __init__(self, pgn: Any = None, *, position: Any = None, **options: Any) -> None:
        self.fen: Optional[str] = _options.position_fen(position)
        self.pgn: Optional[str] = None if pgn is None else _options.value_of("pgn", pgn)
        self.options = dict(options)
        self._pairs = _options.pairs("Game", self.fen, self.options, game=True)
        self._diagram_options = {
            k: v
            for k, v in self.options.items()
            if _options._SPELLINGS.get(k.rstrip("_").lower(), ("", "game"))[1] == "image"
        }
        if self.pgn is not None:
            self._diagram_options["pgn"] = self.pgn
        text, plies = _native.describe(self._game_pairs())
        if plies is None:
            raise _native.PgnError("pgn is missing: give the game as pgn or as moves")
        self.plies: int = plies
        self._final_description = text
        self._apng: Optional[bytes] = None

    def _game_pairs(self) -> _options.Pairs:
        pgn = [] if self.pgn is None else [("pgn", self.pgn)]
        return self._pairs + pgn

    def __len__(self) -> int:
        """The number of positions: the plies and the start."""
        return self.plies + 1

    def __getitem__(self, ply: int) -> Diagram:
        if not isinstance(ply, int) or isinstance(ply, bool):
            raise TypeError(f"a game is indexed by ply (an int), not {type(ply).__name__}")
        index = ply + len(self) if ply < 0 else ply
        if not 0 <= index < len(self):
            raise IndexError(f"ply {ply} is outside the game: it has {self.plies} plies")
        return Diagram(self.fen, ply=index, **self._diagram_options)

    def gif(self) -> bytes:
        """The animation as a GIF."""
        return _native.render_game(self._pairs, self.pgn, "gif")

    def apng(self) -> bytes:
        """The animation as an animated PNG."""
        if self._apng is None:
            self._apng = _native.render_game(self._pairs, self.pgn, "apng")
        return self._apng

    def describe(self) -> str:
        """The game's last position in words, after its last move."""
        return self._final_description

    def _repr_png_(self) -> bytes:
        return self.apng()

    def _repr_html_(self) -> str:
        data = base64.b64encode(self.apng()).decode("ascii")
        alt = html.escape(
            f"An animation of a game of {self.plies} plies. At the end: {self.describe()}",
            quote=True,
        )
        return f'<img src="data:image/png;base64,{data}" alt="{alt}" title="{alt}"/>'

    def __repr__(self) -> str:
        return f"Game({self.plies} plies)"
