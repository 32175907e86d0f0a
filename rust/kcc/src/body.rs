//! The port: what the controller needs from a physics engine, and nothing more.
//!
//! Every method mirrors a call of Godot's `CharacterBody3D`, so the Godot adapter is a
//! translation table and the headless parry world (`kcc-parry`) can imitate it.

use glam::Vec3;

/// One contact reported by a test motion.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Contact {
    /// Unit contact normal pointing from the touched surface toward the body. For a rounded
    /// shape touching an edge this is tilted (it points from the edge to the shape), not the
    /// face normal.
    pub normal: Vec3,
    /// Contact point on the touched surface, world space, m.
    pub point: Vec3,
    /// How far the body's shape, grown by the safe margin, overlaps the surface, m.
    pub depth: f32,
    /// What was touched is a body the engine simulates (a `RigidBody3D` that is not frozen) or
    /// another character (a `CharacterBody3D`): something the character pushes or is blocked
    /// by, never a step it climbs (unless
    /// [`StairSettings::step_onto_bodies`](crate::StairSettings::step_onto_bodies)). False for
    /// static geometry and moving platforms, and from an engine that does not tell.
    pub movable: bool,
}

/// What a test motion found, with Godot's `test_move` meanings.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct MotionTest {
    /// Displacement the body can make, m: the push out of overlaps ("recovery") plus the part of
    /// the motion that is free. Adding it to the start gives where the body would stop.
    pub travel: Vec3,
    /// Part of the requested motion that could not be made, m. The recovery is not in it, so
    /// `travel + remainder` differs from the motion by the recovery.
    pub remainder: Vec3,
    /// The deepest contact at the stopping point; `None` when the motion was free.
    pub contact: Option<Contact>,
}

impl MotionTest {
    /// True when the motion was blocked by something.
    pub fn collided(&self) -> bool {
        self.contact.is_some()
    }
}

/// A body the engine simulates (Godot's `RigidBody3D`, not frozen) that the last slide touched:
/// something the character can push.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Touched {
    /// The engine's name for the body (the id of its Godot RID): a body met twice in one slide
    /// is pushed once.
    pub id: u64,
    /// Unit contact normal pointing from the body toward the character.
    pub normal: Vec3,
    /// Contact point on the body, world space, m.
    pub point: Vec3,
    /// The body's mass, kg.
    pub mass: f32,
    /// The body's linear velocity (of its centre of mass) now, m/s: with the impulses it got
    /// since the engine's last physics step.
    pub velocity: Vec3,
}

/// A kinematic character body as a physics engine offers it (Godot's `CharacterBody3D`).
///
/// Positions are of the body's origin (for `kcc-parry` the bottom of its shape, for Godot the
/// node's global position), in m. Times are in s, velocities in m/s, angles in rad.
pub trait KinematicBody {
    /// The body's origin in world space, m.
    fn position(&self) -> Vec3;

    /// Teleports the body's origin, m. Floor state is not updated until the next
    /// [`move_and_slide`](Self::move_and_slide) or [`apply_floor_snap`](Self::apply_floor_snap).
    fn set_position(&mut self, position: Vec3);

    /// Tests moving the body's shape from `from` by `motion` (m) without moving the body, with
    /// the body's safe margin: recover out of overlaps, cast, then report the contact where it
    /// stopped. See [`MotionTest`] for what travel and remainder mean.
    fn test_move(&mut self, from: Vec3, motion: Vec3) -> MotionTest;

    /// Moves the body by `velocity` (m/s) over `dt` (s), sliding along what it touches, and
    /// updates the floor, wall and ceiling state. Returns the velocity after sliding (m/s).
    /// An engine whose slide always uses its own fixed tick must scale the velocity by
    /// `dt / tick` on the way in and back on the way out.
    fn move_and_slide(&mut self, velocity: Vec3, dt: f32) -> Vec3;

    /// Collision `index` of the last [`move_and_slide`](Self::move_and_slide) (Godot's
    /// `get_slide_collision(index)`) as a motion test: the travel and remainder of the slide's
    /// motion that met it and its deepest contact. Godot's slide makes one motion after
    /// another, each from where the last one stopped, and each motion that meets something is
    /// one collision. `None` past the last collision, and for every index when a moving
    /// platform carried the body before the slide's own motion (that motion then did not start
    /// where the body stood). A climb after a slide that met a riser reads the riser here
    /// instead of testing the same motion again; an engine that does not tell (the default)
    /// costs that test.
    fn slide_collision(&self, index: usize) -> Option<MotionTest> {
        let _ = index;
        None
    }

    /// How many collisions the last [`move_and_slide`](Self::move_and_slide) had (Godot's
    /// `get_slide_collision_count()`). An engine without bodies to push may say 0 (the
    /// default): nothing is then pushed.
    fn slide_collision_count(&self) -> usize {
        0
    }

