"""scripts/reorder_contacts.py: the copy is the same problem with its constraints renumbered
(rows of J and e, types, μ and the reference's λ move together), so the reference still solves
it to the same residual and pj (order-free) ends at the same residual to rounding; rcm brings
the constraints that share a body together; a copy over its input is refused."""
import os
import subprocess
import sys

import numpy as np

import ncpbench
from conftest import SOURCE_DIR, run_cli

SCRIPT = os.path.join(SOURCE_DIR, "scripts", "reorder_contacts.py")


def reorder(src, dst, order):
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(sys.path))
    return subprocess.run([sys.executable, SCRIPT, str(src), str(dst), "--order", order],
                          capture_output=True, text=True, env=env)


def test_same_problem_renumbered(cli, tmp_path):
    src = tmp_path / "r.h5"
    code, _, err = run_cli(cli, "generate", "random", "-o", src, "-n", "1", "--seed", "3", "-q",
                           "-p", "contacts=300,bodies=330,unilateral=20,bilateral=10,soft=0")
    assert code == 0, err
    (p,) = ncpbench.load(str(src))
    for order in ("rcm", "shuffle"):
        dst = tmp_path / f"r-{order}.h5"
        out = reorder(src, dst, order)
        assert out.returncode == 0, out.stderr
        (q,) = ncpbench.load(str(dst))
        assert q.num_rows == p.num_rows and q.num_dofs == p.num_dofs
        assert sorted(q.types) == sorted(p.types) and sorted(q.mu) == sorted(p.mu)
        # The reference, renumbered with the rows, solves the copy as it solves the original.
        r0 = ncpbench.evaluate(p, p.reference["v"], p.reference["lambda"])["res004"]
        r1 = ncpbench.evaluate(q, q.reference["v"], q.reference["lambda"])["res004"]
        assert abs(r1 - r0) <= 1e-12, (order, r0, r1)
        a = ncpbench.solve(p, "pj", iters=40).metrics["res004"]
        b = ncpbench.solve(q, "pj", iters=40).metrics["res004"]
        assert abs(a - b) <= 1e-9 * max(a, 1e-300), (order, a, b)
    line = reorder(src, tmp_path / "again.h5", "rcm").stdout
    before, after = [float(w) for w in line.split() if w.replace(".", "").isdigit()][:2]
    assert after < before, line


def test_refuses_to_overwrite_its_input(tmp_path):
    out = reorder(tmp_path / "x.h5", tmp_path / "x.h5", "rcm")
    assert out.returncode == 2 and "must differ from the input" in out.stderr
