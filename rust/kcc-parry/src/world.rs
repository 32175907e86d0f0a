//! The world of static solids, and the motion query that imitates Godot's `body_test_motion`
//! as Jolt implements it (`modules/jolt_physics/spaces/jolt_physics_direct_space_state_3d.cpp`):
//! recover, cast, collide.
//!
//! The cast imitates Jolt's binary search (`_cast_motion_impl`) rather than stopping at the
//! exact touch, because where a blocked motion stops decides the travel, where contacts are
//! gathered and so their normal and depth, and where the body rests for the next query (and
//! thus its recovery). Per solid (a Jolt body), Jolt bisects the motion's fraction with a swept
//! shape: "collides at f" means the shape swept from the start to f touches or overlaps the
//! solid, which is exactly "f is at least the fraction of the first touch". Here that fraction
//! is computed exactly ([`Solid`]'s first touch, on exact distances), and Jolt's bisection is
//! run on it ([`bisect`]), in f32 as in Godot's single-precision build. The motion's safe and
//! unsafe fractions are those of the solid with the smallest safe fraction; contacts are
//! gathered where Jolt gathers them, at the unsafe fraction (the shapes overlap there a little),
//! and the travel is the recovery plus the motion times the safe fraction: up to the
//! bisection's last step short of the touch, never past it.
//!
//! Why contacts are gathered at the unsafe fraction: the simulator's `test_move`s of the public
//! course (about 208,000, at four rates, with margins 0.04 and 0, from the places two versions
//! of this world put the body) replayed in a real Godot 4.6 with Jolt agree with it on the
//! collided flag for all but 2, with normals within a quarter of a degree; travel and depth
//! agree to a micrometre but where Jolt's f32 geometry puts a fraction tried on the other side
//! of the touch (the two searches then end a step apart: up to 2.3 mm of travel). Gathered at
//! the safe fraction instead (up to a step of the search, a millimetre or more, before the
//! touch), 1.1 to 2.5 % of the flags differed (a safe fraction further than the margin from the
//! surface finds no contact), normals up to 62 degrees off (at a riser's edge the tread was
//! reported instead of the edge Jolt finds deepest) and depths up to 2.8 mm. The overlap at the
//! unsafe fraction is at most a step of the search: a capsule's core, or the core of a rounded
//! solid, stays clear of it, and its distance stays exact.
//!
//! Shortcuts give the same answers with fewer distance queries (the course's traces are the
//! same to the last digit with and without them, 2026-12-02): the recovery's later passes are
//! worked out from a pass's contacts when every one is with the inside of a face of a convex
//! solid, or one contact is alone, and nothing else can come within the margin on the way out
//! (moving the body then changes each distance exactly as the distance to the face's plane, or
//! along the lone contact's normal; `World::recover`), and the cast casts each solid, and each
//! triangle of a mesh, only as far as the first touch found before it (`solid::up_to`).
//!
//! Jolt's quirks come with the imitation, as they would in Godot: a touch beyond the last
//! fraction tried is missed (the whole motion is made, ending inside by less than a step), and
//! a motion whose one kept contact (`max_collisions` 1, as `test_move`) does not oppose it
//! counts as free, even when the cast touched something further on.

use glam::{DVec3, Vec3};
use kcc::{Contact, MotionTest};
use parry3d_f64::bounding_volume::{Aabb, BoundingVolume};
use parry3d_f64::math::Pose;
use parry3d_f64::shape::SharedShape;

use crate::movable::Movable;
use crate::platform::{Platform, PlatformMotion};
use crate::solid::{self, MeshContacts, Rounded, Solid, Touch};

/// Recovery passes before a cast (Jolt's `motion_queries/recovery_iterations`).
pub const RECOVERY_ITERATIONS: usize = 4;
/// Share of each penetration undone per recovery pass (Jolt's `recovery_amount`).
pub const RECOVERY_AMOUNT: f64 = 0.4;
/// Step (m) by which a contact whose normal cannot be trusted is measured again away from the
/// solid (see `World::trusted`).
pub const CAST_GAP: f64 = 1e-4;
/// Smallest safe margin of a motion test, m (Jolt's `body_test_motion`: `MAX(margin, 0.0001)`).
pub const MIN_MARGIN: f64 = 1e-4;
/// Fewest steps of Jolt's binary search over a motion's fraction.
pub const MIN_BISECTION_STEPS: u32 = 4;
/// Most steps of Jolt's binary search over a motion's fraction.
pub const MAX_BISECTION_STEPS: u32 = 16;
/// Closer than this the shapes count as touching, and a contact normal must be checked, m.
pub const TOUCH_DISTANCE: f64 = 1e-7;
/// Godot's `CMP_EPSILON`.
pub const CMP_EPSILON: f32 = 1e-5;

/// Steps of Jolt's binary search for a motion of `motion_length` (m), as `_cast_motion_impl`
/// counts them for about a millimetre of precision: `clamp(int(log2(1000 x length)), 4, 16)`,
/// in f32, the logarithm truncated toward zero (so 4 up to 32 mm, 10 for 1.5 m, 16 from
/// 65.5 m).
pub fn bisection_steps(motion_length: f32) -> u32 {
    let log2 = (1000.0 * motion_length).ln() / std::f32::consts::LN_2;
    // `as` truncates toward zero like C++'s `int()` (and saturates: -inf for a motion of 0,
    // NaN to 0).
    (log2 as i32).clamp(MIN_BISECTION_STEPS as i32, MAX_BISECTION_STEPS as i32) as u32
}

