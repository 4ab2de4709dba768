#!/usr/bin/python3
"""Hostile-input campaign against `ncpbench run`: mutants of real files, byte-level (bit flips,
zeroed blocks, truncations, overwrites) and semantic (NaN/Inf/negative/huge values, wrong shapes,
wrong dtypes, deleted datasets, via h5py), each run under a time limit. The contract checked on
every mutant: exit 0 with a results file, or exit 2 with exactly one line on stderr and no results
file. Violations are copied to fuzz/corpus/<kind>/ (replayed by `make test`).

    /usr/bin/python3 scripts/mutation_campaign.py --ncpbench build-sanitize/ncpbench -n 1000
"""
import argparse
import hashlib
import os
import random
import shutil
import subprocess
import sys
import tempfile

import h5py
import numpy as np

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def byte_mutant(data: bytes, rng: random.Random) -> tuple[bytes, str]:
    b = bytearray(data)
    kind = rng.choice(["flip", "zero", "truncate", "overwrite", "duplicate"])
    if kind == "flip":
        for _ in range(rng.randint(1, 12)):
            i = rng.randrange(len(b))
            b[i] ^= 1 << rng.randrange(8)
    elif kind == "zero":
        i = rng.randrange(len(b))
        n = rng.choice([1, 8, 64, 512, 4096])
        b[i:i + n] = bytes(min(n, len(b) - i))
    elif kind == "truncate":
        b = b[:rng.randrange(len(b))]
    elif kind == "overwrite":
        i = rng.randrange(len(b))
        n = rng.choice([4, 8, 16])
        b[i:i + n] = bytes(rng.getrandbits(8) for _ in range(min(n, len(b) - i)))
    else:
        i, j = rng.randrange(len(b)), rng.randrange(len(b))
        n = rng.choice([16, 256, 2048])
        b[j:j] = b[i:i + n]
    return bytes(b), kind


def numeric_datasets(f):
    out = []
    f.visititems(lambda name, obj: out.append(name)
                 if isinstance(obj, h5py.Dataset) and obj.dtype.kind in "fiu" and obj.size > 0
                 else None)
    return out


def semantic_mutant(src: str, dst: str, rng: random.Random) -> str:
    shutil.copyfile(src, dst)
    with h5py.File(dst, "r+") as f:
        names = numeric_datasets(f)
        if not names:
            return "none"
        name = rng.choice(names)
        ds = f[name]
        kind = rng.choice(["nan", "inf", "negative", "huge", "zero", "shape", "dtype", "delete",
                           "intmax"])
        data = ds[()]
        if kind in ("nan", "inf", "negative", "huge", "zero", "intmax"):
            flat = np.array(data, dtype=np.float64 if data.dtype.kind == "f" else data.dtype).ravel()
            i = rng.randrange(flat.size)
            if data.dtype.kind == "f":
                flat[i] = {"nan": np.nan, "inf": np.inf, "negative": -abs(flat[i]) - 1.0,
                           "huge": 1e300, "zero": 0.0, "intmax": 2.0**31}[kind]
            else:
                info = np.iinfo(data.dtype)
                flat[i] = {"nan": info.max, "inf": info.max, "negative": max(info.min, -1),
                           "huge": info.max, "zero": 0, "intmax": info.max}[kind]
            ds[...] = flat.reshape(data.shape)
        elif kind == "shape":
            del f[name]
            flat = np.array(data).ravel()
            f[name] = flat[: max(0, flat.size - rng.randint(1, 3))] if rng.random() < 0.5 \
                else np.concatenate([flat, flat[:3]])
        elif kind == "dtype":
            del f[name]
            f[name] = np.array(data).astype(rng.choice(["S8", np.float32, np.int8, np.uint64]))
        else:
            del f[name]
        return f"{kind}:{name}"


