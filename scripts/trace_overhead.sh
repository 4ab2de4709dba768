#!/usr/bin/env bash
# Measures how much per-iteration tracing changes pgs' measured solve time on 200-contact
# problems: the same jobs with --trace 0 and --trace 1, in one run, minimum over repeats.
set -euo pipefail
build=${1:-build}
cd "$(dirname "$0")/.."
ncp="$build/ncpbench"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
"$ncp" generate random -o "$tmp/c200.h5" -n 5 --seed 300 \
  -p contacts=200,bodies=220,unilateral=0,bilateral=0,soft=0 >/dev/null
for round in 1 2 3; do  # interleaved, so drift on a noisy machine hits both alike
  for k in 0 1; do
    "$ncp" run "$tmp/c200.h5" -s pgs --iters 500 --repeat 3 --threads 1 --trace $k -q \
      -o "$tmp/trace$k-$round.h5" >/dev/null
  done
done
/usr/bin/python3 - "$tmp" <<'PY'
import sys, glob, h5py, numpy as np
def solve_times(k):
    best = {}
    for f in glob.glob(f"{sys.argv[1]}/trace{k}-*.h5"):
        r = h5py.File(f)["runs"]
        for p, t in zip(r["problem"][()], r["solve_time_s"][()]):
            best[p] = min(best.get(p, np.inf), t)
    return np.array([best[p] for p in sorted(best)])
t0, t1 = solve_times(0), solve_times(1)
ratio = t1 / t0
print("pgs, 200 contacts, 500 iterations: solve time without trace %.2f ms, with --trace 1 %.2f ms"
      % (1e3 * np.median(t0), 1e3 * np.median(t1)))
print("per-problem ratio traced/untraced: " + " ".join("%.3f" % x for x in ratio))
print("median change: %+.1f%%" % (100 * (np.median(ratio) - 1)))
PY
