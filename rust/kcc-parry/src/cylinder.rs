//! Exact nearest points between an upright cylinder (a cylinder-shaped body) and a box that
//! stands upright too (turned about the vertical only, as most level boxes are), in closed form
//! instead of GJK.
//!
//! Both shapes are a vertical interval times a horizontal shape: the cylinder a disk, the box a
//! rectangle. Their distance splits the same way: the gap between the two intervals and the gap
//! between the disk and the rectangle, combined by Pythagoras. GJK on a cylinder's curved side
//! or its flat cap parallel to a face takes 10 to 20 of its steps to reach f64 precision (0.5
//! to 1.5 µs a contact), which made the cylinder scenarios the parry world's slowest. Side by
//! side on a busy machine (`cargo run --release -p kcc-parry --example query_cost -- 0.04`, the
//! old build and this one): a cylinder's `test_move` near a riser 9.64 -> 1.39 µs, its walk up
//! and down the Jolt stairs 16.6 -> 7.1 µs a tick; the capsule's unchanged.

use glam::DVec3;

use crate::segment::{FACE_TOLERANCE, Face};

/// Nearest points `(on the cylinder, on the box)` between an upright cylinder of `half_height`
/// and `radius` (m) centred at `center` and the box `|x| <= half` (component-wise), all in the
/// box's frame, whose Y axis is the cylinder's; `None` when they overlap. Where whole parts of
/// the two are equally close (a cap over a face, a side along a face), the points are taken on
/// the line of the cylinder's axis projected onto the box, as near its centre as the box allows.
pub(crate) fn nearest_to_upright_box(
    center: DVec3,
    half_height: f64,
    radius: f64,
    half: DVec3,
) -> Option<(DVec3, DVec3)> {
    // Across: the rectangle's point nearest the axis, and how far the disk's rim is from it.
    let axis = glam::DVec2::new(center.x, center.z);
    let rectangle = glam::DVec2::new(half.x, half.z);
    let across = axis.clamp(-rectangle, rectangle);
    let from_axis = axis.distance(across);
    let side_gap = from_axis - radius;
    // Along the axis: the gap between the two intervals, and the box's face that is nearer.
    let above = center.y >= 0.0;
    let end_gap = (center.y.abs() - half_height) - half.y;
    if side_gap <= 0.0 && end_gap <= 0.0 {
        return None;
    }
    let height_on_box = if end_gap > 0.0 {
        if above { half.y } else { -half.y }
    } else {
        center.y.clamp(-half.y, half.y)
    };
    let height_on_cylinder = if end_gap > 0.0 {
        if above {
            center.y - half_height
        } else {
            center.y + half_height
        }
    } else {
        height_on_box
    };
    let across_on_cylinder = if side_gap > 0.0 {
        axis + (across - axis) * (radius / from_axis)
    } else {
        across
    };
    Some((
        DVec3::new(
            across_on_cylinder.x,
            height_on_cylinder,
            across_on_cylinder.y,
        ),
        DVec3::new(across.x, height_on_box, across.y),
    ))
}

/// Nearest points `(on the cylinder, on the polyhedron)` between a cylinder of `half_height`
/// and `radius` (m) centred at `center` along the unit `axis`, and the convex polyhedron bounded
/// by `faces`, all in the polyhedron's frame (m), when they are the cylinder's farthest point
/// toward a face and that point's foot on the face; `None` when they may lie on an edge or a
/// corner, or the shapes may meet.
///
/// Why the answer is exact (as for a segment, see `segment::nearest_on_face`): every point of
/// the polyhedron is inside the face's plane, and no point of the cylinder is nearer to that
/// plane than its farthest point toward it; the foot of that point on the plane is a point of
/// the polyhedron (inside every other face's plane). The face whose plane the cylinder is
/// furthest above is the only one that can be nearest.
pub(crate) fn nearest_on_face(
    center: DVec3,
    axis: DVec3,
    half_height: f64,
    radius: f64,
    faces: &[Face],
) -> Option<(DVec3, DVec3)> {
    let (face, height, point) = faces
        .iter()
        .map(|face| {
            let point = farthest(center, axis, half_height, radius, -face.normal);
            (face, face.normal.dot(point) - face.offset, point)
        })
        .max_by(|x, y| x.1.total_cmp(&y.1))?;
    if height.is_nan() || height <= 0.0 {
        return None;
    }
    let foot = point - face.normal * height;
    let on_face = faces
        .iter()
        .all(|g| g.normal.dot(foot) - g.offset <= FACE_TOLERANCE);
    on_face.then_some((point, foot))
}

