//! What the checks know about classes: an explicit allowlist of the Godot classes the project's
//! files use, and the extension's own classes read from the Rust source, so that renaming a
//! class, a signal, a method or a property in Rust makes the scene checks fail.

use std::collections::{BTreeMap, BTreeSet};

/// A class as the scene checks see it.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Class {
    /// The parent class; empty for `Object`.
    pub parent: String,
    /// Signals declared by this class (not inherited).
    pub signals: BTreeSet<String>,
    /// Methods callable from a scene connection, declared by this class.
    pub methods: BTreeSet<String>,
    /// Properties a scene may set, declared by this class.
    pub properties: BTreeSet<String>,
}

/// All known classes by name.
#[derive(Debug, Clone, Default)]
pub struct Classes {
    /// Known classes by name.
    pub by_name: BTreeMap<String, Class>,
}

/// Built-in node classes used by the project, with their parent, signals and the properties our
/// scenes set. Only what the project needs: adding a node type to a scene means adding it here.
const BUILTIN_NODES: &[(&str, &str, &[&str], &[&str])] = &[
    (
        "Object",
        "",
        &["script_changed", "property_list_changed"],
        &["script"],
    ),
    (
        "Node",
        "Object",
        &[
            "ready",
            "renamed",
            "tree_entered",
            "tree_exiting",
            "tree_exited",
            "child_entered_tree",
            "child_exiting_tree",
            "child_order_changed",
            "replacing_by",
            "editor_description_changed",
        ],
        &[
            "process_mode",
            "process_priority",
            "physics_process_priority",
            "unique_name_in_owner",
        ],
    ),
    (
        "Node3D",
        "Node",
        &["visibility_changed"],
        &["transform", "visible", "rotation", "position", "scale"],
    ),
    (
        "CollisionObject3D",
        "Node3D",
        &["input_event", "mouse_entered", "mouse_exited"],
        &["collision_layer", "collision_mask"],
    ),
    ("PhysicsBody3D", "CollisionObject3D", &[], &[]),
    (
        "StaticBody3D",
        "PhysicsBody3D",
        &[],
        &["physics_material_override"],
    ),
    (
        "RigidBody3D",
        "PhysicsBody3D",
        &["body_entered", "body_exited", "sleeping_state_changed"],
        &[
            "mass",
            "physics_material_override",
            "linear_velocity",
            "angular_velocity",
            "freeze",
            "can_sleep",
        ],
    ),
    (
        "CharacterBody3D",
        "PhysicsBody3D",
        &[],
        &[
            "motion_mode",
            "up_direction",
            "floor_stop_on_slope",
            "floor_constant_speed",
            "floor_block_on_wall",
            "floor_max_angle",
            "floor_snap_length",
            "safe_margin",
            "velocity",
            "max_slides",
            "wall_min_slide_angle",
        ],
    ),
    ("CollisionShape3D", "Node3D", &[], &["shape", "disabled"]),
    ("VisualInstance3D", "Node3D", &[], &["layers"]),
    (
        "GeometryInstance3D",
        "VisualInstance3D",
        &[],
        &["material_override", "cast_shadow"],
    ),
    (
        "MeshInstance3D",
        "GeometryInstance3D",
        &[],
        &["mesh", "skeleton"],
    ),
    (
        "Camera3D",
        "Node3D",
        &[],
        &["current", "fov", "near", "far"],
    ),
    (
        "Light3D",
        "VisualInstance3D",
        &[],
        &["light_color", "light_energy", "shadow_enabled"],
    ),
    (
        "DirectionalLight3D",
        "Light3D",
        &[],
        &["directional_shadow_mode"],
    ),
    (
        "WorldEnvironment",
        "Node",
        &[],
        &["environment", "camera_attributes"],
    ),
    (
        "CanvasLayer",
        "Node",
        &["visibility_changed"],
        &["layer", "visible"],
    ),
    (
        "CanvasItem",
        "Node",
        &["draw", "visibility_changed", "hidden", "item_rect_changed"],
        &["visible", "modulate"],
    ),
    (
        "Control",
        "CanvasItem",
        &[
            "resized",
            "gui_input",
            "mouse_entered",
            "mouse_exited",
            "focus_entered",
            "focus_exited",
            "size_flags_changed",
            "minimum_size_changed",
            "theme_changed",
        ],
        &[
            "offset_left",
            "offset_top",
            "offset_right",
            "offset_bottom",
            "anchors_preset",
        ],
    ),
    ("Label", "Control", &[], &["text", "horizontal_alignment"]),
];

