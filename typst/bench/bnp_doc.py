"""Typst document drawing FENs with board-n-pieces 0.9, to benchmark against fenster.

board-n-pieces (https://github.com/MDLC01/board-n-pieces, by Malo) is third-party
code, MIT-licensed (its default piece images are GPL-2.0-only). It is NOT in our
repository: the benchmark's instructions fetch its source at tag v0.9 (version
0.9.0), build its Rust plugin for wasm32-unknown-unknown (with wasm-minimal-protocol
0.2.1 from crates.io instead of the git pin) and lay out the package path as

    PKGS/preview/board-n-pieces/0.9.0/
        typst.toml lib.typ internals.typ marks.typ chess-sym.typ LICENSE assets/*.svg
        plugin.wasm   (the built board_n_pieces_plugin.wasm)

so that `typst compile --package-path PKGS` resolves "@preview/board-n-pieces:0.9.0".

Usage: python3 bnp_doc.py FENS_FILE [WIDTH] > doc.typ
(one FEN a line, blank lines skipped; WIDTH of each board, default 6cm)
"""

import sys


def typst_string(text: str) -> str:
    """A Typst string literal holding `text`."""
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def document(fens: list[str], width: str) -> str:
    """Typst source drawing each FEN, in order, as a board `width` wide.

    board-n-pieces has no width parameter, so each square is `width / 8`.
    Coordinates are left as board-n-pieces shows them by default (not at all:
    `display-numbers: false`). `board` returns a non-breakable block, so each
    board is its own block.
    """
    lines = ['#import "@preview/board-n-pieces:0.9.0": board, fen', ""]
    for text in fens:
        fields = text.split()
        # board-n-pieces reads all six FEN fields, or completes a lone placement.
        text = " ".join(fields) if len(fields) == 6 else fields[0]
        lines.append(f"#board(fen({typst_string(text)}), square-size: {width} / 8)")
        lines.append("")
    return "\n".join(lines)


if __name__ == "__main__":
    if len(sys.argv) not in (2, 3):
        sys.exit("usage: bnp_doc.py FENS_FILE [WIDTH]")
    with open(sys.argv[1], encoding="utf-8") as f:
        fens = [line.strip() for line in f if line.strip()]
    sys.stdout.write(document(fens, sys.argv[2] if len(sys.argv) == 3 else "6cm"))
