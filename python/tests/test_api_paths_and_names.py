"""Paths and names from Python, where strings may hold what a command line cannot: a NUL (the
operating system sees the name before it, another file: an existing dataset was deleted), an
empty output (every job ran, then failed), a FIFO given to read_results (it blocked forever);
solver names and settings that made runs that could never merge, and a Python solver class whose
construction raised (it aborted the whole run)."""
import os
import shutil

import numpy as np
import pytest


@pytest.fixture()
def data(manufactured, tmp_path):
    path = tmp_path / "in.h5"
    shutil.copy(manufactured, path)
    return path


def test_a_nul_in_a_path_is_refused_and_touches_nothing(data, tmp_path):
    import ncpbench
    before = data.read_bytes()
    p = ncpbench.load(str(data))[0]
    calls = [lambda: ncpbench.run([str(data)], solvers="pgs", iters=2, out=str(data) + "\0"),
             lambda: ncpbench.run([str(data) + "\0x"], solvers="pgs", iters=2,
                                  out=str(tmp_path / "r.h5")),
             lambda: ncpbench.write_dataset(str(data) + "\0zz", [p]),
             lambda: ncpbench.write_fclib(str(data) + "\0zz", p),
             lambda: ncpbench.load(str(data) + "\0zz")]
    for call in calls:
        with pytest.raises(ncpbench.Error, match="a path with a NUL character"):
            call()
    assert data.read_bytes() == before
    assert sorted(os.listdir(tmp_path)) == ["in.h5"]


def test_an_empty_output_is_refused_before_any_job(data, tmp_path, monkeypatch):
    import ncpbench
    monkeypatch.chdir(tmp_path)
    with pytest.raises(ncpbench.Error, match="out = '': must name a file"):
        ncpbench.run([str(data)], solvers="pgs", iters=3, out="")
    assert sorted(os.listdir(tmp_path)) == ["in.h5"]  # no .lock, no .parts


def test_a_results_file_inside_a_folder_input_resumes(data, tmp_path):
    # As `ncpbench run data -o data/r.h5`: the output is no input of its own run.
    import ncpbench
    out = str(data.parent / "r.h5")
    ncpbench.run([str(data.parent)], solvers="pgs", iters=2, out=out)
    ncpbench.run([str(data.parent)], solvers="pj", iters=2, out=out)
    assert {r["solver"] for r in ncpbench.read_results(out)} == {"pgs", "pj"}


def test_read_results_refuses_what_is_no_file(tmp_path):
    import ncpbench
    fifo = tmp_path / "f.h5"
    os.mkfifo(fifo)
    (tmp_path / "t.h5").write_bytes(b"not hdf5")
    for path, needle in ((fifo, "not a regular file"), (tmp_path, "not a regular file"),
                         (tmp_path / "t.h5", "cannot open as HDF5"),
                         (tmp_path / "none.h5", "no such file")):
        with pytest.raises(ValueError, match=needle) as e:
            ncpbench.read_results(str(path))  # the FIFO blocked h5py's open forever
        assert str(path) in str(e.value)


class Zeros:
    settings = {"k": 1.0}

    def setup(self, problem, settings):
        self.n, self.m = problem.num_dofs, problem.num_rows

    def iterate(self):
        pass

    def current(self):
        return np.zeros(self.n), np.zeros(self.m)


@pytest.mark.parametrize("name", ["a\0b", "", "a,b", "a\nb", "a.b", "../x"])
def test_a_solver_name_a_job_key_cannot_hold_is_refused(data, tmp_path, name):
    import ncpbench
    solver = type("S", (Zeros,), {"name": name})()
    with pytest.raises(ncpbench.Error, match="python solver name"):
        ncpbench.run([str(data)], solvers=[solver], iters=2, out=str(tmp_path / "r.h5"))
    assert not (tmp_path / "r.h5.parts").exists()


def test_a_setting_given_twice_is_refused(data, tmp_path):
    import ncpbench
    solver = type("S", (Zeros,), {"name": "x"})()
    with pytest.raises(ncpbench.Error, match=r"--set x\.k: given twice \(2 and 3\)"):
        ncpbench.run([str(data)], solvers=[solver], settings={"x.k": 2, "x": {"k": 3}}, iters=2,
                     out=str(tmp_path / "r.h5"))


def test_a_class_whose_construction_raises_is_a_failed_row(data, tmp_path):
    import ncpbench

    class Broken(Zeros):
        name = "broken"

        def __init__(self):
            raise RuntimeError("no model file")
    out = str(tmp_path / "r.h5")
    ncpbench.run([str(data)], solvers=["pgs", Broken], iters=3, out=out)
    rows = ncpbench.read_results(out)
    broken = [r for r in rows if r["solver"] == "broken"]
    assert broken and all(r["status"] == "failed" and "no model file" in r["message"] and
                          "At:" not in r["message"] for r in broken)  # no pybind traceback
    assert all(r["status"] != "failed" for r in rows if r["solver"] == "pgs")
    r = ncpbench.solve(ncpbench.load(str(data))[0], Broken, iters=3)
    assert r.status == "failed" and "no model file" in r.message


def test_a_warm_start_must_be_finite():
    import ncpbench
    g = ncpbench.generate("random", 1, seed=4, params={"contacts": 6, "bodies": 8})[0]
    with pytest.raises(ncpbench.Error, match=r"warm\[1\] \(lambda\)\[0\] = nan: must be finite"):
        ncpbench.solve(g, "pgs", iters=3, warm=(np.zeros(g.num_dofs), np.full(g.num_rows, np.nan)))
    with pytest.raises(ncpbench.Error, match=r"warm\[0\] \(v\)\[0\] = inf: must be finite"):
        ncpbench.solve(g, "pgs", iters=3, warm=(np.full(g.num_dofs, np.inf), np.zeros(g.num_rows)))


def test_paths_may_be_path_objects_and_nothing_else(data, tmp_path):
    import pathlib
    import ncpbench
    problems = ncpbench.load(pathlib.Path(data))
    ncpbench.write_dataset(tmp_path / "copy.h5", problems)
    assert ncpbench.run(pathlib.Path(data), solvers="pgs", iters=2, out=tmp_path / "r.h5") == \
        str(tmp_path / "r.h5")
    with pytest.raises(ncpbench.Error, match="path: must be a path"):
        ncpbench.load(5)
    # A file of no problems is one load() refuses: not written.
    with pytest.raises(ncpbench.Error, match="problems: empty"):
        ncpbench.write_dataset(tmp_path / "none.h5", [])
    assert not (tmp_path / "none.h5").exists()


def test_arrays_of_the_other_form_are_refused():
    import ncpbench
    with pytest.raises(ncpbench.Error, match="b, J and e belong to the global form"):
        ncpbench.Problem(W=np.eye(3), q=np.zeros(3), b=np.zeros(3), types=[0], mu=[.5])
