//! A slide that lands a falling body inside level floor, as Godot Physics' does (measured on
//! the Godot world, `stairwell_up` at 45 Hz: a 1.8 m capsule starting 2 cm up ends its landing
//! 8 mm below the floor; the slide's first motion stops within the margin, the rest of the
//! motion goes on along the floor and down into it). Godot's plain body lands as deep, and
//! only its next tick's recovery pushes it out. The controller must stand the body on the
//! floor within the landing tick, by its own queries.

use glam::Vec3;
use kcc::{Controller, ControllerSettings, KinematicBody, MotionTest, TickInput};

use super::{level_floor_test, static_contact};

/// How deep the landing slide ends the body in the floor, m.
const SUNK: f32 = 0.008;
/// How far above the floor a motion down from a free place stops (the engine's margin), m.
const STOP: f32 = 0.0005;

/// Level floor at y = 0, nothing else. The slide that lands the body ends it `SUNK` inside the
/// floor; later slides along the floor keep it `STOP` above.
struct LandingFloor {
    position: Vec3,
    on_floor: bool,
}

impl KinematicBody for LandingFloor {
    stored_position!();
    fn test_move(&mut self, from: Vec3, motion: Vec3) -> MotionTest {
        level_floor_test(from, motion, STOP, false)
    }
    fn move_and_slide(&mut self, velocity: Vec3, dt: f32) -> Vec3 {
        let to = self.position + velocity * dt;
        let landing = !self.on_floor;
        self.on_floor = to.y <= STOP;
        if !self.on_floor {
            self.position = to;
            return velocity;
        }
        let height = if landing { -SUNK } else { STOP };
        self.position = Vec3::new(to.x, height, to.z);
        Vec3::new(velocity.x, 0.0, velocity.z)
    }
    fn slide_collision(&self, index: usize) -> Option<MotionTest> {
        let at = Vec3::new(self.position.x, 0.0, self.position.z);
        (index == 0 && self.on_floor).then(|| MotionTest {
            travel: Vec3::ZERO,
            remainder: Vec3::ZERO,
            contact: Some(static_contact(Vec3::Y, at)),
        })
    }
    fn is_on_floor(&self) -> bool {
        self.on_floor
    }
    fn is_on_wall(&self) -> bool {
        false
    }
    fn floor_normal(&self) -> Vec3 {
        if self.on_floor { Vec3::Y } else { Vec3::ZERO }
    }
    fn apply_floor_snap(&mut self) {}
    upright_body!(0.4);
}

#[test]
fn a_landing_the_slide_sank_into_level_floor_ends_on_the_floor() {
    let controller = Controller::new(ControllerSettings::default()).unwrap();
    let mut body = LandingFloor {
        position: Vec3::new(0.0, 0.02, 0.0),
        on_floor: false,
    };
    let mut velocity = Vec3::ZERO;
    let mut landed = None;
    for tick in 0..30 {
        let input = TickInput {
            wish_direction: Vec3::NEG_Z,
            jump: false,
            velocity,
            crouch: false,
        };
        let report = controller.tick(&mut body, &input, 1.0 / 45.0);
        velocity = report.velocity;
        let y = body.position.y;
        assert!(
            y >= 0.0,
            "tick {tick}: the body ends {y} m inside the floor"
        );
        if report.on_floor {
            landed.get_or_insert(tick);
            assert!(y <= 0.001, "tick {tick}: {y} m above the floor");
            assert!(velocity.y.abs() < 1e-6, "tick {tick}: {velocity}");
        }
    }
    // The landing sank the body (so the test saw the engine's sink), and it walked on.
    assert!(
        landed.is_some_and(|tick| tick < 5),
        "landed on tick {landed:?}"
    );
    assert!(body.position.z < -0.5, "walked {}", body.position.z);
}
