//! `ParryBody`: a headless `CharacterBody3D` that implements the controller's port.

use std::sync::Arc;

use glam::Vec3;
use kcc::{ConfigError, KinematicBody, MotionTest, Touched};

use crate::recall::Recall;
use crate::settings::BodySettings;
use crate::world::{BodyShape, MotionCollision, MotionParameters, MotionResult, World};

/// Floor, wall and ceiling contact after a slide (Godot's `CollisionState` plus normals).
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct ContactState {
    /// Standing on walkable floor.
    pub on_floor: bool,
    /// Touching a wall.
    pub on_wall: bool,
    /// Touching a ceiling.
    pub on_ceiling: bool,
    /// Normal of the floor (zero when not on floor).
    pub floor_normal: Vec3,
    /// Normal of the wall (zero when not on a wall).
    pub wall_normal: Vec3,
    /// Normal of the ceiling (zero when not on a ceiling).
    pub ceiling_normal: Vec3,
    /// Godot's `get_real_velocity()`: how far the last slide moved the body (its snap
    /// included) over the slide's delta, m/s. A teleport or a floor snap after it does not
    /// change it.
    pub real_velocity: Vec3,
    /// Godot's `get_slide_collision_count()`: the iterations of the last slide that hit
    /// something.
    pub slide_collisions: u32,
    /// One of the last slide's collisions was with a wall.
    pub slide_hit_wall: bool,
    /// The solid the body last stood on or touched as a wall (Godot's platform), by index.
    pub platform: Option<usize>,
    /// That solid's velocity where it was touched, m/s (Godot's `get_platform_velocity()`).
    pub platform_velocity: Vec3,
    /// The last slide's collisions are said (`KinematicBody::slide_collision`): no moving
    /// platform was under the body before or after the slide.
    pub collisions_said: bool,
}

/// A character body in a parry [`World`], moved with Godot's `test_move` and `move_and_slide`
/// semantics. Its origin is the bottom of its shape.
#[derive(Clone)]
pub struct ParryBody {
    pub(crate) world: Arc<World>,
    pub(crate) shape: BodyShape,
    pub(crate) settings: BodySettings,
    pub(crate) position: Vec3,
    pub(crate) state: ContactState,
    pub(crate) queries: u64,
    /// The deepest contact of each collision of the last slide (Godot's
    /// `get_slide_collision(i)`).
    pub(crate) hits: Vec<MotionCollision>,
    /// Each collision of the last slide as a motion test (Godot's `get_slide_collision(i)`'s
    /// travel, remainder and deepest contact), in the order of `hits`.
    pub(crate) tests: Vec<MotionTest>,
    /// Impulses given since they were last taken (see [`ParryBody::take_pushes`]).
    pushes: Vec<BodyPush>,
    /// The movable body the last [`KinematicBody::floor_body`] found under the body.
    floor_found: Option<usize>,
    /// What its last queries answered (see [`Recall`]).
    recall: Recall,
}

/// An impulse the character gave a body the engine simulates.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct BodyPush {
    /// Which body, by its index among the world's [`movables`](World::movables).
    pub movable: usize,
    /// The impulse, N s.
    pub impulse: Vec3,
    /// Where it is given, world space, m; `None`: through the body's centre of mass.
    pub point: Option<Vec3>,
}

impl ParryBody {
    /// A body at `position` (bottom of its shape, m), not on floor until its first slide.
    pub fn new(
        world: Arc<World>,
        settings: BodySettings,
        position: Vec3,
    ) -> Result<Self, ConfigError> {
        settings.validate()?;
        let shape = collider(&settings);
        Ok(Self {
            world,
            shape,
            settings,
            position,
            state: ContactState::default(),
            queries: 0,
            hits: Vec::new(),
            tests: Vec::new(),
            pushes: Vec::new(),
            floor_found: None,
            recall: Recall::default(),
        })
    }

    /// The body's settings.
    pub fn settings(&self) -> &BodySettings {
        &self.settings
    }

    /// The world it moves in.
    pub fn world(&self) -> &Arc<World> {
        &self.world
    }

    /// Floor, wall and ceiling state after the last slide or snap.
    pub fn contact_state(&self) -> ContactState {
        self.state
    }

