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
//!
//! Over a face of any polyhedron the cylinder's farthest point toward the face and its foot
//! are the nearest points when the foot is on the face ([`nearest_on_face`]). Else, against a
//! mesh's triangle or a tilted box, the nearest point lies on an edge or a corner: the distance
//! from a point to the cylinder is convex along each edge, and where it is least has a closed
//! form beside the cylinder's side or over a cap, and a few steps of regula falsi by a cap's
//! rim ([`nearest_to_edges`]). Every mesh in a level is cut into triangles along diagonals that
//! pass under a character's feet, so this was most of GJK's work on mesh stairs.

use glam::DVec3;

use crate::hull::{FACING_SLACK, MOST_EDGES};
use crate::segment::{FACE_TOLERANCE, Face, OnFace, nearest_of_segments, separates};

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
/// toward a face and that point's foot on the face; else how far apart the two are at least
/// (see [`OnFace`]: they may be nearest on an edge or a corner, or meet).
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
) -> OnFace {
    let Some((face, height, point)) = faces
        .iter()
        .map(|face| {
            let point = farthest(center, axis, half_height, radius, -face.normal);
            (face, face.normal.dot(point) - face.offset, point)
        })
        .max_by(|x, y| x.1.total_cmp(&y.1))
    else {
        return Err(f64::NEG_INFINITY);
    };
    if height.is_nan() || height <= 0.0 {
        return Err(height);
    }
    let foot = point - face.normal * height;
    let on_face = faces
        .iter()
        .all(|g| g.normal.dot(foot) - g.offset <= FACE_TOLERANCE);
    if on_face {
        Ok((point, foot))
    } else {
        Err(height)
    }
}

