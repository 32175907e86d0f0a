#!/usr/bin/env python3
"""Writes a staircase as one triangle mesh (Wavefront OBJ), as level art kits model stairs:
the nosing of every step cut by a 45 degree chamfer or rounded by a quarter circle.

    scripts/mesh-stairs.py OUT.obj COUNT RISE RUN NOSING KIND

COUNT steps of RISE x RUN m along -Z from z = -1, 4 m wide along X, a 3 m landing at the top;
NOSING (m) is the chamfer's size (KIND `chamfer`) or the rounding's radius (KIND `round`, in 4
facets); 0 keeps square nosings. The profile is extruded along X; the faces face up and
toward +Z (the way the stairs are walked onto). The scenarios' meshes (scenarios/meshes/) were
written with it (see their first line).
"""
import math
import sys


def profile(count, rise, run, nosing, kind, facets=4, start=-1.0, landing=3.0):
    """The stairs' outline in the (z, y) plane, from the floor in front to the landing's end."""
    points = [(start + 0.5, 0.0), (start, 0.0)]
    y, z = 0.0, start
    for i in range(count):
        if nosing > 0 and kind == "chamfer":
            points += [(z, y + rise - nosing), (z - nosing, y + rise)]
        elif nosing > 0 and kind == "round":
            cz, cy = z - nosing, y + rise - nosing
            for k in range(facets + 1):
                a = math.pi / 2 * k / facets
                points.append((cz + nosing * math.cos(a), cy + nosing * math.sin(a)))
        else:
            points.append((z, y + rise))
        y += rise
        depth = run if i < count - 1 else landing
        points.append((z - depth, y))
        z -= depth
    return points


def write(path, points, width, header):
    """The outline extruded along X, two triangles a segment."""
    with open(path, "w") as out:
        out.write(f"# {header}\n")
        for z, y in points:
            out.write(f"v {-width / 2:.5f} {y:.5f} {z:.5f}\nv {width / 2:.5f} {y:.5f} {z:.5f}\n")
        for i in range(len(points) - 1):
            a, b, c, d = 2 * i + 1, 2 * i + 2, 2 * i + 3, 2 * i + 4
            out.write(f"f {a} {d} {c}\nf {a} {b} {d}\n")


def main():
    if len(sys.argv) != 7 or sys.argv[6] not in ("chamfer", "round"):
        sys.exit(__doc__)
    path, count, rise, run, nosing, kind = sys.argv[1:]
    count, rise, run, nosing = int(count), float(rise), float(run), float(nosing)
    header = f"scripts/mesh-stairs.py {' '.join(sys.argv[1:])}"
    write(path, profile(count, rise, run, nosing, kind), 4.0, header)


if __name__ == "__main__":
    main()
