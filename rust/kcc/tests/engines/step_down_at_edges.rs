//! Stepping down past a step's edge, against the answers real Godot + Jolt gives there:
//! - An edge right at the floor angle: the sweep finds a contact that is walkable by its
//!   normal, but the engine's own floor snap (measured a little lower, as Jolt's is) does not
//!   count it as floor. Seen: a capsule rolling off the sharp edge of a 0.3 m step at 240 Hz met
//!   the edge at 45.57 degrees (45 degrees plus Godot's 0.01 rad tolerance is 45.57) and flew
//!   off the stairs. The step down must not land on such an edge as on floor: it rests on it
//!   as on the edge of a stair (supported, not on floor for the engine), since the tread below
//!   is within reach.
//! - A body hugging the side of the step it just walked off (within the safe margin of it):
//!   Jolt answers the probe down "free" for the whole drop, through the tread below (its cast
//!   stops at the touch at once, and the side contact, which does not oppose the motion, is
//!   dropped). Seen with a cylinder at 60 Hz. The step down must probe again a little further
//!   along the walk, land, and take those millimetres back.

use glam::Vec3;
use kcc::settings::StairSettings;
use kcc::stairs::step_down;
use kcc::{KinematicBody, MotionTest};

use super::{free_motion, static_contact};

/// Height of the tread below, m.
const TREAD: f32 = -0.3;
/// Down probes from closer than this to the side at z = 0 come back free (the hugging case).
const HUG: f32 = 0.001;

/// What stands in the way of a body above the tread at z < 0.02, before the tread.
#[derive(Clone, Copy)]
enum Edge {
    /// An edge at (0, 0, 0) met after `gap` m by a straight-down sweep, with `normal`
    /// (pointing up and toward +Z); the engine's snap counts it as floor when `is_floor`.
    Contact {
        normal: Vec3,
        gap: f32,
        is_floor: bool,
    },
    /// The side of the step at z = 0: down probes from within `HUG` of it are answered free.
    Hugged,
}

/// A tread at y = `TREAD` and the edge of the step above it. The engine's snap finds floor on
/// the tread (and on an edge that is floor).
struct StepEdge {
    position: Vec3,
    edge: Edge,
    on_floor: bool,
    snaps: u32,
    probes: u32,
}

impl StepEdge {
    fn new(edge: Edge) -> Self {
        Self {
            position: Vec3::ZERO,
            edge,
            on_floor: false,
            snaps: 0,
            probes: 0,
        }
    }

    /// An edge met 2 cm down whose normal is `angle_deg` from up.
    fn edge(angle_deg: f32, is_floor: bool) -> Self {
        let angle = angle_deg.to_radians();
        Self::new(Edge::Contact {
            normal: Vec3::new(0.0, angle.cos(), angle.sin()),
            gap: 0.02,
            is_floor,
        })
    }

    /// Hugging the step's side, 1 um from it, level with its top.
    fn hugging() -> Self {
        Self {
            position: Vec3::new(0.0, 0.0, 0.000_001),
            ..Self::new(Edge::Hugged)
        }
    }
}

impl KinematicBody for StepEdge {
    stored_position!();
    fn test_move(&mut self, from: Vec3, motion: Vec3) -> MotionTest {
        let free = free_motion(motion);
        if motion.y >= 0.0 {
            return free;
        }
        self.probes += 1;
        match self.edge {
            Edge::Hugged if from.z < HUG => return free,
            // Blocked by the edge only when going straight down onto it.
            Edge::Contact { normal, gap, .. }
                if from.z < 0.02 && from.y > TREAD + gap && motion.z.abs() < 1e-6 =>
            {
                let travel = Vec3::new(0.0, -gap, 0.0);
                return MotionTest {
                    travel,
                    remainder: motion - travel,
                    contact: Some(static_contact(normal, Vec3::ZERO)),
                };
            }
            _ => {}
        }
        if (from + motion).y >= TREAD {
            return free;
        }
        let travel = motion * ((from.y - TREAD) / -motion.y);
        MotionTest {
            travel,
            remainder: motion - travel,
            contact: Some(static_contact(Vec3::Y, from + travel)),
        }
    }
    fn move_and_slide(&mut self, velocity: Vec3, dt: f32) -> Vec3 {
        self.position += velocity * dt;
        velocity
    }
    fn is_on_floor(&self) -> bool {
        self.on_floor
    }
    fn is_on_wall(&self) -> bool {
        false
    }
    fn floor_normal(&self) -> Vec3 {
        Vec3::Y
    }
    fn apply_floor_snap(&mut self) {
        self.snaps += 1;
        let on_edge = match self.edge {
            Edge::Contact { gap, is_floor, .. } => {
                is_floor && (self.position.y + gap).abs() < 1e-3 && self.position.z < 0.02
            }
            Edge::Hugged => false,
        };
        self.on_floor = (self.position.y - TREAD).abs() < 1e-3 || on_edge;
    }
    upright_body!(0.4);
}

