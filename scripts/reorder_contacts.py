#!/usr/bin/python3
"""Writes a copy of a global-form dataset with its constraints in another order, the problem
otherwise the same: the measurement behind docs/roofline.md's reading of why the Jacobi and
Gauss-Seidel sweeps stay below the bandwidth bound on random problems.

    PYTHONPATH=build/python /usr/bin/python3 scripts/reorder_contacts.py IN.h5 OUT.h5 \\
        --order rcm|shuffle [--seed 1]

A dual sweep reads, for each row of W = J A⁻¹ Jᵀ, λ at the rows of the constraints that share a
body with it. In a random problem those are anywhere in λ; `rcm` numbers the constraints in
reverse Cuthill-McKee order of that graph (constraints joined when they share a dof), so that
neighbours get nearby numbers; `shuffle` numbers them at random (what a random problem has). The
rows of J and e, the types, μ, stiffness and damping move together, and the reference solution's
λ with them; A, b and the velocities are unchanged, so every solver's v is the same problem's.
pj's iterates are the same up to the order of sums; pgs's sweep order changes, hence its
iterates. The structure layer (subsystems, blocks) is not carried: run the dual solvers on the
copy, not subadmm. Exit status: 0 written, 1 on a problem it cannot reorder, 2 on bad arguments.
"""

import argparse
import os
import sys

import numpy as np
import scipy.sparse as sp
from scipy.sparse.csgraph import reverse_cuthill_mckee

import ncpbench


def Incidence(J, starts, rows):
    """Constraint × dof incidence (1 where a constraint's rows touch a dof)."""
    Jc = sp.coo_matrix(J)
    owner = np.repeat(np.arange(len(starts)), rows)
    S = sp.csr_matrix((np.ones(Jc.nnz), (owner[Jc.row], Jc.col)), shape=(len(starts), J.shape[1]))
    S.data[:] = 1.0
    return S


def Order(G, how, rng):
    if how == "shuffle":
        return rng.permutation(G.shape[0])
    return np.asarray(reverse_cuthill_mckee(G, symmetric_mode=True))


def Reach(G, order):
    """Mean |i − j| over the pairs of distinct constraints that share a dof (G's off-diagonal
    entries, W's off-diagonal blocks) once constraint order[k] is numbered k: how far in λ a
    sweep reaches, in constraints."""
    G = sp.coo_matrix(G)
    number = np.empty_like(order)
    number[order] = np.arange(len(order))
    off = G.row != G.col
    if not off.any():
        return 0.0
    return float(np.mean(np.abs(number[G.row[off]] - number[G.col[off]])))


def Reorder(p, how, rng):
    if p.form != "global":
        raise ValueError(f"problem '{p.name}': form {p.form}, the copy needs the global form")
    starts = np.asarray(p.rows)
    rows = np.diff(np.append(starts, p.num_rows))
    S = Incidence(p.J, starts, rows)
    G = sp.csr_matrix(S @ S.T)  # constraints joined when they share a dof
    order = Order(G, how, rng)
    row_perm = np.concatenate([np.arange(starts[c], starts[c] + rows[c]) for c in order])
    ref = None
    if p.reference is not None:
        ref = (np.asarray(p.reference["v"]), np.asarray(p.reference["lambda"])[row_perm])
    q = ncpbench.Problem(A=p.A, b=np.asarray(p.b), J=sp.csr_matrix(p.J)[row_perm].tocsc(),
                         e=np.asarray(p.e)[row_perm], types=np.asarray(p.types)[order],
                         mu=np.asarray(p.mu)[order], stiffness=np.asarray(p.stiffness)[order],
                         damping=np.asarray(p.damping)[order], name=f"{p.name}-{how}",
                         reference=ref, scenario=p.meta["scenario"])
    return q, Reach(G, np.arange(G.shape[0])), Reach(G, order)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("input")
    ap.add_argument("output")
    ap.add_argument("--order", choices=["rcm", "shuffle"], required=True)
    ap.add_argument("--seed", type=int, default=1)
    a = ap.parse_args()
    if os.path.realpath(a.input) == os.path.realpath(a.output):
        print(f"reorder_contacts: output = {a.output}: must differ from the input", file=sys.stderr)
        return 2
    rng = np.random.default_rng(a.seed)
    try:
        out = []
        for p in ncpbench.load(a.input):
            q, before, after = Reorder(p, a.order, rng)
            print(f"{p.name}: constraints sharing a dof are {before:.0f} apart on average, "
                  f"{after:.0f} in {a.order} order")
            out.append(q)
        ncpbench.write_dataset(a.output, out)
    except (ncpbench.Error, ValueError) as err:
        print(f"reorder_contacts: {err}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
