//! The convex radius Godot and Jolt give a convex solid with a margin, and the inner shape it
//! rounds. Facts relied on, read in Godot's repository (`modules/jolt_physics/`, Godot 4.4+;
//! two revisions of the shape files read, same rule) and in Jolt (upstream and the copy in
//! Godot's `thirdparty/jolt_physics/`, same code where it matters here):
//!
//! - `shapes/jolt_box_shape_3d.cpp` (`_build`): a `BoxShape3D` asks for the convex radius
//!   `min(margin, smallest half extent x collision_margin_fraction)`, in f32.
//! - `shapes/jolt_convex_polygon_shape_3d.cpp` (`_build`): a `ConvexPolygonShape3D` asks for
//!   `min(margin, half the shortest side of the bounds of its vertices x fraction)` (bounds
//!   along the axes the vertices are given in).
//! - `jolt_project_settings.cpp`: `physics/jolt_physics_3d/collisions/collision_margin_fraction`
//!   defaults to 0.08.
//! - Jolt `BoxShape.cpp`: the radius may not exceed the smallest half extent (upstream refuses
//!   the shape, Godot's copy clamps; the fraction keeps it far below); the inner box is the box
//!   shrunk by the radius on every axis, so the faces stay where they were.
//! - Jolt `ConvexHullShape.cpp` (constructor): the radius asked for is lowered to half the
//!   hull's thinnest width (over its face planes, the deepest vertex behind the plane), then
//!   for every vertex to `0.05 / (|offset| - 1)` (`mMaxErrorConvexRadius` = 0.05 m in
//!   `ConvexHullShape.h`), where `offset` is how far the vertex moves per metre of radius when
//!   its planes are moved in (radius 0 when those planes have no single intersection). Each
//!   vertex keeps at most 3 of its faces: the 3 whose normals span the largest volume if it
//!   exceeds 0.05, else the 2 furthest apart if more than 1 degree apart (the third plane then
//!   passes through the vertex, perpendicular to both), else the first.
//! - Jolt `ConvexHullShape.cpp` (`GetSupportFunction`, `ExcludeConvexRadius`): the inner hull
//!   is the hull of every vertex moved to where its kept planes, moved in by the radius, meet
//!   (one plane: moved along its normal; no intersection: along the first plane's normal).
//!   For a vertex where exactly 3 faces meet (boxes, wedges, the course's steps), that is the
//!   hull with every face moved in by the radius, so the rounded hull keeps its face planes.
//! - Jolt `ConvexShape.cpp` (`CollideConvexVsConvex`): GJK runs on the inner shapes plus their
//!   radii; only when that cannot separate them (the inner shapes overlap) does EPA run, on
//!   the whole shapes (`IncludeConvexRadius`: the sharp box, the hull's own vertices).
//!
//! Not imitated: Jolt builds its hull with a tolerance of 1 mm (`mHullTolerance`) that may
//! merge faces parry keeps apart, and picks among more than 3 faces of a vertex in its own face
//! order (a tie may go another way). Both matter only for hulls unlike the course's.

use glam::{DMat3, DVec3};
use parry3d_f64::shape::{ConvexPolyhedron, Cuboid, Cylinder, SharedShape};

use crate::geometry::GeometryError;

/// Godot's default for `physics/jolt_physics_3d/collisions/collision_margin_fraction`: a convex
/// solid's convex radius is at most this share of its smallest half extent.
pub const COLLISION_MARGIN_FRACTION: f32 = 0.08;

/// Jolt's `ConvexHullShapeSettings::mMaxErrorConvexRadius`: how far (m) the rounded hull may
/// cut into a sharp corner of the hull.
const MAX_ERROR_CONVEX_RADIUS: f64 = 0.05;

/// How much smaller (m) than Jolt's the radius of a hull is when Jolt's inner hull is flat (the
/// radius is half the hull's width), so that the inner hull keeps a volume parry can query.
const FLAT_CORE_SHRINK: f32 = 1e-6;

/// An inner hull thinner than this (m) counts as flat.
const FLAT_CORE_WIDTH: f64 = 1e-7;

