#!/usr/bin/env python3
"""Draws the built-in piece set `staunton` (the second design; original geometry of this
project, no shape taken from another set).

Usage, from the repository root:  python3 assets/pieces/draw_pieces.py assets/pieces/staunton

Writes the sixteen pieces (wK … bC) on a 100-unit square, and in small/ the hinted drawing
used for squares under 30 px: each piece's silhouette with a wider outline and no inner
details, which would only blur at that size. Every piece stands on the same foot (plate and
tier, baseline y = 90); the part above the foot is drawn and then scaled so each piece's ink
box falls inside the proportions of the classic sets (tests/render/piece_proportions.rs holds
them). Black pieces carry light inner lines where their parts meet.

Then record the drawings as the binary loads them (usvg's normalised output, in each set's
normalised.txt: UPDATE_GOLDEN=1 cargo test --lib builtin_normalised), look at the contact sheets (cargo run --release --example contact_sheet -- docs/src/img),
check the proportions (cargo run --release --example piece_metrics), and rewrite the golden
images (UPDATE_GOLDEN=1 cargo test --test render golden) after looking at each of them.
The first design is frozen as assets/pieces/staunton-classic (drawn by this script's
version of commit 47e951b).
"""
import os, sys, math

SW = 3.5
INK = "#1a1a1a"
WHITE = "#fbf9f4"
LIGHT = WHITE  # inner lines of black pieces: the white pieces' colour (one ramp of edge colours)
BASE_Y = 90.0

GRID = 2  # coordinates are written on a grid of 1/GRID unit (shorter SVG)

def f(v):
    v = round(v * GRID) / GRID
    s = f"{v:.2f}".rstrip("0").rstrip(".")
    return "0" if s == "-0" else s

# ---------- geometry helpers ----------
class T:
    """affine: scale s (optionally flip x), translate."""
    def __init__(s, k=1.0, dx=0.0, dy=0.0, ox=50.0, oy=BASE_Y):
        s.k, s.dx, s.dy, s.ox, s.oy = k, dx, dy, ox, oy
    def p(s, pt):
        x, y = pt
        return (s.ox + (x - s.ox) * s.k + s.dx, s.oy + (y - s.oy) * s.k + s.dy)
ID = T()

def d_of(cmds, t=ID):
    out = []
    for c in cmds:
        op = c[0]
        if op == "Z":
            out.append("Z"); continue
        pts = [t.p(q) for q in c[1:]]
        out.append(op + " ".join(f"{f(x)} {f(y)}" for x, y in pts))
    return " ".join(out)

def mirror_pt(p):
    return (100.0 - p[0], p[1])

def sym(start, segs):
    """start: point on axis (x=50) or right side top; segs: right-half segments going
    down the right side ending on the axis (x=50). Returns closed symmetric path cmds."""
    cmds = [("M", mirror_pt(start)), ("L", start)] if abs(start[0] - 50) > 1e-9 else [("M", start)]
    cmds += segs
    # mirrored left side, reversed
    pts = [start] + [s[-1] for s in segs]
    rev = []
    for i in range(len(segs) - 1, -1, -1):
        s = segs[i]
        p0 = pts[i]
        if s[0] == "L":
            rev.append(("L", mirror_pt(p0)))
        else:
            rev.append(("C", mirror_pt(s[2]), mirror_pt(s[1]), mirror_pt(p0)))
    cmds += rev
    cmds.append(("Z",))
    return cmds

# elements: (kind, data, role); role in body | line | bline | dot | hole
def body(cmds): return ("path", cmds, "body")
def line(cmds): return ("path", cmds, "line")
def bline(cmds): return ("path", cmds, "bline")
def circ(cx, cy, r, role="body"): return ("circle", (cx, cy, r), role)
def ell(cx, cy, rx, ry, role="body"): return ("ellipse", (cx, cy, rx, ry), role)
def seg(x1, y1, x2, y2, role="line"): return ("path", [("M", (x1, y1)), ("L", (x2, y2))], role)