/// The cylinder's point farthest along `direction`: on the rim of the cap that faces it; the
/// cap's centre when the direction is along the axis, and the side at the centre's height when
/// it is across the axis (where a whole line or disk is equally far).
fn farthest(center: DVec3, axis: DVec3, half_height: f64, radius: f64, direction: DVec3) -> DVec3 {
    let along = direction.dot(axis);
    let end = if along == 0.0 {
        DVec3::ZERO
    } else {
        axis * half_height.copysign(along)
    };
    // Across the axis by less than this (a unit direction's part), the direction is along it.
    const ALONG: f64 = 1e-9;
    let across = direction - axis * along;
    let rim = if across.length_squared() > ALONG * ALONG {
        across.normalize() * radius
    } else {
        DVec3::ZERO
    };
    center + end + rim
}

/// The six faces of the box `|x| <= half` (component-wise, m), in its frame.
pub(crate) fn box_faces(half: DVec3) -> [Face; 6] {
    let face = |normal: DVec3, offset: f64| Face { normal, offset };
    [
        face(DVec3::X, half.x),
        face(DVec3::NEG_X, half.x),
        face(DVec3::Y, half.y),
        face(DVec3::NEG_Y, half.y),
        face(DVec3::Z, half.z),
        face(DVec3::NEG_Z, half.z),
    ]
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::segment::tests::{Numbers, assert_within_gjks_roughness};
    use parry3d_f64::math::Pose;
    use parry3d_f64::query;
    use parry3d_f64::query::PointQuery;
    use parry3d_f64::shape::{Cuboid, Cylinder, SupportMap, Triangle};

    #[test]
    fn agrees_with_gjk_on_separated_pairs() {
        let mut numbers = Numbers(0x2545_f491_4f6c_dd1d);
        let mut checked = 0;
        for round in 0..20_000 {
            let half = numbers.vector(2.0).abs() + DVec3::splat(0.01);
            let half_height = numbers.next().abs() * 1.5 + 0.05;
            let radius = numbers.next().abs() * 0.8 + 0.05;
            let mut center = numbers.vector(4.0);
            // Right above a face, and level with a side, as well as anywhere.
            match round % 3 {
                0 => center.y = half.y + half_height + numbers.next().abs() * 0.1,
                1 => center.y *= 0.1,
                _ => {}
            }
            let Some((p, q)) = nearest_to_upright_box(center, half_height, radius, half) else {
                continue;
            };
            let distance = p.distance(q);
            let cylinder = Cylinder::new(half_height, radius);
            let pose = Pose::from_translation(center);
            let contact =
                query::contact(&pose, &cylinder, &Pose::IDENTITY, &Cuboid::new(half), 20.0)
                    .expect("supported pair")
                    .expect("within 20 m");
            let exact = contact.dist;
            if exact < 1e-6 {
                continue;
            }
            checked += 1;
            // The nearest points of two convex shapes: the plane through them across the
            // normal separates the shapes (each shape's farthest point along the normal, toward
            // the other, lies on it). GJK's normal on a cylinder is rougher (up to 0.3 degrees off here).
            let normal = (q - p) / distance;
            let reach = cylinder.local_support_point(normal) + center;
            let back = Cuboid::new(half).local_support_point(-normal);
            assert!(
                (reach - p).dot(normal).abs() < 1e-12,
                "{center} {half}: {normal}"
            );
            assert!(
                (back - q).dot(normal).abs() < 1e-12,
                "{center} {half}: {normal}"
            );
            assert!(
                normal.distance(contact.normal1) < 1e-2,
                "{center} {half}: {normal}"
            );
            let what = format!("{center} {half_height} {radius} {half}");
            assert_within_gjks_roughness(distance, exact, &what);
            // The points lie on their shapes.
            assert!(q.abs().cmple(half + DVec3::splat(1e-12)).all());
            let local = p - center;
            assert!(local.y.abs() <= half_height + 1e-12);
            assert!(glam::DVec2::new(local.x, local.z).length() <= radius + 1e-12);
        }
        assert!(checked > 5_000, "only {checked} separated pairs");
    }

    #[test]
    fn a_face_nearest_to_a_tilted_cylinder_agrees_with_gjk() {
        let mut numbers = Numbers(0x853c_49e6_748f_ea9b);
        let (mut exact_faces, mut left) = (0, 0);
        for _ in 0..20_000 {
            let half = numbers.vector(2.0).abs() + DVec3::splat(0.01);
            let (half_height, radius) = (
                numbers.next().abs() + 0.05,
                numbers.next().abs() * 0.5 + 0.05,
            );
            let center = numbers.vector(4.0);
            let axis = numbers.vector(1.0).try_normalize().unwrap_or(DVec3::Y);
            let found = nearest_on_face(center, axis, half_height, radius, &box_faces(half));
            let Some((p, q)) = found else {
                left += 1;
                continue;
            };
            // The cylinder along its own Y axis, turned onto `axis`.
            let turn = glam::DQuat::from_rotation_arc(DVec3::Y, axis);
            let pose = Pose::from_parts(center, turn);
            let cylinder = Cylinder::new(half_height, radius);
            let contact =
                query::contact(&pose, &cylinder, &Pose::IDENTITY, &Cuboid::new(half), 20.0)
                    .expect("supported pair")
                    .expect("within 20 m");
            let distance = p.distance(q);
            let what = format!("{center} {axis} {half}");
            assert_within_gjks_roughness(distance, contact.dist, &what);
            // The separating plane through the nearest points.
            let normal = (q - p) / distance;
            let reach = pose.transform_point(cylinder.local_support_point(turn.inverse() * normal));
            let back = Cuboid::new(half).local_support_point(-normal);
            assert!(
                (reach - p).dot(normal).abs() < 1e-9,
                "{center} {axis} {half}"
            );
            assert!(
                (back - q).dot(normal).abs() < 1e-12,
                "{center} {axis} {half}"
            );
            exact_faces += 1;
        }
        assert!(
            exact_faces > 2_000 && left > 2_000,
            "{exact_faces} on faces, {left} left"
        );
    }

    #[test]
    fn a_triangle_nearest_to_an_upright_cylinder_agrees_with_gjk() {
        let mut numbers = Numbers(0x1405_7b7e_f767_814f);
        let (mut exact_faces, mut left) = (0, 0);
        for _ in 0..20_000 {
            let [a, b, c] = numbers.triangle(2.0);
            let Some(faces) = Face::of_triangle(a, b, c) else {
                continue;
            };
            let center = numbers.vector(3.0);
            let cylinder = Cylinder::new(0.9, 0.4);
            let Some((p, q)) = nearest_on_face(center, DVec3::Y, 0.9, 0.4, &faces) else {
                left += 1;
                continue;
            };
            let triangle = Triangle::new(a, b, c);
            let pose = Pose::from_translation(center);
            let contact = query::contact(&pose, &cylinder, &Pose::IDENTITY, &triangle, 20.0)
                .expect("supported pair")
                .expect("within 20 m");
            let distance = p.distance(q);
            let what = format!("{center} {a} {b} {c}");
            assert_within_gjks_roughness(distance, contact.dist, &what);
            // The foot is on the triangle.
            let projected = triangle.project_local_point(q, true).point;
            assert!(projected.distance(q) < 1e-12, "{q} off the triangle");
            exact_faces += 1;
        }
        assert!(
            exact_faces > 500 && left > 500,
            "{exact_faces} on faces, {left} left"
        );
    }

    #[test]
    fn overlapping_shapes_are_left_to_gjk() {
        let half = DVec3::new(1.0, 0.5, 1.0);
        assert!(nearest_to_upright_box(DVec3::new(1.2, 1.0, 0.0), 0.6, 0.3, half).is_none());
        // Level with the side, 0.1 m from it.
        let (p, q) = nearest_to_upright_box(DVec3::new(1.4, 0.2, 0.0), 0.6, 0.3, half).unwrap();
        assert!(p.distance(DVec3::new(1.1, 0.2, 0.0)) < 1e-15);
        assert_eq!(q, DVec3::new(1.0, 0.2, 0.0));
    }

    #[test]
    fn a_cap_over_a_face_is_nearest_under_the_axis() {
        let half = DVec3::new(2.0, 0.5, 2.0);
        let (p, q) = nearest_to_upright_box(DVec3::new(0.3, 1.5, -0.4), 0.9, 0.4, half).unwrap();
        assert_eq!(q, DVec3::new(0.3, 0.5, -0.4));
        assert!((p.y - 0.6).abs() < 1e-15 && p.x == 0.3 && p.z == -0.4);
        // Past the box's edge the nearest point of the box is on that edge.
        let (_, q) = nearest_to_upright_box(DVec3::new(2.2, 1.5, 0.0), 0.9, 0.4, half).unwrap();
        assert_eq!(q, DVec3::new(2.0, 0.5, 0.0));
    }
}
