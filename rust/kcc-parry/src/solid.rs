//! Static solids of the world: convex shapes and triangle meshes.
//!
//! Geometry queries run in f64 (parry3d-f64): with f32, GJK near a 200 m floor box was measured
//! to be off by up to 2 mm for a 0.94 mm gap, enough to let a character sink through the floor.
//!
//! A capsule is queried as its segment grown by its radius (`Rounded`): GJK between polytopes
//! ends exactly in a few steps, where on the rounded capsule it needs many steps near a touch
//! and still stops up to several micrometres off near an edge or a corner (measured in the
//! tests below). A segment and a box, or a segment over a hull's face, have a closed form
//! (`segment`). Casts advance conservatively on those exact distances (`sweep`).

use glam::DVec3;
use parry3d_f64::bounding_volume::{Aabb, BoundingVolume};
use parry3d_f64::math::Pose;
use parry3d_f64::query::{self, ShapeCastOptions};
use parry3d_f64::shape::{Segment, Shape, SharedShape, TriMesh};

use crate::segment::{self, Face};
use crate::world::TOUCH_DISTANCE;

/// What a solid was built from, in world space (m): enough to build the same solid in another
/// engine (the simulator builds Rapier colliders from it).
#[derive(Debug, Clone, PartialEq)]
pub enum Primitive {
    /// A box of full `size` centred at `center`, rotated by `rotation`.
    Cuboid {
        /// Centre, m.
        center: glam::Vec3,
        /// Full size along the box's own axes, m.
        size: glam::Vec3,
        /// Orientation.
        rotation: glam::Quat,
    },
    /// The convex hull of points, m.
    Hull {
        /// The points.
        points: Vec<glam::Vec3>,
    },
    /// A triangle mesh, m.
    Mesh {
        /// Vertices in world space.
        vertices: Vec<glam::Vec3>,
        /// Vertex index triples.
        indices: Vec<[u32; 3]>,
    },
}

/// One static solid placed in the world.
#[derive(Clone)]
pub struct Solid {
    pose: Pose,
    kind: SolidKind,
    aabb: Aabb,
    primitive: Primitive,
}

#[derive(Clone)]
enum SolidKind {
    /// A box, a convex hull or any other convex shape, with the faces of a flat-faced hull
    /// (empty for other shapes).
    Convex(SharedShape, Box<[Face]>),
    /// A triangle mesh: contacts are found per triangle, as Jolt does for mesh shapes.
    Mesh(Box<TriMesh>),
}

impl Solid {
    /// A convex shape (box, hull) at `pose`, built from `primitive`.
    pub(crate) fn convex(shape: SharedShape, pose: Pose, primitive: Primitive) -> Self {
        let aabb = shape.compute_aabb(&pose);
        let faces = shape.as_convex_polyhedron().map_or_else(Vec::new, |hull| {
            let adjacent = hull.vertices_adj_to_face();
            Face::of_polyhedron(
                hull.points(),
                hull.faces().iter().map(|face| {
                    let first = face.first_vertex_or_edge as usize;
                    let count = face.num_vertices_or_edges as usize;
                    (face.normal, &adjacent[first..first + count])
                }),
            )
        });
        Self {
            pose,
            kind: SolidKind::Convex(shape, faces.into()),
            aabb,
            primitive,
        }
    }

    /// A triangle mesh at `pose`, built from `primitive`.
    pub(crate) fn mesh(mesh: TriMesh, pose: Pose, primitive: Primitive) -> Self {
        let aabb = mesh.compute_aabb(&pose);
        Self {
            pose,
            kind: SolidKind::Mesh(Box::new(mesh)),
            aabb,
            primitive,
        }
    }

    /// What the solid was built from.
    pub fn primitive(&self) -> &Primitive {
        &self.primitive
    }

    /// World-space bounds, m.
    pub fn aabb(&self) -> &Aabb {
        &self.aabb
    }

    /// True for a convex solid, which has at most one contact with the body.
    pub(crate) fn is_convex(&self) -> bool {
        matches!(self.kind, SolidKind::Convex(..))
    }

    /// True when a point (m) is inside the solid (a mesh counts its inside by orientation).
    pub fn contains_point(&self, point: glam::Vec3) -> bool {
        use parry3d_f64::query::PointQuery;
        let point = point.as_dvec3();
        match &self.kind {
            SolidKind::Convex(shape, _) => shape.contains_point(&self.pose, point),
            SolidKind::Mesh(mesh) => mesh.as_ref().contains_point(&self.pose, point),
        }
    }

