"""The README reads in two minutes and every document it or docs/ links to exists: at most 130
lines, no table cell over 300 characters, no relative link to a missing file."""
import glob
import os
import re

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
