#!/usr/bin/env bash
# The installed package as another program sees it: `cmake --install` into a scratch prefix, the
# C++ example built with find_package(zermelo), the C example with pkg-config, both run on a
# tic-tac-toe solved by the CLI; their values and moves must be the ones `zermelo query` gives.
# With PYTHON and MODULE_DIR (the Python module's folder under the prefix), the installed module
# too: imported with PYTHONPATH at the prefix alone, it must give the same values and moves.
# Usage: installed_example_test.sh BUILD_DIR SOURCE_DIR [PYTHON MODULE_DIR]
set -euo pipefail
build=$1 source=$2 python=${3:-} module_dir=${4:-}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
prefix=$tmp/prefix

cmake --install "$build" --prefix "$prefix" >/dev/null
cli=$prefix/bin/zermelo
cmake -S "$source/examples/probe" -B "$tmp/cxx" -DCMAKE_PREFIX_PATH="$prefix" >/dev/null
cmake --build "$tmp/cxx" >/dev/null
pc=$(find "$prefix" -name zermelo.pc)
flags=$(PKG_CONFIG_PATH=$(dirname "$pc") pkg-config --cflags --libs zermelo)
libdir=$(dirname "$(find "$prefix" -name 'libzermelo.so')")
# shellcheck disable=SC2086  # the flags are words
cc -std=c11 -Wall -Werror "$source/examples/probe/probe_example.c" $flags -Wl,-rpath,"$libdir" \
   -o "$tmp/probe_example_c"

"$cli" --quiet --work-dir "$tmp/ttt" solve tictactoe >/dev/null
# `zermelo query --json` as the examples print it (a value is a string, or an object).
from_cli() {
  "$cli" --quiet --json --work-dir "$tmp/ttt" query "$1" | python3 -c '
import json, sys
q = json.load(sys.stdin)
def text(v):
    if isinstance(v, str) or v["result"] == "draw": return v if isinstance(v, str) else "draw"
    return "%s in %d" % (v["result"], v["plies"])
print("value: " + text(q["value"]))
for m in q["moves"]: print("move %s: %s" % (m["move"], text(m["value"])))'
}

# The installed Python module, printing what the examples print (a value as text, every move's).
python_example() {
  PYTHONPATH="$prefix/$module_dir" "$python" -c '
import sys, zermelo
assert zermelo.__file__.startswith(sys.argv[3]), zermelo.__file__  # the installed copy
db = zermelo.open(sys.argv[1])
print("game: " + db.game)
print("value: %s" % db.value(sys.argv[2]))
for m in db.moves(sys.argv[2]): print("move %s: %s" % (m.name, m.value))' "$1" "$2" "$prefix"
}
examples=("$tmp/cxx/probe_example" "$tmp/probe_example_c")
if [ -n "$python" ]; then
  [ -n "$(find "$prefix/$module_dir" -name 'zermelo*.so')" ] \
    || { echo "no Python module installed in $prefix/$module_dir"; exit 1; }
  examples+=(python_example)
fi

for state in start X../O../... .O./.X./...; do
  want=$(from_cli "$state")
  for example in "${examples[@]}"; do
    got=$("$example" "$tmp/ttt" "$state")
    grep -q '^game: tictactoe$' <<<"$got" || { echo "$example: no game line: $got"; exit 1; }
    values=$(grep -E '^(value:|move) ' <<<"$got")
    if [ "$values" != "$want" ]; then
      echo "$example $state disagrees with zermelo query:"; diff <(echo "$want") <(echo "$values")
      exit 1
    fi
  done
done
# The best move and the perfect line of a won state: X to move wins at once with b1.
got=$("$tmp/cxx/probe_example" "$tmp/ttt" X.X/O../O..)
grep -q '^value: win in 1$' <<<"$got" && grep -q '^best: b1$' <<<"$got" \
  && grep -q '^line: b1$' <<<"$got" \
  || { echo "won state: $got"; exit 1; }
if "$tmp/probe_example_c" "$tmp/ttt" XXXX 2>"$tmp/err"; then
  echo "a bad state was accepted"; exit 1
fi
grep -q 'cannot read state' "$tmp/err" || { cat "$tmp/err"; exit 1; }
echo "installed examples (${#examples[@]}) agree with zermelo query"