/// What Jolt's binary search over a motion's fraction finds against one solid.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Bisection {
    /// The largest fraction tried that does not touch (0 when none): Jolt's `lo`.
    pub safe: f32,
    /// The smallest fraction tried that touches (1 when none): Jolt's `hi`.
    pub unsafe_fraction: f32,
    /// True when any fraction tried touches (Jolt's `collided`): false when the touch lies
    /// beyond the last fraction tried, and the motion is then reported free.
    pub hit: bool,
}

/// Jolt's binary search (`_cast_motion_impl`, per body) over the fraction of a motion, for a
/// solid that the whole motion touches first at fraction `touch` (0 to 1): `steps` times (see
/// [`bisection_steps`]), try `f = lo + (hi - lo) x coeff` (f32); f touches when `f >= touch`
/// and becomes `hi`, otherwise `lo`. `coeff` is 0.5 after the first try, and while one end
/// has not moved yet it is 0.25 after a touch (toward 0) and 0.75 after a miss (toward 1).
pub fn bisect(touch: f64, steps: u32) -> Bisection {
    let (mut lo, mut hi, mut coeff) = (0.0f32, 1.0f32, 0.5f32);
    let mut hit = false;
    for j in 0..steps {
        let fraction = lo + (hi - lo) * coeff;
        if f64::from(fraction) >= touch {
            hit = true;
            hi = fraction;
            coeff = if j == 0 || lo > 0.0 { 0.5 } else { 0.25 };
        } else {
            lo = fraction;
            coeff = if j == 0 || hi < 1.0 { 0.5 } else { 0.75 };
        }
    }
    Bisection {
        safe: lo,
        unsafe_fraction: hi,
        hit,
    }
}

/// The geometry the character moves through: static solids, and platforms that move with time
/// (each is also one of the solids, placed where its motion has taken it at [`World::time`]).
#[derive(Clone, Default)]
pub struct World {
    solids: Vec<Solid>,
    platforms: Vec<Platform>,
    movables: Vec<Movable>,
    /// Which solids are other characters, in the order they were added.
    characters: Vec<usize>,
    /// Time of the platforms' places, s.
    time: f64,
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
    /// A solid the motion ignores (Godot's `exclude_bodies`: the platform a body is carried
    /// by), by index.
    pub exclude: Option<usize>,
}

/// What a motion query's recovery did: the push out of what lay within the margin of its start
/// (m), and whether there was any (see [`World::test_motion`]).
pub(crate) type Recovery = (DVec3, bool);

/// One contact of a motion result (Godot's `MotionCollision`).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct MotionCollision {
    /// Contact point on the solid, m.
    pub point: Vec3,
    /// Unit normal from the solid toward the body.
    pub normal: Vec3,
    /// Overlap of the margin-grown shape with the solid, m.
    pub depth: f32,
    /// Index of the solid touched.
    pub collider: usize,
    /// Velocity of the touched solid at the contact point, m/s (0 for a static solid).
    pub collider_velocity: Vec3,
}

/// What a motion test found (Godot's `PhysicsServer3D::MotionResult`).
#[derive(Debug, Clone, PartialEq)]
pub struct MotionResult {
    /// Recovery plus the safe part of the motion, m.
    pub travel: Vec3,
    /// The motion minus its safe part, m.
    pub remainder: Vec3,
    /// Contacts where the cast first touched (the unsafe fraction), deepest first.
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

