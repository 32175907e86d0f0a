//! The world's gravity as the body falls with it.
//!
//! Godot's `get_gravity()` is a vector: the project's default gravity plus any `Area3D`
//! overrides where the body is. The core wants one number, the downward acceleration along
//! the body's own down (-`up_direction`). Which of that and `custom_gravity` the body uses is
//! [`Properties::to_settings`](crate::settings::Properties::to_settings)'s choice.

use godot::builtin::Vector3;

use crate::convert::to_glam;
use crate::settings::Properties;

/// Downward acceleration the world gives a body whose up direction is `up`, m/s²: the part
/// of `engine_gravity` (Godot's `get_gravity()`, m/s²) along -`up`, never negative (an area
/// that pulls up does not push the body up) and 0 when it is not finite. A zero or broken `up`
/// counts as +Y. `None` for `engine_gravity` means the body is outside the scene tree, where
/// Godot has no gravity to give: then the core's default (9.8 m/s²).
pub fn world_gravity(up: Vector3, engine_gravity: Option<Vector3>) -> f32 {
    let Some(gravity) = engine_gravity else {
        return Properties::default().custom_gravity;
    };
    let down = -to_glam(up).normalize_or(glam::Vec3::Y);
    let along = down.dot(to_glam(gravity));
    if along.is_finite() {
        along.max(0.0)
    } else {
        0.0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Godot's default gravity vector (the project setting's 9.8 m/s² down -Y).
    const GODOT_DEFAULT: Vector3 = Vector3::new(0.0, -9.8, 0.0);

    #[test]
    fn the_project_gravity_pulls_down_the_bodys_up() {
        assert_eq!(world_gravity(Vector3::UP, Some(GODOT_DEFAULT)), 9.8);
        // Only the part along -up: a body whose up leans 60 degrees gets half of it.
        let leaning = Vector3::new(60f32.to_radians().sin(), 0.5, 0.0);
        let half = world_gravity(leaning, Some(GODOT_DEFAULT));
        assert!((half - 4.9).abs() < 1e-5, "{half}");
        // A long up vector counts by its direction only.
        assert_eq!(world_gravity(Vector3::UP * 3.0, Some(GODOT_DEFAULT)), 9.8);
    }

    #[test]
    fn an_area_that_pulls_up_or_sideways_gives_no_fall() {
        assert_eq!(world_gravity(Vector3::UP, Some(-GODOT_DEFAULT)), 0.0);
        assert_eq!(
            world_gravity(Vector3::UP, Some(Vector3::new(5.0, 0.0, 0.0))),
            0.0
        );
        // Walking on a wall (up is +X): the area's pull toward -X is its fall.
        let wall = world_gravity(Vector3::RIGHT, Some(Vector3::new(-20.0, -9.8, 0.0)));
        assert_eq!(wall, 20.0);
    }

    #[test]
    fn broken_values_neither_fall_forever_nor_fly() {
        let infinite = Vector3::new(0.0, f32::NEG_INFINITY, 0.0);
        assert_eq!(world_gravity(Vector3::UP, Some(infinite)), 0.0);
        let nan = Vector3::new(f32::NAN, -9.8, 0.0);
        assert_eq!(world_gravity(Vector3::UP, Some(nan)), 0.0);
        for up in [Vector3::ZERO, Vector3::new(f32::NAN, 1.0, 0.0)] {
            assert_eq!(world_gravity(up, Some(GODOT_DEFAULT)), 9.8, "{up:?}");
        }
    }

    #[test]
    fn outside_the_tree_the_cores_default_is_used() {
        assert_eq!(world_gravity(Vector3::UP, None), 9.8);
        assert_eq!(
            world_gravity(Vector3::UP, None),
            kcc::ControllerSettings::default().gravity.gravity
        );
    }

    #[test]
    fn the_gravity_in_use_is_the_worlds_unless_a_custom_one_is_asked_for() {
        let moon = Vector3::new(0.0, -1.62, 0.0);
        let mut properties = Properties {
            custom_gravity: 25.0,
            ..Properties::default()
        };
        let in_use = |p: &Properties, engine| {
            p.to_settings(world_gravity(Vector3::UP, engine))
                .gravity
                .gravity
        };
        assert_eq!(in_use(&properties, Some(moon)), 1.62);
        assert_eq!(in_use(&properties, None), 9.8);
        properties.use_custom_gravity = true;
        assert_eq!(in_use(&properties, Some(moon)), 25.0);
        assert_eq!(in_use(&properties, None), 25.0);
    }
}
