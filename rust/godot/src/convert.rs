//! Vectors between Godot (`Vector3`) and the core (`glam::Vec3`).
//!
//! gdext builds `real` as `f32` unless its `double-precision` feature is on; this crate does not
//! turn it on, so both sides are three `f32` and the conversion is exact.

use godot::builtin::Vector3;

/// Godot's name for a float property. The editor help prints a property's type as its Rust
/// type is written, so the class reference reads `float`, as Godot's own does.
#[allow(non_camel_case_types)]
pub type float = f32;

/// Godot's name for an integer property (see [`float`]).
#[allow(non_camel_case_types)]
pub type int = i32;

/// A Godot vector as the core's vector.
pub fn to_glam(v: Vector3) -> glam::Vec3 {
    glam::Vec3::new(v.x, v.y, v.z)
}

/// A core vector as a Godot vector.
pub fn to_godot(v: glam::Vec3) -> Vector3 {
    Vector3::new(v.x, v.y, v.z)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trip_is_exact() {
        let v = Vector3::new(1.5, -0.25, 1e-7);
        assert_eq!(to_godot(to_glam(v)), v);
        let g = glam::Vec3::new(f32::MAX, f32::MIN_POSITIVE, -3.0);
        assert_eq!(to_glam(to_godot(g)), g);
    }
}
