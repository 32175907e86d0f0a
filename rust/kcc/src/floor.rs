//! The split of vectors into horizontal and vertical parts, and the slide along a plane.

use glam::Vec3;

use crate::body::KinematicBody;

/// The body's up direction as a unit vector; +Y when the body reports a degenerate one.
pub fn up_of<B: KinematicBody + ?Sized>(body: &B) -> Vec3 {
    unit_up(body.up_direction())
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn split_and_slide() {
        let v = Vec3::new(3.0, -2.0, 1.0);
        assert_eq!(horizontal(v, Vec3::Y), Vec3::new(3.0, 0.0, 1.0));
        assert_eq!(vertical(v, Vec3::Y), -2.0);
        assert_eq!(slide(v, Vec3::Z), Vec3::new(3.0, -2.0, 0.0));
    }
}
