//! The controller facing an engine that reports nonsense: zero, NaN and horizontal contact
//! normals, a floor max angle of 0 or 90 degrees, a degenerate up direction. It must never
//! panic and never move the body by a non-finite amount.

use glam::Vec3;
use kcc::{Contact, Controller, ControllerSettings, KinematicBody, MotionTest, TickInput};

/// A body on an endless floor at y = 0 whose every contact reports `normal`.
struct Liar {
    position: Vec3,
    normal: Vec3,
    floor_max_angle: f32,
    up: Vec3,
    on_floor: bool,
    radius: f32,
}

impl Liar {
    fn new(normal: Vec3) -> Self {
        Self {
            position: Vec3::ZERO,
            normal,
            floor_max_angle: 45f32.to_radians(),
            up: Vec3::Y,
            on_floor: true,
            radius: 0.4,
        }
    }
}

impl KinematicBody for Liar {
    fn position(&self) -> Vec3 {
        self.position
    }
    fn set_position(&mut self, position: Vec3) {
        assert!(
            position.is_finite(),
            "the controller set a non-finite position"
        );
        self.position = position;
    }
    fn test_move(&mut self, from: Vec3, motion: Vec3) -> MotionTest {
        assert!(
            from.is_finite() && motion.is_finite(),
            "non-finite query {from} {motion}"
        );
        // Everything is blocked half way, with a lying normal.
        let travel = motion * 0.5;
        let contact = Contact {
            normal: self.normal,
            point: from + travel,
            depth: 0.001,
            movable: false,
        };
        MotionTest {
            travel,
            remainder: motion - travel,
            contact: Some(contact),
        }
    }
    fn move_and_slide(&mut self, velocity: Vec3, dt: f32) -> Vec3 {
        assert!(
            velocity.is_finite() && dt.is_finite(),
            "non-finite slide {velocity} {dt}"
        );
        self.position += (velocity * dt).with_y(0.0);
        self.on_floor = true;
        velocity.with_y(0.0)
    }
    fn is_on_floor(&self) -> bool {
        self.on_floor
    }
    fn is_on_wall(&self) -> bool {
        false
    }
    fn floor_normal(&self) -> Vec3 {
        self.normal
    }
    fn apply_floor_snap(&mut self) {}
    fn up_direction(&self) -> Vec3 {
        self.up
    }
    fn floor_max_angle(&self) -> f32 {
        self.floor_max_angle
    }
    fn safe_margin(&self) -> f32 {
        0.001
    }
    fn shape_height(&self) -> f32 {
        1.8
    }
    fn shape_radius(&self) -> f32 {
        self.radius
    }
    fn set_shape_height(&mut self, _height: f32) {}
}

fn run(body: &mut Liar) {
    let controller = Controller::new(ControllerSettings::default()).unwrap();
    let mut velocity = Vec3::ZERO;
    for tick in 0..120 {
        let jump = tick % 30 == 0;
        let input = TickInput {
            wish_direction: Vec3::new(0.3, 0.0, -1.0),
            jump,
            velocity,
            crouch: false,
        };
        let report = controller.tick(body, &input, 1.0 / 60.0);
        velocity = report.velocity;
        assert!(velocity.is_finite(), "velocity {velocity}");
        assert!(body.position.is_finite(), "position {}", body.position);
        assert!(report.stepped.is_none_or(f32::is_finite));
        // Stair steps never go beyond the max step height, whatever the engine says.
        assert!(report.step_up <= controller.settings().stairs.max_step_height + 0.001);
    }
}

#[test]
fn degenerate_normals_do_not_break_a_tick() {
    for normal in [
        Vec3::ZERO,
        Vec3::NAN,
        Vec3::new(f32::INFINITY, 0.0, 0.0),
        Vec3::X,                    // a wall with no vertical part
        Vec3::new(0.0, 1e-30, 1.0), // almost no vertical part
        Vec3::NEG_Y,                // a ceiling reported as floor
        Vec3::new(0.0, 3.0, 0.0),   // not unit length
    ] {
        run(&mut Liar::new(normal));
    }
}

#[test]
fn floor_max_angle_of_0_or_90_degrees_does_not_break_a_tick() {
    for degrees in [0.0f32, 90.0, -5.0, 180.0] {
        for normal in [Vec3::Y, Vec3::X, Vec3::ZERO] {
            let mut body = Liar::new(normal);
            body.floor_max_angle = degrees.to_radians();
            run(&mut body);
        }
    }
}

#[test]
fn degenerate_up_direction_falls_back_to_y() {
    for up in [Vec3::ZERO, Vec3::NAN, Vec3::new(0.0, 5.0, 0.0)] {
        let mut body = Liar::new(Vec3::Y);
        body.up = up;
        run(&mut body);
    }
}

#[test]
fn a_shape_radius_that_makes_no_sense_does_not_break_a_tick() {
    for radius in [0.0, -1.0, f32::NAN, f32::INFINITY, 1e30, 1e-30] {
        for normal in [Vec3::Y, Vec3::new(0.0, 0.7, 0.7)] {
            let mut body = Liar::new(normal);
            body.radius = radius;
            run(&mut body);
        }
    }
}

#[test]
fn a_non_finite_body_position_moves_nothing() {
    let controller = Controller::new(ControllerSettings::default()).unwrap();
    for position in [Vec3::NAN, Vec3::new(0.0, f32::INFINITY, 0.0)] {
        let mut body = Liar::new(Vec3::Y);
        body.position = position;
        let input = TickInput {
            wish_direction: Vec3::NEG_Z,
            jump: true,
            velocity: Vec3::X,
            crouch: false,
        };
        let report = controller.tick(&mut body, &input, 1.0 / 60.0);
        assert!(report.sanitized.position);
        assert_eq!(report.substeps, 0);
        assert_eq!(report.velocity, Vec3::X);
        let report = controller.move_and_step(&mut body, Vec3::X, 1.0 / 60.0);
        assert!(report.sanitized.position);
        assert_eq!(
            controller.stair_step_up(&mut body, Vec3::X, 1.0 / 60.0),
            0.0
        );
        assert_eq!(
            controller.stair_step_down(&mut body, true, Vec3::X, 0.1),
            None
        );
    }
}