/// The cylinder's point farthest along `direction`: on the rim of the cap that faces it; the
/// cap's centre when the direction is along the axis, and the side at the centre's height when
/// it is across the axis (where a whole line or disk is equally far).
pub(crate) fn farthest(
    center: DVec3,
    axis: DVec3,
    half_height: f64,
    radius: f64,
    direction: DVec3,
) -> DVec3 {
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

/// Nearest points `(on the cylinder, on the polyhedron)` between a cylinder of `half_height`
/// and `radius` (m) centred at `center` along the unit `axis`, and the convex polyhedron (or
/// flat polygon, a mesh's triangle) with `corners` and `edges` (pairs of corner indices), all in
/// one frame (m), when they lie on an edge or a corner of the polyhedron; `None` when the shapes
/// may meet or a face's inside may be nearest (the face's case, [`nearest_on_face`]).
///
/// Why the answer is exact: the distance from a point to the cylinder (a convex set) is convex,
/// and so is it along each edge; its least value there lies where its slope turns from
/// negative to positive, found by [`Axial::nearest_along`] (edges are looked at nearest first
/// by a cheap bound, and those that cannot be nearer are not searched). The nearest of those
/// pairs is kept when the plane through it separates the shapes (`segment::separates`): on the
/// cylinder's side that holds by construction (the point on the cylinder is the edge point's
/// projection, and a convex set lies behind the plane through the projection square to the
/// way to it), so only the polyhedron's corners are checked.
pub(crate) fn nearest_to_edges(
    center: DVec3,
    axis: DVec3,
    half_height: f64,
    radius: f64,
    corners: &[DVec3],
    edges: &[[usize; 2]],
) -> Option<(DVec3, DVec3)> {
    let cylinder = Axial {
        center,
        axis,
        half_height,
        radius,
    };
    if edges.len() > MOST_EDGES {
        return None;
    }
    // The edges in the order of a bound: no nearer than the axis's segment less the radius
    // (the cylinder lies within that capsule); an edge whose bound is past the nearest pair
    // found so far cannot be nearer.
    let (bottom, top) = (center - axis * half_height, center + axis * half_height);
    let mut order = [(f64::INFINITY, [0, 0]); MOST_EDGES];
    for (slot, &edge) in order.iter_mut().zip(edges) {
        let (from, to) = (corners[edge[0]], corners[edge[1]]);
        let (p, q) = nearest_of_segments(bottom, top, from, to);
        *slot = (p.distance(q) - radius, edge);
    }
    let order = &mut order[..edges.len()];
    order.sort_unstable_by(|x, y| x.0.total_cmp(&y.0));
    let mut nearest: Option<(f64, DVec3, DVec3, f64)> = None;
    for &(bound, [from, to]) in order.iter() {
        if nearest.is_some_and(|(least, ..)| bound >= least) {
            break;
        }
        let (from, to) = (corners[from], corners[to]);
        let (distance, t) = cylinder.nearest_along(from, to)?;
        if nearest.is_none_or(|(least, ..)| distance < least) {
            nearest = Some((distance, from, to, t));
        }
    }
    let (_, from, to, t) = nearest?;
    let t = cylinder.tie_break(from, to - from, t)?;
    let q = from + (to - from) * t;
    let p = cylinder.nearest(q);
    separates(p, q, &[p], corners).then_some((p, q))
}

/// Most steps of the search for an edge's nearest point by a cap's rim ([`Axial::turn_by_rim`]).
const EDGE_STEPS: usize = 64;
/// The search along an edge stops when a step moves the point less than this, m.
const EDGE_TOLERANCE: f64 = 1e-13;
/// Points of an edge whose distances to the cylinder differ by less than this (m) are equally
/// near: of those, the one nearest the axis, else the one level with the centre, is taken (as
/// the other closed forms take, where a whole part of an edge is nearest).
const EDGE_TIE: f64 = 1e-13;

/// An edge from `from` along `along` (its point at `t` is `from + along t`, m) split into its
/// parts along a cylinder's axis and across it, measured from the cylinder's centre.
struct Split {
    /// Height of `from` along the axis, m.
    height: f64,
    /// Rise of the edge along the axis, m.
    rise: f64,
    /// `from` across the axis, m.
    across: DVec3,
    /// The edge across the axis, m.
    run: DVec3,
}

impl Split {
    /// Where the edge's line passes nearest the axis (`t`, not clamped to the edge); `None` for
    /// an edge along the axis.
    fn nearest_axis(&self) -> Option<f64> {
        let t = -self.across.dot(self.run) / self.run.length_squared();
        t.is_finite().then_some(t)
    }
}

/// A cylinder of `half_height` and `radius` (m) centred at `center` along the unit `axis`.
struct Axial {
    center: DVec3,
    axis: DVec3,
    half_height: f64,
    radius: f64,
}

impl Axial {
    /// The edge from `from` along `along` (m) split along and across the axis.
    fn split(&self, from: DVec3, along: DVec3) -> Split {
        let local = from - self.center;
        let (height, rise) = (local.dot(self.axis), along.dot(self.axis));
        Split {
            height,
            rise,
            across: local - self.axis * height,
            run: along - self.axis * rise,
        }
    }

    /// The cylinder's point nearest to `point` (m); `point` itself when inside.
    fn nearest(&self, point: DVec3) -> DVec3 {
        let local = point - self.center;
        let along = local.dot(self.axis);
        let across = local - self.axis * along;
        let from_axis = across.length();
        let across = if from_axis > self.radius {
            across * (self.radius / from_axis)
        } else {
            across
        };
        self.center + self.axis * along.clamp(-self.half_height, self.half_height) + across
    }

    /// The distance (m) from the edge's point at `t` (0 at `from`, 1 at `to`) to the cylinder,
    /// and its slope along the edge (m per unit of `t`); `None` when the point is inside.
    fn distance_along(&self, from: DVec3, along: DVec3, t: f64) -> Option<(f64, f64)> {
        let point = from + along * t;
        let away = point - self.nearest(point);
        let distance = away.length();
        (distance > 0.0).then(|| (distance, along.dot(away) / distance))
    }

    /// How far the edge from `from` to `to` (m) is from the cylinder (m), and where on the edge
    /// it is nearest (0 at `from`, 1 at `to`); `None` when the edge meets the cylinder.
    ///
    /// The slope of the distance grows along the edge (the distance is convex), so the nearest
    /// point is an end whose slope points away from the other end, or where the slope turns
    /// from negative to positive. Where the edge crosses the cylinder's side or cap planes
    /// ([`Axial::crossings`]) the distance changes form, and between two crossings it is the
    /// distance to the side, to a cap, or to a cap's rim. The slopes at the crossings bracket
    /// the turn within one span: beside the side it has a closed form (where the edge's line
    /// passes nearest the axis); over a cap the slope is constant (level edges: any point of
    /// the span); by a rim it is found by regula falsi (Illinois), the distance being smooth
    /// there.
    fn nearest_along(&self, from: DVec3, to: DVec3) -> Option<(f64, f64)> {
        let along = to - from;
        let (cuts, count) = self.crossings(from, along);
        let mut previous: Option<(f64, f64)> = None;
        for &cut in &cuts[..count] {
            let (distance, slope) = self.distance_along(from, along, cut)?;
            if slope >= 0.0 {
                let Some(low) = previous else {
                    return Some((distance, cut));
                };
                let t = self.turn(from, along, low, (cut, slope))?;
                let (distance, _) = self.distance_along(from, along, t)?;
                return Some((distance, t));
            }
            previous = Some((cut, slope));
        }
        let (distance, _) = self.distance_along(from, along, 1.0)?;
        Some((distance, 1.0))
    }

    /// The parameters of the edge from `from` along `along` (0 at `from`, 1 at its end) where
    /// it crosses the cylinder's side (as an infinite tube) or its caps' planes, in order, with
    /// both ends, and how many there are.
    fn crossings(&self, from: DVec3, along: DVec3) -> ([f64; 6], usize) {
        let Split {
            height,
            rise,
            across,
            run,
        } = self.split(from, along);
        let mut cuts = [0.0, 1.0, 1.0, 1.0, 1.0, 1.0];
        let mut count = 1;
        let mut add = |t: f64| {
            if t > 0.0 && t < 1.0 {
                cuts[count] = t;
                count += 1;
            }
        };
        if rise != 0.0 {
            add((self.half_height - height) / rise);
            add((-self.half_height - height) / rise);
        }
        // |across + run t| = radius: a t^2 + 2 b t + c = 0.
        let (a, b, c) = (
            run.length_squared(),
            across.dot(run),
            across.length_squared() - self.radius * self.radius,
        );
        let discriminant = b * b - a * c;
        if a > 0.0 && discriminant > 0.0 {
            add((-b - discriminant.sqrt()) / a);
            add((-b + discriminant.sqrt()) / a);
        }
        cuts[count] = 1.0;
        count += 1;
        cuts[..count].sort_by(f64::total_cmp);
        (cuts, count)
    }

    /// Where the distance's slope turns from `low`'s (negative) to `high`'s (not negative),
    /// as `(parameter, slope)` pairs at the ends of a span between two crossings; `None` when
    /// the edge is inside the cylinder there.
    fn turn(&self, from: DVec3, along: DVec3, low: (f64, f64), high: (f64, f64)) -> Option<f64> {
        let middle = from + along * (0.5 * (low.0 + high.0)) - self.center;
        let height = middle.dot(self.axis);
        let beside = (middle - self.axis * height).length() > self.radius;
        let over = height.abs() > self.half_height;
        match (beside, over) {
            (false, false) => None,
            // Over a cap the slope is constant: the span is level (all of it equally near).
            (false, true) => Some(high.0),
            (true, false) => Some(
                self.split(from, along)
                    .nearest_axis()
                    .map_or(high.0, |t| t.clamp(low.0, high.0)),
            ),
            (true, true) => self.turn_by_rim(from, along, low, high),
        }
    }

    /// [`Axial::turn`] by a cap's rim: regula falsi on the slope (Illinois: the slope of the
    /// end kept twice is halved).
    fn turn_by_rim(
        &self,
        from: DVec3,
        along: DVec3,
        (mut low, mut slope_low): (f64, f64),
        (mut high, mut slope_high): (f64, f64),
    ) -> Option<f64> {
        let length = along.length();
        let (mut t, mut kept) = (high, 0);
        for _ in 0..EDGE_STEPS {
            if slope_high == 0.0 {
                return Some(high);
            }
            let next = (low * slope_high - high * slope_low) / (slope_high - slope_low);
            let moved = (next - t).abs() * length;
            t = next;
            let (_, slope) = self.distance_along(from, along, t)?;
            if slope < 0.0 {
                (low, slope_low) = (t, slope);
                if kept < 0 {
                    slope_high *= 0.5;
                }
                kept = -1;
            } else {
                (high, slope_high) = (t, slope);
                if kept > 0 {
                    slope_low *= 0.5;
                }
                kept = 1;
            }
            if moved <= EDGE_TOLERANCE || (high - low) * length <= EDGE_TOLERANCE {
                break;
            }
        }
        Some(t)
    }

    /// `t`, or a point of the edge as near the cylinder as `t` and nearer its axis (else level
    /// with its centre); `None` when a point looked at is inside.
    fn tie_break(&self, from: DVec3, along: DVec3, t: f64) -> Option<f64> {
        let split = self.split(from, along);
        let nearest_axis = split.nearest_axis().map(|t| t.clamp(0.0, 1.0));
        let level = (split.rise != 0.0).then(|| (-split.height / split.rise).clamp(0.0, 1.0));
        let (least, _) = self.distance_along(from, along, t)?;
        for candidate in [nearest_axis, level].into_iter().flatten() {
            let (distance, _) = self.distance_along(from, along, candidate)?;
            if distance <= least + EDGE_TIE {
                return Some(candidate);
            }
        }
        Some(t)
    }
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

/// The eight corners of the box `|x| <= half` (component-wise, m), in its frame: corner `i`
/// has `+half.x` when bit 0 of `i` is set, `+half.y` for bit 1 and `+half.z` for bit 2.
pub(crate) fn box_corners(half: DVec3) -> [DVec3; 8] {
    std::array::from_fn(|i| {
        let sign = |bit: usize| if i & (1 << bit) != 0 { 1.0 } else { -1.0 };
        DVec3::new(sign(0) * half.x, sign(1) * half.y, sign(2) * half.z)
    })
}

/// The twelve edges of a box as pairs of [`box_corners`] indices (corners one bit apart).
pub(crate) const BOX_EDGES: [[usize; 2]; 12] = [
    [0, 1],
    [2, 3],
    [4, 5],
    [6, 7],
    [0, 2],
    [1, 3],
    [4, 6],
    [5, 7],
    [0, 4],
    [1, 5],
    [2, 6],
    [3, 7],
];

/// The edges of the box `|x| <= half` (component-wise, m) that can hold the point nearest to a
/// cylinder of `half_height` and `radius` (m) centred at `center` along the unit `axis` (in the
/// box's frame), and how many: those whose two faces' planes the cylinder both reaches past.
/// A box's faces meet square, so the plane through an edge square to one of its faces is the
/// other face's plane: the edge's side planes (see `hull`, whose argument this is) are its two
/// faces' planes. The cylinder's reach out of a face is exact (its centre plus its support
/// along the face's normal) less [`FACING_SLACK`].
pub(crate) fn box_edges_facing(
    center: DVec3,
    axis: DVec3,
    half_height: f64,
    radius: f64,
    half: DVec3,
) -> ([[usize; 2]; 12], usize) {
    // past[k][s]: the cylinder reaches past the face of axis k on the side of sign s (0: -, 1: +).
    let past: [[bool; 2]; 3] = std::array::from_fn(|k| {
        let across = radius * (1.0 - axis[k] * axis[k]).max(0.0).sqrt();
        let support = half_height * axis[k].abs() + across;
        let beyond = half[k] - FACING_SLACK;
        [support - center[k] > beyond, center[k] + support > beyond]
    });
    let mut kept = [[0; 2]; 12];
    let mut count = 0;
    for edge in BOX_EDGES {
        let along = (edge[0] ^ edge[1]).trailing_zeros() as usize;
        let facing = (0..3)
            .filter(|&k| k != along)
            .all(|k| past[k][(edge[0] >> k) & 1]);
        if facing {
            kept[count] = edge;
            count += 1;
        }
    }
    (kept, count)
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
            let Ok((p, q)) = found else {
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
            let Ok((p, q)) = nearest_on_face(center, DVec3::Y, 0.9, 0.4, &faces) else {
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

    /// Checks nearest points `(p, q)` of a cylinder at `pose` and a convex `shape` against GJK
    /// (`what` names the case): the distance, the points on their shapes (`q` checked by the
    /// caller), and the plane through them square to their direction separating the two.
    fn check_pair(
        pose: &Pose,
        cylinder: &Cylinder,
        shape: &dyn SupportMap,
        p: DVec3,
        q: DVec3,
        gjk: f64,
        what: &str,
    ) {
        let distance = p.distance(q);
        assert_within_gjks_roughness(distance, gjk, what);
        let normal = (q - p) / distance;
        let turn = pose.rotation;
        let reach = pose.transform_point(cylinder.local_support_point(turn.inverse() * normal));
        let back = shape.local_support_point(-normal);
        assert!(
            (reach - p).dot(normal).abs() < 1e-9,
            "{what}: cylinder past the plane"
        );
        assert!(
            (back - q).dot(normal) > -1e-9,
            "{what}: shape past the plane"
        );
        let local = pose.inverse_transform_point(p);
        assert!(
            local.y.abs() <= cylinder.half_height + 1e-12,
            "{what}: p off the cylinder"
        );
        assert!(glam::DVec2::new(local.x, local.z).length() <= cylinder.radius + 1e-12);
    }

    #[test]
    fn an_edge_of_a_triangle_nearest_to_a_cylinder_agrees_with_gjk() {
        let mut numbers = Numbers(0xa54f_f53a_5f1d_36f1);
        let (mut on_edges, mut left) = (0, 0);
        for round in 0..20_000 {
            let [a, b, c] = numbers.triangle(2.0);
            let Some(faces) = Face::of_triangle(a, b, c) else {
                continue;
            };
            let (half_height, radius) = (
                numbers.next().abs() + 0.05,
                numbers.next().abs() * 0.5 + 0.05,
            );
            let center = numbers.vector(3.0);
            // Upright as a character is, and tilted.
            let axis = if round % 2 == 0 {
                DVec3::Y
            } else {
                numbers.vector(1.0).try_normalize().unwrap_or(DVec3::Y)
            };
            if nearest_on_face(center, axis, half_height, radius, &faces).is_ok() {
                continue;
            }
            let corners = [a, b, c];
            let edges = [[0, 1], [1, 2], [2, 0]];
            let found = nearest_to_edges(center, axis, half_height, radius, &corners, &edges);
            let Some((p, q)) = found else {
                left += 1;
                continue;
            };
            let turn = glam::DQuat::from_rotation_arc(DVec3::Y, axis);
            let pose = Pose::from_parts(center, turn);
            let cylinder = Cylinder::new(half_height, radius);
            let triangle = Triangle::new(a, b, c);
            let contact = query::contact(&pose, &cylinder, &Pose::IDENTITY, &triangle, 20.0)
                .expect("supported pair")
                .expect("within 20 m");
            let what = format!("{center} {axis} {half_height} {radius} by {a} {b} {c}");
            check_pair(&pose, &cylinder, &triangle, p, q, contact.dist, &what);
            assert!(triangle.project_local_point(q, true).point.distance(q) < 1e-12);
            on_edges += 1;
        }
        assert!(
            on_edges > 5_000 && left > 100,
            "{on_edges} on edges, {left} left"
        );
    }

    #[test]
    fn an_edge_of_a_tilted_box_nearest_to_a_cylinder_agrees_with_gjk() {
        let mut numbers = Numbers(0x510e_527f_ade6_82d1);
        let mut on_edges = 0;
        for _ in 0..20_000 {
            let half = numbers.vector(1.0).abs() + DVec3::splat(0.01);
            let center = numbers.vector(3.0);
            let axis = numbers.vector(1.0).try_normalize().unwrap_or(DVec3::Y);
            let (half_height, radius) = (0.9, 0.4);
            if nearest_on_face(center, axis, half_height, radius, &box_faces(half)).is_ok() {
                continue;
            }
            let corners = box_corners(half);
            let found = nearest_to_edges(center, axis, half_height, radius, &corners, &BOX_EDGES);
            let Some((p, q)) = found else {
                continue;
            };
            let turn = glam::DQuat::from_rotation_arc(DVec3::Y, axis);
            let pose = Pose::from_parts(center, turn);
            let cylinder = Cylinder::new(half_height, radius);
            let cuboid = Cuboid::new(half);
            let contact = query::contact(&pose, &cylinder, &Pose::IDENTITY, &cuboid, 20.0)
                .expect("supported pair")
                .expect("within 20 m");
            let what = format!("{center} {axis} by {half}");
            check_pair(&pose, &cylinder, &cuboid, p, q, contact.dist, &what);
            assert!(
                q.abs().cmple(half + DVec3::splat(1e-12)).all(),
                "{what}: q off the box"
            );
            on_edges += 1;
        }
        assert!(on_edges > 2_000, "only {on_edges} on edges");
    }

    #[test]
    fn the_edges_a_cylinder_faces_hold_the_nearest_pair_of_all_twelve() {
        // Cylinders of many sizes all around boxes of many shapes, beside, over and near the
        // corners: where all twelve edges give a nearest pair, the edges kept give the same
        // pair, to the last bit; the edges left out are most.
        let mut numbers = Numbers(0x9b05_688c_2b3e_6c1f);
        let (mut compared, mut left_out) = (0, 0);
        for _ in 0..20_000 {
            let half = numbers.vector(1.0).abs() + DVec3::splat(0.01);
            let center = numbers.vector(3.0);
            let axis = numbers.vector(1.0).try_normalize().unwrap_or(DVec3::Y);
            let half_height = 0.05 + numbers.next().abs();
            let radius = 0.05 + 0.5 * numbers.next().abs();
            let corners = box_corners(half);
            let all = nearest_to_edges(center, axis, half_height, radius, &corners, &BOX_EDGES);
            let (facing, count) = box_edges_facing(center, axis, half_height, radius, half);
            let kept = nearest_to_edges(
                center,
                axis,
                half_height,
                radius,
                &corners,
                &facing[..count],
            );
            if let Some(all) = all {
                assert_eq!(
                    kept,
                    Some(all),
                    "{center} {axis} {half_height} {radius} by {half}"
                );
                compared += 1;
                left_out += 12 - count;
            }
        }
        assert!(compared > 5_000, "only {compared} pairs");
        // Three of twelve kept on average (nine with an edge kept for either face past).
        assert!(
            left_out > 8 * compared,
            "{left_out} edges left out of {compared} pairs"
        );
    }

    #[test]
    fn a_level_edge_under_a_cap_is_nearest_under_the_axis() {
        // A mesh's diagonal under a standing cylinder, 5 cm below its bottom.
        let corners = [
            DVec3::new(-2.0, 0.05, 0.2),
            DVec3::new(2.0, 0.05, 0.2),
            DVec3::new(2.0, 0.05, 3.0),
        ];
        let center = DVec3::new(0.3, 1.0, 0.0);
        let (p, q) = nearest_to_edges(center, DVec3::Y, 0.9, 0.4, &corners, &[[0, 1]]).unwrap();
        assert!(q.distance(DVec3::new(0.3, 0.05, 0.2)) < 1e-12, "{q}");
        assert!(p.distance(DVec3::new(0.3, 0.1, 0.2)) < 1e-12, "{p}");
        // An edge along the side, level with the centre nearest.
        let corners = [
            DVec3::new(1.0, -3.0, 0.0),
            DVec3::new(1.0, 3.0, 0.0),
            DVec3::new(3.0, 0.0, 0.0),
        ];
        let (p, q) = nearest_to_edges(center, DVec3::Y, 0.9, 0.4, &corners, &[[0, 1]]).unwrap();
        assert!(q.distance(DVec3::new(1.0, 1.0, 0.0)) < 1e-12, "{q}");
        assert!(p.distance(DVec3::new(0.7, 1.0, 0.0)) < 1e-12, "{p}");
        // An edge through the cylinder: left to GJK.
        let corners = [
            DVec3::new(-2.0, 0.5, 0.0),
            DVec3::new(2.0, 0.5, 0.0),
            DVec3::new(0.0, 0.5, 3.0),
        ];
        assert_eq!(
            nearest_to_edges(center, DVec3::Y, 0.9, 0.4, &corners, &[[0, 1]]),
            None
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
