//! Exact nearest points between a segment (the core of a capsule) and the solids it meets most,
//! in closed form instead of GJK.
//!
//! Against a box: the squared distance from a point moving along the segment to the box is a
//! sum of one convex quadratic per axis, each zero inside the slab and growing outside it.
//! Between the parameters where the point crosses a slab's faces the set of growing terms is
//! fixed, so the sum is one quadratic whose minimum has a closed form; the smallest of those
//! minima is the answer.
//!
//! Against a face of a convex polyhedron: when an end of the segment lies over the inside of a
//! face and the segment does not lean toward that face's plane, that end and its foot on the
//! face are the nearest points. Else, against a mesh's triangle, the nearest points of the
//! segment and each edge (two segments' closed form), kept when the plane through them
//! separates the two shapes ([`separates`]). Edges of hulls are left to GJK.

use glam::DVec3;
use parry3d_f64::query::closest_points::closest_points_segment_segment_with_locations_nD;
use parry3d_f64::shape::{Capsule, Segment};

/// Nearest points `(on the segment, on the box)` between the segment from `a` to `b` and the box
/// `|x| <= half` (component-wise), all in the box's frame, m. Where a whole part of the segment
/// is closest (a segment parallel to a face), the point nearest `a` is taken. When the segment
/// meets the box both points are the same point inside it.
pub(crate) fn nearest_to_box(a: DVec3, b: DVec3, half: DVec3) -> (DVec3, DVec3) {
    let along = b - a;
    // Parameters along the segment where it crosses a face's plane: at most two per axis.
    let mut cuts = [0.0; 8];
    let mut count = 1;
    for axis in 0..3 {
        if along[axis] == 0.0 {
            continue;
        }
        for face in [-half[axis], half[axis]] {
            let s = (face - a[axis]) / along[axis];
            if s > 0.0 && s < 1.0 {
                cuts[count] = s;
                count += 1;
            }
        }
    }
    cuts[count] = 1.0;
    count += 1;
    let cuts = &mut cuts[..count];
    cuts.sort_by(f64::total_cmp);

    let mut best = (f64::INFINITY, a, a.clamp(-half, half));
    for span in cuts.windows(2) {
        let (start, end) = (span[0], span[1]);
        // Which side of each slab the span lies on decides the quadratic.
        let middle = a + along * (0.5 * (start + end));
        let (mut slope, mut curvature) = (0.0, 0.0);
        for axis in 0..3 {
            let face = if middle[axis] > half[axis] {
                half[axis]
            } else if middle[axis] < -half[axis] {
                -half[axis]
            } else {
                continue;
            };
            slope += along[axis] * (a[axis] - face);
            curvature += along[axis] * along[axis];
        }
        let s = if curvature > 0.0 {
            (-slope / curvature).clamp(start, end)
        } else {
            start
        };
        let point = a + along * s;
        let on_box = point.clamp(-half, half);
        let squared = point.distance_squared(on_box);
        if squared < best.0 {
            best = (squared, point, on_box);
        }
    }
    (best.1, best.2)
}

/// Nearest points `(on the segment, on the capsule)` between the segment from `a` to `b` and
/// the capsule (another character's body: its core segment grown by its radius), all in the
/// capsule's frame, m; `None` when the segment comes within the radius of the core (it meets
/// the capsule). The nearest points of two segments have a closed form (parry's).
pub(crate) fn nearest_to_capsule(a: DVec3, b: DVec3, capsule: &Capsule) -> Option<(DVec3, DVec3)> {
    let core = &capsule.segment;
    let (on_segment, on_core) = nearest_of_segments(a, b, core.a, core.b);
    let apart = on_segment - on_core;
    let distance = apart.length();
    (distance > capsule.radius).then(|| (on_segment, on_core + apart * (capsule.radius / distance)))
}

/// Tolerance of the face tests, m: a foot this far outside another face's plane still counts
/// as on the polyhedron, and a polyhedron with a face vertex further from the face's plane is
/// left to GJK (see [`Face::of_polyhedron`]).
pub(crate) const FACE_TOLERANCE: f64 = 1e-12;

/// A face of a convex polyhedron: the plane `normal . x = offset` (outward unit normal), in
/// the polyhedron's frame.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct Face {
    /// Outward unit normal.
    pub(crate) normal: DVec3,
    /// Distance of the plane from the origin along the normal, m.
    pub(crate) offset: f64,
}

