#!/usr/bin/env bash
# The main job: the papers' solvers on the default datasets (manufactured problems with exact
# solutions; frames of bolt_nut, dish_piling, soft_mat, cable, laikago_drop and sliding_cubes;
# the fclib samples) and the Siconos peers on the fclib samples, at one fixed budget; results,
# report and figures. A few minutes on 2 cores; on a terminal each job prints a progress line
# (jobs done, elapsed, time left).
set -euo pipefail
build=${1:-build}
cd "$(dirname "$0")/.."
ncp="$build/ncpbench"
./scripts/make_datasets.sh --if-missing "$build"
mkdir -p results
out=results/bench-latest.h5
quiet=-q
[ -t 2 ] && quiet=
# The budget of every job: 1000 iterations or 2 s, whichever comes first, stopping at res004 ≤
# 1e-10 (the report's profiles read 1e-6 and 1e-10 off the traces).
budget=(--iters 1000 --time-ms 2000 --tol 1e-10 --trace 5 --threads 2)
# The machine's bandwidth and flop rate for the report's roofline section: measured once on this
# idle machine (about 3 s) and cached; later runs read the cache.
"$ncp" peaks >/dev/null
# A fresh run each time; an interrupted one resumes from results/bench-latest.h5.parts.
rm -f "$out"
"$ncp" run datasets/default/random-small.h5 datasets/default/random-large.h5 \
  datasets/default/laikago_drop.h5 datasets/default/sliding_cubes.h5 datasets/default/bolt_nut.h5 \
  datasets/default/dish_piling.h5 datasets/default/soft_mat.h5 datasets/default/cable.h5 \
  datasets/fclib/*.hdf5 \
  -s pgs,pj,apgd,admm-full,subadmm,subadmm-nobody,canal,nnewton,local-newton,cond \
  "${budget[@]}" $quiet -o "$out"
# Siconos' local drivers where they are at home: the fclib samples, the (W, q) problems of its
# own collection. The same results file: these jobs are added to the ones above.
# (the list is read whole first: grep -q would end the pipe early, which pipefail reads as a failure)
solvers=$("$ncp" list solvers 2>/dev/null)
if grep -q '^  siconos:nsgs ' <<<"$solvers"; then
  "$ncp" run datasets/fclib/*.hdf5 \
    -s siconos:nsgs,siconos:prox,siconos:nsn-ac,siconos:nsn-fb,siconos:vi-eg,siconos:admm \
    "${budget[@]}" $quiet -o "$out"
fi
"$ncp" report "$out" -o results/bench-latest.md
# The report's verdict lines must say what its tables hold.
/usr/bin/python3 scripts/check_report_lines.py results/bench-latest.md
# One convergence figure per dataset, results/bench-latest-<dataset>.png, linked from the report.
figures=$(/usr/bin/python3 plots/convergence.py "$out" -o results/bench-latest.png)
echo "$figures"
{
  printf '\n## Figures\n\nres004 against time and iteration, the median over each dataset'"'"'s problems per solver (`plots/convergence.py`).\n\n'
  sed -n 's|^convergence.py: wrote results/\(bench-latest-\(.*\)\.png\)$|### \2\n\n![\2](\1)\n|p' <<<"$figures"
  # The machine-limit section's figure (docs/roofline.md), when the peaks were measured.
  if /usr/bin/python3 plots/roofline.py "$out" -o results/bench-latest-roofline.png >/dev/null; then
    printf '### Machine limit\n\n![roofline](bench-latest-roofline.png)\n'
  fi
} >> results/bench-latest.md
echo "main job done: $out, results/bench-latest.md, results/bench-latest-*.png"