    /// Number of motion queries run so far (each `test_move`, each slide iteration, each snap).
    pub fn queries(&self) -> u64 {
        self.queries
    }

    /// Moves the world's platforms to where their motions have taken them at time `t` (s), as
    /// the engine's physics step moves them between ticks. The body's world becomes its own
    /// copy if it was shared.
    pub fn set_time(&mut self, t: f64) {
        self.recall.forget();
        Arc::make_mut(&mut self.world).set_time(t);
    }

    /// Puts other character `which` of the body's world (see [`World::characters`]) where
    /// its own tick took it: its body's origin at `position` (m), for a body of `settings` (the
    /// character's collider is its shape less its float, as this body's own). The body's world
    /// becomes its own copy if it was shared.
    pub fn place_character(&mut self, which: usize, settings: &BodySettings, position: Vec3) {
        let (_, lift) = character_collider(settings);
        self.recall.forget();
        Arc::make_mut(&mut self.world).place_character(which, position + Vec3::Y * lift);
    }

    /// The impulses the body gave since the last call, for the simulation that steps the
    /// world's movable bodies to apply before its step.
    pub fn take_pushes(&mut self) -> Vec<BodyPush> {
        std::mem::take(&mut self.pushes)
    }

    /// Puts the world's movable bodies where a simulation has taken them (see
    /// [`World::place_movable`]); `places` gives each body's centre of mass (m), rotation from
    /// where it started, velocity (m/s) and angular velocity (rad/s), in order. The body's
    /// world becomes its own copy if it was shared.
    pub fn place_movables(
        &mut self,
        places: impl IntoIterator<Item = (Vec3, glam::DQuat, Vec3, Vec3)>,
    ) {
        self.recall.forget();
        let world = Arc::make_mut(&mut self.world);
        for (which, (center, rotation, velocity, angular)) in places.into_iter().enumerate() {
            world.place_movable(which, center, rotation, velocity, angular);
        }
    }

    /// How deep the shape overlaps any solid right now, m (0 when clear).
    pub fn penetration(&self) -> f32 {
        self.world.penetration(&self.shape, self.position)
    }

    /// Which of the world's movable bodies collision `index` of the last slide touched.
    fn movable_hit(&self, index: usize) -> Option<usize> {
        let hit = self.hits.get(index)?;
        let movables = self.world.movables();
        movables.iter().position(|m| m.index == hit.collider)
    }

    /// Movable body `which` as touched at `point` (m) with `normal`: its velocity with the
    /// impulses given since the last step (they have changed it already).
    fn touched(&self, which: usize, normal: Vec3, point: Vec3) -> Touched {
        let movable = &self.world.movables()[which];
        let given: Vec3 = self
            .pushes
            .iter()
            .filter(|p| p.movable == which)
            .map(|p| p.impulse)
            .sum();
        Touched {
            id: which as u64,
            normal,
            point,
            mass: movable.mass,
            velocity: movable.velocity + given / movable.mass,
        }
    }

    /// Runs one motion query and counts it.
    pub(crate) fn motion(&mut self, params: &MotionParameters) -> MotionResult {
        self.queries += 1;
        let (world, shape) = (&self.world, &self.shape);
        self.recall.answer_or(
            params,
            || world.recovery(shape, params),
            |recovery| world.test_motion_recovered(shape, params, recovery),
        )
    }
}

impl KinematicBody for ParryBody {
    fn position(&self) -> Vec3 {
        self.position
    }

    fn set_position(&mut self, position: Vec3) {
        if position.is_finite() {
            self.position = position;
        }
    }

    fn test_move(&mut self, from: Vec3, motion: Vec3) -> MotionTest {
        if !from.is_finite() || !motion.is_finite() {
            return MotionTest {
                travel: Vec3::ZERO,
                remainder: Vec3::ZERO,
                contact: None,
            };
        }
        let result = self.motion(&MotionParameters {
            from,
            motion,
            margin: self.settings.safe_margin,
            max_collisions: 1,
            recovery_as_collision: false,
            exclude: None,
        });
        if !(from + result.travel).is_finite() || !result.remainder.is_finite() {
            // Out of f32's range (a gigantic solid): report no motion rather than infinity.
            return MotionTest {
                travel: Vec3::ZERO,
                remainder: Vec3::ZERO,
                contact: None,
            };
        }
        result.motion_test(&self.world)
    }

