//! The controller against fake engines, in one test binary: an engine that answers nonsense,
//! the answers real Godot + Jolt gives beside a step's edge, and slides that sink the body
//! into level floor or stop dead against a wall as Godot Physics' do.

use glam::Vec3;
use kcc::Contact;

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

/// A contact with static geometry (nothing the body pushes): unit `normal`, at `point` (m).
fn static_contact(normal: Vec3, point: Vec3) -> Contact {
    Contact {
        normal,
        point,
        depth: 0.0,
        movable: false,
    }
}

mod broken_engine;
mod landing_sink;
mod sinking_slide;
mod step_down_at_edges;
mod stopped_at_wall;
