#!/usr/bin/env bash
# The whole of Ostle strongly solved from nothing (4v4, then 5v4+4v5, then 5v5), timed for the
# issue's goal: under 6 hours on 2 cores, 16 GB of RAM and 80 GB of disk. Meant for a quiet
# machine. Runs in timed, resumable segments (bench/timed_segments.sh): run it again with the
# same arguments and it resumes from the last finished level; `--sum` adds the segments up.
# Usage: bench/run_ostle_full.sh [WORK_DIR] [MEMORY]     (defaults: work/ostle-full 4G)
#        bench/run_ostle_full.sh --sum [WORK_DIR]
set -euo pipefail
cd "$(dirname "$0")/.."
if [[ "${1:-}" == "--sum" ]]; then exec bench/timed_segments.sh --sum "${2:-work/ostle-full}"; fi
dir="${1:-work/ostle-full}"; mem="${2:-4G}"
exec bench/timed_segments.sh "$dir" -- ./build/zermelo --work-dir "$dir" --memory "$mem" --json solve ostle --tier all
