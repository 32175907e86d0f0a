//! The world of static solids, and the motion query that imitates Godot's `body_test_motion`
//! as Jolt implements it: recover, cast, collide.

use glam::{DVec3, Vec3};
use parry3d_f64::bounding_volume::{Aabb, BoundingVolume};
use parry3d_f64::math::Pose;
use parry3d_f64::shape::SharedShape;

use crate::solid::{Rounded, Solid, Touch};

/// Recovery passes before a cast (Jolt's `motion_queries/recovery_iterations`).
pub const RECOVERY_ITERATIONS: usize = 4;
/// Share of each penetration undone per recovery pass (Jolt's `recovery_amount`).
pub const RECOVERY_AMOUNT: f64 = 0.4;
/// How far from the first touch a blocked cast stops, m. Jolt's bisection stops within about
/// 1 mm of it; conservative advancement stops this far from the surface instead.
pub const CAST_GAP: f64 = 1e-4;
/// Closer than this the shapes count as touching, and a contact normal must be checked, m.
pub const TOUCH_DISTANCE: f64 = 1e-7;
/// Godot's `CMP_EPSILON`.
pub const CMP_EPSILON: f32 = 1e-5;

/// Static geometry the character moves through.
#[derive(Clone, Default)]
pub struct World {
    solids: Vec<Solid>,
}

/// What a motion test asks (Godot's `PhysicsServer3D::MotionParameters`).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct MotionParameters {
    /// Where the body's origin starts, m.
    pub from: Vec3,
    /// Requested motion, m.
    pub motion: Vec3,
    /// Safe margin, m.
    pub margin: f32,
    /// Most contacts to report.
    pub max_collisions: usize,
    /// Report contacts found only by the recovery as a collision.
    pub recovery_as_collision: bool,
}

/// One contact of a motion result (Godot's `MotionCollision`).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct MotionCollision {
    /// Contact point on the solid, m.
    pub point: Vec3,
    /// Unit normal from the solid toward the body.
    pub normal: Vec3,
    /// Overlap of the margin-grown shape with the solid, m.
    pub depth: f32,
}

/// What a motion test found (Godot's `PhysicsServer3D::MotionResult`).
#[derive(Debug, Clone, PartialEq)]
pub struct MotionResult {
    /// Recovery plus the safe part of the motion, m.
    pub travel: Vec3,
    /// The motion minus its safe part, m.
    pub remainder: Vec3,
    /// Contacts at the stopping point, deepest first.
    pub collisions: Vec<MotionCollision>,
    /// Largest fraction of the motion known to be free.
    pub safe_fraction: f32,
    /// Smallest fraction of the motion known to touch.
    pub unsafe_fraction: f32,
}

impl MotionResult {
    /// True when the motion reported a collision.
    pub fn collided(&self) -> bool {
        !self.collisions.is_empty()
    }
}

/// A body's shape as the motion query sees it: a core grown by a radius (a capsule is its
/// segment grown by its radius), its bounds, and the offset from the body's origin to the
/// shape's centre.
#[derive(Clone)]
pub struct BodyShape {
    rounded: Rounded,
    center: DVec3,
    /// Bounds of the shape around its centre, m.
    local_aabb: Aabb,
}

impl BodyShape {
    /// `shape` with its centre `center` (m) above the body's origin.
    pub(crate) fn new(shape: SharedShape, center: DVec3) -> Self {
        Self {
            rounded: Rounded::new(&shape),
            center,
            local_aabb: shape.compute_local_aabb(),
        }
    }

    fn pose(&self, origin: DVec3) -> Pose {
        Pose::from_translation(origin + self.center)
    }

    fn aabb(&self, origin: DVec3) -> Aabb {
        let center = origin + self.center;
        Aabb::new(self.local_aabb.mins + center, self.local_aabb.maxs + center)
    }
}