impl Face {
    /// The faces of the convex polyhedron with `points` (m), as `(normal, vertex indices)`
    /// pairs; empty when a face is not flat within [`FACE_TOLERANCE`]. Each plane passes through
    /// the outermost point along its normal, so every point is on its inner side.
    pub(crate) fn of_polyhedron<'a>(
        points: &[DVec3],
        faces: impl IntoIterator<Item = (DVec3, &'a [u32])>,
    ) -> Vec<Face> {
        let mut planes = Vec::new();
        for (normal, vertices) in faces {
            let offset = points
                .iter()
                .map(|p| normal.dot(*p))
                .fold(f64::NEG_INFINITY, f64::max);
            let flat = vertices
                .iter()
                .all(|&v| (offset - normal.dot(points[v as usize])).abs() <= FACE_TOLERANCE);
            if !flat || !offset.is_finite() {
                return Vec::new();
            }
            planes.push(Face { normal, offset });
        }
        planes
    }

    /// The triangle `a b c` (m) as the five planes that bound it: its two sides and, across
    /// each edge, the plane through the edge square to the triangle. `None` when it is too thin
    /// for a normal (a sliver, a line or a point).
    pub(crate) fn of_triangle(a: DVec3, b: DVec3, c: DVec3) -> Option<[Face; 5]> {
        let normal = (b - a).cross(c - a).try_normalize()?;
        let across = |from: DVec3, to: DVec3, opposite: DVec3| {
            let out = (to - from).cross(normal).try_normalize()?;
            let out = if out.dot(opposite - from) > 0.0 {
                -out
            } else {
                out
            };
            Some(Face {
                normal: out,
                offset: out.dot(from),
            })
        };
        Some([
            Face {
                normal,
                offset: normal.dot(a),
            },
            Face {
                normal: -normal,
                offset: -normal.dot(a),
            },
            across(a, b, c)?,
            across(b, c, a)?,
            across(c, a, b)?,
        ])
    }
}

/// How far (m) a point `foot` on the face of `faces` whose outward normal is `outward` (unit)
/// can move along that face and stay on it: its least height under the planes of the faces
/// that bound it (every face but the one and, for a flat polygon, its other side). 0 when no
/// face has that normal and passes through `foot` within [`PLANE_TOLERANCE`]: the foot is on
/// an edge or a corner, or off the faces.
///
/// Why it matters: while the nearest point of a solid to a body is the foot of the body's
/// nearest point on a face's inside, the solid is no nearer than that face's plane, so moving
/// the body by `p` changes their distance by exactly `p` along the normal, as long as `p`
/// moves the foot less than this room along the face (see `World::recover`).
pub(crate) fn room_on_face(faces: &[Face], outward: DVec3, foot: DVec3) -> f64 {
    let parallel = 1.0 - PLANE_TOLERANCE;
    let on_face = faces.iter().any(|face| {
        face.normal.dot(outward) >= parallel
            && (face.normal.dot(foot) - face.offset).abs() <= PLANE_TOLERANCE
    });
    if !on_face {
        return 0.0;
    }
    faces
        .iter()
        .filter(|face| face.normal.dot(outward).abs() < parallel)
        .map(|face| face.offset - face.normal.dot(foot))
        .fold(f64::INFINITY, f64::min)
        .max(0.0)
}

/// Tolerance of [`room_on_face`]: how far (m) a foot may be off a face's plane, and how far
/// from 1 the cosine between two normals, for the foot to count as on the face.
const PLANE_TOLERANCE: f64 = 1e-9;

/// What a face test of two convex shapes found: `Ok` with their nearest points `(on the body,
/// on the polyhedron)`, or `Err` with how far apart they are at least (m): the greatest height
/// of the body over one of the polyhedron's face planes, which separates them when positive.
/// Not positive (NaN, or minus infinity without faces) when they may meet.
pub(crate) type OnFace = Result<(DVec3, DVec3), f64>;

