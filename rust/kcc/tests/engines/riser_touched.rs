//! A body on the engine's floor whose side touches the top of a riser ahead, as a 0.4 m
//! capsule held on the rounding of one 0.3 m tread's edge touches the next step's edge: the
//! probe down from its feet meets that edge first, steep and 0.2 m above the feet. Godot
//! Physics' slide may carry the body into such an edge without reporting it (measured on the
//! Godot world, `slow_walk_stairs` at 200 Hz: 0.6 mm in, no collision), and the climb then
//! waited a tick. The move must probe its motion for the riser before the slide, as for a body
//! the flat base holds on an edge.

use glam::Vec3;
use kcc::{Controller, ControllerSettings, KinematicBody, MotionTest};

use super::{free_motion, static_contact};

/// What the fake engine was asked, in order.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Call {
    /// A motion test straight down.
    Down,
    /// A motion test along the walk (-Z), level or along the floor's slope.
    Along,
    /// Any other motion test.
    Other,
    /// The engine's slide.
    Slide,
}

/// Floor tilted 7 degrees (the rounding of the edge the feet rest on, rising along -Z), and
/// the top of a riser `ahead` m along -Z and 0.2 m above the feet, which a probe down meets
/// after 2 mm with a 60 degree normal. Every other motion is free.
struct TouchedRiser {
    position: Vec3,
    ahead: f32,
    calls: Vec<Call>,
}

impl TouchedRiser {
    fn new(ahead: f32) -> Self {
        Self {
            position: Vec3::ZERO,
            ahead,
            calls: Vec::new(),
        }
    }
}

impl KinematicBody for TouchedRiser {
    stored_position!();
    fn test_move(&mut self, from: Vec3, motion: Vec3) -> MotionTest {
        let free = free_motion(motion);
        let level = Vec3::new(motion.x, 0.0, motion.z);
        if level.length() < 1e-6 && motion.y < 0.0 {
            self.calls.push(Call::Down);
            let travel = Vec3::new(0.0, -0.002, 0.0);
            let normal = Vec3::new(0.0, 60f32.to_radians().cos(), 60f32.to_radians().sin());
            let top = from + Vec3::new(0.0, 0.2, -self.ahead);
            return MotionTest {
                travel,
                remainder: motion - travel,
                contact: Some(static_contact(normal * self.ahead.signum(), top)),
            };
        }
        let call = if motion.z < -1e-6 {
            Call::Along
        } else {
            Call::Other
        };
        self.calls.push(call);
        free
    }
    fn move_and_slide(&mut self, velocity: Vec3, dt: f32) -> Vec3 {
        self.calls.push(Call::Slide);
        self.position += velocity * dt;
        velocity
    }
    fn is_on_floor(&self) -> bool {
        true
    }
    fn is_on_wall(&self) -> bool {
        false
    }
    fn floor_normal(&self) -> Vec3 {
        Vec3::new(0.0, 7f32.to_radians().cos(), 7f32.to_radians().sin())
    }
    fn apply_floor_snap(&mut self) {}
    upright_body!(0.4);
}

/// The calls of one move at 0.5 m/s along -Z at 200 Hz.
fn calls_of_a_slow_walk(mut body: TouchedRiser) -> Vec<Call> {
    let controller = Controller::new(ControllerSettings::default()).unwrap();
    controller.move_and_step(&mut body, Vec3::new(0.0, 0.0, -0.5), 1.0 / 200.0);
    body.calls
}

#[test]
fn a_riser_the_side_touches_ahead_is_probed_for_before_the_slide() {
    let calls = calls_of_a_slow_walk(TouchedRiser::new(0.35));
    assert_eq!(calls[..2], [Call::Down, Call::Along], "{calls:?}");
    assert!(calls.contains(&Call::Slide), "{calls:?}");
}

#[test]
fn a_riser_top_behind_the_body_is_not_probed_for() {
    // The same edge behind the body (walking away from it): the slide comes first.
    let calls = calls_of_a_slow_walk(TouchedRiser::new(-0.35));
    assert_eq!(calls[..2], [Call::Down, Call::Slide], "{calls:?}");
}
