#!/usr/bin/env python3
"""Draws the built-in piece set, assets/pieces/staunton/*.svg (original artwork of this project).

Run from the repository root: python3 scripts/draw_pieces.py
"""
import os, sys
OUT = sys.argv[1] if len(sys.argv) > 1 else "assets/pieces/staunton"
SW = 3.2
INK = "#1e1b18"
COLORS = {
    "w": dict(fill="#fbf8f1", line=INK, inner=INK),
    "b": dict(fill="#2b2724", line=INK, inner="#ece6da"),
}

def shape(d, c, kind="path"):
    return f'<path d="{d}" fill="{c["fill"]}" stroke="{c["line"]}" stroke-width="{SW}" stroke-linejoin="round" stroke-linecap="round"/>'

def circle(cx, cy, r, c):
    return f'<circle cx="{cx}" cy="{cy}" r="{r}" fill="{c["fill"]}" stroke="{c["line"]}" stroke-width="{SW}"/>'

def ellipse(cx, cy, rx, ry, c):
    return f'<ellipse cx="{cx}" cy="{cy}" rx="{rx}" ry="{ry}" fill="{c["fill"]}" stroke="{c["line"]}" stroke-width="{SW}"/>'

def inner(d, c, w=None):
    return f'<path d="{d}" fill="none" stroke="{c["inner"]}" stroke-width="{w or SW*0.8}" stroke-linecap="round" stroke-linejoin="round"/>'

def dot(cx, cy, r, c):
    return f'<circle cx="{cx}" cy="{cy}" r="{r}" fill="{c["inner"]}"/>'

def base(c, half=27, top=79):
    l, r = 50 - half, 50 + half
    return shape(f"M{l} 88 L{r} 88 C{r} {top+4} {r-3} {top} {r-8} {top} L{l+8} {top} C{l+3} {top} {l} {top+4} {l} 88 Z", c)

def pawn(c):
    return [
        base(c, 21, 80),
        shape("M38 80 C40 72 43 64 44.5 58 L55.5 58 C57 64 60 72 62 80 Z", c),
        ellipse(50, 57, 11.5, 3.6, c),
        circle(50, 45.5, 10, c),
    ]

def rook(c):
    return [
        base(c, 27, 79),
        shape("M27 79 L27 73 L73 73 L73 79 Z", c),
        shape("M33 73 L35.5 44 L64.5 44 L67 73 Z", c),
        shape("M30 44 L30 39 L70 39 L70 44 Z", c),
        shape("M29 39 L29 23 L37.5 23 L37.5 29.5 L45.5 29.5 L45.5 23 L54.5 23 L54.5 29.5 L62.5 29.5 L62.5 23 L71 23 L71 39 Z", c),
        inner("M38 62 L62 62", c),
    ]

def bishop(c):
    return [
        base(c, 25, 80),
        shape("M36 80 C38.5 72 42 66 44 62 L56 62 C58 66 61.5 72 64 80 Z", c),
        ellipse(50, 61, 12.5, 3.8, c),
        circle(50, 16.5, 4.6, c),
        shape("M50 21.5 C40 29 33.5 38 34 47 C34.5 54 41 58 50 58 C59 58 65.5 54 66 47 C66.5 38 60 29 50 21.5 Z", c),
        inner("M55.5 33 L46 44", c),
        inner("M50 39 L50 39", c, 0.01),
    ]

def queen(c):
    tips = [(22, 27), (35.5, 20.5), (50, 16.5), (64.5, 20.5), (78, 27)]
    out = [
        base(c, 29, 79),
        shape("M31 79 C33.5 70 36 61 37 52 L63 52 C64 61 66.5 70 69 79 Z", c),
    ]
    out += [circle(x, y, 3.6, c) for x, y in tips]
    out += [
        shape("M29 52 L22 30 L34 43 L35.5 24 L44 41 L50 20 L56 41 L64.5 24 L66 43 L78 30 L71 52 Z", c),
        ellipse(50, 52.5, 21.5, 4.2, c),
        inner("M36 70 L64 70", c),
    ]
    return out