def render(elems, color, t=ID):
    fill = WHITE if color == "w" else INK
    inner = INK if color == "w" else LIGHT
    out = []
    for kind, data, role in elems:
        if kind == "T":
            out += render(role, color, T(data.k * t.k, data.dx + t.dx, data.dy + t.dy) if t is not ID else data)
            continue
        if role == "bline" and color == "w":
            continue
        if role == "flat" and color == "b":
            continue
        if role == "halo":
            attrs = f'fill="{INK}" stroke="{INK}" stroke-width="{f(SMALL_SW)}" stroke-linejoin="round"'
        elif role == "flat":
            attrs = f'fill="{fill}"'
        elif role == "body":
            attrs = f'fill="{fill}" stroke="{INK}" stroke-width="{f(SW)}" stroke-linejoin="round"'
        elif role in ("line", "bline"):
            attrs = f'fill="none" stroke="{inner}" stroke-width="{f(SW*LW)}" stroke-linecap="round" stroke-linejoin="round"'
        elif role == "dot":
            attrs = f'fill="{inner}"'
        elif role == "wdot":  # ink-filled on white, light on black
            attrs = f'fill="{inner}"'
        if kind == "path":
            out.append(f'<path d="{d_of(data, t)}" {attrs}/>')
        elif kind == "circle":
            cx, cy, r = data
            (x, y) = t.p((cx, cy))
            out.append(f'<circle cx="{f(x)}" cy="{f(y)}" r="{f(r*t.k)}" {attrs}/>')
        else:
            cx, cy, rx, ry = data
            (x, y) = t.p((cx, cy))
            out.append(f'<ellipse cx="{f(x)}" cy="{f(y)}" rx="{f(rx*t.k)}" ry="{f(ry*t.k)}" {attrs}/>')
    return out

LW = 0.75  # inner line weight relative to SW
SMALL_SW = 6.5  # the hinted drawing: outline twice as wide as it shows

# ---------- shared parts ----------
def ring(hw, top, bot):
    """Torus-like band (rounded ends)."""
    h = bot - top
    return body(sym((50, top), [
        ("L", (50 + hw - h * 0.5, top)),
        ("C", (50 + hw + h * 0.15, top), (50 + hw + h * 0.15, bot), (50 + hw - h * 0.5, bot)),
        ("L", (50, bot)),
    ]))

def stem(top_y, top_hw, bot_y, bot_hw, bulge=0.45):
    """Concave flaring stem from a narrow top to a wide bottom."""
    dy = bot_y - top_y
    return body(sym((50, top_y), [
        ("L", (50 + top_hw, top_y)),
        ("C", (50 + top_hw, top_y + dy * bulge), (50 + bot_hw - (bot_hw - top_hw) * 0.25, bot_y - dy * 0.1), (50 + bot_hw, bot_y)),
        ("L", (50, bot_y)),
    ]))

def collar(y, hw, h=5.0):
    return ring(hw, y - h / 2, y + h / 2)

def bsep(y, hw):
    """black-only separator line between stacked parts."""
    return seg(50 - hw, y, 50 + hw, y, "bline")


# ---------- flattening / separation lines for composite pieces ----------
def flatten(cmds, t=ID, steps=40):
    pts = []
    cur = None
    for c in cmds:
        if c[0] == "M":
            cur = t.p(c[1]); pts.append(cur)
        elif c[0] == "L":
            cur = t.p(c[1]); pts.append(cur)
        elif c[0] == "C":
            p1, p2, p3 = t.p(c[1]), t.p(c[2]), t.p(c[3])
            for i in range(1, steps + 1):
                pts.append(bez(cur, p1, p2, p3, i / steps))
            cur = p3
    return pts

