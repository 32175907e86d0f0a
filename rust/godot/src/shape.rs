//! The body's collision shape as plain sizes: its height, what Jolt does to its edges, and how
//! crouching resizes it.
//!
//! The node reads a `Shape3D` resource into a [`BodyShape`] and writes a resized one back; the
//! choices (which shapes can crouch, a capsule's least height, keeping the feet in place) are
//! made here.

use godot::builtin::Vector3;

/// A collision shape resource, as far as crouching and the editor's warnings care. Sizes in m,
/// along the shape's own Y for heights.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum BodyShape {
    /// A `CapsuleShape3D`: `height` is its whole height, caps included.
    Capsule {
        /// Radius of the capsule, m.
        radius: f32,
        /// Whole height, m.
        height: f32,
    },
    /// A `CylinderShape3D`.
    Cylinder {
        /// Radius, m.
        radius: f32,
        /// Height, m.
        height: f32,
    },
    /// A `BoxShape3D` of this size, m.
    Box {
        /// Size along X, Y and Z, m.
        size: Vector3,
    },
    /// A `SphereShape3D` of this radius, m: no height the node can change.
    Sphere {
        /// Radius, m.
        radius: f32,
    },
    /// A `ConvexPolygonShape3D`: no height the node can change.
    Convex,
    /// Any other shape: no height the node can change.
    Other,
}

impl BodyShape {
    /// Height along the shape's Y, m; `None` for a shape crouching cannot resize.
    pub fn height(&self) -> Option<f32> {
        match *self {
            Self::Capsule { height, .. } | Self::Cylinder { height, .. } => Some(height),
            Self::Box { size } => Some(size.y),
            Self::Sphere { .. } | Self::Convex | Self::Other => None,
        }
    }

    /// How far the shape reaches across its Y axis, m (the port's `shape_radius`): the radius,
    /// or half a box's narrower side; 0 for a shape without one.
    pub fn radius(&self) -> f32 {
        match *self {
            Self::Capsule { radius, .. }
            | Self::Cylinder { radius, .. }
            | Self::Sphere { radius } => radius,
            Self::Box { size } => 0.5 * size.x.min(size.z),
            Self::Convex | Self::Other => 0.0,
        }
    }

    /// Whether Jolt rounds the shape's edges by its margin (a box, cylinder or convex shape;
    /// it ignores the margin of capsules and spheres).
    pub fn rounds_edges(&self) -> bool {
        matches!(
            self,
            Self::Cylinder { .. } | Self::Box { .. } | Self::Convex
        )
    }
}

/// A crouch's (or a stand's) change of the body's shape.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Resize {
    /// The shape at its new height.
    pub shape: BodyShape,
    /// How far the shape's `CollisionShape3D` moves along its local Y, m, so that the shape's
    /// bottom (the feet) stays where it was: half the height change.
    pub lift: f32,
}

/// `shape` made `height` m tall, its bottom kept; a capsule stays at least twice its radius
/// tall (Godot would shrink the radius instead). `None`, and the shape is left alone, for a
/// shape without a height to change or a height that is not a positive finite number.
pub fn resize(shape: BodyShape, height: f32) -> Option<Resize> {
    if !(height.is_finite() && height > 0.0) {
        return None;
    }
    let old = shape.height()?;
    let resized = match shape {
        BodyShape::Capsule { radius, .. } => BodyShape::Capsule {
            radius,
            height: height.max(2.0 * radius),
        },
        BodyShape::Cylinder { radius, .. } => BodyShape::Cylinder { radius, height },
        BodyShape::Box { size } => BodyShape::Box {
            size: Vector3::new(size.x, height, size.z),
        },
        BodyShape::Sphere { .. } | BodyShape::Convex | BodyShape::Other => return None,
    };
    let new = resized.height()?;
    Some(Resize {
        shape: resized,
        lift: 0.5 * (new - old),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    const CAPSULE: BodyShape = BodyShape::Capsule {
        radius: 0.3,
        height: 1.8,
    };

    /// Height of the bottom of a shape whose holder stands at `y`, m.
    fn bottom(shape: BodyShape, y: f32) -> f32 {
        y - 0.5 * shape.height().unwrap()
    }

    #[test]
    fn crouching_keeps_the_feet_in_place() {
        let holder_y = 0.9;
        for shape in [
            CAPSULE,
            BodyShape::Cylinder {
                radius: 0.4,
                height: 1.8,
            },
            BodyShape::Box {
                size: Vector3::new(0.6, 1.8, 0.4),
            },
        ] {
            let crouch = resize(shape, 1.0).expect("resizable");
            assert_eq!(crouch.shape.height(), Some(1.0), "{shape:?}");
            assert!(
                (crouch.lift + 0.4).abs() < 1e-6,
                "{shape:?}: {}",
                crouch.lift
            );
            let moved = bottom(crouch.shape, holder_y + crouch.lift);
            assert!((moved - bottom(shape, holder_y)).abs() < 1e-6, "{shape:?}");
            // And back up: the lift undoes itself.
            let stand = resize(crouch.shape, 1.8).unwrap();
            assert!((stand.lift - 0.4).abs() < 1e-6);
            assert_eq!(stand.shape, shape);
        }
    }

    #[test]
    fn a_box_keeps_its_width_and_depth() {
        let shape = BodyShape::Box {
            size: Vector3::new(0.6, 1.8, 0.4),
        };
        let crouch = resize(shape, 1.2).unwrap();
        assert_eq!(
            crouch.shape,
            BodyShape::Box {
                size: Vector3::new(0.6, 1.2, 0.4)
            }
        );
    }

    #[test]
    fn a_capsule_stays_as_tall_as_it_is_wide() {
        let crouch = resize(CAPSULE, 0.4).unwrap();
        assert_eq!(
            crouch.shape,
            BodyShape::Capsule {
                radius: 0.3,
                height: 0.6
            }
        );
        assert!((crouch.lift + 0.6).abs() < 1e-6, "{}", crouch.lift);
    }

    #[test]
    fn shapes_without_a_height_and_unusable_heights_are_left_alone() {
        assert_eq!(resize(BodyShape::Convex, 1.0), None);
        assert_eq!(resize(BodyShape::Other, 1.0), None);
        for height in [0.0, -1.0, f32::NAN, f32::INFINITY] {
            assert_eq!(resize(CAPSULE, height), None, "{height}");
        }
    }

    #[test]
    fn jolt_rounds_the_edges_of_boxes_cylinders_and_convex_shapes() {
        assert!(!CAPSULE.rounds_edges());
        assert!(!BodyShape::Other.rounds_edges());
        assert!(
            BodyShape::Cylinder {
                radius: 0.4,
                height: 1.0,
            }
            .rounds_edges()
        );
        assert!(BodyShape::Box { size: Vector3::ONE }.rounds_edges());
        assert!(BodyShape::Convex.rounds_edges());
        assert_eq!(BodyShape::Convex.height(), None);
    }
}