def run(ncpbench: str, path: str, work: str, timeout: float, solvers: str, iters: int):
    out = os.path.join(work, "out.h5")
    for p in (out, out + ".lock"):
        if os.path.exists(p):
            os.remove(p)
    shutil.rmtree(out + ".parts", ignore_errors=True)
    try:
        r = subprocess.run([ncpbench, "run", path, "-s", solvers, "--iters", str(iters), "-q",
                            "-o", out], capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return "timeout", ""
    err_lines = [line for line in r.stderr.splitlines() if line and not line.startswith("warning:")]
    if r.returncode == 0 and os.path.exists(out):
        return "ran", ""
    if r.returncode == 2 and len(err_lines) == 1 and not os.path.exists(out):
        return "refused", ""
    return f"violation (exit {r.returncode}, {len(err_lines)} error lines)", r.stderr[-2000:]


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--ncpbench", default=os.path.join(ROOT, "build", "ncpbench"))
    ap.add_argument("-n", type=int, default=1000, help="mutants in all")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--timeout", type=float, default=120.0)
    ap.add_argument("--solvers", default="pgs,apgd,admm-full",
                    help="solvers each mutant runs (all of them: `ncpbench list solvers`)")
    ap.add_argument("--iters", type=int, default=5)
    ap.add_argument("--seeds", nargs="*", help="seed files (default: two generated small "
                    "datasets, one with kinematic trees, and the fclib samples up to 70 KB)")
    a = ap.parse_args()
    rng = random.Random(a.seed)
    work = tempfile.mkdtemp(prefix="ncpbench-mutants-")
    seeds = a.seeds
    if not seeds:
        small = os.path.join(work, "random.h5")
        subprocess.run([a.ncpbench, "generate", "random", "-n", "2", "--seed", "3", "-p",
                        "contacts=4,bodies=6,bilateral=1,soft=1", "-o", small], check=True,
                       capture_output=True)
        # Tree data (joint dofs, parents, transforms) too: its integers index the Jacobians.
        tree = os.path.join(work, "tree.h5")
        subprocess.run([a.ncpbench, "generate", "random", "-n", "1", "--seed", "3", "-p",
                        "contacts=4,bodies=8,bodies_per_subsystem=4,articulated=1,unilateral=1,"
                        "bilateral=1,soft=1", "-o", tree], check=True, capture_output=True)
        fclib = os.path.join(ROOT, "datasets", "fclib")
        seeds = [small, tree] + [os.path.join(fclib, f) for f in sorted(os.listdir(fclib))
                           if f.endswith(".hdf5") and os.path.getsize(os.path.join(fclib, f)) <= 70000]
    counts: dict[str, int] = {}
    violations = 0
    for k in range(a.n):
        src = seeds[k % len(seeds)]
        ext = os.path.splitext(src)[1]
        target = "fclib" if ext == ".hdf5" else "dataset"
        mutant = os.path.join(work, f"mutant{ext}")
        if k % 2 == 0:
            with open(src, "rb") as f:
                data, kind = byte_mutant(f.read(), rng)
            with open(mutant, "wb") as f:
                f.write(data)
            kind = "byte:" + kind
        else:
            kind = "semantic:" + semantic_mutant(src, mutant, rng).split(":")[0]
        verdict, detail = run(a.ncpbench, mutant, work, a.timeout, a.solvers, a.iters)
        key = verdict if not verdict.startswith("violation") else "violation"
        counts[key] = counts.get(key, 0) + 1
        if key in ("violation", "timeout"):
            violations += 1
            digest = hashlib.sha1(open(mutant, "rb").read()).hexdigest()[:16]
            keep = os.path.join(ROOT, "fuzz", "corpus", target, f"crash-{digest}{ext}")
            shutil.copyfile(mutant, keep)
            print(f"{kind} of {os.path.basename(src)}: {verdict}; kept as {keep}\n{detail}",
                  file=sys.stderr)
    shutil.rmtree(work, ignore_errors=True)
    print(f"mutants: {a.n}; " + ", ".join(f"{k}: {v}" for k, v in sorted(counts.items())))
    return 1 if violations else 0


if __name__ == "__main__":
    sys.exit(main())