/// Built-in resource classes the project's scenes create as `sub_resource`s or load as
/// `ext_resource`s.
pub const BUILTIN_RESOURCES: &[&str] = &[
    "Script",
    "PackedScene",
    "BoxShape3D",
    "CapsuleShape3D",
    "CylinderShape3D",
    "ConvexPolygonShape3D",
    "BoxMesh",
    "PrismMesh",
    "CapsuleMesh",
    "CylinderMesh",
    "PlaneMesh",
    "StandardMaterial3D",
    "Environment",
    "Sky",
    "ProceduralSkyMaterial",
];

impl Classes {
    /// The built-in allowlist plus the classes registered in the Rust sources `files`
    /// (path, text).
    pub fn new(files: &[(String, String)]) -> Result<Self, String> {
        let mut by_name = BTreeMap::new();
        for (name, parent, signals, properties) in BUILTIN_NODES {
            by_name.insert(
                name.to_string(),
                Class {
                    parent: parent.to_string(),
                    signals: signals.iter().map(|s| s.to_string()).collect(),
                    methods: BTreeSet::new(),
                    properties: properties.iter().map(|s| s.to_string()).collect(),
                },
            );
        }
        for (path, text) in files {
            for (name, class) in rust_classes(text).map_err(|e| format!("{path}: {e}"))? {
                if by_name.insert(name.clone(), class).is_some() {
                    return Err(format!("{path}: class {name} is declared twice"));
                }
            }
        }
        let classes = Self { by_name };
        for (name, class) in &classes.by_name {
            if !class.parent.is_empty() && !classes.by_name.contains_key(&class.parent) {
                return Err(format!(
                    "{name} extends {}, which is not in the allowlist",
                    class.parent
                ));
            }
        }
        Ok(classes)
    }

    /// `name` and its ancestors, nearest first; empty when `name` is unknown.
    pub fn lineage(&self, name: &str) -> Vec<&Class> {
        let mut chain = Vec::new();
        let mut current = name;
        while let Some(class) = self.by_name.get(current) {
            chain.push(class);
            if class.parent.is_empty() || chain.len() > 32 {
                break;
            }
            current = &class.parent;
        }
        chain
    }

    /// Whether `name` is a known class.
    pub fn knows(&self, name: &str) -> bool {
        self.by_name.contains_key(name)
    }

    /// Whether `class` or an ancestor declares signal `signal`.
    pub fn has_signal(&self, class: &str, signal: &str) -> bool {
        self.lineage(class)
            .iter()
            .any(|c| c.signals.contains(signal))
    }

    /// Whether `class` or an ancestor declares method `method`.
    pub fn has_method(&self, class: &str, method: &str) -> bool {
        self.lineage(class)
            .iter()
            .any(|c| c.methods.contains(method))
    }

    /// Whether a scene may set `property` on a node of `class`.
    pub fn has_property(&self, class: &str, property: &str) -> bool {
        self.lineage(class)
            .iter()
            .any(|c| c.properties.contains(property))
    }

    /// Whether `class` is `ancestor` or derives from it.
    pub fn inherits(&self, class: &str, ancestor: &str) -> bool {
        let mut current = class;
        for _ in 0..32 {
            if current == ancestor {
                return true;
            }
            match self.by_name.get(current) {
                Some(c) if !c.parent.is_empty() => current = &c.parent,
                _ => return false,
            }
        }
        false
    }
}

