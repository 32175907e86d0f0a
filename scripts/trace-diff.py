#!/usr/bin/env python3
"""Compares two folders of per-tick traces (`kcc-sim run ... --trace DIR`), file by file.

    scripts/trace-diff.py OLD_DIR NEW_DIR [--tolerance 0.0001]

A change that should not move the character is proven by this: the course run with the old and
the new binary, both with `--trace`, and every trace compared here. Positions and velocities
may differ by the tolerance (m, m/s); the floor flag, the steps (within the tolerance) and the
query count must be the same. Prints one line per file that differs (its first differing tick
and column) and a summary; exits 1 when any file differs or is missing on one side.
"""

import argparse
import csv
import sys
from pathlib import Path

# Columns compared as numbers within the tolerance, and columns that must be equal.
NUMERIC = ["x_m", "y_m", "z_m", "vx_mps", "vy_mps", "vz_mps", "stepped_m", "camera_offset_m"]
EXACT = ["tick", "on_floor", "queries", "crouch"]


def rows(path):
    with path.open(newline="") as handle:
        return list(csv.DictReader(handle))


def first_difference(old, new, tolerance):
    """The first (tick, column, old, new) that differs, or None."""
    if len(old) != len(new):
        return (min(len(old), len(new)) + 1, "ticks", len(old), len(new))
    for a, b in zip(old, new):
        for column in EXACT:
            if a.get(column) != b.get(column):
                return (a["tick"], column, a.get(column), b.get(column))
        for column in NUMERIC:
            x, y = a.get(column, ""), b.get(column, "")
            if (x == "") != (y == ""):
                return (a["tick"], column, x, y)
            if x and abs(float(x) - float(y)) > tolerance:
                return (a["tick"], column, x, y)
    return None


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("old", type=Path)
    parser.add_argument("new", type=Path)
    parser.add_argument("--tolerance", type=float, default=1e-4, help="m and m/s (0.1 mm)")
    args = parser.parse_args()
    old = {p.name for p in args.old.glob("*.csv")}
    new = {p.name for p in args.new.glob("*.csv")}
    differ = 0
    for name in sorted(old ^ new):
        print(f"{name}: only in {'old' if name in old else 'new'}")
        differ += 1
    for name in sorted(old & new):
        found = first_difference(rows(args.old / name), rows(args.new / name), args.tolerance)
        if found:
            tick, column, a, b = found
            print(f"{name}: tick {tick}, {column}: {a} -> {b}")
            differ += 1
    print(f"trace-diff: {len(old & new)} traces compared, {differ} differ "
          f"(tolerance {args.tolerance} m)")
    return 1 if differ else 0


if __name__ == "__main__":
    sys.exit(main())
