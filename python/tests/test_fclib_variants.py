"""fclib files as other writers make them: what libfclib reads is read (sizes stored as scalars or
1 x 1, a solution stored N x 1), what would harm the reader is refused with the field named (an
info string of rank 3, on which libfclib's reader overwrites its stack), and what is changed on
reading is said (a W stored as one triangle)."""
import os
import shutil

import h5py
import numpy as np
import pytest
import scipy.sparse as sp

from conftest import SOURCE_DIR, run_cli

SAMPLE = os.path.join(SOURCE_DIR, "datasets", "fclib", "local_problem_test.hdf5")
SIZES = ["fclib_local/W/m", "fclib_local/W/n", "fclib_local/W/nz", "fclib_local/W/nzmax",
         "fclib_local/spacedim", "guesses/number_of_guesses"]


def variant(tmp_path, name, change):
    path = tmp_path / name
    path.parent.mkdir(exist_ok=True)
    shutil.copy(SAMPLE, path)
    with h5py.File(path, "r+") as f:
        change(f)
    return str(path)


def replace(f, name, data, **kw):
    del f[name]
    f.create_dataset(name, data=data, **kw)


def info(cli, path):
    rc, out, err = run_cli(cli, "info", path)
    return rc, out.replace(path, "FILE"), err


@pytest.mark.parametrize("shape", ["scalar", "1x1"])
def test_sizes_as_scalars_read_as_libfclib_reads_them(cli, tmp_path, shape):
    def change(f):
        for name in SIZES:
            v = np.int32(f[name][0])
            replace(f, name, v if shape == "scalar" else np.array([[v]], dtype=np.int32))
    path = variant(tmp_path, "sizes/p.hdf5", change)
    rc, out, err = info(cli, path)
    assert rc == 0, err
    assert out == info(cli, variant(tmp_path, "as_shipped/p.hdf5", lambda f: None))[1]


def test_solution_stored_as_a_column_is_the_reference(cli, tmp_path):
    def change(f):  # the shipped solution is all zeros (no solution): the guess's r instead
        replace(f, "solution/r", f["guesses/1/r"][()].reshape(-1, 1))
    path = variant(tmp_path, "column.hdf5", change)
    rc, out, err = run_cli(cli, "run", path, "-s", "pgs", "--iters", 5, "-q", "-o",
                           tmp_path / "r.h5")
    assert rc == 0, err
    with h5py.File(tmp_path / "r.h5", "r") as f:
        assert f["runs/lambda_err"][0] >= 0  # the reference was read


def test_info_string_of_rank_three_is_refused(cli, tmp_path):
    path = variant(tmp_path, "title.hdf5",
                   lambda f: replace(f, "fclib_local/info/title", np.array([[[b"Boxes"]]])))
    rc, _, err = info(cli, path)
    assert rc == 2
    assert "title: a 3-D string: fclib's info strings are scalar or 1-D" in err
    assert "signal" not in err


def test_w_stored_as_one_triangle_is_mirrored_and_said(cli, tmp_path):
    def change(f):
        g = f["fclib_local/W"]
        m = int(g["m"][0])
        W = sp.csc_matrix((g["x"][()], g["i"][()], g["p"][()]), shape=(m, m))
        U = sp.triu(W).tocsc()
        for k, v in {"p": U.indptr, "i": U.indices}.items():
            replace(f, f"fclib_local/W/{k}", v.astype(np.int32))
        replace(f, "fclib_local/W/x", U.data)
        replace(f, "fclib_local/W/nzmax", np.array([U.nnz], dtype=np.int32))
    path = variant(tmp_path, "upper.hdf5", change)
    rc, _, err = run_cli(cli, "run", path, "-s", "pgs", "--iters", 5, "-q", "-o",
                         tmp_path / "r.h5")
    assert rc == 0, err
    assert "stored as one triangle only: mirrored to both" in err


def test_a_filter_this_library_lacks_is_named(cli, tmp_path):
    def change(f):
        replace(f, "fclib_local/vectors/q", f["fclib_local/vectors/q"][()], compression="lzf",
                chunks=(144,))
    path = variant(tmp_path, "lzf.hdf5", change)
    rc, _, err = info(cli, path)
    assert rc == 2
    assert "q: compressed with HDF5 filter 32000" in err, err