/// The classes a Rust source file registers: each `#[derive(GodotClass)]` struct with its
/// `base = ...`, `#[export]` fields (properties), and, from the `#[godot_api]` impl blocks of
/// the same file, its `#[signal]`s and `#[func]`s (with the setters of `#[var(set = ...)]`).
pub fn rust_classes(text: &str) -> Result<Vec<(String, Class)>, String> {
    let lines: Vec<&str> = text.lines().map(str::trim).collect();
    let mut classes: Vec<(String, Class)> = Vec::new();
    let mut pending_class_base: Option<String> = None;
    let mut derive_seen = false;
    let mut in_struct = false;
    let mut field_exported = false;
    let mut attribute_pending: Option<&str> = None;
    let mut current_impl: Option<String> = None;
    for (index, line) in lines.iter().enumerate() {
        let number = index + 1;
        if line.starts_with("#[derive(") && line.contains("GodotClass") {
            derive_seen = true;
            continue;
        }
        if derive_seen && line.starts_with("#[class(") {
            let base = attribute_value(line, "base")
                .ok_or_else(|| format!("line {number}: #[class] without base = ..."))?;
            pending_class_base = Some(base);
            continue;
        }
        if derive_seen && (line.starts_with("pub struct ") || line.starts_with("struct ")) {
            let name = line
                .trim_start_matches("pub ")
                .trim_start_matches("struct ")
                .split(|c: char| !c.is_alphanumeric() && c != '_')
                .next()
                .unwrap_or_default()
                .to_string();
            let parent = pending_class_base.take().ok_or_else(|| {
                format!("line {number}: GodotClass {name} has no #[class(base = ...)]")
            })?;
            classes.push((
                name,
                Class {
                    parent,
                    ..Class::default()
                },
            ));
            derive_seen = false;
            in_struct = true;
            continue;
        }
        if in_struct {
            if *line == "}" {
                in_struct = false;
                continue;
            }
            if line.starts_with("#[export")
                && !line.starts_with("#[export_group")
                && !line.starts_with("#[export_subgroup")
            {
                field_exported = true;
            }
            if line.starts_with("#[var(")
                && let Some(setter) = attribute_value(line, "set")
            {
                let class = &mut classes.last_mut().expect("in a struct").1;
                class.methods.insert(setter);
            }
            if !line.starts_with("#[")
                && !line.starts_with("///")
                && !line.starts_with("//")
                && line.contains(':')
            {
                let field = line
                    .split(':')
                    .next()
                    .unwrap_or_default()
                    .trim()
                    .trim_start_matches("pub ")
                    .trim();
                if field_exported {
                    classes
                        .last_mut()
                        .expect("in a struct")
                        .1
                        .properties
                        .insert(field.to_string());
                }
                field_exported = false;
            }
            continue;
        }
        if let Some(rest) = line.strip_prefix("impl ") {
            // `impl Name {` or `impl ITrait for Name {`: the class is the last word.
            let target = rest.trim_end_matches('{').trim();
            let target = target.rsplit(' ').next().unwrap_or_default();
            current_impl = Some(target.to_string());
            continue;
        }
        if *line == "#[signal]" || *line == "#[func]" {
            attribute_pending = Some(line);
            continue;
        }
        if let Some(kind) = attribute_pending {
            if line.starts_with("#[") || line.starts_with("///") {
                continue;
            }
            attribute_pending = None;
            let name = function_name(line)
                .ok_or_else(|| format!("line {number}: {kind} is not followed by a fn"))?;
            let owner = current_impl
                .clone()
                .ok_or_else(|| format!("line {number}: {kind} outside an impl block"))?;
            let class = classes
                .iter_mut()
                .find(|(name, _)| *name == owner)
                .ok_or_else(|| {
                    format!("line {number}: {kind} in impl {owner}, not a GodotClass of this file")
                })?;
            if kind == "#[signal]" {
                class.1.signals.insert(name);
            } else {
                class.1.methods.insert(name);
            }
        }
    }
    Ok(classes)
}

