#!/usr/bin/env bash
# Runs a long, resumable zermelo job as timed segments: each call is one segment under
# /usr/bin/time -v (its figures appended to WORK_DIR.log), the disk the work dir takes sampled each
# minute into WORK_DIR.du (the goals are peaks, not end states), the job's JSON in WORK_DIR.json.
# A job longer than a working session is stopped and run again with the same command: it resumes
# from its manifest. A failed attempt (an I/O stall, a kill) is logged and resumed, at most five
# times. `--sum` adds the segments up.
# Usage: bench/timed_segments.sh WORK_DIR -- COMMAND [ARGS...]
#        bench/timed_segments.sh --sum WORK_DIR
set -euo pipefail
cd "$(dirname "$0")/.."
if [[ "${1:-}" == "--sum" ]]; then
  dir="${2:?usage: $0 --sum WORK_DIR}"
  # Wall time as h:mm:ss or m:ss, CPU as user + system seconds, the highest peak RSS.
  awk -F': ' '/Elapsed \(wall clock\)/ { n = split($2, t, ":"); s = 0; for (i = 1; i <= n; ++i) s = s * 60 + t[i]; wall += s }
              /User time|System time/ { cpu += $2 }
              /Maximum resident set size/ { if ($2 > rss) rss = $2 }
              /^du / { disk = $0 }
              END { printf "segments: wall %.0f s (%.2f h), CPU %.0f s, peak RSS %d kB; last %s\n", wall, wall / 3600, cpu, rss, disk }' "$dir.log"
  [[ -f "$dir.du" ]] && sort -n "$dir.du" | tail -1 | awk '{ printf "peak disk (1-minute samples): %.1f GB\n", $1 / 1e9 }'
  exit 0
fi
dir="${1:?usage: $0 WORK_DIR -- COMMAND...}"
[[ "${2:-}" == "--" ]] || { echo "usage: $0 WORK_DIR -- COMMAND..." >&2; exit 2; }
shift 2
log="$dir.log"
mkdir -p "$dir"
echo "=== segment from $(date -u +%FT%TZ), commit $(git rev-parse --short HEAD 2>/dev/null || echo unknown), $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg): $*" >> "$log"
(while sleep 60; do du -sb "$dir" 2>/dev/null | cut -f1; done) >> "$dir.du" &
sampler=$!
trap 'kill $sampler 2>/dev/null' EXIT
for try in 1 2 3 4 5; do
  if OMP_WAIT_POLICY=passive /usr/bin/time -v "$@" > "$dir.json" 2>> "$log"; then
    echo "du $(du -sb "$dir" | cut -f1) bytes at $(date -u +%FT%TZ): finished" >> "$log"
    exit 0
  fi
  echo "du $(du -sb "$dir" | cut -f1) bytes at $(date -u +%FT%TZ): attempt $try failed, resuming" >> "$log"
  sleep 10
done
exit 1
