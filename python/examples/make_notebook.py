"""Writes diagrams.ipynb's cells (run once by hand when the tour changes; check_notebook.py
executes it and saves its outputs)."""

import pathlib

import nbformat

cells = [
    nbformat.v4.new_markdown_cell(
        "# Chess diagrams in Jupyter with Staunton\n\n"
        "`staunton.Diagram` shows a position as SVG (with a PNG beside it, and an `<img>` "
        "whose alt text describes the position); `staunton.Game` shows a game as an animation."
    ),
    nbformat.v4.new_code_cell("import chess\nimport chess.svg\nimport staunton\n\nstaunton.Diagram(\"start\", size=240)"),
    nbformat.v4.new_markdown_cell(
        "A `chess.Board` is a position; its last move, arrows and squares are python-chess "
        "objects too. Every option of the HTTP service is a keyword argument."
    ),
    nbformat.v4.new_code_cell(
        "board = chess.Board()\n"
        "for san in [\"e4\", \"e5\", \"Nf3\", \"Nc6\", \"Bc4\", \"Nd4\", \"Nxe5\", \"Qg5\"]:\n"
        "    board.push_san(san)\n"
        "staunton.Diagram(\n"
        "    board,\n"
        "    size=320,\n"
        "    last_move=board.peek(),\n"
        "    arrows=[chess.svg.Arrow(chess.G5, chess.G2, color=\"red\"), (\"e5\", \"f7\")],\n"
        "    squares=[chess.F7],\n"
        "    caption=\"Black threatens Qxg2\",\n"
        ")"
    ),
    nbformat.v4.new_code_cell("print(staunton.describe(board))"),
    nbformat.v4.new_markdown_cell("A game plays as an animation; an index picks a ply."),
    nbformat.v4.new_code_cell(
        "game = staunton.Game(\"1. e4 e5 2. Bc4 Nc6 3. Qh5 Nf6 4. Qxf7#\", size=200, delay=60)\n"
        "game"
    ),
    nbformat.v4.new_code_cell("game[6]"),
    nbformat.v4.new_markdown_cell("A bad option raises the service's own sentence."),
    nbformat.v4.new_code_cell(
        "try:\n    staunton.png(board, orientation=\"sideways\")\n"
        "except staunton.OptionError as error:\n    print(error)"
    ),
]
notebook = nbformat.v4.new_notebook(cells=cells)
notebook.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
nbformat.write(notebook, pathlib.Path(__file__).with_name("diagrams.ipynb"))
