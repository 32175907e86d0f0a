//! The course's geometry: scenario solids to `kcc_parry` solids, and the same solids as Rapier
//! colliders (from [`Solid::primitive`]), plus the floor and ceiling profile under a path.

use std::path::{Path, PathBuf};

use glam::{EulerRot, Quat, Vec3};
use kcc_parry::{Primitive, Solid, World, geometry};
use rapier3d::prelude::{ColliderBuilder, PhysicsWorld, Pose, QueryFilter, Ray};

use crate::obj;
use crate::scenario::SolidSpec;

/// A solid that cannot be built: the key inside its `[[solid]]` table and what is wrong.
#[derive(Debug, Clone, PartialEq)]
pub struct SolidError {
    /// Key inside the solid's table (`stairs`, `mesh.obj`, ...).
    pub key: String,
    /// What is wrong.
    pub message: String,
}

/// Builds the solids of one `[[solid]]` table; a mesh's OBJ path is relative to `base`.
pub fn build(spec: &SolidSpec, base: &Path) -> Result<Vec<Solid>, SolidError> {
    let fail = |key: &str| {
        let key = key.to_string();
        move |e: geometry::GeometryError| SolidError {
            key: key.clone(),
            message: e.to_string(),
        }
    };
    match spec {
        SolidSpec::Box(b) => {
            let [x, y, z] = b.rotation_deg.unwrap_or([0.0; 3]).map(f32::to_radians);
            // Godot's rotation_degrees: Euler angles applied in Y, X, Z order.
            let rotation = Quat::from_euler(EulerRot::YXZ, y, x, z);
            let solid =
                geometry::cuboid(b.center.into(), b.size.into(), rotation).map_err(fail("box"))?;
            Ok(vec![solid])
        }
        SolidSpec::Stairs(s) => geometry::stairs(
            s.origin.into(),
            s.direction.into(),
            s.count,
            s.rise,
            s.run,
            s.width,
        )
        .map_err(fail("stairs")),
        SolidSpec::Spiral(s) => geometry::spiral_stairs(
            s.center.into(),
            s.inner_radius,
            s.outer_radius,
            s.count,
            s.rise,
            s.step_angle_deg.to_radians(),
        )
        .map_err(fail("spiral")),
        SolidSpec::Ramp(r) => {
            let solid = geometry::ramp(
                r.origin.into(),
                r.direction.into(),
                r.angle_deg.to_radians(),
                r.length,
                r.width,
            )
            .map_err(fail("ramp"))?;
            Ok(vec![solid])
        }
        SolidSpec::Convex(c) => {
            let points: Vec<Vec3> = c.points.iter().map(|p| Vec3::from(*p)).collect();
            let solid = geometry::convex_hull(&points).map_err(fail("convex.points"))?;
            Ok(vec![solid])
        }
        SolidSpec::Ball(b) => {
            let solid = geometry::ball(b.center.into(), b.radius).map_err(fail("ball"))?;
            Ok(vec![solid])
        }
        SolidSpec::Mesh(m) => {
            let path = base.join(&m.obj);
            let (vertices, triangles) = obj::read(&path).map_err(|message| SolidError {
                key: "mesh.obj".into(),
                message: format!("{}: {message}", path.display()),
            })?;
            let offset = Vec3::from(m.offset.unwrap_or([0.0; 3]));
            let scale = m.scale.unwrap_or(1.0);
            if !(scale.is_finite() && scale > 0.0) {
                return Err(SolidError {
                    key: "mesh.scale".into(),
                    message: format!("must be greater than 0, got {scale}"),
                });
            }
            let vertices = vertices.into_iter().map(|v| v * scale).collect();
            let solid = geometry::mesh(vertices, triangles, offset).map_err(fail("mesh.obj"))?;
            Ok(vec![solid])
        }
    }
}

