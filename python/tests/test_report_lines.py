"""The main job's report says what its tables hold: on every shipped default dataset (a short
run of the main job's solvers with a peer), each dataset's verdict line names the solver first by
its stated rule with the table's figures, runner-up and best peer with their margins, and the
summary recommends the table's best share solved (scripts/check_report_lines.py)."""
import os
import subprocess
import sys

import pytest

from conftest import SOURCE_DIR, run_cli

DEFAULT = ["random-small", "random-large", "laikago_drop", "sliding_cubes", "bolt_nut",
           "dish_piling", "soft_mat", "cable"]
CHECK = os.path.join(SOURCE_DIR, "scripts", "check_report_lines.py")


def check(path):
    p = subprocess.run([sys.executable, CHECK, str(path)], capture_output=True, text=True)
    return p.returncode, p.stdout


def test_every_default_datasets_verdict_lines_agree_with_their_tables(cli, tmp_path):
    data = [os.path.join(SOURCE_DIR, "datasets", "default", d + ".h5") for d in DEFAULT]
    missing = [d for d in data if not os.path.exists(d)]
    if missing:
        pytest.skip(f"default datasets not generated ({missing[0]}): make test makes them")
    _, listed, _ = run_cli(cli, "list")
    solvers = "pgs,apgd,subadmm,canal" + (",siconos:nsgs" if "siconos:nsgs" in listed else "")
    out, md = tmp_path / "r.h5", tmp_path / "r.md"
    rc, _, err = run_cli(cli, "run", *data, "-s", solvers, "--iters", 100, "--time-ms", 30,
                         "--tol", 1e-10, "--trace", 5, "--threads", 1, "-q", "-o", out)
    assert rc == 0, err
    rc, _, err = run_cli(cli, "report", out, "-o", md)
    assert rc == 0, err
    rc, said = check(md)
    assert rc == 0 and f"{len(DEFAULT)} datasets, 0 disagreements" in said, said
    # The check can fail: a line naming another solver than its table's first is caught.
    text = md.read_text()
    line = next(l for l in text.splitlines() if l.startswith("Most problems to res004")
                and "runner-up" in l)
    winner = line.split("**")[1]
    other = line.split("runner-up ")[1].split(" (")[0]
    wrong = tmp_path / "wrong.md"
    wrong.write_text(text.replace(line, line.replace(f"**{winner}**", f"**{other}**", 1)))
    rc, said = check(wrong)
    assert rc == 1 and "the table's first by the rule is" in said, said
