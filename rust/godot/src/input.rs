//! Stick input to a world-space wish direction.
//!
//! `Input.get_vector(left, right, forward, back)` gives `x` to the right and `y` backwards, in
//! the frame of whatever the player looks through. The yaw node (usually a pivot that carries
//! the camera) says where that is: only its turn around the world's up axis (+Y) is used, so a
//! camera that also pitches or a scaled node still walks at full speed along the ground.

use godot::builtin::{Basis, Vector2, Vector3};

/// The wish direction for `stick` (each axis -1..1, as `Input.get_vector` returns it) seen
/// through `yaw`: the global basis of the yaw node. Horizontal, as long as the stick.
///
/// ```
/// use godot::builtin::{Basis, Vector2, Vector3};
/// use rust_character_body::input::wish_direction;
///
/// // Stick pushed forward with the camera turned 90 degrees left (as Godot's rotation.y):
/// // forward is now -X.
/// let yaw = Basis::from_axis_angle(Vector3::UP, std::f32::consts::FRAC_PI_2);
/// let wish = wish_direction(Vector2::new(0.0, -1.0), yaw);
/// assert!((wish - Vector3::new(-1.0, 0.0, 0.0)).length() < 1e-5);
/// ```
pub fn wish_direction(stick: Vector2, yaw: Basis) -> Vector3 {
    let turned = Basis::from_axis_angle(Vector3::UP, yaw_angle(yaw));
    turned * Vector3::new(stick.x, 0.0, stick.y)
}

/// The turn of `basis` around +Y, rad: the heading of its backward axis (+Z) across the
/// ground, or, when that axis points (almost) straight up or down, of its right axis (+X).
/// 0 when neither can be seen or the basis is not finite.
pub fn yaw_angle(basis: Basis) -> f32 {
    let back = basis.col_c();
    let right = basis.col_a();
    let angle = if back.x.hypot(back.z) > VISIBLE_HEADING {
        back.x.atan2(back.z)
    } else if right.x.hypot(right.z) > VISIBLE_HEADING {
        (-right.z).atan2(right.x)
    } else {
        0.0
    };
    if angle.is_finite() { angle } else { 0.0 }
}

/// Shortest ground projection of an axis whose heading is trusted, in units of the axis.
const VISIBLE_HEADING: f32 = 1e-3;

#[cfg(test)]
mod tests {
    use super::*;
    use godot::builtin::EulerOrder;
    use std::f32::consts::FRAC_PI_2;

    fn close(a: Vector3, b: Vector3) -> bool {
        (a - b).length() < 1e-5
    }

    #[test]
    fn unturned_forward_is_negative_z() {
        let forward = wish_direction(Vector2::new(0.0, -1.0), Basis::IDENTITY);
        assert!(close(forward, Vector3::new(0.0, 0.0, -1.0)), "{forward:?}");
        let right = wish_direction(Vector2::new(1.0, 0.0), Basis::IDENTITY);
        assert!(close(right, Vector3::new(1.0, 0.0, 0.0)), "{right:?}");
    }

    #[test]
    fn turning_left_a_quarter_turns_forward_to_negative_x() {
        let yaw = Basis::from_axis_angle(Vector3::UP, FRAC_PI_2);
        let forward = wish_direction(Vector2::new(0.0, -1.0), yaw);
        assert!(close(forward, Vector3::new(-1.0, 0.0, 0.0)), "{forward:?}");
    }

    #[test]
    fn pitch_and_scale_do_not_slow_the_character() {
        let yaw = 0.7;
        let looking_down = Basis::from_euler(EulerOrder::YXZ, Vector3::new(-1.2, yaw, 0.0));
        let scaled = Basis::from_axis_angle(Vector3::UP, yaw).scaled(Vector3::splat(3.0));
        let stick = Vector2::new(0.6, -0.8);
        let expected = wish_direction(stick, Basis::from_axis_angle(Vector3::UP, yaw));
        for basis in [looking_down, scaled] {
            let wish = wish_direction(stick, basis);
            assert!(close(wish, expected), "{wish:?} vs {expected:?}");
            assert!((wish.length() - 1.0).abs() < 1e-5);
            assert_eq!(wish.y, 0.0);
        }
    }

    #[test]
    fn degenerate_bases_give_no_turn() {
        // Looking straight down, the heading comes from the right axis.
        for yaw in [0.0, 0.5, -2.0] {
            let straight_down =
                Basis::from_euler(EulerOrder::YXZ, Vector3::new(-FRAC_PI_2, yaw, 0.0));
            assert!((yaw_angle(straight_down) - yaw).abs() < 1e-4, "{yaw}");
        }
        let broken = Basis::from_cols(
            Vector3::ZERO,
            Vector3::ZERO,
            Vector3::new(f32::NAN, 0.0, 1.0),
        );
        assert_eq!(yaw_angle(broken), 0.0);
        assert_eq!(
            yaw_angle(Basis::from_cols(
                Vector3::ZERO,
                Vector3::ZERO,
                Vector3::ZERO
            )),
            0.0
        );
    }
}
