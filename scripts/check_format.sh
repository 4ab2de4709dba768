#!/usr/bin/env bash
# Every tracked C++ and CUDA source as .clang-format has it (clang-format 14, Debian's): prints
# the files that differ and exits 1. Fix with: git ls-files '*.cc' '*.h' '*.cu' | xargs clang-format -i
set -euo pipefail
cd "$(dirname "$0")/.."
command -v clang-format >/dev/null || { echo "check_format: clang-format not found (make deps installs it)"; exit 1; }
# All files in few processes (xargs): one process per file spent 20 s starting clang-format. The
# files that differ are the ones its diagnostics name.
rc=0
out=$(git ls-files -z '*.cc' '*.h' '*.cu' | xargs -0 clang-format --dry-run --Werror 2>&1) || rc=$?
bad=$(grep -E '^[^:]+:[0-9]+:[0-9]+: (error|warning): code should be clang-formatted' <<<"$out" |
  cut -d: -f1 | sort -u || true)
if [ -n "$bad" ]; then
  echo "check_format: not formatted (clang-format -i them):"; echo "$bad"; exit 1
fi
if [ "$rc" != 0 ]; then
  echo "check_format: clang-format failed (exit $rc):"; head -20 <<<"$out"; exit 1
fi
echo "check_format: $(git ls-files '*.cc' '*.h' '*.cu' | wc -l) files formatted"
