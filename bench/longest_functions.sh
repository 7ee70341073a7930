#!/usr/bin/env bash
# The house in figures at a git revision: its 12 longest functions (Universal Ctags start/end
# lines), how many are over 40 lines, and how many source lines are over 100 characters.
# Usage: bench/longest_functions.sh [REV]   (default HEAD; run from anywhere in the repository)
set -eu
rev=${1:-HEAD}; repo=$(git rev-parse --show-toplevel); d=$(mktemp -d); trap 'rm -rf "$d"' EXIT
git -C "$repo" archive "$rev" | tar -x -C "$d"
cd "$d"
tags() {
  ctags -R --languages=C++,C --kinds-C++=f --kinds-C=f --fields=+ne -x \
    --_xformat='%n	%e	%F	%N' src pipeline tools include python 2>/dev/null
}
tags | awk -F'\t' '$2 != "" {print $2-$1+1, $3":"$1, $4}' | sort -rn | head -12
echo "functions over 40 lines: $(tags | awk -F'\t' '$2 != "" && $2-$1+1 > 40' | wc -l)"
over=$(find src pipeline tools include python tests bench \( -name '*.cpp' -o -name '*.hpp' \
  -o -name '*.h' -o -name '*.c' \) -exec cat {} + | python3 -c \
  'import sys; print(sum(len(l.rstrip("\n")) > 100 for l in sys.stdin))')
echo "lines over 100 characters: $over"
