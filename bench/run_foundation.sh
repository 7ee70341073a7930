#!/usr/bin/env bash
# The foundation's measurements, side by side in one run: raw dd bandwidth, run-file write/read
# throughput at several zstd settings, and the external sort of N keys under a budget.
# Usage: bench/run_foundation.sh [SCRATCH_DIR] [GIB] [N_KEYS] [MEMORY_MIB]
set -euo pipefail
cd "$(dirname "$0")/.."
dir="${1:-work/bench}"; gib="${2:-4}"; n="${3:-1000000000}"; mem="${4:-1024}"
mkdir -p "$dir"
echo "# $(date -u +%FT%TZ) $(nproc) cores, $(free -g | awk '/Mem/{print $2}') GiB RAM, $(uname -r)"
echo "## dd, ${gib} GiB, O_DIRECT"
dd if=/dev/zero of="$dir/dd.bin" bs=1M count=$((gib * 1024)) oflag=direct 2>&1 | tail -1
dd if="$dir/dd.bin" of=/dev/null bs=1M iflag=direct 2>&1 | tail -1
rm -f "$dir/dd.bin"
echo "## run files, ${gib} GiB per setting"
./build/io_throughput "$dir" "$gib"
echo "## external sort, $n keys, ${mem} MiB"
/usr/bin/time -v ./build/sort_throughput "$dir" "$n" "$mem" --no-ram 2>&1 | grep -E '^\{|Maximum resident|Elapsed|User time|System time'
echo "## STXXL's sorter on the same keys and budget"
/usr/bin/time -v ./build/sort_throughput "$dir" "$n" "$mem" --stxxl 2>&1 | grep -E '^\{|Maximum resident|Elapsed|User time|System time'
echo "## std::sort of 2e8 keys in RAM vs external sort of the same under ${mem} MiB"
./build/sort_throughput "$dir" 200000000 "$mem"
