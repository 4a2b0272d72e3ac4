"""Keyword arguments to the service's query pairs.

The pairs are read by the crate's own request parser (in `_native`), so every option of the
HTTP service works here and a bad value raises the sentence the service answers with a 400.
This module only spells Python values (lists, python-chess objects, ints, bools) the way a
query writes them; it knows python-chess by duck typing, never by import.
"""

from __future__ import annotations

import keyword
import re
from typing import Any, Dict, Iterable, List, Optional, Tuple

from . import _native

# spelling (lower case) -> (canonical name, "image" or "game"), from the crate's tables.
_SPELLINGS: Dict[str, Tuple[str, str]] = {
    spelling.lower(): (name, kind)
    for name, spellings, kind, _ in _native.parameters()
    for spelling in spellings
}
# canonical name -> what a list's items are joined by, for the parameters that take lists.
_SEPARATORS: Dict[str, str] = {
    name: separator
    for name, _, _, separator in _native.parameters()
    if separator is not None
}

_FILES = "abcdefghijklmnop"
_COLOURS = {"green": "G", "red": "R", "yellow": "Y", "blue": "B"}

Pairs = List[Tuple[str, str]]


def position_fen(position: Any) -> Optional[str]:
    """A FEN string, or the `.fen()` of an object that has one (a `chess.Board`)."""
    if position is None or isinstance(position, str):
        return position
    fen = getattr(position, "fen", None)
    if callable(fen):
        value = fen()
        if isinstance(value, str):
            return value
    raise TypeError(
        f"position must be a FEN string or an object with a .fen() method (a chess.Board), "
        f"not {type(position).__name__}"
    )


def option_error(param: str, message: str) -> Exception:
    """An OptionError raised here, shaped like the crate's (its `param` set)."""
    error = _native.OptionError(message)
    error.param = param
    return error


def square(param: str, value: Any) -> str:
    """A square name: given as one (`"e4"`) or as a python-chess square (0 = a1 … 63 = h8)."""
    if isinstance(value, str):
        return value
    if isinstance(value, int) and not isinstance(value, bool):
        if 0 <= value < 64:
            return f"{_FILES[value % 8]}{value // 8 + 1}"
        raise option_error(
            param,
            f"{param} {value} is not allowed: a square number is a python-chess square, "
            f"0 (a1) to 63 (h8)",
        )
    raise TypeError(f"a square of {param} must be a str or an int, not {type(value).__name__}")


def colour(param: str, value: Any) -> str:
    """A mark colour letter (G, R, Y, B) from a letter or a name (python-chess's too)."""
    if isinstance(value, str):
        letter = _COLOURS.get(value.lower(), value.upper() if len(value) == 1 else None)
        if letter is not None and letter in _COLOURS.values():
            return letter
    raise option_error(
        param,
        f"{param} colour {value!r} is not allowed: expected green, red, yellow or blue "
        f"(or G, R, Y, B)",
    )


def arrow(value: Any) -> str:
    """One arrow or circle: `"Ge2e4"`, `("e2", "e4")`, `("e2", "e4", "red")`, or an
    object with `tail`, `head` and `color` (a `chess.svg.Arrow`; tail == head is a circle)."""
    if isinstance(value, str):
        return value
    if hasattr(value, "tail") and hasattr(value, "head"):
        value = (value.tail, value.head, getattr(value, "color", "green"))
    if isinstance(value, (tuple, list)) and len(value) in (2, 3):
        tail, head = square("arrows", value[0]), square("arrows", value[1])
        letter = colour("arrows", value[2]) if len(value) == 3 else "G"
        return f"{letter}{tail}{head}"
    raise TypeError(
        f"an arrow must be a str ('Ge2e4'), a tuple (tail, head[, colour]) or a "
        f"chess.svg.Arrow, not {type(value).__name__}"
    )


def highlight(value: Any) -> List[str]:
    """Coloured squares: `"Ge4"` strings, `(square, colour)` pairs, or a dict
    `{square: colour}` (python-chess's `fill`)."""
    if isinstance(value, dict):
        value = value.items()
    marks = []
    for item in value:
        if isinstance(item, str):
            marks.append(item)
        elif isinstance(item, (tuple, list)) and len(item) == 2:
            marks.append(colour("highlight", item[1]) + square("highlight", item[0]))
        else:
            raise TypeError(
                f"a highlight must be a str ('Ge4') or a (square, colour) pair, "
                f"not {type(item).__name__}"
            )
    return marks