def elem_polys(elems, t=ID):
    polys = []
    for kind, data, role in elems:
        if kind == "T":
            tt = data
            polys += elem_polys(role, tt)
            continue
        if role != "body":
            continue
        if kind == "path":
            polys.append(flatten(data, t))
        elif kind == "circle":
            cx, cy, r = data
            c = t.p((cx, cy)); r *= t.k
            polys.append([(c[0] + r * math.cos(a / 32 * 2 * math.pi), c[1] + r * math.sin(a / 32 * 2 * math.pi)) for a in range(32)])
        else:
            cx, cy, rx, ry = data
            c = t.p((cx, cy)); rx *= t.k; ry *= t.k
            polys.append([(c[0] + rx * math.cos(a / 32 * 2 * math.pi), c[1] + ry * math.sin(a / 32 * 2 * math.pi)) for a in range(32)])
    return polys

def inside(poly, p):
    x, y = p
    n = len(poly); c = False
    for i in range(n):
        x1, y1 = poly[i]; x2, y2 = poly[(i + 1) % n]
        if (y1 > y) != (y2 > y):
            xi = x1 + (y - y1) * (x2 - x1) / (y2 - y1)
            if xi > x:
                c = not c
    return c

def inside_union(polys, p, margin=0.0):
    probes = [p] + ([(p[0] + margin * math.cos(a * math.pi / 8), p[1] + margin * math.sin(a * math.pi / 8)) for a in range(16)] if margin else [])
    return all(any(inside(q, pp) for q in polys) for pp in probes)

def clip_blines(elems, front_cmds, tf, gap=None):
    """Shorten black-only lines of a back piece so they stop short of the front piece."""
    gap = gap if gap is not None else SW / 2 + SW * LW / 2 + 2.6
    poly = flatten(front_cmds, tf, 60)
    def dist(p):
        best = 1e9
        for a, b in zip(poly, poly[1:] + poly[:1]):
            dx, dy = b[0] - a[0], b[1] - a[1]
            L2 = dx * dx + dy * dy or 1
            u = max(0, min(1, ((p[0] - a[0]) * dx + (p[1] - a[1]) * dy) / L2))
            best = min(best, math.hypot(a[0] + u * dx - p[0], a[1] + u * dy - p[1]))
        return best
    out = []
    for kind, data, role in elems:
        if kind == "T":
            for k2, d2, r2 in role:
                if r2 == "bline" and k2 == "path" and len(d2) == 2:
                    p0, p1 = data.p(d2[0][1]), data.p(d2[1][1])
                    keep = []
                    for i in range(41):
                        q = (p0[0] + (p1[0] - p0[0]) * i / 40, p0[1] + (p1[1] - p0[1]) * i / 40)
                        if not inside(poly, q) and dist(q) > gap:
                            keep.append(q)
                    if len(keep) > 2:
                        out.append(("path", [("M", keep[0]), ("L", keep[-1])], "bline"))
            out.append((kind, data, [e for e in role if e[2] != "bline"]))
        else:
            out.append((kind, data, role))
    return out

def separation(front_cmds, tf, back_elems, gap=None, margin=None):
    """Light (black-only) line just outside the front outline, where it lies over the back piece."""
    gap = gap if gap is not None else SW / 2 + SW * LW / 2 + 2.6
    margin = margin if margin is not None else SW / 2 + SW * LW / 2 + 0.3
    outline = flatten(front_cmds, tf, 60)
    # dedupe
    pts = [outline[0]]
    for q in outline[1:]:
        if math.hypot(q[0] - pts[-1][0], q[1] - pts[-1][1]) > 0.3:
            pts.append(q)
    back = elem_polys(back_elems)
    n = len(pts)
    runs, run = [], []
    for i in range(n):
        a, b = pts[i - 1], pts[(i + 1) % n]
        dx, dy = b[0] - a[0], b[1] - a[1]
        L = math.hypot(dx, dy) or 1
        o = (pts[i][0] + dy / L * gap, pts[i][1] - dx / L * gap)
        if inside(pts, o):
            o = (pts[i][0] - dy / L * gap, pts[i][1] + dx / L * gap)
        ok = inside_union(back, o, margin) and not inside_union([pts], o, 0)
        if ok:
            run.append(o)
        elif run:
            runs.append(run); run = []
    if run:
        runs.append(run)
    out = []
    for r in runs:
        length = sum(math.hypot(q[0] - p[0], q[1] - p[1]) for p, q in zip(r, r[1:]))
        if length < 5.0:
            continue
        r = r[::2] + ([r[-1]] if len(r) % 2 == 0 else [])
        out.append(("path", [("M", r[0])] + [("L", q) for q in r[1:]], "bline"))
    return out

