#!/bin/sh
# Shards over MPI ranks (docs/distributed.md): `mpirun -np N zermelo solve` gives the values run
# of the single-process solve, digest for digest, on 2 and 3 ranks; a rank killed mid-solve stops
# the whole job with mpirun's message instead of leaving the other ranks waiting, and the same
# command resumes it, also when the kill fell between two ranks' records of a stage. The
# breadth-first search over all states gives the single process's result on 2 and 3 ranks, and
# resumes likewise.
# Usage: mpi_solve.sh ZERMELO MPIRUN SCRATCH_DIR
set -eu
zermelo=$1 mpirun=$2 dir=$3
rm -rf "$dir" && mkdir -p "$dir"
trap 'cat "$dir/killed.out" 2>/dev/null | tail -n 12; rm -rf "$dir"' EXIT

# In containers the shared-memory transport's single copy (ptrace rights) is often refused:
# plain copies work everywhere.
export OMPI_MCA_btl_vader_single_copy_mechanism=none

on_ranks() {  # on_ranks N ARGS...: zermelo on N ranks
  n=$1 && shift
  timeout 120 "$mpirun" --oversubscribe --allow-run-as-root -np "$n" "$zermelo" --quiet --json \
    --threads 1 "$@"
}
digest() { sed -n 's/.*"digest": "\([0-9a-f]*\)".*/\1/p' | head -n 1; }
digests() { sed -n 's/.*"digest": "\([0-9a-f]*\)".*/\1/p' | tr '\n' ' '; }  # every tier's

# Tiered games too (Onitama 2x3, ostle-mini 2x3:p2, Nim 2x3 tiered): a tier's scan reads the
# tiers below it, whose values runs rank 0 copies to every rank. Each rank scans its own keys,
# so the ranks must agree on the last level with scheduled work (in tiered Nim they differ: a
# rank that stopped early left the others waiting; timeout turns such a hang into a failure).
for game in tictactoe "nim 4x6" "onitama 2x3" "ostle-mini 2x3:p2" "nim 2x3 tiered"; do
  tag=$(echo "$game" | tr ' :' '--')
  # shellcheck disable=SC2086  # the game's words
  want=$("$zermelo" --quiet --json --work-dir "$dir/$tag" --memory 512M solve $game | digests)
  for n in 2 3; do
    # shellcheck disable=SC2086
    got=$(on_ranks "$n" --work-dir "$dir/$tag-$n" --memory 512M solve $game | digests)
    if [ -z "$got" ] || [ "$got" != "$want" ]; then
      echo "FAIL: $game on $n ranks: digest '$got', the single process's '$want'"
      exit 1
    fi
    echo "ok: $game on $n ranks: $got"
  done
done

# The filter of undecided groups across ranks: each rank learns after every level the groups the
# others closed (only the words that changed cross), so it drops exactly the messages that one
# process with as many shards drops, and the solve counts each dropped message once.
filtered() { sed -n 's/.*"messages_filtered": \([0-9]*\).*/\1/p' | tr '\n' ' '; }
want=$("$zermelo" --quiet --json --work-dir "$dir/filter-1" --memory 512M \
  solve ostle-mini 2x3:p2 --shards 2 | filtered)
got=$(on_ranks 2 --work-dir "$dir/filter-2" --memory 512M solve ostle-mini 2x3:p2 | filtered)
if [ -z "$want" ] || [ "$want" = "0 0 0 " ] || [ "$got" != "$want" ]; then
  echo "FAIL: messages dropped by the filter on 2 ranks '$got', in one process of 2 shards '$want'"
  exit 1
fi
echo "ok: the filter on 2 ranks dropped what 2 shards drop in one process: $got"

