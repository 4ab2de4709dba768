#!/usr/bin/env bash
# The hard-set campaign as Acary, Brémond and Huber (2018) ran the fclib collection: natmap_rel to
# 1e-8 and 1e-4, a per-problem time limit, our solvers next to Siconos' NSGS, NSN-AC and PROX.
# Builds datasets/hard/ first when it is missing; resumable (rerun to continue).
# Usage: scripts/hard_campaign.sh [build] [report]
set -euo pipefail
build=${1:-build}
report=${2:-results/hard-campaign.md}
cd "$(dirname "$0")/.."
[ -d datasets/hard ] || scripts/make_hard_set.sh "$build"
"$build/ncpbench" profile datasets/hard/ \
  -s local-newton,canal,admm-full,nnewton,pgs,apgd,siconos:nsn-ac,siconos:prox,siconos:nsgs \
  --tol-metric natmap_rel --tols 1e-8,1e-4 --time-ms 3000 --iters 20000 \
  -o results/runs/hard-campaign.h5 --report "$report"
