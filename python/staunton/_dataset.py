"""Training data for board recognition: `staunton.Dataset`, the images of
`staunton dataset` made in Python, each with its labels.

    >>> import staunton
    >>> data = staunton.Dataset(count=100, seed=7, arrows=0.5, jpeg=0)
    >>> image, labels = data[41]
    >>> labels["file_name"], len(labels["squares"])
    ('images/00000041.png', 64)

Image `i` depends on the seed and `i` alone: `data[i]` is the image `staunton dataset -o DIR
--count N --seed S` writes as `DIR/images/…`, byte for byte, and its labels are that
image's line of `DIR/metadata.jsonl` (a dict: `fen`, `orientation`, `corners`, `squares`,
`pieces`, `arrows`, `highlights`, `markers`, `last_move`, `check`, `style`). The parts of
the variety are keyword arguments (`last_move=0.5`, `size="200-400"`,
`theme="blue:1,random:3"`), as `--vary` takes them; `plain=True` turns every part off first.
Making an image releases the GIL, so threads (a `torch` DataLoader's workers) make images in
parallel.
"""

from __future__ import annotations

import json
import os
from typing import Any, Dict, Iterator, Optional, Tuple, Union

from . import _native

Path = Union[str, "os.PathLike[str]"]


class Dataset:
    """`count` labelled images: index it (`data[i]`), iterate it, or take its length.

    Each item is `(image, labels)`: the encoded image (PNG or JPEG bytes; open it with
    `PIL.Image.open(io.BytesIO(image))`) and its labels as a dict. A bad part or file
    raises `staunton.OptionError` naming it, when the dataset is made.
    """

    def __init__(
        self,
        count: int = 1000,
        seed: int = 0,
        *,
        positions: Optional[Path] = None,
        plain: bool = False,
        pieces_dir: Optional[Path] = None,
        backgrounds: Optional[Path] = None,
        **vary: Any,
    ) -> None:
        if isinstance(count, bool) or not isinstance(count, int) or not 1 <= count <= 10_000_000:
            raise _native.OptionError(f"count={count!r}: a dataset has from 1 to 10000000 images.")
        if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed < 2**64:
            raise _native.OptionError(f"seed={seed!r}: a seed is an integer from 0 to 2**64 - 1.")
        pairs = [(name, _value(value)) for name, value in vary.items()]
        self._native = _native.Dataset(
            seed, pairs, plain, _path(positions), _path(pieces_dir), _path(backgrounds)
        )
        self.count = count
        self.seed = seed

    def __len__(self) -> int:
        return self.count

    def __getitem__(self, index: int) -> Tuple[bytes, Dict[str, Any]]:
        if isinstance(index, bool) or not isinstance(index, int):
            raise TypeError(f"a dataset is indexed by an integer, not {type(index).__name__}")
        if index < 0:
            index += self.count
        if not 0 <= index < self.count:
            raise IndexError(f"image {index} of a dataset of {self.count}")
        image, labels = self._native.sample(index)
        return image, json.loads(labels)

    def __iter__(self) -> Iterator[Tuple[bytes, Dict[str, Any]]]:
        for index in range(self.count):
            yield self[index]


def _path(path: Optional[Path]) -> Optional[str]:
    return None if path is None else os.fspath(path)


def _value(value: Any) -> str:
    """A part's value as `--vary` writes it: numbers plainly, a (low, high) pair as a
    range, a dict of names and weights as `name:weight,…`."""
    if isinstance(value, bool):
        return "1" if value else "0"
    if isinstance(value, (tuple, list)) and len(value) == 2:
        return f"{value[0]}-{value[1]}"
    if isinstance(value, dict):
        return ",".join(f"{name}:{weight}" for name, weight in value.items())
    return str(value)
