#!/usr/bin/env bash
# The reliability trials of bench/RESULTS.md ("Reliability"), as a user would try them, counted:
#   flips      single bytes flipped at random in every file of a finished job; verify must fail
#   kills      a solve SIGKILLed at a random moment, then resumed; the digest must not change
#   signals    SIGINT/SIGTERM: exit 130/143 and "interrupted ... resumes", then resumed
#   full disk  a solve on a small tmpfs: a clean error, and verify of what is left never passes
#              a half-written job (skipped where tmpfs cannot be mounted)
#   bad input  malformed commands: a non-zero exit and one "zermelo: error" line or a CLI11
#              message, never a crash (exit >= 128) or a C++ exception's name
#   writers    two solves into one work dir 0-2 s apart: one refused by the lock, one finishing,
#              the directory verifying
# Usage: bench/reliability.sh [TRIALS]   (default 40 a kind; prints a markdown table)
set -uo pipefail
cd "$(dirname "$0")/.."
Z="$PWD/build/zermelo"
N="${1:-40}"
T="$(mktemp -d)"
trap 'umount "$T/small" 2>/dev/null; rm -rf "$T"' EXIT
JOB=(solve onitama 3x4 boar)
rand_ms() { echo $((RANDOM % $1)); }

"$Z" --quiet --json --work-dir "$T/ref" "${JOB[@]}" > "$T/ref.json" || exit 1
REF=$(grep -o '"digest": "[0-9a-f]*"' "$T/ref.json" | tail -1 | cut -d'"' -f4)

# flips: a random byte of a random file of the finished job, flipped, verified, restored
flips=0; caught=0
mapfile -t files < <(find "$T/ref" -type f | sort)
for ((i = 0; i < N * 10; ++i)); do
  f="${files[RANDOM % ${#files[@]}]}"
  size=$(stat -c %s "$f"); at=$(( (RANDOM * 32768 + RANDOM) % size ))
  orig=$(dd if="$f" bs=1 skip="$at" count=1 2>/dev/null | od -An -tu1 | tr -d ' ')
  printf "$(printf '\\%03o' $(( (orig ^ 0x5a) & 255 )))" | dd of="$f" bs=1 seek="$at" conv=notrunc 2>/dev/null
  flips=$((flips + 1))
  "$Z" --quiet verify "$T/ref" > /dev/null 2>&1 || caught=$((caught + 1))
  printf "$(printf '\\%03o' "$orig")" | dd of="$f" bs=1 seek="$at" conv=notrunc 2>/dev/null
done
"$Z" --quiet verify "$T/ref" > /dev/null || echo "warning: the job did not verify after the flips" >&2

# kills: SIGKILL at a random moment of the ~10 s solve, then resume to the same digest
kills=0; kill_bad=0
for ((i = 0; i < N; ++i)); do
  w="$T/kill$i"
  "$Z" --quiet --work-dir "$w" "${JOB[@]}" > /dev/null 2>&1 & pid=$!
  sleep "$(rand_ms 8000 | awk '{ print $1 / 1000 }')"; kill -9 "$pid" 2>/dev/null; wait "$pid" 2>/dev/null
  got=$("$Z" --quiet --json --work-dir "$w" "${JOB[@]}" 2>/dev/null | grep -o '"digest": "[0-9a-f]*"' | tail -1 | cut -d'"' -f4)
  kills=$((kills + 1)); [[ "$got" == "$REF" ]] || kill_bad=$((kill_bad + 1))
  rm -rf "$w"
done

# signals: SIGINT or SIGTERM, the exit code and the message, then resume
sigs=0; sig_bad=0
for ((i = 0; i < N / 2; ++i)); do
  w="$T/sig$i"; sig=$([[ $((i % 2)) == 0 ]] && echo INT || echo TERM); want=$([[ $sig == INT ]] && echo 130 || echo 143)
  "$Z" --work-dir "$w" "${JOB[@]}" > /dev/null 2> "$T/sig.err" & pid=$!
  sleep "$(rand_ms 6000 | awk '{ print 0.3 + $1 / 1000 }')"; kill -s "$sig" "$pid"; wait "$pid"; rc=$?
  got=$("$Z" --quiet --json --work-dir "$w" "${JOB[@]}" 2>/dev/null | grep -o '"digest": "[0-9a-f]*"' | tail -1 | cut -d'"' -f4)
  sigs=$((sigs + 1))
  if [[ $rc != "$want" ]] || ! grep -q "interrupted.*the same command resumes" "$T/sig.err" || [[ "$got" != "$REF" ]]; then
    [[ $rc == 0 ]] || sig_bad=$((sig_bad + 1))  # a solve that finished before the signal is no fault
  fi
  rm -rf "$w"
done

