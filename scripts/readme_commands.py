#!/usr/bin/python3
"""Runs every command of README.md's command block, in order, in a fresh clone of the repository.

    /usr/bin/python3 scripts/readme_commands.py --source REPO --build BUILD [--keep] [--list]

The clone gets `build` as a link to BUILD (what `make bench` leaves there), so the block's
`export PATH=$PWD/build:$PATH` finds `ncpbench`. Budgets are shrunk so that the whole block runs
in minutes (-n ≤ 2, --cases 1, --iters ≤ 30, --steps ≤ 48, two --values, `reproduce` capped at 5
iterations, mpirun on 2 ranks); everything else runs as written. Each command must exit 0 and
leave the files it names (-o, --out, --record, --report, --csv, --out-dir, convert's output,
reproduce's Markdown). A command that needs MPI is skipped, and says so, when the binary was built
without it or mpirun is missing. Exit status: 0 when every command passed, 1 otherwise, 2 on bad
arguments.
"""

import argparse
import os
import re
import shlex
import shutil
import subprocess
import sys
import tempfile
import time


def fail(message):
    print(f"readme_commands.py: {message}", file=sys.stderr)
    sys.exit(2)


def command_block(readme):
    """The indented block under '## Command line', continuation lines joined, comments cut."""
    lines = open(readme, encoding="utf-8").read().split("\n")
    try:
        start = lines.index("## Command line")
    except ValueError:
        fail(f"{readme}: no '## Command line' section")
    commands, pending, seen_block = [], "", False
    for line in lines[start + 1:]:
        if line.startswith("    "):
            seen_block = True
            text = line.strip()
            pending = (pending + " " + text).strip() if pending else text
            if pending.endswith("\\"):
                pending = pending[:-1].rstrip()
                continue
            # A comment starts at ' # ' outside quotes (no command of the block quotes a '#').
            cut = re.split(r"\s+#\s", " " + pending + " ", maxsplit=1)[0].strip()
            if cut:
                commands.append(cut)
            pending = ""
        elif seen_block and line.strip():
            break
    if not commands:
        fail(f"{readme}: the command block is empty")
    return commands


def shrink(command):
    """Small budgets, so that the block runs in minutes; the rest of the command as written."""
    c = re.sub(r"(\s-n )(\d+)", lambda m: m.group(1) + str(min(int(m.group(2)), 2)), command)
    c = re.sub(r"(\s--cases )(\d+)", r"\g<1>1", c)
    c = re.sub(r"(\s--iters )(\d+)", lambda m: m.group(1) + str(min(int(m.group(2)), 30)), c)
    c = re.sub(r"(\s--steps )(\d+)", lambda m: m.group(1) + str(min(int(m.group(2)), 48)), c)
    c = re.sub(r"(\s--values )([\w.]+),([\w.]+)(,[\w.,]+)?", r"\1\2,\3", c)
    words = c.split()
    if len(words) >= 3 and words[0] == "ncpbench" and words[1] == "reproduce" \
            and not words[2].startswith("-"):
        if "--cases" not in words:
            c += " --cases 1"
        c += " --max-iters 5"
    if words[0] == "mpirun":
        c = re.sub(r"^mpirun -np \d+", "mpirun --oversubscribe -np 2", c)
    return c


def outputs(command):
    """Files and folders the command says it writes."""
    words = shlex.split(command)
    out = []
    for flag in ("-o", "--out", "--output", "--record", "--report", "--csv", "--out-dir"):
        for i, w in enumerate(words[:-1]):
            if w == flag:
                out.append(words[i + 1])
    if len(words) > 1 and words[0] == "ncpbench":
        positional = [w for w in words[2:] if not w.startswith("-")]
        if words[1] == "convert" and len(positional) >= 2:
            out.append(positional[1])
        if words[1] == "reproduce" and positional and positional[0] != "all" \
                and "-o" not in words and "--list" not in words:
            out.append(f"results/reproduce/{positional[0]}.md")
        if words[1] == "sweep" and "-o" not in words and positional:
            out.append(f"results/sweeps/{positional[0]}.h5")
    return out


def has_mpi(env):
    version = subprocess.run(["ncpbench", "--version"], env=env, capture_output=True, text=True)
    return "MPI yes" in version.stdout and shutil.which("mpirun", path=env["PATH"]) is not None


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--source", required=True, help="the repository (a git checkout)")
    ap.add_argument("--build", required=True, help="build folder with ncpbench")
    ap.add_argument("--keep", action="store_true", help="keep the clone and print its path")
    ap.add_argument("--list", action="store_true", help="print the shrunk commands and stop")
    a = ap.parse_args()
    build = os.path.abspath(a.build)
    if not os.path.isfile(os.path.join(build, "ncpbench")):
        fail(f"{build}/ncpbench: no such file (build it first)")
    commands = command_block(os.path.join(a.source, "README.md"))
    if a.list:
        for c in commands:
            print(shrink(c))
        return 0
    clone = tempfile.mkdtemp(prefix="ncpbench_readme_")
    try:
        subprocess.run(["git", "clone", "-q", a.source, clone], check=True)
        os.symlink(build, os.path.join(clone, "build"))
        env = dict(os.environ)
        env.update({"OMPI_ALLOW_RUN_AS_ROOT": "1", "OMPI_ALLOW_RUN_AS_ROOT_CONFIRM": "1",
                    "OMP_NUM_THREADS": env.get("OMP_NUM_THREADS", "1")})
        failed = 0
        for original in commands:
            if original.startswith("export "):
                name, value = original[len("export "):].split("=", 1)
                env[name] = subprocess.run(["bash", "-c", f"echo {value}"], cwd=clone, env=env,
                                           capture_output=True, text=True).stdout.strip()
                print(f"set   {original}")
                continue
            command = shrink(original)
            if command.startswith("mpirun") and not has_mpi(env):
                print(f"skip  (built without MPI or no mpirun) {command}")
                continue
            start = time.monotonic()
            done = subprocess.run(["bash", "-c", command], cwd=clone, env=env,
                                  capture_output=True, text=True)
            took = time.monotonic() - start
            missing = [p for p in outputs(command)
                       if not os.path.exists(os.path.join(clone, p))
                       or os.path.getsize(os.path.join(clone, p)) == 0]
            if done.returncode != 0 or missing:
                failed += 1
                why = f"exit {done.returncode}" + (f", missing {missing}" if missing else "")
                print(f"FAIL  {took:6.1f} s  {command}\n      {why}")
                tail = (done.stdout + done.stderr).strip().split("\n")[-6:]
                print("\n".join("      | " + t for t in tail))
            else:
                print(f"ok    {took:6.1f} s  {command}")
        print(f"{len(commands) - failed}/{len(commands)} README commands passed"
              + (f" (clone kept: {clone})" if a.keep else ""))
        return 1 if failed else 0
    finally:
        if not a.keep:
            shutil.rmtree(clone, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