impl World {
    /// An empty world (no floor: a body falls forever).
    pub fn new() -> Self {
        Self::default()
    }

    /// Adds a solid.
    pub fn add(&mut self, solid: Solid) -> &mut Self {
        self.solids.push(solid);
        self
    }

    /// Adds several solids.
    pub fn extend(&mut self, solids: impl IntoIterator<Item = Solid>) -> &mut Self {
        self.solids.extend(solids);
        self
    }

    /// The solids, in the order they were added.
    pub fn solids(&self) -> &[Solid] {
        &self.solids
    }

    /// Deepest overlap of `shape` at `origin` with any solid, m (0 when it touches nothing).
    pub fn penetration(&self, shape: &BodyShape, origin: Vec3) -> f32 {
        let mut deepest = 0.0f64;
        let origin = origin.as_dvec3();
        let mut found = Vec::new();
        self.contacts(shape, origin, 0.0, &mut |index, c| found.push((index, c)));
        for (index, c) in found {
            if let Some((_, dist)) = self.trusted(index, shape, origin, &c, DVec3::ZERO) {
                deepest = deepest.max(-dist);
            }
        }
        deepest as f32
    }

    /// Calls `found` with the index of the solid and each contact closer than `prediction`.
    fn contacts(
        &self,
        shape: &BodyShape,
        origin: DVec3,
        prediction: f64,
        found: &mut impl FnMut(usize, Touch),
    ) {
        let pose = shape.pose(origin);
        let aabb = shape.aabb(origin);
        for (index, solid) in self.solids.iter().enumerate() {
            solid.contacts(&shape.rounded, &pose, &aabb, prediction, &mut |c| {
                found(index, c)
            });
        }
    }

    /// Contacts with one solid closer than `prediction`.
    fn solid_contacts(
        &self,
        index: usize,
        shape: &BodyShape,
        origin: DVec3,
        prediction: f64,
        found: &mut impl FnMut(Touch),
    ) {
        let pose = shape.pose(origin);
        let aabb = shape.aabb(origin);
        self.solids[index].contacts(&shape.rounded, &pose, &aabb, prediction, found);
    }

    /// The contact with solid `index` nearest to `point` (m) closer than `prediction`.
    fn nearest_contact(
        &self,
        index: usize,
        shape: &BodyShape,
        origin: DVec3,
        prediction: f64,
        point: DVec3,
    ) -> Option<Touch> {
        let mut nearest: Option<Touch> = None;
        self.solid_contacts(index, shape, origin, prediction, &mut |c| {
            let closer = nearest
                .as_ref()
                .is_none_or(|n| c.point.distance(point) < n.point.distance(point));
            if closer {
                nearest = Some(c);
            }
        });
        nearest
    }