    /// Calls `found` with every contact between `body` at `pose` and this solid closer than
    /// `prediction` (m).
    pub(crate) fn contacts(
        &self,
        body: &Rounded,
        pose: &Pose,
        body_aabb: &Aabb,
        prediction: f64,
        found: &mut impl FnMut(Touch),
    ) {
        let reach = body_aabb.loosened(prediction);
        if !self.aabb.intersects(&reach) {
            return;
        }
        match &self.kind {
            SolidKind::Convex(shape, faces) => {
                let target = Target::new(&self.pose, shape.as_ref(), faces);
                if let Some(touch) = body.contact(pose, &target, prediction) {
                    found(touch);
                }
            }
            SolidKind::Mesh(mesh) => {
                let local = reach.transform_by(&self.pose.inverse());
                for index in mesh.bvh().intersect_aabb(&local) {
                    let triangle = mesh.triangle(index);
                    let target = Target::new(&self.pose, &triangle, &[]);
                    if let Some(touch) = body.contact(pose, &target, prediction) {
                        found(touch);
                    }
                }
            }
        }
    }

    /// How far (m along `motion`) `body` can move from `pose` before it comes within `gap`
    /// (m) of this solid; `None` when the motion stays clear. See [`sweep`].
    pub(crate) fn cast(
        &self,
        body: &Rounded,
        pose: &Pose,
        swept: &Aabb,
        motion: DVec3,
        gap: f64,
    ) -> Option<f64> {
        let reach = swept.loosened(gap);
        if !self.aabb.intersects(&reach) {
            return None;
        }
        match &self.kind {
            SolidKind::Convex(shape, faces) => {
                let target = Target::new(&self.pose, shape.as_ref(), faces);
                sweep(body, pose, motion, &target, gap)
            }
            SolidKind::Mesh(mesh) => {
                let local = reach.transform_by(&self.pose.inverse());
                mesh.bvh()
                    .intersect_aabb(&local)
                    .filter_map(|index| {
                        let triangle = mesh.triangle(index);
                        sweep(
                            body,
                            pose,
                            motion,
                            &Target::new(&self.pose, &triangle, &[]),
                            gap,
                        )
                    })
                    .reduce(f64::min)
            }
        }
    }
}

/// A contact between the body's shape and a solid, in world space.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct Touch {
    /// Unit normal from the body toward the solid.
    pub(crate) normal: DVec3,
    /// Signed distance, m (negative when they overlap).
    pub(crate) dist: f64,
    /// Contact point on the solid, m.
    pub(crate) point: DVec3,
    /// The normal and distance are exact: the cores are further apart than
    /// [`TOUCH_DISTANCE`], where the closest points, and so the normal, are well defined.
    pub(crate) exact: bool,
}

/// A convex shape the body is queried against: a solid or one triangle of a mesh.
struct Target<'a> {
    pose: &'a Pose,
    shape: &'a dyn Shape,
    /// The faces of a flat-faced hull, in its frame; empty for other shapes.
    faces: &'a [Face],
}

impl<'a> Target<'a> {
    fn new(pose: &'a Pose, shape: &'a dyn Shape, faces: &'a [Face]) -> Self {
        Self { pose, shape, faces }
    }
}

/// A convex shape as a core grown by a radius: a capsule is its segment grown by its radius
/// (as Jolt's convex radius), any other shape is itself grown by 0. Distances between a
/// segment and a polytope are exact (in closed form against a box or a hull's face, by GJK in
/// a few steps otherwise), and while the cores are apart the normal is exact even when the
/// rounded shapes overlap.
#[derive(Clone)]
pub(crate) struct Rounded {
    core: SharedShape,
    /// The core when it is a segment, whose distance to a box or a face has a closed form.
    segment: Option<Segment>,
    radius: f64,
}

impl Rounded {
    /// The core and radius of `shape`.
    pub(crate) fn new(shape: &SharedShape) -> Self {
        match shape.as_capsule() {
            Some(capsule) => Self {
                core: SharedShape::new(capsule.segment),
                segment: Some(capsule.segment),
                radius: capsule.radius,
            },
            None => Self {
                core: shape.clone(),
                segment: None,
                radius: 0.0,
            },
        }
    }

    /// The contact of the rounded shape at `pose` with `target` closer than `prediction` (m).
    fn contact(&self, pose: &Pose, target: &Target, prediction: f64) -> Option<Touch> {
        if let Some(segment) = &self.segment
            && let Some(touch) = self.segment_contact(segment, pose, target)
        {
            return (touch.dist <= prediction).then_some(touch);
        }
        let core: &dyn Shape = self.core.as_ref();
        let c = query::contact(
            pose,
            core,
            target.pose,
            target.shape,
            prediction + self.radius,
        )
        .ok()??;
        Some(Touch {
            normal: c.normal1,
            dist: c.dist - self.radius,
            point: c.point2,
            exact: c.dist > TOUCH_DISTANCE,
        })
    }

