//! A slide that stops dead the first time it meets a wall, as Godot's `move_and_slide` does on
//! Godot Physics when the body lands against a wall (it reports the wall a second time in the
//! same slide, and Godot's guard against jitter in corners then stops all motion). Measured on
//! the Godot world, `wall_slide`: the walk started again from rest, 0.33 to 0.38 m short after
//! a second along the wall. The controller keeps the walk's part along the wall when it is
//! free; in a corner it is not, and the body stays stopped. At 75 Hz the slide that lands
//! beside the wall reports the floor as its first collision (measured there: 0.365 m short),
//! and the controller finds the wall with a test of the walk.

use glam::Vec3;
use kcc::{Contact, Controller, ControllerSettings, KinematicBody, MotionTest, TickInput};

use super::static_contact;

/// Radius of the body, m.
const RADIUS: f32 = 0.4;
/// The wall's face is at z = -0.5: the body's origin stays at z >= `WALL_Z`.
const WALL_Z: f32 = -0.5 + RADIUS;

/// Level floor at y = 0, a wall along x, and optionally a second wall across x (a corner):
/// the body's origin stays at x <= `corner`. The first slide to meet a wall stops dead; with
/// `floor_first`, that slide reports the floor as its first collision (it landed).
struct StopsAtWall {
    position: Vec3,
    corner: f32,
    floor_first: bool,
    on_wall: bool,
    met: bool,
    first: Option<MotionTest>,
}

impl StopsAtWall {
    fn new(corner: f32, floor_first: bool) -> Self {
        Self {
            position: Vec3::new(0.0, 0.0, -0.05),
            corner,
            floor_first,
            on_wall: false,
            met: false,
            first: None,
        }
    }

    /// Where a motion from `from` ends against the walls, and the wall met first (its normal).
    fn clip(&self, from: Vec3, motion: Vec3) -> (Vec3, Option<Vec3>) {
        let horizontal = Vec3::new(motion.x, 0.0, motion.z);
        let mut share: f32 = 1.0;
        let mut normal = None;
        if from.z + horizontal.z < WALL_Z {
            share = (from.z - WALL_Z).max(0.0) / -horizontal.z;
            normal = Some(Vec3::Z);
        }
        if from.x + horizontal.x > self.corner {
            let across = (self.corner - from.x).max(0.0) / horizontal.x;
            if across < share {
                share = across;
                normal = Some(Vec3::NEG_X);
            }
        }
        (horizontal * share, normal)
    }
}

/// The contact of a body at `at` (m) with a surface of unit `normal` it touches.
fn wall(normal: Vec3, at: Vec3) -> Option<Contact> {
    Some(static_contact(normal, at - normal * RADIUS))
}

impl KinematicBody for StopsAtWall {
    stored_position!();
    fn test_move(&mut self, from: Vec3, motion: Vec3) -> MotionTest {
        if motion.y < 0.0 && motion.x == 0.0 && motion.z == 0.0 {
            // Straight down: onto the floor.
            let travel = Vec3::new(0.0, -from.y.max(0.0).min(-motion.y), 0.0);
            let landed = (from + travel).y <= 0.0;
            return MotionTest {
                travel,
                remainder: motion - travel,
                contact: wall(Vec3::Y, from + travel + Vec3::Y * RADIUS).filter(|_| landed),
            };
        }
        let (travel, normal) = self.clip(from, motion);
        let travel = travel + Vec3::Y * motion.y.max(0.0);
        MotionTest {
            travel,
            remainder: motion - travel,
            contact: normal.and_then(|normal| wall(normal, from + travel)),
        }
    }
    fn move_and_slide(&mut self, velocity: Vec3, dt: f32) -> Vec3 {
        let motion = velocity * dt;
        let (travel, normal) = self.clip(self.position, motion);
        let landed = self.floor_first && !self.met;
        self.first = normal.map(|normal| MotionTest {
            travel,
            remainder: motion - travel,
            contact: if landed {
                wall(Vec3::Y, self.position + travel + Vec3::Y * RADIUS)
            } else {
                wall(normal, self.position + travel)
            },
        });
        self.position += travel;
        self.on_wall = normal.is_some();
        let Some(normal) = normal else {
            return Vec3::new(velocity.x, 0.0, velocity.z);
        };
        if !self.met {
            // The guard: the first meeting with a wall stops all motion.
            self.met = true;
            return Vec3::ZERO;
        }
        // Then the slide along it, as far as the other wall lets.
        let along = Vec3::new(velocity.x, 0.0, velocity.z);
        let along = along - normal * along.dot(normal).min(0.0);
        let (rest, other) = self.clip(self.position, along * dt - travel);
        self.position += rest;
        if other.is_some() { Vec3::ZERO } else { along }
    }
    on_level_floor_by_walls!();
    upright_body!(RADIUS);
}

/// Walks `body` at (5, 0, -1) m/s into the wall for `ticks` at 60 Hz; the horizontal speeds
/// the ticks left.
fn walk(body: &mut StopsAtWall, ticks: u32) -> Vec<f32> {
    let mut settings = ControllerSettings::default();
    settings.movement.ground.max_speed = Vec3::new(5.0, 0.0, -1.0).length();
    let controller = Controller::new(settings).unwrap();
    let wish = Vec3::new(5.0, 0.0, -1.0).normalize();
    let mut velocity = wish * controller.settings().movement.ground.max_speed;
    let mut speeds = Vec::new();
    for _ in 0..ticks {
        let input = TickInput {
            wish_direction: wish,
            jump: false,
            velocity,
            crouch: false,
        };
        velocity = controller.tick(body, &input, 1.0 / 60.0).velocity;
        speeds.push(Vec3::new(velocity.x, 0.0, velocity.z).length());
    }
    speeds
}

/// Walks a body whose first meeting with the wall stops it dead (`floor_first`: that slide
/// reports the floor first) along the wall for a second: the walk's part along it, 5 m/s, is
/// kept on the tick the slide stopped, and the body ends a second at 5 m/s along the wall,
/// less the rest of that tick.
fn keeps_the_walk_along_the_wall(floor_first: bool) {
    let mut body = StopsAtWall::new(f32::INFINITY, floor_first);
    let speeds = walk(&mut body, 60);
    assert!(body.met, "the wall was met");
    let slowest = speeds.iter().copied().fold(f32::INFINITY, f32::min);
    assert!(slowest > 4.9, "speeds {speeds:?}");
    assert!((body.position.z - WALL_Z).abs() < 1e-4, "{}", body.position);
    assert!(body.position.x > 4.85, "ends at {}", body.position);
}

#[test]
fn a_slide_stopped_dead_against_a_wall_keeps_the_walk_along_it() {
    keeps_the_walk_along_the_wall(false);
}

#[test]
fn a_slide_stopped_dead_in_a_corner_stays_stopped() {
    // The other wall's face 2 cm past where the body meets the first: the walk along the first
    // wall is not free for a tick.
    let mut body = StopsAtWall::new(0.38, false);
    let speeds = walk(&mut body, 10);
    assert!(body.met, "the wall was met");
    assert!(body.position.x <= 0.38 + 1e-6, "{}", body.position);
    assert_eq!(speeds.last(), Some(&0.0), "speeds {speeds:?}");
}

#[test]
fn a_slide_that_met_the_floor_before_the_wall_it_stopped_dead_against_keeps_the_walk() {
    keeps_the_walk_along_the_wall(true);
}
