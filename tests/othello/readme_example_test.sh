#!/usr/bin/env bash
# The README's Othello example, run as the README writes it from the source tree: every line of
# the problem file it names is solved, the table has a row a position, and each row's score is
# the score the file publishes ("yes" in the agreement column).
# Usage: readme_example_test.sh ZERMELO_BINARY SOURCE_DIR
set -euo pipefail
cli=$1 source=$2
cd "$source"
example=$(grep -m1 -E '^build/zermelo othello solve tests/data/[^ ]+\.obf' README.md || true)
[ -n "$example" ] \
  || { echo "README.md names no 'build/zermelo othello solve tests/data/' file"; exit 1; }
file=$(awk '{print $4}' <<<"$example")
out=$("$cli" --quiet othello solve "$file")
echo "$out"
positions=$(grep -cvE '^[[:space:]]*(%|#|$)' "$file")
rows=$(grep -cE '^ +[0-9]+ \|' <<<"$out")
agreeing=$(grep -cE '^ +[0-9]+ \|.*\| yes$' <<<"$out")
[ "$rows" -eq "$positions" ] || { echo "$rows rows for $positions positions of $file"; exit 1; }
[ "$agreeing" -eq "$positions" ] || { echo "$agreeing of $positions rows agree"; exit 1; }
# The score column (3rd) equals the published one (8th) in every row, as the file gives it.
awk -F'|' '/^ +[0-9]+ \|/ {
             gsub(/ /, ""); if ($3 != $8) { print "row " $1 ": " $3 " vs " $8; bad = 1 } }
           END { exit bad }' <<<"$out"
grep -q "; none disagrees with the file$" <<<"$out"
echo "the README's Othello example agrees with $file"
