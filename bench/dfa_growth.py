#!/usr/bin/env python3
"""The growth of a Breakthrough solve's forward sets, ply by ply, and what it projects.

Why: a board too large to solve in one go (6x6) is measured for its first plies with the sets
out of core; this fits the growth of those plies against a smaller board solved whole (5x6), so
that the projected cost of the whole solve comes from measured figures, with its assumptions
printed beside it.

Usage: bench/dfa_growth.py MANIFEST REFERENCE_JSON [--fit-plies K] [--json]
  MANIFEST        an external solve's record (DIR/manifest.json of `breakthrough solve --external`)
  REFERENCE_JSON  the `--json` output of a whole solve of a smaller board, in RAM or external
                  (its steps: reach states and bytes per ply; forward and backward seconds)

The model: the ratio of the two boards' forward sets (DFA states of R(i)) at the same ply is
fitted as exp(a + b*i) over the last K measured plies; the large board is taken to follow the
small board's curve times that ratio. Two bounds: the ratio held at its last measured value
("low"), and the fitted ratio continued to every ply ("high"). Seconds scale with states at the
large board's own measured rate (seconds a state of R over the fitted plies), bytes likewise; the
back-up is taken to cost what it cost the small board relative to its forward search.
"""
import argparse
import json
import math


def forward_rows(manifest):
    rows = []
    last = 0.0
    for r in manifest["forward"]:
        rows.append({"ply": r["ply"], "states": r["reach"]["states"], "bytes": r["reach"]["bytes"],
                     "open_states": r["open"]["states"], "seconds": r["seconds"] - last})
        last = r["seconds"]
    return rows


def reference_rows(ref):
    return [{"ply": s["ply"], "states": s["reach"]["states"], "bytes": s["reach"]["bytes"]}
            for s in ref["steps"]]


def fit_line(xs, ys):
    n = len(xs)
    mx, my = sum(xs) / n, sum(ys) / n
    sxx = sum((x - mx) ** 2 for x in xs)
    b = sum((x - mx) * (y - my) for x, y in zip(xs, ys)) / sxx
    return my - b * mx, b


def project(big, small, ref, k):
    by_ply = {r["ply"]: r for r in small}
    measured = [r for r in big if r["ply"] in by_ply and by_ply[r["ply"]]["states"] > 0]
    fit = measured[-k:]
    xs = [r["ply"] for r in fit]
    a, b = fit_line(xs, [math.log(r["states"] / by_ply[r["ply"]]["states"]) for r in fit])
    last = measured[-1]
    last_ratio = last["states"] / by_ply[last["ply"]]["states"]
    sec_per_state = sum(r["seconds"] for r in fit) / sum(r["states"] for r in fit)
    bytes_per_state = sum(r["bytes"] for r in fit) / sum(r["states"] for r in fit)
    backup_factor = ref["backward_seconds"] / ref["forward_seconds"]
    out = {"fitted_plies": xs, "ratio_per_ply": math.exp(b), "ratio_at_last_ply": last_ratio,
           "seconds_per_state": sec_per_state, "bytes_per_state": bytes_per_state,
           "backup_over_forward": backup_factor, "bounds": {}}
    measured_states = sum(r["states"] for r in big)
    measured_seconds = sum(r["seconds"] for r in big)
    for name, ratio in (("low", lambda i: last_ratio),
                        ("high", lambda i: math.exp(a + b * i))):
        rest = [ratio(r["ply"]) * r["states"] for r in small if r["ply"] > last["ply"]]
        states = measured_states + sum(rest)
        forward_s = measured_seconds + sec_per_state * sum(rest)
        out["bounds"][name] = {
            "largest_set_states": max([r["states"] for r in big] + rest),
            "forward_states": states,
            "forward_bytes": states * bytes_per_state,
            "forward_seconds": forward_s,
            "backup_seconds": forward_s * backup_factor,
            "total_seconds": forward_s * (1 + backup_factor),
        }
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("manifest")
    ap.add_argument("reference")
    ap.add_argument("--fit-plies", type=int, default=4)
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    with open(args.manifest) as f:
        big = forward_rows(json.load(f))
    with open(args.reference) as f:
        ref = json.load(f)
    small = reference_rows(ref)
    p = project(big, small, ref, args.fit_plies)
    if args.json:
        print(json.dumps({"measured": big, "projection": p}, indent=2))
        return
    by_ply = {r["ply"]: r for r in small}
    print("ply | R states | ratio to the reference | seconds | bytes")
    for r in big:
        ref_states = by_ply.get(r["ply"], {}).get("states", 0)
        ratio = "%.2f" % (r["states"] / ref_states) if ref_states else "-"
        print("%3d | %12d | %8s | %9.1f | %d" % (r["ply"], r["states"], ratio, r["seconds"],
                                               r["bytes"]))
    print("ratio grows %.3fx a ply (fit over plies %s); %.1f us and %.1f bytes a state of R"
          % (p["ratio_per_ply"], p["fitted_plies"], 1e6 * p["seconds_per_state"],
             p["bytes_per_state"]))
    print("back-up / forward of the reference: %.2f" % p["backup_over_forward"])
    for name, q in p["bounds"].items():
        print("%-4s: largest set %.3g states; forward sets %.3g states, %.3g GB; forward %.1f h,"
              " back-up %.1f h, total %.1f h (one thread at the measured rate)"
              % (name, q["largest_set_states"], q["forward_states"], q["forward_bytes"] / 1e9,
                 q["forward_seconds"] / 3600, q["backup_seconds"] / 3600,
                 q["total_seconds"] / 3600))


if __name__ == "__main__":
    main()
