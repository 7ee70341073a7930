#!/usr/bin/env bash
# The whole of Ostle strongly solved from nothing (4v4, then 5v4+4v5, then 5v5), timed for the
# issue's goal: under 6 hours on 2 cores, 16 GB of RAM and 80 GB of disk. Meant for a quiet
# machine. The solve takes longer than a working session: run it again with the same arguments
# and it resumes from the last finished level (each run is one timed segment). The log keeps
# every segment's /usr/bin/time figures, WORK_DIR.du the disk it takes each minute; `--sum` adds up.
# Usage: bench/run_ostle_full.sh [WORK_DIR] [MEMORY]     (defaults: work/ostle-full 4G)
#        bench/run_ostle_full.sh --sum [WORK_DIR]
set -euo pipefail
cd "$(dirname "$0")/.."
if [[ "${1:-}" == "--sum" ]]; then
  log="${2:-work/ostle-full}.log"
  # Wall time as h:mm:ss or m:ss, CPU as user + system seconds, the highest peak RSS.
  awk -F': ' '/Elapsed \(wall clock\)/ { n = split($2, t, ":"); s = 0; for (i = 1; i <= n; ++i) s = s * 60 + t[i]; wall += s }
              /User time|System time/ { cpu += $2 }
              /Maximum resident set size/ { if ($2 > rss) rss = $2 }
              /^du / { disk = $0 }
              END { printf "segments: wall %.0f s (%.2f h), CPU %.0f s, peak RSS %d kB; last %s\n", wall, wall / 3600, cpu, rss, disk }' "$log"
  du_samples="${2:-work/ostle-full}.du"
  [[ -f "$du_samples" ]] && sort -n "$du_samples" | tail -1 | awk '{ printf "peak disk (1-minute samples): %.1f GB\n", $1 / 1e9 }'
  exit 0
fi
dir="${1:-work/ostle-full}"; mem="${2:-4G}"
log="$dir.log"
mkdir -p "$dir"
{
  echo "=== segment from $(date -u +%FT%TZ), commit $(git rev-parse --short HEAD 2>/dev/null || echo unknown), $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg)"
} >> "$log"
# The disk the work dir takes, sampled every minute (the goal is a peak, not the end state).
(while sleep 60; do du -sb "$dir" 2>/dev/null | cut -f1; done) >> "$dir.du" &
sampler=$!
trap 'kill $sampler 2>/dev/null' EXIT
# A failed segment (an I/O stall, a kill) is logged and resumed, at most five times.
for try in 1 2 3 4 5; do
  if OMP_WAIT_POLICY=passive /usr/bin/time -v ./build/zermelo --work-dir "$dir" --memory "$mem" --json \
       solve ostle --tier all > "$dir.json" 2>> "$log"; then
    echo "du $(du -sb "$dir" | cut -f1) bytes at $(date -u +%FT%TZ): solved" >> "$log"
    exit 0
  fi
  echo "du $(du -sb "$dir" | cut -f1) bytes at $(date -u +%FT%TZ): attempt $try failed, resuming" >> "$log"
  sleep 10
done
exit 1
