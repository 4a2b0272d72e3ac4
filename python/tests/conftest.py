"""Shared helpers of the package's tests. `pytester` runs the snapshot plugin's own tests."""

import pathlib

pytest_plugins = ["pytester"]

# The crate's fixtures: this package lives in the crate's python/ folder.
FIXTURES = pathlib.Path(__file__).resolve().parents[2] / "tests" / "fixtures"


def fnv1a(data: bytes) -> int:
    """The crate's FNV-1a (src/hash.rs), the hash of tests/fixtures/render-hashes.txt."""
    h = 0xCBF29CE484222325
    for b in data:
        h = ((h ^ b) * 0x100000001B3) & 0xFFFFFFFFFFFFFFFF
    return h