#[test]
fn an_edge_the_engine_does_not_count_as_floor_supports_the_body() {
    // 45.5 degrees from up: walkable for the sweep (45 degrees + 0.01 rad), not for the engine.
    let mut body = StepEdge::edge(45.5, false);
    let settings = StairSettings::default();
    let down =
        step_down(&mut body, &settings, Vec3::new(0.0, 0.0, 0.02)).expect("rests on the edge");
    // Straight down onto the edge, not slid ahead of the walk: the tread below, found by
    // sliding off, only shows it is a stair's edge.
    assert_eq!(body.position, Vec3::new(0.0, -0.02, 0.0));
    assert!(down.on_edge, "{down:?}");
    assert!((down.height + 0.02).abs() < 1e-6, "{down:?}");
    // The edge's slope explains the drop over the walk: no step for the camera.
    assert!(!down.is_step);
    assert_eq!(
        body.snaps, 2,
        "one refused landing on the edge, one on the tread"
    );
}

#[test]
fn an_edge_the_engine_counts_as_floor_is_a_landing() {
    let mut body = StepEdge::edge(45.5, true);
    let settings = StairSettings::default();
    let down =
        step_down(&mut body, &settings, Vec3::new(0.0, 0.0, 0.02)).expect("lands on the edge");
    assert!(body.on_floor);
    assert_eq!(body.position, Vec3::new(0.0, -0.02, 0.0));
    assert!((down.height + 0.02).abs() < 1e-6, "{down:?}");
    assert_eq!(body.snaps, 1);
}

#[test]
fn a_steep_edge_supports_the_body_without_trying_to_land_on_it() {
    let mut body = StepEdge::edge(60.0, true);
    let settings = StairSettings::default();
    let down =
        step_down(&mut body, &settings, Vec3::new(0.0, 0.0, 0.02)).expect("rests on the edge");
    assert_eq!(body.position, Vec3::new(0.0, -0.02, 0.0));
    assert!(down.on_edge && !down.is_step, "{down:?}");
    assert_eq!(body.snaps, 1, "only the tread is tried");
}

#[test]
fn no_floor_in_reach_leaves_the_body_where_it_was() {
    let mut body = StepEdge::edge(0.0, false);
    body.position = Vec3::new(0.0, 1.0, 0.0);
    body.edge = Edge::Contact {
        normal: Vec3::Y,
        gap: 2.0,
        is_floor: false,
    };
    let settings = StairSettings::default();
    assert!(step_down(&mut body, &settings, Vec3::ZERO).is_none());
    assert_eq!(body.position, Vec3::new(0.0, 1.0, 0.0));
}

#[test]
fn a_free_answer_beside_a_riser_is_checked_further_along_the_walk() {
    let mut body = StepEdge::hugging();
    let down = step_down(
        &mut body,
        &StairSettings::default(),
        Vec3::new(0.0, 0.0, 0.067),
    )
    .expect("lands on the tread");
    assert!(body.on_floor);
    assert!((body.position.y - TREAD).abs() < 1e-5, "{}", body.position);
    // Found a few millimetres along the walk (twice the safe margin and 1 mm), then moved back
    // by them on the tread: the step down adds nothing to the walk.
    assert!(body.position.z.abs() < 1e-5, "{}", body.position);
    assert!(down.is_step);
    assert_eq!(
        body.probes, 3,
        "the first probe down, the longer one for a lower step's edge, and the one further along"
    );
}

#[test]
fn without_a_walk_there_is_no_second_probe() {
    let mut body = StepEdge::hugging();
    assert!(step_down(&mut body, &StairSettings::default(), Vec3::ZERO).is_none());
    assert_eq!(
        body.position,
        Vec3::new(0.0, 0.0, 0.000_001),
        "left where it was"
    );
    assert_eq!(
        body.probes, 2,
        "the probe down and the longer one, no second place"
    );
}

#[test]
fn a_real_ledge_is_still_no_floor() {
    // Nothing within the max step height anywhere: both probes are free.
    let mut body = StepEdge::hugging();
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
    assert_eq!(body.probes, 3);
}
