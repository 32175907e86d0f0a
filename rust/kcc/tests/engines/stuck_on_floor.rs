//! A slide that stops dead on the floor it walks along, as Godot Physics' does for a cylinder
//! set down on a slope's face: each of its collisions meets that floor with no travel, and it
//! ends where it began, on the floor, against no wall. Measured on the Godot world,
//! `ramp_30_cylinder` at 175 Hz: the cylinder stood still halfway up the ramp for 170 ticks.
//! The controller makes such a slide again from a safe margin higher, and the body walks on;
//! the tick's report says that raise, a move outside the slide.

use glam::Vec3;
use kcc::{Controller, ControllerSettings, KinematicBody, MotionTest, TickInput};

use super::static_contact;

/// Radius of the body, m.
const RADIUS: f32 = 0.4;
/// Godot's safe margin, m (as `upright_body!` says).
const MARGIN: f32 = 0.001;

/// Level floor at y = 0 and nothing else. A slide from less than half a margin above the floor
/// meets it at once, six times, and does not move; from higher it makes the whole walk and
/// its floor snap sets the body down on the floor (where the next slide sticks again).
struct SticksOnFloor {
    position: Vec3,
    stuck: bool,
    slides: u32,
}

impl KinematicBody for SticksOnFloor {
    stored_position!();
    fn test_move(&mut self, from: Vec3, motion: Vec3) -> MotionTest {
        let end = from + motion;
        if end.y >= 0.0 {
            return MotionTest {
                travel: motion,
                remainder: Vec3::ZERO,
                contact: None,
            };
        }
        let travel = motion * (from.y.max(0.0) / -motion.y);
        MotionTest {
            travel,
            remainder: motion - travel,
            contact: Some(static_contact(Vec3::Y, from + travel)),
        }
    }
    fn move_and_slide(&mut self, velocity: Vec3, dt: f32) -> Vec3 {
        self.slides += 1;
        self.stuck = self.position.y < MARGIN / 2.0;
        if self.stuck {
            return velocity;
        }
        let walk = Vec3::new(velocity.x, 0.0, velocity.z);
        self.position = Vec3::new(self.position.x, 0.0, self.position.z) + walk * dt;
        walk
    }
    fn slide_collision(&self, index: usize) -> Option<MotionTest> {
        let floor = MotionTest {
            travel: Vec3::ZERO,
            remainder: Vec3::ZERO,
            contact: Some(static_contact(Vec3::Y, self.position)),
        };
        (self.stuck && index < 6).then_some(floor)
    }
    fn is_on_floor(&self) -> bool {
        true
    }
    fn is_on_wall(&self) -> bool {
        false
    }
    fn floor_normal(&self) -> Vec3 {
        Vec3::Y
    }
    fn apply_floor_snap(&mut self) {}
    upright_body!(RADIUS);
}

#[test]
fn a_slide_stopped_dead_on_its_own_floor_is_made_again_from_a_margin_higher() {
    let controller = Controller::new(ControllerSettings::default()).unwrap();
    let speed = controller.settings().movement.ground.max_speed;
    let mut body = SticksOnFloor {
        position: Vec3::ZERO,
        stuck: false,
        slides: 0,
    };
    let wish = Vec3::NEG_Z;
    let ticks = 60;
    for _ in 0..ticks {
        let input = TickInput {
            wish_direction: wish,
            jump: false,
            velocity: wish * speed,
            crouch: false,
        };
        let report = controller.tick(&mut body, &input, 1.0 / 60.0);
        // The raise is a move outside the slide (Godot's real velocity is the slide's).
        assert!((report.step_up - MARGIN).abs() < 1e-6, "{report:?}");
        assert_eq!(report.stepped, None);
    }
    // Every tick's slide stuck once and was made again: the whole walk, two slides a tick.
    assert!((body.position.z + speed).abs() < 1e-3, "{}", body.position);
    assert_eq!(body.slides, 2 * ticks);
    assert!(body.position.y.abs() < 1e-6, "{}", body.position);
}
