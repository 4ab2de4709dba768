#!/usr/bin/env bash
# Every tracked C++ and CUDA source as .clang-format has it (clang-format 14, Debian's): prints
# the files that differ and exits 1. Fix with: git ls-files '*.cc' '*.h' '*.cu' | xargs clang-format -i
set -euo pipefail
cd "$(dirname "$0")/.."
command -v clang-format >/dev/null || { echo "check_format: clang-format not found (make deps installs it)"; exit 1; }
bad=$(git ls-files '*.cc' '*.h' '*.cu' | while read -r f; do
  clang-format --dry-run --Werror "$f" >/dev/null 2>&1 || echo "$f"; done)
if [ -n "$bad" ]; then
  echo "check_format: not formatted (clang-format -i them):"; echo "$bad"; exit 1
fi
echo "check_format: $(git ls-files '*.cc' '*.h' '*.cu' | wc -l) files formatted"
