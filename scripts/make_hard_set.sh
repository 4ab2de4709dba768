#!/usr/bin/env bash
# Regenerates the hard set of local (fclib) problems, datasets/hard/ (deterministic, not kept in
# git): local (Delassus) forms of frames of our rigid scenes — stacks with mass ratios 1e4,
# card houses, oblique stacks, dish piling, laikago, sliding cubes — and manufactured problems
# whose W is rank-deficient (more contact rows than dofs) with body mass ratios 1e2 to 1e4.
# Usage: scripts/make_hard_set.sh [build] [out]
set -euo pipefail
build=${1:-build}
out=${2:-datasets/hard}
cd "$(dirname "$0")/.."
ncp="$build/ncpbench"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
rm -rf "$out"
mkdir -p "$out"
gen() {  # name scene count [params]: one fclib local file per problem, <name>-<problem>.hdf5
  "$ncp" generate "$2" -o "$tmp/$1.h5" -n "$3" --seed 1 ${4:+-p "$4"} >/dev/null
  mkdir -p "$tmp/$1"
  "$ncp" convert "$tmp/$1.h5" "$tmp/$1" --to fclib --all --local >/dev/null
  for f in "$tmp/$1"/*.hdf5; do cp "$f" "$out/$1-$(basename "$f")"; done
}
gen vertical_stacks vertical_stacks 4 stacks=6           # 100 kg on 1 kg on 10 g boxes
gen oblique_stacks oblique_stacks 4 units=6              # 10 kg plates on 50 g cubes, mu = 3
gen card_houses card_houses 4 houses=1,levels=3
gen dish_piling dish_piling 4                            # 4 dishes, <= 120 contacts
gen laikago laikago_drop 4 robots=4
gen sliding_cubes sliding_cubes 3 cubes=20
# Manufactured with a known exact solution: 40 contacts on 12 bodies (72 dofs), up to 4 contacts
# a body (rows_per_body=12), so rank(W) <= 72 < 120 rows; body masses spread over 1e2 to 1e4.
for ratio in 100 1000 10000; do
  gen "mr$ratio" random 4 "contacts=40,bodies=12,rows_per_body=12,unilateral=0,bilateral=0,soft=0,mass_ratio=$ratio"
done
echo "hard set: $(ls "$out" | wc -l) local problems in $out"