    /// The normal (from the body toward solid `index`) and signed distance (m) of a contact
    /// found at `origin`, when they can be trusted. Contacts whose cores are apart are exact
    /// (a capsule a little inside a solid too: its segment is still apart). At an exact touch
    /// of the cores the query's normal is arbitrary, and a contact that claims a penetration
    /// may be a touch misread (measured
    /// here: "2.8 m deep, out through the far side" for a capsule resting on a floor box): it is
    /// trusted only if it is stable under a small step along it. Otherwise the normal is
    /// measured again a gap away (along `retreat` first, then along the reported normal and
    /// the axes), where the shapes are apart; `None` when no step separates them.
    fn trusted(
        &self,
        index: usize,
        shape: &BodyShape,
        origin: DVec3,
        contact: &Touch,
        retreat: DVec3,
    ) -> Option<(DVec3, f64)> {
        if contact.exact {
            return Some((contact.normal, contact.dist));
        }
        if contact.dist < -TOUCH_DISTANCE {
            // A minimal way out is stable: a gap's step along it leaves the same normal and a
            // gap less depth. A misread touch (a way out through the far side) is not.
            let out = origin - contact.normal * CAST_GAP;
            let check = self.nearest_contact(index, shape, out, CAST_GAP, contact.point);
            let stable = check.is_some_and(|c| {
                c.normal.dot(contact.normal) > 0.99
                    && (c.dist - (contact.dist + CAST_GAP)).abs() < 0.25 * CAST_GAP
            });
            if stable {
                return Some((contact.normal, contact.dist));
            }
        }
        // Step a gap away (first along the given retreat, then along the reported normal and
        // the axes) until the shapes are apart, and measure the normal there.
        let candidates = [
            retreat,
            -contact.normal * CAST_GAP,
            DVec3::Y * CAST_GAP,
            DVec3::NEG_Y * CAST_GAP,
            DVec3::X * CAST_GAP,
            DVec3::NEG_X * CAST_GAP,
            DVec3::Z * CAST_GAP,
            DVec3::NEG_Z * CAST_GAP,
        ];
        candidates
            .into_iter()
            .filter(|step| *step != DVec3::ZERO && step.is_finite())
            .find_map(|step| {
                let away = self.nearest_contact(
                    index,
                    shape,
                    origin + step,
                    2.0 * CAST_GAP,
                    contact.point,
                )?;
                // Moving the body by `step` changed the distance by `-step . normal`.
                let dist = away.dist + step.dot(away.normal);
                (away.dist > 0.5 * CAST_GAP).then_some((away.normal, dist))
            })
    }

    /// Tests a motion of the body's shape with Godot's semantics (see `GODOT_SEMANTICS.md`):
    /// 1. recover out of overlaps within the margin, 2. cast the motion without margin,
    /// 3. collide at the first touching fraction with the margin. Never moves anything.
    pub fn test_motion(&self, shape: &BodyShape, params: &MotionParameters) -> MotionResult {
        let margin = f64::from(params.margin).max(2.0 * CAST_GAP);
        let from = params.from.as_dvec3();
        let motion = params.motion.as_dvec3();
        let (recovery, recovered) = self.recover(shape, from, margin);
        let start = from + recovery;
        let cast = self.cast(shape, start, motion);
        let safe_fraction = cast.map_or(1.0, |(safe, _)| safe);
        let unsafe_fraction = cast.map_or(1.0, |(_, unsafe_)| unsafe_);
        // Jolt collides at the first overlapping fraction; here contacts are gathered at the
        // safe fraction, CAST_GAP from the surface, where distance queries are exact.
        let collisions = if cast.is_some() || (recovered && params.recovery_as_collision) {
            self.collide(
                shape,
                start + motion * safe_fraction,
                motion,
                margin,
                params.max_collisions,
            )
        } else {
            Vec::new()
        };
        if collisions.is_empty() {
            return MotionResult {
                travel: (recovery + motion).as_vec3(),
                remainder: Vec3::ZERO,
                collisions,
                safe_fraction: 1.0,
                unsafe_fraction: 1.0,
            };
        }
        let safe = motion * safe_fraction;
        MotionResult {
            travel: (recovery + safe).as_vec3(),
            remainder: (motion - safe).as_vec3(),
            collisions,
            safe_fraction: safe_fraction as f32,
            unsafe_fraction: unsafe_fraction as f32,
        }
    }

    /// Pushes the shape out of everything closer than the margin, a share at a time.
    fn recover(&self, shape: &BodyShape, from: DVec3, margin: f64) -> (DVec3, bool) {
        let mut recovery = DVec3::ZERO;
        let mut recovered = false;
        let mut contacts = Vec::new();
        for pass in 0..RECOVERY_ITERATIONS {
            contacts.clear();
            let at = from + recovery;
            self.contacts(shape, at, margin, &mut |index, c| contacts.push((index, c)));
            if contacts.is_empty() {
                break;
            }
            recovered = true;
            if let [(index, touch)] = contacts[..]
                && let Some(rest) = self.recover_alone(shape, at, margin, index, &touch, pass)
            {
                return (recovery + rest, true);
            }
            let mut push = DVec3::ZERO;
            for (index, contact) in &contacts {
                let Some((axis, dist)) = self.trusted(*index, shape, at, contact, DVec3::ZERO)
                else {
                    continue;
                };
                let depth = margin - dist + axis.dot(push);
                if depth > 0.0 {
                    push -= axis * depth * RECOVERY_AMOUNT;
                }
            }
            if push == DVec3::ZERO || !push.is_finite() {
                break;
            }
            recovery += push;
        }
        (recovery, recovered)
    }

