#!/usr/bin/env bash
# The whole game's table of values by plies, as `solve --verbose` prints it (the block "whole
# game, every tier:" of a results file such as bench/results/ostle-values.md), turned into the
# JSON `zermelo plot` reads (`solve --json`'s tiers[].tier and tiers[].by_plies; plies with no
# state of a tier left out, as the solve leaves them out): for a solve whose --json output was not
# kept, whose work dir is gone or too large to read again.
# Usage: bench/values_table_json.sh RESULTS.md GAME > TABLE.json
#        e.g. bench/values_table_json.sh bench/results/ostle-values.md ostle \
#               > bench/results/ostle-values-by-plies.json
set -euo pipefail
if [ $# -ne 2 ]; then
  echo "usage: bench/values_table_json.sh RESULTS.md GAME > TABLE.json" >&2
  exit 2
fi
awk -v game="$2" '
  /^whole game, every tier:/ { on = 1; next }
  on && $1 == "plies" { tiers = NF - 2; for (i = 2; i <= NF - 1; ++i) name[i] = $i; next }
  on && $1 ~ /^[0-9]+$/ {
    for (i = 2; i <= tiers + 1; ++i)
      if ($i > 0) by[i] = by[i] (by[i] == "" ? "" : ", ") "\"" $1 "\": " $i
    next
  }
  on && $1 !~ /^[0-9]+$/ { on = 0; done = 1 }
  END {
    if (!done || tiers == 0) {
      print "no \"whole game, every tier:\" table found" > "/dev/stderr"
      exit 1
    }
    printf "{\"game\": \"%s\", \"tiers\": [", game
    for (i = 2; i <= tiers + 1; ++i)
      printf "%s\n  {\"tier\": \"%s\", \"by_plies\": {%s}}", (i > 2 ? "," : ""), name[i], by[i]
    print "\n]}"
  }' "$1"
