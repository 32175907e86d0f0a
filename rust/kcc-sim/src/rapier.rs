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

use std::rc::Rc;

use glam::Vec3;
use kcc_parry::CharacterShape;
use rapier3d::control::{CharacterAutostep, CharacterLength, KinematicCharacterController};
use rapier3d::parry::query::ShapeCastOptions;
use rapier3d::prelude::{PhysicsWorld, Pose, SharedShape};

use crate::course;
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
        Self::in_world(scenario, Rc::new(course::rapier_world(&scenario.world)))
    }

    /// The scenario's character at its start, in `physics` (built from the scenario's solids
    /// by [`course::rapier_world`]; several characters may share it).
    pub fn in_world(scenario: &Scenario, physics: Rc<PhysicsWorld>) -> Self {
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
        let engine = Rapier {
            physics,
            controller,
            shape: rapier_shape(standing),
            half_height: standing.height() * 0.5,
            shapes: [
                (standing, stairs.max_step_height),
                crate::peer::crouched(scenario),
            ],
        };
        Self::with_engine(scenario, Ok(engine))
    }
}

impl Engine for Rapier {
    fn move_body(&mut self, position: Vec3, velocity: Vec3, dt: f32) -> EngineMove {
        let pose = Pose::from_translation(position + Vec3::Y * self.half_height);
        let queries = self.physics.query_pipeline();
        let moved = self.controller.move_shape(
            dt,
            &queries,
            self.shape.as_ref(),
            &pose,
            velocity * dt,
            |_| {},
        );
        Ok((moved.translation, moved.grounded))
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
