"""plots/palette.py: every known solver colour distinct from every other by CIE76 ΔE ≥ 12, and the
main job's ten solvers (scripts/bench.sh) pairwise ΔE ≥ 12 also as seen with deuteranopia and
protanopia (Machado, Oliveira & Fernandes 2009, severity 1), so no figure pairs two solvers a
reader cannot tell apart."""
import itertools
import math
import os
import sys

from conftest import SOURCE_DIR

sys.path.insert(0, os.path.join(SOURCE_DIR, "plots"))
import palette  # noqa: E402

MAIN = ["pgs", "pj", "apgd", "admm-full", "subadmm", "subadmm-nobody", "canal", "nnewton",
        "local-newton", "cond"]
DEUTERANOPIA = [[0.367322, 0.860646, -0.227968], [0.280085, 0.672501, 0.047413],
                [-0.011820, 0.042940, 0.968881]]
PROTANOPIA = [[0.152286, 1.052583, -0.204868], [0.114503, 0.786281, 0.099216],
              [-0.003882, -0.048116, 1.051998]]


def linear_rgb(hex_colour):
    def channel(c):
        c /= 255
        return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4
    return [channel(int(hex_colour[i:i + 2], 16)) for i in (1, 3, 5)]


def lab(rgb):
    x = 0.4124 * rgb[0] + 0.3576 * rgb[1] + 0.1805 * rgb[2]
    y = 0.2126 * rgb[0] + 0.7152 * rgb[1] + 0.0722 * rgb[2]
    z = 0.0193 * rgb[0] + 0.1192 * rgb[1] + 0.9505 * rgb[2]

    def f(t):
        return t ** (1 / 3) if t > 0.008856 else 7.787 * t + 16 / 116
    fx, fy, fz = f(x / 0.9505), f(y), f(z / 1.089)
    return (116 * fy - 16, 500 * (fx - fy), 200 * (fy - fz))


def seen(hex_colour, matrix=None):
    rgb = linear_rgb(hex_colour)
    if matrix:
        rgb = [min(1.0, max(0.0, sum(m * c for m, c in zip(row, rgb)))) for row in matrix]
    return lab(rgb)


def closest(names, matrix=None):
    pairs = itertools.combinations(names, 2)
    return min((math.dist(seen(palette.color(a), matrix), seen(palette.color(b), matrix)), a, b)
               for a, b in pairs)


def test_every_known_colour_stands_apart():
    assert len(set(palette.KNOWN.values())) == len(palette.KNOWN)
    d, a, b = closest(list(palette.KNOWN))
    assert d >= 12, f"{a} and {b}: ΔE {d:.1f}"


def test_main_job_colours_stand_apart_for_colour_blind_readers():
    assert all(name in palette.KNOWN for name in MAIN)
    for matrix in (None, DEUTERANOPIA, PROTANOPIA):
        d, a, b = closest(MAIN, matrix)
        assert d >= 12, f"{a} and {b}: ΔE {d:.1f}"


def test_the_fallback_colours_are_none_of_the_known_ones():
    assert not set(palette.FALLBACK) & {c.lower() for c in palette.KNOWN.values()}
    assert not {c.lower() for c in palette.FALLBACK} & {c.lower() for c in palette.KNOWN.values()}