# ---------- pieces ----------
# Every piece stands on the same foot: a plate (84–90) under a tier (78.5–84), so a row
# of pieces shares one baseline; widths follow the piece, from the pawn's to the king's.
PLATE_TOP, TIER_TOP = 84.0, 78.5
PAWN_K = 0.965

def foot(hw, tier_hw, tier_top=TIER_TOP, plate_top=PLATE_TOP, r=2.5):
    """The plate and the tier above it, one outline."""
    return body(sym((50, tier_top), [
        ("L", (50 + tier_hw - r, tier_top)),
        ("C", (50 + tier_hw - r * 0.45, tier_top), (50 + tier_hw, tier_top + r * 0.55), (50 + tier_hw, tier_top + r)),
        ("L", (50 + tier_hw, plate_top)),
        ("L", (50 + hw - r, plate_top)),
        ("C", (50 + hw - r * 0.45, plate_top), (50 + hw, plate_top + r * 0.55), (50 + hw, plate_top + r)),
        ("L", (50 + hw, BASE_Y)),
        ("L", (50, BASE_Y)),
    ]))

def joint(top_hw, tier_top=TIER_TOP):
    """The light line (black pieces) where the piece meets its foot."""
    return bsep(tier_top, top_hw)

def standing(foot_hw, tier_hw, top_hw, k, upper_elems, tier_top=TIER_TOP, plate_top=PLATE_TOP, r=2.5):
    """A piece: its foot, the part above drawn at scale k, then the joints on top."""
    return [foot(foot_hw, tier_hw, tier_top, plate_top, r),
            ("T", T(k, oy=tier_top), upper_elems),
            joint(top_hw, tier_top)]

def pawn():
    return standing(26.5, 22.5, 17.5, PAWN_K, [
        stem(57.0, 11.0, 80.5, 19.5, 0.55),
        collar(55.0, 17.0, 5.5),
        circ(50, 39.0, 17.5),
        bsep(58.0, 11.0),
    ], 80.5, 85.0, 2.2)

def rook():
    top = 19.5
    return standing(31.25, 27.0, 17.0, ROOK_K, rook_tower(top))

def rook_tower(top=19.5):
    crown = sym((50, top), [
        ("L", (56, top)), ("L", (56, top + 7)), ("L", (63, top + 7)), ("L", (63, top)),
        ("L", (75, top)), ("L", (75, top + 12.5)),
        ("C", (75, top + 16.5), (73, top + 19.5), (70, top + 20.5)),
        ("L", (50, top + 20.5)),
    ])
    shaft = sym((50, 43), [("L", (69.5, 43)), ("C", (69.8, 56), (70.5, 68), (72, TIER_TOP)), ("L", (50, TIER_TOP))])
    return [body(shaft), ring(23.5, top + 19.5, top + 25.0), body(crown), bsep(top + 25.0, 17.5)]

def mitre_parts(slit=((57.5, 27.5), (45.5, 41.5))):
    mitre = sym((50, 17.5), [
        ("C", (59.0, 23.0), (68.0, 33.0), (68.0, 43.0)),
        ("C", (68.0, 51.5), (60.5, 57.5), (50, 57.5)),
    ])
    parts = [body(mitre), circ(50, 14.0, 4.6)]
    return parts + [line([("M", slit[0]), ("L", slit[1])])] if slit else parts

