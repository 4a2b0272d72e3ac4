#!/usr/bin/env python3
"""Draws the built-in piece set `staunton` (original geometry of this project).

Usage, from the repository root:  python3 scripts/draw_pieces.py assets/pieces/staunton
Then look at the contact sheet (cargo run --release --example contact_sheet -- docs/src/img/pieces.png)
and rewrite the golden images (UPDATE_GOLDEN=1 cargo test --test render golden).
"""
import os, sys, math

SW = 3.5
INK = "#1a1a1a"
WHITE = "#fbf9f4"
LIGHT = "#ececec"
BASE_Y = 89.0

def f(v):
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
        if role == "body":
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

# ---------- shared parts ----------
def base(hw, top=81.0, bot=BASE_Y):
    """Plinth: a slab with rounded upper shoulders."""
    r = hw
    return body(sym((50, top), [
        ("L", (r - 5 + 50 - 50 + 0, top)) if False else ("L", (50 + r - 5, top)),
        ("C", (50 + r - 1.5, top), (50 + r, top + 2.5), (50 + r, top + 5)),
        ("L", (50 + r, bot)),
        ("L", (50, bot)),
    ]))

def plinth(hw, ring_top=None, slab_top=None, top=80.0, bot=BASE_Y):
    """Base: a low disc seen from the side, rounded shoulders, slightly tapering."""
    return [body(sym((50, top), [
        ("L", (50 + hw - 6.0, top)),
        ("C", (50 + hw - 2.5, top), (50 + hw - 0.5, top + 2.0), (50 + hw, top + 4.5)),
        ("L", (50 + hw + 0.5, bot)),
        ("L", (50, bot)),
    ]))]

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
def pawn():
    return [
        *plinth(21),
        stem(59, 7.5, 80.0, 14.5, 0.55),
        collar(58, 12.5, 5.0),
        circ(50, 44.5, 11.3),
        bsep(80.0, 10.5), bsep(60.5, 7.5),
    ]

def rook():
    top = 24.0
    crown = sym((50, top), [
        ("L", (53, top)), ("L", (53, top + 6.5)), ("L", (61, top + 6.5)), ("L", (61, top)),
        ("L", (70.5, top)), ("L", (70.5, top + 13.0)),
        ("C", (70.5, top + 15.5), (67.5, top + 17.5), (64.5, top + 18.0)),
        ("L", (50, top + 18.0)),
    ])
    return [
        *plinth(26),
        body(sym((50, 43), [("L", (65, 43)), ("C", (65, 57), (66, 68), (68, 80.0)), ("L", (50, 80.0))])),
        ring(19.5, top + 17.5, top + 22.5),
        body(crown),
        bsep(80.0, 14), bsep(top + 22.5, 11),
    ]

def mitre_parts(slit=((55.5, 31.5), (47, 42))):
    mitre = sym((50, 21.0), [
        ("C", (58.0, 26.5), (65.0, 35.0), (65.0, 44.5)),
        ("C", (65.0, 52.5), (58.5, 57.5), (50, 57.5)),
    ])
    return [body(mitre), circ(50, 17, 5.0), line([("M", slit[0]), ("L", slit[1])])]

def bishop():
    return [
        *plinth(24),
        stem(61, 8.0, 80.0, 15.0, 0.55),
        collar(60, 13.5, 5.0),
        *mitre_parts(),
        bsep(80.0, 11), bsep(62.5, 7.5),
    ]

