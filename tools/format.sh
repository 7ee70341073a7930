#!/usr/bin/env bash
# The tree's C and C++ files formatted to .clang-format (Debian's clang-format):
#   tools/format.sh          formats every tracked source in place
#   tools/format.sh --check  lists the files that are not formatted, exit 1 if any
set -euo pipefail
cd "$(dirname "$0")/.."
mapfile -t files < <(git ls-files '*.cpp' '*.hpp' '*.h' '*.c')
if [ "${1:-}" = "--check" ]; then
  bad=0
  for f in "${files[@]}"; do
    if ! clang-format --dry-run -Werror "$f" >/dev/null 2>&1; then echo "$f"; bad=1; fi
  done
  exit $bad
fi
clang-format -i "${files[@]}"