/// Nearest points `(on the segment, on the polyhedron)` between the segment from `a` to `b`
/// and the convex polyhedron bounded by `faces`, all in the polyhedron's frame (m), when they
/// are an end of the segment and its foot on a face; else how far apart the two are at least
/// (see [`OnFace`]: they may be nearest on an edge or a corner, or meet).
///
/// Why the answer is exact: every point of the polyhedron is inside the face's plane, so no
/// point of the segment is nearer than its height over that plane, which along the segment is
/// least at the chosen end (the segment does not lean toward the plane); and the end's foot on
/// the plane is a point of the polyhedron (inside every other face's plane).
pub(crate) fn nearest_on_face(a: DVec3, b: DVec3, faces: &[Face]) -> OnFace {
    // One pass over the faces: each end's highest face (the last of equals, as `max_by`), and
    // the highest of the faces' heights under the lower end, the least gap when none holds.
    let mut highest: [Option<(&Face, f64)>; 2] = [None, None];
    let mut gap = f64::NEG_INFINITY;
    for face in faces {
        let heights = [a, b].map(|p| face.normal.dot(p) - face.offset);
        for (best, height) in highest.iter_mut().zip(heights) {
            if best.is_none_or(|(_, most)| height.total_cmp(&most).is_ge()) {
                *best = Some((face, height));
            }
        }
        gap = gap.max(heights[0].min(heights[1]));
    }
    let [Some((face_a, height_a)), Some((face_b, height_b))] = highest else {
        return Err(f64::NEG_INFINITY);
    };
    let mut ends = [(a, b, face_a, height_a), (b, a, face_b, height_b)];
    if height_b < height_a {
        ends.swap(0, 1);
    }
    let nearest = ends.into_iter().find_map(|(end, other, face, height)| {
        if height.is_nan() || height <= 0.0 || face.normal.dot(other - end) < 0.0 {
            return None;
        }
        let foot = end - face.normal * height;
        let on_face = faces
            .iter()
            .all(|g| g.normal.dot(foot) - g.offset <= FACE_TOLERANCE);
        on_face.then_some((end, foot))
    });
    nearest.ok_or(gap)
}

/// The edges of a triangle whose corners are `[a, b, c]`, as pairs of corner indices.
pub(crate) const TRIANGLE_EDGES: [[usize; 2]; 3] = [[0, 1], [1, 2], [2, 0]];

/// Nearest points `(on the segment, on the polyhedron)` between the segment from `a` to `b` and
/// the convex polyhedron (or flat polygon, a mesh's triangle) with `corners` and `edges` (pairs
/// of corner indices), all in one frame (m), when they lie on an edge or a corner of the
/// polyhedron: the nearest points of the segment and each edge (parry's closed form), the
/// nearest pair kept when it is the pair of the two shapes. `None` when the segment may meet
/// the polyhedron or be nearest to a face's inside (the face's case, [`nearest_on_face`]).
///
/// Why the answer is exact: the pair is kept only when the plane through its points across
/// their direction has the segment on one side and the polyhedron on the other (see
/// [`separates`]); no two points of the shapes are then nearer than the pair.
pub(crate) fn nearest_to_edges(
    a: DVec3,
    b: DVec3,
    corners: &[DVec3],
    edges: &[[usize; 2]],
) -> Option<(DVec3, DVec3)> {
    let (p, q) = edges
        .iter()
        .map(|&[from, to]| nearest_of_segments(a, b, corners[from], corners[to]))
        .min_by(|x, y| {
            x.0.distance_squared(x.1)
                .total_cmp(&y.0.distance_squared(y.1))
        })?;
    separates(p, q, &[a, b], corners).then_some((p, q))
}

/// Nearest points `(on the first, on the second)` of the segments from `a` to `b` and from `c`
/// to `d` (m; parry's closed form).
pub(crate) fn nearest_of_segments(a: DVec3, b: DVec3, c: DVec3, d: DVec3) -> (DVec3, DVec3) {
    let (on_first, on_second) =
        closest_points_segment_segment_with_locations_nD((&a, &b), (&c, &d));
    (
        Segment::new(a, b).point_at(&on_first),
        Segment::new(c, d).point_at(&on_second),
    )
}

/// Tolerance of [`separates`], m: a point this far past its plane still counts as on its side.
/// Far above f64's rounding of a normal between points micrometres apart, carried over the
/// metres to a mesh triangle's far corner (about 1e-11 m), and far below
/// [`TOUCH_DISTANCE`](crate::world::TOUCH_DISTANCE), under which no closed form is trusted.
const SEPARATION_TOLERANCE: f64 = 1e-9;

