#!/bin/sh
# Builds examples/my_solver out of tree against this build and runs it through --plugin.
# Usage: plugin_example_test.sh <ncpbench executable> <build folder> <source folder>
set -eu
cli=$1 build=$2 src=$3
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cmake -S "$src/examples/my_solver" -B "$work/b" -G Ninja -Dncpbench_DIR="$build" >/dev/null
cmake --build "$work/b" >/dev/null
"$cli" generate random -o "$work/d.h5" -n 2 --seed 5 -p contacts=10,bodies=20 >/dev/null
"$cli" run "$work/d.h5" --plugin "$work/b/my_solver.so" -s my-solver,pgs --iters 200 \
  --set my-solver.step_scale=1.5 -o "$work/r.h5" 2>"$work/log"
cat "$work/log"
grep -q "my-solver  max-iterations" "$work/log"
# The results name the plug-in's file and the hash of its bytes (64-bit FNV-1a), which the
# report shows.
fnv() {
  python3 -c "
import sys
h = 0xcbf29ce484222325
for b in open(sys.argv[1], 'rb').read():
    h = ((h ^ b) * 0x100000001b3) % (1 << 64)
print(f'{h:016x}')" "$1"
}
"$cli" report "$work/r.h5" >"$work/r.md"
lib=$(readlink -f "$work/b/my_solver.so")
grep -qF -- "- Solver plug-ins: \`$lib\` (hash $(fnv "$lib"))" "$work/r.md"
# A run resumed with a rebuilt plug-in (here: a byte appended) keeps both builds' hashes, as its
# rows may come from either.
cp "$work/b/my_solver.so" "$work/re.so"
"$cli" run "$work/d.h5" --plugin "$work/re.so" -s my-solver --iters 20 -q -o "$work/r3.h5"
h1=$(fnv "$work/re.so")
printf 'x' >>"$work/re.so"
"$cli" run "$work/d.h5" --plugin "$work/re.so" -s my-solver,pgs --iters 20 -q -o "$work/r3.h5"
"$cli" report "$work/r3.h5" | grep -qF "(hash $h1; $(fnv "$work/re.so"))"
# A solver name taken twice is bad input (exit 2, one line naming the plug-in).
cp "$work/b/my_solver.so" "$work/copy.so"
status=0
"$cli" run "$work/d.h5" --plugin "$work/b/my_solver.so" --plugin "$work/copy.so" \
  -s my-solver -o "$work/r2.h5" 2>"$work/err" || status=$?
cat "$work/err"
[ "$status" = 2 ]
grep -q "^ncpbench: error: --plugin = $work/copy.so: solver 'my-solver': already registered" \
  "$work/err"
# Every command that resolves solver names takes --plugin: list, profile (next to a Siconos
# solver when built with it), baseline, sweep and simulate.
"$cli" list solvers --plugin "$work/b/my_solver.so" | grep -q "my-solver"
peer=""
"$cli" list solvers | grep -q "siconos:nsgs" && peer=",siconos:nsgs"
"$cli" profile "$work/d.h5" --plugin "$work/b/my_solver.so" -s "my-solver$peer" --iters 100 \
  -q -o "$work/p.h5" --report "$work/p.md" >/dev/null
grep -q "| my-solver |" "$work/p.md"
"$cli" baseline "$work/d.h5" --plugin "$work/b/my_solver.so" -s my-solver,pgs --iters 50 -q \
  -o "$work/base.h5" >/dev/null
"$cli" sweep random --param contacts --values 5,10 -n 1 --plugin "$work/b/my_solver.so" \
  -s my-solver --iters 20 -q -o "$work/s.h5" >/dev/null
"$cli" simulate sliding_cubes -p cubes=4 --steps 5 --plugin "$work/b/my_solver.so" \
  --solver my-solver --iters 20 -q >/dev/null
# The same plug-in from Python, when the module is built.
if [ -d "$build/python/ncpbench" ]; then
  PYTHONPATH="$build/python" /usr/bin/python3 -c "
import ncpbench
assert ncpbench.load_plugin('$work/b/my_solver.so') == ['my-solver']
r = ncpbench.solve(ncpbench.load('$work/d.h5')[0], 'my-solver', iters=50)
assert r.status == 'max-iterations' and r.iterations == 50, r
print('python:', r)"
fi
echo "plugin example: ok"
