//! Rapier's `KinematicCharacterController` on the same course, fed the same desired velocity
//! by our movement model (`kcc::movement`), so that only the stair and slide handling differs.
//!
//! The mapping of our settings: autostep max height = `max_step_height`, autostep min width =
//! `min_step_depth`, snap to ground = `max_step_height`, max slope climb angle and min slope
//! slide angle = the floor max angle. Step up off means no autostep, step down off no snapping.
//! Rapier's own offset (1 % of the shape's height) is kept: the shape floats that far above the
//! floor. The velocity carried to the next tick is, horizontally, the movement model's own (the
//! desired velocity, as Rapier's examples drive it: Rapier returns a translation, not a slid
//! velocity); vertically, zero on the floor, Rapier's rise when a jump was cut short by a
//! ceiling, and our gravity otherwise. Crouching changes the collider's shape to the crouch's
//! height (its bottom kept) and the autostep to the crouch's step height; standing up changes
//! it back only when a cast of the crouched shape up by the height it grows meets nothing.
//!
//! Rigid bodies (`[[rigid_body]]`) are Rapier's dynamic bodies in the character's own world,
//! simulated as the parry world simulates them for ours (`crate::dynamics`: Godot's gravity,
//! friction and damping), and the character pushes them as Rapier's users do: each tick the
//! collisions of `move_shape` go to `solve_character_collision_impulses` with the character's
//! mass, and the world takes a step. The character is a kinematic body there, so a body rolling
//! into it stops as at a wall. Rapier's controller has no strength limit and puts no weight on
//! what it stands on (a seesaw tips only by the push of the walk).
//!
//! Moving platforms are kinematic position-based bodies in the character's own world, given
//! each tick the pose the scenario's motion has for the tick's end and moved there by the
//! world's step, as Rapier's docs move a platform; the controller carries the character with
//! the velocity of a kinematic body it touches (its "kinematic friction": the platform's
//! velocity at the contact, from the last step), as its docs say it interacts with moving
//! platforms. In a world many characters share (the bench's crowd) the platforms stand still.

use std::rc::Rc;

use glam::Vec3;
use kcc_parry::{CharacterShape, PlatformMotion};
use rapier3d::control::{
    CharacterAutostep, CharacterCollision, CharacterLength, KinematicCharacterController,
};
use rapier3d::parry::query::ShapeCastOptions;
use rapier3d::prelude::{
    ColliderBuilder, ColliderHandle, PhysicsWorld, Pose, QueryFilter, RigidBodyBuilder,
    RigidBodyHandle, SharedShape,
};

use crate::course;
use crate::dynamics;
use crate::peer::{Engine, EngineMove, PeerMover};
use crate::scenario::Scenario;

/// Rapier's controller moving the scenario's character.
pub type RapierMover = PeerMover<Rapier>;

/// Rapier's controller and the shape it moves through a world of the scenario's solids.
pub struct Rapier {
    physics: Rc<PhysicsWorld>,
    controller: KinematicCharacterController,
    shape: SharedShape,
    half_height: f32,
    /// The standing shape and the crouched one, and the step heights that go with each, m.
    shapes: [(CharacterShape, f32); 2],
    /// The scenario's rigid bodies, when it has any (the world is then this character's own).
    bodies: Option<Bodies>,
}

/// The rigid bodies Rapier simulates in a character's own world, and the character there.
struct Bodies {
    /// One per movable body, in the world's order, with its rotation at the start.
    movables: Vec<(RigidBodyHandle, glam::Quat)>,
    /// The moving platforms, kinematic, each with its motion.
    platforms: Vec<(RigidBodyHandle, PlatformMotion)>,
    /// Time of the platforms' places, s.
    time: f64,
    /// The character as a kinematic body, and its collider.
    character: (RigidBodyHandle, ColliderHandle),
    /// The character's mass, kg: what its pushes share the walk's momentum by.
    mass: f32,
}

/// Rapier's shape for a character `shape`, centred.
pub(crate) fn rapier_shape(shape: CharacterShape) -> SharedShape {
    match shape {
        CharacterShape::Capsule { radius, height } => {
            SharedShape::capsule_y((height * 0.5 - radius).max(0.0), radius)
        }
        CharacterShape::Cylinder { radius, height } => SharedShape::cylinder(height * 0.5, radius),
        CharacterShape::Box { size } => {
            SharedShape::cuboid(size.x * 0.5, size.y * 0.5, size.z * 0.5)
        }
    }
}

impl RapierMover {
    /// The scenario's character at its start, in a Rapier world of its own.
    pub fn new(scenario: &Scenario) -> Self {
        let world = &scenario.world;
        if world.movables().is_empty() && world.platforms().is_empty() {
            return Self::in_world(scenario, Rc::new(course::rapier_world(world)));
        }
        let mut physics = dynamics::godot_gravity();
        dynamics::add_fixed(&mut physics, world);
        let movables = dynamics::add_movables(&mut physics, world);
        let platforms = dynamics::add_platforms(&mut physics, world);
        let shape = scenario.character.body.shape;
        let center = scenario.start.position + Vec3::Y * shape.height() * 0.5;
        let character = physics.insert(
            RigidBodyBuilder::kinematic_position_based().translation(center),
            ColliderBuilder::new(rapier_shape(shape)),
        );
        // Without a first step the broad phase is empty and every query misses.
        physics.step();
        let bodies = Bodies {
            movables,
            platforms,
            time: 0.0,
            character,
            mass: scenario.character.controller.push.mass,
        };
        let engine = Rapier {
            bodies: Some(bodies),
            ..Rapier::new(scenario, Rc::new(physics))
        };
        Self::with_engine(scenario, Ok(engine))
    }