/// A Rapier world holding the solids of `world` as fixed colliders, stepped once so that its
/// queries see them.
pub fn rapier_world(world: &World) -> PhysicsWorld {
    let mut physics = PhysicsWorld::new();
    for solid in world.solids() {
        if let Some(collider) = rapier_collider(solid) {
            physics.insert_collider(collider, None);
        }
    }
    // Without a first step the broad phase is empty and every query misses.
    physics.step();
    physics
}

/// `solid` as a Rapier collider where it is (`None` for a mesh Rapier refuses).
pub fn rapier_collider(solid: &Solid) -> Option<ColliderBuilder> {
    match solid.primitive() {
        Primitive::Cuboid {
            center,
            size,
            rotation,
        } => Some(
            ColliderBuilder::cuboid(size.x * 0.5, size.y * 0.5, size.z * 0.5)
                .position(Pose::from_parts(*center, *rotation)),
        ),
        Primitive::Ball { center, radius } => {
            Some(ColliderBuilder::ball(*radius).translation(*center))
        }
        Primitive::Hull { points } => ColliderBuilder::convex_hull(points),
        // kcc-parry built the same primitive already, so Rapier's builders accept it too.
        Primitive::Mesh { vertices, indices } => {
            ColliderBuilder::trimesh(vertices.clone(), indices.clone()).ok()
        }
        // The peers meet no other character (the scenario's world has none).
        Primitive::Character { .. } => None,
    }
}

/// Vertical ray casts into the course: the floor under a point and the ceiling over it.
pub struct Profile {
    physics: PhysicsWorld,
}

impl Profile {
    /// Profile of the solids of `world`.
    pub fn new(world: &World) -> Self {
        Self {
            physics: rapier_world(world),
        }
    }

    /// Height of the first surface below `point` (m), looking at most `reach` m down.
    pub fn floor_below(&self, point: Vec3, reach: f32) -> Option<f32> {
        self.cast(point, Vec3::NEG_Y, reach).map(|t| point.y - t)
    }

    /// Height of the first surface above `point` (m), looking at most `reach` m up.
    pub fn ceiling_above(&self, point: Vec3, reach: f32) -> Option<f32> {
        self.cast(point, Vec3::Y, reach).map(|t| point.y + t)
    }

    fn cast(&self, origin: Vec3, direction: Vec3, reach: f32) -> Option<f32> {
        // Solid: a ray starting inside a solid stops at once, so the profile is clipped there.
        self.physics
            .cast_ray(
                &Ray::new(origin, direction),
                reach,
                true,
                QueryFilter::default(),
            )
            .map(|(_, distance)| distance)
    }
}

/// The public course's folder: `scenarios` under the current folder when there is one (a
/// clone's root), otherwise the repository's `scenarios/` this binary was built from.
pub fn default_dir() -> PathBuf {
    let here = PathBuf::from("scenarios");
    if here.is_dir() {
        return here;
    }
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../scenarios")
}

/// The scenario files (`*.toml`) in `dir`, sorted by name.
pub fn files(dir: &Path) -> std::io::Result<Vec<PathBuf>> {
    let mut files = Vec::new();
    for entry in std::fs::read_dir(dir)? {
        let path = entry?.path();
        if path.extension().is_some_and(|e| e == "toml") {
            files.push(path);
        }
    }
    files.sort();
    Ok(files)
}

/// Every scenario file in `dir`, loaded and checked; the error is a message for the user.
pub fn load_all(dir: &Path) -> Result<Vec<crate::scenario::Scenario>, String> {
    let files = files(dir).map_err(|e| format!("{}: cannot list scenarios: {e}", dir.display()))?;
    if files.is_empty() {
        return Err(format!("{}: no scenario files (*.toml)", dir.display()));
    }
    files
        .iter()
        .map(|f| crate::scenario::Scenario::load(f))
        .collect::<Result<Vec<_>, _>>()
        .map_err(|e| e.to_string())
}
