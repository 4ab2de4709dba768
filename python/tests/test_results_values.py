"""Results files whose values no run can have written (forged or damaged): every consumer's
reader refuses them in one line naming the column, the row and the rule, where they were printed
as results (a zero time as a 10^15 speed ratio, a negative residual as solved, a job twice)."""
import shutil

import h5py
import numpy as np
import pytest

from conftest import FCLIB, run_cli


@pytest.fixture(scope="module")
def results(cli, tmp_path_factory):
    out = tmp_path_factory.mktemp("values") / "r.h5"
    rc, _, err = run_cli(cli, "run", FCLIB, "-s", "pgs,apgd", "--iters", 20, "--trace", 5, "-q",
                         "-o", out)
    assert rc == 0, err
    return out


def setter(column, value, row=0):
    def change(f):
        a = f[column][()]
        a[row] = value
        f[column][...] = a
    return change


def retyped(column, dtype):
    def change(f):
        a = f[column][()].astype(dtype) + (0.7 if np.dtype(dtype).kind == "f" else 0)
        del f[column]
        f.create_dataset(column, data=a)
    return change


def shortened(f, column):
    a, dtype = f[column][()][:1], f[column].dtype
    del f[column]
    f.create_dataset(column, data=a, dtype=dtype)


CASES = {
    "negative time": (setter("runs/total_time_s", -5.0), "/runs/total_time_s[0] = -5: must be"),
    "nan time": (setter("runs/solve_time_s", np.nan), "/runs/solve_time_s[0] = nan"),
    "zero time": (setter("runs/total_time_s", 0.0), "= 0 after 20 iterations: must be > 0"),
    "negative residual": (setter("runs/final_res004", -1e-3), "/runs/final_res004[0] = -0.001"),
    "negative iterations": (setter("runs/iterations", -7), "/runs/iterations[0] = -7: must be"),
    "float iterations": (retyped("runs/iterations", "f8"), "holds floating-point numbers"),
    "repeat beyond int": (setter("runs/repeat", 2**33), "= 8589934592: must be in"),
    "one job twice": (lambda f: setter("runs/job_key", f["runs/job_key"][0], 1)(f),
                      "/runs/job_key[1] = "),
    "not utf-8": (lambda f: setter("runs/problem", b"\xff\xfe")(f), "/runs/problem[0]: not UTF-8"),
    "short job keys": (lambda f: shortened(f, "runs/job_key"),
                       "/runs/job_key 1: the columns must be equally long"),
    "trace time back": (lambda f: setter("traces/0/time_s", -1.0, 1)(f),
                        "/traces/0: point 1"),
    # A float version read as its integer part (1.9 as 1); an array was read into one int.
    "float schema version": (lambda f: f.attrs.__setitem__("schema_version", 1.9),
                             "schema_version: must be one integer"),
    "array schema version": (lambda f: f.attrs.__setitem__("schema_version",
                                                           np.ones(64, dtype=np.int32)),
                             "schema_version: must be one integer"),
    "zero schema version": (lambda f: f.attrs.__setitem__("schema_version", np.int32(0)),
                            "schema_version 0: must be >= 1"),
    # A string array was read into a buffer for one (heap overflow); a number was dropped.
    "array attribute": (lambda f: f.attrs.__setitem__("cpu", np.array([b"x" * 16] * 64, dtype="S16")),
                        "root attribute cpu: holds 64 strings: must be one string"),
    "vlen array attribute": (lambda f: f.attrs.create("cpu", ["AMD"] * 3, dtype=h5py.string_dtype()),
                             "root attribute cpu: holds 3 strings: must be one string"),
    "number attribute": (lambda f: f.attrs.__setitem__("threads", 4),
                         "root attribute threads: must be a string"),
    "non-utf-8 attribute": (lambda f: f.attrs.__setitem__("cpu", np.bytes_(b"AMD \xff\xfe")),
                            "root attribute cpu: not UTF-8 text"),
    # Columns or traces linked from elsewhere were read in place of the file's own.
    "external link": (lambda f: (f.__delitem__("runs/final_res004"),
                                 f.__setitem__("runs/final_res004",
                                               h5py.ExternalLink("other.h5", "/runs/final_res004"))),
                      "/runs/final_res004: an external link to 'other.h5:/runs/final_res004'"),
    "soft link": (lambda f: (f.__delitem__("runs/final_res004"),
                             f.__setitem__("runs/final_res004", h5py.SoftLink("/runs/final_natmap"))),
                  "/runs/final_res004: a soft link to '/runs/final_natmap'"),
    "empty job key": (setter("runs/job_key", b""), "/runs/job_key[0] is empty"),
    "negative size": (setter("runs/num_dofs", -5), "/runs/num_dofs[0] = -5: must be >= 0"),
    "negative descriptor": (setter("runs/mu_min", -3.0), "/runs/mu_min[0] = -3: must be >= 0"),
    "negative trace residual": (lambda f: setter("traces/0/res004", -1.0, 1)(f),
                                "/traces/0/res004[1] = -1: must be >= 0"),
}