def move(value: Any) -> str:
    """A move in UCI: a str, or an object with `.uci()` (a `chess.Move`)."""
    if isinstance(value, str):
        return value
    uci = getattr(value, "uci", None)
    if callable(uci):
        return uci()
    raise TypeError(f"a move must be a str or have a .uci() method (a chess.Move), not {type(value).__name__}")


def items(param: str, value: Any) -> Iterable[Any]:
    if isinstance(value, (str, bytes)) or not hasattr(value, "__iter__"):
        raise TypeError(f"{param} must be a str or a list, not {type(value).__name__}")
    return value


def scalar(param: str, value: Any) -> str:
    if isinstance(value, bool):
        return "1" if value else "0"
    if isinstance(value, (str, int)):
        return str(value)
    raise TypeError(f"{param} must be a str, an int or a bool, not {type(value).__name__}")


# How the items of some lists are spelt from Python values (python-chess's among them);
# any other list's items are strings.
_ITEMS = {"arrows": arrow, "squares": lambda s: square("squares", s), "moves": move}


def value_of(name: str, value: Any) -> str:
    """The query value of parameter `name` (canonical) given as `value`: a list's items are
    joined by the separator the crate's parameter table gives it."""
    if isinstance(value, str):
        return value
    if name == "lastMove":
        return move(value)
    if name == "check":
        if isinstance(value, bool):
            return "auto"
        return square("check", value)
    if name == "pgn" and hasattr(value, "mainline_moves"):
        return str(value)  # a chess.pgn.Game prints as its PGN
    separator = _SEPARATORS.get(name)
    if separator is None:
        return scalar(name, value)
    if name == "highlight":
        return separator.join(highlight(value if isinstance(value, dict) else items(name, value)))
    spell = _ITEMS.get(name, lambda item: _item(name, item))
    return separator.join(spell(item) for item in items(name, value))


def _item(param: str, value: Any) -> str:
    if isinstance(value, str):
        return value
    raise TypeError(f"an item of {param} must be a str, not {type(value).__name__}")


def _keyword(spelling: str) -> str:
    """A parameter's spelling as a Python keyword: snake_case, `from_` for `from`."""
    snake = re.sub(r"(?<=[a-z0-9])([A-Z])", r"_\1", spelling).lower()
    return snake + "_" if keyword.iskeyword(snake) else snake


def _unexpected(function: str, key: str, hint: str, suggestion: Optional[str]) -> TypeError:
    error = TypeError(f"{function}() got an unexpected keyword argument {key!r}{hint}")
    error.suggestion = suggestion  # type: ignore[attr-defined]
    return error


def pairs(
    function: str, fen: Optional[str], options: Dict[str, Any], game: bool = False
) -> Pairs:
    """The query pairs of a call: `fen` first, then each option under its canonical name.

    An unknown keyword is a TypeError (the service ignores unknown names; a misspelt
    keyword in code is a bug). `None` leaves an option out, and `check=False` too.
    """
    out: Pairs = [] if fen is None else [("fen", fen)]
    for key, value in options.items():
        # `from` is a Python keyword: `from_=10` stands for it.
        found = _SPELLINGS.get(key.rstrip("_").lower())
        if found is None or found[0] in ("fen", "format") or (found[1] == "game" and not game):
            hint = {
                "fen": ": the position is the first argument",
                "format": ": the function names the format",
            }.get(found[0] if found else "", "")
            # The nearest parameter is the crate's choice, as the service's warning makes it.
            near = None if found else _native.suggestion(key, game)
            if near is not None and near not in ("fen", "format"):
                hint = f": did you mean {_keyword(near)}?"
            raise _unexpected(function, key, hint, near)
        name = found[0]
        if game and name in ("ply", "move"):
            raise TypeError(
                f"{function}() shows every ply: choose an excerpt with from_ and to, "
                f"not {key!r}"
            )
        if value is None or (name == "check" and value is False):
            continue
        out.append((name, value_of(name, value)))
    return out
