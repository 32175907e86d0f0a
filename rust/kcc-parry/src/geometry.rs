//! Builders for the course's geometry: boxes, straight and spiral stairs, ramps, meshes.
//! Every builder returns solids resting on the plane through its origin; directions are
//! horizontal (any vertical part is dropped) and angles are in rad.

use glam::{Mat3, Quat, Vec3};
use parry3d_f64::math::Pose;
use parry3d_f64::shape::{Cuboid, SharedShape, TriMesh};
use thiserror::Error;

use crate::solid::{Primitive, Solid};

/// Geometry that cannot be built.
#[derive(Debug, Clone, PartialEq, Error)]
pub enum GeometryError {
    /// A size, count or angle is zero, negative or not finite.
    #[error("{what} must be a finite number greater than 0, got {value}")]
    NotPositive {
        /// Which parameter.
        what: &'static str,
        /// The rejected value.
        value: f32,
    },
    /// A direction has no horizontal part.
    #[error("{what} must have a horizontal part, got {value:?}")]
    Direction {
        /// Which parameter.
        what: &'static str,
        /// The rejected value.
        value: [f32; 3],
    },
    /// The points of a convex hull do not span a volume.
    #[error("a convex hull needs at least 4 points that span a volume")]
    DegenerateHull,
    /// A triangle mesh is malformed (bad indices, no triangles).
    #[error("invalid triangle mesh: {0}")]
    Mesh(String),
    /// A margin (Godot's `Shape3D.margin`, m) that cannot be given to a solid: negative, not
    /// finite, or leaving a hull with a flat inner shape.
    #[error("{what}, got a margin of {value} m")]
    Margin {
        /// What is wrong.
        what: &'static str,
        /// The rejected margin, m.
        value: f32,
    },
}

fn positive(what: &'static str, value: f32) -> Result<f32, GeometryError> {
    if value.is_finite() && value > 0.0 {
        Ok(value)
    } else {
        Err(GeometryError::NotPositive { what, value })
    }
}

fn horizontal_direction(what: &'static str, direction: Vec3) -> Result<Vec3, GeometryError> {
    let flat = Vec3::new(direction.x, 0.0, direction.z);
    if flat.is_finite() && flat.length_squared() > 1e-12 {
        Ok(flat.normalize())
    } else {
        Err(GeometryError::Direction {
            what,
            value: direction.to_array(),
        })
    }
}

/// Rotation whose local +Z points along `forward` (horizontal) and +Y up.
fn facing(forward: Vec3) -> Quat {
    let right = Vec3::Y.cross(forward);
    Quat::from_mat3(&Mat3::from_cols(right, Vec3::Y, forward))
}

/// A box of full `size` (m) centred at `center`, rotated by `rotation`.
pub fn cuboid(center: Vec3, size: Vec3, rotation: Quat) -> Result<Solid, GeometryError> {
    positive("box size x", size.x)?;
    positive("box size y", size.y)?;
    positive("box size z", size.z)?;
    if !center.is_finite() || !rotation.is_finite() {
        return Err(GeometryError::NotPositive {
            what: "box center and rotation (finite)",
            value: f32::NAN,
        });
    }
    let shape = SharedShape::new(Cuboid::new(size.as_dvec3() * 0.5));
    let rotation = rotation.normalize();
    let pose = Pose::from_parts(center.as_dvec3(), rotation.as_dquat());
    let primitive = Primitive::Cuboid {
        center,
        size,
        rotation,
    };
    Ok(Solid::convex(shape, pose, primitive))
}

/// A ball of `radius` (m) centred at `center`. Its margin rounds nothing: a ball is round
/// already (Jolt's sphere is its convex radius).
pub fn ball(center: Vec3, radius: f32) -> Result<Solid, GeometryError> {
    positive("ball radius", radius)?;
    if !center.is_finite() {
        return Err(GeometryError::NotPositive {
            what: "ball center (finite)",
            value: f32::NAN,
        });
    }
    let shape = SharedShape::ball(f64::from(radius));
    let pose = Pose::from_translation(center.as_dvec3());
    Ok(Solid::convex(
        shape,
        pose,
        Primitive::Ball { center, radius },
    ))
}