/// Jolt keeps 3 faces of a vertex when their normals span more than this volume.
const MIN_VOLUME_OF_3_NORMALS: f64 = 0.05;

/// The inner shape of a rounded solid and its convex radius (m).
pub(crate) struct Rounding {
    /// The inner shape, in the solid's frame.
    pub(crate) core: SharedShape,
    /// Convex radius, m, as Jolt would use it (an f32 value).
    pub(crate) radius: f32,
}

/// Checks a margin (m): finite and at least 0.
pub(crate) fn validate(margin: f32) -> Result<f32, GeometryError> {
    if margin.is_finite() && margin >= 0.0 {
        Ok(margin)
    } else {
        Err(GeometryError::Margin {
            what: "a shape margin must be a finite number of m, at least 0",
            value: margin,
        })
    }
}

/// The convex radius Godot asks Jolt for: `min(margin, fraction x smallest half extent)`, in
/// f32 as Godot computes it.
fn asked(margin: f32, smallest_half_extent: f32) -> f32 {
    let limit = smallest_half_extent * COLLISION_MARGIN_FRACTION;
    if margin < limit { margin } else { limit }
}

/// An upright cylinder of `half_height` and `radius` (m) with `margin` (m), as Godot's Jolt
/// builds a `CylinderShape3D`: its size kept, its rims rounded by the convex radius; `None`
/// when that radius is 0.
pub(crate) fn rounded_cylinder(half_height: f64, radius: f64, margin: f32) -> Option<Rounding> {
    let smallest = half_height.min(radius);
    let convex = asked(margin, smallest as f32);
    if convex <= 0.0 || f64::from(convex) >= smallest {
        return None;
    }
    let r = f64::from(convex);
    Some(Rounding {
        core: SharedShape::new(Cylinder::new(half_height - r, radius - r)),
        radius: convex,
    })
}

/// A box of `half_extents` (m) with `margin` (m); `None` when its radius is 0.
pub(crate) fn rounded_box(half_extents: DVec3, margin: f32) -> Option<Rounding> {
    let half = half_extents.as_vec3();
    let radius = asked(margin, half.min_element());
    // Jolt refuses (upstream) or clamps (Godot's copy) a radius of the smallest half extent or
    // more; the fraction keeps it far below.
    if radius <= 0.0 || f64::from(radius) >= half_extents.min_element() {
        return None;
    }
    let inner = half_extents - DVec3::splat(f64::from(radius));
    Some(Rounding {
        core: SharedShape::new(Cuboid::new(inner)),
        radius,
    })
}

/// A face plane `normal . x = offset` of the hull, outward unit normal.
#[derive(Clone, Copy)]
struct Plane {
    normal: DVec3,
    offset: f64,
}

/// The planes Jolt moves a vertex along: 1 to 3 face indices.
struct Kept {
    faces: [usize; 3],
    count: usize,
}