    /// The passes from `pass` on, without querying again, when `touch` (at `at`, with convex
    /// solid `index`) is the only contact and no other solid is near the way out: each pass
    /// then pushes straight away from that solid, and moving a shape by `d` along the normal
    /// of an exact contact moves it exactly `d` further away, along the same normal.
    fn recover_alone(
        &self,
        shape: &BodyShape,
        at: DVec3,
        margin: f64,
        index: usize,
        touch: &Touch,
        pass: usize,
    ) -> Option<DVec3> {
        if !touch.exact || !self.solids[index].is_convex() {
            return None;
        }
        let mut rest = DVec3::ZERO;
        let mut dist = touch.dist;
        for _ in pass..RECOVERY_ITERATIONS {
            let depth = margin - dist;
            if depth <= 0.0 {
                break;
            }
            rest -= touch.normal * depth * RECOVERY_AMOUNT;
            dist += depth * RECOVERY_AMOUNT;
        }
        let way = shape
            .aabb(at)
            .merged(&shape.aabb(at + rest))
            .loosened(margin);
        let near = |(i, solid): (usize, &Solid)| i != index && solid.aabb().intersects(&way);
        (rest.is_finite() && !self.solids.iter().enumerate().any(near)).then_some(rest)
    }

    /// `Some((safe, unsafe))` fractions of `motion` when the cast touches something: safe
    /// stops [`CAST_GAP`] from the surface, unsafe is about where it would touch.
    fn cast(&self, shape: &BodyShape, start: DVec3, motion: DVec3) -> Option<(f64, f64)> {
        let pose = shape.pose(start);
        let swept = shape.aabb(start).merged(&shape.aabb(start + motion));
        let distance = self
            .solids
            .iter()
            .filter_map(|solid| solid.cast(&shape.rounded, &pose, &swept, motion, CAST_GAP))
            .reduce(f64::min)?;
        let length = motion.length();
        if length <= 0.0 {
            return Some((0.0, 0.0));
        }
        let safe = (distance / length).clamp(0.0, 1.0);
        Some((safe, (safe + CAST_GAP / length).min(1.0)))
    }

    /// Contacts within the margin at `origin` that oppose the motion, deepest first.
    fn collide(
        &self,
        shape: &BodyShape,
        origin: DVec3,
        motion: DVec3,
        margin: f64,
        max_collisions: usize,
    ) -> Vec<MotionCollision> {
        let direction = motion.normalize_or_zero();
        let retreat = -direction * CAST_GAP;
        let mut collisions = Vec::new();
        self.contacts(shape, origin, margin, &mut |index, c| {
            let Some((towards, dist)) = self.trusted(index, shape, origin, &c, retreat) else {
                return;
            };
            let depth = margin - dist;
            let normal = -towards;
            if depth <= 0.0 || !normal.is_finite() {
                return;
            }
            if direction != DVec3::ZERO && direction.dot(normal) >= -f64::from(CMP_EPSILON) {
                return;
            }
            collisions.push(MotionCollision {
                point: c.point.as_vec3(),
                normal: normal.as_vec3(),
                depth: depth as f32,
            });
        });
        collisions.sort_by(|a, b| b.depth.total_cmp(&a.depth));
        collisions.truncate(max_collisions.max(1));
        collisions
    }
}
