"""A run's parts found when it starts were written by an earlier process or planted: each is read
whole in a child before it counts as its job's row, and one that does not read whole (a forged
attribute that overflowed the reader, a trace no run writes, a row of an unknown status, a link
to another file) is removed with a warning and its job runs again, so the run ends with every
row and a file every reader takes (a forged part crashed the run, or was merged unchecked and
made the whole file unreadable, or blocked every rerun)."""
import os
import sys

import h5py
import numpy as np
import pytest

from conftest import SOURCE_DIR, run_cli

sys.path.insert(0, os.path.join(SOURCE_DIR, "scripts"))
from results_forgery import part_name, replaced, write_part  # noqa: E402


EDITS = {
    "array attribute": lambda g: g.attrs.__setitem__("cpu", np.array([b"x" * 16] * 64, dtype="S16")),
    "trace time": replaced("traces/0/time_s", lambda a: a.__setitem__(0, 1e9)),
    "negative trace residual": replaced("traces/0/res004", lambda a: a.__setitem__(slice(1, None), -1)),
    "unknown status": replaced("runs/status", lambda a: a.__setitem__(0, b"bogus")),
    "no trace": lambda g: g.__delitem__("traces/0"),
    "external link": lambda g: g.__setitem__("traces/0/x", h5py.ExternalLink("/etc/passwd", "/x")),
}


@pytest.fixture(scope="module")
def made(cli, tmp_path_factory):
    d = tmp_path_factory.mktemp("parts")
    data, done = d / "d.h5", d / "r.h5"
    assert run_cli(cli, "generate", "random", "-n", 2, "-p", "contacts=8,bodies=10", "-q",
                   "-o", data)[0] == 0
    assert run_cli(cli, "run", data, "-s", "pgs,apgd", "--iters", 20, "--trace", 5, "-q",
                   "-o", done)[0] == 0
    return data, done


@pytest.mark.parametrize("case", sorted(EDITS))
def test_a_forged_part_is_redone(cli, made, tmp_path, case):
    data, done = made
    out = tmp_path / "o.h5"
    parts = tmp_path / "o.h5.parts"
    parts.mkdir()
    with h5py.File(done, "r") as s:  # the first job's row as a part, then forged
        part = parts / (part_name(s["runs/job_key"][0]) + ".h5")
        write_part(s, part, 0, EDITS[case])
    rc, _, err = run_cli(cli, "run", data, "-s", "pgs,apgd", "--iters", 20, "--trace", 5, "-q",
                         "-o", out)
    assert rc == 0, err
    assert f"warning: {part}: removed, its job runs again" in err, err
    rc, text, err = run_cli(cli, "export", out, "--csv", "-")
    assert rc == 0, err
    assert len(text.strip().splitlines()) == 1 + 4, text  # every job's row, the forged one redone
    assert not os.path.exists(parts)


def test_parts_of_an_interrupted_run_with_other_arguments_are_named(cli, made, tmp_path):
    # A run with other solvers left a finished apgd job: merged, as a finished run's rows would
    # be, but no longer without a word.
    data, done = made
    out = tmp_path / "o.h5"
    parts = tmp_path / "o.h5.parts"
    parts.mkdir()
    with h5py.File(done, "r") as s:
        row = [i for i, x in enumerate(s["runs/solver"][()]) if x == b"apgd"][0]
        write_part(s, parts / (part_name(s["runs/job_key"][row]) + ".h5"), row, lambda g: None)
    rc, _, err = run_cli(cli, "run", data, "-s", "pgs", "--iters", 20, "--trace", 5, "-q",
                         "-o", out)
    assert rc == 0, err
    assert "1 finished jobs of an interrupted run with other arguments (1 × apgd on" in err, err