def bishop():
    return standing(36.25, 28.5, 19.0, BISHOP_K, [
        stem(61.5, 9.0, TIER_TOP, 19.0, 0.6),
        collar(59.5, 17.0, 5.5),
        *mitre_parts(),
        bsep(62.5, 8.5),
    ])

def king_queen_stem():
    return [stem(56.0, 12.5, TIER_TOP, 23.0, 0.55), collar(53.5, 20.5, 6.0)]

def king(a=3.6, b=10.0, top=7.0):
    """The king; a, b: the cross's half-widths (bar, arms), top: its top."""
    bowl = sym((50, 29.5), [
        ("L", (76.0, 29.5)),
        ("C", (79.5, 29.5), (80.5, 33.0), (78.5, 36.0)),
        ("C", (73.0, 43.0), (67.5, 47.0), (65.5, 51.0)),
        ("L", (50, 51.0)),
    ])
    dome = sym((50, 19.5), [("C", (59.0, 19.5), (65.0, 23.5), (66.5, 30.0)), ("L", (50, 30.0))])
    arm = top + 3.8  # the arms' top, 6.6 high
    cross = sym((50, top), [("L", (50 + a, top)), ("L", (50 + a, arm)), ("L", (50 + b, arm)), ("L", (50 + b, arm + 6.6)),
                            ("L", (50 + a, arm + 6.6)), ("L", (50 + a, 22.0)), ("L", (50, 22.0))])
    return standing(39.25, 31.5, 22.0, KING_K, [
        *king_queen_stem(),
        body(bowl), body(dome), body(cross),
        line([("M", (29.5, 39.5)), ("C", (43, 42.5), (57, 42.5), (70.5, 39.5))]),
        bsep(56.5, 12.5), bsep(30.0, 15.5),
    ])

def queen():
    crown = sym((50, 21.5), [
        ("L", (57.5, 33.5)),
        ("L", (67.0, 22.5)),
        ("L", (72.0, 35.0)),
        ("L", (84.0, 26.5)),
        ("C", (80.0, 38.0), (70.0, 45.0), (65.0, 51.0)),
        ("L", (50, 51.0)),
    ])
    return standing(39.25, 31.5, 21.0, QUEEN_K, [
        *king_queen_stem(),
        body(crown),
        circ(50, 16.5, 5.0), circ(67.5, 18.0, 4.3), circ(32.5, 18.0, 4.3), circ(85.0, 22.5, 3.8), circ(15.0, 22.5, 3.8),
        line([("M", (28.5, 42.0)), ("C", (42, 45.0), (58, 45.0), (71.5, 42.0))]),
        bsep(56.5, 11),
    ])

def bez(p0, p1, p2, p3, t):
    u = 1 - t
    return (u**3*p0[0] + 3*u*u*t*p1[0] + 3*u*t*t*p2[0] + t**3*p3[0],
            u**3*p0[1] + 3*u*u*t*p1[1] + 3*u*t*t*p2[1] + t**3*p3[1])

def knight_head():
    """Horse head facing left; the neck runs down to the tier top."""
    return [
        ("M", (26.0, TIER_TOP)),
        # chest, forward and up to the throat
        ("C", (23.5, 70.0), (27.5, 63.0), (34.0, 58.5)),
        ("C", (39.5, 54.5), (43.0, 50.5), (43.5, 46.0)),
        # under the jaw forward to the chin
        ("C", (37.5, 50.0), (27.0, 55.5), (18.5, 57.0)),
        # lips and muzzle
        ("C", (12.5, 58.0), (9.0, 54.5), (9.0, 50.0)),
        ("C", (9.0, 46.5), (10.5, 44.0), (13.0, 41.5)),
        # nose bridge to the forehead
        ("C", (18.5, 34.5), (24.5, 27.0), (30.5, 21.0)),
        # ears
        ("L", (33.0, 13.5)),
        ("C", (37.0, 15.0), (39.5, 17.0), (41.0, 19.5)),
        ("L", (46.5, 13.5)),
        ("C", (50.5, 16.5), (52.0, 19.0), (52.5, 21.5)),
        # the crest of the neck, full, down the back to the foot
        ("C", (70.0, 25.0), (84.0, 40.0), (84.0, 58.0)),
        ("C", (84.0, 66.0), (83.0, 72.0), (81.5, TIER_TOP)),
        ("Z",),
    ]

