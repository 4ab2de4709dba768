#!/usr/bin/python3
"""Writes one code block of a Markdown document to a file, so that a test can compile it.

    /usr/bin/python3 scripts/doc_snippet.py DOC --starts TEXT -o OUT [--after LINE] [--rstrip CHARS]

The block is the indented (4 or more spaces) run of lines whose first line, stripped, starts with
TEXT; it is written dedented. --after drops the lines up to and including the first one that
reads LINE (stripped), e.g. the '...' between a declaration and a list entry; --rstrip drops
trailing CHARS of the last line (the ',' that ends an entry of a list). OUT is replaced
atomically. Exit status: 0 when written, 1 when DOC has no such block (the documentation
changed: the test that compiles it must change with it).
"""

import argparse
import os
import sys
import tempfile


def blocks(lines):
    """Indented code blocks as lists of dedented lines (blank lines inside a block kept)."""
    out, current = [], []
    for line in lines + [""]:
        if line.startswith("    ") or (current and not line.strip()):
            current.append(line)
            continue
        while current and not current[-1].strip():
            current.pop()
        if current:
            indent = min(len(x) - len(x.lstrip()) for x in current if x.strip())
            out.append([x[indent:] for x in current])
        current = []
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("doc")
    ap.add_argument("--starts", required=True, help="text the block's first line starts with")
    ap.add_argument("-o", "--out", required=True)
    ap.add_argument("--after", help="keep only the lines after the first one reading this")
    ap.add_argument("--rstrip", default="", help="characters to drop from the end of the block")
    a = ap.parse_args()
    lines = open(a.doc, encoding="utf-8").read().split("\n")
    found = [b for b in blocks(lines) if b[0].strip().startswith(a.starts)]
    if len(found) != 1:
        print(f"doc_snippet.py: {a.doc}: {len(found)} code blocks start with '{a.starts}' "
              "(expected exactly 1)", file=sys.stderr)
        return 1
    block = found[0]
    if a.after is not None:
        marks = [i for i, x in enumerate(block) if x.strip() == a.after]
        if not marks:
            print(f"doc_snippet.py: {a.doc}: the block '{a.starts}' has no line '{a.after}'",
                  file=sys.stderr)
            return 1
        block = block[marks[0] + 1:]
    text = "\n".join(block).rstrip()
    text = text.rstrip(a.rstrip) if a.rstrip else text
    folder = os.path.dirname(os.path.abspath(a.out))
    os.makedirs(folder, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=folder, prefix=".doc_snippet.")
    with os.fdopen(fd, "w", encoding="utf-8") as f:
        f.write(f"// Generated from {os.path.basename(a.doc)} by scripts/doc_snippet.py.\n"
                if not a.out.endswith(".csv") else "")
        f.write(text + "\n")
    os.replace(tmp, a.out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