def king(c):
    return [
        base(c, 29, 79),
        shape("M32 79 C34.5 70 37 61 37.5 53 L62.5 53 C63 61 65.5 70 68 79 Z", c),
        shape("M46.5 31 L46.5 23.5 L41 23.5 L41 17.5 L46.5 17.5 L46.5 8.5 L53.5 8.5 L53.5 17.5 L59 17.5 L59 23.5 L53.5 23.5 L53.5 31 Z", c),
        shape("M31 53 C25 44 28 33 37.5 33.5 C42 34 45 36.5 50 41 C55 36.5 58 34 62.5 33.5 C72 33 75 44 69 53 Z", c),
        ellipse(50, 53.5, 20, 4.2, c),
        inner("M36.5 70 L63.5 70", c),
        inner("M50 41 L50 50", c),
    ]

KNIGHT = ("M33 80 C33.5 71 38 64 45 59.5 C39 60.5 31 61.5 25.5 60.5 C20.5 59.5 17 55.5 18 51 "
          "C19 46.5 23 43.5 28 40 C32.5 35 36 29 40 23.5 L43.5 11 L51 19.5 "
          "C62.5 21 72.5 30.5 75.5 45 C77.5 57 76.5 69 74.5 80 Z")

def knight_parts(c):
    return [
        base(c, 26, 80),
        shape(KNIGHT, c),
        dot(37.5, 35, 2.4, c),
        dot(22.8, 51.2, 1.6, c),
        inner("M51.5 24 C61 27.5 68 36 70.5 49 C72 58 71.5 67 70.5 75", c),
    ]

def knight(c):
    return knight_parts(c)

def archbishop(c):
    # A knight wearing the bishop's mitre: the finial on the poll and the mitre's slit.
    return [
        base(c, 26, 80),
        shape(KNIGHT, c),
        circle(44.5, 9, 4.2, c),
        dot(37.5, 35, 2.4, c),
        dot(22.8, 51.2, 1.6, c),
        inner("M66 40 L55.5 56", c),
        ellipse(54, 73, 19, 3.8, c),
    ]

def chancellor(c):
    # A knight rising from a rook's crenellated tower.
    return [
        base(c, 27, 80),
        shape(KNIGHT.replace("M33 80", "M36 80"), c),
        dot(37.5, 35, 2.4, c),
        dot(22.8, 51.2, 1.6, c),
        inner("M51.5 24 C61 27.5 68 36 70.5 49", c),
        shape("M30 80 L30 64 L37 64 L37 68.5 L46.5 68.5 L46.5 64 L53.5 64 L53.5 68.5 L63 68.5 L63 64 L70 64 L70 80 Z", c),
    ]

# Light lines that separate the parts of a black piece (white pieces get them from the
# overlapping outlines already).
BLACK_DETAILS = dict(
    P=["M38.5 83.5 L61.5 83.5", "M42 57 L58 57"],
    R=["M30 83.5 L70 83.5", "M31 76 L69 76", "M33.5 41.5 L66.5 41.5"],
    B=["M32 83.5 L68 83.5", "M41 61 L59 61"],
    Q=["M27 83 L73 83", "M32 52.5 L68 52.5"],
    K=["M27 83 L73 83", "M34 53.5 L66 53.5"],
    N=["M30 83.5 L70 83.5"],
    A=["M30 83.5 L70 83.5", "M39 73 L69 73"],
    C=["M30 83.5 L70 83.5", "M34 75 L66 75"],
)

PIECES = dict(K=king, Q=queen, R=rook, B=bishop, N=knight, P=pawn, A=archbishop, C=chancellor)

os.makedirs(OUT, exist_ok=True)
for color, c in COLORS.items():
    for letter, fn in PIECES.items():
        parts = [p for p in fn(c) if "0.01" not in p]
        if color == "b":
            parts += [inner(d, c, SW * 0.7) for d in BLACK_DETAILS[letter]]
        body = "".join(parts)
        svg = f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 100">{body}</svg>\n'
        with open(os.path.join(OUT, f"{color}{letter}.svg"), "w") as f:
            f.write(svg)
print("ok")
