"""scripts/ladder.py: one process per rung and solver with its own peak memory, a solver that
reaches the time cap left out of larger rungs with the reason, and a second call that resumes
(runs nothing already in ladder.csv)."""
import csv
import os
import subprocess
import sys

from conftest import SOURCE_DIR

LADDER = os.path.join(SOURCE_DIR, "scripts", "ladder.py")


def ladder(cli, out, *args):
    build = os.path.dirname(os.path.abspath(cli))
    return subprocess.run([sys.executable, LADDER, "--build", build, "--out", str(out), *args],
                          capture_output=True, text=True)


def rows(out):
    with open(os.path.join(out, "ladder.csv"), newline="") as f:
        return list(csv.DictReader(f))


def test_rungs_memory_caps_and_resume(cli, tmp_path):
    p = ladder(cli, tmp_path, "--contacts", "20,60", "--solvers", "pgs,pj", "--iters", "5")
    assert p.returncode == 0, p.stderr
    got = rows(tmp_path)
    assert [(r["contacts"], r["solver"]) for r in got] == [
        ("20", "pgs"), ("20", "pj"), ("60", "pgs"), ("60", "pj")]
    for r in got:
        assert r["note"] == "ended" and r["status"] == "max-iterations", r
        assert r["iterations"] == "5" and int(r["dofs"]) == 6 * round(1.1 * int(r["contacts"]))
        assert 1.0 < float(r["peak_rss_mb"]) < 4096.0, r  # its own process, measured
        assert float(r["time_per_iteration_ms"]) > 0.0
    report = open(os.path.join(tmp_path, "ladder.md"), encoding="utf-8").read()
    assert "| pgs | 60 |" in report and "| pj | 60 |" in report
    # A second call finds every run done: no new rows.
    p = ladder(cli, tmp_path, "--contacts", "20,60", "--solvers", "pgs,pj", "--iters", "5")
    assert p.returncode == 0 and len(rows(tmp_path)) == 4, p.stderr


def test_a_solver_past_the_time_cap_stops_climbing(cli, tmp_path):
    p = ladder(cli, tmp_path, "--contacts", "20,60", "--solvers", "pgs", "--iters", "5",
               "--cap-s", "0.001")
    assert p.returncode == 0, p.stderr
    got = rows(tmp_path)
    assert len(got) == 1 and got[0]["note"] == "time cap 0.001 s", got
    report = open(os.path.join(tmp_path, "ladder.md"), encoding="utf-8").read()
    assert "time cap 0.001 s at 20" in report


def test_bad_arguments_are_refused_with_the_rule(cli, tmp_path):
    for args, text in ((["--contacts", "10,-3"], "every value must be positive"),
                       (["--solvers", "nope"], "unknown solver 'nope'"),
                       (["--iters", "0"], "must be positive")):
        p = ladder(cli, tmp_path, *args)
        assert p.returncode == 2 and text in p.stderr, (args, p.stderr)
