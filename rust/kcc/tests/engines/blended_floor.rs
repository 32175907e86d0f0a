//! A flat bottom standing with its rim on a 45 degree chamfer, as a cylinder rests on the
//! chamfered nosing of mesh stairs after a climb: Godot Physics' slide reports, as the floor's
//! normal, the average of every floor contact it met (12 degrees there), not the chamfer's own.
//! The probe down still meets the chamfer, and one more probe a little further finds the same
//! face: the body walks up it as on floor. Taken for an edge it would be held level and climb
//! the rest of the chamfer as a second step of the same riser (`mesh_stairs_30cm_chamfer` at
//! 45 Hz on Godot Physics did).

use glam::Vec3;
use kcc::{Controller, ControllerSettings, KinematicBody, MotionTest};

use super::{free_motion, static_contact};

/// The body's radius, m.
const RADIUS: f32 = 0.4;

/// A face rising 45 degrees toward -Z through the origin (`y = -z`), under a flat bottom of
/// radius [`RADIUS`] whose rim touches it; the engine has the body on floor with `floor` as the
/// floor's normal. Motion tests straight down meet the face under the rim's front; every other
/// motion test is free. Slides move the body by their whole motion.
struct Chamfer {
    position: Vec3,
    floor: Vec3,
    slides: Vec<Vec3>,
}

impl Chamfer {
    fn new(floor: Vec3) -> Self {
        Self {
            position: Vec3::new(0.0, RADIUS, 0.0),
            floor: floor.normalize(),
            slides: Vec::new(),
        }
    }
}

impl KinematicBody for Chamfer {
    stored_position!();
    fn test_move(&mut self, from: Vec3, motion: Vec3) -> MotionTest {
        let down = motion.x == 0.0 && motion.z == 0.0 && motion.y < 0.0;
        if !down {
            return free_motion(motion);
        }
        let rim = Vec3::new(from.x, -(from.z - RADIUS), from.z - RADIUS);
        let fall = (from.y - rim.y).max(0.0);
        if fall >= -motion.y {
            return free_motion(motion);
        }
        let travel = Vec3::new(0.0, -fall, 0.0);
        MotionTest {
            travel,
            remainder: motion - travel,
            contact: Some(static_contact(Vec3::new(0.0, 1.0, 1.0).normalize(), rim)),
        }
    }
    fn move_and_slide(&mut self, velocity: Vec3, dt: f32) -> Vec3 {
        self.slides.push(velocity);
        self.position += velocity * dt;
        velocity
    }
    fn slide_collision(&self, _: usize) -> Option<MotionTest> {
        None
    }
    fn is_on_floor(&self) -> bool {
        true
    }
    fn is_on_wall(&self) -> bool {
        false
    }
    fn floor_normal(&self) -> Vec3 {
        self.floor
    }
    fn apply_floor_snap(&mut self) {}
    upright_body!(RADIUS);
}

/// The velocity of the first slide of a move up the chamfer at 4 m/s (45 Hz), m/s.
fn first_slide_on(floor: Vec3) -> Vec3 {
    let controller = Controller::new(ControllerSettings::default()).unwrap();
    let mut body = Chamfer::new(floor);
    controller.move_and_step(&mut body, Vec3::new(0.0, 0.0, -4.0), 1.0 / 45.0);
    body.slides[0]
}

#[test]
fn a_flat_bottom_on_a_chamfer_walks_up_it_when_the_engine_blends_the_floor_normal() {
    // Godot Physics' floor normal there: the chamfer's averaged with level contacts.
    let slide = first_slide_on(Vec3::new(-0.029, 0.978, 0.209));
    assert!(slide.y > 0.5, "held level instead of walking up: {slide:?}");
}

#[test]
fn a_flat_bottom_whose_floor_leans_the_other_way_is_held_level_over_the_edge() {
    // The engine's floor is not the chamfer (it leans toward +Z's opposite side): the rim is
    // held over an edge, and the move is level.
    let slide = first_slide_on(Vec3::new(0.0, 0.978, -0.209));
    assert_eq!(slide.y, 0.0, "{slide:?}");
}