def king():
    cup = sym((50, 28), [
        ("L", (63.5, 28)),
        ("C", (66.0, 28), (67.2, 29.6), (66.6, 31.4)),
        ("C", (65.0, 36.5), (61.5, 41.5), (59.5, 46)),
        ("L", (50, 46)),
    ])
    dome = sym((50, 19.5), [("C", (57.0, 19.5), (61.5, 23.0), (62.0, 28.0)), ("L", (50, 28.0))])
    a, b = 3.5, 9.5   # cross half-widths: bar, arm span
    cross = sym((50, 5.5), [("L", (50 + a, 5.5)), ("L", (50 + a, 9.5)), ("L", (50 + b, 9.5)), ("L", (50 + b, 16.0)),
                            ("L", (50 + a, 16.0)), ("L", (50 + a, 20.0)), ("L", (50, 20.0))])
    return [
        *plinth(27),
        stem(51, 9.5, 80.0, 17.0, 0.5),
        collar(49, 15.5, 5.5),
        body(cup),
        body(dome),
        body(cross),
        bsep(80.0, 12), bsep(51.5, 8), bsep(28.0, 9),
    ]

def queen():
    crown = sym((50, 19), [
        ("L", (55, 28.5)),
        ("L", (61, 19.5)),
        ("L", (64, 29.5)),
        ("L", (71, 22)),
        ("C", (68.5, 32), (63.5, 40), (59.5, 46)),
        ("L", (50, 46)),
    ])
    return [
        *plinth(27),
        stem(52, 9.5, 80.0, 17.0, 0.5),
        collar(50, 15.5, 5.5),
        body(crown),
        circ(50, 14.0, 4.4), circ(39, 17.0, 3.8), circ(61, 17.0, 3.8), circ(28.5, 20.5, 3.4), circ(71.5, 20.5, 3.4),
        line([("M", (36.5, 36)), ("C", (45, 38), (55, 38), (63.5, 36))]),
        bsep(80.0, 12), bsep(52.5, 8),
    ]

import math
def bez(p0, p1, p2, p3, t):
    u = 1 - t
    return (u**3*p0[0] + 3*u*u*t*p1[0] + 3*u*t*t*p2[0] + t**3*p3[0],
            u**3*p0[1] + 3*u*u*t*p1[1] + 3*u*t*t*p2[1] + t**3*p3[1])

def scallops(p0, p1, p2, p3, n, amp, t0=0.0, t1=1.0):
    """Wavy segments following a cubic from t0..t1, bulging to the left of travel."""
    out = []
    ts = [t0 + (t1 - t0) * i / n for i in range(n + 1)]
    for a, b in zip(ts, ts[1:]):
        pa, pb = bez(p0, p1, p2, p3, a), bez(p0, p1, p2, p3, b)
        dx, dy = pb[0] - pa[0], pb[1] - pa[1]
        L = math.hypot(dx, dy)
        nx, ny = dy / L, -dx / L   # left normal (y down): outward for a clockwise path
        c1 = (pa[0] + dx * 0.15 + nx * amp, pa[1] + dy * 0.15 + ny * amp)
        c2 = (pa[0] + dx * 0.75 + nx * amp, pa[1] + dy * 0.75 + ny * amp)
        out.append(("C", c1, c2, pb))
    return out

MANE = True
def knight_head(mane=None):
    mane = MANE if mane is None else mane
    """Horse head facing left, neck running down to the base top at y=80."""
    crest = ((49.5, 20.0), (63.5, 22.0), (73.0, 36.0), (74.0, 53.0))
    if mane:
        back = scallops(*crest, 5, 2.2, 0.0, 1.0)
    else:
        back = [("C", crest[1], crest[2], crest[3])]
    return [
        ("M", (28.0, 80.0)),
        # chest bulging forward, concave front of the neck up to the throat
        ("C", (26.5, 72.0), (30.0, 66.5), (35.5, 62.5)),
        ("C", (40.5, 59.0), (44.0, 55.5), (45.0, 50.0)),
        # round jowl, under-jaw forward to the chin
        ("C", (41.0, 53.0), (31.0, 60.0), (22.5, 61.8)),
        # lips and muzzle
        ("C", (18.0, 62.6), (14.5, 60.0), (13.5, 56.0)),
        ("C", (12.8, 52.5), (13.5, 49.0), (15.5, 46.5)),
        # nasal bone up to the forehead
        ("C", (20.5, 39.0), (27.0, 31.5), (33.0, 24.5)),
        # ears
        ("L", (35.5, 9.5)),
        ("C", (38.5, 11.0), (40.5, 13.0), (41.5, 15.5)),
        ("L", (45.5, 10.5)),
        ("C", (48.5, 14.0), (49.5, 17.0), crest[0]),
        # crest of the neck down the back to the base
        *back,
        ("C", (75.0, 62.0), (74.5, 71.0), (73.0, 80.0)),
        ("Z",),
    ]

