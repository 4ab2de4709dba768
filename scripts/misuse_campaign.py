#!/usr/bin/env python3
"""A campaign of hostile and careless uses of the command line, each checked against the
suite's contract for bad input and faults (README, "Set up and run"):

- no crash: the process ends by exit, never by a signal;
- a refusal exits non-zero with exactly one stderr line "ncpbench: error: ...";
- a non-finite value in any stored floating-point field, anywhere in a problem, is refused;
- nothing half-written: no temporary file is left, an input is never changed, and a file that
  a link planted at an output's or lock's name points to keeps its contents.

Usage: /usr/bin/python3 scripts/misuse_campaign.py BUILD/ncpbench [WORKDIR]
Prints the counts per kind and every violation; exits 1 when there is one. Needs h5py.
"""
import hashlib
import os
import shutil
import subprocess
import sys
import tempfile

import h5py
import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from results_forgery import part_name, replaced, write_part  # noqa: E402

CLI = os.path.abspath(sys.argv[1])
WORK = os.path.abspath(sys.argv[2]) if len(sys.argv) > 2 else tempfile.mkdtemp(prefix="ncpbench_misuse_")
shutil.rmtree(WORK, ignore_errors=True)  # a fresh folder: the checks look for files left behind
os.makedirs(WORK)
counts, violations = {}, []


def sha(path):
    with open(path, "rb") as f:
        return hashlib.sha256(f.read()).hexdigest()


def run(args, limit_kb=None, cwd=WORK):
    cmd = [CLI] + args
    if limit_kb is not None:
        cmd = ["bash", "-c", f"ulimit -f {limit_kb}; exec \"$0\" \"$@\""] + cmd
    p = subprocess.run(cmd, cwd=cwd, capture_output=True, text=True, timeout=300)
    return p.returncode, p.stderr


def check(kind, name, args, must_refuse=False, inputs=(), victims=(), limit_kb=None):
    """Runs one case and checks the contract; `inputs` must be unchanged afterwards."""
    counts[kind] = counts.get(kind, 0) + 1
    before = {p: sha(p) for p in list(inputs) + list(victims) if os.path.isfile(p)}
    rc, err = run(args, limit_kb)
    problems = []
    if rc < 0 or rc >= 128:
        problems.append(f"ended by signal (rc {rc})")
    lines = [l for l in err.splitlines() if l.startswith("ncpbench: error:")]
    if rc != 0 and (len(lines) != 1 or len([l for l in err.splitlines() if l.strip()]) > 1 + err.count("warning:")):
        problems.append(f"refusal is not one line: {err!r}")
    if must_refuse and rc == 0:
        problems.append("accepted")
    for p, h in before.items():
        if not os.path.isfile(p) or sha(p) != h:
            problems.append(f"{os.path.basename(p)} changed")
    for root, _, files in os.walk(WORK):
        for f in files:
            if ".tmp" in f:
                problems.append(f"left {f}")
                os.remove(os.path.join(root, f))
    if problems:
        violations.append(f"{kind}: {name}: {'; '.join(problems)}")


def fresh_dataset(path, n=2, params="contacts=6,bodies=8"):
    subprocess.run([CLI, "generate", "random", "-n", str(n), "-p", params, "-o", path, "-q"],
                   check=True, capture_output=True)


def edited(base, name, edit):
    path = os.path.join(WORK, name + ".h5")
    shutil.copy(base, path)
    with h5py.File(path, "r+") as f:
        edit(f)
    return path


def shortened(f, column):
    a = f[column][()][:1]
    del f[column]
    f[column] = a


def relinked(column, link):
    def edit(f):
        del f[column]
        f[column] = link
    return edit


# Results files edited as a forger would (each once refused by no reader, or crashing one):
# arrays where one string is read, numbers and bytes where text is, links to other objects or
# files, values no run writes.
RESULTS_EDITS = {
    "string array attribute": lambda f: f.attrs.__setitem__("cpu", np.array([b"x" * 16] * 64, dtype="S16")),
    "vlen array attribute": lambda f: f.attrs.create("cpu", ["AMD"] * 3, dtype=h5py.string_dtype()),
    "number attribute": lambda f: f.attrs.__setitem__("threads", 4),
    "non-utf-8 attribute": lambda f: f.attrs.__setitem__("cpu", np.bytes_(b"AMD \xff\xfe")),
    "external link column": relinked("runs/final_res004", h5py.ExternalLink("/etc/passwd", "/x")),
    "soft link column": relinked("runs/final_res004", h5py.SoftLink("/runs/final_natmap")),
    "empty job key": replaced("runs/job_key", lambda a: a.__setitem__(0, b"")),
    "negative size": replaced("runs/num_dofs", lambda a: a.__setitem__(0, -5)),
    "negative descriptor": replaced("runs/mu_min", lambda a: a.__setitem__(0, -3.0)),
    "negative trace residual": replaced("traces/0/res004", lambda a: a.__setitem__(slice(1, None), -1)),
    "unknown status": replaced("runs/status", lambda a: a.__setitem__(0, b"bogus")),
    "trace time back": replaced("traces/0/time_s", lambda a: a.__setitem__(1, -1.0)),
    "short column": lambda f: shortened(f, "runs/solver"),
}


