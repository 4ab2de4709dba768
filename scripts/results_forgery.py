"""Edits of ncpbench results files and parts as a forger would make them, shared by the misuse
campaign (scripts/misuse_campaign.py) and the tests of forged parts (python/tests)."""


def part_name(job_key):
    """A part's file name without .h5: the 64-bit FNV-1a hash of its job key, in hex, as
    ResultsStore::Add names it (harness/results_store.cc)."""
    h = 0xcbf29ce484222325
    for c in job_key:
        h = ((h ^ c) * 0x100000001b3) & (2**64 - 1)
    return "%016x" % h


def replaced(column, change):
    """An edit of an open h5py file: `column` read, changed in place by change(array), written
    back as a new dataset."""
    def edit(f):
        a = f[column][()]
        change(a)
        del f[column]
        f[column] = a
    return edit


def write_part(results, part, row, edit):
    """Writes row `row` of the results file `results` (an open h5py.File) as a one-row part at
    `part` (with its trace), then applies edit(part file)."""
    import h5py
    with h5py.File(part, "w") as g:
        for k, v in results.attrs.items():
            g.attrs[k] = v
        for k in results["runs"]:
            g["runs/" + k] = results["runs"][k][row:row + 1]
        results.copy(results[f"traces/{row}"], g.create_group("traces"), name="0")
        edit(g)
