#!/usr/bin/python3
"""Runs every command of README.md's command block and of the docs' command blocks, in order, in
a fresh clone of the repository.

    /usr/bin/python3 scripts/walkthrough.py --source REPO --build BUILD [--keep] [--list]

The clone gets `build` as a link to BUILD (what `make bench` leaves there), so the block's
`export PATH=$PWD/build:$PATH` finds `ncpbench`. Budgets are shrunk so that the whole walk runs
in minutes (-n ≤ 2, --cases 1, --iters ≤ 30, --steps ≤ 48, two --values, `reproduce` capped at 5
iterations, mpirun on 2 ranks); HOME and /tmp/ of a docs command point into the clone; everything
else runs as written. Each command must exit 0 and leave the files it names (-o, --out,
--record, --report, --csv, --out-dir, convert's output, reproduce's Markdown). A docs block is an
indented block whose first line starts with a command (build/ncpbench, cmake, cp, mpirun, ...),
not code. Skipped, each with its reason printed: a command that needs MPI when the binary was
built without it or mpirun is missing; a command whose program is not installed (GNU parallel,
Slurm's sbatch) or that needs a cluster (a host file), and the rest of its block, which uses its
output; a command that needs a guide's worked example added to the tree (ramp_cubes,
example-table1), whose code tests/docs/doc_examples_test.cc compiles and runs instead. Exit
status: 0 when every command passed or was skipped, 1 otherwise, 2 on bad arguments.
"""

import argparse
import glob
import os
import re
import shlex
import shutil
import subprocess
import sys
import tempfile
import time


def fail(message):
    print(f"walkthrough.py: {message}", file=sys.stderr)
    sys.exit(2)


def join_commands(block):
    """A block's lines as commands: continuation lines joined, comments cut."""
    commands, pending = [], ""
    for line in block:
        text = line.strip()
        if not text:
            continue
        pending = (pending + " " + text).strip() if pending else text
        if pending.endswith("\\"):
            pending = pending[:-1].rstrip()
            continue
        # A comment starts at ' # ' outside quotes (no command of the blocks quotes a '#').
        cut = re.split(r"\s+#\s", " " + pending + " ", maxsplit=1)[0].strip()
        if cut:
            commands.append(cut)
        pending = ""
    return commands


def command_block(readme):
    """The indented block under '## Command line' of README.md."""
    lines = open(readme, encoding="utf-8").read().split("\n")
    try:
        start = lines.index("## Command line")
    except ValueError:
        fail(f"{readme}: no '## Command line' section")
    block, seen_block = [], False
    for line in lines[start + 1:]:
        if line.startswith("    "):
            seen_block = True
            block.append(line)
        elif seen_block and line.strip():
            break
    commands = join_commands(block)
    if not commands:
        fail(f"{readme}: the command block is empty")
    return commands


# A docs block whose first line starts with one of these is commands; any other is code or text.
COMMAND_STARTS = ("build/ncpbench ", "ncpbench ", "cmake ", "cp ", "mpirun ", "parallel ",
                  "jid=$(sbatch", "sbatch ", "make ", "/usr/bin/python3 ")


def doc_blocks(doc):
    """The command blocks of a docs page, each a list of commands."""
    blocks, current = [], []
    for line in open(doc, encoding="utf-8").read().split("\n") + [""]:
        if line.startswith("    ") or (current and not line.strip()):
            current.append(line)
            continue
        if current and current[0].strip().startswith(COMMAND_STARTS):
            blocks.append(join_commands(current))
        current = []
    return blocks


# Names that exist only once a guide's worked example is added to the tree.
WORKED_EXAMPLES = ("ramp_cubes", "ramp.h5", "example-table1")


def skip_reason(command, env, clone):
    """Why a command cannot run on this machine ("" when it can)."""
    words = command.split()
    if any(w in command for w in WORKED_EXAMPLES):
        return "the guide's worked example is not in the tree (tests/docs/doc_examples_test.cc " \
               "compiles and runs its code)"
    if "--hostfile" in words:
        return "needs a cluster (a host file)"
    program = words[0].split("=$(")[-1]
    if shutil.which(program, path=env["PATH"]) is None \
            and not os.path.exists(os.path.join(clone, program)):
        return f"{program} is not installed"
    return ""


