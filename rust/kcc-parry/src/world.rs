//! The world of static solids, and the motion query that imitates Godot's `body_test_motion`
//! as Jolt implements it: recover, cast, collide.

use glam::{DVec3, Vec3};
use parry3d_f64::bounding_volume::{Aabb, BoundingVolume};
use parry3d_f64::math::Pose;
use parry3d_f64::query::Contact;
use parry3d_f64::shape::{Shape, SharedShape};

use crate::solid::Solid;

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

/// A body's shape as the motion query sees it: parry shape plus the offset from the body's
/// origin to the shape's centre.
#[derive(Clone)]
pub struct BodyShape {
    pub(crate) shape: SharedShape,
    pub(crate) center: DVec3,
}

impl BodyShape {
    fn pose(&self, origin: DVec3) -> Pose {
        Pose::from_translation(origin + self.center)
    }

    fn aabb(&self, origin: DVec3) -> Aabb {
        self.shape.compute_aabb(&self.pose(origin))
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
        self.contacts(shape, origin.as_dvec3(), 0.0, &mut |c| {
            deepest = deepest.max(-c.dist)
        });
        deepest as f32
    }

    fn contacts(
        &self,
        shape: &BodyShape,
        origin: DVec3,
        prediction: f64,
        found: &mut impl FnMut(Contact),
    ) {
        let pose = shape.pose(origin);
        let aabb = shape.aabb(origin);
        let body: &dyn Shape = shape.shape.as_ref();
        for solid in &self.solids {
            solid.contacts(body, &pose, &aabb, prediction, found);
        }
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
        for _ in 0..RECOVERY_ITERATIONS {
            contacts.clear();
            self.contacts(shape, from + recovery, margin, &mut |c| contacts.push(c));
            if contacts.is_empty() {
                break;
            }
            recovered = true;
            let mut push = DVec3::ZERO;
            for contact in &contacts {
                if !self.normal_is_sound(shape, from + recovery, contact) {
                    continue;
                }
                let axis = contact.normal1;
                let depth = margin - contact.dist + axis.dot(push);
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

    /// At an exact touch, distance queries return an arbitrary normal. A sound normal moves
    /// the shape away when followed: check it by stepping back along it.
    fn normal_is_sound(&self, shape: &BodyShape, origin: DVec3, contact: &Contact) -> bool {
        if contact.dist.abs() > TOUCH_DISTANCE {
            return true;
        }
        let back = origin - contact.normal1 * CAST_GAP;
        let mut farther = false;
        self.contacts(shape, back, 2.0 * CAST_GAP, &mut |c| {
            if c.point2.distance(contact.point2) < 10.0 * CAST_GAP {
                farther |= c.dist > contact.dist + 0.5 * CAST_GAP;
            }
        });
        farther
    }

    /// The normal (from the solid toward the body) of a contact found at `origin`. At an exact
    /// touch the query's normal is arbitrary, so it is measured again a cast gap back along the
    /// motion, where the shapes are apart; `None` when even that cannot tell.
    fn contact_normal(
        &self,
        shape: &BodyShape,
        origin: DVec3,
        direction: DVec3,
        contact: &Contact,
    ) -> Option<DVec3> {
        if contact.dist.abs() > TOUCH_DISTANCE {
            return Some(-contact.normal1);
        }
        if direction == DVec3::ZERO {
            return None;
        }
        let mut normal = None;
        let mut nearest = f64::MAX;
        self.contacts(
            shape,
            origin - direction * CAST_GAP,
            2.0 * CAST_GAP,
            &mut |c| {
                let near = c.point2.distance(contact.point2);
                if c.dist > TOUCH_DISTANCE && near < nearest {
                    nearest = near;
                    normal = Some(-c.normal1);
                }
            },
        );
        normal
    }

    /// `Some((safe, unsafe))` fractions of `motion` when the cast touches something: safe
    /// stops [`CAST_GAP`] from the surface, unsafe is about where it would touch.
    fn cast(&self, shape: &BodyShape, start: DVec3, motion: DVec3) -> Option<(f64, f64)> {
        let pose = shape.pose(start);
        let swept = shape.aabb(start).merged(&shape.aabb(start + motion));
        let body: &dyn Shape = shape.shape.as_ref();
        let distance = self
            .solids
            .iter()
            .filter_map(|solid| solid.cast(body, &pose, &swept, motion, CAST_GAP))
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
        let mut found = Vec::new();
        self.contacts(shape, origin, margin, &mut |c| found.push(c));
        let mut collisions = Vec::new();
        for c in found {
            let depth = margin - c.dist;
            let Some(normal) = self.contact_normal(shape, origin, direction, &c) else {
                continue;
            };
            if depth <= 0.0 || !normal.is_finite() {
                continue;
            }
            if direction != DVec3::ZERO && direction.dot(normal) >= -f64::from(CMP_EPSILON) {
                continue;
            }
            collisions.push(MotionCollision {
                point: c.point2.as_vec3(),
                normal: normal.as_vec3(),
                depth: depth as f32,
            });
        }
        collisions.sort_by(|a, b| b.depth.total_cmp(&a.depth));
        collisions.truncate(max_collisions.max(1));
        collisions
    }
}
