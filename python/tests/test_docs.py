"""The README reads in two minutes and every document it or docs/ links to exists: at most 130
lines, no table cell over 300 characters, no relative link to a missing file."""
import glob
import os
import re
import subprocess

import pytest

from conftest import SOURCE_DIR

LINK = re.compile(r"\]\(([^)#\s]+)(#[^)]*)?\)")


def test_readme_is_short_and_its_tables_narrow():
    lines = open(os.path.join(SOURCE_DIR, "README.md"), encoding="utf-8").read().splitlines()
    assert len(lines) <= 130, len(lines)
    for n, line in enumerate(lines, 1):
        if line.startswith("|"):
            for cell in line.strip("|").split("|"):
                assert len(cell.strip()) <= 300, f"README.md:{n}: a cell of {len(cell)} characters"


def test_every_relative_link_of_readme_and_docs_exists():
    files = [os.path.join(SOURCE_DIR, "README.md"), os.path.join(SOURCE_DIR, "DESIGN.md")]
    files += glob.glob(os.path.join(SOURCE_DIR, "docs", "*.md"))
    checked = 0
    for f in files:
        text = open(f, encoding="utf-8").read()
        for m in LINK.finditer(text):
            target = m.group(1)
            if "://" in target or target.startswith("mailto:"):
                continue
            checked += 1
            path = os.path.normpath(os.path.join(os.path.dirname(f), target))
            assert os.path.exists(path), f"{os.path.relpath(f, SOURCE_DIR)} links to missing {target}"
    assert checked >= 10


# Names as `ncpbench list` prints them: two spaces, the name, then its description.
LISTED = re.compile(r"^  (\S+)\s", re.M)
# Names as the docs' tables give them: the first cell, in backquotes.
ROW = re.compile(r"^\| `([^`]+)` \|", re.M)


def documented(page):
    return set(ROW.findall(open(os.path.join(SOURCE_DIR, "docs", page), encoding="utf-8").read()))


def listed(cli, what):
    p = subprocess.run([cli, "list", what], capture_output=True, text=True, check=True)
    return set(LISTED.findall(p.stdout))


# Every solver, scene and metric this build has, a row of its page; and no row for a name that
# no build has (a renamed or removed one). Optional solvers (peers, the CUDA solver) may be
# missing from this build, so the second check takes their prefixes and names as known.
OPTIONAL = re.compile(r"^(siconos|bullet|ode|dart):|^subadmm-gpu$")


@pytest.mark.parametrize("what, page", [("solvers", "solvers.md"), ("scenarios", "scenes.md"),
                                        ("metrics", "metrics.md")])
def test_every_listed_name_has_a_row_of_its_page(cli, what, page):
    names, rows = listed(cli, what), documented(page)
    assert names, f"`ncpbench list {what}` printed no names"
    assert not names - rows, f"docs/{page} lacks rows for {sorted(names - rows)}"
    stale = {r for r in rows - names if not OPTIONAL.search(r)}
    if what == "solvers":  # the other pages have further tables (files, columns)
        assert not stale, f"docs/{page} has rows for unknown names {sorted(stale)}"


def test_every_protocol_has_a_row_of_reproductions_md(cli):
    p = subprocess.run([cli, "reproduce", "--list"], capture_output=True, text=True, check=True)
    # A protocol line starts with its id; "needs ..." lines mark the ones not built yet.
    blocks = re.split(r"^(?=\S)", p.stdout, flags=re.M)
    runnable = {b.split()[0] for b in blocks if b.strip() and "\n            needs " not in b}
    rows = documented("reproductions.md")
    assert len(runnable) >= 10, runnable
    assert not runnable - rows, f"docs/reproductions.md lacks {sorted(runnable - rows)}"
    assert not rows - runnable, f"docs/reproductions.md has rows for {sorted(rows - runnable)}"
