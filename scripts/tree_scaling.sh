#!/usr/bin/env bash
# Log-log slope of the subsystem factorization cost against the number of bodies in a chain
# (bench/subadmm_tree_benchmark.cc): prints one slope per algorithm.
set -euo pipefail
build=${1:-build}
cd "$(dirname "$0")/.."
# `make bench` builds only the command-line tool.
[ -x "$build/ncpbench_micro" ] || cmake --build "$build" --target ncpbench_micro
out=$(mktemp)
"$build/ncpbench_micro" --benchmark_filter='Tree|Dense' --benchmark_format=json \
  --benchmark_min_time=0.05 >"$out"
/usr/bin/python3 - "$out" <<'PY'
import json, sys, collections
import numpy as np
runs = json.load(open(sys.argv[1]))["benchmarks"]
by = collections.defaultdict(list)
for r in runs:
    by[r["name"].rsplit("/", 1)[0]].append((r["bodies"], r["real_time"]))
for name, pts in by.items():
    x, y = np.log([p[0] for p in pts]), np.log([p[1] for p in pts])
    slope = np.polyfit(x, y, 1)[0]
    print(f"{name:32s} bodies {int(pts[0][0])}..{int(pts[-1][0])}: log-log slope {slope:.3f}")
PY
rm -f "$out"
