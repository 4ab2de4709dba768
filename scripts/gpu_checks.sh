#!/usr/bin/env bash
# The checks that need a CUDA device, in one run: the `gpu`-labelled tests (GPU against the CPU
# path, chunks against single iterations), compute-sanitizer's memcheck on them when it is
# installed, and `reproduce 001-table1` (its report ends with where a GPU step's time goes).
# Usage: scripts/gpu_checks.sh [BUILD] [OUT]  (a CUDA build: cmake -DNCPBENCH_CUDA=ON)
set -uo pipefail
build=$(realpath "${1:-build}")
out=$(realpath -m "${2:-results/runs/gpu}")
cd "$(dirname "$0")/.." || exit 2
mkdir -p "$out"
filter='*GpuVsCpuPath*:SubAdmmGpu.*:RunnerChunks.*'
rc=0
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv 2>/dev/null || true
echo "== gpu tests"
timeout 300 "$build/ncpbench_tests" --gtest_filter="$filter" >"$out/gpu_tests.log" 2>&1 || rc=1
grep -E "gpu vs cpu|chunk of|FAILED|PASSED|SKIPPED \]|Failure" "$out/gpu_tests.log"
if command -v compute-sanitizer >/dev/null; then
  echo "== memcheck"
  timeout 300 compute-sanitizer --tool memcheck "$build/ncpbench_tests" \
    --gtest_filter='SubAdmmGpu.*' >"$out/memcheck.log" 2>&1 || rc=1
  tail -1 "$out/memcheck.log"
fi
echo "== reproduce 001-table1"
timeout 900 "$build/ncpbench" reproduce 001-table1 --no-traces -q -o "$out" >"$out/reproduce.log" 2>&1 || rc=1
grep -E "^Growth|subadmm-gpu" "$out/001-table1.md"
sed -n '/where a step/,/claims against/p' "$out/001-table1.md" | grep '^|'
exit $rc
