//! What the character stands on after a tick, as the controller sees it: the truth for an
//! animation tree or a footstep player.
//!
//! Godot's own `is_on_floor()` comes from the engine's last slide. A body the flat base holds
//! level over a stair's edge, or that a climb set on a step, stands for the controller while
//! the engine's last slide met the riser or floated over the edge's rounding: there
//! `is_on_floor()` is false for a tick (see `docs/floor-state.md` for how often, measured on
//! the course). With `ground_follow = Smooth` the shape floats above the ground by design and
//! the engine never sees floor. [`ground_state`] puts the controller's verdict and the engine's
//! contacts together.

use godot::prelude::{Export, GodotConvert, Var};
use kcc::surface::{Surface, classify};

/// What the character stands on (the node's `get_ground_state()`; in GDScript the constants
/// `RustCharacterBody3D.GROUND_IN_AIR` and so on).
#[derive(GodotConvert, Var, Export, Debug, Clone, Copy, PartialEq, Eq, Default)]
#[godot(via = i64)]
pub enum GroundState {
    /// Nothing supports it: jumping, falling, or walked off a ledge higher than the step
    /// height.
    #[default]
    InAir,
    /// On walkable floor, as Godot's `is_on_floor()` also says.
    OnFloor,
    /// Standing on a stair's edge or over it (the flat base holds it level there, or the
    /// climb just set it on a step); Godot's `is_on_floor()` may be false on such a tick.
    OnEdge,
    /// Against ground too steep to stand on, under it: sliding down a steep slope.
    OnSteepSlope,
}

/// What the engine says of the body after a tick.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct EngineFloor {
    /// `is_on_floor()`.
    pub on_floor: bool,
    /// `get_wall_normal()` when `is_on_wall()` (Godot counts ground steeper than the floor max
    /// angle as wall), else `None`.
    pub wall_normal: Option<glam::Vec3>,
    /// The body's unit up direction.
    pub up: glam::Vec3,
    /// The floor max angle, rad.
    pub floor_max_angle: f32,
}

/// The ground state after a tick whose controller had the body standing (`standing`: the
/// tick's `on_floor`), with the engine's view `engine`. With a floating shape (`floating`:
/// `ground_follow = Smooth`) the controller's verdict is all there is.
pub fn ground_state(standing: bool, floating: bool, engine: EngineFloor) -> GroundState {
    if standing {
        return if engine.on_floor || floating {
            GroundState::OnFloor
        } else {
            GroundState::OnEdge
        };
    }
    let steep = engine
        .wall_normal
        .is_some_and(|n| classify(n, engine.up, engine.floor_max_angle) == Surface::Steep);
    if steep {
        GroundState::OnSteepSlope
    } else {
        GroundState::InAir
    }
}

#[cfg(test)]
mod tests {
    use glam::Vec3;

    use super::*;

    fn engine(on_floor: bool, wall_degrees: Option<f32>) -> EngineFloor {
        EngineFloor {
            on_floor,
            wall_normal: wall_degrees.map(|d| {
                let a = d.to_radians();
                Vec3::new(a.sin(), a.cos(), 0.0)
            }),
            up: Vec3::Y,
            floor_max_angle: 45f32.to_radians(),
        }
    }

    #[test]
    fn standing_on_the_engines_floor_is_on_floor() {
        assert_eq!(
            ground_state(true, false, engine(true, None)),
            GroundState::OnFloor
        );
    }

    #[test]
    fn standing_where_the_engine_sees_no_floor_is_an_edge_unless_the_shape_floats() {
        assert_eq!(
            ground_state(true, false, engine(false, None)),
            GroundState::OnEdge
        );
        assert_eq!(
            ground_state(true, true, engine(false, None)),
            GroundState::OnFloor
        );
    }

    #[test]
    fn not_standing_against_steep_ground_under_the_body_is_a_steep_slope() {
        assert_eq!(
            ground_state(false, false, engine(false, Some(60.0))),
            GroundState::OnSteepSlope
        );
        // A wall (90 degrees) or an overhang is no slope: in the air.
        assert_eq!(
            ground_state(false, false, engine(false, Some(90.0))),
            GroundState::InAir
        );
        assert_eq!(
            ground_state(false, false, engine(false, Some(150.0))),
            GroundState::InAir
        );
        assert_eq!(
            ground_state(false, false, engine(false, None)),
            GroundState::InAir
        );
    }
}