def results_files(base):
    """Forged results files given to every reader, and forged parts found by a resumed run."""
    res = os.path.join(WORK, "res.h5")
    subprocess.run([CLI, "run", base, "-s", "pgs,apgd", "--iters", "20", "--trace", "5", "-q",
                    "-o", res], check=True, capture_output=True)
    for name, edit in RESULTS_EDITS.items():
        path = edited(res, "forged", edit)
        for args in (["report", path, "-o", os.path.join(WORK, "f.md")],
                     ["export", path, "--csv", os.path.join(WORK, "f.csv")],
                     ["compare", res, path],
                     ["merge", path, "-o", os.path.join(WORK, "m.h5")]):
            check("forged results file", f"{name}: {args[0]}", args, must_refuse=True,
                  inputs=[path, res])
        os.remove(path)
    # A part planted where a resumed run looks: redone with a warning, every row in the end.
    with h5py.File(res, "r") as s:
        key = s["runs/job_key"][0]
    for name, edit in list(RESULTS_EDITS.items())[:11]:
        out = os.path.join(WORK, "o.h5")
        parts = out + ".parts"
        shutil.rmtree(parts, ignore_errors=True)
        if os.path.exists(out):
            os.remove(out)
        os.makedirs(parts)
        with h5py.File(res, "r") as s:
            write_part(s, os.path.join(parts, part_name(key) + ".h5"), 0, edit)
        args = ["run", base, "-s", "pgs,apgd", "--iters", "20", "--trace", "5", "-q", "-o", out]
        check("forged part", name, args, inputs=[base])
        rc, err = run(["report", out, "-o", os.path.join(WORK, "o.md")])
        if rc != 0 or not os.path.exists(out):
            violations.append(f"forged part: {name}: the run's output does not read back: {err}")