def test_a_file_open_for_writing_elsewhere_is_said_so(cli, tmp_path):
    path = variant(tmp_path, "held.hdf5", lambda f: None)
    env = os.environ.get("HDF5_USE_FILE_LOCKING")
    if env is not None and env.upper() == "FALSE":
        pytest.skip("HDF5_USE_FILE_LOCKING=FALSE: no lock to report")
    with h5py.File(path, "a"):
        rc, _, err = info(cli, path)
    assert rc == 2
    assert "another program holds it open for writing" in err, err
    assert info(cli, path)[0] == 0  # closed there: read as usual


def test_a_global_solution_without_v_gets_the_velocity_of_its_forces(cli, tmp_path):
    # v = A⁻¹(b + Jᵀλ) is solved after the guarded reader (whose time limit is sized by the
    # file, not by a factorization): on a 64 000-dof grid the reader refused the file.
    sample = os.path.join(SOURCE_DIR, "datasets", "fclib", "Box_Stacks-i0035-31-0.hdf5")
    path = tmp_path / "novel.hdf5"
    shutil.copy(sample, path)
    with h5py.File(path, "r+") as f:
        r = np.linspace(0.1, 1.0, f["solution/r"].shape[0])
        replace(f, "solution/r", r)
        replace(f, "solution/v", np.zeros(f["solution/v"].shape[0]))
    out = tmp_path / "novel.h5"
    rc, _, err = run_cli(cli, "convert", path, out)
    assert rc == 0, err
    with h5py.File(out, "r") as f:
        g = f["problems"][list(f["problems"])[0]]

        def csc(name):
            m = g[name]
            return sp.csc_matrix((m["values"][()], m["rowind"][()], m["colptr"][()]),
                                 shape=(m.attrs["nrows"], m.attrs["ncols"]))
        A, J, b = csc("A"), csc("J"), g["b"][()]
        v, lam = g["reference/v"][()], g["reference/lambda"][()]
        assert "reference_v_pending" not in g["params"].attrs
    assert np.abs(lam).max() > 0
    rhs = b + J.T @ lam
    assert np.linalg.norm(A @ v - rhs) <= 1e-10 * np.linalg.norm(rhs)


def test_a_file_with_both_forms_reads_the_global_one_and_says_so(cli, tmp_path):
    # libfclib writes one of /fclib_global and /fclib_local; a file with both was read as its
    # global problem without a word.
    sample = os.path.join(SOURCE_DIR, "datasets", "fclib", "Box_Stacks-i0035-31-0.hdf5")
    both = tmp_path / "both" / "p.hdf5"
    alone = tmp_path / "alone" / "p.hdf5"
    for path in (both, alone):
        path.parent.mkdir()
        shutil.copy(sample, path)
    with h5py.File(both, "r+") as f, h5py.File(SAMPLE, "r") as local:
        local.copy("fclib_local", f)
    rc, _, err = run_cli(cli, "run", both, "-s", "pgs", "--iters", 5, "-o", tmp_path / "r.h5")
    assert rc == 0, err
    assert "holds both /fclib_global and /fclib_local: the global problem is read" in err, err
    assert info(cli, str(both))[1] == info(cli, str(alone))[1]


def test_guesses_survive_a_round_trip_through_a_dataset(cli, tmp_path):
    # They were read into the dataset and left out of the fclib file written from it.
    dataset, back = tmp_path / "x.h5", tmp_path / "back.hdf5"
    assert run_cli(cli, "convert", SAMPLE, dataset)[0] == 0
    rc, out, err = run_cli(cli, "convert", dataset, back, "--to", "fclib", "--verify")
    assert rc == 0, err
    with h5py.File(SAMPLE, "r") as a, h5py.File(back, "r") as b:
        n = int(np.ravel(a["guesses/number_of_guesses"])[0])
        assert int(np.ravel(b["guesses/number_of_guesses"])[0]) == n >= 1
        for k in range(1, n + 1):  # r as stored; u is written as W r + q (the file's is not)
            assert np.array_equal(np.ravel(a[f"guesses/{k}/r"]), np.ravel(b[f"guesses/{k}/r"]))
            assert f"guesses/{k}/u" in b
    rc, out, err = run_cli(cli, "run", back, "-s", "pgs", "--warm", "guess", "--iters", 5, "-q",
                           "-o", tmp_path / "r.h5")
    assert rc == 0, err


def test_a_guess_of_u_alone_is_refused(cli, tmp_path):
    def change(f):  # u says nothing of λ or v: it was read as a zero guess
        del f["guesses/1/r"]
    path = variant(tmp_path, "u_only.hdf5", change)
    rc, out, err = info(cli, path)
    assert rc == 2
    assert "/guesses/1: holds none of r, l and v: a guess needs the reactions or the velocity" \
        in err, err