    /// Collision `index` of the last slide when what it touched is a body the engine
    /// simulates (Godot's `get_slide_collision(index)` whose collider is a `RigidBody3D`);
    /// `None` for static geometry, platforms and other characters.
    fn touched_body(&self, index: usize) -> Option<Touched> {
        let _ = index;
        None
    }

    /// True when collision `index` of the last slide is another character (Godot's
    /// `get_slide_collision(index)` whose collider is a `CharacterBody3D`): it blocks the body
    /// as a wall does, is not pushed, and is not climbed onto (unless
    /// [`StairSettings::step_onto_bodies`](crate::StairSettings::step_onto_bodies)). An engine
    /// without other characters says false (the default).
    fn touched_character(&self, index: usize) -> bool {
        let _ = index;
        false
    }

    /// Gives the body of the last slide's collision `index` an `impulse` (N s) through its
    /// centre of mass (Godot's `RigidBody3D.apply_central_impulse`, as the usual pushing
    /// script does: a crate slides, it does not tip over because a shoulder met its top
    /// edge). Its velocity changes at once; it moves in the engine's next physics step.
    fn push_body(&mut self, index: usize, impulse: Vec3) {
        let _ = (index, impulse);
    }

    /// The body the engine simulates (a `RigidBody3D` that is not frozen) that the body stands
    /// on, found by one motion test straight down by twice the safe margin from where the
    /// body is (Godot tells a body's floor only through the slide's collisions, and its floor
    /// snap adds none); `None` when it stands on anything else or nothing. Its `normal` and
    /// `point` are the test's contact. The engine remembers the body for
    /// [`press_floor_body`](Self::press_floor_body). Optional: an engine without bodies to
    /// stand on says `None` (the default) without a test.
    fn floor_body(&mut self) -> Option<Touched> {
        None
    }

    /// Gives the body the last [`floor_body`](Self::floor_body) found an `impulse` (N s) at
    /// `point` (world space, m; Godot's `RigidBody3D.apply_impulse` at the point's offset from
    /// the body's origin): the character's weight on it, which tips a seesaw. Nothing when
    /// that call found none.
    fn press_floor_body(&mut self, impulse: Vec3, point: Vec3) {
        let _ = (impulse, point);
    }

    /// True when the last slide or floor snap left the body standing on walkable floor.
    fn is_on_floor(&self) -> bool;

    /// True when the last slide touched a wall: a surface steeper than
    /// [`floor_max_angle`](Self::floor_max_angle) that is no ceiling (Godot's `is_on_wall`).
    fn is_on_wall(&self) -> bool;

    /// Unit normal of the wall the last slide touched (Godot's `get_wall_normal()`: of that
    /// slide's deepest wall contact in its last motion that met a wall); meaningful only when
    /// [`is_on_wall`](Self::is_on_wall) is true. A slide that met a floor and a wall in one
    /// motion names the floor's contact first in its collision
    /// ([`slide_collision`](Self::slide_collision)), and the wall only here. An engine that does
    /// not tell says zero (the default).
    fn wall_normal(&self) -> Vec3 {
        Vec3::ZERO
    }

    /// Unit normal of the floor under the body after the last slide; meaningful only when
    /// [`is_on_floor`](Self::is_on_floor) is true.
    fn floor_normal(&self) -> Vec3;

    /// Snaps the body down onto floor within the engine's snap length (Godot's
    /// `apply_floor_snap`) and updates the floor state.
    fn apply_floor_snap(&mut self);

    /// Unit vector pointing up for this body (opposite to gravity).
    fn up_direction(&self) -> Vec3;

    /// Steepest surface that still counts as floor, rad, measured from up.
    fn floor_max_angle(&self) -> f32;

    /// Distance the body keeps from surfaces during motion tests, m (Godot's `safe_margin`).
    fn safe_margin(&self) -> f32;

    /// Height of the body's collision shape along up, m.
    fn shape_height(&self) -> f32;

    /// How far the body's collision shape reaches across up from its axis, m: a capsule's,
    /// cylinder's or sphere's radius, half a box's narrower side; 0 when the engine cannot
    /// tell. The controller sizes what it looks at by it: how far past a step's edge it looks
    /// for the tread, and how far one sub-step may move (see `kcc::tolerances`).
    fn shape_radius(&self) -> f32;

    /// Makes the body's collision shape `height` tall along up (m), keeping its bottom where it
    /// is; for crouching. An engine may keep the shape taller than asked (a capsule is at least
    /// as tall as it is wide): [`shape_height`](Self::shape_height) says what it became.
    fn set_shape_height(&mut self, height: f32);
}
