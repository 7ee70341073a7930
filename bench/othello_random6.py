#!/usr/bin/env python3
"""Random 6x6 Othello positions for solver timings (bench/results/othello.md):
    python3 bench/othello_random6.py EMPTIES SEED COUNT
prints COUNT lines "BOARD SIDE" reached by uniform random play from the start; the rules are
othello_line.py's."""
import random
import sys

from othello_line import flips, legal_moves

N = 6


def empties(board):
    return sum(v == 0 for row in board for v in row)


def random_position(rng, target):
    """Plays uniformly random moves until `target` empties remain with a move to play."""
    while True:
        board = [[0] * N for _ in range(N)]
        board[2][2] = board[3][3] = -1
        board[2][3] = board[3][2] = 1
        me = 1
        while empties(board) > target:
            moves = legal_moves(board, me)
            if not moves:
                me = -me
                if not legal_moves(board, me):
                    break
                continue
            r, c = rng.choice(moves)
            for rr, cc in flips(board, me, r, c):
                board[rr][cc] = me
            board[r][c] = me
            me = -me
        if empties(board) == target and legal_moves(board, me):
            text = "".join("X" if v == 1 else "O" if v == -1 else "-" for row in board for v in row)
            return text, "X" if me == 1 else "O"


if __name__ == "__main__":
    if len(sys.argv) != 4 or not all(a.isdigit() for a in sys.argv[1:]):
        sys.exit("usage: othello_random6.py EMPTIES SEED COUNT")
    rng = random.Random(int(sys.argv[2]))
    for _ in range(int(sys.argv[3])):
        print(*random_position(rng, int(sys.argv[1])))