def knight_details():
    return [
        ("path", [("M", (28.5, 34.5)), ("C", (30.5, 31.0), (34.5, 30.5), (37.0, 33.0)),
                  ("C", (34.5, 35.8), (31.0, 36.3), (28.5, 34.5)), ("Z",)], "dot"),
        ("path", [("M", (18.5, 47.5)), ("C", (21.0, 48.5), (21.5, 51.5), (19.5, 53.0))], "line"),
        line([("M", (13.4, 57.0)), ("C", (16.0, 57.5), (18.5, 57.5), (21.0, 56.5))]),
        line([("M", (50.0, 27.0)), ("C", (59.0, 30.0), (65.5, 40.0), (67.0, 52.0)), ("C", (67.5, 57.0), (67.5, 61.0), (67.0, 64.0))]),
    ]

def knight():
    tk = T(0.93, dx=2.0, oy=80)
    return [
        *plinth(26),
        ("T", tk, [body(knight_head()), *knight_details()]),
        bsep(80.0, 13),
    ]

def archbishop():
    tb = T(0.9, dx=18, oy=80)
    tk = T(0.8, dx=-9, oy=80)
    back = [stem(61, 8.0, 80.0, 13.0, 0.55), collar(60, 13.5, 5.0), *mitre_parts(((57.0, 31.0), (51.5, 38.5))), bsep(62.5, 7)]
    front = [body(knight_head()), *knight_details()]
    back_t = clip_blines([("T", tb, back)], knight_head(False), tk)
    return [*plinth(28), *back_t, ("T", tk, front), bsep(80.0, 16),
            *separation(knight_head(False), tk, back_t)]

def rook_tower(top=24.0, hw=20.5, bot=80.0):
    crown = sym((50, top), [
        ("L", (53, top)), ("L", (53, top + 6.5)), ("L", (61, top + 6.5)), ("L", (61, top)),
        ("L", (50 + hw, top)), ("L", (50 + hw, top + 13.0)),
        ("C", (50 + hw, top + 15.5), (50 + hw - 3, top + 17.5), (50 + hw - 6, top + 18.0)),
        ("L", (50, top + 18.0)),
    ])
    return [
        body(sym((50, top + 19), [("L", (65, top + 19)), ("C", (65, 57), (66, 68), (68, bot)), ("L", (50, bot))])),
        ring(19.5, top + 17.5, top + 22.5),
        body(crown),
        bsep(top + 22.5, 11),
    ]

def chancellor():
    tb = T(0.84, dx=15.5, oy=80)
    tk = T(0.8, dx=-10, oy=80)
    front = [body(knight_head()), *knight_details()]
    back_t = clip_blines([("T", tb, rook_tower())], knight_head(False), tk)
    return [*plinth(28), *back_t, ("T", tk, front), bsep(80.0, 16),
            *separation(knight_head(False), tk, back_t)]

PIECES = dict(K=king, Q=queen, R=rook, B=bishop, N=knight, P=pawn, A=archbishop, C=chancellor)

def bodies_only(elems):
    """The hinted drawing for small squares: outlines and fills, no inner details."""
    out = []
    for kind, data, role in elems:
        if kind == "T":
            out.append((kind, data, bodies_only(role)))
        elif role == "body":
            out.append((kind, data, role))
    return out

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
        write(os.path.join(out, "small"), code, bodies_only(elems))

if __name__ == "__main__":
    main()