/// `key = value` inside an attribute line such as `#[class(base = CharacterBody3D, init)]`.
fn attribute_value(line: &str, key: &str) -> Option<String> {
    let inner = line.split_once('(')?.1;
    inner
        .split([',', ')'])
        .filter_map(|part| part.split_once('='))
        .find(|(name, _)| name.trim() == key)
        .map(|(_, value)| value.trim().to_string())
}

/// The name in `pub fn name(` or `fn name(`.
fn function_name(line: &str) -> Option<String> {
    let rest = line.split_once("fn ")?.1;
    let name: String = rest
        .chars()
        .take_while(|c| c.is_alphanumeric() || *c == '_')
        .collect();
    (!name.is_empty()).then_some(name)
}

#[cfg(test)]
mod tests {
    use super::*;

    const SOURCE: &str = r#"
/// A thing.
#[derive(GodotClass)]
#[class(base = CharacterBody3D, init, tool)]
pub struct Walker {
    /// Doc.
    #[export_group(name = "Stairs")]
    #[export(range = (0.0, 1.0, 0.01, or_greater, suffix = "m"))]
    #[init(val = 0.4)]
    max_step_height: f32,
    #[export]
    #[var(set = set_flag)]
    flag: bool,
    hidden: f32,
    base: Base<CharacterBody3D>,
}

#[godot_api]
impl Walker {
    /// Docs.
    #[signal]
    pub fn stepped(vertical_travel: f32);

    #[func]
    fn tick(&mut self, delta: f64) {}

    fn private_helper(&self) {}
}
"#;

    #[test]
    fn reads_classes_from_rust() {
        let classes = rust_classes(SOURCE).unwrap();
        assert_eq!(classes.len(), 1);
        let (name, class) = &classes[0];
        assert_eq!(name, "Walker");
        assert_eq!(class.parent, "CharacterBody3D");
        assert_eq!(class.signals, BTreeSet::from(["stepped".to_string()]));
        assert_eq!(
            class.methods,
            BTreeSet::from(["tick".to_string(), "set_flag".to_string()])
        );
        assert_eq!(
            class.properties,
            BTreeSet::from(["max_step_height".to_string(), "flag".to_string()])
        );
    }

    #[test]
    fn inheritance_reaches_builtin_signals() {
        let classes = Classes::new(&[("walker.rs".into(), SOURCE.into())]).unwrap();
        assert!(classes.has_signal("Walker", "stepped"));
        assert!(classes.has_signal("Walker", "ready"));
        assert!(!classes.has_signal("Walker", "landed"));
        assert!(classes.has_property("Walker", "safe_margin"));
        assert!(classes.has_property("Walker", "flag"));
        assert!(!classes.has_property("Walker", "hidden"));
        assert!(classes.inherits("Walker", "Node3D"));
        assert!(!classes.inherits("Walker", "Camera3D"));
    }

    #[test]
    fn functions_belong_to_their_impl() {
        let other = SOURCE.replace("impl Walker {", "impl Runner {");
        assert!(rust_classes(&other).unwrap_err().contains("impl Runner"));
    }

    #[test]
    fn broken_sources_are_errors() {
        let no_base = SOURCE.replace("base = CharacterBody3D, ", "");
        assert!(rust_classes(&no_base).unwrap_err().contains("base"));
        let unknown_parent = SOURCE.replace("CharacterBody3D, init", "Spaceship, init");
        assert!(
            Classes::new(&[("w.rs".into(), unknown_parent)])
                .unwrap_err()
                .contains("Spaceship")
        );
        let twice = format!("{SOURCE}\n{SOURCE}");
        assert!(
            Classes::new(&[("w.rs".into(), twice)])
                .unwrap_err()
                .contains("twice")
        );
    }
}
