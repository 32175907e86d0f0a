//! The character's collision shape, placed so that the body's origin is the bottom of the shape.

use glam::Vec3;
use kcc::ConfigError;
use parry3d_f64::shape::{Capsule, Cuboid, Cylinder, SharedShape};

/// `Shape3D.margin` of the character's own shape, m: the sample project's, which the Godot
/// world gives its body too. Jolt rounds a cylinder's rims and a box's edges by it (a
/// capsule is round already).
pub const CHARACTER_SHAPE_MARGIN: f32 = 0.001;

/// The character's shape and size. The origin of the body is the bottom of the shape ("feet"),
/// and the shape stands along +Y.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum CharacterShape {
    /// A capsule: a cylinder with half-sphere ends (round bottom).
    Capsule {
        /// Radius, m.
        radius: f32,
        /// Total height including both half-spheres, m (at least twice the radius).
        height: f32,
    },
    /// An upright cylinder (flat bottom).
    Cylinder {
        /// Radius, m.
        radius: f32,
        /// Height, m.
        height: f32,
    },
    /// An axis-aligned box (flat bottom, square corners).
    Box {
        /// Full size along X, Y and Z, m.
        size: Vec3,
    },
}

impl CharacterShape {
    /// Total height, m.
    pub fn height(&self) -> f32 {
        match *self {
            Self::Capsule { height, .. } | Self::Cylinder { height, .. } => height,
            Self::Box { size } => size.y,
        }
    }

    /// How far the shape reaches across Y from its axis, m: the radius, or half a box's
    /// narrower side.
    pub fn radius(&self) -> f32 {
        match *self {
            Self::Capsule { radius, .. } | Self::Cylinder { radius, .. } => radius,
            Self::Box { size } => 0.5 * size.x.min(size.z),
        }
    }

    /// This shape made `height` tall (m), as Godot resizes its shapes: a capsule stays at
    /// least twice its radius tall. A height that is not finite and above zero changes nothing.
    pub fn with_height(self, height: f32) -> Self {
        if !(height.is_finite() && height > 0.0) {
            return self;
        }
        match self {
            Self::Capsule { radius, .. } => Self::Capsule {
                radius,
                height: height.max(2.0 * radius),
            },
            Self::Cylinder { radius, .. } => Self::Cylinder { radius, height },
            Self::Box { size } => Self::Box {
                size: Vec3::new(size.x, height, size.z),
            },
        }
    }

    /// Checks every dimension.
    pub fn validate(&self) -> Result<(), ConfigError> {
        let positive = |setting: &'static str, value: f32| {
            if value.is_finite() && value > 0.0 {
                Ok(())
            } else {
                Err(ConfigError::ShapeSize { setting, value })
            }
        };
        match *self {
            Self::Capsule { radius, height } => {
                positive("shape.radius", radius)?;
                positive("shape.height", height)?;
                if height < 2.0 * radius {
                    return Err(ConfigError::ShapeSize {
                        setting: "shape.height (at least twice the radius for a capsule)",
                        value: height,
                    });
                }
                Ok(())
            }
            Self::Cylinder { radius, height } => {
                positive("shape.radius", radius)?;
                positive("shape.height", height)
            }
            Self::Box { size } => {
                positive("shape.size.x", size.x)?;
                positive("shape.size.y", size.y)?;
                positive("shape.size.z", size.z)
            }
        }
    }

    /// The parry shape, centred on its own origin.
    pub(crate) fn to_parry(self) -> SharedShape {
        match self {
            Self::Capsule { radius, height } => {
                let (radius, height) = (f64::from(radius), f64::from(height));
                SharedShape::new(Capsule::new_y((height * 0.5 - radius).max(0.0), radius))
            }
            Self::Cylinder { radius, height } => {
                SharedShape::new(Cylinder::new(f64::from(height) * 0.5, f64::from(radius)))
            }
            Self::Box { size } => SharedShape::new(Cuboid::new(size.as_dvec3() * 0.5)),
        }
    }

    /// From the body's origin (bottom) to the shape's centre, m.
    pub fn center_offset(&self) -> glam::DVec3 {
        glam::DVec3::Y * (f64::from(self.height()) * 0.5)
    }
}

impl Default for CharacterShape {
    /// A 1.8 m tall capsule of radius 0.4 m.
    fn default() -> Self {
        Self::Capsule {
            radius: 0.4,
            height: 1.8,
        }
    }
}
