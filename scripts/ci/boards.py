"""Reading rasterised boards back, for the CI checks that compile documents and look at
the pages (typst/test/check.py, latex/test/check.py) and the LaTeX benchmark: a PPM page
as pixels, a square's samples, and a FEN's pieces (also the dataset check's). Imported by path
(`sys.path.insert(0, …/scripts/ci)`); stdlib only.
"""


def ppm(path):
    """A binary PPM (P6, 8 bits, as pdftoppm writes) as (width, height, bytes)."""
    with open(path, "rb") as f:
        data = f.read()
    fields, at = [], 0
    while len(fields) < 4:
        while data[at:at + 1].isspace():
            at += 1
        start = at
        while not data[at:at + 1].isspace():
            at += 1
        fields.append(data[start:at])
    assert fields[0] == b"P6" and fields[3] == b"255", "pdftoppm writes 8-bit P6"
    return int(fields[1]), int(fields[2]), data[at + 1:]


def tile(image, col, row):
    """The square at (col, row), counted from the top left, of an 8×8 board that fills
    `image`: 16×16 samples of its inner part, as one list of RGB values."""
    width, height, pixels = image
    side_x, side_y = width / 8, height / 8
    out = []
    for j in range(16):
        for i in range(16):
            x = int((col + (i + 0.5) / 16) * side_x)
            y = int((row + (j + 0.5) / 16) * side_y)
            at = 3 * (y * width + x)
            out.extend(pixels[at:at + 3])
    return out


def placement(fen):
    """The pieces of a FEN as {(file, rank): letter}, file and rank from 0 (a1 is (0, 0))."""
    board = {}
    for r, row in enumerate(fen.split()[0].split("/")):
        f = 0
        for ch in row:
            if ch.isdigit():
                f += int(ch)
            else:
                board[(f, 7 - r)] = ch
                f += 1
    return board


def square_at(col, row, orientation):
    """The square drawn at (col, row) from the top left, seen from White or Black."""
    return (col, 7 - row) if orientation == "white" else (7 - col, row)