# full disk: a tmpfs too small for the job
disks="skipped (tmpfs not mountable here)"; disk_bad=0
mkdir -p "$T/small"
if mount -t tmpfs -o size=3M tmpfs "$T/small" 2>/dev/null; then
  disks=0
  for ((i = 0; i < N / 4; ++i)); do
    rm -rf "$T/small/w"
    out=$("$Z" --quiet --work-dir "$T/small/w" "${JOB[@]}" 2>&1); rc=$?
    disks=$((disks + 1))
    if [[ $rc == 0 ]] || ! grep -q "zermelo: error" <<< "$out" || grep -q "terminate\|bad_alloc" <<< "$out"; then
      disk_bad=$((disk_bad + 1))
    elif "$Z" --quiet verify "$T/small/w" > /dev/null 2>&1 && "$Z" --quiet --work-dir "$T/small/w" query start > /dev/null 2>&1; then
      disk_bad=$((disk_bad + 1))  # a failed solve must not leave a job that answers
    fi
  done
  umount "$T/small"
fi

# bad input: malformed commands
"$Z" --quiet --work-dir "$T/ttt" solve tictactoe > /dev/null
BAD=(
  "solve chess" "solve nim 3x5x" "solve nim 0x0" "solve nim 3x" "solve nim -3x4" "solve nim 99x99"
  "solve onitama 7x7" "solve onitama 3x4 wolf" "solve onitama 0x4" "solve ostle --tier 9v9"
  "--memory '' games" "--memory 1T games" "--memory -1G games" "--memory 99999999999999999999G games"
  "--memory lots games" "--memory 100M --work-dir $T/m solve nim 4x7" "--threads '' games"
  "--threads -1 games" "--work-dir '' games" "--work-dir $T/ttt query start --forbidden x"
  "--work-dir $T/ttt query XXXX" "--work-dir $T/ttt query nim start" "--work-dir $T/ttt query"
  "--work-dir $T/ttt check-solution --sample -1" "--work-dir $T/ttt play --games -1"
  "--work-dir $T/ttt play --as third" "--work-dir $T/nothing query start" "verify $T/nothing"
  "info $T/ttt/manifest.json" "info $T/nothing.run" "tally --run $T/nothing.run"
  "othello weak-solve --leaf-empties -1" "othello solve XXXX X" "othello perft -1"
  "ostle show 1111" "ostle show 11111-00000-00300-00000-2222x" "onitama count --board 9x"
  "breakthrough solve --board 0x0" "nim solve --heaps -1 --sticks 3" "bfs nim 3x5 --max-ply -4"
)
bad=0; bad_wrong=0
for cmd in "${BAD[@]}"; do
  out=$(eval "timeout 60 $Z --quiet $cmd" 2>&1 < /dev/null); rc=$?
  bad=$((bad + 1))
  if [[ $rc == 0 || $rc -ge 124 ]] || grep -qi "terminate called\|bad_alloc\|what()\|std::" <<< "$out"; then
    bad_wrong=$((bad_wrong + 1)); echo "bad input answered wrongly (exit $rc): $cmd: ${out:0:200}" >&2
  fi
done

# writers: two solves into one work dir, the second started 0-2 s after the first
pairs=0; pair_bad=0
for ((i = 0; i < N / 4; ++i)); do
  w="$T/pair$i"
  "$Z" --quiet --work-dir "$w" "${JOB[@]}" > /dev/null 2>&1 & a=$!
  sleep "$(rand_ms 2000 | awk '{ print $1 / 1000 }')"
  "$Z" --quiet --work-dir "$w" "${JOB[@]}" > /dev/null 2> "$T/pair.err"; rb=$?
  wait "$a"; ra=$?
  pairs=$((pairs + 1))
  if [[ $ra != 0 ]] || { [[ $rb != 0 ]] && ! grep -q "is in use by pid" "$T/pair.err"; } || ! "$Z" --quiet verify "$w" > /dev/null 2>&1; then
    pair_bad=$((pair_bad + 1))
  fi
  rm -rf "$w"
done

cat <<EOF
| trial | tried | wrong |
|---|---:|---:|
| single-byte flips in a finished job (onitama 3x4 boar), caught by verify | $flips | $((flips - caught)) |
| SIGKILL at a random moment, then resumed to the reference digest $REF | $kills | $kill_bad |
| SIGINT/SIGTERM: exit 130/143, the message, then resumed | $sigs | $sig_bad |
| full disk (3 MB tmpfs): a clean error, nothing that verifies and answers | $disks | $disk_bad |
| malformed commands: non-zero exit, a clear message, no crash | $bad | $bad_wrong |
| two writers 0-2 s apart: one refused by the lock, the other finishing, the dir verifying | $pairs | $pair_bad |
EOF
