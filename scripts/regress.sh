#!/usr/bin/env bash
# Accuracy regression check: reruns every committed baseline (results/baselines/<stem>.h5) with
# the solvers and budget it records and compares. Exit 1 when a solver got less accurate, 2 on
# bad input. Tables go to results/regress/<stem>.md.
set -uo pipefail
build=${1:-build}
cd "$(dirname "$0")/.." || exit 2
ncp="$build/ncpbench"
mkdir -p results/regress
worst=0
for base in results/baselines/*.h5; do
  stem=$(basename "$base" .h5)
  data=""
  for candidate in "datasets/fclib/$stem.hdf5" "datasets/default/$stem.h5"; do
    [ -f "$candidate" ] && data=$candidate && break
  done
  if [ -z "$data" ]; then
    echo "regress: $base: no dataset datasets/fclib/$stem.hdf5 or datasets/default/$stem.h5" >&2
    exit 2
  fi
  attr() { /usr/bin/python3 -c "import h5py,sys; v=h5py.File(sys.argv[1],'r').attrs[sys.argv[2]]; print(v.decode() if isinstance(v,bytes) else v)" "$base" "$1"; }
  "$ncp" baseline "$data" -s "$(attr baseline_solvers)" --iters "$(attr baseline_iters)" -q --force \
    -o "results/regress/$stem.h5" >/dev/null || exit 2
  "$ncp" compare "$base" "results/regress/$stem.h5" -o "results/regress/$stem.md" | tail -1 | sed "s/^/$stem: /"
  rc=${PIPESTATUS[0]}
  [ "$rc" -gt "$worst" ] && worst=$rc
done
exit "$worst"
