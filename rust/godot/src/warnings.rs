//! The editor's configuration warnings, worded from plain facts.
//!
//! The nodes gather what they know about their setup into [`BodySetup`] or [`CameraSetup`];
//! the functions here turn it into the sentences the editor shows next to the node. Keeping
//! the wording apart from the engine calls lets plain `cargo test` check it.

use kcc::ConfigError;

use crate::shape::BodyShape;

/// Largest `safe_margin` that still lets the stair sweeps reach steps, m. Jolt and Godot
/// Physics both default to 0.001 m.
pub const MAX_SAFE_MARGIN: f32 = 0.01;

/// Largest margin of the body's box, cylinder or convex shape that keeps its edges sharp under
/// Jolt, m. Jolt uses such a shape's margin as a convex radius that rounds its edges (up to
/// 8 % of its smallest half extent); it ignores the margin of capsules and spheres.
pub const MAX_SHAPE_MARGIN: f32 = 0.01;

/// The 3D physics engine the project runs (`physics/3d/physics_engine`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Physics3D {
    /// Jolt Physics (Godot 4.4 and later; new projects of Godot 4.6 and later).
    Jolt,
    /// Godot Physics (`GodotPhysics3D`, what `DEFAULT` means).
    GodotPhysics,
    /// An engine of an extension: no advice of ours.
    Other,
}

impl Physics3D {
    /// The engine the project setting `physics/3d/physics_engine` names.
    pub fn from_setting(name: &str) -> Self {
        match name {
            "Jolt Physics" => Self::Jolt,
            "GodotPhysics3D" | "DEFAULT" | "" => Self::GodotPhysics,
            _ => Self::Other,
        }
    }
}

/// Where the yaw node path leads.
#[derive(Debug, Clone, PartialEq)]
pub enum YawNode {
    /// The path is empty.
    Unset,
    /// The path leads to a `Node3D`.
    Found,
    /// The path leads nowhere.
    Missing(String),
    /// The path leads to a node that is not a `Node3D` (its class is given).
    NotNode3D(String, String),
}

/// One collision shape child of the body.
#[derive(Debug, Clone, PartialEq)]
pub struct ShapeChild {
    /// The child's node name.
    pub name: String,
    /// The shape's margin, m; `None` when the child has no shape resource.
    pub margin: Option<f32>,
    /// Jolt rounds the shape's edges by its margin (a box, cylinder or convex shape; not a
    /// capsule or sphere, whose margin Jolt ignores).
    pub rounds_edges: bool,
    /// The shape is a `CylinderShape3D`.
    pub cylinder: bool,
    /// Height of the shape's bottom above the body's origin, m; `None` when not known (no
    /// capsule, cylinder or box shape).
    pub bottom: Option<f32>,
}

impl ShapeChild {
    /// A `CollisionShape3D` child named `name` whose local position is `y` m up the body,
    /// holding `shape` with its margin (m), or no shape resource (`None`).
    pub fn collision_shape(name: String, y: f32, shape: Option<(BodyShape, f32)>) -> Self {
        Self {
            name,
            margin: shape.map(|(_, margin)| margin),
            rounds_edges: shape.is_some_and(|(shape, _)| shape.rounds_edges()),
            cylinder: matches!(shape, Some((BodyShape::Cylinder { .. }, _))),
            bottom: shape
                .and_then(|(shape, _)| shape.height())
                .map(|height| y - 0.5 * height),
        }
    }

    /// A `CollisionPolygon3D` child named `name` with margin `margin` (m): Godot extrudes it
    /// into convex shapes with that margin, whose edges Jolt rounds; its bottom is not known.
    pub fn polygon(name: String, margin: f32) -> Self {
        Self {
            name,
            margin: Some(margin),
            rounds_edges: true,
            cylinder: false,
            bottom: None,
        }
    }
}

/// What a `RustCharacterBody3D` knows about its setup.
#[derive(Debug, Clone, PartialEq)]
pub struct BodySetup {
    /// `CollisionShape3D` and `CollisionPolygon3D` children.
    pub shapes: Vec<ShapeChild>,
    /// The body's `safe_margin`, m.
    pub safe_margin: f32,
    /// The body's `floor_max_angle`, rad.
    pub floor_max_angle: f32,
    /// Built-in input is on.
    pub builtin_input: bool,
    /// Where the yaw node path leads.
    pub yaw_node: YawNode,
    /// The core's complaints about the tuning properties (see `settings::sanitize`).
    pub settings_problems: Vec<ConfigError>,
    /// How far the shape must float above the origin for the ground following, m
    /// (`kcc::ControllerSettings::float_height`: 0 for the stair sweeps).
    pub float_height: f32,
    /// The project's 3D physics engine.
    pub physics: Physics3D,
}