# The breadth-first search over all states, one shard a rank: the single process's result, on
# 2 and 3 ranks. Rank 0 gathers every rank's part of the unreached run and of the deepest ply
# (docs/distributed.md), so its JSON and its human table are the single process's (but for the
# work statistics, which depend on each rank's filter), and so is the unreached run, state for
# state. A game with groups (ostle-mini: the filter and the record of moves a group took, each
# rank its own), one without (nim), and cases where rank 0 holds none of the deepest states
# (tictactoe on 2 and 3 ranks; ostle-mini 2x3:p2 on 3, whose unreached states lie on every
# rank), checked from rank 0's record of each rank's part, so that the case cannot vanish.
mpi() {  # mpi N ARGS...: zermelo on N ranks, human output
  n=$1 && shift
  timeout 120 "$mpirun" --oversubscribe --allow-run-as-root -np "$n" "$zermelo" --quiet \
    --threads 1 "$@"
}
bfs_result() {  # `bfs --json` but its work statistics and the unreached run's path
  grep -v '"\(resumed\|unreached_run\|filtered\|keyless\|filter_bits_per_group\)":'
}
bfs_table() { sed 's/; successors dropped by the filter.*//'; }  # the human table, likewise
unreached_states() {  # WORK_DIR: every state of its unreached run, by tier
  "$zermelo" --json tally --run "$(ls "$1"/unvisited-*.run)" --examples 1000000 | grep -v '"run":'
}
deepest_on_rank_0() {  # WORK_DIR: the deepest ply's states rank 0 held (its manifest's record)
  sed -n '/"deepest_by_rank"/{n;p;}' "$1/manifest.json" | tr -d ' ,'
}
for game in "ostle-mini 3x3:p2" "nim 4x6" tictactoe "ostle-mini 2x3:p2"; do
  tag=bfs-$(echo "$game" | tr ' :' '--')
  # shellcheck disable=SC2086  # the game's words
  want=$("$zermelo" --quiet --json --work-dir "$dir/$tag" --memory 256M bfs $game --all-states |
    bfs_result)
  # shellcheck disable=SC2086
  want_table=$("$zermelo" --quiet --work-dir "$dir/$tag" --memory 256M bfs $game --all-states |
    bfs_table)
  want_unreached=$(unreached_states "$dir/$tag")
  for n in 2 3; do
    work="$dir/$tag-$n"
    # shellcheck disable=SC2086
    got=$(on_ranks "$n" --work-dir "$work" --memory 256M bfs $game --all-states | bfs_result)
    if [ -z "$want" ] || [ "$got" != "$want" ]; then
      echo "FAIL: bfs $game on $n ranks:"
      echo "$got"
      echo "the single process's:"
      echo "$want"
      exit 1
    fi
    # shellcheck disable=SC2086  # read back from the finished work dirs: the human table
    got_table=$(mpi "$n" --work-dir "$work" --memory 256M bfs $game --all-states | bfs_table)
    if [ "$got_table" != "$want_table" ]; then
      echo "FAIL: bfs $game on $n ranks, the table:"
      echo "$got_table"
      echo "the single process's:"
      echo "$want_table"
      exit 1
    fi
    if [ "$(unreached_states "$work")" != "$want_unreached" ]; then
      echo "FAIL: bfs $game on $n ranks: rank 0's unreached run is not the single process's"
      exit 1
    fi
    "$zermelo" --quiet verify "$work" >/dev/null || { echo "FAIL: verify $work"; exit 1; }
    case "$game $n" in
      "tictactoe 2" | "tictactoe 3" | "ostle-mini 2x3:p2 3")
        if [ "$(deepest_on_rank_0 "$work")" != 0 ]; then
          echo "FAIL: bfs $game on $n ranks: rank 0 held some deepest states; the case is lost"
          exit 1
        fi
        echo "ok: bfs $game on $n ranks (rank 0 held none of the deepest states)" ;;
      *) echo "ok: bfs $game on $n ranks" ;;
    esac
  done
done
# Each rank's --memory must hold its shards' inboxes and passes: refused up front, with figures.
if out=$(mpi 2 --work-dir "$dir/bfs-memory" --memory 100M bfs nim 4x6 --all-states \
  --shards 8 2>&1); then
  echo "FAIL: 8 shards on 2 ranks ran within --memory 100M"
  exit 1
fi
case "$out" in
  *"--memory 100M is below the 145M that 8 shards need, 4 on a rank"*) ;;
  *) echo "FAIL: the refusal does not say what 8 shards need: $out"; exit 1 ;;
esac
echo "ok: bfs with 8 shards on 2 ranks refused within --memory 100M"
# Killed between two ranks' records of step 1 (the rank that has its states walks and sends its
# share again), of a ply, or of the end: one rank records it and dies while the other waits
# before recording it; the same command resumes both to the same result.
want=$("$zermelo" --quiet --json --work-dir "$dir/bfs-kill-single" --memory 256M \
  bfs ostle-mini 3x3:p2 --all-states | bfs_result)
for stage in shards ply-3 "done"; do
  args="--quiet --json --threads 1 --work-dir $dir/bfs-kill-$stage --memory 256M bfs ostle-mini"
  args="$args 3x3:p2 --all-states"
  # shellcheck disable=SC2086  # the words of the commands
  if "$mpirun" --oversubscribe --allow-run-as-root -np 1 env ZERMELO_STALL_BEFORE_STAGE=$stage \
    "$zermelo" $args : -np 1 env ZERMELO_FAULT_AFTER_STAGE=$stage "$zermelo" $args \
    >"$dir/bfs-kill-$stage.out" 2>&1; then
    echo "FAIL: bfs with a rank dying after $stage exited 0"
    exit 1
  fi
  # shellcheck disable=SC2086
  got=$(timeout 120 "$mpirun" --oversubscribe --allow-run-as-root -np 2 "$zermelo" $args |
    bfs_result)
  if [ "$got" != "$want" ]; then
    echo "FAIL: bfs resumed after a kill at $stage on one rank: '$got', not '$want'"
    exit 1
  fi
  echo "ok: bfs resumed after a kill at $stage on one rank"
