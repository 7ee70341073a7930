#!/usr/bin/env python3
"""Sums a solve's level lines (its stderr) per run: messages sorted, dropped by the filter,
bytes between ranks, un-moves and merge seconds. A file holding several runs (appended) gives
one line each; a new run starts at its level 1.
Usage: bench/level_totals.py STDERR_FILE..."""
import re
import sys

LEVEL = re.compile(r"level (\d+): (\d+) frontier states, (\d+) messages sorted "
                   r"\((\d+) to undecided states, (\d+) more dropped")
TIMES = re.compile(r"un-moves ([\d.]+) s, sort ([\d.]+) s, merge ([\d.]+) s")
WIRE = re.compile(r"; (\d+) bytes between ranks")


def report(path, run, t):
    print(f"{path} run {run}: {t['levels']} levels, {t['sorted']:,} messages sorted, "
          f"{t['dropped']:,} dropped by the filter, {t['wire']:,} bytes between ranks; "
          f"un-moves {t['unmoves']:.1f} s, merges {t['merge']:.1f} s")


for path in sys.argv[1:]:
    run, totals = 0, None
    for line in open(path, encoding="utf-8", errors="replace"):
        m = LEVEL.match(line)
        if not m:
            continue
        if m.group(1) == "1":
            if totals:
                report(path, run, totals)
            run += 1
            totals = dict(levels=0, sorted=0, dropped=0, wire=0, unmoves=0.0, merge=0.0)
        if totals is None:
            continue  # a resumed run's first lines: no level 1 seen
        totals["levels"] += 1
        totals["sorted"] += int(m.group(3))
        totals["dropped"] += int(m.group(5))
        w = WIRE.search(line)
        totals["wire"] += int(w.group(1)) if w else 0
        t = TIMES.search(line)
        if t:
            totals["unmoves"] += float(t.group(1))
            totals["merge"] += float(t.group(3))
    if totals:
        report(path, run, totals)
