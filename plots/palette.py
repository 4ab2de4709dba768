"""One colour per solver, the same in every figure.

A known solver name has a fixed colour; any other name gets one of FALLBACK chosen by a CRC-32 of
the name, so it does not depend on which solvers a figure shows or in which order. A label is
reduced to its solver name first (base_name): "pgs (pgs.omega=1.2)", "pgs [omega=1.2]" and
"pgs (diverged 2/8)" are all pgs. Variants of one solver share its colour and differ in line
style (styles).
"""

import zlib

KNOWN = {
    # ours
    "pgs": "#1f77b4",
    "pj": "#17becf",
    "apgd": "#2ca02c",
    "admm-full": "#ff7f0e",
    "subadmm": "#d62728",
    "subadmm-nobody": "#9467bd",
    "subadmm-rigid-cpu": "#e377c2",
    "subadmm-gpu": "#8c564b",
    "canal": "#000000",
    "al-trdogleg": "#7f7f7f",
    "al-dampedsn": "#bcbd22",
    "nnewton": "#393b79",
    "local-newton": "#637939",
    "cond": "#843c39",
    # Siconos Numerics
    "siconos:nsgs": "#6baed6",
    "siconos:prox": "#fdae6b",
    "siconos:nsn-ac": "#74c476",
    "siconos:nsn-fb": "#fb6a4a",
    "siconos:vi-eg": "#9e9ac8",
    "siconos:admm": "#c49c94",
    "siconos:g-nsgs-wr": "#3182bd",
    "siconos:g-prox-wr": "#e6550d",
    "siconos:g-nsn-ac": "#31a354",
    "siconos:g-admm": "#a55194",
}

# For names not in KNOWN; none of these is a KNOWN colour.
FALLBACK = ["#5254a3", "#8ca252", "#bd9e39", "#ad494a", "#7b4173", "#17a589", "#b9770e",
            "#6c3483", "#2e86c1", "#a93226", "#196f3d", "#d4ac0d"]

# Line styles of the variants of one solver, in sorted label order (the bare name first).
LINESTYLES = ["-", "--", ":", "-.", (0, (5, 1, 1, 1, 1, 1)), (0, (8, 2)), (0, (1, 3)),
              (0, (3, 1, 1, 1))]


def base_name(label):
    """The solver name of a legend or CSV label: its first word, before any ' (' or ' ['."""
    name = str(label).strip()
    for sep in (" (", " [", " "):
        name = name.split(sep, 1)[0]
    return name


def color(label):
    """Fixed colour of the label's solver."""
    name = base_name(label)
    if name in KNOWN:
        return KNOWN[name]
    return FALLBACK[zlib.crc32(name.encode()) % len(FALLBACK)]


def styles(labels):
    """{label: (colour, line style)}: the solver's colour; variants of one solver get distinct
    line styles, the bare solver name (or else the first label in sorted order) solid."""
    by_base = {}
    for label in labels:
        by_base.setdefault(base_name(label), []).append(label)
    out = {}
    for base, group in by_base.items():
        group = sorted(set(group), key=lambda s: (s != base, s))
        for k, label in enumerate(group):
            out[label] = (color(label), LINESTYLES[k % len(LINESTYLES)])
    return out