/// True when the plane through `p` square to `q - p` has every point of `near` on `p`'s side
/// and the plane through `q` has every point of `far` on the other (each within
/// [`SEPARATION_TOLERANCE`]): two convex shapes spanned by those points are then no nearer than
/// `p` and `q`. False when `p` and `q` are within the tolerance of each other (the shapes may
/// meet: their points' direction says nothing).
pub(crate) fn separates(p: DVec3, q: DVec3, near: &[DVec3], far: &[DVec3]) -> bool {
    let distance = p.distance(q);
    if distance.is_nan() || distance <= SEPARATION_TOLERANCE {
        return false;
    }
    let normal = (q - p) / distance;
    near.iter()
        .all(|x| normal.dot(*x - p) <= SEPARATION_TOLERANCE)
        && far
            .iter()
            .all(|x| normal.dot(*x - q) >= -SEPARATION_TOLERANCE)
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use parry3d_f64::math::Pose;
    use parry3d_f64::query::{self, PointQuery};
    use parry3d_f64::shape::{Cuboid, Triangle};

    /// A small deterministic generator: xorshift64, values in [-1, 1).
    pub(crate) struct Numbers(pub(crate) u64);

    impl Numbers {
        pub(crate) fn next(&mut self) -> f64 {
            self.0 ^= self.0 << 13;
            self.0 ^= self.0 >> 7;
            self.0 ^= self.0 << 17;
            (self.0 >> 11) as f64 / (1u64 << 52) as f64 - 1.0
        }

        pub(crate) fn vector(&mut self, scale: f64) -> DVec3 {
            DVec3::new(self.next(), self.next(), self.next()) * scale
        }

        /// Three corners within `scale` (m) of the origin on each axis.
        pub(crate) fn triangle(&mut self, scale: f64) -> [DVec3; 3] {
            [self.vector(scale), self.vector(scale), self.vector(scale)]
        }
    }

    /// Asserts that an exact `distance` (m) agrees with GJK's (`gjk`, m) on a rounded shape (a
    /// capsule, a cylinder): GJK's is that of points of the two shapes, never less than the
    /// nearest, and stops short of it by up to micrometres (measured: 3.6 µm at 3.3 mm, a
    /// cylinder's rim against a box's edge; 4.5 µm at 0.6 m, two capsules).
    pub(crate) fn assert_within_gjks_roughness(distance: f64, gjk: f64, what: &str) {
        assert!(
            distance <= gjk + 1e-12 && gjk - distance < 1e-5 + 1e-4 * distance,
            "{what}: {distance} for GJK's {gjk}"
        );
    }

    #[test]
    fn agrees_with_gjk_on_separated_pairs() {
        let mut numbers = Numbers(0x9e37_79b9_7f4a_7c15);
        let mut checked = 0;
        for round in 0..20_000 {
            let half = numbers.vector(2.0).abs() + DVec3::splat(0.01);
            let a = numbers.vector(4.0);
            // Axis-aligned segments (a capsule next to a box) as well as any direction.
            let b = match round % 4 {
                0 => a + DVec3::Y * numbers.next().abs() * 2.0,
                1 => a,
                _ => a + numbers.vector(3.0),
            };
            let (p, q) = nearest_to_box(a, b, half);
            let distance = p.distance(q);
            let segment = Segment::new(a, b);
            let cuboid = Cuboid::new(half);
            let contact = query::contact(&Pose::IDENTITY, &segment, &Pose::IDENTITY, &cuboid, 10.0)
                .expect("supported pair")
                .expect("within 10 m");
            let exact = contact.dist;
            if exact < 1e-6 {
                assert!(distance < 1e-6, "{a} {b} {half}: {distance} for {exact}");
                continue;
            }
            checked += 1;
            assert!(
                (distance - exact).abs() < 1e-12 * (1.0 + exact),
                "{a} {b} {half}: {distance} for {exact}"
            );
            let normal = (q - p) / distance;
            assert!(
                normal.distance(contact.normal1) < 1e-9,
                "{a} {b} {half}: {normal}"
            );
            // The points lie on their shapes.
            let s = (p - a).dot(b - a) / (b - a).length_squared().max(f64::MIN_POSITIVE);
            assert!(p.distance(a + (b - a) * s.clamp(0.0, 1.0)) < 1e-12);
            assert!(q.abs().cmple(half + DVec3::splat(1e-12)).all());
        }
        assert!(checked > 10_000, "only {checked} separated pairs");
    }

    #[test]
    fn a_segment_along_a_face_is_closest_at_its_start() {
        let half = DVec3::new(1.0, 1.0, 1.0);
        let (p, q) = nearest_to_box(DVec3::new(1.5, -0.5, 0.0), DVec3::new(1.5, 0.5, 0.0), half);
        assert_eq!(p, DVec3::new(1.5, -0.5, 0.0));
        assert_eq!(q, DVec3::new(1.0, -0.5, 0.0));
    }

    #[test]
    fn a_polyhedron_with_a_bent_face_has_no_faces() {
        let points = [
            DVec3::ZERO,
            DVec3::X,
            DVec3::Y,
            DVec3::new(1.0, 1.0, 1e-9),
            DVec3::Z,
        ];
        let flat: [u32; 3] = [0, 1, 2];
        let bent: [u32; 4] = [0, 1, 3, 2];
        let faces = Face::of_polyhedron(&points, [(DVec3::NEG_Z, &flat[..])]);
        assert_eq!(
            faces,
            [Face {
                normal: DVec3::NEG_Z,
                offset: 0.0
            }]
        );
        assert!(Face::of_polyhedron(&points, [(DVec3::NEG_Z, &bent[..])]).is_empty());
    }

    #[test]
    fn an_end_over_a_face_is_nearest_and_an_edge_is_left_to_gjk() {
        // The unit cube as six faces.
        let faces: Vec<Face> = [DVec3::X, DVec3::Y, DVec3::Z]
            .into_iter()
            .flat_map(|axis| [axis, -axis])
            .map(|normal| Face {
                normal,
                offset: 0.5,
            })
            .collect();
        let nearest = nearest_on_face(DVec3::new(0.1, 1.0, 0.2), DVec3::new(0.3, 2.0, 0.0), &faces);
        let over_the_top = (DVec3::new(0.1, 1.0, 0.2), DVec3::new(0.1, 0.5, 0.2));
        assert_eq!(nearest, Ok(over_the_top));
        // Leaning toward the face: the nearest point may be inside the segment; the top's
        // plane has the whole segment 0.4 m above it.
        let leaning = nearest_on_face(DVec3::new(0.1, 1.0, 0.2), DVec3::new(3.0, 0.9, 0.0), &faces);
        assert!((leaning.unwrap_err() - 0.4).abs() < 1e-12);
        // Over an edge (0.5 m from the top's and the side's planes, 0.707 m from the edge).
        let over_edge =
            nearest_on_face(DVec3::new(1.0, 1.0, 0.0), DVec3::new(1.0, 2.0, 0.0), &faces);
        assert!((over_edge.unwrap_err() - 0.5).abs() < 1e-12);
        // Through the cube: nothing is known apart.
        let through = nearest_on_face(
            DVec3::new(0.0, -1.0, 0.0),
            DVec3::new(0.0, 1.0, 0.0),
            &faces,
        );
        assert!(through.unwrap_err() <= 0.0);
    }

    #[test]
    fn a_segment_over_a_triangle_agrees_with_gjk() {
        let mut numbers = Numbers(0x6a09_e667_f3bc_c908);
        let mut exact = 0;
        for _ in 0..20_000 {
            let [a, b, c] = numbers.triangle(2.0);
            let Some(faces) = Face::of_triangle(a, b, c) else {
                continue;
            };
            let (from, to) = (numbers.vector(3.0), numbers.vector(3.0));
            let Ok((p, q)) = nearest_on_face(from, to, &faces) else {
                continue;
            };
            let contact = query::contact(
                &Pose::IDENTITY,
                &Segment::new(from, to),
                &Pose::IDENTITY,
                &Triangle::new(a, b, c),
                20.0,
            )
            .expect("supported pair")
            .expect("within 20 m");
            let distance = p.distance(q);
            assert!(
                (distance - contact.dist).abs() < 1e-9,
                "{from} {to} over {a} {b} {c}: {distance} for {}",
                contact.dist
            );
            exact += 1;
        }
        assert!(exact > 500, "only {exact} segments over a triangle");
    }

    #[test]
    fn a_segment_nearest_to_a_triangles_edge_agrees_with_gjk() {
        let mut numbers = Numbers(0x3c6e_f372_fe94_f82b);
        let (mut on_edges, mut left) = (0, 0);
        for _ in 0..20_000 {
            let [a, b, c] = numbers.triangle(2.0);
            let Some(faces) = Face::of_triangle(a, b, c) else {
                continue;
            };
            let (from, to) = (numbers.vector(3.0), numbers.vector(3.0));
            if nearest_on_face(from, to, &faces).is_ok() {
                continue;
            }
            let Some((p, q)) = nearest_to_edges(from, to, &[a, b, c], &TRIANGLE_EDGES) else {
                left += 1;
                continue;
            };
            let triangle = Triangle::new(a, b, c);
            let segment = Segment::new(from, to);
            let contact =
                query::contact(&Pose::IDENTITY, &segment, &Pose::IDENTITY, &triangle, 20.0)
                    .expect("supported pair")
                    .expect("within 20 m");
            let distance = p.distance(q);
            assert!(
                (distance - contact.dist).abs() < 1e-9,
                "{from} {to} by {a} {b} {c}: {distance} for {}",
                contact.dist
            );
            // The points lie on their shapes.
            assert!(segment.project_local_point(p, true).point.distance(p) < 1e-12);
            assert!(triangle.project_local_point(q, true).point.distance(q) < 1e-12);
            on_edges += 1;
        }
        assert!(
            on_edges > 5_000 && left > 100,
            "{on_edges} on edges, {left} left"
        );
    }

    #[test]
    fn a_segment_through_a_triangle_is_left_to_gjk() {
        let corners = [
            DVec3::new(-1.0, 0.0, -1.0),
            DVec3::new(1.0, 0.0, -1.0),
            DVec3::new(0.0, 0.0, 1.0),
        ];
        let through = nearest_to_edges(DVec3::NEG_Y, DVec3::Y, &corners, &TRIANGLE_EDGES);
        assert_eq!(through, None);
        // Beside it, level with it: nearest to the edge from (1, 0, -1) to (0, 0, 1).
        let (p, q) = nearest_to_edges(
            DVec3::new(2.0, -1.0, 0.0),
            DVec3::new(2.0, 1.0, 0.0),
            &corners,
            &TRIANGLE_EDGES,
        )
        .unwrap();
        assert!(p.distance(DVec3::new(2.0, 0.0, 0.0)) < 1e-12);
        assert!(q.distance(DVec3::new(0.8, 0.0, -0.6)) < 1e-12, "{q}");
    }

    #[test]
    fn a_segment_and_a_capsule_agree_with_gjk() {
        let mut numbers = Numbers(0xbb67_ae85_84ca_a73b);
        let mut apart = 0;
        for _ in 0..20_000 {
            let capsule = Capsule::new(numbers.vector(1.0), numbers.vector(1.0), 0.4);
            let (from, to) = (numbers.vector(2.0), numbers.vector(2.0));
            let Some((p, q)) = nearest_to_capsule(from, to, &capsule) else {
                continue;
            };
            let contact = query::contact(
                &Pose::IDENTITY,
                &Segment::new(from, to),
                &Pose::IDENTITY,
                &capsule,
                20.0,
            )
            .expect("supported pair")
            .expect("within 20 m");
            let distance = p.distance(q);
            assert_within_gjks_roughness(distance, contact.dist, &format!("{from} {to}"));
            assert!(((q - p) / distance).distance(contact.normal1) < 1e-2);
            // The point on the capsule is on its surface.
            let core = capsule.segment.project_local_point(q, true).point;
            assert!((core.distance(q) - capsule.radius).abs() < 1e-12);
            apart += 1;
        }
        assert!(
            apart > 5_000,
            "only {apart} segments apart from the capsule"
        );
    }

    #[test]
    fn a_segment_through_the_box_meets_it() {
        let half = DVec3::ONE;
        let (p, q) = nearest_to_box(DVec3::new(-3.0, 0.2, 0.1), DVec3::new(3.0, 0.3, 0.0), half);
        assert!(p.distance(q) < 1e-15);
    }
}
