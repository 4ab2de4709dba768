#!/usr/bin/env bash
# Wall time of one CPU-bound campaign in one process and with `mpirun -np N` (default 2), in
# the same invocation, and the per-job solve times of the two matched by job key: the speed-up
# must come from sharing the jobs, not from changing how fast each job runs.
#   scripts/mpi_scaling.sh [build] [ranks]
set -euo pipefail
build=${1:-build}
ranks=${2:-2}
cd "$(dirname "$0")/.."
ncp="$build/ncpbench"
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
# 5 problems × 5 solvers × 2 repeats = 50 jobs of ~0.1-1 s each, one thread per job.
args=(run datasets/default/random-large.h5 -s pgs,pj,apgd,admm-full,nnewton --repeat 2
      --iters 1000 --threads 1 -q)
[ "$(id -u)" = 0 ] && export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
t0=$(date +%s.%N)
"$ncp" "${args[@]}" -o "$dir/one.h5" >/dev/null
t1=$(date +%s.%N)
mpirun --oversubscribe -np "$ranks" "$ncp" "${args[@]}" -o "$dir/mpi.h5" >/dev/null
t2=$(date +%s.%N)
PYTHONPATH="$build/python" /usr/bin/python3 - "$dir/one.h5" "$dir/mpi.h5" "$t0" "$t1" "$t2" "$ranks" <<'PY'
import math, statistics, sys
import ncpbench
one, mpi, t0, t1, t2, ranks = sys.argv[1], sys.argv[2], *map(float, sys.argv[3:6]), sys.argv[6]
a = {r["job_key"]: r for r in ncpbench.read_results(one)}
b = {r["job_key"]: r for r in ncpbench.read_results(mpi)}
assert set(a) == set(b), "the two runs ran different jobs"
ratios = [b[k]["solve_time_s"] / a[k]["solve_time_s"] for k in a if a[k]["solve_time_s"] > 0]
geo = math.exp(sum(map(math.log, ratios)) / len(ratios))
within = sum(abs(r - 1) <= 0.10 for r in ratios)
w1, w2 = t1 - t0, t2 - t1
print(f"jobs: {len(a)}")
print(f"wall: one process {w1:.2f} s, mpirun -np {ranks} {w2:.2f} s, ratio {w2 / w1:.3f}")
print(f"per-job solve time mpi/one: geometric mean {geo:.3f}, median "
      f"{statistics.median(ratios):.3f}, within 10%: {within}/{len(ratios)}")
PY
