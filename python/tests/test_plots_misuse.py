"""The plot scripts and read_results on damaged or forged results files: one line and exit 2
(a ValueError for read_results), never a traceback, a crash of the interpreter, an allocation of
what a forged header declares, or a figure written over its own input."""
import os
import shutil
import subprocess
import sys

import h5py
import numpy as np
import pytest

from conftest import SOURCE_DIR, FCLIB, run_cli

PLOTS = os.path.join(SOURCE_DIR, "plots")


@pytest.fixture(scope="module")
def results(cli, tmp_path_factory):
    d = tmp_path_factory.mktemp("plots")
    out = d / "r.h5"
    rc, _, err = run_cli(cli, "run", FCLIB, "-s", "pgs,apgd", "--iters", 20, "--trace", 5, "-q",
                         "-o", out)
    assert rc == 0, err
    return out


def variant(results, tmp_path, name, change):
    path = tmp_path / name
    shutil.copy(results, path)
    if change:
        with h5py.File(path, "r+") as f:
            change(f)
    return str(path)


def forged_status(f):  # 8 strings of 2 GB each, declared in a file of kilobytes
    n = f["runs/status"].shape[0]
    del f["runs/status"]
    f["runs"].create_dataset("status", shape=(n,), dtype="S2147483647", chunks=(1,))


def damaged(path):
    data = bytearray(open(path, "rb").read())
    rng = np.random.default_rng(7)
    for at in rng.integers(512, len(data) - 64, 40):
        data[at:at + 16] = rng.integers(0, 256, 16, dtype=np.uint8).tobytes()
    open(path, "wb").write(bytes(data))
    return path


@pytest.mark.parametrize("script", ["convergence.py", "scalability.py", "roofline.py"])
def test_plots_refuse_damaged_files_in_one_line(results, tmp_path, script):
    cases = {
        "forged": variant(results, tmp_path, "forged.h5", forged_status),
        "no format": variant(results, tmp_path, "noformat.h5", lambda f: f.attrs.__delitem__("format")),
        "no column": variant(results, tmp_path, "nosolver.h5", lambda f: f["runs"].__delitem__("solver")),
        "damaged": damaged(variant(results, tmp_path, "damaged.h5", None)),
    }
    for what, path in cases.items():
        p = subprocess.run([sys.executable, os.path.join(PLOTS, script), path, "-o",
                            str(tmp_path / "x.png")], capture_output=True, text=True)
        assert p.returncode == 2, f"{what}: exit {p.returncode}\n{p.stderr}"
        assert "Traceback" not in p.stderr and len(p.stderr.strip().splitlines()) == 1, p.stderr
    assert "bytes, more than 64 x" in subprocess.run(
        [sys.executable, os.path.join(PLOTS, script), cases["forged"], "-o",
         str(tmp_path / "x.png")], capture_output=True, text=True).stderr


def test_a_figure_is_not_written_over_its_input(results, tmp_path):
    path = variant(results, tmp_path, "self.h5", None)
    before = open(path, "rb").read()
    p = subprocess.run([sys.executable, os.path.join(PLOTS, "convergence.py"), path, "-o", path],
                       capture_output=True, text=True)
    assert p.returncode == 2 and "is an input of this command" in p.stderr, p.stderr
    assert open(path, "rb").read() == before


def test_read_results_names_what_is_wrong(results, tmp_path):
    import ncpbench
    assert len(ncpbench.read_results(str(results))) > 0
    with pytest.raises(ValueError, match="declares .* bytes, more than 64 x"):
        ncpbench.read_results(variant(results, tmp_path, "forged.h5", forged_status))

    def short(f):
        a = f["runs/iterations"][()]
        del f["runs/iterations"]
        f["runs"].create_dataset("iterations", data=a[:-1])
    with pytest.raises(ValueError, match="unequal lengths"):
        ncpbench.read_results(variant(results, tmp_path, "short.h5", short))
    with pytest.raises(ValueError, match="not an ncpbench results file"):
        ncpbench.read_results(variant(results, tmp_path, "nf.h5", lambda f: f.attrs.__delitem__("format")))


def plot(script, *args, cwd=None):
    return subprocess.run([sys.executable, os.path.join(PLOTS, script), *map(str, args)],
                          capture_output=True, text=True, cwd=cwd, timeout=60)


def test_no_input_is_replaced_by_a_figure_its_temporary_file_or_its_sidecar(results, tmp_path):
    # engines.py recorded no input; the temporary name (OUT.tmp.png) and the sidecar
    # (OUT.json) were not checked: each replaced an input, exit 0.
    csv = tmp_path / "e.csv"
    csv.write_text("dataset,solver,own_ms,own_res004\nd,pgs,1.5,1e-6\n")
    p = plot("engines.py", csv, "-o", csv)
    assert p.returncode == 2 and "is an input of this command" in p.stderr, p.stderr
    assert csv.read_text().startswith("dataset,")
    tmp_named = variant(results, tmp_path, "fig.tmp.png", None)
    before = open(tmp_named, "rb").read()
    p = plot("convergence.py", tmp_named, "-o", tmp_path / "fig")
    assert p.returncode == 0, p.stderr
    assert open(tmp_named, "rb").read() == before
    umask = os.umask(0)
    os.umask(umask)
    assert os.stat(tmp_path / "fig").st_mode & 0o777 == 0o666 & ~umask  # not mkstemp's 0600
    sidecar_named = variant(results, tmp_path, "x.png.json", None)
    p = plot("convergence.py", sidecar_named, "-o", tmp_path / "x.png", "--sidecar")
    assert p.returncode == 2 and "is an input of this command" in p.stderr, p.stderr
    assert not (tmp_path / "x.png").exists()  # checked before the figure was written


