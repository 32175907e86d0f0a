//! Stepping down right after walking off a step, with the body hugging the side of that step
//! (within the safe margin of it). Jolt answers the probe down "free" for the whole drop there,
//! through the tread below: its cast stops at the touch at once, and the side contact, which
//! does not oppose the motion, is dropped (seen on real Godot with a cylinder at 60 Hz). The
//! step down must probe again a little further along the walk and land.

use glam::Vec3;
use kcc::settings::StairSettings;
use kcc::stairs::step_down;
use kcc::{Contact, KinematicBody, MotionTest};

/// A tread at y = -0.3 for z > 0; the side of the step above sits at z = 0. Down probes from
/// within `HUG` of that side come back free for the whole motion (Jolt's answer).
struct Hugging {
    position: Vec3,
    on_floor: bool,
    probes: u32,
}

const TREAD: f32 = -0.3;
const HUG: f32 = 0.001;

impl KinematicBody for Hugging {
    fn position(&self) -> Vec3 {
        self.position
    }
    fn set_position(&mut self, position: Vec3) {
        self.position = position;
    }
    fn test_move(&mut self, from: Vec3, motion: Vec3) -> MotionTest {
        let free = MotionTest {
            travel: motion,
            remainder: Vec3::ZERO,
            contact: None,
        };
        if motion.y >= 0.0 {
            return free;
        }
        self.probes += 1;
        let end = from + motion;
        if from.z < HUG || end.y >= TREAD {
            return free;
        }
        let travel = motion * ((from.y - TREAD) / -motion.y);
        MotionTest {
            travel,
            remainder: motion - travel,
            contact: Some(Contact {
                normal: Vec3::Y,
                point: from + travel,
                depth: 0.0,
            }),
        }
    }
    fn move_and_slide(&mut self, velocity: Vec3, dt: f32) -> Vec3 {
        self.position += velocity * dt;
        velocity
    }
    fn is_on_floor(&self) -> bool {
        self.on_floor
    }
    fn floor_normal(&self) -> Vec3 {
        Vec3::Y
    }
    fn apply_floor_snap(&mut self) {
        self.on_floor = (self.position.y - TREAD).abs() < 1e-4;
    }
    fn up_direction(&self) -> Vec3 {
        Vec3::Y
    }
    fn floor_max_angle(&self) -> f32 {
        45f32.to_radians()
    }
    fn safe_margin(&self) -> f32 {
        0.001
    }
}

fn hugging() -> Hugging {
    Hugging {
        position: Vec3::new(0.0, 0.0, 0.000_001),
        on_floor: false,
        probes: 0,
    }
}

#[test]
fn a_free_answer_beside_a_riser_is_checked_further_along_the_walk() {
    let mut body = hugging();
    let down = step_down(
        &mut body,
        &StairSettings::default(),
        Vec3::new(0.0, 0.0, 0.067),
    )
    .expect("lands on the tread");
    assert!(body.on_floor);
    assert!((body.position.y - TREAD).abs() < 1e-5, "{}", body.position);
    // A few millimetres along the walk: twice the safe margin and 1 mm.
    assert!(
        (0.002..0.004).contains(&body.position.z),
        "{}",
        body.position
    );
    assert!(down.is_step);
    assert_eq!(body.probes, 2);
}

#[test]
fn without_a_walk_there_is_no_second_probe() {
    let mut body = hugging();
    assert!(step_down(&mut body, &StairSettings::default(), Vec3::ZERO).is_none());
    assert_eq!(
        body.position,
        Vec3::new(0.0, 0.0, 0.000_001),
        "left where it was"
    );
    assert_eq!(body.probes, 1);
}

#[test]
fn a_real_ledge_is_still_no_floor() {
    // Nothing within the max step height anywhere: both probes are free.
    let mut body = hugging();
    body.position.y = 1.0;
    let start = body.position;
    assert!(
        step_down(
            &mut body,
            &StairSettings::default(),
            Vec3::new(0.0, 0.0, 0.067)
        )
        .is_none()
    );
    assert_eq!(body.position, start);
    assert_eq!(body.probes, 2);
}