/// A convex hull with `margin` (m); `None` when its radius is 0 (as Jolt may decide for a
/// thin or sharp hull), an error when the inner hull is flat.
pub(crate) fn rounded_hull(
    hull: &ConvexPolyhedron,
    margin: f32,
) -> Result<Option<Rounding>, GeometryError> {
    let points = hull.points();
    let (low, high) = points
        .iter()
        .fold((DVec3::INFINITY, DVec3::NEG_INFINITY), |(low, high), p| {
            (low.min(*p), high.max(*p))
        });
    let shortest = (high - low).min_element() as f32;
    let mut radius = f64::from(asked(margin, shortest * 0.5));
    if radius <= 0.0 {
        return Ok(None);
    }

    let adjacent = hull.vertices_adj_to_face();
    let mut planes = Vec::with_capacity(hull.faces().len());
    let mut faces_of_vertex = vec![Vec::new(); points.len()];
    for (index, face) in hull.faces().iter().enumerate() {
        let first = face.first_vertex_or_edge as usize;
        let vertices = &adjacent[first..first + face.num_vertices_or_edges as usize];
        let normal = face.normal.normalize();
        let offset = vertices
            .iter()
            .map(|&v| normal.dot(points[v as usize]))
            .sum::<f64>()
            / vertices.len() as f64;
        planes.push(Plane { normal, offset });
        for &v in vertices {
            faces_of_vertex[v as usize].push(index);
        }
    }
    let kept: Vec<Kept> = faces_of_vertex
        .iter()
        .map(|faces| keep_faces(faces, &planes))
        .collect();

    // Half the thinnest width.
    let thinnest = planes
        .iter()
        .map(|plane| {
            points
                .iter()
                .map(|p| plane.offset - plane.normal.dot(*p))
                .fold(0.0, f64::max)
        })
        .fold(f64::INFINITY, f64::min);
    radius = radius.min(0.5 * thinnest);

    // Sharp corners: the rounded hull may cut at most MAX_ERROR_CONVEX_RADIUS into one.
    if radius > 0.0 {
        for kept in &kept {
            if kept.count == 1 {
                continue;
            }
            let (rows, mask) = kept_rows(kept, &planes);
            let matrix = DMat3::from_cols(rows[0], rows[1], rows[2]).transpose();
            let det = matrix.determinant();
            if det == 0.0 {
                radius = 0.0;
                break;
            }
            let offset = (matrix.inverse() * mask).length();
            if offset > 1.0 {
                radius = radius.min(MAX_ERROR_CONVEX_RADIUS / (offset - 1.0));
            }
        }
    }
    // The radius Jolt stores is an f32: use exactly that value.
    let radius = radius as f32;
    if radius <= 0.0 || !radius.is_finite() {
        return Ok(None);
    }
    let core = |radius: f32| {
        let inner: Vec<DVec3> = kept
            .iter()
            .zip(points)
            .map(|(kept, &point)| moved_in(kept, &planes, point, f64::from(radius)))
            .collect();
        let core = with_the_faces_of(hull, &inner)
            .or_else(|| ConvexPolyhedron::from_convex_hull(&inner))?;
        (width(&core) > FLAT_CORE_WIDTH).then(|| SharedShape::new(core))
    };
    if let Some(core) = core(radius) {
        return Ok(Some(Rounding { core, radius }));
    }
    // The radius is half the hull's width (a thin tilted hull): Jolt's inner hull is flat,
    // which parry cannot query. A radius FLAT_CORE_SHRINK smaller leaves it that thick.
    let thinner = radius - FLAT_CORE_SHRINK;
    match core(thinner) {
        Some(core) if thinner > 0.0 => Ok(Some(Rounding {
            core,
            radius: thinner,
        })),
        _ => Err(GeometryError::Margin {
            what: "the hull is too thin for its convex radius (its inner hull is flat)",
            value: margin,
        }),
    }
}

/// The polyhedron with the faces of `hull` and its vertices moved to `inner`, when that is
/// still convex with every face facing the same way (the usual case: every face moved in by
/// the radius). Parry's hull builder would flatten a hull a few micrometres thin.
fn with_the_faces_of(hull: &ConvexPolyhedron, inner: &[DVec3]) -> Option<ConvexPolyhedron> {
    let (points, triangles) = hull.to_trimesh();
    for triangle in &triangles {
        let [a, b, c] = triangle.map(|i| inner[i as usize]);
        let [pa, pb, pc] = triangle.map(|i| points[i as usize]);
        let normal = (b - a).cross(c - a).try_normalize()?;
        if normal.dot((pb - pa).cross(pc - pa)) <= 0.0
            || inner.iter().any(|p| normal.dot(*p - a) > CONVEX_TOLERANCE)
        {
            return None;
        }
    }
    ConvexPolyhedron::from_convex_mesh(inner.to_vec(), &triangles)
}

/// How far (m) a vertex may stick out of a face's plane in a polyhedron that counts as convex.
const CONVEX_TOLERANCE: f64 = 1e-9;