/// How far short of the float height a shape's bottom may be, m.
pub const FLOAT_TOLERANCE: f32 = 0.005;

/// The warnings for a `RustCharacterBody3D`, most serious first.
pub fn body_warnings(setup: &BodySetup) -> Vec<String> {
    let mut warnings = Vec::new();
    if !setup.shapes.iter().any(|shape| shape.margin.is_some()) {
        warnings.push(
            "Add a CollisionShape3D child with a shape (a CapsuleShape3D, say): the stair \
             sweeps move that shape."
                .to_string(),
        );
    }
    for shape in &setup.shapes {
        if setup.physics == Physics3D::GodotPhysics && shape.cylinder {
            warnings.push(format!(
                "\"{}\" is a cylinder, and the project runs Godot Physics, whose cylinder \
                 collisions are unreliable (Godot's own CharacterBody3D with a cylinder sinks up \
                 to 9 cm into a 30 degree ramp): use a CapsuleShape3D or a BoxShape3D, or \
                 switch Physics > 3D > Physics Engine to Jolt Physics.",
                shape.name
            ));
        }
        // Godot Physics keeps a box's edges sharp whatever its margin.
        if let Some(margin) = shape.margin
            && shape.rounds_edges
            && margin > MAX_SHAPE_MARGIN
            && setup.physics != Physics3D::GodotPhysics
        {
            warnings.push(format!(
                "The shape of \"{}\" has margin {margin} m. Jolt Physics rounds the edges of \
                 a box, cylinder or convex shape by its margin, so its bottom rolls over step \
                 edges: set the shape's margin to 0.001 m (a capsule's margin does not matter).",
                shape.name
            ));
        }
    }
    if setup.float_height > 0.0
        && let Some((name, bottom)) = setup
            .shapes
            .iter()
            .find_map(|shape| shape.bottom.map(|bottom| (&shape.name, bottom)))
        && bottom < setup.float_height - FLOAT_TOLERANCE
    {
        warnings.push(format!(
            "ground_follow is Smooth: the bottom of \"{name}\" is {bottom} m above the body's \
             origin, and must float max_step_height ({} m) above it, or the shape stops at \
             steps. Lift the shape and shorten it by that much.",
            setup.float_height
        ));
    }
    if let Err(error) = kcc::error::validate_safe_margin(setup.safe_margin) {
        warnings.push(format!("{error}."));
    } else if setup.safe_margin > MAX_SAFE_MARGIN {
        warnings.push(format!(
            "safe_margin is {} m. Keep it at 0.001 m (at most {MAX_SAFE_MARGIN} m) with Jolt \
             Physics: a larger margin stops the stair sweeps short of steps.",
            setup.safe_margin
        ));
    }
    if let Err(error) = kcc::error::validate_floor_max_angle(setup.floor_max_angle) {
        warnings.push(format!("{error}."));
    }
    if setup.builtin_input {
        match &setup.yaw_node {
            // No yaw node is a valid setup: the body's own rotation orients input (a body
            // that turns itself, a fixed camera).
            YawNode::Found | YawNode::Unset => {}
            YawNode::Missing(path) => warnings.push(format!(
                "yaw_node \"{path}\" does not exist: input is oriented by the body's own \
                 rotation."
            )),
            YawNode::NotNode3D(path, class) => warnings.push(format!(
                "yaw_node \"{path}\" is a {class}, not a Node3D: input is oriented by the \
                 body's own rotation."
            )),
        }
    }
    for problem in &setup.settings_problems {
        warnings.push(format!(
            "{problem}: the character uses a safe value instead."
        ));
    }
    warnings
}

/// The configuration warnings the editor shows for a node, kept to tell when they change.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct ShownWarnings {
    /// The warnings last shown.
    shown: Vec<String>,
}

impl ShownWarnings {
    /// Records the warnings of the setup as it is `now`; true when they differ from the ones
    /// shown, and the editor must ask for them again (`update_configuration_warnings`). The
    /// node calls it every editor frame, so a changed property, shape or margin refreshes
    /// them, whatever changed it.
    pub fn refresh(&mut self, now: Vec<String>) -> bool {
        let changed = now != self.shown;
        self.shown = now;
        changed
    }
}

/// What a `StepSmoothCamera3D` knows about its setup.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct CameraSetup {
    /// A `RustCharacterBody3D` to follow was found (the `target` property or an ancestor).
    pub has_target: bool,
    /// The `decay` property, 1/s.
    pub decay: f32,
}