def knight_details():
    return [
        ("path", [("M", (26.0, 31.5)), ("C", (28.5, 27.5), (33.5, 27.0), (36.5, 30.0)),
                  ("C", (33.5, 33.2), (29.0, 33.7), (26.0, 31.5)), ("Z",)], "dot"),
        ell(14.5, 47.0, 1.9, 2.6, "dot"),
        line([("M", (9.5, 53.0)), ("C", (13.0, 53.5), (16.5, 53.5), (19.5, 52.5))]),
        line([("M", (53.5, 27.0)), ("C", (66.0, 31.0), (75.5, 43.0), (76.5, 58.0)), ("C", (77.0, 64.0), (76.5, 69.0), (76.0, 73.0))]),
    ]

def knight():
    return standing(35.0, 30.0, 22.0, KNIGHT_K, [body(knight_head()), *knight_details()])

def archbishop():
    tb = T(0.82, dx=17, oy=TIER_TOP)
    tk = T(0.8, dx=-8, oy=TIER_TOP)
    back = [stem(61.5, 9.0, TIER_TOP, 16.0, 0.6), collar(59.5, 17.0, 5.5), *mitre_parts(None), bsep(62.5, 8)]
    front = [body(knight_head()), *knight_details()]
    back_t = clip_blines([("T", tb, back)], knight_head(), tk)
    return [foot(39.0, 32.0), *back_t, ("T", tk, front), joint(24),
            *separation(knight_head(), tk, back_t)]

def chancellor():
    tb = T(0.8, dx=14, oy=TIER_TOP)
    tk = T(0.8, dx=-9, oy=TIER_TOP)
    front = [body(knight_head()), *knight_details()]
    back_t = clip_blines([("T", tb, rook_tower())], knight_head(), tk)
    return [foot(39.0, 32.0), *back_t, ("T", tk, front), joint(24),
            *separation(knight_head(), tk, back_t)]

KING_K, QUEEN_K, ROOK_K, BISHOP_K, KNIGHT_K = 0.93, 0.96, 0.97, 0.95, 0.96

PIECES = dict(K=king, Q=queen, R=rook, B=bishop, N=knight, P=pawn, A=archbishop, C=chancellor)
def bodies_as(elems, as_role):
    out = []
    for kind, data, role in elems:
        if kind == "T":
            out.append((kind, data, bodies_as(role, as_role)))
        elif role == "body":
            out.append((kind, data, as_role))
    return out

# Hinted drawings that differ from the full one: the king's cross wider and taller, so that from
# 14 px squares up its silhouette stays apart from the queen's (the small-size decoding
# test's margin).
SMALL = {"K": lambda: king(5.0, 12.0, 4.0)}

def silhouette(elems):
    """The hinted drawing for small squares: the piece's silhouette, no inner details.
    Every part is first drawn in ink with a wide outline, then filled again without one,
    so only the outline around the whole piece shows, half as wide as it is drawn."""
    return bodies_as(elems, "halo") + bodies_as(elems, "flat")

def write(folder, code, elems):
    os.makedirs(folder, exist_ok=True)
    for color in "wb":
        parts = render(elems, color)
        svg = '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 100">' + "".join(parts) + "</svg>\n"
        with open(os.path.join(folder, f"{color}{code}.svg"), "w") as fh:
            fh.write(svg)

def main():
    out = sys.argv[1] if len(sys.argv) > 1 else "assets/pieces/staunton"
    for code, fn in PIECES.items():
        elems = fn()
        write(out, code, elems)
        write(os.path.join(out, "small"), code, silhouette(SMALL.get(code, fn)()))

if __name__ == "__main__":
    main()
