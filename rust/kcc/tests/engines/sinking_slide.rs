//! A slide that ends the body inside level floor, as Godot Physics' does for a character
//! pushing a crate along the floor (measured on the Godot world, `push_crate_light`: a capsule
//! 47 mm below the floor after one slide at 60 Hz, 49 mm at 30 and 240 Hz). That engine also
//! reports the floor without a floor normal after some of those slides, and its motion tests
//! from inside the floor report the overlap as a collision with little motion. Its slide also
//! sinks a body walking from a stair's edge onto the tread (a 6 m character 4.4 mm, at 200 Hz),
//! and its motion tests from there first push the body out of the tread and then move. Its
//! floor snap inside the slide sinks a capsule rolling off a stair's edge into the floor
//! below, with no slide collision (`stairs_down_full_speed_rolling` at 144 Hz, 7.4 mm). The
//! controller must stand the body on the floor again within the tick, by its own queries,
//! with the flat base and rolling.

use glam::Vec3;
use kcc::{
    Controller, ControllerSettings, GroundFollow, KinematicBody, MotionTest, StepDetection,
    TickInput,
};

use super::level_floor_test;

/// How deep the sinking slides end the body in the floor, m.
const SUNK: f32 = 0.047;
/// How far above the floor a probe down from a free place stops (the engine's margin), m.
const STOP: f32 = 0.0005;

/// Level floor at y = 0, nothing else. Every third slide ends the body `SUNK` inside it; the
/// slide before a sinking one reports the floor without a normal. A motion test from inside
/// the floor is `stuck` (the overlap reported as a collision, no motion), or pushes the body
/// out of the floor before it moves.
struct SinkingFloor {
    position: Vec3,
    slides: u32,
    normal: Vec3,
    stuck: bool,
}

impl SinkingFloor {
    fn new(stuck: bool) -> Self {
        Self {
            position: Vec3::ZERO,
            slides: 0,
            normal: Vec3::Y,
            stuck,
        }
    }
}

impl KinematicBody for SinkingFloor {
    stored_position!();
    fn test_move(&mut self, from: Vec3, motion: Vec3) -> MotionTest {
        level_floor_test(from, motion, STOP, !self.stuck)
    }
    fn move_and_slide(&mut self, velocity: Vec3, dt: f32) -> Vec3 {
        self.slides += 1;
        let run = Vec3::new(velocity.x, 0.0, velocity.z);
        let sinks = self.slides.is_multiple_of(3);
        self.normal = if self.slides % 3 == 2 {
            Vec3::ZERO
        } else {
            Vec3::Y
        };
        let height = if sinks { -SUNK } else { STOP };
        self.position = Vec3::new(self.position.x, height, self.position.z) + run * dt;
        run
    }
    fn is_on_floor(&self) -> bool {
        true
    }
    fn is_on_wall(&self) -> bool {
        false
    }
    fn floor_normal(&self) -> Vec3 {
        self.normal
    }
    fn apply_floor_snap(&mut self) {}
    upright_body!(0.4);
}

#[test]
fn a_body_the_slide_sank_into_level_floor_stands_on_it_again() {
    walks_out_of_the_floor(SinkingFloor::new(true), true);
}

#[test]
fn a_body_sunk_where_motion_tests_push_out_first_stands_on_the_floor_again() {
    walks_out_of_the_floor(SinkingFloor::new(false), true);
}

#[test]
fn a_rolling_body_the_slide_sank_into_level_floor_stands_on_it_again() {
    walks_out_of_the_floor(SinkingFloor::new(true), false);
}

#[test]
fn a_rolling_body_sunk_where_motion_tests_push_out_first_stands_on_the_floor_again() {
    walks_out_of_the_floor(SinkingFloor::new(false), false);
}

/// Walks `body` 60 ticks at 60 Hz, with the `flat_base` or rolling: every tick ends on the
/// floor, the walk kept.
fn walks_out_of_the_floor(mut body: SinkingFloor, flat_base: bool) {
    let mut settings = ControllerSettings::default();
    settings.stairs.ground_follow = GroundFollow::Snap {
        flat_base,
        detection: StepDetection::Contacts,
    };
    let controller = Controller::new(settings).unwrap();
    let mut velocity = Vec3::ZERO;
    for tick in 0..60 {
        let input = TickInput {
            wish_direction: Vec3::NEG_Z,
            jump: false,
            velocity,
            crouch: false,
        };
        let before = body.position;
        let report = controller.tick(&mut body, &input, 1.0 / 60.0);
        velocity = report.velocity;
        let y = body.position.y;
        assert!(
            (0.0..=0.001).contains(&y),
            "tick {tick}: the body ends {y} m from the floor"
        );
        assert!(report.on_floor, "tick {tick}: {report:?}");
        assert_eq!(report.stepped, None, "tick {tick}: no stair here");
        assert!(velocity.y.abs() < 1e-6, "tick {tick}: {velocity}");
        // The walk is kept: the lift out of the floor is straight up.
        let walked = body.position.z - before.z;
        let walk = report.velocity.z / 60.0;
        assert!(
            (walked - walk).abs() < 1e-4,
            "tick {tick}: {walked} vs {walk}"
        );
    }
    assert!(body.position.z < -2.0, "walked {}", body.position.z);
}