    /// The contact of the segment core in closed form, when there is one (against a box, or
    /// a face of a hull) and the segment is further from the target than [`TOUCH_DISTANCE`].
    fn segment_contact(&self, segment: &Segment, pose: &Pose, target: &Target) -> Option<Touch> {
        let a = target
            .pose
            .inverse_transform_point(pose.transform_point(segment.a));
        let b = target
            .pose
            .inverse_transform_point(pose.transform_point(segment.b));
        let (on_segment, on_target) = if let Some(cuboid) = target.shape.as_cuboid() {
            segment::nearest_to_box(a, b, cuboid.half_extents)
        } else {
            segment::nearest_on_face(a, b, target.faces)?
        };
        let distance = on_segment.distance(on_target);
        (distance > TOUCH_DISTANCE).then(|| Touch {
            normal: target.pose.rotation * ((on_target - on_segment) / distance),
            dist: distance - self.radius,
            point: target.pose.transform_point(on_target),
            exact: true,
        })
    }
}

/// Most steps of the conservative advancement before [`sweep`] falls back on parry's cast.
const ADVANCE_STEPS: usize = 16;
/// The advancement stops this close (m) to the distance it aims for.
const ADVANCE_TOLERANCE: f64 = 1e-9;

/// Distance (m) the rounded `body` travels along `motion` before it comes within `gap` of
/// `target`. Starting within the gap blocks at once only when moving toward `target`; starting
/// inside `target` blocks only when the end of the motion is inside too (as Jolt's cast does),
/// so a body can always move out of an overlap.
///
/// The cast is a conservative advancement on the cores, whose distance queries are exact:
/// distance along a straight motion is convex, so a step of (distance - gap) / approach speed
/// never passes the first touch, and a body that does not approach never will. A face is
/// reached in one step; an edge or a corner in a few. Should it take too many, parry's cast
/// (a ray cast on the Minkowski difference) decides.
fn sweep(body: &Rounded, pose: &Pose, motion: DVec3, target: &Target, gap: f64) -> Option<f64> {
    let length = motion.length();
    if !length.is_finite() || length <= 0.0 {
        return None;
    }
    let at = |time: f64| Pose::from_parts(pose.translation + motion * time, pose.rotation);
    let mut time = 0.0;
    for _ in 0..ADVANCE_STEPS {
        // Farther than the rest of the motion (plus the gap) cannot be reached.
        let touch = body.contact(&at(time), target, gap + (1.0 - time) * length)?;
        if time == 0.0 && touch.dist < gap {
            return blocked_at_start(body, pose, motion, target, gap, &touch);
        }
        let rest = touch.dist - gap;
        if rest <= ADVANCE_TOLERANCE && time > 0.0 {
            return Some(time * length);
        }
        let approach = motion.dot(touch.normal);
        if approach <= 0.0 {
            return None;
        }
        if rest <= ADVANCE_TOLERANCE {
            return Some(0.0);
        }
        time += rest / approach;
        if time > 1.0 {
            return None;
        }
    }
    let core: &dyn Shape = body.core.as_ref();
    let options = ShapeCastOptions {
        max_time_of_impact: 1.0,
        target_distance: gap + body.radius,
        stop_at_penetration: true,
        compute_impact_geometry_on_penetration: false,
    };
    let (other_pose, other) = (target.pose, target.shape);
    let hit =
        query::cast_shapes(pose, motion, core, other_pose, DVec3::ZERO, other, options).ok()??;
    if hit.time_of_impact > 0.0 {
        return Some(hit.time_of_impact * length);
    }
    let start = body.contact(pose, target, gap)?;
    blocked_at_start(body, pose, motion, target, gap, &start)
}