/// The warnings for a `StepSmoothCamera3D`.
pub fn camera_warnings(setup: &CameraSetup) -> Vec<String> {
    let mut warnings = Vec::new();
    if !setup.has_target {
        warnings.push(
            "Set target to a RustCharacterBody3D, or put the camera below one: without it \
             there are no steps to smooth."
                .to_string(),
        );
    }
    if !(setup.decay.is_finite() && setup.decay > 0.0) {
        warnings.push(format!(
            "decay is {} 1/s: the camera offset of a step never returns to zero. Use a \
             positive value (20 is a good start).",
            setup.decay
        ));
    }
    warnings
}

#[cfg(test)]
mod tests {
    use super::*;

    fn good_body() -> BodySetup {
        BodySetup {
            shapes: vec![ShapeChild {
                name: "CollisionShape3D".into(),
                margin: Some(0.001),
                rounds_edges: false,
                cylinder: false,
                bottom: Some(0.0),
            }],
            safe_margin: 0.001,
            floor_max_angle: 45f32.to_radians(),
            builtin_input: true,
            yaw_node: YawNode::Found,
            settings_problems: Vec::new(),
            float_height: 0.0,
            physics: Physics3D::Jolt,
        }
    }

    fn one_warning(setup: &BodySetup, needle: &str) {
        let warnings = body_warnings(setup);
        assert_eq!(warnings.len(), 1, "{warnings:?}");
        assert!(warnings[0].contains(needle), "{warnings:?}");
    }

    #[test]
    fn a_good_setup_has_no_warnings() {
        assert!(body_warnings(&good_body()).is_empty());
        let mut scripted = good_body();
        scripted.builtin_input = false;
        scripted.yaw_node = YawNode::Unset;
        assert!(body_warnings(&scripted).is_empty());
    }

    #[test]
    fn missing_or_empty_shapes_are_reported() {
        let mut setup = good_body();
        setup.shapes.clear();
        one_warning(&setup, "CollisionShape3D");
        setup.shapes.push(ShapeChild {
            name: "Empty".into(),
            margin: None,
            rounds_edges: false,
            cylinder: false,
            bottom: None,
        });
        one_warning(&setup, "CollisionShape3D");
    }

    #[test]
    fn jolt_margins_are_reported() {
        // A capsule with Godot's default margin: Jolt ignores it, no warning.
        let mut setup = good_body();
        setup.shapes[0].margin = Some(0.04);
        assert!(body_warnings(&setup).is_empty());
        // A box or cylinder with it: Jolt rounds its edges.
        setup.shapes[0].rounds_edges = true;
        one_warning(&setup, "margin 0.04 m");
        setup.shapes[0].margin = Some(0.001);
        assert!(body_warnings(&setup).is_empty());
        let mut setup = good_body();
        setup.safe_margin = 0.05;
        one_warning(&setup, "safe_margin is 0.05 m");
        setup.safe_margin = 0.5;
        one_warning(&setup, "safe_margin must be");
    }

    #[test]
    fn godot_physics_warns_of_cylinders_and_not_of_jolts_rounded_edges() {
        let mut setup = good_body();
        setup.shapes[0].cylinder = true;
        setup.shapes[0].rounds_edges = true;
        setup.shapes[0].margin = Some(0.04);
        // On Jolt: the margin rounds the cylinder's edges.
        one_warning(&setup, "margin 0.04 m");
        // On Godot Physics: the cylinder itself, and not the margin.
        setup.physics = Physics3D::GodotPhysics;
        one_warning(&setup, "is a cylinder, and the project runs Godot Physics");
        setup.shapes[0].cylinder = false;
        assert!(body_warnings(&setup).is_empty());
        // An extension's engine: the Jolt advice stands, no cylinder advice.
        setup.physics = Physics3D::Other;
        setup.shapes[0].cylinder = true;
        one_warning(&setup, "margin 0.04 m");
    }

    #[test]
    fn the_engine_is_read_from_the_project_setting() {
        assert_eq!(Physics3D::from_setting("Jolt Physics"), Physics3D::Jolt);
        for name in ["GodotPhysics3D", "DEFAULT", ""] {
            assert_eq!(
                Physics3D::from_setting(name),
                Physics3D::GodotPhysics,
                "{name}"
            );
        }
        assert_eq!(Physics3D::from_setting("Rapier3D"), Physics3D::Other);
    }

    #[test]
    fn a_smooth_ground_follow_needs_a_floating_shape() {
        let mut setup = good_body();
        setup.float_height = 0.4;
        one_warning(&setup, "must float max_step_height (0.4 m)");
        setup.shapes[0].bottom = Some(0.4);
        assert!(body_warnings(&setup).is_empty());
        // A shape whose height is unknown (a convex one) is not judged.
        setup.shapes[0].bottom = None;
        assert!(body_warnings(&setup).is_empty());
    }

