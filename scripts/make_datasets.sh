#!/usr/bin/env bash
# Regenerates the default datasets (deterministic: same seeds, same problems).
set -euo pipefail
build=${1:-build}
cd "$(dirname "$0")/.."
ncp="$build/ncpbench"
mkdir -p datasets/default
# 20 problems, 60 bodies, 50 contacts + 8 unilateral + 6 bilateral + 6 soft rows each.
"$ncp" generate random -o datasets/default/random-small.h5 -n 20 --seed 100
# 5 problems, 220 bodies, 200 contacts + 40 other rows each.
"$ncp" generate random -o datasets/default/random-large.h5 -n 5 --seed 200 \
  -p contacts=200,bodies=220,unilateral=20,bilateral=10,soft=10
# Frames of simulated scenes (admm-full at 200 iterations per step; references by the best of
# admm-full and pgs). Deterministic in the seed.
"$ncp" generate laikago_drop -o datasets/default/laikago_drop.h5 -n 8 --seed 1
"$ncp" generate sliding_cubes -o datasets/default/sliding_cubes.h5 -n 4 --seed 1
# Single-step bolt-nut cases: 10 placements x 2 random wrenches (004 §VII-A1 uses 10 x 10).
"$ncp" generate bolt_nut -o datasets/default/bolt_nut.h5 -n 20 --seed 1 -p configurations=10,wrenches=2
# Single-step dish-piling cases: one settled bowl-bowl-plate-pot stack x 8 random wrenches
# (004 §VII-B1 uses 100).
"$ncp" generate dish_piling -o datasets/default/dish_piling.h5 -n 8 --seed 1
# Deformable and rod scenes (002 §V-C3, §V-C5): 2 frames each of the folded soft mat (4356 dofs)
# and of the 320-link cable wound around its post, in 002's setting (soft grip, contacts on the
# links' nodes, 1 ms steps: frames at 0.4 s and 0.8 s as with the scene's 10 ms default).
"$ncp" generate soft_mat -o datasets/default/soft_mat.h5 -n 2 --seed 1
"$ncp" simulate cable -p hard_grip=0,nodal_contacts=1,dt=0.001 --solver admm-full --iters 200 \
  --steps 800 --every 400 --seed 1 --record datasets/default/cable.h5 -q