    /// The port's view of it in `world` (the world it was asked of): travel, remainder and
    /// the deepest contact, movable when its solid is a rigid body or another character.
    pub fn motion_test(&self, world: &World) -> MotionTest {
        MotionTest {
            travel: self.travel,
            remainder: self.remainder,
            contact: self.collisions.first().map(|c| Contact {
                normal: c.normal,
                point: c.point,
                depth: c.depth,
                movable: world.movable_of(c.collider).is_some() || world.is_character(c.collider),
            }),
        }
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
    /// A character's `shape` with its centre `center` (m) above the body's origin, rounded as
    /// Jolt rounds it for a `Shape3D.margin` of `margin` (m; see [`Rounded::character`]; sharp
    /// with a margin of 0).
    pub(crate) fn character(shape: SharedShape, margin: f32, center: DVec3) -> Self {
        Self {
            rounded: Rounded::character(&shape, margin),
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

    /// The solids, in the order they were added, platforms where they are at [`World::time`].
    pub fn solids(&self) -> &[Solid] {
        &self.solids
    }

    /// Adds a platform: `solid` is where it is at time 0, and `motion` carries it.
    pub fn add_platform(&mut self, solid: Solid, motion: PlatformMotion) -> &mut Self {
        let index = self.solids.len();
        self.solids.push(solid.moved(&motion.placement(self.time)));
        self.platforms.push(Platform {
            index,
            rest: solid,
            motion,
        });
        self
    }

    /// The platforms, in the order they were added.
    pub fn platforms(&self) -> &[Platform] {
        &self.platforms
    }

    /// Time of the platforms' places, s.
    pub fn time(&self) -> f64 {
        self.time
    }

    /// Puts every platform where its motion has taken it at time `t` (s).
    pub fn set_time(&mut self, t: f64) {
        self.time = t;
        for platform in &self.platforms {
            self.solids[platform.index] = platform.rest.moved(&platform.motion.placement(t));
        }
    }

    /// Adds a body the engine simulates: `solid` is where it starts, its centre of mass at
    /// `center` (m), of `mass` (kg), moving at `velocity` (m/s).
    pub fn add_movable(
        &mut self,
        solid: Solid,
        center: Vec3,
        mass: f32,
        velocity: Vec3,
    ) -> &mut Self {
        let index = self.solids.len();
        self.solids.push(solid.clone());
        self.movables.push(Movable {
            index,
            rest: solid,
            center,
            mass,
            placement: Pose::from_translation(DVec3::ZERO),
            velocity,
            angular_velocity: Vec3::ZERO,
        });
        self
    }

    /// Adds another character (a `CharacterBody3D` the body meets: it blocks it as a wall
    /// does): `shape` with its bottom at `bottom` (m). Returns its place among
    /// [`World::characters`].
    pub fn add_character(
        &mut self,
        shape: crate::CharacterShape,
        bottom: Vec3,
    ) -> Result<usize, crate::GeometryError> {
        let solid = crate::geometry::character(shape, bottom)?;
        self.characters.push(self.solids.len());
        self.solids.push(solid);
        Ok(self.characters.len() - 1)
    }

    /// The other characters' solids: their indices among [`World::solids`], in the order they
    /// were added.
    pub fn characters(&self) -> &[usize] {
        &self.characters
    }

    /// True when solid `index` is another character.
    pub fn is_character(&self, index: usize) -> bool {
        self.characters.contains(&index)
    }

    /// Puts other character `which` (of [`World::characters`]) with its bottom at `bottom`
    /// (m), where its own tick took it. A place that is not finite changes nothing.
    pub fn place_character(&mut self, which: usize, bottom: Vec3) {
        let Some(&index) = self.characters.get(which) else {
            return;
        };
        let crate::Primitive::Character { shape, .. } = *self.solids[index].primitive() else {
            return;
        };
        if let Ok(solid) = crate::geometry::character(shape, bottom) {
            self.solids[index] = solid;
        }
    }

    /// The bodies the engine simulates, in the order they were added.
    pub fn movables(&self) -> &[Movable] {
        &self.movables
    }

    /// The body the engine simulates that solid `index` is, if it is one.
    pub fn movable_of(&self, index: usize) -> Option<&Movable> {
        self.movables.iter().find(|m| m.index == index)
    }

    /// Puts body `which` (of [`World::movables`]) where a simulation has taken it: its centre
    /// of mass at `center` (m) turned by `rotation` from where it started, moving at
    /// `velocity` (m/s) and turning at `angular_velocity` (rad/s).
    pub fn place_movable(
        &mut self,
        which: usize,
        center: Vec3,
        rotation: glam::DQuat,
        velocity: Vec3,
        angular_velocity: Vec3,
    ) {
        let Some(movable) = self.movables.get_mut(which) else {
            return;
        };
        movable.placement = movable.placement_for(center, rotation);
        movable.velocity = velocity;
        movable.angular_velocity = angular_velocity;
        self.solids[movable.index] = movable.rest.moved(&movable.placement);
    }

    /// Velocity of solid `index` at `point` (m) now, m/s: 0 for a static solid.
    pub fn velocity_at(&self, index: usize, point: Vec3) -> Vec3 {
        if let Some(movable) = self.movable_of(index) {
            return movable.velocity_at(point);
        }
        self.platforms
            .iter()
            .find(|p| p.index == index)
            .map_or(Vec3::ZERO, |p| p.motion.velocity_at(self.time, point))
    }

    /// Deepest overlap of `shape` at `origin` with any solid, m (0 when it touches nothing).
    pub fn penetration(&self, shape: &BodyShape, origin: Vec3) -> f32 {
        let mut deepest = 0.0f64;
        let origin = origin.as_dvec3();
        let mut found = Vec::new();
        self.contacts(shape, origin, 0.0, None, &mut |index, c| {
            found.push((index, c))
        });
        for (index, c) in found {
            if let Some((_, dist)) = self.trusted(index, shape, origin, &c, DVec3::ZERO) {
                deepest = deepest.max(-dist);
            }
        }
        deepest as f32
    }

    /// Calls `found` with the index of the solid and each contact closer than `prediction`
    /// that a query answers, leaving out solid `exclude`.
    fn contacts(
        &self,
        shape: &BodyShape,
        origin: DVec3,
        prediction: f64,
        exclude: Option<usize>,
        found: &mut impl FnMut(usize, Touch),
    ) {
        let reach = (prediction, MeshContacts::Kept);
        self.contacts_as(shape, origin, reach, exclude, found);
    }

    /// [`World::contacts`] closer than `reach.0` (m), of a mesh those `reach.1` says.
    fn contacts_as(
        &self,
        shape: &BodyShape,
        origin: DVec3,
        reach: (f64, MeshContacts),
        exclude: Option<usize>,
        found: &mut impl FnMut(usize, Touch),
    ) {
        let pose = shape.pose(origin);
        let aabb = shape.aabb(origin);
        for (index, solid) in self.solids.iter().enumerate() {
            if Some(index) == exclude {
                continue;
            }
            solid.contacts(&shape.rounded, &pose, &aabb, reach, &mut |c| {
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
        let reach = (prediction, MeshContacts::Kept);
        self.solids[index].contacts(&shape.rounded, &pose, &aabb, reach, found);
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

    /// Tests a motion of the body's shape with Godot's semantics on Jolt (see the module and
    /// `GODOT_SEMANTICS.md`): 1. recover out of overlaps within the margin, 2. cast the motion
    /// without margin by Jolt's binary search ([`bisect`]), 3. when it touched (or recovered,
    /// with `recovery_as_collision`), collide at the unsafe fraction with the margin, keeping
    /// the contacts that oppose the motion. Collided: travel = recovery + motion x safe
    /// fraction. Otherwise (no contact kept) the whole motion is made. A start touching or
    /// overlapping a solid touches it at fraction 0, whatever the motion; a motion away from it
    /// is then free by the direction filter. Never moves anything.
    pub fn test_motion(&self, shape: &BodyShape, params: &MotionParameters) -> MotionResult {
        self.test_motion_recovered(shape, params, self.recovery(shape, params))
    }

    /// The first step of [`World::test_motion`] for `params`: the push out of what lies within
    /// the margin of the start (m), and whether there was any. It depends only on the world,
    /// the shape, the start, the margin and the excluded solid.
    pub(crate) fn recovery(&self, shape: &BodyShape, params: &MotionParameters) -> Recovery {
        let margin = f64::from(params.margin).max(MIN_MARGIN);
        self.recover(shape, params.from.as_dvec3(), margin, params.exclude)
    }

    /// [`World::test_motion`] from its first step's answer, `recovery` (what
    /// [`World::recovery`] answers for the same shape and `params`).
    pub(crate) fn test_motion_recovered(
        &self,
        shape: &BodyShape,
        params: &MotionParameters,
        (recovery, recovered): Recovery,
    ) -> MotionResult {
        let margin = f64::from(params.margin).max(MIN_MARGIN);
        let from = params.from.as_dvec3();
        let motion = params.motion.as_dvec3();
        let exclude = params.exclude;
        let start = from + recovery;
        let cast = self.cast(shape, start, params.motion, exclude);
        let collisions = if cast.hit || (recovered && params.recovery_as_collision) {
            self.collide(
                shape,
                start + motion * f64::from(cast.unsafe_fraction),
                motion,
                margin,
                params.max_collisions,
                exclude,
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
        let safe = params.motion * cast.safe;
        MotionResult {
            travel: recovery.as_vec3() + safe,
            remainder: params.motion - safe,
            collisions,
            safe_fraction: cast.safe,
            unsafe_fraction: cast.unsafe_fraction,
        }
    }

    /// Pushes the shape out of everything closer than the margin, a share at a time, as
    /// Jolt's `_body_motion_recover` does: per pass, each contact's depth (the margin minus its
    /// distance, less what this pass already pushed along its axis) is undone by
    /// [`RECOVERY_AMOUNT`]. Within a pass the contacts are taken in the reverse order of the
    /// solids: Jolt takes them in the order its broad phase visits the bodies, which visits a
    /// tree node's children last first. Replaying the public course's queries in Godot, the
    /// solids' own order left 8 times as many answers more than a micrometre off (in a corner
    /// under a ceiling, enough to flip the collided flag of a short motion); the broad phase's
    /// tree decides, so some corners of two solids still differ, by up to 0.1 mm.
    ///
    /// When the passes' answers are known from a pass's contacts (one contact:
    /// [`World::recover_alone`]; contacts with the insides of faces only:
    /// [`World::recover_on_faces`]), the rest is worked out without querying again (or with
    /// one query, for a lone contact with something else near). Where a shortcut could not
    /// answer, the later passes do not try it again (they meet the same edges or the same
    /// solids nearby).
    fn recover(
        &self,
        shape: &BodyShape,
        from: DVec3,
        margin: f64,
        exclude: Option<usize>,
    ) -> (DVec3, bool) {
        self.recover_with(shape, from, margin, exclude, true)
    }

    /// [`World::recover`], with or without its `shortcuts` (the passes worked out from a
    /// pass's contacts); the tests compare the two.
    fn recover_with(
        &self,
        shape: &BodyShape,
        from: DVec3,
        margin: f64,
        exclude: Option<usize>,
        shortcuts: bool,
    ) -> (DVec3, bool) {
        let mut recovery = DVec3::ZERO;
        let mut recovered = false;
        let mut contacts = Vec::new();
        let (mut on_faces, mut may_query) = (shortcuts, shortcuts);
        for pass in 0..RECOVERY_ITERATIONS {
            contacts.clear();
            let at = from + recovery;
            self.contacts(shape, at, margin, exclude, &mut |index, c| {
                contacts.push((index, c))
            });
            if contacts.is_empty() {
                break;
            }
            recovered = true;
            // Where the shortcuts did not answer, the next pass meets the same features.
            let rest = match contacts[..] {
                [(index, touch)] if shortcuts => {
                    let limits = (exclude, may_query);
                    self.recover_alone(shape, at, margin, (index, &touch), pass, limits)
                }
                _ if on_faces => self.recover_on_faces(shape, at, margin, &contacts, pass, exclude),
                _ => None,
            };
            if let Some(rest) = rest {
                return (recovery + rest, true);
            }
            on_faces &= contacts.len() < 2;
            may_query &= contacts.len() != 1;
            let mut push = DVec3::ZERO;
            for (index, contact) in contacts.iter().rev() {
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

    /// The passes from `pass` on, when `touch` (at `at`, with solid `index`) is the only
    /// contact: each pass then pushes straight away from it, and moving a shape by `d` along
    /// the normal of an exact contact with a convex shape (a solid, a mesh's triangle) moves it
    /// exactly `d` further away, along the same normal. Nothing else may come within the
    /// margin on the way out: no other solid's bounds are near it, or else (`may_query`) one
    /// query finds nothing but `touch` within the margin plus the way's length (a distance
    /// changes no faster than the body moves). `None` when that does not hold.
    fn recover_alone(
        &self,
        shape: &BodyShape,
        at: DVec3,
        margin: f64,
        (index, touch): (usize, &Touch),
        pass: usize,
        (exclude, may_query): (Option<usize>, bool),
    ) -> Option<DVec3> {
        if !touch.exact {
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
        if !rest.is_finite() {
            return None;
        }
        if self.solids[index].is_convex()
            && !self.others_near(shape, (at, rest), margin, exclude, |i| i == index)
        {
            return Some(rest);
        }
        if !may_query {
            return None;
        }
        // Every triangle's contact: which ones Jolt drops depends on what else it meets, and
        // that changes on the way out.
        let mut alone = true;
        let reach = (margin + rest.length(), MeshContacts::All);
        self.contacts_as(shape, at, reach, exclude, &mut |i, c| {
            alone &= i == index && c == *touch;
        });
        alone.then_some(rest)
    }

    /// The passes from `pass` on, without querying again, when every contact found at `at` is
    /// a closed form's with the inside of a face of a convex solid (see [`Solid::on_face`]), each
    /// solid's only one, and no other solid is near the way out. Moving the body by `p` then
    /// changes each distance by exactly `-p . normal` while `p` moves along each face less than
    /// its room and the cores stay further apart than [`TOUCH_DISTANCE`], which every pass
    /// checks; a contact further than the margin is left out of a pass as the query would
    /// leave it. `None` when any of that does not hold: the passes
    /// query again.
    fn recover_on_faces(
        &self,
        shape: &BodyShape,
        at: DVec3,
        margin: f64,
        contacts: &[(usize, Touch)],
        pass: usize,
        exclude: Option<usize>,
    ) -> Option<DVec3> {
        let mut rooms = [None; 4];
        if contacts.len() > rooms.len() {
            return None;
        }
        for (i, (index, touch)) in contacts.iter().enumerate() {
            if contacts[..i].iter().any(|(other, _)| other == index) {
                return None;
            }
            rooms[i] = Some(self.solids[*index].on_face(&shape.rounded, touch)?);
        }
        let mut rest = DVec3::ZERO;
        for _ in pass..RECOVERY_ITERATIONS {
            let mut push = DVec3::ZERO;
            let mut found = false;
            for ((_, touch), room) in contacts.iter().zip(&rooms[..contacts.len()]).rev() {
                let room = (*room)?;
                let along = rest - touch.normal * touch.normal.dot(rest);
                let closer = touch.normal.dot(rest);
                let dist = touch.dist - closer;
                // With the cores a touch apart, the query would no longer answer exactly.
                if along.length() >= room.room || room.cores_apart - closer <= TOUCH_DISTANCE {
                    return None;
                }
                if dist > margin {
                    continue;
                }
                found = true;
                let depth = margin - dist + touch.normal.dot(push);
                if depth > 0.0 {
                    push -= touch.normal * depth * RECOVERY_AMOUNT;
                }
            }
            if !found || push == DVec3::ZERO || !push.is_finite() {
                break;
            }
            rest += push;
        }
        let known = |i| contacts.iter().any(|(index, _)| *index == i);
        (rest.is_finite() && !self.others_near(shape, (at, rest), margin, exclude, known))
            .then_some(rest)
    }

    /// True when a solid the query sees (not `exclude`), other than the `known` ones, has its
    /// box within `margin` (m) of the body's way out from `at` by `rest` (m): it could come
    /// within the margin on the way, and the passes must query it.
    fn others_near(
        &self,
        shape: &BodyShape,
        (at, rest): (DVec3, DVec3),
        margin: f64,
        exclude: Option<usize>,
        known: impl Fn(usize) -> bool,
    ) -> bool {
        let way = shape
            .aabb(at)
            .merged(&shape.aabb(at + rest))
            .loosened(margin);
        let near = |(i, solid): (usize, &Solid)| {
            Some(i) != exclude && !known(i) && solid.aabb().intersects(&way)
        };
        self.solids.iter().enumerate().any(near)
    }

    /// Jolt's cast of `motion` (m) from `start`: per solid that the whole motion touches,
    /// the binary search on the fraction of its first touch; the safe and unsafe fractions of
    /// the solid with the smallest safe fraction (the first such solid on a tie), and whether
    /// any search touched. Safe and unsafe are 1 when no solid is touched.
    fn cast(
        &self,
        shape: &BodyShape,
        start: DVec3,
        motion: Vec3,
        exclude: Option<usize>,
    ) -> Bisection {
        let mut closest = Bisection {
            safe: 1.0,
            unsafe_fraction: 1.0,
            hit: false,
        };
        let pose = shape.pose(start);
        let motion64 = motion.as_dvec3();
        let swept = shape.aabb(start).merged(&shape.aabb(start + motion64));
        // Jolt measures the motion's length in f32.
        let length32 = motion.length();
        let steps = bisection_steps(length32);
        let length = motion64.length();
        let mut first = length;
        for (index, solid) in self.solids.iter().enumerate() {
            if Some(index) == exclude {
                continue;
            }
            let reach = solid::up_to(motion64, first);
            let Some(distance) = solid.first_touch(&shape.rounded, &pose, &swept, reach) else {
                continue;
            };
            first = first.min(distance);
            let touch = if length > 0.0 {
                (distance / length).clamp(0.0, 1.0)
            } else {
                0.0
            };
            let found = bisect(touch, steps);
            closest.hit |= found.hit;
            if found.safe < closest.safe {
                closest.safe = found.safe;
                closest.unsafe_fraction = found.unsafe_fraction;
            }
        }
        closest
    }

    /// Contacts within the margin at `origin` that oppose the motion, deepest first.
    fn collide(
        &self,
        shape: &BodyShape,
        origin: DVec3,
        motion: DVec3,
        margin: f64,
        max_collisions: usize,
        exclude: Option<usize>,
    ) -> Vec<MotionCollision> {
        let direction = motion.normalize_or_zero();
        let retreat = -direction * CAST_GAP;
        let mut collisions = Vec::new();
        self.contacts(shape, origin, margin, exclude, &mut |index, c| {
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
            let point = c.point.as_vec3();
            collisions.push(MotionCollision {
                point,
                normal: normal.as_vec3(),
                depth: depth as f32,
                collider: index,
                collider_velocity: self.velocity_at(index, point),
            });
        });
        collisions.sort_by(|a, b| b.depth.total_cmp(&a.depth));
        collisions.truncate(max_collisions.max(1));
        collisions
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::geometry::aabb_box;
    use crate::shape::CharacterShape;

    #[test]
    fn bisection_steps_follow_jolts_rule() {
        // clamp(int(log2(1000 x length)), 4, 16): 4 up to 32 mm, then one more per doubling.
        for (length, steps) in [
            (0.0, 4),
            (1e-9, 4),
            (0.001, 4),
            (0.0167, 4),
            (0.031, 4),
            (0.033, 5),
            (0.0667, 6),
            (0.4, 8),
            (1.0, 9),
            (1.5, 10),
            (3.0, 11),
            (65.0, 15),
            (66.0, 16),
            (1e6, 16),
            (f32::INFINITY, 16),
            (f32::NAN, 4),
        ] {
            assert_eq!(bisection_steps(length), steps, "{length} m");
        }
    }

    #[test]
    fn bisection_matches_the_search_worked_by_hand() {
        // A touch at 0.3 in 4 steps: 0.5 touches (hi), 0.25 misses (lo), then halves: 0.375
        // touches, 0.3125 touches.
        assert_eq!(
            bisect(0.3, 4),
            Bisection {
                safe: 0.25,
                unsafe_fraction: 0.3125,
                hit: true
            }
        );
        // At 0.5333 in 11 steps (a 3 m motion touching after 1.6 m): 0.5 misses, 0.75,
        // 0.625, 0.5625 touch, 0.53125 misses, 0.546875, 0.5390625, 0.53515625 touch,
        // 0.533203125 misses, 0.5341796875 and 0.53369140625 touch.
        assert_eq!(
            bisect(1.6 / 3.0, 11),
            Bisection {
                safe: 0.533_203_1,
                unsafe_fraction: 0.533_691_4,
                hit: true
            }
        );
        // Touching from the start: 0.5 then 0.25, then quarters toward 0 (lo never moves).
        assert_eq!(
            bisect(0.0, 4),
            Bisection {
                safe: 0.0,
                unsafe_fraction: 0.015_625,
                hit: true
            }
        );
        // Near the end: 0.5 misses, then 0.75, then three quarters of the way each time:
        // 0.9375, 0.984375 all miss; a touch after that is never found.
        assert_eq!(
            bisect(0.99, 4),
            Bisection {
                safe: 0.984_375,
                unsafe_fraction: 1.0,
                hit: false
            }
        );
        assert!(!bisect(1.0, 4).hit);
        // In f32 the three-quarter steps reach 1 after enough of them, as Jolt's do.
        assert!(bisect(1.0, 16).hit);
        // A probe exactly at the touch touches it.
        assert_eq!(bisect(0.5, 4).unsafe_fraction, 0.5);
    }

    #[test]
    fn bisection_brackets_the_touch_within_its_resolution() {
        let mut seed = 0x9e37_79b9_7f4a_7c15u64;
        for _ in 0..10_000 {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            let touch = (seed >> 11) as f64 / (1u64 << 53) as f64;
            let length = 0.001 + (seed % 4000) as f32 * 0.001;
            let steps = bisection_steps(length);
            let found = bisect(touch, steps);
            assert!(
                f64::from(found.safe) < touch || touch == 0.0,
                "{touch} {found:?}"
            );
            if found.hit {
                assert!(
                    touch <= f64::from(found.unsafe_fraction),
                    "{touch} {found:?}"
                );
                // Never more than 2^-(steps - 2) wide (the quarter steps near the ends).
                let width = found.unsafe_fraction - found.safe;
                assert!(width <= 0.25f32.powi(2) * 0.5f32.powi(steps as i32 - 4) * 4.0);
            } else {
                assert_eq!(found.unsafe_fraction, 1.0);
            }
        }
    }

    /// A sharp cylinder of radius 0.4 m and height 1.8 m as the body's shape.
    fn cylinder() -> BodyShape {
        let shape = CharacterShape::Cylinder {
            radius: 0.4,
            height: 1.8,
        };
        BodyShape::character(shape.to_parry(), 0.0, shape.center_offset())
    }

    /// A wall whose face toward -X is at `x`.
    fn wall(x: f32) -> Solid {
        aabb_box(Vec3::new(x + 0.5, 1.0, 0.0), Vec3::new(1.0, 4.0, 4.0)).unwrap()
    }

    fn along_x(length: f32) -> MotionParameters {
        MotionParameters {
            from: Vec3::new(0.0, 0.5, 0.0),
            motion: Vec3::X * length,
            margin: 0.001,
            max_collisions: 1,
            recovery_as_collision: false,
            exclude: None,
        }
    }

    /// A corner: the floor's top at y = 0, a wall facing -X at x = 0.5 and one facing -Z at
    /// z = 0.5.
    fn corner() -> World {
        let mut world = World::new();
        world.add(aabb_box(Vec3::new(0.0, -0.5, 0.0), Vec3::new(8.0, 1.0, 8.0)).unwrap());
        world.add(wall(0.5));
        world.add(aabb_box(Vec3::new(0.0, 1.0, 1.0), Vec3::new(4.0, 4.0, 1.0)).unwrap());
        world
    }

    /// The course's character shapes, 0.8 m wide and 1.8 m tall, rounded by `margin` (m).
    fn shapes(margin: f32) -> [BodyShape; 3] {
        [
            CharacterShape::Capsule {
                radius: 0.4,
                height: 1.8,
            },
            CharacterShape::Cylinder {
                radius: 0.4,
                height: 1.8,
            },
            CharacterShape::Box {
                size: Vec3::new(0.8, 1.8, 0.8),
            },
        ]
        .map(|shape| BodyShape::character(shape.to_parry(), margin, shape.center_offset()))
    }

    #[test]
    fn a_body_in_a_corner_of_faces_recovers_without_querying_again() {
        let world = corner();
        let margin = 0.001;
        // 0.2 mm from the floor and the wall facing -X, 0.4 mm into the wall facing -Z.
        let at = DVec3::new(0.1 - 0.0002, 0.0002, 0.1 + 0.0004);
        // A box's contacts are GJK's, whose nearest points are not known to be on a face.
        for shape in shapes(0.04).into_iter().take(2) {
            let mut contacts = Vec::new();
            world.contacts(&shape, at, margin, None, &mut |index, c| {
                contacts.push((index, c))
            });
            assert_eq!(contacts.len(), 3, "floor and both walls");
            let rest = world.recover_on_faces(&shape, at, margin, &contacts, 0, None);
            let rest = rest.expect("every contact is on a face's inside");
            let (queried, _) = world.recover_with(&shape, at, margin, None, false);
            assert!(rest.distance(queried) < 1e-12, "{rest} against {queried}");
            assert!(
                rest.y > 0.0 && rest.x < 0.0 && rest.z < 0.0,
                "out of all three: {rest}"
            );
        }
    }

    /// The recovery of each of [`shapes`] at `at` with the `margin` (m) ends where the
    /// recovery that queries every pass does, to a picometre.
    fn recoveries_agree(
        world: &World,
        at: DVec3,
        margin: f64,
        rounding: f32,
    ) -> Result<(), proptest::test_runner::TestCaseError> {
        for shape in shapes(rounding) {
            let (fast, fast_recovered) = world.recover(&shape, at, margin, None);
            let (slow, slow_recovered) = world.recover_with(&shape, at, margin, None, false);
            proptest::prop_assert_eq!(fast_recovered, slow_recovered);
            proptest::prop_assert!(fast.distance(slow) < 1e-12, "{} against {}", fast, slow);
        }
        Ok(())
    }

    proptest::proptest! {
        /// Wherever a body stands near the corner (within the margin of none, some or all of
        /// its faces, or a little inside them), the recovery that answers from the contacts it
        /// found ends where the recovery that queries every pass does, to a picometre.
        #[test]
        fn recovering_from_faces_ends_where_querying_every_pass_does(
            x in -0.003f64..0.003,
            y in -0.003f64..0.003,
            z in -0.003f64..0.003,
            margin in 0.0001f64..0.004,
            rounding in 0.0f32..0.06,
        ) {
            let at = DVec3::new(0.1 + x, y, 0.1 + z);
            let world = corner();
            recoveries_agree(&world, at, margin, rounding)?;
        }

        /// A body resting (or a few millimetres off, or in) on mesh steps, a floor or by a
        /// wall, usually within the margin of one triangle only: the recovery that moves it
        /// straight out of a lone contact ends where querying every pass does.
        #[test]
        fn recovering_from_a_lone_triangle_ends_where_querying_every_pass_does(
            x in -0.9f64..0.9,
            z in -1.2f64..0.3,
            off in -0.003f64..0.003,
            margin in 0.0001f64..0.004,
            rounding in 0.0f32..0.06,
        ) {
            let top = if z > -0.5 { 0.0 } else if z > -0.8 { 0.15 } else { 0.3 };
            let at = DVec3::new(x, top + off, z);
            let world = mesh_steps();
            recoveries_agree(&world, at, margin, rounding)?;
        }
    }

    /// Two steps as one triangle mesh (0.15 m risers, a 0.3 m tread, 2 m wide, going up
    /// toward -Z from z = -0.5) on a floor box, beside a wall facing -X at x = 0.9.
    fn mesh_steps() -> World {
        let mut vertices = Vec::new();
        let mut indices = Vec::new();
        let mut quad = |corners: [Vec3; 4]| {
            let first = vertices.len() as u32;
            vertices.extend(corners);
            indices.extend([[first, first + 1, first + 2], [first, first + 2, first + 3]]);
        };
        let (left, right) = (-1.0, 1.0);
        for (rise, (z, back)) in [(0.0, 0.15), (0.15, 0.3)]
            .into_iter()
            .zip([(-0.5, -0.8), (-0.8, -1.2)])
        {
            let (bottom, top) = rise;
            quad([
                Vec3::new(left, bottom, z),
                Vec3::new(right, bottom, z),
                Vec3::new(right, top, z),
                Vec3::new(left, top, z),
            ]);
            quad([
                Vec3::new(left, top, z),
                Vec3::new(right, top, z),
                Vec3::new(right, top, back),
                Vec3::new(left, top, back),
            ]);
        }
        let mut world = World::new();
        world.add(aabb_box(Vec3::new(0.0, -0.5, 0.0), Vec3::new(8.0, 1.0, 8.0)).unwrap());
        world.add(crate::geometry::mesh(vertices, indices, Vec3::ZERO).unwrap());
        world.add(wall(0.9));
        world
    }

    proptest::proptest! {
        /// The cast casts each solid (and each triangle of a mesh) only as far as the first
        /// touch found before it; it still ends where Jolt's search on the first touch of any
        /// solid over the whole motion ends.
        #[test]
        fn a_cast_ends_where_the_search_on_the_first_touch_over_the_whole_motion_does(
            x in -0.8f32..0.8,
            y in 0.0f32..0.5,
            z in -1.2f32..0.2,
            dx in -1.5f32..1.5,
            dy in -0.6f32..0.3,
            dz in -1.5f32..1.5,
            which in 0usize..3,
        ) {
            let world = mesh_steps();
            let shape = &shapes(0.04)[which];
            let (start, motion) = (DVec3::new(f64::from(x), f64::from(y), f64::from(z)), Vec3::new(dx, dy, dz));
            let cast = world.cast(shape, start, motion, None);
            let pose = shape.pose(start);
            let motion64 = motion.as_dvec3();
            let swept = shape.aabb(start).merged(&shape.aabb(start + motion64));
            let first = world
                .solids()
                .iter()
                .filter_map(|solid| solid.first_touch_of_every_part(&shape.rounded, &pose, &swept, motion64))
                .reduce(f64::min);
            let expected = first.map_or(Bisection { safe: 1.0, unsafe_fraction: 1.0, hit: false }, |first| {
                bisect((first / motion64.length()).clamp(0.0, 1.0), bisection_steps(motion.length()))
            });
            proptest::prop_assert_eq!(cast.safe, expected.safe);
            proptest::prop_assert_eq!(cast.unsafe_fraction, expected.unsafe_fraction);
            proptest::prop_assert_eq!(cast.hit, expected.hit);
        }
    }

    #[test]
    fn the_motion_stops_where_the_search_on_the_nearest_solid_does() {
        // Walls first touched at 0.3 and 0.6 of a 1 m motion (9 steps), in either order.
        for walls in [[0.7, 1.0], [1.0, 0.7]] {
            let mut world = World::new();
            world.extend(walls.map(wall));
            let result = world.test_motion(&cylinder(), &along_x(1.0));
            let near = bisect(0.3, 9);
            assert!(near.hit && near.safe < 0.3 && 0.3 <= near.unsafe_fraction);
            assert_eq!(result.safe_fraction, near.safe);
            assert_eq!(result.unsafe_fraction, near.unsafe_fraction);
            assert_eq!(result.travel, Vec3::X * near.safe);
            assert_eq!(result.remainder, Vec3::X * (1.0 - near.safe));
            // Contacts come from the unsafe fraction, where the body overlaps the near wall:
            // depth = overlap + margin.
            let contact = result.collisions[0];
            assert_eq!(contact.normal, Vec3::NEG_X);
            let overlap = near.unsafe_fraction - 0.3;
            assert!(
                (contact.depth - (overlap + 0.001)).abs() < 1e-6,
                "{contact:?}"
            );
        }
    }

    #[test]
    fn a_touch_past_the_last_fraction_tried_is_missed() {
        // 1 cm (4 steps) toward a wall first touched after 9.9 mm: 0.5, 0.75, 0.9375 and
        // 0.984375 all miss, so the motion is free and ends 0.1 mm inside the wall, as on Jolt.
        let mut world = World::new();
        world.add(wall(0.4099));
        let result = world.test_motion(&cylinder(), &along_x(0.01));
        assert!(!result.collided());
        assert_eq!(result.travel, Vec3::X * 0.01);
        // A longer motion finds it.
        let result = world.test_motion(&cylinder(), &along_x(0.02));
        assert!(result.collided());
        assert!(result.travel.x < 0.0099);
    }

    #[test]
    fn a_characters_cylinder_has_its_rims_rounded_by_its_margin_as_jolts() {
        // A 45 degree face (a chamfer) through the origin, its normal (0, 1, 1) / sqrt 2, and
        // the cylinder's bottom front rim 0.2 mm inside its plane. Sharp, the rim overlaps it
        // by 0.2 mm; with Godot's character margin of 1 mm, Jolt rounds the rim by 1 mm and
        // the shape is (sqrt 2 - 1) mm - 0.2 mm = 0.214 mm clear of the face (measured on
        // Jolt: a horizontal test from such a place into a mesh's chamfer is free).
        let face = crate::geometry::mesh(
            vec![
                Vec3::new(-2.0, -1.0, 1.0),
                Vec3::new(2.0, -1.0, 1.0),
                Vec3::new(0.0, 1.0, -1.0),
            ],
            // Counter-clockwise seen from the body: a mesh is one-sided.
            vec![[0, 1, 2]],
            Vec3::ZERO,
        )
        .unwrap();
        let mut world = World::new();
        world.add(face);
        let shape = CharacterShape::Cylinder {
            radius: 0.4,
            height: 1.8,
        };
        let inside = 0.0002f32;
        // The rim's front bottom point at the plane's y + z = 0, pushed in along -(0, 1, 1).
        let rim = Vec3::new(0.0, 0.0, 0.0) - Vec3::new(0.0, 1.0, 1.0).normalize() * inside;
        let bottom = rim + Vec3::Z * 0.4;
        let sharp = BodyShape::character(shape.to_parry(), 0.0, shape.center_offset());
        let rounded = BodyShape::character(
            shape.to_parry(),
            crate::shape::CHARACTER_SHAPE_MARGIN,
            shape.center_offset(),
        );
        let deep = world.penetration(&sharp, bottom);
        assert!((deep - inside).abs() < 1e-5, "sharp: {deep}");
        assert_eq!(world.penetration(&rounded, bottom), 0.0);
        // Straight down, the gap along the normal, (sqrt 2 - 1) mm - 0.2 mm, is 0.302 mm:
        // 0.1 mm down is free, 0.5 mm down meets the face.
        let down = |depth: f32| {
            let params = MotionParameters {
                from: bottom,
                motion: Vec3::new(0.0, -depth, 0.0),
                margin: 1e-5,
                max_collisions: 1,
                recovery_as_collision: false,
                exclude: None,
            };
            world.test_motion(&rounded, &params).collided()
        };
        assert!(!down(0.0001));
        assert!(down(0.0005));
    }
}
