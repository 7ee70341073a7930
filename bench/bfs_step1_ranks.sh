#!/bin/sh
# Step 1 of the breadth-first search over all states alone (every state enumerated into the
# shards' stretches of U_0, stage "shards"), on N MPI ranks: rank 0's CPU (user + sys), wall and
# peak RSS, as /usr/bin/time gives them. With N = 1 one process walks every state; with N > 1
# each rank walks its share of the enumeration's parts (docs/distributed.md).
# Usage: bench/bfs_step1_ranks.sh ZERMELO N WORK_DIR SHARDS GAME [OPTIONS...]
#   e.g. bench/bfs_step1_ranks.sh build/zermelo 2 work/step1 2 ostle-mini 4x4:p3
# Prints "rank 0: user U s, sys S s, cpu C s, wall W s, peak RSS K KiB".
# As root, OpenMPI wants OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 (or
# --allow-run-as-root); in a container, OMPI_MCA_btl_vader_single_copy_mechanism=none.
set -eu
zermelo=$1 n=$2 work=$3 shards=$4
shift 4
rm -rf "$work" "$work.time" && mkdir -p "$work"
# Rank 0 stops once it has recorded step 1 (exit 77: the fault injected after stage "shards"),
# and mpirun then ends the other ranks.
# shellcheck disable=SC2016  # expanded by each rank's shell
mpirun --oversubscribe -np "$n" sh -c 'if [ "$OMPI_COMM_WORLD_RANK" = 0 ]; then
    exec /usr/bin/time -f "%U %S %e %M" -o "$0.time" env ZERMELO_FAULT_AFTER_STAGE=shards "$@"
  fi
  exec "$@"' "$work" \
  "$zermelo" --quiet --threads 1 --memory 1G --work-dir "$work/job" bfs "$@" --all-states \
  --shards "$shards" >/dev/null 2>&1 || true
tail -n 1 "$work.time" | awk '{ printf "rank 0: user %.2f s, sys %.2f s, cpu %.2f s, wall %.2f s, peak RSS %d KiB\n", $1, $2, $1 + $2, $3, $4 }'
rm -f "$work.time"
