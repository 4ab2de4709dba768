"""One colour per solver, the same in every figure.

A known solver name has a fixed colour; any other name gets one of FALLBACK chosen by a CRC-32 of
the name, so it does not depend on which solvers a figure shows or in which order. A label is
reduced to its solver name first (base_name): "pgs (pgs.omega=1.2)", "pgs [omega=1.2]" and
"pgs (diverged 2/8)" are all pgs. Variants of one solver share its colour and differ in line
style (styles).
"""

import zlib

# Colour-blind safe for the main job's ten solvers (Okabe & Ito's palette, with Paul Tol's indigo,
# wine and olive): pairwise ΔE ≥ 12 under deuteranopia and protanopia (python/tests/test_palette.py).
# The others differ from every known colour by ΔE ≥ 12 with normal vision.
KNOWN = {
    # ours: the main job's ten
    "pgs": "#0072b2",
    "pj": "#e69f00",
    "apgd": "#009e73",
    "admm-full": "#d55e00",
    "subadmm": "#cc79a7",
    "subadmm-nobody": "#882255",
    "canal": "#000000",
    "nnewton": "#999933",
    "local-newton": "#56b4e9",
    "cond": "#332288",
    # ours: the others
    "subadmm-rigid-cpu": "#44aa99",
    "subadmm-gpu": "#117733",
    "al-trdogleg": "#888888",
    "al-dampedsn": "#ddcc77",
    # Siconos Numerics
    "siconos:nsgs": "#9999dd",
    "siconos:prox": "#ee8866",
    "siconos:nsn-ac": "#bbcc33",
    "siconos:nsn-fb": "#ffaabb",
    "siconos:vi-eg": "#99ddff",
    "siconos:admm": "#aaaa00",
    "siconos:g-nsgs-wr": "#225555",
    "siconos:g-prox-wr": "#ee6677",
    "siconos:g-nsn-ac": "#663333",
    "siconos:g-admm": "#aa3377",
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