/// The least width (m) of a convex polyhedron across its faces.
fn width(hull: &ConvexPolyhedron) -> f64 {
    hull.faces()
        .iter()
        .map(|face| {
            let (low, high) = hull
                .points()
                .iter()
                .map(|p| face.normal.dot(*p))
                .fold((f64::INFINITY, f64::NEG_INFINITY), |(low, high), d| {
                    (low.min(d), high.max(d))
                });
            high - low
        })
        .fold(f64::INFINITY, f64::min)
}

/// The faces Jolt keeps for a vertex (indices into `planes`, in face order).
fn keep_faces(faces: &[usize], planes: &[Plane]) -> Kept {
    let mut best3 = None;
    let mut biggest_volume = MIN_VOLUME_OF_3_NORMALS;
    let mut best2 = None;
    let mut smallest_dot = 1f64.to_radians().cos();
    for (i, &a) in faces.iter().enumerate() {
        for (j, &b) in faces.iter().enumerate().skip(i + 1) {
            let cross = planes[a].normal.cross(planes[b].normal);
            let dot = planes[a].normal.dot(planes[b].normal);
            if dot < smallest_dot {
                smallest_dot = dot;
                best2 = Some([a, b]);
            }
            for &c in &faces[j + 1..] {
                let volume = cross.dot(planes[c].normal).abs();
                if volume > biggest_volume {
                    biggest_volume = volume;
                    best3 = Some([a, b, c]);
                }
            }
        }
    }
    match (best3, best2) {
        (Some(faces), _) => Kept { faces, count: 3 },
        (None, Some([a, b])) => Kept {
            faces: [a, b, 0],
            count: 2,
        },
        (None, None) => Kept {
            faces: [faces.first().copied().unwrap_or(0), 0, 0],
            count: 1,
        },
    }
}

/// The normals of the 3 planes that place a vertex kept with 2 or 3 faces, and which of them
/// move in with the radius (with 2 faces the third plane passes through the vertex).
fn kept_rows(kept: &Kept, planes: &[Plane]) -> ([DVec3; 3], DVec3) {
    let n1 = planes[kept.faces[0]].normal;
    let n2 = planes[kept.faces[1]].normal;
    if kept.count == 3 {
        ([n1, n2, planes[kept.faces[2]].normal], DVec3::ONE)
    } else {
        ([n1, n2, n1.cross(n2)], DVec3::new(1.0, 1.0, 0.0))
    }
}

/// Where Jolt moves `point` when its kept planes move in by `radius` (m).
fn moved_in(kept: &Kept, planes: &[Plane], point: DVec3, radius: f64) -> DVec3 {
    let first = planes[kept.faces[0]];
    if kept.count == 1 {
        return point - first.normal * radius;
    }
    let (rows, _) = kept_rows(kept, planes);
    let offsets = DVec3::new(
        first.offset - radius,
        planes[kept.faces[1]].offset - radius,
        if kept.count == 3 {
            planes[kept.faces[2]].offset - radius
        } else {
            rows[2].dot(point)
        },
    );
    let matrix = DMat3::from_cols(rows[0], rows[1], rows[2]).transpose();
    if matrix.determinant() == 0.0 {
        return point - first.normal * radius;
    }
    matrix.inverse() * offsets
}

#[cfg(test)]
mod tests {
    use super::*;

    fn hull(points: &[DVec3]) -> ConvexPolyhedron {
        ConvexPolyhedron::from_convex_hull(points).expect("a hull")
    }

    #[test]
    fn a_box_takes_the_margin_up_to_the_fraction() {
        let radius = |half: DVec3, margin| rounded_box(half, margin).map(|r| r.radius);
        assert_eq!(radius(DVec3::new(1.0, 0.5, 2.0), 0.04), Some(0.04));
        // 0.08 x 0.15 = 0.012 < 0.04.
        assert_eq!(radius(DVec3::new(1.0, 0.15, 2.0), 0.04), Some(0.15 * 0.08));
        assert!(rounded_box(DVec3::ONE, 0.0).is_none());
    }