def shrink(command):
    """Small budgets, so that the block runs in minutes; the rest of the command as written."""
    c = re.sub(r"(\s-n )(\d+)", lambda m: m.group(1) + str(min(int(m.group(2)), 2)), command)
    c = re.sub(r"(\s--cases )(\d+)", r"\g<1>1", c)
    c = re.sub(r"(\s--iters )(\d+)", lambda m: m.group(1) + str(min(int(m.group(2)), 30)), c)
    c = re.sub(r"(\s--steps )(\d+)", lambda m: m.group(1) + str(min(int(m.group(2)), 48)), c)
    c = re.sub(r"(\s--values )([\w.]+),([\w.]+)(,[\w.,]+)?", r"\1\2,\3", c)
    words = c.split()
    if len(words) >= 3 and os.path.basename(words[0]) == "ncpbench" and words[1] == "reproduce" \
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
    if len(words) > 1 and os.path.basename(words[0]) == "ncpbench":
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


def walk(source):
    """(where, commands) in the order they run: README's block, then each docs block."""
    walks = [("README.md", command_block(os.path.join(source, "README.md")))]
    for doc in sorted(glob.glob(os.path.join(source, "docs", "*.md"))):
        for block in doc_blocks(doc):
            walks.append((os.path.relpath(doc, source), block))
    return walks


def run_command(original, where, clone, env):
    """Runs one command; returns True when it passed."""
    command = shrink(original)
    if where != "README.md":  # the guides' ~/ and /tmp/ go into the clone
        command = command.replace("/tmp/", os.path.join(clone, "tmp") + "/")
    start = time.monotonic()
    done = subprocess.run(["bash", "-c", command], cwd=clone, env=env, capture_output=True,
                          text=True)
    took = time.monotonic() - start
    missing = [p for p in outputs(command)
               if not os.path.exists(os.path.join(clone, os.path.expanduser(p)))
               or os.path.getsize(os.path.join(clone, os.path.expanduser(p))) == 0]
    if done.returncode != 0 or missing:
        why = f"exit {done.returncode}" + (f", missing {missing}" if missing else "")
        print(f"FAIL  {took:6.1f} s  {where}: {command}\n      {why}")
        tail = (done.stdout + done.stderr).strip().split("\n")[-6:]
        print("\n".join("      | " + t for t in tail))
        return False
    print(f"ok    {took:6.1f} s  {where}: {command}")
    return True


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
    walks = walk(a.source)
    if a.list:
        for where, commands in walks:
            for c in commands:
                print(f"{where}: {shrink(c)}")
        return 0
    clone = tempfile.mkdtemp(prefix="ncpbench_walk_")
    try:
        subprocess.run(["git", "clone", "-q", a.source, clone], check=True)
        os.symlink(build, os.path.join(clone, "build"))
        for d in ("home", "tmp"):
            os.makedirs(os.path.join(clone, d))
        env = dict(os.environ)
        env.update({"OMPI_ALLOW_RUN_AS_ROOT": "1", "OMPI_ALLOW_RUN_AS_ROOT_CONFIRM": "1",
                    "OMP_NUM_THREADS": env.get("OMP_NUM_THREADS", "1")})
        counts = {"passed": 0, "failed": 0, "skipped": 0}
        for where, commands in walks:
            run_env = dict(env, HOME=os.path.join(clone, "home")) if where != "README.md" else env
            skipping = ""
            for original in commands:
                if original.startswith("export "):
                    name, value = original[len("export "):].split("=", 1)
                    env[name] = subprocess.run(["bash", "-c", f"echo {value}"], cwd=clone,
                                               env=env, capture_output=True,
                                               text=True).stdout.strip()
                    print(f"set   {where}: {original}")
                    continue
                reason = skipping or skip_reason(original, run_env, clone)
                if not reason and original.startswith("mpirun") and not has_mpi(run_env):
                    reason = "built without MPI or no mpirun"
                if reason:
                    print(f"skip  ({reason}) {where}: {original}")
                    counts["skipped"] += 1
                    # The rest of a guide's block uses what the skipped command would make.
                    skipping = "follows a skipped command" if where != "README.md" else ""
                    continue
                ok = run_command(original, where, clone, run_env)
                counts["passed" if ok else "failed"] += 1
        total = sum(counts.values())
        print(f"{counts['passed']}/{total} commands of README.md and docs/ passed, "
              f"{counts['skipped']} skipped (reasons above), {counts['failed']} failed"
              + (f" (clone kept: {clone})" if a.keep else ""))
        return 1 if counts["failed"] else 0
    finally:
        if not a.keep:
            shutil.rmtree(clone, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
