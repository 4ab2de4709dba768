#!/usr/bin/env python3
"""Checks that a report's verdict lines say what its tables hold (`ncpbench report` Markdown).

Per dataset section: the "most problems to res004 <= 1e-6, then least median time" line names
the solver first by that rule in the section's table, with the table's figures; the runner-up
and best peer are second and first-peer by the same rule, and the margins are those of the
table's figures. In the summary: the recommended solver has the dataset table's highest share
solved to res004 <= 1e-6. Prints one line per problem found; exit 1 when any, 2 on bad input.

    check_report_lines.py REPORT.md
"""
import math
import re
import sys

SMALL_SAMPLE = 5  # harness/verdict_guard.h kSmallSample
LINE = "Most problems to res004 ≤ 1e-6 (in the trace), then least median time to it: "


def cells(line):
    return [c.strip() for c in line.strip().strip("|").split("|")]


def table(lines):
    """The first Markdown table in `lines`: a list of {column: cell} rows."""
    start = next(i for i, l in enumerate(lines) if l.startswith("| "))
    head = cells(lines[start])
    rows = []
    for l in lines[start + 2:]:
        if not l.startswith("|"):
            break
        rows.append(dict(zip(head, cells(l))))
    return head, rows


def num(text):
    return math.inf if text in ("n/a", "inf") else float(text)


def order_key(row, reached_col, time_col):
    k, _ = row[reached_col].split("/")
    return (-int(k), num(row[time_col]))


def check_dataset(name, text, problems):
    lines = text.splitlines()
    head, rows = table(lines)
    reached_col = next((c for c in head if c.startswith("reached res004")), None)
    time_col = "median time to it [ms]"
    if reached_col is None or time_col not in head:
        problems.append(f"{name}: the table has no reached / median time columns")
        return rows
    verdict = next((l for l in lines if l.startswith(LINE)), None)
    if verdict is None:
        problems.append(f"{name}: no verdict line '{LINE}...'")
        return rows
    # "n/a": the dataset's runs kept no trace (the line must then say not assessed).
    ranked = sorted((r for r in rows if not r[reached_col].startswith(("0/", "n/a"))),
                    key=lambda r: order_key(r, reached_col, time_col))
    rest = verdict[len(LINE):]
    n = int(rows[0][reached_col].split("/")[1]) if rows and rows[0][reached_col] != "n/a" else 0
    if rest.startswith("not assessed ("):
        # Allowed where the sample cannot carry a verdict, and then required (below).
        if n >= SMALL_SAMPLE and len(rows) > 1 and "--tol" not in rest and "no trace" not in rest:
            problems.append(f"{name}: {n} problems, {len(rows)} solvers, yet '{rest}'")
        return rows
    if n < SMALL_SAMPLE or len(rows) < 2:
        problems.append(f"{name}: {n} problems, {len(rows)} solvers: the line gives a verdict")
        return rows
    if not ranked:
        if not rest.startswith("none"):
            problems.append(f"{name}: no solver reached 1e-6 in the table, the line names one")
        return rows
    tie = re.match(r"a tie of \*\*(.+?)\*\* and (.+?) \((\d+/\d+), median (\S+) ms each\)", rest)
    if tie:
        for label in (tie.group(1), tie.group(2)):
            row = next((r for r in rows if r["solver"] == label), None)
            if row is None or order_key(row, reached_col, time_col) != order_key(ranked[0], reached_col, time_col):
                problems.append(f"{name}: tie names {label}, not first by the rule in the table")
        return rows
    m = re.match(r"\*\*(.+?)\*\* \((\d+/\d+), median (\S+) ms\)", rest)
    if not m:
        problems.append(f"{name}: cannot read the winner in '{rest}'")
        return rows
    winner = next((r for r in rows if r["solver"] == m.group(1)), None)
    if winner is None or order_key(winner, reached_col, time_col) != order_key(ranked[0], reached_col, time_col):
        problems.append(f"{name}: the line names {m.group(1)}, the table's first by the rule is "
                        f"{ranked[0]['solver']}")
        return rows
    if m.group(2) != winner[reached_col] or m.group(3) != winner[time_col]:
        problems.append(f"{name}: {m.group(1)}: line {m.group(2)}, {m.group(3)} ms vs table "
                        f"{winner[reached_col]}, {winner[time_col]} ms")

    def check_other(kind, expected):
        mm = re.search(kind + r" (.+?) \((\d+/\d+), median (\S+) ms\): .+? by ((\d+) more "
                       r"problems?, median )?(\S+) × (faster|slower)", rest)
        if expected is None:
            if mm:
                problems.append(f"{name}: a {kind} is named, the table has none")
            return
        if not mm:
            problems.append(f"{name}: no {kind} in the line; the table's is {expected['solver']}")
            return
        other = next((r for r in rows if r["solver"] == mm.group(1)), None)
        if other is None or order_key(other, reached_col, time_col) != order_key(expected, reached_col, time_col):
            problems.append(f"{name}: {kind} {mm.group(1)}, the table's is {expected['solver']}")
            return
        more = int(winner[reached_col].split("/")[0]) - int(other[reached_col].split("/")[0])
        if more != int(mm.group(5) or 0):
            problems.append(f"{name}: {kind}: {mm.group(5) or 0} more problems said, {more} in the table")
        ratio = num(other[time_col]) / num(winner[time_col])
        said = float(mm.group(6)) if mm.group(7) == "faster" else 1 / float(mm.group(6))
        if not math.isclose(said, ratio, rel_tol=0.02):
            problems.append(f"{name}: {kind}: ratio {said:.3g} said, {ratio:.3g} from the table")

    check_other("runner-up", ranked[1] if len(ranked) > 1 else None)
    if ":" not in winner["solver"]:
        peers = [r for r in ranked if ":" in r["solver"]]
        check_other("best peer", peers[0] if peers else None)
    return rows


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    try:
        md = open(sys.argv[1], encoding="utf-8").read()
    except OSError as e:
        print(f"check_report_lines: {sys.argv[1]}: {e.strerror}", file=sys.stderr)
        sys.exit(2)
    problems = []
    sections = md.split("\n## Dataset ")
    tables = {}
    for s in sections[1:]:
        name = s.splitlines()[0].strip()
        tables[name] = check_dataset(name, s, problems)
    if "## Summary" in md:
        _, summary = table(md.split("## Summary", 1)[1].splitlines())
        for row in summary:
            name = row["dataset"]
            rows = tables.get(name, [])
            cell = row[next(c for c in row if c.startswith("recommended"))]
            share = lambda r: float(r["res004 ≤ 1e-6"].rstrip("%"))
            # One recommended solver, or each of a tie, holds the table's best share.
            for rec in re.findall(r"\*\*(.+?)\*\*", cell) if rows else []:
                best = max(share(r) for r in rows)
                mine = next((share(r) for r in rows if r["solver"] == rec), -1)
                if mine != best:
                    problems.append(f"summary {name}: recommends {rec} at {mine}%, the "
                                    f"table's best share solved to 1e-6 is {best}%")
    for p in problems:
        print(p)
    print(f"check_report_lines: {len(tables)} datasets, {len(problems)} disagreements")
    sys.exit(1 if problems else 0)


if __name__ == "__main__":
    main()