    #[test]
    fn a_cube_hull_is_shrunk_like_a_box() {
        let corners: Vec<DVec3> = (0..8)
            .map(|i| {
                DVec3::new(
                    if i & 1 == 0 { -1.0 } else { 1.0 },
                    if i & 2 == 0 { -0.5 } else { 0.5 },
                    if i & 4 == 0 { -2.0 } else { 2.0 },
                )
            })
            .collect();
        let rounding = rounded_hull(&hull(&corners), 0.03).unwrap().unwrap();
        assert_eq!(rounding.radius, 0.03);
        let core = rounding.core.as_convex_polyhedron().unwrap();
        // Jolt keeps the radius as an f32: the faces move in by exactly that value.
        let r = f64::from(0.03f32);
        for p in core.points() {
            let expected = DVec3::new(1.0 - r, 0.5 - r, 2.0 - r);
            assert!((p.abs() - expected).abs().max_element() < 1e-12, "{p}");
        }
    }

    #[test]
    fn a_sharp_wedge_gets_a_smaller_radius() {
        // A 30 degree ramp, 2 m along the slope, 1 m wide: its tip edge is 30 degrees sharp.
        let (c, s) = (30f64.to_radians().cos(), 30f64.to_radians().sin());
        let wedge = [
            DVec3::new(0.0, 0.0, -0.5),
            DVec3::new(0.0, 0.0, 0.5),
            DVec3::new(2.0 * c, 0.0, -0.5),
            DVec3::new(2.0 * c, 0.0, 0.5),
            DVec3::new(2.0 * c, 2.0 * s, -0.5),
            DVec3::new(2.0 * c, 2.0 * s, 0.5),
        ];
        let rounding = rounded_hull(&hull(&wedge), 0.04).unwrap().unwrap();
        // At the tip the planes bottom, slope and side meet; moved in by r the tip moves by
        // r x sqrt(cot(15 deg)^2 + 2), and Jolt allows 0.05 m of error: r = 0.05 / (that - 1).
        let cot = 1.0 / 15f64.to_radians().tan();
        let expected = 0.05 / ((cot * cot + 2.0).sqrt() - 1.0);
        assert!(
            (f64::from(rounding.radius) - expected).abs() < 1e-6,
            "{} vs {expected}",
            rounding.radius
        );
    }

    #[test]
    fn a_thin_tilted_plank_keeps_a_core() {
        // 2 cm thick, 1 m long, tilted 45 degrees: its bounds allow 0.08 x 0.36 m, more than
        // half its width, so Jolt's radius is 1 cm and its inner hull flat.
        let (c, s) = (45f64.to_radians().cos(), 45f64.to_radians().sin());
        let along = DVec3::new(c, s, 0.0);
        let across = DVec3::new(-s, c, 0.0) * 0.02;
        let mut plank = Vec::new();
        for (a, b, z) in [
            (0.0, 0.0, 0.0),
            (1.0, 0.0, 0.0),
            (0.0, 1.0, 0.0),
            (1.0, 1.0, 0.0),
        ] {
            for width in [0.0, 0.5] {
                plank.push(along * a + across * b + DVec3::Z * (z + width));
            }
        }
        let rounding = rounded_hull(&hull(&plank), 0.04).unwrap().unwrap();
        let expected = 0.01 - f64::from(FLAT_CORE_SHRINK);
        assert!(
            (f64::from(rounding.radius) - expected).abs() < 1e-8,
            "{}",
            rounding.radius
        );
        let core = rounding.core.as_convex_polyhedron().unwrap();
        let thickness = core
            .points()
            .iter()
            .map(|p| p.dot(across.normalize()))
            .fold(f64::NEG_INFINITY, f64::max)
            - core
                .points()
                .iter()
                .map(|p| p.dot(across.normalize()))
                .fold(f64::INFINITY, f64::min);
        assert!((thickness - 2e-6).abs() < 1e-8, "{thickness}");
    }

    #[test]
    fn bad_margins_are_refused() {
        assert!(validate(-0.01).is_err());
        assert!(validate(f32::NAN).is_err());
        assert!(validate(f32::INFINITY).is_err());
        assert_eq!(validate(0.0), Ok(0.0));
    }
}
