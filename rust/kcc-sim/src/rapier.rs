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
//! ceiling, and our gravity otherwise.

use std::rc::Rc;

use glam::Vec3;
use kcc::floor::{horizontal, slope_angle};
use kcc::movement::{horizontal_velocity, vertical_speed};
use kcc::{ControllerSettings, KinematicBody};
use kcc_parry::{CharacterShape, ParryBody};
use rapier3d::control::{CharacterAutostep, CharacterLength, KinematicCharacterController};
use rapier3d::prelude::{PhysicsWorld, Pose, SharedShape};

use crate::course;
use crate::run::{Command, Moved, Mover};
use crate::scenario::Scenario;

/// A tick counts as a stair step for Rapier (which reports none) when the body is on the floor
/// before and after and its vertical move exceeds, by more than this (m), what the steeper of the
/// floors under it before and after explains over the horizontal distance moved. Our
/// controller's own rule for steps down uses the same 1 cm.
pub const STEP_TOLERANCE: f32 = 0.01;

/// Rapier's controller moving a shape through the scenario's solids.
pub struct RapierMover {
    physics: Rc<PhysicsWorld>,
    controller: KinematicCharacterController,
    settings: ControllerSettings,
    shape: SharedShape,
    half_height: f32,
    position: Vec3,
    velocity: Vec3,
    grounded: bool,
    /// The last tick's move, m, and whether it began on the floor.
    last_move: (Vec3, bool),
    /// Slope of the floor under the shape after the last tick, rad.
    slope: f32,
    /// A body in the parry world that follows the shape, to measure overlaps and floor slopes
    /// with the same geometry as our controller sees.
    probe: ParryBody,
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
        let settings = character.controller;
        let stairs = settings.stairs;
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
        let shape = match character.body.shape {
            CharacterShape::Capsule { radius, height } => {
                SharedShape::capsule_y((height * 0.5 - radius).max(0.0), radius)
            }
            CharacterShape::Cylinder { radius, height } => {
                SharedShape::cylinder(height * 0.5, radius)
            }
            CharacterShape::Box { size } => {
                SharedShape::cuboid(size.x * 0.5, size.y * 0.5, size.z * 0.5)
            }
        };
        let probe = ParryBody::new(
            scenario.world.clone(),
            character.body,
            scenario.start.position,
        )
        .expect("validated body settings");
        Self {
            physics,
            controller,
            settings,
            shape,
            half_height: character.body.shape.height() * 0.5,
            position: scenario.start.position,
            velocity: scenario.start.velocity,
            grounded: false,
            last_move: (Vec3::ZERO, false),
            slope: 0.0,
            probe,
        }
    }

    /// Slope of the floor under the shape, rad (0 when there is none in reach).
    fn floor_slope(&mut self) -> f32 {
        self.probe.set_position(self.position);
        let reach = self.settings.stairs.max_step_height.max(0.1);
        self.probe
            .test_move(self.position, Vec3::NEG_Y * reach)
            .contact
            .and_then(|c| slope_angle(c.normal, Vec3::Y))
            .unwrap_or(0.0)
    }
}

impl Mover for RapierMover {
    fn position(&self) -> Vec3 {
        self.position
    }

    fn tick(&mut self, command: &Command, dt: f32) -> Moved {
        let movement = &self.settings.movement;
        let curve = if self.grounded {
            &movement.ground
        } else {
            &movement.air
        };
        let wish = horizontal(command.wish, Vec3::Y).clamp_length_max(1.0);
        let run = horizontal_velocity(horizontal(self.velocity, Vec3::Y), wish, curve, dt);
        let (rise, _) = vertical_speed(
            self.velocity.y,
            command.jump,
            self.grounded,
            &self.settings.gravity,
            dt,
        );
        let desired = (run + Vec3::Y * rise) * dt;
        let pose = Pose::from_translation(self.position + Vec3::Y * self.half_height);
        let queries = self.physics.query_pipeline();
        let moved =
            self.controller
                .move_shape(dt, &queries, self.shape.as_ref(), &pose, desired, |_| {});
        self.last_move = (moved.translation, self.grounded);
        self.position += moved.translation;
        self.grounded = moved.grounded;
        let made_rise = moved.translation.y / dt;
        let vertical = if rise > 0.0 {
            rise.min(made_rise.max(0.0))
        } else if self.grounded {
            0.0
        } else {
            rise
        };
        self.velocity = run + Vec3::Y * vertical;
        Moved {
            velocity: self.velocity,
            real_velocity: moved.translation / dt,
            on_floor: self.grounded,
            stair_moved: false,
        }
    }

    fn stepped(&mut self) -> Option<f32> {
        let (translation, was_grounded) = self.last_move;
        let slope_before = self.slope;
        self.slope = self.floor_slope();
        if !(was_grounded && self.grounded) {
            return None;
        }
        let distance = horizontal(translation, Vec3::Y).length();
        let explained = distance * slope_before.max(self.slope).tan();
        (translation.y.abs() > explained + STEP_TOLERANCE).then_some(translation.y)
    }

    fn penetration(&mut self) -> f32 {
        self.probe.set_position(self.position);
        self.probe.penetration()
    }

    fn queries(&self) -> Option<u64> {
        None
    }
}
