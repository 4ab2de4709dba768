#!/usr/bin/python3
"""The size ladder: every solver on random problems of growing size, each run in its own process
with its peak memory measured, until a run reaches the time cap or the memory cap; then
time-against-size slopes and the largest size each solver ran.

    /usr/bin/python3 scripts/ladder.py [--build build] [--out results/ladder]
        [--contacts 1000,10000,100000] [--solvers pj,pgs,...] [--iters 20]
        [--cap-s 300] [--memory-gb G] [--threads 1]

Each rung is one `ncpbench generate random` problem with the given contacts on 1.1 × as many
bodies (6 dofs each, contacts only: the manufactured problems' exact solution is known), and one
`ncpbench run` process per solver at a fixed iteration budget, so that its peak resident memory
(wait4's ru_maxrss) is the run's own. A solver that reaches the time cap (--cap-s) or the memory
cap (--memory-gb, default 80% of the machine's memory) is not run on larger rungs, and the
report says why. Results: <out>/ladder.csv (one row per rung and solver, appended as runs end:
a second call resumes), <out>/ladder.md (table, slopes, the largest rung per solver) and
<out>/ladder.png (plots/size_panels.py). Exit status: 0 when every run ended (whatever its
status), 1 when a run crashed, 2 on bad arguments.
"""

import argparse
import csv
import math
import os
import resource
import subprocess
import sys
import tempfile
import time

FIELDS = ["contacts", "dofs", "rows", "solver", "status", "iterations", "setup_s", "solve_s",
          "time_per_iteration_ms", "res004", "peak_rss_mb", "wall_s", "note"]
DEFAULT_SOLVERS = "pj,pgs,apgd,admm-full,subadmm,cond,sp,local-newton,nnewton,canal"
ENDED = "ended"  # note of a run that ended by itself (any harness status)


def fail(message):
    print(f"ladder.py: {message}", file=sys.stderr)
    sys.exit(2)


def positive_ints(text, name):
    try:
        values = [int(v) for v in text.split(",")]
    except ValueError:
        fail(f"--{name} {text!r}: comma-separated whole numbers expected")
    if not values or min(values) <= 0:
        fail(f"--{name} {text!r}: every value must be positive")
    return sorted(set(values))


def machine_memory_bytes():
    return os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")


def run_capped(cmd, cap_s, memory_bytes, env):
    """(return code or None on the time cap, peak RSS in MB, wall seconds, stderr tail)."""
    def limit():
        resource.setrlimit(resource.RLIMIT_AS, (memory_bytes, memory_bytes))

    def reap(p, wait_s):
        """wait4 on p for up to wait_s seconds: (status, rusage) or None."""
        end = time.monotonic() + wait_s
        while True:
            pid, status, usage = os.wait4(p.pid, os.WNOHANG)
            if pid:
                return status, usage
            if time.monotonic() > end:
                return None
            time.sleep(0.05)

    with tempfile.TemporaryFile() as err:
        start = time.monotonic()
        p = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=err, env=env,
                             preexec_fn=limit)
        done = reap(p, cap_s)
        timed_out = done is None
        if timed_out:
            # SIGTERM first: the tool then removes its lock and temporary files.
            p.terminate()
            done = reap(p, 10.0)
            if done is None:
                p.kill()
                done = reap(p, 1e9)
        status, usage = done
        wall = time.monotonic() - start
        err.seek(0)
        tail = err.read().decode(errors="replace").strip().splitlines()[-1:] or [""]
    # The poll sees an ending up to 50 ms late: a run that ended past the cap reached it too,
    # whatever the poll's timing (on a fast machine a small rung ends before the first poll).
    timed_out = timed_out or wall > cap_s
    code = None if timed_out else os.waitstatus_to_exitcode(status)
    return code, usage.ru_maxrss / 1024.0, wall, tail[0]


def results_row(cli, path):
    """The one row of a results file, from `ncpbench export --csv`."""
    with tempfile.NamedTemporaryFile(suffix=".csv") as f:
        subprocess.run([cli, "export", path, "--csv", f.name], check=True,
                       stdout=subprocess.DEVNULL)
        rows = list(csv.DictReader(open(f.name)))
    if len(rows) != 1:
        raise RuntimeError(f"{path}: {len(rows)} rows, expected 1")
    return rows[0]


def load_done(path):
    if not os.path.exists(path):
        return []
    with open(path, newline="") as f:
        rows = list(csv.DictReader(f))
    if rows and list(rows[0].keys()) != FIELDS:
        fail(f"{path}: not a ladder CSV (columns {','.join(FIELDS)}); remove it or choose --out")
    return rows


