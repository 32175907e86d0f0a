//! Floor classification and the split of vectors into horizontal and vertical parts.

use glam::Vec3;

/// Godot's tolerance when comparing a surface's angle with the floor max angle, rad.
pub const FLOOR_ANGLE_TOLERANCE: f32 = 0.01;

/// True when a surface with unit `normal` counts as floor for a body whose up is `up` and whose
/// steepest floor is `max_angle` (rad). A degenerate normal (zero, not finite) is never floor.
pub fn is_walkable(normal: Vec3, up: Vec3, max_angle: f32) -> bool {
    match usable_normal(normal) {
        Some(n) => n.dot(up).clamp(-1.0, 1.0).acos() <= max_angle + FLOOR_ANGLE_TOLERANCE,
        None => false,
    }
}

/// Angle between a surface normal and up, rad; `None` for a degenerate normal.
pub fn slope_angle(normal: Vec3, up: Vec3) -> Option<f32> {
    usable_normal(normal).map(|n| n.dot(up).clamp(-1.0, 1.0).acos())
}

/// The unit version of `normal`, or `None` when it is not finite or has almost no length.
pub fn usable_normal(normal: Vec3) -> Option<Vec3> {
    if !normal.is_finite() {
        return None;
    }
    let length = normal.length();
    (length > 1e-3).then(|| normal / length)
}

/// `up` as a unit vector; +Y when it is degenerate (zero, not finite).
pub fn unit_up(up: Vec3) -> Vec3 {
    if up.is_finite() && up.length_squared() > 1e-12 {
        up.normalize()
    } else {
        Vec3::Y
    }
}

/// The part of `v` across `up` (along the ground plane), m or m/s as `v`.
pub fn horizontal(v: Vec3, up: Vec3) -> Vec3 {
    v - up * v.dot(up)
}

/// The part of `v` along `up`, as a signed length (positive is up).
pub fn vertical(v: Vec3, up: Vec3) -> f32 {
    v.dot(up)
}

/// `v` with its component along unit `normal` removed (Godot's `Vector3::slide`).
pub fn slide(v: Vec3, normal: Vec3) -> Vec3 {
    v - normal * v.dot(normal)
}

/// The vertical speed (m/s, positive up) that keeps the horizontal velocity `run` (m/s) on a
/// floor with `normal`: `v_up = -(n_h · run) / n_up`, so the motion follows the floor and its
/// horizontal part stays `run`. 0 when the floor is not walkable for `max_angle` (rad), the
/// normal is degenerate, or the floor is flat within rounding.
pub fn along_floor(run: Vec3, normal: Vec3, up: Vec3, max_angle: f32) -> f32 {
    let Some(normal) = usable_normal(normal).filter(|n| is_walkable(*n, up, max_angle)) else {
        return 0.0;
    };
    let rise = normal.dot(up);
    if rise <= MIN_FLOOR_COSINE {
        return 0.0;
    }
    let speed = -horizontal(normal, up).dot(horizontal(run, up)) / rise;
    if speed.abs() < MIN_SLOPE_SPEED {
        0.0
    } else {
        speed
    }
}

/// Vertical speeds below this are rounding on flat floor, not a slope, m/s.
const MIN_SLOPE_SPEED: f32 = 1e-4;

/// Smallest cosine between a floor's normal and up that [`along_floor`] follows: steeper
/// floors (only possible with a floor max angle near 90 degrees) would turn a walk into a
/// climb many times faster.
const MIN_FLOOR_COSINE: f32 = 0.1;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn along_floor_keeps_horizontal_speed_on_slopes() {
        let max = 50f32.to_radians();
        for degrees in [15.0f32, 30.0, 44.0] {
            let angle = degrees.to_radians();
            // A ramp rising toward -Z: its normal tilts toward +Z.
            let normal = Vec3::new(0.0, angle.cos(), angle.sin());
            let up_hill = along_floor(Vec3::new(0.0, 0.0, -4.0), normal, Vec3::Y, max);
            assert!(
                (up_hill - 4.0 * angle.tan()).abs() < 1e-5,
                "{degrees}: {up_hill}"
            );
            let down_hill = along_floor(Vec3::new(0.0, 0.0, 4.0), normal, Vec3::Y, max);
            assert!((down_hill + 4.0 * angle.tan()).abs() < 1e-5);
            let across = along_floor(Vec3::new(4.0, 0.0, 0.0), normal, Vec3::Y, max);
            assert!(across.abs() < 1e-6);
        }
        // Not floor, or degenerate: no vertical speed.
        let steep = Vec3::new(0.0, 0.5, 0.866);
        assert_eq!(along_floor(Vec3::Z, steep, Vec3::Y, max), 0.0);
        assert_eq!(along_floor(Vec3::Z, Vec3::ZERO, Vec3::Y, max), 0.0);
        assert_eq!(along_floor(Vec3::Z, Vec3::NAN, Vec3::Y, max), 0.0);
    }

    #[test]
    fn walkable_uses_angle_with_tolerance() {
        let up = Vec3::Y;
        let max = 45f32.to_radians();
        assert!(is_walkable(Vec3::Y, up, max));
        let at_45 = Vec3::new(0.0, 1.0, 1.0).normalize();
        assert!(is_walkable(at_45, up, max));
        let at_50 = Vec3::new(50f32.to_radians().sin(), 50f32.to_radians().cos(), 0.0);
        assert!(!is_walkable(at_50, up, max));
        assert!(!is_walkable(Vec3::X, up, max));
        assert!(!is_walkable(-Vec3::Y, up, max));
    }

    #[test]
    fn degenerate_normals_are_never_floor() {
        let max = 45f32.to_radians();
        assert!(!is_walkable(Vec3::ZERO, Vec3::Y, max));
        assert!(!is_walkable(Vec3::NAN, Vec3::Y, max));
        assert!(!is_walkable(
            Vec3::new(0.0, f32::INFINITY, 0.0),
            Vec3::Y,
            max
        ));
        assert_eq!(slope_angle(Vec3::ZERO, Vec3::Y), None);
        // A non-unit but usable normal is normalized first.
        assert!(is_walkable(Vec3::new(0.0, 3.0, 0.0), Vec3::Y, max));
    }

    #[test]
    fn split_and_slide() {
        let v = Vec3::new(3.0, -2.0, 1.0);
        assert_eq!(horizontal(v, Vec3::Y), Vec3::new(3.0, 0.0, 1.0));
        assert_eq!(vertical(v, Vec3::Y), -2.0);
        assert_eq!(slide(v, Vec3::Z), Vec3::new(3.0, -2.0, 0.0));
    }
}