    #[test]
    fn shape_children_are_read_from_their_shapes() {
        let capsule = BodyShape::Capsule {
            radius: 0.3,
            height: 1.8,
        };
        let standing = ShapeChild::collision_shape("Body".into(), 0.9, Some((capsule, 0.04)));
        assert_eq!(
            standing,
            ShapeChild {
                name: "Body".into(),
                margin: Some(0.04),
                rounds_edges: false,
                cylinder: false,
                bottom: Some(0.0),
            }
        );
        // A cylinder lifted 0.4 m above the origin for a smooth ground follow.
        let cylinder = BodyShape::Cylinder {
            radius: 0.4,
            height: 1.4,
        };
        let floating = ShapeChild::collision_shape("Float".into(), 1.1, Some((cylinder, 0.001)));
        assert!((floating.bottom.unwrap() - 0.4).abs() < 1e-6);
        assert!(floating.rounds_edges && floating.cylinder);
        let convex =
            ShapeChild::collision_shape("Hull".into(), 1.0, Some((BodyShape::Convex, 0.04)));
        assert_eq!((convex.bottom, convex.rounds_edges), (None, true));
        let empty = ShapeChild::collision_shape("Empty".into(), 1.0, None);
        assert_eq!(
            (empty.margin, empty.bottom, empty.rounds_edges),
            (None, None, false)
        );
        let polygon = ShapeChild::polygon("Poly".into(), 0.04);
        assert_eq!(
            (polygon.margin, polygon.bottom, polygon.rounds_edges),
            (Some(0.04), None, true)
        );
        // The readings feed the warnings: the polygon's margin is one.
        let mut setup = good_body();
        setup.shapes.push(polygon);
        one_warning(&setup, "\"Poly\" has margin 0.04 m");
    }

    #[test]
    fn body_settings_are_checked_with_the_core() {
        let mut setup = good_body();
        setup.floor_max_angle = 0.0;
        one_warning(&setup, "floor_max_angle");
        let mut setup = good_body();
        setup.settings_problems = vec![ConfigError::NoSweepIterations];
        one_warning(&setup, "sweep_iterations");
    }

    #[test]
    fn a_yaw_node_path_that_leads_nowhere_matters_only_with_builtin_input() {
        let mut setup = good_body();
        // Unset is a valid setup: the body turns itself.
        setup.yaw_node = YawNode::Unset;
        assert!(body_warnings(&setup).is_empty());
        setup.yaw_node = YawNode::Missing("../Pivot".into());
        one_warning(&setup, "\"../Pivot\" does not exist");
        setup.yaw_node = YawNode::NotNode3D("../Hud".into(), "CanvasLayer".into());
        one_warning(&setup, "is a CanvasLayer");
        setup.builtin_input = false;
        assert!(body_warnings(&setup).is_empty());
    }

    #[test]
    fn warnings_refresh_when_a_property_they_depend_on_changes_and_only_then() {
        let mut shown = ShownWarnings::default();
        let mut setup = good_body();
        assert!(
            !shown.refresh(body_warnings(&setup)),
            "nothing to show, nothing shown"
        );
        setup.safe_margin = 0.05;
        assert!(shown.refresh(body_warnings(&setup)), "safe margin changed");
        assert!(
            !shown.refresh(body_warnings(&setup)),
            "unchanged: no refresh"
        );
        setup.float_height = 0.4;
        setup.shapes[0].bottom = Some(0.0);
        assert!(
            shown.refresh(body_warnings(&setup)),
            "ground follow changed to Smooth"
        );
        setup.shapes[0].bottom = Some(0.4);
        assert!(shown.refresh(body_warnings(&setup)), "the shape was lifted");
        setup.safe_margin = 0.001;
        assert!(shown.refresh(body_warnings(&setup)), "back to a good setup");
        assert!(body_warnings(&setup).is_empty());
    }

    #[test]
    fn camera_needs_a_target_and_a_decay() {
        let good = CameraSetup {
            has_target: true,
            decay: 20.0,
        };
        assert!(camera_warnings(&good).is_empty());
        let lost = CameraSetup {
            has_target: false,
            ..good
        };
        assert_eq!(camera_warnings(&lost).len(), 1);
        for decay in [0.0, -1.0, f32::NAN] {
            let stuck = CameraSetup { decay, ..good };
            assert_eq!(camera_warnings(&stuck).len(), 1, "{decay}");
        }
    }
}