def append_row(path, row):
    new = not os.path.exists(path)
    with open(path, "a", newline="") as f:
        w = csv.DictWriter(f, fieldnames=FIELDS)
        if new:
            w.writeheader()
        w.writerow(row)
        f.flush()
        os.fsync(f.fileno())


def write_atomic(path, text):
    tmp = path + ".tmp"
    with open(tmp, "w") as f:
        f.write(text)
    os.replace(tmp, path)


def slope(points):
    """Least-squares slope of log10 y against log10 x; None below two distinct x."""
    pts = [(math.log10(x), math.log10(y)) for x, y in points if x > 0 and y > 0]
    if len({x for x, _ in pts}) < 2:
        return None
    mx = sum(x for x, _ in pts) / len(pts)
    my = sum(y for _, y in pts) / len(pts)
    sxx = sum((x - mx) ** 2 for x, _ in pts)
    return sum((x - mx) * (y - my) for x, y in pts) / sxx


def report(rows, args, solvers):
    lines = ["# Size ladder", "",
             f"Random problems (contacts only, 1.1 bodies per contact, 6 dofs each), one "
             f"`ncpbench run` process per rung and solver, {args.iters} iterations, "
             f"{args.threads} OpenMP thread(s); caps: {args.cap_s:g} s and "
             f"{args.memory_gb:.1f} GB of address space per run. Time per iteration excludes "
             f"setup (W's assembly or the factorizations); peak memory is the process's, "
             f"loading and evaluation included.", "",
             "| contacts | dofs | solver | status | setup [s] | per iteration [ms] | res004 | "
             "peak memory [MB] |", "|---:|---:|---|---|---:|---:|---:|---:|"]
    for r in sorted(rows, key=lambda r: (int(r["contacts"]), solvers.index(r["solver"])
                                         if r["solver"] in solvers else 99)):
        if r["note"] == ENDED:
            lines.append(f"| {r['contacts']} | {r['dofs']} | {r['solver']} | {r['status']} | "
                         f"{float(r['setup_s']):.3g} | {float(r['time_per_iteration_ms']):.3g} | "
                         f"{float(r['res004']):.2e} | {float(r['peak_rss_mb']):.0f} |")
        else:
            lines.append(f"| {r['contacts']} | | {r['solver']} | {r['note']} | | | | "
                         f"{float(r['peak_rss_mb']):.0f} |")
    lines += ["", "## Per solver", "",
              "| solver | largest rung run [contacts] | time per iteration ∝ contacts^k | "
              "setup ∝ contacts^k | peak memory there [MB] | why not larger |",
              "|---|---:|---:|---:|---:|---|"]
    top = max(args.contacts)
    for s in solvers:
        mine = [r for r in rows if r["solver"] == s]
        ran = [r for r in mine if r["note"] == ENDED]
        stopped = [r for r in mine if r["note"] != ENDED]
        largest = max((int(r["contacts"]) for r in ran), default=0)
        k_it = slope([(int(r["contacts"]), float(r["time_per_iteration_ms"])) for r in ran])
        k_set = slope([(int(r["contacts"]), float(r["setup_s"])) for r in ran])
        mem = next((float(r["peak_rss_mb"]) for r in ran if int(r["contacts"]) == largest), 0.0)
        why = ("; ".join(f"{r['note']} at {r['contacts']}" for r in stopped) or
               ("—" if largest == top else "not run yet"))
        fmt = (lambda k: f"{k:.2f}" if k is not None else "—")
        lines.append(f"| {s} | {largest or '—'} | {fmt(k_it)} | {fmt(k_set)} | "
                     f"{mem:.0f} | {why} |")
    lines += ["", "A slope near 1 is linear in the problem's size; the first-order solvers' "
              "iterations should be, and the fits are over the rungs each solver ran. The dual "
              "solvers' setup forms W = J A⁻¹ Jᵀ from the factor's column blocks up to 10⁴ rows "
              "and from A's block inverses beyond (O(nnz)): their setup slope spans both routes.",
              ""]
    return "\n".join(lines)


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--build", default="build")
    ap.add_argument("--out", default="results/ladder")
    ap.add_argument("--contacts", default="1000,10000,100000")
    ap.add_argument("--solvers", default=DEFAULT_SOLVERS)
    ap.add_argument("--iters", type=int, default=20)
    ap.add_argument("--cap-s", type=float, default=300.0)
    ap.add_argument("--memory-gb", type=float, default=None)
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    cli = os.path.join(args.build, "ncpbench")
    if not os.access(cli, os.X_OK):
        fail(f"--build {args.build}: no ncpbench there (build it first: make build)")
    args.contacts = positive_ints(args.contacts, "contacts")
    solvers = [s for s in args.solvers.split(",") if s]
    if not solvers:
        fail("--solvers: at least one solver")
    known = subprocess.run([cli, "list", "solvers"], capture_output=True, text=True).stdout
    names = {line.split()[0] for line in known.splitlines() if line.startswith("  ")
             and not line.startswith("   ")}
    for s in solvers:
        if s not in names:
            fail(f"--solvers: unknown solver '{s}' (see ncpbench list solvers)")
    if args.iters <= 0 or args.cap_s <= 0 or args.threads <= 0:
        fail("--iters, --cap-s and --threads must be positive")
    if args.memory_gb is None:
        args.memory_gb = 0.8 * machine_memory_bytes() / 2**30
    if args.memory_gb <= 0:
        fail(f"--memory-gb {args.memory_gb}: must be positive")
    memory = int(args.memory_gb * 2**30)
    os.makedirs(args.out, exist_ok=True)
    table = os.path.join(args.out, "ladder.csv")
    rows = load_done(table)
    done = {(r["contacts"], r["solver"]) for r in rows}
    stopped = {r["solver"] for r in rows if r["note"] != ENDED}
    env = dict(os.environ, OMP_NUM_THREADS=str(args.threads))
    crashed = 0
    for n in args.contacts:
        data = os.path.join(args.out, f"random-{n}.h5")
        if not os.path.exists(data):
            print(f"ladder: generating {n} contacts", flush=True)
            tmp = data + ".part.h5"
            subprocess.run([cli, "generate", "random", "-o", tmp, "-n", "1", "--seed",
                            str(args.seed), "-p",
                            f"contacts={n},bodies={max(2, round(1.1 * n))},unilateral=0,"
                            "bilateral=0,soft=0"], check=True, env=env,
                           stdout=subprocess.DEVNULL)
            os.replace(tmp, data)
        for s in solvers:
            if (str(n), s) in done or s in stopped:
                continue
            out = os.path.join(args.out, f"random-{n}-{s.replace(':', '_')}.h5")
            code, rss, wall, err = run_capped(
                [cli, "run", data, "-s", s, "--iters", str(args.iters), "--threads",
                 str(args.threads), "-o", out, "-q"], args.cap_s, memory, env)
            row = dict.fromkeys(FIELDS, "")
            row.update(contacts=n, solver=s, peak_rss_mb=f"{rss:.1f}", wall_s=f"{wall:.2f}",
                       setup_s="nan", solve_s="nan", time_per_iteration_ms="nan", res004="nan")
            if code == 0:
                r = results_row(cli, out)
                it = max(1, int(r["iterations"]))
                row.update(dofs=r["num_dofs"], rows=r["num_rows"], status=r["status"],
                           iterations=r["iterations"], setup_s=r["setup_time_s"],
                           solve_s=r["solve_time_s"], res004=r["final_res004"] or "nan",
                           time_per_iteration_ms=f"{1e3 * float(r['solve_time_s']) / it:.6g}",
                           note=ENDED)
            elif code is None:
                row.update(note=f"time cap {args.cap_s:g} s")
            elif rss * 2**20 >= 0.95 * memory or "bad_alloc" in err or "memory" in err.lower():
                row.update(note=f"memory cap {args.memory_gb:.1f} GB")
            else:
                row.update(note=f"exit {code}: {err[:120]}")
                crashed += 1
            if row["note"] != ENDED:
                stopped.add(s)
            append_row(table, row)
            rows.append({k: str(v) for k, v in row.items()})
            print(f"ladder: {n} contacts, {s}: {row['status'] or row['note']}, "
                  f"{float(row['time_per_iteration_ms']):.3g} ms/iteration, {rss:.0f} MB",
                  flush=True)
    write_atomic(os.path.join(args.out, "ladder.md"), report(rows, args, solvers))
    sizes = os.path.join(args.out, "ladder-sizes.csv")
    with open(sizes + ".tmp", "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["solver", "particles", "dofs", "time_ms", "residual"])
        for r in rows:
            if r["note"] == ENDED and r["solver"] in solvers:
                w.writerow([r["solver"], r["contacts"], r["dofs"], r["time_per_iteration_ms"],
                            r["res004"]])
    os.replace(sizes + ".tmp", sizes)
    plot = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "plots",
                        "size_panels.py")
    subprocess.run([sys.executable, plot, sizes, "-o", os.path.join(args.out, "ladder.png"),
                    "--time-label", "time per iteration [ms]", "--title",
                    f"random problems, {args.iters} iterations"], check=False,
                   stdout=subprocess.DEVNULL)
    print(f"ladder: {os.path.join(args.out, 'ladder.md')}")
    return 1 if crashed else 0


if __name__ == "__main__":
    sys.exit(main())