/// Another character's body: `shape` standing upright with its bottom at `bottom` (m), as a
/// `CharacterBody3D` the body meets in Godot.
pub fn character(shape: crate::CharacterShape, bottom: Vec3) -> Result<Solid, GeometryError> {
    positive("character radius", shape.radius())?;
    positive("character height", shape.height())?;
    if !bottom.is_finite() {
        return Err(GeometryError::NotPositive {
            what: "character position (finite)",
            value: f32::NAN,
        });
    }
    let pose = Pose::from_translation(bottom.as_dvec3() + shape.center_offset());
    Ok(Solid::convex(
        shape.to_parry(),
        pose,
        Primitive::Character { bottom, shape },
    ))
}

/// An axis-aligned box of full `size` (m) centred at `center`.
pub fn aabb_box(center: Vec3, size: Vec3) -> Result<Solid, GeometryError> {
    cuboid(center, size, Quat::IDENTITY)
}

/// Straight stairs: `count` solid steps of `rise` and `run` (m), `width` wide, going up along
/// `direction` from `origin` (the middle of the bottom edge of the first riser).
pub fn stairs(
    origin: Vec3,
    direction: Vec3,
    count: u32,
    rise: f32,
    run: f32,
    width: f32,
) -> Result<Vec<Solid>, GeometryError> {
    let forward = horizontal_direction("stairs direction", direction)?;
    positive("stairs count", count as f32)?;
    positive("stairs rise", rise)?;
    positive("stairs run", run)?;
    positive("stairs width", width)?;
    let rotation = facing(forward);
    (0..count)
        .map(|i| {
            let height = (i + 1) as f32 * rise;
            let center = origin + forward * ((i as f32 + 0.5) * run) + Vec3::Y * (height * 0.5);
            cuboid(center, Vec3::new(width, height, run), rotation)
        })
        .collect()
}

/// A spiral staircase around `center`: `count` solid wedge steps between `inner_radius` and
/// `outer_radius` (m), each `rise` higher and `step_angle` (rad) further counter-clockwise seen
/// from above, the first starting at angle 0 (along +X).
pub fn spiral_stairs(
    center: Vec3,
    inner_radius: f32,
    outer_radius: f32,
    count: u32,
    rise: f32,
    step_angle: f32,
) -> Result<Vec<Solid>, GeometryError> {
    positive("spiral inner_radius", inner_radius)?;
    positive(
        "spiral outer_radius - inner_radius",
        outer_radius - inner_radius,
    )?;
    positive("spiral count", count as f32)?;
    positive("spiral rise", rise)?;
    positive("spiral step_angle", step_angle)?;
    let at = |angle: f32, radius: f32, y: f32| {
        center + Vec3::new(angle.cos() * radius, y, -angle.sin() * radius)
    };
    (0..count)
        .map(|i| {
            let height = (i + 1) as f32 * rise;
            let a0 = i as f32 * step_angle;
            let arcs = (step_angle / 0.2).ceil().max(1.0) as u32;
            let mut points = Vec::new();
            for k in 0..=arcs {
                let a = a0 + step_angle * k as f32 / arcs as f32;
                for y in [0.0, height] {
                    points.push(at(a, inner_radius, y));
                    points.push(at(a, outer_radius, y));
                }
            }
            convex_hull(&points)
        })
        .collect()
}

/// A ramp going up along `direction` from `origin` (middle of its bottom edge) at `angle`
/// (rad) for `length` (m, measured along the slope), `width` wide: a solid wedge.
pub fn ramp(
    origin: Vec3,
    direction: Vec3,
    angle: f32,
    length: f32,
    width: f32,
) -> Result<Solid, GeometryError> {
    let forward = horizontal_direction("ramp direction", direction)?;
    positive("ramp angle", angle)?;
    positive("ramp length", length)?;
    positive("ramp width", width)?;
    if angle >= std::f32::consts::FRAC_PI_2 {
        return Err(GeometryError::NotPositive {
            what: "90 degrees minus ramp angle",
            value: std::f32::consts::FRAC_PI_2 - angle,
        });
    }
    let right = Vec3::Y.cross(forward) * (width * 0.5);
    let run = forward * (length * angle.cos());
    let top = Vec3::Y * (length * angle.sin());
    let points = [
        origin - right,
        origin + right,
        origin + run - right,
        origin + run + right,
        origin + run + top - right,
        origin + run + top + right,
    ];
    convex_hull(&points)
}