/// `Some(0.0)` when a motion that starts with `start`, a contact closer than `gap` (m), is
/// blocked at once (see [`sweep`]).
fn blocked_at_start(
    body: &Rounded,
    pose: &Pose,
    motion: DVec3,
    target: &Target,
    gap: f64,
    start: &Touch,
) -> Option<f64> {
    if start.dist >= gap {
        return None;
    }
    let length = motion.length();
    let moved = |distance: f64| {
        let at = Pose::from_parts(
            pose.translation + motion * (distance / length),
            pose.rotation,
        );
        body.contact(&at, target, 2.0 * gap)
    };
    if start.dist < 0.0 {
        let inside = moved(length)?;
        return (inside.dist < 0.0).then_some(0.0);
    }
    // Within the gap already: blocked only when a short step along the motion comes closer.
    // Distances decide, not the contact normal, which is arbitrary at an exact touch.
    let step = moved(gap.min(length))?;
    (step.dist < start.dist - 1e-3 * gap).then_some(0.0)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::segment::tests::Numbers;
    use parry3d_f64::query::PointQuery;
    use parry3d_f64::shape::{Capsule, Cuboid};

    /// Convex solids of every kind around the origin: a rotated box, a wedge, a rotated
    /// irregular hull, a triangle.
    fn solids() -> Vec<Solid> {
        let hull = |points: &[DVec3], pose: Pose| {
            let shape = SharedShape::convex_hull(points).expect("a hull");
            let primitive = Primitive::Hull { points: Vec::new() };
            let solid = Solid::convex(shape, pose, primitive);
            // Flat faces: the closed form applies.
            assert!(matches!(&solid.kind, SolidKind::Convex(_, faces) if !faces.is_empty()));
            solid
        };
        let wedge = [
            DVec3::new(-1.0, 0.0, 0.0),
            DVec3::new(1.0, 0.0, 0.0),
            DVec3::new(-1.0, 0.0, -1.0),
            DVec3::new(1.0, 0.0, -1.0),
            DVec3::new(-1.0, 1.2, -1.0),
            DVec3::new(1.0, 1.2, -1.0),
        ];
        let irregular = [
            DVec3::new(-0.7, -0.2, 0.1),
            DVec3::new(0.9, -0.3, -0.2),
            DVec3::new(0.2, -0.4, 0.8),
            DVec3::new(0.1, 0.6, 0.2),
            DVec3::new(-0.3, 0.4, -0.7),
            DVec3::new(0.6, 0.3, 0.5),
            DVec3::new(-0.5, 0.1, 0.6),
        ];
        let turned = |x, y, z| glam::DQuat::from_euler(glam::EulerRot::YXZ, x, y, z);
        let cuboid = SharedShape::new(Cuboid::new(DVec3::new(1.0, 0.3, 0.7)));
        let triangle = SharedShape::triangle(
            DVec3::new(-1.0, 0.0, -1.0),
            DVec3::new(1.0, 0.2, -1.0),
            DVec3::new(0.0, -0.1, 1.0),
        );
        let pose = |x, y, z, turn| Pose::from_parts(DVec3::new(x, y, z), turn);
        let primitive = || Primitive::Hull { points: Vec::new() };
        vec![
            Solid::convex(
                cuboid,
                pose(0.1, -0.3, 0.2, turned(0.4, 0.2, -0.1)),
                primitive(),
            ),
            hull(&wedge, Pose::IDENTITY),
            hull(&irregular, pose(0.3, 0.2, -0.4, turned(-0.7, 0.5, 0.3))),
            Solid::convex(triangle, Pose::IDENTITY, primitive()),
        ]
    }

    /// The solid as a target of queries.
    fn target(solid: &Solid) -> Target<'_> {
        match &solid.kind {
            SolidKind::Convex(shape, faces) => Target::new(&solid.pose, shape.as_ref(), faces),
            SolidKind::Mesh(_) => unreachable!("convex solids only"),
        }
    }

    /// The cast as parry runs it on the capsule itself (as the world did before it cast the
    /// cores), which [`sweep`] must agree with.
    fn parry_sweep(
        capsule: &Capsule,
        pose: &Pose,
        motion: DVec3,
        other_pose: &Pose,
        other: &dyn Shape,
        gap: f64,
    ) -> Option<f64> {
        let options = ShapeCastOptions {
            max_time_of_impact: 1.0,
            target_distance: gap,
            stop_at_penetration: true,
            compute_impact_geometry_on_penetration: false,
        };
        let hit = query::cast_shapes(
            pose,
            motion,
            capsule,
            other_pose,
            DVec3::ZERO,
            other,
            options,
        )
        .ok()??;
        Some(hit.time_of_impact * motion.length())
    }

    #[test]
    fn contacts_of_the_core_are_those_of_the_capsule() {
        let capsule = Capsule::new_y(0.5, 0.4);
        let body = Rounded::new(&SharedShape::new(capsule));
        let mut numbers = Numbers(0x2545_f491_4f6c_dd1d);
        let mut compared = 0;
        for _ in 0..20_000 {
            let pose = Pose::from_translation(numbers.vector(2.0));
            for solid in solids() {
                let target = target(&solid);
                let (other_pose, other) = (*target.pose, target.shape);
                let Some(touch) = body.contact(&pose, &target, 0.05) else {
                    continue;
                };
                let exact = query::contact(&pose, &capsule, &other_pose, other, 0.05)
                    .unwrap()
                    .expect("the capsule is as close as its core");
                if touch.exact && exact.dist > 1e-6 {
                    compared += 1;
                    // The point is on the solid and the closest to the core: its distance to
                    // the core is the contact's, along the normal. (Not always parry's point: a
                    // side parallel to a face has many.)
                    let on_solid = other.project_point(&other_pose, touch.point, false);
                    assert!(on_solid.point.distance(touch.point) < 1e-9, "{touch:?}");
                    let segment = capsule.segment.transformed(&pose);
                    let core = segment
                        .project_point(&Pose::IDENTITY, touch.point, true)
                        .point;
                    let between = touch.point - core;
                    assert!((between.length() - capsule.radius - touch.dist).abs() < 1e-9);
                    assert!(
                        touch.normal.distance(between.normalize()) < 1e-9,
                        "{touch:?}"
                    );
                    // The distance is the least over the segment's points (a convex function
                    // of the point's place along it: a ternary search finds it).
                    let along = |t: f64| {
                        let point = segment.a + (segment.b - segment.a) * t;
                        other.distance_to_point(&other_pose, point, true)
                    };
                    let (mut low, mut high) = (0.0, 1.0);
                    for _ in 0..200 {
                        let (a, b) = (low + (high - low) / 3.0, high - (high - low) / 3.0);
                        if along(a) < along(b) {
                            high = b;
                        } else {
                            low = a;
                        }
                    }
                    let least = along(0.5 * (low + high)) - capsule.radius;
                    assert!((least - touch.dist).abs() < 1e-9, "{touch:?}: {least}");
                    // GJK on the capsule itself (a rounded shape) stops early near a vertex or
                    // an edge: up to several micrometres further, its normal a little off.
                    let above = exact.dist - touch.dist;
                    assert!((-1e-12..1e-4).contains(&above), "{touch:?} {exact:?}");
                    assert!(
                        touch.normal.distance(exact.normal1) < 1e-2,
                        "{touch:?} {exact:?}"
                    );
                }
            }
        }
        assert!(compared > 1000, "only {compared} contacts compared");
    }

    #[test]
    fn the_advancement_stops_where_the_cast_of_the_capsule_does() {
        let capsule = Capsule::new_y(0.5, 0.4);
        let body = Rounded::new(&SharedShape::new(capsule));
        let gap = 1e-4;
        let mut numbers = Numbers(0x9e37_79b9_7f4a_7c15);
        let (mut hits, mut misses) = (0, 0);
        for round in 0..20_000 {
            let pose = Pose::from_translation(numbers.vector(2.0));
            let motion = numbers.vector(if round % 2 == 0 { 0.1 } else { 2.0 });
            for solid in solids() {
                let target = target(&solid);
                let (other_pose, other) = (*target.pose, target.shape);
                // Starts within the gap follow their own rule (see `blocked_at_start`).
                let start = query::contact(&pose, &capsule, &other_pose, other, gap + 1e-6);
                if start.unwrap().is_some() {
                    continue;
                }
                let ours = sweep(&body, &pose, motion, &target, gap);
                let theirs = parry_sweep(&capsule, &pose, motion, &other_pose, other, gap);
                match (ours, theirs) {
                    (Some(a), Some(b)) => {
                        hits += 1;
                        // Parry's ray cast on the rounded Minkowski difference stops up to about
                        // 1e-7 m of distance short of the gap (1e-6 m along a grazing motion).
                        assert!((a - b).abs() < 1e-5, "{pose:?} {motion}: {a} vs {b}");
                        // The advancement stops at the gap, never inside it.
                        let at = Pose::from_translation(
                            pose.translation + motion * (a / motion.length()),
                        );
                        let touch = body.contact(&at, &target, 1.0).unwrap();
                        assert!(
                            touch.dist >= gap - 1e-12
                                && touch.dist <= gap + 2.0 * ADVANCE_TOLERANCE,
                            "{touch:?}"
                        );
                    }
                    (None, None) => misses += 1,
                    // Grazing casts may end on either side of the motion's end.
                    (Some(a), None) | (None, Some(a)) => {
                        assert!(
                            (a - motion.length()).abs() < 1e-7,
                            "{pose:?} {motion}: {ours:?} vs {theirs:?}"
                        );
                    }
                }
            }
        }
        assert!(hits > 1000 && misses > 1000, "{hits} hits, {misses} misses");
    }
}
