#!/usr/bin/env bash
# Runs every libFuzzer target (fuzz/) for a while on a seed corpus made from the shipped files:
#   scripts/fuzz.sh <build> <fuzz-build> <seconds per target> [targets...]
# FUZZ_RUNS=N runs N executions per target instead (seconds 0: no time limit); FUZZ_JOBS=K
# runs K targets at once (1 by default); FUZZ_WORKERS=W runs each target as W processes with
# their own seeds on one shared corpus, N/W executions each (one target on all cores).
# A crash, a timeout or an out-of-memory (2 GB) stops that target; its input is kept in
# fuzz/corpus/<target>/ (the regression corpus that `make test` replays) and the script exits 1.
set -euo pipefail
build=${1:-build}
fuzz_build=${2:-build-fuzz}
seconds=${3:-60}
shift 3 || true
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=(dataset fclib results options)
cd "$(dirname "$0")/.."
ncp="$build/ncpbench"
seeds="$fuzz_build/seeds"
mkdir -p "$seeds"/{dataset,fclib,results,options}
# Seeds: small files of every kind (large seeds only slow every execution down).
if [ ! -f "$seeds/dataset/random.h5" ]; then
  "$ncp" generate random -n 1 --seed 1 -p contacts=3,bodies=6 -o "$seeds/dataset/random.h5" >/dev/null
  "$ncp" generate random -n 2 --seed 2 -p contacts=4,bodies=6,bilateral=1,soft=1 \
    -o "$seeds/dataset/random-rows.h5" >/dev/null
  for f in datasets/fclib/*.hdf5; do
    [ "$(stat -c %s "$f")" -le 70000 ] && cp "$f" "$seeds/fclib/"
  done
  "$ncp" convert "$seeds/dataset/random.h5" "$seeds/fclib/random-global.hdf5" --to fclib >/dev/null
  "$ncp" run "$seeds/dataset/random.h5" -s pgs,apgd --iters 3 --trace 1 -q \
    -o "$seeds/results/run.h5" >/dev/null
  rm -rf "$seeds/results/run.h5.lock"
  # A reproduction's file: the observations column and group.
  "$ncp" reproduce 004-fig7 --cases 1 --max-iters 3 --no-traces -q -o "$seeds/reproduce" >/dev/null
  cp "$seeds/reproduce/004-fig7.h5" "$seeds/results/reproduce.h5"
  rm -rf "$seeds/reproduce"
  printf 'omega=1.2,inner=5' >"$seeds/options/a"
  printf 'step=bb;beta=1e-3' >"$seeds/options/b"
  printf '3/8' >"$seeds/options/c"
fi
# Leaks that libhdf5 keeps internally are not the suite's (tests/sanitize/lsan.supp).
export LSAN_OPTIONS="suppressions=$PWD/tests/sanitize/lsan.supp:print_suppressions=0"
# An allocation past the 2 GB limit fails at once instead of being mapped and poisoned: libhdf5
# asks for what a corrupt object header declares (4 GB seen), and inside the probe's child that
# cost about a second per input under ASan (then libFuzzer's malloc limit ended the server). A
# failed malloc is an error libhdf5 reports; a failed `new` in the suite's own code is still an
# out-of-memory report that stops the target.
export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}allocator_may_return_null=1:max_allocation_size_mb=2048"
runs=${FUZZ_RUNS:-0}
jobs=${FUZZ_JOBS:-1}
workers=${FUZZ_WORKERS:-1}
[[ "$workers" =~ ^[1-9][0-9]*$ ]] || { echo "FUZZ_WORKERS = '$workers': must be a positive integer" >&2; exit 2; }
limit=(-max_total_time="$seconds")
[ "$runs" -gt 0 ] && limit=(-runs="$(((runs + workers - 1) / workers))" -max_total_time="$seconds")
# One target: its verdict line goes to $fuzz_build/fuzz-<target>.verdict, status 1 on a failure.
fuzz_one() {
  local t=$1
  local corpus="$fuzz_build/corpus/$t"
  local regressions="fuzz/corpus/$t"
  # A crash file that libFuzzer wrote from inside a probe's child (guarded_read.h) is not the
  # target's failure: only the target's own is kept.
  local artifacts="$fuzz_build/artifacts/$t"
  rm -rf "$artifacts"
  mkdir -p "$corpus" "$regressions" "$artifacts"
  local verdict rc=0 start=$SECONDS w
  rm -f "$fuzz_build/fuzz-$t.verdict" "$fuzz_build/fuzz-$t".*log
  # -fork=0: one process each; ASan's quarantine is what the RSS limit sees. Worker w logs to
  # fuzz-<target>.log (the first) or fuzz-<target>.<w>.log; libFuzzer seeds each by time and pid.
  local logs=() wpids=()
  for ((w = 1; w <= workers; w++)); do
    local log="$fuzz_build/fuzz-$t.log"
    [ "$w" -gt 1 ] && log="$fuzz_build/fuzz-$t.$w.log"
    logs+=("$log")
    "$fuzz_build/fuzz_$t" "$corpus" "$seeds/$t" "${limit[@]}" \
      -rss_limit_mb=2048 -timeout=30 -print_final_stats=1 \
      -artifact_prefix="$artifacts/" >"$log" 2>&1 &
    wpids+=($!)
  done
  local failed=""
  for ((w = 0; w < workers; w++)); do
    wait "${wpids[$w]}" || failed="$failed ${logs[$w]}"
  done
  if [ -z "$failed" ]; then
    verdict="0 crashes, 0 timeouts, 0 out-of-memory"
  else
    rc=1
    local log
    for log in $failed; do
      verdict="${verdict:+$verdict; }FAILED: $(grep -m1 -E 'ERROR|Deadly|timeout|out-of-memory' "$log" || tail -1 "$log")"
      local unit
      unit=$(grep -o "Test unit written to [^ ]*" "$log" | tail -1 | awk '{print $5}' || true)
      if [ -n "$unit" ] && [ -f "$unit" ]; then
        cp "$unit" "$regressions/"
        verdict="$verdict; input kept as $regressions/$(basename "$unit")"
      fi
    done
  fi
  # Executions and rates of all the workers, added up.
  local n rate
  n=$(cat "${logs[@]}" | awk '/stat::number_of_executed_units/ {s += $2; k++} END {if (k) print s}')
  rate=$(cat "${logs[@]}" | awk '/stat::average_exec_per_sec/ {s += $2; k++} END {if (k) print s}')
  local by=""
  [ "$workers" -gt 1 ] && by=" by $workers workers"
  echo "fuzz_$t: ${n:-?} executions$by in $((SECONDS - start)) s (${rate:-?}/s): $verdict" \
    >"$fuzz_build/fuzz-$t.verdict"
  return $rc
}
status=0
pids=()
for t in "${targets[@]}"; do
  fuzz_one "$t" &
  pids+=($!)
  # At most $jobs at once: wait for the oldest before starting another.
  if [ ${#pids[@]} -ge "$jobs" ]; then
    wait "${pids[0]}" || status=1
    pids=("${pids[@]:1}")
  fi
done
for p in "${pids[@]}"; do wait "$p" || status=1; done
for t in "${targets[@]}"; do
  cat "$fuzz_build/fuzz-$t.verdict" 2>/dev/null || echo "fuzz_$t: no verdict (the run was stopped)"
done
exit $status
