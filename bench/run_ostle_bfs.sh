#!/usr/bin/env bash
# Breadth-first search from the Ostle start over all 12.9 × 10^9 states (issue: the retrograde
# engine and Ostle, item 4), out of core with the run of unvisited states (`bfs --all-states`),
# in timed, resumable segments (bench/timed_segments.sh); `--sum` adds them up.
# The default budget, 8G, holds the search's record of the moves each position took (2.7 GB, a
# byte a position: pipeline/group_expansions.hpp) beside the filter and the sorter; under 5.5G the
# search runs without it, keying every move of every state (about twice the CPU time).
# Usage: bench/run_ostle_bfs.sh [WORK_DIR] [MEMORY]     (defaults: work/ostle-bfs 8G)
#        bench/run_ostle_bfs.sh --sum [WORK_DIR]
set -euo pipefail
cd "$(dirname "$0")/.."
if [[ "${1:-}" == "--sum" ]]; then exec bench/timed_segments.sh --sum "${2:-work/ostle-bfs}"; fi
dir="${1:-work/ostle-bfs}"; mem="${2:-8G}"
exec bench/timed_segments.sh "$dir" -- ./build/zermelo --work-dir "$dir" --memory "$mem" --json bfs ostle --all-states
