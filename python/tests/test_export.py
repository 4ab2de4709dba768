"""`ncpbench export --csv`: one CSV row per job with exactly the /runs columns of the results file,
every value equal to the HDF5 one (numbers to the last bit, NaN as "nan"), quoting per RFC 4180."""
import csv
import math
import subprocess

import h5py
import numpy as np

from conftest import FCLIB, run_cli


def test_export_has_every_runs_column_and_value(cli, manufactured, tmp_path):
    res = tmp_path / "r.h5"
    code, _, err = run_cli(cli, "run", manufactured, FCLIB, "-s", "pgs,apgd", "--iters", "20",
                           "--trace", "5", "-q", "-o", res)
    assert code == 0, err
    out = tmp_path / "sub" / "r.csv"
    code, text, err = run_cli(cli, "export", res, "--csv", out)
    assert code == 0, err
    assert "6 rows" in text, text
    with open(out, newline="", encoding="utf-8") as f:
        table = list(csv.DictReader(f))
    with h5py.File(res, "r") as f:
        runs = {k: f["runs"][k][()] for k in f["runs"]}
    assert set(table[0].keys()) == set(runs.keys())
    assert len(table) == len(runs["job_key"])
    for i, row in enumerate(table):
        for name, column in runs.items():
            v = column[i]
            if column.dtype.kind in "SO":
                assert row[name] == (v.decode() if isinstance(v, bytes) else v), name
            elif column.dtype.kind == "f":
                got = float(row[name])
                assert (math.isnan(v) and math.isnan(got)) or \
                    np.float64(got).tobytes() == np.float64(v).tobytes(), (name, row[name], v)
            else:
                assert int(row[name]) == int(v), name


def test_export_refuses_its_input_as_output(cli, manufactured, tmp_path):
    res = tmp_path / "r.h5"
    assert run_cli(cli, "run", manufactured, "-s", "pgs", "--iters", "5", "-q", "-o", res)[0] == 0
    before = res.read_bytes()
    code, _, err = run_cli(cli, "export", res, "--csv", res)
    assert code != 0 and "--csv" in err, err
    assert res.read_bytes() == before


def test_export_dash_is_standard_output(cli, manufactured, tmp_path):
    res = tmp_path / "r.h5"
    assert run_cli(cli, "run", manufactured, "-s", "pgs", "--iters", "5", "-q", "-o", res)[0] == 0
    assert run_cli(cli, "export", res, "--csv", tmp_path / "r.csv")[0] == 0
    p = subprocess.run([cli, "export", str(res), "--csv", "-"], capture_output=True, text=True,
                       cwd=tmp_path)
    assert p.returncode == 0, p.stderr
    assert p.stdout == (tmp_path / "r.csv").read_text(encoding="utf-8")  # the table alone
    assert not (tmp_path / "-").exists()
