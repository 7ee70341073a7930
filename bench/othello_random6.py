#!/usr/bin/env python3
"""Random 6x6 Othello positions for solver timings: python3 bench/othello_random6.py EMPTIES SEED COUNT
prints COUNT lines "BOARD SIDE" reached by uniform random play from the start (bench/results/othello.md)."""
import random
import sys
N = 6
DIRS = [(-1,-1),(-1,0),(-1,1),(0,-1),(0,1),(1,-1),(1,0),(1,1)]
def flips(b, me, r, c):
    out = []
    for dr, dc in DIRS:
        rr, cc, run = r+dr, c+dc, []
        while 0 <= rr < N and 0 <= cc < N and b[rr][cc] == -me:
            run.append((rr, cc)); rr += dr; cc += dc
        if run and 0 <= rr < N and 0 <= cc < N and b[rr][cc] == me: out += run
    return out
def moves(b, me):
    return [(r, c) for r in range(N) for c in range(N) if b[r][c] == 0 and flips(b, me, r, c)]
def gen(rng, empties):
    while True:
        b = [[0]*N for _ in range(N)]
        b[2][2] = b[3][3] = -1; b[2][3] = b[3][2] = 1
        me = 1
        while sum(v == 0 for row in b for v in row) > empties:
            m = moves(b, me)
            if not m:
                me = -me
                if not moves(b, me): break
                continue
            r, c = rng.choice(m)
            for rr, cc in flips(b, me, r, c): b[rr][cc] = me
            b[r][c] = me; me = -me
        if sum(v == 0 for row in b for v in row) == empties and moves(b, me):
            return "".join("X" if v == 1 else "O" if v == -1 else "-" for row in b for v in row), "X" if me == 1 else "O"
rng = random.Random(int(sys.argv[2]))
for _ in range(int(sys.argv[3])):
    print(*gen(rng, int(sys.argv[1])))
