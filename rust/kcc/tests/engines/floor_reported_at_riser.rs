//! A motion along level floor that stops against a riser it only just touches, on an engine
//! that reports the deepest contact where the motion stopped: the floor under the body, within
//! the safe margin, not the riser (Godot Physics; a cylinder on `spiral_stairs_cylinder` at
//! 120 Hz stood a tick against the riser and walked on from rest). The climb looks for the
//! riser again from just above the floor, and the body steps up in the same tick.

use glam::Vec3;
use kcc::{Controller, ControllerSettings, KinematicBody, MotionTest};

use super::{free_motion, static_contact};

/// The body's radius, m.
const RADIUS: f32 = 0.4;
/// The riser's face, at this z (m): the step's top is at [`STEP`] for z below it.
const RISER: f32 = -0.41;
/// The step's height, m.
const STEP: f32 = 0.15;
/// Godot's safe margin, m.
const MARGIN: f32 = 0.001;

/// Level floor at y = 0 and a step [`STEP`] high beyond z = [`RISER`], met by a body walking
/// along -Z; on floor, always.
struct FloorReported {
    position: Vec3,
    first: Option<MotionTest>,
    on_wall: bool,
}

impl FloorReported {
    /// The height of what is under a body at `at` (its front over the step stands it there).
    fn support(at: Vec3) -> f32 {
        if at.z - RADIUS < RISER { STEP } else { 0.0 }
    }

    /// A motion test of the fake engine: down onto the support, along -Z into the riser while
    /// below the step's top, anything else free.
    fn test(from: Vec3, motion: Vec3) -> MotionTest {
        if motion.y < 0.0 && motion.x == 0.0 && motion.z == 0.0 {
            let fall = from.y - Self::support(from) - MARGIN;
            if fall >= -motion.y {
                return free_motion(motion);
            }
            let travel = Vec3::new(0.0, -fall.max(0.0), 0.0);
            let under = Vec3::new(from.x, Self::support(from), from.z - RADIUS);
            return MotionTest {
                travel,
                remainder: motion - travel,
                contact: Some(static_contact(Vec3::Y, under)),
            };
        }
        let front = from.z - RADIUS;
        let low = from.y < STEP;
        if !(low && motion.z < 0.0 && front + motion.z < RISER + MARGIN) {
            return free_motion(motion);
        }
        let share = ((front - RISER - MARGIN) / -motion.z).clamp(0.0, 1.0);
        let travel = motion * share;
        // Standing on the floor (within two margins), the floor's contact is the deepest.
        let contact = if from.y <= 2.0 * MARGIN {
            static_contact(Vec3::Y, Vec3::new(from.x, 0.0, from.z + travel.z))
        } else {
            static_contact(Vec3::Z, Vec3::new(from.x, from.y, RISER))
        };
        MotionTest {
            travel,
            remainder: motion - travel,
            contact: Some(contact),
        }
    }
}

impl KinematicBody for FloorReported {
    stored_position!();
    fn test_move(&mut self, from: Vec3, motion: Vec3) -> MotionTest {
        Self::test(from, motion)
    }
    fn move_and_slide(&mut self, velocity: Vec3, dt: f32) -> Vec3 {
        let motion = Vec3::new(velocity.x, 0.0, velocity.z) * dt;
        let met = Self::test(self.position, motion);
        self.position += met.travel;
        self.position.y = self.position.y.max(Self::support(self.position) + MARGIN);
        self.on_wall = met.contact.is_some();
        self.first = met.contact.is_some().then_some(met);
        if self.on_wall { Vec3::ZERO } else { velocity }
    }
    on_level_floor_by_walls!();
    upright_body!(RADIUS);
}

#[test]
fn a_riser_behind_the_floor_contact_the_engine_reports_is_climbed_in_the_same_tick() {
    let controller = Controller::new(ControllerSettings::default()).unwrap();
    let mut body = FloorReported {
        position: Vec3::new(0.0, MARGIN, 0.0),
        first: None,
        on_wall: false,
    };
    // 2 m/s at 120 Hz: 16.7 mm a tick, the riser 10 mm ahead of the body's front.
    let report = controller.move_and_step(&mut body, Vec3::new(0.0, 0.0, -2.0), 1.0 / 120.0);
    let y = body.position.y;
    assert!(
        (y - STEP).abs() < 0.01,
        "not on the step: {:?}, {report:?}",
        body.position
    );
    assert!(body.position.z < -0.01, "{:?}", body.position);
}
