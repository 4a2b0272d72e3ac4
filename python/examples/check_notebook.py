"""Executes diagrams.ipynb with nbclient and checks that its outputs hold the diagrams:
SVG, PNG and an <img> with alt text for each Diagram, an animated PNG for the Game, the
description and the error sentence as printed text.

    python python/examples/check_notebook.py           # execute and check (CI)
    python python/examples/check_notebook.py --write   # also save the outputs in the file
"""

import re
import sys
import pathlib

import nbclient
import nbformat

HERE = pathlib.Path(__file__).resolve().parent


def outputs(cell):
    data = {}
    for out in cell.get("outputs", []):
        data.update(out.get("data", {}))
        if out.get("output_type") == "stream":
            data["stream"] = data.get("stream", "") + out["text"]
        assert out.get("output_type") != "error", f"cell failed: {out.get('evalue')}"
    return data


def check(notebook):
    code = [c for c in notebook.cells if c.cell_type == "code"]
    diagrams = [outputs(c) for c in (code[0], code[1], code[4])]
    for data in diagrams:
        assert data["image/svg+xml"].lstrip().startswith("<svg"), "a diagram without SVG"
        assert data["image/png"], "a diagram without PNG"
        alt = re.search(r'alt="([^"]+)"', data["text/html"]).group(1)
        assert "King" in alt, f"alt text that does not describe: {alt}"
    assert "King g8" not in outputs(code[2])["stream"] and "Queen g5" in outputs(code[2])["stream"]
    game = outputs(code[3])
    assert "An animation of a game of 7 plies" in game["text/html"]
    assert game["image/png"], "the game without its animation"
    assert 'orientation "sideways" is not allowed' in outputs(code[5])["stream"]


def main():
    path = HERE / "diagrams.ipynb"
    notebook = nbformat.read(path, as_version=4)
    nbclient.NotebookClient(notebook, timeout=120, kernel_name="python3", record_timing=False).execute()
    check(notebook)
    if "--write" in sys.argv:
        nbformat.write(notebook, path)
    print(f"check_notebook: {path.name} executed; its outputs hold the diagrams with alt text")


if __name__ == "__main__":
    main()