def test_a_folder_or_fifo_is_refused_and_nothing_is_left(results, tmp_path):
    folder = tmp_path / "adir"
    folder.mkdir()
    p = plot("convergence.py", results, "-o", folder)
    assert p.returncode == 2 and "is not a regular file" in p.stderr, p.stderr
    assert sorted(os.listdir(tmp_path)) == ["adir"]  # no adir.tmp.png beside it
    fifo = tmp_path / "f.csv"
    os.mkfifo(fifo)
    for script in ("size_panels.py", "trace_panels.py", "engines.py"):
        p = plot(script, fifo, "-o", tmp_path / "x.png")  # open() blocked until the timeout
        assert p.returncode == 2 and "not a regular file" in p.stderr, (script, p.stderr)


def test_two_datasets_drawn_to_one_name_are_refused(cli, tmp_path):
    d = tmp_path / "c"
    d.mkdir()
    for name, seed in (("a b.h5", 1), ("a_b.h5", 2)):
        assert run_cli(cli, "generate", "random", "-n", 2, "--seed", seed, "-p",
                       "contacts=6,bodies=8", "-q", "-o", d / name)[0] == 0
    out = d / "r.h5"
    assert run_cli(cli, "run", d / "a b.h5", d / "a_b.h5", "-s", "pgs", "--iters", 10,
                   "--trace", 5, "-q", "-o", out)[0] == 0
    p = plot("convergence.py", out, "-o", d / "c.png")
    assert p.returncode == 2 and "would both be drawn to" in p.stderr, p.stderr


def test_sizes_that_cannot_be_on_log_axes_are_refused(tmp_path):
    csv = tmp_path / "z.csv"
    csv.write_text("solver,particles,dofs,time_ms,residual\ncanal,10,100,1,1e-6\n"
                   "canal,20,0,2,1e-6\ncanal,40,400,4,1e-6\n")
    p = plot("size_panels.py", csv, "-o", tmp_path / "x.png")
    assert p.returncode == 2 and "row 2: dofs = 0: must be a finite number > 0" in p.stderr, p.stderr
    assert "Traceback" not in p.stderr


def test_profiles_without_any_time_to_average_say_n_a(cli, tmp_path):
    # Every run failed at once and no budget is known: the means were about 0 (2e-16 ms).
    data, results = tmp_path / "d.h5", tmp_path / "r.h5"
    assert run_cli(cli, "generate", "random", "-n", 4, "-q", "-o", data)[0] == 0
    assert run_cli(cli, "run", data, "-s", "pgs,apgd", "--iters", 50, "--trace", 5, "-q",
                   "-o", results)[0] == 0
    failed = variant(results, tmp_path, "failed.h5", lambda f: (
        f["runs"].__delitem__("status"),
        f["runs"].create_dataset("status", data=np.array([b"failed"] * len(f["runs/job_key"])))))
    rc, _, err = run_cli(cli, "profile", "--from", failed, "--csv", tmp_path / "p.csv",
                         "--report", tmp_path / "p.md")
    assert rc == 0, err
    md = (tmp_path / "p.md").read_text()
    assert "| *virtual best* |" in md and "e-16" not in md and "| n/a |" in md, md
    p = plot("profiles.py", tmp_path / "p.csv", "-o", tmp_path / "p.png")
    assert p.returncode == 0 and "shifted geometric mean n/a ms" in p.stdout, p.stderr
    p = plot("profiles.py", tmp_path / "p.csv", "-o", tmp_path / "p.png", "--shift-ms", -1)
    assert p.returncode == 2 and "--shift-ms = -1.0: must be" in p.stderr, p.stderr


def test_profile_from_refuses_what_it_would_ignore(cli, results, tmp_path):
    for args, needle in ((["-s", "pgs"], "--solvers would be ignored"),
                         (["-o", tmp_path / "o.h5"], "--out would be ignored"),
                         (["--csv", ""], "--csv = '': must name a file")):
        rc, _, err = run_cli(cli, "profile", "--from", results, *args)
        assert rc == 2 and needle in err and len(err.strip().splitlines()) == 1, err


@pytest.mark.parametrize("column", ["runs/solver", "traces/0/time_s"])
def test_columns_of_unequal_length_are_refused(results, tmp_path, column):
    # A short solver column dropped rows; a longer trace column shifted every time by a point.
    def change(f):
        a = f[column][()]
        a = a[:-1] if column.startswith("runs") else np.r_[1e-9, a]
        del f[column]
        f[column] = a
    path = variant(results, tmp_path, "len.h5", change)
    for script in ("convergence.py", "roofline.py"):
        p = plot(script, path, "-o", tmp_path / "x.png")
        assert p.returncode == 2 and "the columns must be equally long" in p.stderr, (script, p.stderr)


def test_profile_from_runs_stopped_at_a_looser_tolerance_is_refused(cli, manufactured, tmp_path):
    # Their traces end at 1e-4: every solver read "0 solved" at 1e-6, a verdict with no data.
    out = tmp_path / "p.h5"
    rc, _, err = run_cli(cli, "profile", manufactured, "-s", "pgs,apgd", "--tol", "1e-4",
                         "--iters", 200, "-q", "-o", out, "--report", tmp_path / "p.md")
    assert rc == 0, err
    rc, _, err = run_cli(cli, "profile", "--from", out, "--tol", "1e-6")
    assert rc == 2 and "stopped at --tol 0.0001 on res004" in err, err
    assert run_cli(cli, "profile", "--from", out, "--tol", "1e-3", "--report",
                   tmp_path / "q.md")[0] == 0
