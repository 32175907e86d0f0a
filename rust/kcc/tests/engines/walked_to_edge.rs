//! A slide that makes its whole walk and touches a step's edge at its end, as a capsule walking
//! up stairs at 244.6 Hz touches the next step's edge with its round bottom (the property test
//! of `kcc-parry`, `generality.rs`): the climb comes on the next tick, from against that edge,
//! and this tick makes none of its sweeps. A riser's face met the same way is still looked for
//! by the climb's probe.

use glam::Vec3;
use kcc::{Controller, ControllerSettings, KinematicBody, MotionTest};

use super::{free_motion, level_floor_test, static_contact};

/// What the fake engine was asked, in order.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Call {
    /// A motion test straight down.
    Down,
    /// A motion test with a part up (the climb's lift).
    Up,
    /// A motion test along the walk (-Z).
    Along,
    /// The engine's slide.
    Slide,
}

/// Level floor at y = 0; each slide makes its whole motion and reports, as its first
/// collision, a contact of unit `normal` just ahead of where it ended, with nothing of the
/// motion left. Every motion test but those down to the floor is free.
struct WholeWalk {
    position: Vec3,
    normal: Vec3,
    slid: Vec3,
    calls: Vec<Call>,
}

impl WholeWalk {
    fn new(normal: Vec3) -> Self {
        Self {
            position: Vec3::ZERO,
            normal: normal.normalize(),
            slid: Vec3::ZERO,
            calls: Vec::new(),
        }
    }
}

impl KinematicBody for WholeWalk {
    stored_position!();
    fn test_move(&mut self, from: Vec3, motion: Vec3) -> MotionTest {
        let call = if motion.y > 1e-6 {
            Call::Up
        } else if motion.z < -1e-6 {
            Call::Along
        } else {
            Call::Down
        };
        self.calls.push(call);
        if call == Call::Down {
            level_floor_test(from, motion, 0.0005, false)
        } else {
            free_motion(motion)
        }
    }
    fn move_and_slide(&mut self, velocity: Vec3, dt: f32) -> Vec3 {
        self.calls.push(Call::Slide);
        self.slid = Vec3::new(velocity.x, 0.0, velocity.z) * dt;
        self.position += self.slid;
        velocity
    }
    fn slide_collision(&self, index: usize) -> Option<MotionTest> {
        let ahead = self.position + Vec3::new(0.0, 0.15, -0.25);
        (index == 0).then_some(MotionTest {
            travel: self.slid,
            remainder: Vec3::ZERO,
            contact: Some(static_contact(self.normal, ahead)),
        })
    }
    fn is_on_floor(&self) -> bool {
        true
    }
    fn is_on_wall(&self) -> bool {
        true
    }
    fn floor_normal(&self) -> Vec3 {
        Vec3::Y
    }
    fn apply_floor_snap(&mut self) {}
    upright_body!(0.3);
}

/// The calls of one move at 4.4 m/s along -Z at 244.6 Hz, the slide meeting `normal`.
fn calls_of_a_walk_meeting(normal: Vec3) -> Vec<Call> {
    let controller = Controller::new(ControllerSettings::default()).unwrap();
    let mut body = WholeWalk::new(normal);
    controller.move_and_step(&mut body, Vec3::new(0.0, 0.0, -4.4), 1.0 / 244.6);
    body.calls
}

#[test]
fn an_edge_the_whole_walk_touched_at_its_end_is_climbed_next_tick_without_sweeps() {
    // The rounding of the step's edge, tilted 58 degrees toward the body (too steep to stand
    // on): what the capsule's round bottom meets there.
    let calls = calls_of_a_walk_meeting(Vec3::new(0.0, 0.52, 0.85));
    assert_eq!(calls[0], Call::Slide, "{calls:?}");
    assert!(
        !calls
            .iter()
            .any(|&call| matches!(call, Call::Up | Call::Along)),
        "{calls:?}"
    );
}

#[test]
fn a_riser_face_the_whole_walk_touched_at_its_end_is_still_probed_for() {
    let calls = calls_of_a_walk_meeting(Vec3::Z);
    assert!(calls.contains(&Call::Along), "{calls:?}");
}
