"""The URL of heavy request number SEED on ADDR: a 2048 px PNG of two kings on squares
drawn from SEED under 64 arrows in four colours, a highlight and a last move, so no two
seeds share a stamp set or a cache key. Used by heavy-pair.sh and heavy-burst.sh.

    python3 scripts/bench/heavy_url.py SEED ADDR
"""
import random
import sys

seed, addr = int(sys.argv[1]), sys.argv[2]
r = random.Random(seed)
squares = [f + str(k) for f in "abcdefgh" for k in range(1, 9)]
arrows = set()
while len(arrows) < 64:
    a, b = r.sample(squares, 2)
    arrows.add(r.choice("GRYB") + a + b)
white, black = r.sample(squares, 2)
board = {white: "K", black: "k"}
rows = []
for rank in range(8, 0, -1):
    row, empty = "", 0
    for f in "abcdefgh":
        p = board.get(f + str(rank))
        if p:
            row += (str(empty) if empty else "") + p
            empty = 0
        else:
            empty += 1
    rows.append(row + (str(empty) if empty else ""))
print(f"http://{addr}/diagram.png?fen={'/'.join(rows)}&size=2048"
      f"&arrows={','.join(sorted(arrows))}&highlight=G{r.choice(squares)}&lastMove=a2a3")
