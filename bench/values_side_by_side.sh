#!/usr/bin/env bash
# Two solves' whole-game tables of values by plies side by side (the paper's Table 2 shape): for
# the same game solved under two readings of its rules (Ostle's exact reading and the published
# solver's), each file holding the block "whole game, every tier:" that `solve --tier all
# --verbose` prints (as bench/results/ostle-values.md does). Prints a Markdown table: each ply's
# total under both and the difference, then the draws, wins, losses, states, terminal and valued
# rows; a ply present in one table only counts 0 in the other.
# Usage: bench/values_side_by_side.sh A.md LABEL_A B.md LABEL_B
#        e.g. bench/values_side_by_side.sh bench/results/ostle-values.md exact \
#               bench/results/ostle-values-reference.md reference
set -euo pipefail
if [ $# -ne 4 ]; then
  echo "usage: bench/values_side_by_side.sh A.md LABEL_A B.md LABEL_B" >&2
  exit 2
fi
# The last column of each row of the block (the total over the tiers), as "row total" lines.
totals() {
  awk '/^whole game, every tier:/ { on = 1; next }
       on && $1 == "plies" { next }
       on && NF >= 3 && $NF ~ /^[0-9]+$/ { print $1, $NF; found = 1; next }
       on { on = 0 }
       END { if (!found) { print FILENAME ": no \"whole game, every tier:\" table" > "/dev/stderr";
                           exit 1 } }' "$1"
}
a=$(totals "$1") b=$(totals "$3")
awk -v la="$2" -v lb="$4" '
  FNR == 1 { file++ }
  { v[file, $1] = $2; if (!($1 in seen)) { seen[$1] = 1; order[++n] = $1 } }
  END {  # %.0f, not %d: in mawk %d stops at 2^31 - 1
    printf "| plies | %s | %s | %s − %s |\n|---:|---:|---:|---:|\n", la, lb, lb, la
    for (i = 1; i <= n; ++i) {
      k = order[i]
      x = v[1, k] + 0; y = v[2, k] + 0
      printf "| %s | %.0f | %.0f | %+.0f |\n", k, x, y, y - x
    }
  }' <(echo "$a") <(echo "$b")
