"""The Python module against an independent brute force of tic-tac-toe and against the CLI.

Tic-tac-toe is solved into a scratch work dir by the `zermelo` CLI (ZERMELO_CLI); the module must
then give every state's value as a plain negamax in this file computes it, from the values run's
arrays and from probes (also from several threads at once), and the start's moves as `zermelo
query --json` gives them.
"""
import functools
import json
import os
import subprocess
import threading

import numpy as np
import pytest
import zermelo

LINES = [(0, 1, 2), (3, 4, 5), (6, 7, 8), (0, 3, 6), (1, 4, 7), (2, 5, 8), (0, 4, 8), (2, 4, 6)]
RANK = {"win": 2, "draw": 1, "loss": 0}


def board_of(key):  # the game's key: base 3, cell i = row*3+col, 1 = X, 2 = O
    return tuple(key // 3**i % 3 for i in range(9))


def key_of(board):
    return sum(c * 3**i for i, c in enumerate(board))


def mover(board):
    return 1 if board.count(1) == board.count(2) else 2


def better(a, b):  # for the player to move: quick wins, draws, slow losses
    if a[0] != b[0]:
        return RANK[a[0]] > RANK[b[0]]
    return a[1] < b[1] if a[0] == "win" else a[1] > b[1]


@functools.lru_cache(maxsize=None)
def negamax(board):
    """(outcome, plies) for the player to move, as Zermelo defines values."""
    if any(all(board[i] == 3 - mover(board) for i in line) for line in LINES):
        return ("loss", 0)
    if 0 not in board:
        return ("draw", 0)
    best = None
    for i in (i for i in range(9) if board[i] == 0):
        child = negamax(board[:i] + (mover(board),) + board[i + 1:])
        mine = {"win": ("loss", child[1] + 1), "loss": ("win", child[1] + 1)}.get(child[0], child)
        if best is None or better(mine, best):
            best = mine
    return best


def reachable():
    seen, stack = set(), [(0,) * 9]
    while stack:
        b = stack.pop()
        if b in seen:
            continue
        seen.add(b)
        if negamax(b) != ("loss", 0) and 0 in b:
            stack += [b[:i] + (mover(b),) + b[i + 1:] for i in range(9) if b[i] == 0]
    return seen


@pytest.fixture(scope="module")
def work(tmp_path_factory):
    path = str(tmp_path_factory.mktemp("probe") / "ttt")
    subprocess.run([os.environ["ZERMELO_CLI"], "--quiet", "--work-dir", path, "solve",
                    "tictactoe"], check=True, stdout=subprocess.DEVNULL)
    return path


def test_the_start_is_a_draw_and_every_move_is_valued(work):
    db = zermelo.open(work)
    assert (db.game, db.options) == ("tictactoe", [])
    assert str(db.value("start")) == "draw" and db.value("start") == db.value(0)
    moves = db.moves("start")
    assert [m.name for m in moves] == ["a1", "b1", "c1", "a2", "b2", "c2", "a3", "b3", "c3"]
    for i, m in enumerate(moves):
        board = tuple(1 if j == i else 0 for j in range(9))
        assert m.key == key_of(board)
        assert negamax(board) == ("draw", 0) and m.value.outcome == "draw"


def test_the_arrays_hold_every_state_with_the_brute_force_value(work):
    db = zermelo.open(work)
    keys, outcomes, plies = (np.concatenate(a) for a in zip(*db.blocks()))
    assert keys.dtype == np.uint64 and len(keys) == 5478  # the published count of positions
    assert np.all(np.diff(keys.astype(np.int64)) > 0)
    assert set(map(int, keys)) == {key_of(b) for b in reachable()}
    codes = {"win": zermelo.WIN, "loss": zermelo.LOSS, "draw": zermelo.DRAW}
    for k, o, p in zip(keys.tolist(), outcomes.tolist(), plies.tolist()):
        want = negamax(board_of(k))
        assert (o, p) == (codes[want[0]], want[1]), board_of(k)


def test_probes_by_text_and_line_agree_with_the_brute_force(work):
    db = zermelo.open(work)
    for board in reachable():
        text = "/".join("".join(".XO"[c] for c in board[r:r + 3]) for r in (0, 3, 6))
        v = db.value(text)
        assert (v.outcome, v.plies) == negamax(board), text
        if v.outcome == "win":
            line = db.line(text)
            assert len(line) == v.plies + 1 and line[-1].value.outcome == "loss"
            assert db.best_move(text).name == line[0].move
    assert db.best_move("XXX/OO./...") is None  # the game is over: no move


def text_of(value):
    """A value as "win in 3": a zermelo.Value, or the CLI's JSON (a string or an object)."""
    if isinstance(value, dict):
        return value["result"] + (" in %d" % value["plies"] if value["result"] != "draw" else "")
    return str(value)


def test_a_state_s_moves_as_the_cli_gives_them(work):
    out = subprocess.run([os.environ["ZERMELO_CLI"], "--quiet", "--json", "--work-dir", work,
                          "query", "X../O../..."], check=True,
                         capture_output=True, text=True).stdout
    query = json.loads(out)
    db = zermelo.open(work)
    assert text_of(db.value(query["key"])) == text_of(query["value"])
    assert [(m.name, text_of(m.value)) for m in db.moves(query["key"])] == \
        [(m["move"], text_of(m["value"])) for m in query["moves"]]


def test_threads_probing_at_once_get_the_single_threaded_answers(work):
    db = zermelo.open(work)
    keys = sorted(key_of(b) for b in reachable())
    alone = [str(db.value(k)) + repr(db.moves(k)) for k in keys]
    results = [None] * 4

    def probe(t):
        results[t] = [str(db.value(k)) + repr(db.moves(k)) for k in keys]

    threads = [threading.Thread(target=probe, args=(t,)) for t in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert all(r == alone for r in results)


def test_errors_are_exceptions_with_messages(work, tmp_path):
    with pytest.raises(zermelo.Error, match="no solved game"):
        zermelo.open(str(tmp_path))
    db = zermelo.open(work)
    with pytest.raises(zermelo.Error, match="cannot read state"):
        db.value("XXXX")
    with pytest.raises(zermelo.Error, match="no value"):
        db.value(3**9 - 1)  # a board full of O: not a state of the game
    db.close()
    with pytest.raises(zermelo.Error, match="closed"):
        db.value("start")
