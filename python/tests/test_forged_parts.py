"""A run's parts found when it starts were written by an earlier process or planted: each is read
whole in a child before it counts as its job's row, and one that does not read whole (a forged
attribute that overflowed the reader, a trace no run writes, a row of an unknown status, a link
to another file) is removed with a warning and its job runs again, so the run ends with every
row and a file every reader takes (a forged part crashed the run, or was merged unchecked and
made the whole file unreadable, or blocked every rerun)."""
import os

import h5py
import numpy as np
import pytest

from conftest import run_cli


def fnv1a(data):
    h = 0xcbf29ce484222325
    for c in data:
        h = ((h ^ c) * 0x100000001b3) & (2**64 - 1)
    return "%016x" % h


def replaced(column, change):
    def edit(g):
        a = g[column][()]
        change(a)
        del g[column]
        g[column] = a
    return edit


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
    with h5py.File(done, "r") as s:
        key = s["runs/job_key"][0]
        part = parts / (fnv1a(key) + ".h5")
        with h5py.File(part, "w") as g:  # the first job's row as a part, then forged
            g.attrs["format"] = np.bytes_(b"ncpbench-results")
            g.attrs["schema_version"] = np.int32(1)
            for k in s["runs"]:
                g["runs/" + k] = s["runs"][k][0:1]
            s.copy(s["traces/0"], g.create_group("traces"), name="0")
            EDITS[case](g)
    rc, _, err = run_cli(cli, "run", data, "-s", "pgs,apgd", "--iters", 20, "--trace", 5, "-q",
                         "-o", out)
    assert rc == 0, err
    assert f"warning: {part}: removed, its job runs again" in err, err
    rc, text, err = run_cli(cli, "export", out, "--csv", "-")
    assert rc == 0, err
    assert len(text.strip().splitlines()) == 1 + 4, text  # every job's row, the forged one redone
    assert not os.path.exists(parts)