def main():
    base = os.path.join(WORK, "base.h5")
    fresh_dataset(base)
    out = os.path.join(WORK, "out.h5")

    def run_case(kind, name, data, must_refuse, extra=()):
        for p in (out,):
            if os.path.exists(p):
                os.remove(p)
        shutil.rmtree(out + ".parts", ignore_errors=True)
        check(kind, name, ["run", data, "-s", "pgs", "--iters", "5", "-q", "-o", out] + list(extra),
              must_refuse=must_refuse, inputs=[data])

    # Every stored floating-point value (datasets and attributes) of each problem: NaN, ±∞.
    float_sets, int_sets, float_attrs = [], [], []
    with h5py.File(base) as f:
      for g in ["problems/" + k for k in sorted(f["problems"])]:
        def visit(n, o, g=g):
            if isinstance(o, h5py.Dataset):
                (float_sets if o.dtype.kind == "f" else int_sets if o.dtype.kind in "iu" else []).append(g + "/" + n)
            for k, a in o.attrs.items():
                if np.asarray(a).dtype.kind == "f":
                    float_attrs.append((g + "/" + n, k))
        f[g].visititems(visit)
        for k, a in f[g].attrs.items():
            if np.asarray(a).dtype.kind == "f":
                float_attrs.append((g, k))
    g = float_sets[0].split("/")[0] + "/" + float_sets[0].split("/")[1]  # the first problem
    for ds in float_sets:
        for value in (np.nan, np.inf, -np.inf):
            def edit(f, ds=ds, value=value):
                a = f[ds][()]
                a.flat[len(a.flat) // 2] = value
                f[ds][...] = a
            run_case("non-finite field", f"{ds} = {value}", edited(base, "nf", edit), True)
    for obj, key in float_attrs:
        for value in (np.nan, np.inf, -np.inf):
            def edit(f, obj=obj, key=key, value=value):
                f[obj].attrs[key] = value
            run_case("non-finite attribute", f"{obj}@{key} = {value}", edited(base, "na", edit), True)
    # Integer fields pushed out of range: refused or (where harmless) accepted, never a crash.
    for ds in int_sets:
        for value in (-1, 2**31 - 1, -(2**31)):
            def edit(f, ds=ds, value=value):
                a = f[ds][()]
                info = np.iinfo(a.dtype)
                a.flat[0] = min(max(value, info.min), info.max)
                f[ds][...] = a
            run_case("integer out of range", f"{ds}[0] = {value}", edited(base, "ir", edit), False)
    # Arrays one entry short or long.
    for ds in float_sets + int_sets:
        for delta in (-1, 1):
            def edit(f, ds=ds, delta=delta):
                a = f[ds][()]
                if a.ndim != 1:
                    return
                b = np.resize(a, max(len(a) + delta, 0))
                del f[ds]
                f[ds] = b
            run_case("wrong size", f"{ds} {delta:+d}", edited(base, "ws", edit), False)
    # A parent cycle in the structure layer.
    def cycle(f):
        par = f[g + "/structure/bodies/parent"][()]
        par[0], par[1] = 1, 0
        f[g + "/structure/bodies/parent"][...] = par
    run_case("parent cycle", "bodies 0 <-> 1", edited(base, "cy", cycle), True)
    # Compression bombs: a few values stored in chunks of many MB.
    for ds in float_sets[:6]:
        def bomb(f, ds=ds):
            a = f[ds][()].reshape(-1)
            del f[ds]
            f.create_dataset(ds, data=a, maxshape=(None,), chunks=(1 << 24,), compression="gzip")
        run_case("compression bomb", ds, edited(base, "bomb", bomb), True)

    # Outputs that name an input.
    res = os.path.join(WORK, "res.h5")
    subprocess.run([CLI, "run", base, "-s", "pgs", "--iters", "5", "-q", "-o", res], check=True,
                   capture_output=True)
    link = os.path.join(WORK, "link.h5")
    if not os.path.lexists(link):
        os.symlink(base, link)
    for args in (["convert", base, base], ["convert", base, base, "--to", "fclib", "--index", "0"],
                 ["convert", link, base], ["convert", base, os.path.join(WORK, ".", "base.h5")],
                 ["report", res, "-o", res], ["compare", res, res, "-o", res],
                 ["baseline", base, "--out-dir", WORK, "--force", "-s", "pgs", "--iters", "5", "-q"],
                 ["merge", res, "-o", res], ["run", base, "-s", "pgs", "-q", "-o", base]):
        check("output is an input", " ".join(args[:1] + [os.path.basename(a) for a in args[1:]]),
              args, must_refuse=True, inputs=[base, res])

    # Links planted at a lock's or an output's name.
    victim = os.path.join(WORK, "victim.txt")
    for target in ("lock", "output", "report"):
        with open(victim, "w") as f:
            f.write("precious\n")
        o = os.path.join(WORK, f"planted_{target}.h5")
        for p in (o, o + ".lock"):
            if os.path.lexists(p):
                os.remove(p)
        if target == "lock":
            os.symlink(victim, o + ".lock")
            args = ["run", base, "-s", "pgs", "--iters", "5", "-q", "-o", o]
        elif target == "output":
            os.symlink(victim, o)
            args = ["generate", "random", "-n", "1", "-q", "-o", o]
        else:
            os.symlink(victim, o)
            args = ["report", res, "-o", o]
        check("planted link", target, args, victims=[victim], inputs=[base, res])
        if open(victim).read() != "precious\n":
            violations.append(f"planted link: {target}: the victim was overwritten")

    # Full disks (a file-size limit fails writes the same way), every writing command.
    for limit in (64, 256, 1024, 2048):
        shutil.rmtree(out + ".parts", ignore_errors=True)
        for args in (["run", base, "-s", "pgs,pj,apgd", "--iters", "2000", "--trace", "1", "-q", "-o", out],
                     ["generate", "random", "-n", "40", "-q", "-o", os.path.join(WORK, "g.h5")],
                     ["convert", base, os.path.join(WORK, "c.h5")],
                     ["convert", base, os.path.join(WORK, "c.hdf5"), "--to", "fclib", "--index", "0"],
                     ["report", res, "-o", os.path.join(WORK, "r.md")],
                     ["merge", res, "-o", os.path.join(WORK, "m.h5")]):
            check("full disk", f"{args[0]} under {limit} kB", args, inputs=[base, res], limit_kb=limit)
        for p in ("g.h5", "c.h5", "c.hdf5", "r.md", "m.h5", "out.h5"):
            if os.path.exists(os.path.join(WORK, p)):
                os.remove(os.path.join(WORK, p))
        shutil.rmtree(out + ".parts", ignore_errors=True)
        for p in os.listdir(WORK):
            if p.endswith(".lock"):
                os.remove(os.path.join(WORK, p))

    # Arguments: unbounded work, empty paths, unknown names, bad values, warm starts lacking.
    for args in (["generate", "random", "-n", "1000000000", "-o", os.path.join(WORK, "big.h5")],
                 ["generate", "random", "-n", "0", "-o", os.path.join(WORK, "z.h5")],
                 ["generate", "random", "-o", ""], ["run", base, "-o", ""],
                 ["run", base, "-s", "nosuch", "-o", out], ["run", base, "-s", "pgs", "--set", "pgs.omega=7", "-o", out],
                 ["run", base, "-s", "pgs", "--set", "pgs.omega=nan", "-o", out],
                 ["run", base, "-s", "pgs", "--iters", "-3", "-o", out],
                 ["run", base, "-s", "pgs", "--warm", "guess", "-o", out],
                 ["run", os.path.join(WORK, "missing.h5"), "-o", out],
                 ["convert", base, os.path.join(WORK, "x.hdf5"), "--to", "fclib", "--index", "9"],
                 ["generate", "random", "-n", "1", "-p", "condition=1e300", "-o", os.path.join(WORK, "c300.h5")],
                 ["generate", "random", "-n", "1", "-p", "contacts=-5", "-o", os.path.join(WORK, "neg.h5")],
                 ["simulate", "sliding_cubes", "--steps", "2", "--every", "0", "--record", os.path.join(WORK, "s.h5"), "-q"]):
        check("arguments", " ".join(args[:2]), args, inputs=[base])
    # Values that must be refused: a negative seed (it wrapped), one size given twice as two
    # spellings, cases beyond any protocol, an input that is a FIFO (its open would block).
    fifo = os.path.join(WORK, "fifo.h5")
    if not os.path.exists(fifo):
        os.mkfifo(fifo)
    for args in (["generate", "random", "-n", "2", "--seed", "-1", "-o", os.path.join(WORK, "s1.h5")],
                 ["sweep", "random", "--param", "contacts", "--values", "20,020", "-o", os.path.join(WORK, "sw.h5")],
                 ["reproduce", "004-fig7", "--cases", "1000000000", "-o", os.path.join(WORK, "rep")],
                 ["info", fifo], ["run", fifo, "-s", "pgs", "-o", out],
                 # Empty list items were dropped, a seed past 2^64 - 1 clamped; a baseline
                 # renamed its file over a FIFO; a sweep generated before checking its output;
                 # simulate wrote an empty recording; reproduce -o a file was an internal error.
                 ["run", base, "-s", "pgs,,apgd", "-o", out],
                 ["generate", "random", "-n", "1", "-p", "bodies=60,", "-o", os.path.join(WORK, "e.h5")],
                 ["generate", "random", "-n", "1", "--seed", "18446744073709551616", "-o", os.path.join(WORK, "s2.h5")],
                 ["baseline", base, "-s", "pgs", "--iters", "3", "--force", "-o", fifo],
                 ["sweep", "random", "--param", "contacts", "--values", "4", "-o", base],
                 ["simulate", "box_push", "--steps", "2", "-q", "--record", os.path.join(WORK, "none.h5")],
                 ["reproduce", "004-table2", "-o", base],
                 ["run", base, "-s", "pgs", "--threads", "100000", "-o", out]):
        check("arguments", " ".join(args[:2]), args, must_refuse=True, inputs=[base])
    os.remove(fifo)
    for p in ("big.h5", "z.h5", "c300.h5", "neg.h5", "s.h5"):
        q = os.path.join(WORK, p)
        if os.path.exists(q):  # whatever a generator wrote, its reader must take
            rc, err = run(["info", q])
            counts["written files read back"] = counts.get("written files read back", 0) + 1
            if rc != 0:
                violations.append(f"written files read back: {p}: {err.strip()}")

    results_files(base)
    total = sum(counts.values())
    for kind, n in counts.items():
        print(f"{kind:28s} {n:5d}")
    print(f"{'cases':28s} {total:5d}")
    print(f"{'violations':28s} {len(violations):5d}")
    for v in violations:
        print("  " + v)
    return 1 if violations else 0


if __name__ == "__main__":
    sys.exit(main())