    fn move_and_slide(&mut self, velocity: Vec3, dt: f32) -> Vec3 {
        if !velocity.is_finite() || !dt.is_finite() || dt <= 0.0 {
            return Vec3::ZERO;
        }
        self.slide(velocity, dt)
    }

    fn slide_collision(&self, index: usize) -> Option<MotionTest> {
        self.tests
            .get(index)
            .copied()
            .filter(|_| self.state.collisions_said)
    }

    fn slide_collision_count(&self) -> usize {
        self.hits.len()
    }

    fn touched_body(&self, index: usize) -> Option<Touched> {
        let hit = self.hits.get(index)?;
        let which = self.movable_hit(index)?;
        Some(self.touched(which, hit.normal, hit.point))
    }

    fn floor_body(&mut self) -> Option<Touched> {
        self.floor_found = None;
        let down = -self.up_direction() * (2.0 * self.settings.safe_margin);
        let result = self.motion(&MotionParameters {
            from: self.position,
            motion: down,
            margin: self.settings.safe_margin,
            max_collisions: 1,
            recovery_as_collision: false,
            exclude: None,
        });
        let hit = result.collisions.first()?;
        let which = self
            .world
            .movables()
            .iter()
            .position(|m| m.index == hit.collider)?;
        self.floor_found = Some(which);
        Some(self.touched(which, hit.normal, hit.point))
    }

    fn press_floor_body(&mut self, impulse: Vec3, point: Vec3) {
        if let Some(movable) = self.floor_found
            && impulse.is_finite()
            && point.is_finite()
        {
            self.pushes.push(BodyPush {
                movable,
                impulse,
                point: Some(point),
            });
        }
    }

    fn touched_character(&self, index: usize) -> bool {
        self.hits
            .get(index)
            .is_some_and(|hit| self.world.is_character(hit.collider))
    }

    fn push_body(&mut self, index: usize, impulse: Vec3) {
        let Some(movable) = self.movable_hit(index) else {
            return;
        };
        if impulse.is_finite() {
            self.pushes.push(BodyPush {
                movable,
                impulse,
                point: None,
            });
        }
    }

    fn is_on_floor(&self) -> bool {
        self.state.on_floor
    }

    fn is_on_wall(&self) -> bool {
        self.state.on_wall
    }

    fn wall_normal(&self) -> Vec3 {
        self.state.wall_normal
    }

    fn floor_normal(&self) -> Vec3 {
        self.state.floor_normal
    }

    fn apply_floor_snap(&mut self) {
        self.floor_snap();
    }

    fn up_direction(&self) -> Vec3 {
        self.settings.up_direction.normalize()
    }

    fn floor_max_angle(&self) -> f32 {
        self.settings.floor_max_angle
    }

    fn safe_margin(&self) -> f32 {
        self.settings.safe_margin
    }

    fn shape_height(&self) -> f32 {
        self.settings.shape.height() - self.settings.float_height
    }

    fn shape_radius(&self) -> f32 {
        self.settings.shape.radius()
    }

    fn set_shape_height(&mut self, height: f32) {
        let shape = self
            .settings
            .shape
            .with_height(height + self.settings.float_height);
        if shape != self.settings.shape {
            self.settings.shape = shape;
            self.shape = collider(&self.settings);
            self.recall.forget();
        }
    }
}

/// The collision shape of a body with `settings`: its shape, shortened by the float height at
/// the bottom.
fn collider(settings: &BodySettings) -> BodyShape {
    let (shape, lift) = character_collider(settings);
    let center = shape.center_offset() + glam::DVec3::Y * f64::from(lift);
    BodyShape::character(
        shape.to_parry(),
        crate::shape::CHARACTER_SHAPE_MARGIN,
        center,
    )
}

/// The collision shape of a body of `settings`: its shape less its float, and how far above
/// the body's origin its bottom is (the float), m.
pub fn character_collider(settings: &BodySettings) -> (crate::CharacterShape, f32) {
    let lift = settings.float_height.max(0.0);
    (
        settings.shape.with_height(settings.shape.height() - lift),
        lift,
    )
}
