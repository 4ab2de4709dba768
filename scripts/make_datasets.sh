#!/usr/bin/env bash
# Regenerates the default datasets (deterministic: same seeds, same problems), as many at once as
# the machine has cores (JOBS), the longest first: about a minute on 2 cores.
#   scripts/make_datasets.sh [--if-missing] [BUILD]   (--if-missing: nothing when all are there)
set -euo pipefail
if_missing=0
[ "${1:-}" = --if-missing ] && { if_missing=1; shift; }
build=${1:-build}
cd "$(dirname "$0")/.."
# The longest first (40, 25, 21, 18, 4 s and less on one core), so that the last to start are short.
names=(cable sliding_cubes soft_mat bolt_nut laikago_drop dish_piling random-small random-large)
export NCP="$build/ncpbench" OUT=${OUT:-datasets/default}
if [ "$if_missing" = 1 ]; then
  missing=0
  for n in "${names[@]}"; do [ -f "$OUT/$n.h5" ] || missing=1; done
  if [ "$missing" = 0 ]; then exit 0; fi
fi
jobs=${JOBS:-$(nproc --all)}
# One thread a process: the processes share the cores, and the problems do not depend on the
# machine (soft_mat's frames differ in their last bits between 1 and 2 threads: its stepping
# solver sums in parallel).
export OMP_NUM_THREADS=1
mkdir -p "$OUT"

# One dataset by name.
one() {
  case "$1" in
    # 2 frames of the 320-link cable wound around its post, in 002's setting (§V-C5: soft grip,
    # contacts on the links' nodes, 1 ms steps: frames at 0.4 s and 0.8 s).
    cable)
      "$NCP" simulate cable -p hard_grip=0,nodal_contacts=1,dt=0.001 --solver admm-full \
        --iters 200 --steps 800 --every 400 --seed 1 --record "$OUT/cable.h5" -q ;;
    # Frames of simulated scenes (admm-full at 200 iterations per step; references by the best
    # of admm-full and pgs).
    sliding_cubes) "$NCP" generate sliding_cubes -o "$OUT/sliding_cubes.h5" -n 4 --seed 1 ;;
    laikago_drop) "$NCP" generate laikago_drop -o "$OUT/laikago_drop.h5" -n 8 --seed 1 ;;
    # 2 frames of the folded soft mat (4356 dofs; 002 §V-C3).
    soft_mat) "$NCP" generate soft_mat -o "$OUT/soft_mat.h5" -n 2 --seed 1 ;;
    # Single-step bolt-nut cases: 10 placements x 2 random wrenches (004 §VII-A1 uses 10 x 10).
    bolt_nut)
      "$NCP" generate bolt_nut -o "$OUT/bolt_nut.h5" -n 20 --seed 1 \
        -p configurations=10,wrenches=2 ;;
    # Single-step dish-piling cases: one settled bowl-bowl-plate-pot stack x 8 random wrenches
    # (004 §VII-B1 uses 100).
    dish_piling) "$NCP" generate dish_piling -o "$OUT/dish_piling.h5" -n 8 --seed 1 ;;
    # 20 problems, 60 bodies, 50 contacts + 8 unilateral + 6 bilateral + 6 soft rows each.
    random-small) "$NCP" generate random -o "$OUT/random-small.h5" -n 20 --seed 100 ;;
    # 5 problems, 220 bodies, 200 contacts + 40 other rows each.
    random-large)
      "$NCP" generate random -o "$OUT/random-large.h5" -n 5 --seed 200 \
        -p contacts=200,bodies=220,unilateral=20,bilateral=10,soft=10 ;;
    *) echo "make_datasets: unknown dataset '$1'" >&2; return 2 ;;
  esac
}
export -f one

printf '%s\n' "${names[@]}" | xargs -P "$jobs" -I{} bash -c 'one "$1"' _ {}