/// The convex hull of `points` (m).
pub fn convex_hull(points: &[Vec3]) -> Result<Solid, GeometryError> {
    if points.iter().any(|p| !p.is_finite()) {
        return Err(GeometryError::DegenerateHull);
    }
    let exact: Vec<_> = points.iter().map(|p| p.as_dvec3()).collect();
    let shape = SharedShape::convex_hull(&exact).ok_or(GeometryError::DegenerateHull)?;
    if shape.mass_properties(1.0).mass() <= 1e-12 {
        return Err(GeometryError::DegenerateHull);
    }
    let primitive = Primitive::Hull {
        points: points.to_vec(),
    };
    Ok(Solid::convex(shape, Pose::IDENTITY, primitive))
}

/// A triangle mesh from `vertices` (m) and index triples, moved by `offset` (m).
pub fn mesh(
    vertices: Vec<Vec3>,
    indices: Vec<[u32; 3]>,
    offset: Vec3,
) -> Result<Solid, GeometryError> {
    if indices.is_empty() {
        return Err(GeometryError::Mesh("no triangles".into()));
    }
    if vertices.iter().any(|v| !v.is_finite()) {
        return Err(GeometryError::Mesh("a vertex is not finite".into()));
    }
    if let Some(bad) = indices
        .iter()
        .flatten()
        .find(|&&i| i as usize >= vertices.len())
    {
        return Err(GeometryError::Mesh(format!(
            "index {bad} out of range for {} vertices",
            vertices.len()
        )));
    }
    let moved: Vec<Vec3> = vertices.iter().map(|v| *v + offset).collect();
    let exact = moved.iter().map(|v| v.as_dvec3()).collect();
    let mesh =
        TriMesh::new(exact, indices.clone()).map_err(|e| GeometryError::Mesh(e.to_string()))?;
    let primitive = Primitive::Mesh {
        vertices: moved,
        indices,
    };
    Ok(Solid::mesh(mesh, Pose::IDENTITY, primitive))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stairs_steps_are_where_expected() {
        let steps = stairs(Vec3::ZERO, Vec3::NEG_Z, 3, 0.2, 0.3, 2.0).unwrap();
        assert_eq!(steps.len(), 3);
        // Inside the second step's top corner region, outside above it.
        assert!(steps[1].contains_point(Vec3::new(0.0, 0.39, -0.45)));
        assert!(!steps[1].contains_point(Vec3::new(0.0, 0.41, -0.45)));
        assert!(!steps[1].contains_point(Vec3::new(1.1, 0.2, -0.45)));
        assert!(steps[2].contains_point(Vec3::new(0.9, 0.59, -0.89)));
    }

    #[test]
    fn ramp_rises_along_direction() {
        let slope = ramp(Vec3::ZERO, Vec3::X, 30f32.to_radians(), 2.0, 1.0).unwrap();
        let run = 2.0 * 30f32.to_radians().cos();
        assert!(slope.contains_point(Vec3::new(run * 0.5, 0.45, 0.0)));
        assert!(!slope.contains_point(Vec3::new(run * 0.5, 0.6, 0.0)));
    }

    #[test]
    fn spiral_steps_climb_counter_clockwise() {
        let steps = spiral_stairs(Vec3::ZERO, 0.5, 2.0, 4, 0.2, 90f32.to_radians()).unwrap();
        let mid = 45f32.to_radians();
        assert!(steps[0].contains_point(Vec3::new(mid.cos(), 0.1, -mid.sin())));
        let second = 135f32.to_radians();
        assert!(steps[1].contains_point(Vec3::new(second.cos(), 0.35, -second.sin())));
    }

    #[test]
    fn bad_geometry_is_refused() {
        assert!(stairs(Vec3::ZERO, Vec3::Y, 3, 0.2, 0.3, 1.0).is_err());
        assert!(stairs(Vec3::ZERO, Vec3::X, 0, 0.2, 0.3, 1.0).is_err());
        assert!(ramp(Vec3::ZERO, Vec3::X, 95f32.to_radians(), 2.0, 1.0).is_err());
        assert!(aabb_box(Vec3::ZERO, Vec3::new(1.0, f32::NAN, 1.0)).is_err());
        assert!(convex_hull(&[Vec3::ZERO, Vec3::X, Vec3::Y]).is_err());
        assert!(mesh(vec![Vec3::ZERO], vec![[0, 1, 2]], Vec3::ZERO).is_err());
    }
}