done

# A kill between two ranks' records of one stage: rank 1 records STAGE and dies while rank 0
# waits before recording it (ZERMELO_STALL_BEFORE_STAGE), or the other way round. The same
# command must then resume on both ranks to the single process's digests. STAGE "a/b": the one
# rank waits before recording a, the other dies after recording b (a later stage).
split_kill() {  # split_kill NAME STAGE RANK_THAT_RECORDS GAME...
  work="$dir/split-$1" stage=$2 first=$3 && shift 3
  # shellcheck disable=SC2086,SC2048  # the game's words
  want=$("$zermelo" --quiet --json --work-dir "$work-single" --memory 512M solve $* | digests)
  args="--quiet --json --threads 1 --work-dir $work --memory 256M solve $*"
  stall="env ZERMELO_STALL_BEFORE_STAGE=${stage%/*}"
  fault="env ZERMELO_FAULT_AFTER_STAGE=${stage#*/}"
  if [ "$first" = 1 ]; then r0=$stall r1=$fault; else r0=$fault r1=$stall; fi
  # shellcheck disable=SC2086  # the words of the commands
  if "$mpirun" --oversubscribe --allow-run-as-root -np 1 $r0 "$zermelo" $args : \
    -np 1 $r1 "$zermelo" $args >"$work.out" 2>&1; then
    echo "FAIL: $work: the job with a rank dying after $stage exited 0"
    exit 1
  fi
  # shellcheck disable=SC2086
  got=$(timeout 120 "$mpirun" --oversubscribe --allow-run-as-root -np 2 "$zermelo" $args | digests)
  if [ "$got" != "$want" ]; then
    echo "FAIL: $work: resumed after a kill at $stage on one rank: '$got', not '$want'"
    exit 1
  fi
  echo "ok: $work: resumed to $got"
}
# Step 1 under MPI is collective (each rank's keys come from every rank's share): a rank that
# recorded it, or went on to record the initial scan, sends its share again for the other.
split_kill enumerate-on-rank-1 enumerate 1 nim 5x7
split_kill init-on-rank-0 enumerate/init 0 nim 5x7
split_kill level-ahead level-3 1 nim 5x7
split_kill final-on-rank-1 final 1 nim 5x7
split_kill final-on-rank-0 final 0 nim 5x7
split_kill tiered-final-on-rank-0 final 0 onitama 2x3  # the first tier's; then the copy

# A rank killed: mpirun must end the job (non-zero) well within the time bound, not hang; the
# same command then resumes to the single process's digest.
want=$("$zermelo" --quiet --json --work-dir "$dir/nim-6x8" --memory 512M solve nim 6x8 | digest)
# Rank 1 stalls 5 s before it records level 3, so the job cannot end before the kill however
# fast the machine (nim 6x8 takes 2 s on two ranks).
args="--quiet --threads 1 --work-dir $dir/killed --memory 512M solve nim 6x8"
# shellcheck disable=SC2086  # the words of the command
"$mpirun" --oversubscribe --allow-run-as-root -np 1 "$zermelo" $args : \
  -np 1 env ZERMELO_STALL_BEFORE_STAGE=level-3 "$zermelo" $args >"$dir/killed.out" 2>&1 &
job=$!  # mpirun itself: its children are the ranks
waited=0  # until rank 1 has begun its work dir, and a second more
while [ ! -d "$dir/killed/rank-1" ] && [ $waited -lt 60 ]; do sleep 1; waited=$((waited + 1)); done
sleep 1
victim=$(pgrep -P "$job" | tail -n 1)
[ -n "$victim" ] || { echo "FAIL: no rank to kill (did the job end already?)"; exit 1; }
kill -9 "$victim"
waited=0
while kill -0 "$job" 2>/dev/null && [ $waited -lt 120 ]; do sleep 1; waited=$((waited + 1)); done
if kill -0 "$job" 2>/dev/null; then
  kill -9 "$job"
  echo "FAIL: the job still runs 120 s after a rank was killed"
  exit 1
fi
if wait "$job"; then echo "FAIL: the job exited 0 with a rank killed"; exit 1; fi
grep -q "signal 9" "$dir/killed.out" || { echo "FAIL: no word of the killed rank:"; cat "$dir/killed.out"; exit 1; }
echo "ok: a killed rank stopped the job in ${waited} s"
got=$(on_ranks 2 --work-dir "$dir/killed" --memory 512M solve nim 6x8 | digest)
[ "$got" = "$want" ] || { echo "FAIL: resumed after the kill: digest '$got', not '$want'"; exit 1; }
echo "ok: the same command resumed the killed job to $got"
