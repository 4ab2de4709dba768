#!/usr/bin/env bash
# The main job: every solver on the default datasets (manufactured problems with exact
# solutions; frames of bolt_nut, dish_piling, soft_mat, cable, laikago_drop and sliding_cubes;
# the fclib samples) at a fixed budget; results, report and figures.
set -euo pipefail
build=${1:-build}
cd "$(dirname "$0")/.."
ncp="$build/ncpbench"
for f in random-small random-large laikago_drop sliding_cubes bolt_nut dish_piling soft_mat cable; do
  [ -f "datasets/default/$f.h5" ] || { ./scripts/make_datasets.sh "$build"; break; }
done
mkdir -p results
out=results/bench-latest.h5
# A fresh run each time; an interrupted one resumes from results/bench-latest.h5.parts.
rm -f "$out"
"$ncp" run datasets/default/random-small.h5 datasets/default/random-large.h5 \
  datasets/default/laikago_drop.h5 datasets/default/sliding_cubes.h5 datasets/default/bolt_nut.h5 \
  datasets/default/dish_piling.h5 datasets/default/soft_mat.h5 datasets/default/cable.h5 \
  datasets/fclib/*.hdf5 \
  -s pgs,pj,apgd,admm-full,subadmm,subadmm-nobody,canal,nnewton,local-newton,cond --iters 3000 --time-ms 5000 --tol 1e-10 --trace 5 --threads 2 -q -o "$out"
"$ncp" report "$out" -o results/bench-latest.md
# The report's verdict lines must say what its tables hold.
/usr/bin/python3 scripts/check_report_lines.py results/bench-latest.md
# One convergence figure per dataset: results/bench-latest-<dataset>.png.
/usr/bin/python3 plots/convergence.py "$out" -o results/bench-latest.png
echo "main job done: $out, results/bench-latest.md, results/bench-latest-*.png"
