#!/usr/bin/env python3
"""Print the position after move K of Takizawa's drawn line (the moves of bench/othello_ffo.cpp)
as `BOARD SIDE`, the form `zermelo othello weak-solve` and `othello solve` read.

The proof runs of bench/results/othello.md start from these positions:
    python3 bench/othello_line.py 32   ->  64 squares (X black, O white, - empty) and the mover
"""
import sys

MOVES = ("F5D6C3D3C4F4F6F3E6E7D7C5B6D8C6C7D2B5A5A6A7G5E3B4C8G6G4C2E8D1F7E2G3H4F1E1F2G1B1F8G8B3H3"
         "B2H5B7A3A4A1A2C1H2H1G2B8A8G7H8H7H6")
DIRS = [(-1, -1), (-1, 0), (-1, 1), (0, -1), (0, 1), (1, -1), (1, 0), (1, 1)]


def flips(board, me, row, col):
    """The discs `me` (1 or -1) turns by playing (row, col) on a square board of any size."""
    n, out = len(board), []
    for dr, dc in DIRS:
        r, c, run = row + dr, col + dc, []
        while 0 <= r < n and 0 <= c < n and board[r][c] == -me:
            run.append((r, c))
            r, c = r + dr, c + dc
        if run and 0 <= r < n and 0 <= c < n and board[r][c] == me:
            out += run
    return out


def legal_moves(board, me):
    n = len(board)
    return [(r, c) for r in range(n) for c in range(n)
            if board[r][c] == 0 and flips(board, me, r, c)]


def has_move(board, me):
    return bool(legal_moves(board, me))


def position_after(k):
    board = [[0] * 8 for _ in range(8)]
    board[3][3] = board[4][4] = -1  # white on D4, E5
    board[3][4] = board[4][3] = 1   # black on E4, D5
    me = 1
    for i in range(k):
        if not has_move(board, me):
            me = -me  # a pass is not written in the line
        sq = MOVES[2 * i:2 * i + 2]
        col, row = ord(sq[0]) - ord("A"), int(sq[1]) - 1
        turned = flips(board, me, row, col)
        if board[row][col] != 0 or not turned:
            sys.exit(f"othello_line: move {i + 1} ({sq}) is illegal")
        board[row][col] = me
        for r, c in turned:
            board[r][c] = me
        me = -me
    if not has_move(board, me) and has_move(board, -me):
        me = -me
    text = "".join("X" if v == 1 else "O" if v == -1 else "-" for row in board for v in row)
    return text, "X" if me == 1 else "O"


if __name__ == "__main__":
    if len(sys.argv) != 2 or not sys.argv[1].isdigit() or int(sys.argv[1]) > len(MOVES) // 2:
        sys.exit(f"usage: othello_line.py K   (0 <= K <= {len(MOVES) // 2})")
    board, side = position_after(int(sys.argv[1]))
    print(board, side)