    /// The scenario's character at its start, in `physics` (built from the scenario's solids
    /// by [`course::rapier_world`]; several characters may share it).
    pub fn in_world(scenario: &Scenario, physics: Rc<PhysicsWorld>) -> Self {
        Self::with_engine(scenario, Ok(Rapier::new(scenario, physics)))
    }
}

impl Rapier {
    /// The controller for the scenario's character, in `physics`, without rigid bodies.
    fn new(scenario: &Scenario, physics: Rc<PhysicsWorld>) -> Self {
        let character = &scenario.character;
        let stairs = character.controller.stairs;
        let floor_max_angle = character.body.floor_max_angle;
        let controller = KinematicCharacterController {
            up: Vec3::Y,
            autostep: stairs.step_up_enabled.then_some(CharacterAutostep {
                max_height: CharacterLength::Absolute(stairs.max_step_height),
                min_width: CharacterLength::Absolute(stairs.min_step_depth),
                include_dynamic_bodies: false,
            }),
            snap_to_ground: stairs
                .step_down_enabled
                .then_some(CharacterLength::Absolute(stairs.max_step_height)),
            max_slope_climb_angle: floor_max_angle,
            min_slope_slide_angle: floor_max_angle,
            ..KinematicCharacterController::default()
        };
        let standing = character.body.shape;
        Rapier {
            physics,
            controller,
            shape: rapier_shape(standing),
            half_height: standing.height() * 0.5,
            shapes: [
                (standing, stairs.max_step_height),
                crate::peer::crouched(scenario),
            ],
            bodies: None,
        }
    }
}

impl Engine for Rapier {
    fn move_body(&mut self, position: Vec3, velocity: Vec3, dt: f32) -> EngineMove {
        let pose = Pose::from_translation(position + Vec3::Y * self.half_height);
        let filter = self.filter();
        let queries = self.physics.query_pipeline_with_filter(filter);
        let mut collisions = Vec::new();
        let moved = self.controller.move_shape(
            dt,
            &queries,
            self.shape.as_ref(),
            &pose,
            velocity * dt,
            |collision| collisions.push(collision),
        );
        if self.bodies.is_some() {
            let center = pose.translation + moved.translation;
            self.push_and_step(&collisions, center, dt)?;
        }
        Ok((moved.translation, moved.grounded))
    }

    fn moves_platforms(&self) -> bool {
        self.bodies
            .as_ref()
            .is_some_and(|bodies| !bodies.platforms.is_empty())
    }

    fn movables(&self) -> Vec<(Vec3, glam::DQuat, Vec3, Vec3)> {
        self.bodies
            .as_ref()
            .map(|bodies| dynamics::places(&self.physics, &bodies.movables))
            .unwrap_or_default()
    }

    fn set_crouched(&mut self, wanted: bool, position: Vec3) -> bool {
        if !wanted {
            let ((standing, _), (crouched, _)) = (self.shapes[0], self.shapes[1]);
            let grow = standing.height() - crouched.height();
            let pose = Pose::from_translation(position + Vec3::Y * self.half_height);
            let options = ShapeCastOptions {
                max_time_of_impact: 1.0,
                ..ShapeCastOptions::default()
            };
            let queries = self.physics.query_pipeline();
            let up = Vec3::Y * grow.max(0.0);
            if queries
                .cast_shape(&pose, up, self.shape.as_ref(), options)
                .is_some()
            {
                return true;
            }
        }
        let (shape, step) = self.shapes[usize::from(wanted)];
        self.shape = rapier_shape(shape);
        if let Some(bodies) = &self.bodies
            && let Some(physics) = Rc::get_mut(&mut self.physics)
            && let Some(collider) = physics.colliders.get_mut(bodies.character.1)
        {
            collider.set_shape(self.shape.clone());
        }
        self.half_height = shape.height() * 0.5;
        if let Some(autostep) = &mut self.controller.autostep {
            autostep.max_height = CharacterLength::Absolute(step);
        }
        if self.controller.snap_to_ground.is_some() {
            self.controller.snap_to_ground = Some(CharacterLength::Absolute(step));
        }
        wanted
    }
}

impl Rapier {
    /// What the controller's queries see: everything but the character's own body.
    fn filter(&self) -> QueryFilter<'static> {
        match &self.bodies {
            Some(bodies) => QueryFilter::default().exclude_rigid_body(bodies.character.0),
            None => QueryFilter::default(),
        }
    }

    /// After a move that met `collisions` and left the character's shape centred at `center`
    /// (m): the character's impulses on the bodies it met, the character put there, the
    /// platforms aimed at their places at the tick's end, and one step of `dt` (s) of the
    /// world. The error: the world is shared (never, with bodies).
    fn push_and_step(
        &mut self,
        collisions: &[CharacterCollision],
        center: Vec3,
        dt: f32,
    ) -> Result<(), String> {
        let filter = self.filter();
        let (Some(bodies), Some(physics)) = (&mut self.bodies, Rc::get_mut(&mut self.physics))
        else {
            return Err("a Rapier world with rigid bodies is shared".to_owned());
        };
        let mut queries = physics.broad_phase.as_query_pipeline_mut(
            physics.narrow_phase.query_dispatcher(),
            &mut physics.bodies,
            &mut physics.colliders,
            filter,
        );
        self.controller.solve_character_collision_impulses(
            dt,
            &mut queries,
            self.shape.as_ref(),
            bodies.mass,
            collisions,
        );
        if let Some(character) = physics.bodies.get_mut(bodies.character.0) {
            character.set_next_kinematic_translation(center);
        }
        bodies.time += f64::from(dt);
        dynamics::aim_platforms(physics, &bodies.platforms, bodies.time);
        physics.integration_parameters.dt = dt;
        physics.step();
        Ok(())
    }
}
