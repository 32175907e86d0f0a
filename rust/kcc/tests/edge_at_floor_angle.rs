//! Stepping down past an edge that sits right at the floor angle: the sweep finds a contact
//! that is walkable by its normal, but the engine's own floor snap (measured a little lower, as
//! Jolt's is) does not count it as floor. Seen on real Godot + Jolt: a capsule rolling off the
//! sharp edge of a 0.3 m step at 240 Hz met the edge at 45.57 degrees (floor max 45 degrees plus
//! Godot's 0.01 rad tolerance is 45.57) and flew off the stairs. The step down must slide off
//! such an edge and land on the tread below.

use glam::Vec3;
use kcc::settings::StairSettings;
use kcc::stairs::step_down;
use kcc::{Contact, KinematicBody, MotionTest};

/// A tread at y = -0.3 and, first in the way of a body above it, an edge at (0, 0, 0) whose
/// contact normal is `edge_normal` (pointing up and toward +Z): a sweep from above the edge
/// meets it after `edge_gap` m; anything that has moved past the edge (z > 0.02) meets only the
/// tread. The engine's snap finds floor on the tread, and on the edge when `edge_is_floor`.
struct EdgeThenTread {
    position: Vec3,
    edge_normal: Vec3,
    edge_gap: f32,
    edge_is_floor: bool,
    on_floor: bool,
    snaps: u32,
}

impl EdgeThenTread {
    fn new(edge_angle_deg: f32, edge_is_floor: bool) -> Self {
        let angle = edge_angle_deg.to_radians();
        Self {
            position: Vec3::ZERO,
            edge_normal: Vec3::new(0.0, angle.cos(), angle.sin()),
            edge_gap: 0.02,
            edge_is_floor,
            on_floor: false,
            snaps: 0,
        }
    }
}

const TREAD: f32 = -0.3;

impl KinematicBody for EdgeThenTread {
    fn position(&self) -> Vec3 {
        self.position
    }
    fn set_position(&mut self, position: Vec3) {
        self.position = position;
    }
    fn test_move(&mut self, from: Vec3, motion: Vec3) -> MotionTest {
        let moving_down = motion.y < 0.0;
        if moving_down && from.z < 0.02 && from.y > TREAD + self.edge_gap {
            let travel = Vec3::new(0.0, -self.edge_gap, 0.0);
            // Blocked by the edge only when going (mostly) straight down onto it.
            if motion.z.abs() < 1e-6 {
                return MotionTest {
                    travel,
                    remainder: motion - travel,
                    contact: Some(Contact {
                        normal: self.edge_normal,
                        point: Vec3::ZERO,
                        depth: 0.0,
                    }),
                };
            }
        }
        let end = from + motion;
        if end.y >= TREAD {
            return MotionTest {
                travel: motion,
                remainder: Vec3::ZERO,
                contact: None,
            };
        }
        let share = (from.y - TREAD) / -motion.y;
        let travel = motion * share;
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
        self.snaps += 1;
        let on_edge = (self.position.y + self.edge_gap).abs() < 1e-3 && self.position.z < 0.02;
        self.on_floor = (self.position.y - TREAD).abs() < 1e-3 || (self.edge_is_floor && on_edge);
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

#[test]
fn an_edge_the_engine_does_not_count_as_floor_is_slid_off() {
    // 45.5 degrees from up: walkable for the sweep (45 degrees + 0.01 rad), not for the engine.
    let mut body = EdgeThenTread::new(45.5, false);
    let settings = StairSettings::default();
    let down =
        step_down(&mut body, &settings, Vec3::new(0.0, 0.0, 0.02)).expect("lands on the tread");
    assert!(body.on_floor);
    assert!((body.position.y - TREAD).abs() < 1e-4, "{}", body.position);
    assert!(
        body.position.z > 0.0,
        "slid off the edge toward +Z: {}",
        body.position
    );
    assert!((down.height - TREAD).abs() < 1e-4, "{down:?}");
    assert!(down.is_step);
    assert_eq!(
        body.snaps, 2,
        "one refused landing on the edge, one on the tread"
    );
}

#[test]
fn an_edge_the_engine_counts_as_floor_is_a_landing() {
    let mut body = EdgeThenTread::new(45.5, true);
    let settings = StairSettings::default();
    let down =
        step_down(&mut body, &settings, Vec3::new(0.0, 0.0, 0.02)).expect("lands on the edge");
    assert!(body.on_floor);
    assert_eq!(body.position, Vec3::new(0.0, -0.02, 0.0));
    assert!((down.height + 0.02).abs() < 1e-6, "{down:?}");
    assert_eq!(body.snaps, 1);
}

#[test]
fn a_steep_edge_is_slid_off_without_trying_to_land_on_it() {
    let mut body = EdgeThenTread::new(60.0, true);
    let settings = StairSettings::default();
    step_down(&mut body, &settings, Vec3::new(0.0, 0.0, 0.02)).expect("lands on the tread");
    assert!((body.position.y - TREAD).abs() < 1e-4, "{}", body.position);
    assert_eq!(body.snaps, 1, "only the tread is tried");
}

#[test]
fn no_floor_in_reach_leaves_the_body_where_it_was() {
    let mut body = EdgeThenTread::new(0.0, false);
    body.position = Vec3::new(0.0, 1.0, 0.0);
    body.edge_gap = 2.0;
    let settings = StairSettings::default();
    assert!(step_down(&mut body, &settings, Vec3::ZERO).is_none());
    assert_eq!(body.position, Vec3::new(0.0, 1.0, 0.0));
}
