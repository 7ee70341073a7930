#!/usr/bin/env bash
# Breadth-first search from the Ostle start over all 12.9 × 10^9 states (issue: the retrograde
# engine and Ostle, item 4), out of core with the run of unvisited states (`bfs --all-states`),
# in timed, resumable segments (bench/timed_segments.sh); `--sum` adds them up.
# The default budget, 8G, holds the search's record of the moves each position took (2.7 GB, a
# byte a position: pipeline/group_expansions.hpp) beside the filter and the sorter; under 5.5G the
# search runs without it, keying every move of every state (about twice the CPU time).
# Usage: bench/run_ostle_bfs.sh [WORK_DIR] [MEMORY] [BFS FLAGS...]  (defaults: work/ostle-bfs 8G)
#        e.g. bench/run_ostle_bfs.sh work/ostle-bfs-legal 8G --expand-decided  (checkmates expanded too)
#        bench/run_ostle_bfs.sh --sum [WORK_DIR]
#        bench/run_ostle_bfs.sh --table [WORK_DIR]   (each ply from the log, as a markdown table)
set -euo pipefail
cd "$(dirname "$0")/.."
if [[ "${1:-}" == "--sum" ]]; then exec bench/timed_segments.sh --sum "${2:-work/ostle-bfs}"; fi
if [[ "${1:-}" == "--table" ]]; then
  # The search's log lines "ply N: X new states; Y successors sorted, ... U unvisited (...)" and the
  # progress lines "ply N successors|merge: ... in Ts" (progress bars end their lines with \r).
  exec awk 'BEGIN { RS = "[\r\n]" }
    /^ply [0-9]+ successors: .* in [0-9.]+s$/ { t = $NF; sub(/s$/, "", t); succ[$2 + 0] = t }
    /^ply [0-9]+ merge: .* in [0-9.]+s$/ { t = $NF; sub(/s$/, "", t); merge[$2 + 0] = t }
    /^ply [0-9]+: [0-9]+ new states;/ { p = $2 + 0; news[p] = $3; keys[p] = $6; unv[p] = $(NF - 6); if (p > last) last = p }
    END { print "| ply | new states | successor keys merged | unvisited after | successors (s) | merge (s) |"
          print "|--:|--:|--:|--:|--:|--:|"
          for (p = 0; p <= last; ++p) printf "| %d | %s | %s | %s | %s | %s |\n", p, news[p], keys[p], unv[p], succ[p], merge[p] }' "${2:-work/ostle-bfs}.log"
fi
dir="${1:-work/ostle-bfs}"; mem="${2:-8G}"
shift $(( $# < 2 ? $# : 2 ))
exec bench/timed_segments.sh "$dir" -- ./build/zermelo --work-dir "$dir" --memory "$mem" --json bfs ostle --all-states "$@"