@pytest.mark.parametrize("case", sorted(CASES))
def test_values_no_run_writes_are_refused(cli, results, tmp_path, case):
    change, needle = CASES[case]
    path = tmp_path / "v.h5"
    shutil.copy(results, path)
    with h5py.File(path, "r+") as f:
        if "repeat" in case:
            a = f["runs/repeat"][()].astype(np.int64)
            del f["runs/repeat"]
            f.create_dataset("runs/repeat", data=a)
        change(f)
    for command in (["report", path, "-o", tmp_path / "r.md"], ["export", path, "--csv", tmp_path / "r.csv"],
                    ["compare", results, path]):
        rc, _, err = run_cli(cli, *command)
        assert rc == 2, f"{case}: {command[0]}: exit {rc}\n{err}"
        assert needle in err and len(err.strip().splitlines()) == 1, f"{case}: {err}"
    assert not (tmp_path / "r.md").exists() and not (tmp_path / "r.csv").exists()


def test_profile_from_a_file_without_traces_is_refused(cli, tmp_path):
    # The time to each tolerance comes from the traces: without them every solver scored 0 solved.
    out = tmp_path / "plain.h5"
    assert run_cli(cli, "run", FCLIB, "-s", "pgs", "--iters", 20, "-q", "-o", out)[0] == 0
    rc, _, err = run_cli(cli, "profile", "--from", out, "--report", tmp_path / "p.md")
    assert rc == 2 and "has no trace: the profiles need the time to each tolerance" in err, err
    assert not (tmp_path / "p.md").exists()


def test_compare_refuses_a_folder_with_one_job_in_two_files(cli, results, tmp_path):
    # Resolved by the files' names, the verdict followed whichever name sorted last.
    folder = tmp_path / "new"
    folder.mkdir()
    shutil.copy(results, folder / "1.h5")
    shutil.copy(results, folder / "2.h5")
    rc, _, err = run_cli(cli, "compare", results, folder)
    assert rc == 2 and "both hold job" in err and len(err.strip().splitlines()) == 1, err


def test_a_copy_that_cannot_be_written_names_the_input(cli, results, tmp_path):
    # Under a file-size limit the reader's private copy fails: the line named only the copy.
    import resource
    import subprocess

    def limit():
        resource.setrlimit(resource.RLIMIT_FSIZE, (8192, 8192))
    p = subprocess.run([cli, "report", str(results), "-o", str(tmp_path / "r.md")],
                       capture_output=True, text=True, preexec_fn=limit)
    assert p.returncode == 2, p.stderr
    assert p.stderr.startswith(f"ncpbench: error: {results}: read, but its rows cannot be written "
                               "again ("), p.stderr


def test_unreadable_peaks_are_said_so_in_the_report(cli, results, tmp_path):
    # Forged peak attributes read as "records no measured peaks", which the file contradicts.
    path = tmp_path / "p.h5"
    shutil.copy(results, path)
    with h5py.File(path, "r+") as f:
        for key in ("peak_bandwidth_gbs_1thread", "peak_bandwidth_gbs", "peak_gflops_1thread",
                    "peak_gflops"):
            f.attrs[key] = "10"
        f.attrs["peak_threads"] = "1e300"
    rc, _, err = run_cli(cli, "report", path, "-o", tmp_path / "r.md")
    assert rc == 0, err
    text = (tmp_path / "r.md").read_text()
    assert "measured peaks are unreadable" in text and "peak_threads = '1e300'" in text, text


def test_a_file_held_open_for_writing_is_named_as_such(cli, results, tmp_path):
    # It was called corrupt, which a user may take as a reason to delete a good file.
    path = tmp_path / "held.h5"
    shutil.copy(results, path)
    with h5py.File(path, "r+"):
        rc, _, err = run_cli(cli, "report", path, "-o", tmp_path / "r.md")
    assert rc == 2 and "another program holds it open for writing" in err, err
