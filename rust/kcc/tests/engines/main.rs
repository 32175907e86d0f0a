//! The controller against fake engines, in one test binary: an engine that answers nonsense,
//! the answers real Godot + Jolt gives beside a step's edge, and slides that sink the body
//! into level floor or stop dead against a wall or in another character as Godot Physics' do, a body whose side
//! touches the top of a riser ahead, a slide that walks up to a step's edge, a floor normal
//! that Godot Physics blends from a chamfer and level contacts, and the floor's contact that
//! Godot Physics reports for a motion a riser stopped, and a slide whose travel toward a riser
//! the engine took back, and a slide that stops dead on the floor it walks along.

use glam::Vec3;
use kcc::{Contact, MotionTest};

/// The parts of `kcc::KinematicBody` the fake engines of a standing body share: up is +Y,
/// floor up to 45 degrees, Godot's 1 mm safe margin, a body 1.8 m tall of radius `$radius`
/// (m) whose height does not change.
macro_rules! upright_body {
    ($radius:expr) => {
        fn up_direction(&self) -> glam::Vec3 {
            glam::Vec3::Y
        }
        fn floor_max_angle(&self) -> f32 {
            45f32.to_radians()
        }
        fn safe_margin(&self) -> f32 {
            0.001
        }
        fn shape_height(&self) -> f32 {
            1.8
        }
        fn shape_radius(&self) -> f32 {
            $radius
        }
        fn set_shape_height(&mut self, _height: f32) {}
    };
}

/// The floor state of a fake engine whose body stands on level floor beside walls: always on
/// the floor (normal +Y), on a wall as its `on_wall` field says, its last slide's first
/// collision in its `first` field, and no floor snap of its own.
macro_rules! on_level_floor_by_walls {
    () => {
        fn slide_collision(&self, index: usize) -> Option<kcc::MotionTest> {
            self.first.filter(|_| index == 0)
        }
        fn is_on_floor(&self) -> bool {
            true
        }
        fn is_on_wall(&self) -> bool {
            self.on_wall
        }
        fn floor_normal(&self) -> glam::Vec3 {
            glam::Vec3::Y
        }
        fn apply_floor_snap(&mut self) {}
    };
}

/// `position` and `set_position` of a fake engine that keeps the body's place, m, in its own
/// `position` field.
macro_rules! stored_position {
    () => {
        fn position(&self) -> glam::Vec3 {
            self.position
        }
        fn set_position(&mut self, position: glam::Vec3) {
            self.position = position;
        }
    };
}

/// A motion test that meets nothing: the whole `motion` (m) is made.
fn free_motion(motion: Vec3) -> MotionTest {
    MotionTest {
        travel: motion,
        remainder: Vec3::ZERO,
        contact: None,
    }
}

/// A contact with static geometry (nothing the body pushes): unit `normal`, at `point` (m).
fn static_contact(normal: Vec3, point: Vec3) -> Contact {
    Contact {
        normal,
        point,
        depth: 0.0,
        movable: false,
    }
}

/// A motion test against level floor at y = 0 and nothing else, from `from` by `motion` (m): a
/// motion down from a free place stops `stop` (m) above the floor, with the floor as contact.
/// From inside the floor, the engine either `recovers` (pushes the body `stop` above the floor,
/// then moves: Godot Physics' motion test from a tread its slide sank the body into) or
/// reports the overlap as a collision with no motion.
fn level_floor_test(from: Vec3, motion: Vec3, stop: f32, recovers: bool) -> MotionTest {
    let contact = |at: Vec3| Some(static_contact(Vec3::Y, Vec3::new(at.x, 0.0, at.z)));
    if from.y < 0.0 && !recovers {
        return MotionTest {
            travel: Vec3::ZERO,
            remainder: motion,
            contact: contact(from),
        };
    }
    let out = if recovers {
        Vec3::Y * (stop - from.y).max(0.0)
    } else {
        Vec3::ZERO
    };
    let start = from + out;
    if (start + motion).y >= stop {
        return MotionTest {
            travel: out + motion,
            remainder: Vec3::ZERO,
            contact: None,
        };
    }
    let travel = motion * ((start.y - stop).max(0.0) / -motion.y);
    MotionTest {
        travel: out + travel,
        remainder: motion - travel,
        contact: contact(start + travel),
    }
}

mod blended_floor;
mod broken_engine;
mod floor_reported_at_riser;
mod landing_sink;
mod riser_touched;
mod sinking_slide;
mod step_down_at_edges;
mod stopped_at_wall;
mod stopped_in_character;
mod stuck_on_floor;
mod taken_back;
mod walked_to_edge;
