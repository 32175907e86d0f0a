//! Static checks of the Godot side, without Godot: the addon's `.gdextension`, the sample
//! project's `project.godot` and extension list, every scene, and every script's `res://`
//! paths, read as text and checked against the crate and the Rust source of its classes.
//!
//! No Godot binary runs on the project's machines, so these checks are what catches a renamed
//! signal, a moved file or a library name that no longer matches before a user does.

mod classes;
mod godot_text;
mod scene_check;
mod script_members;

use std::fs;
use std::path::{Path, PathBuf};

use classes::Classes;
use godot_text::{Document, parse, string_literal, strings_in};
use scene_check::{Context, check_scene, script_info};
use script_members::unknown_members;

/// The addon's folder name and the `.gdextension` inside it.
const ADDON: &str = "addons/rust_character_body";
const GDEXTENSION: &str = "addons/rust_character_body/rust_character_body.gdextension";

fn repository() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn project() -> PathBuf {
    repository().join("godot_project")
}

fn read(path: &Path) -> String {
    fs::read_to_string(path).unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()))
}

fn read_document(path: &Path) -> Document {
    parse(&read(path)).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// The file a `res://` path names inside the sample project, through the addon's symlink.
fn res_file(res: &str) -> Option<PathBuf> {
    let relative = res.strip_prefix("res://")?;
    if relative.split('/').any(|part| part == "..") {
        return None;
    }
    let path = project().join(relative);
    path.is_file().then_some(path)
}

fn read_res(res: &str) -> Option<String> {
    res_file(res).and_then(|path| fs::read_to_string(path).ok())
}

/// The Rust sources of the extension, as (path, text).
fn rust_sources() -> Vec<(String, String)> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files: Vec<(String, String)> = fs::read_dir(&dir)
        .unwrap()
        .map(|entry| entry.unwrap().path())
        .filter(|path| path.extension().is_some_and(|e| e == "rs"))
        .map(|path| (path.display().to_string(), read(&path)))
        .collect();
    files.sort();
    files
}

fn classes() -> Classes {
    Classes::new(&rust_sources()).unwrap_or_else(|e| panic!("{e}"))
}

/// The classes the extension registers (declared in Rust), by name.
fn extension_classes() -> Vec<String> {
    rust_sources()
        .iter()
        .flat_map(|(_, text)| classes::rust_classes(text).unwrap())
        .map(|(name, _)| name)
        .collect()
}

/// Files under `dir` ending in `.ext`, not following symlinks, skipping `.godot`.
fn files_with_extension(dir: &Path, ext: &str) -> Vec<PathBuf> {
    let mut found = Vec::new();
    let mut pending = vec![dir.to_path_buf()];
    while let Some(current) = pending.pop() {
        for entry in fs::read_dir(&current).unwrap() {
            let entry = entry.unwrap();
            let path = entry.path();
            let kind = entry.file_type().unwrap();
            if kind.is_dir() && entry.file_name() != ".godot" {
                pending.push(path);
            } else if kind.is_file() && path.extension().is_some_and(|e| e == ext) {
                found.push(path);
            }
        }
    }
    found.sort();
    found
}

/// The library name cargo gives the cdylib: the package name with `-` as `_`, unless `[lib]`
/// renames it. Also checks that the crate builds a cdylib.
fn crate_library_name() -> String {
    let manifest = read(&Path::new(env!("CARGO_MANIFEST_DIR")).join("Cargo.toml"));
    let mut section = String::new();
    let mut package = None;
    let mut lib = None;
    let mut cdylib = false;
    for line in manifest.lines().map(str::trim) {
        if line.starts_with('[') {
            section = line.to_string();
            continue;
        }
        let Some((key, value)) = line.split_once('=') else {
            continue;
        };
        let (key, value) = (key.trim(), value.trim());
        match (section.as_str(), key) {
            ("[package]", "name") => package = string_literal(value),
            ("[lib]", "name") => lib = string_literal(value),
            ("[lib]", "crate-type") => cdylib = strings_in(value).iter().any(|t| t == "cdylib"),
            _ => {}
        }
    }
    assert!(
        cdylib,
        "rust/godot/Cargo.toml must build a cdylib for Godot"
    );
    lib.or(package)
        .expect("rust/godot/Cargo.toml has a package name")
        .replace('-', "_")
}

/// The library file a `[libraries]` key (`platform.debug|release[.arch]`) points at: the
/// platform's library name for the crate, tagged with the key's parts so that every build has
/// a file of its own (`librust_character_body.linux.debug.x86_64.so`).
fn library_file(key: &str, name: &str) -> Option<String> {
    let platform = key.split('.').next()?;
    let (prefix, extension) = match platform {
        "linux" | "android" => ("lib", "so"),
        "macos" | "ios" => ("lib", "dylib"),
        "windows" => ("", "dll"),
        _ => return None,
    };
    Some(format!("{prefix}{name}.{key}.{extension}"))
}

#[test]
fn gdextension_points_at_the_crate_library() {
    let doc = read_document(&repository().join(GDEXTENSION));
    let configuration = doc.section("configuration").expect("[configuration]");
    assert_eq!(
        configuration.property_string("entry_symbol").as_deref(),
        Some("gdext_rust_init"),
        "gdext's #[gdextension] exports gdext_rust_init"
    );
    assert_eq!(configuration.property("compatibility_minimum"), Some("4.4"));
    assert_eq!(configuration.property("reloadable"), Some("true"));
    let lib_rs = read(&Path::new(env!("CARGO_MANIFEST_DIR")).join("src/lib.rs"));
    assert!(lib_rs.contains("#[gdextension]") && !lib_rs.contains("entry_symbol"));

    let name = crate_library_name();
    let libraries = doc.section("libraries").expect("[libraries]");
    let mut keys = Vec::new();
    for (key, value) in &libraries.properties {
        let parts: Vec<&str> = key.split('.').collect();
        assert!(
            parts.len() >= 2 && ["debug", "release"].contains(&parts[1]),
            "{key}: expected platform.debug|release[.arch]"
        );
        let expected = library_file(key, &name)
            .unwrap_or_else(|| panic!("{key}: unknown platform {}", parts[0]));
        let path = string_literal(value).unwrap_or_else(|| panic!("{key} is not a string"));
        // Relative to the .gdextension file: a renamed or moved addon folder still loads.
        assert_eq!(path, format!("bin/{expected}"), "{key}");
        keys.push(key.as_str());
    }
    for required in [
        "linux.debug.x86_64",
        "linux.release.x86_64",
        "windows.debug.x86_64",
        "windows.release.x86_64",
        "macos.debug",
        "macos.release",
    ] {
        assert!(keys.contains(&required), "[libraries] lacks {required}");
    }

    // bin/ travels with the addon without an ignore file of its own, so a game that copies
    // the addon commits its libraries; this repository ignores its own builds at the root.
    let bin = repository().join(ADDON).join("bin");
    assert!(bin.join(".gitkeep").is_file());
    assert!(!bin.join(".gitignore").exists());
    let ignore = read(&repository().join(".gitignore"));
    let rules: Vec<&str> = ignore.lines().filter(|l| !l.starts_with('#')).collect();
    assert!(
        rules.contains(&format!("/{ADDON}/bin/*").as_str())
            && rules.contains(&format!("!/{ADDON}/bin/.gitkeep").as_str()),
        "{ignore}"
    );
}

#[test]
fn gdextension_icons_match_the_registered_classes() {
    let doc = read_document(&repository().join(GDEXTENSION));
    let icons = doc.section("icons").expect("[icons]");
    let registered = extension_classes();
    assert!(
        registered.contains(&"RustCharacterBody3D".to_string())
            && registered.contains(&"StepSmoothCamera3D".to_string()),
        "{registered:?}"
    );
    for class in &registered {
        assert!(icons.property(class).is_some(), "no icon for {class}");
    }
    for (class, value) in &icons.properties {
        assert!(
            registered.contains(class),
            "icon for unregistered class {class}"
        );
        let path = string_literal(value).unwrap();
        assert!(
            !path.starts_with("res://"),
            "{class}: {path} is not relative"
        );
        let file = repository().join(ADDON).join(&path);
        let text = fs::read_to_string(&file).unwrap_or_else(|_| panic!("{path} does not exist"));
        assert!(
            text.trim_start().starts_with("<svg"),
            "{path} is not an SVG"
        );
    }
}

#[test]
fn addon_is_linked_into_the_project() {
    let link = project().join(ADDON);
    let meta = fs::symlink_metadata(&link).expect("godot_project/addons/rust_character_body");
    assert!(
        meta.file_type().is_symlink(),
        "{} must be a symlink",
        link.display()
    );
    assert_eq!(
        fs::read_link(&link).unwrap(),
        PathBuf::from("../../addons/rust_character_body")
    );
    assert_eq!(
        fs::canonicalize(&link).unwrap(),
        fs::canonicalize(repository().join(ADDON)).unwrap()
    );
}

#[test]
fn extension_list_names_the_addon() {
    let text = read(&project().join(".godot/extension_list.cfg"));
    let lines: Vec<&str> = text.lines().filter(|l| !l.trim().is_empty()).collect();
    assert_eq!(lines, [format!("res://{GDEXTENSION}")]);
    for line in lines {
        assert!(res_file(line).is_some(), "{line} does not exist");
    }
}

#[test]
fn project_settings_use_jolt_at_60_hz_with_the_default_actions() {
    let doc = read_document(&project().join("project.godot"));
    let global = doc
        .section("")
        .expect("config_version before the first section");
    assert_eq!(global.property("config_version"), Some("5"));
    let physics = doc.section("physics").expect("[physics]");
    assert_eq!(
        physics.property_string("3d/physics_engine").as_deref(),
        Some("Jolt Physics")
    );
    assert_eq!(
        physics.property("common/physics_ticks_per_second"),
        Some("60")
    );
    let application = doc.section("application").expect("[application]");
    let main_scene = application.property_string("run/main_scene").unwrap();
    assert!(
        res_file(&main_scene).is_some(),
        "{main_scene} does not exist"
    );

    // The actions RustCharacterBody3D reads by default, with their keys (physical keycodes)
    // and their gamepad event (a stick's axis and direction, or a button).
    let character = read(&Path::new(env!("CARGO_MANIFEST_DIR")).join("src/character.rs"));
    let input = doc.section("input").expect("[input]");
    let expected: [(&str, &[u32], &str); 6] = [
        (
            "move_left",
            &[65, 4194319],
            "\"axis\":0,\"axis_value\":-1.0",
        ),
        (
            "move_right",
            &[68, 4194321],
            "\"axis\":0,\"axis_value\":1.0",
        ),
        (
            "move_forward",
            &[87, 4194320],
            "\"axis\":1,\"axis_value\":-1.0",
        ),
        ("move_back", &[83, 4194322], "\"axis\":1,\"axis_value\":1.0"),
        ("jump", &[32], "\"button_index\":0,"),
        ("crouch", &[67], "\"button_index\":1,"),
    ];
    for (action, keys, pad) in expected {
        assert!(
            character.contains(&format!("StringName::from(\"{action}\")")),
            "{action} is not a default action of RustCharacterBody3D"
        );
        let value = input
            .property(action)
            .unwrap_or_else(|| panic!("no action {action}"));
        for key in keys {
            assert!(
                value.contains(&format!("\"physical_keycode\":{key},")),
                "{action} lacks key {key}"
            );
        }
        assert_eq!(
            value.matches("Object(InputEventKey,").count(),
            keys.len(),
            "{action}"
        );
        assert_eq!(
            value.matches("Object(InputEventJoypad").count(),
            1,
            "{action} has one gamepad event"
        );
        assert!(
            value.contains(pad),
            "{action} lacks the gamepad event {pad}"
        );
    }
}

#[test]
fn every_scene_is_consistent() {
    let classes = classes();
    let context = Context {
        classes: &classes,
        read: &read_res,
    };
    let scenes = files_with_extension(&project(), "tscn");
    let names: Vec<String> = scenes
        .iter()
        .map(|p| p.strip_prefix(project()).unwrap().display().to_string())
        .collect();
    assert!(names.contains(&"course.tscn".to_string()), "{names:?}");
    assert!(
        names.contains(&"tests/stairs_test.tscn".to_string()),
        "{names:?}"
    );
    let mut problems = Vec::new();
    for (path, name) in scenes.iter().zip(&names) {
        problems.extend(check_scene(name, &read(path), &context));
    }
    assert!(problems.is_empty(), "\n{}", problems.join("\n"));
}

#[test]
fn scripts_name_existing_files_and_their_base_classes() {
    let classes = classes();
    let scripts = files_with_extension(&project(), "gd");
    assert!(scripts.len() >= 4, "{scripts:?}");
    for path in scripts {
        let text = read(&path);
        for line in text.lines() {
            for value in strings_in(line) {
                if value.starts_with("res://") {
                    assert!(
                        res_file(&value).is_some(),
                        "{}: {value} does not exist",
                        path.display()
                    );
                }
            }
        }
        let info = script_info(&text);
        assert!(
            info.extends == "SceneTree" || classes.knows(&info.extends),
            "{}: extends {}, not in the allowlist",
            path.display(),
            info.extends
        );
    }
}

/// The variables of the headless suite that hold the extension's nodes, with their class.
const SUITE_NODES: [(&str, &str); 2] = [
    ("body", "RustCharacterBody3D"),
    ("camera", "StepSmoothCamera3D"),
];

#[test]
fn the_headless_suite_uses_only_what_the_classes_have() {
    let classes = classes();
    let text = read(&project().join("tests/run.gd"));
    let mut problems = Vec::new();
    for (variable, class) in SUITE_NODES {
        let uses = script_members::member_uses(&text, variable);
        assert!(uses.len() >= 5, "run.gd barely uses `{variable}`: {uses:?}");
        problems.extend(unknown_members(
            "tests/run.gd",
            &text,
            variable,
            class,
            &classes,
        ));
    }
    assert!(problems.is_empty(), "\n{}", problems.join("\n"));
    // Every signal and script method of the body is exercised by the suite.
    let body = &classes.by_name["RustCharacterBody3D"];
    let used: Vec<&str> = script_members::member_uses(&text, "body")
        .into_iter()
        .map(|(_, member)| member)
        .collect();
    let unused: Vec<&String> = body
        .signals
        .iter()
        .chain(&body.methods)
        .filter(|name| !name.starts_with("set_") && !used.contains(&name.as_str()))
        .collect();
    assert!(unused.is_empty(), "run.gd never uses {unused:?}");
}

#[test]
fn a_misspelt_member_in_the_suite_is_found() {
    let classes = classes();
    let script = "\tcamera.get_rest_heigth()\n\tbody.stepped.connect(f)\n\tbody.jump_velocty = 1\n";
    let mut problems = unknown_members("t.gd", script, "camera", "StepSmoothCamera3D", &classes);
    problems.extend(unknown_members(
        "t.gd",
        script,
        "body",
        "RustCharacterBody3D",
        &classes,
    ));
    assert_eq!(
        problems,
        [
            "t.gd:1: StepSmoothCamera3D has no `get_rest_heigth`",
            "t.gd:3: RustCharacterBody3D has no `jump_velocty`"
        ]
    );
}

/// The checks themselves must fail on broken scenes.
mod broken_scenes {
    use super::*;

    const SCRIPT: &str = "extends Label\n\n@export var player: CharacterBody3D\n\n\nfunc _on_player_stepped(height: float) -> void:\n\tpass\n";

    const GOOD: &str = r#"[gd_scene format=3]

[ext_resource type="Script" path="res://hud.gd" id="1_hud"]

[sub_resource type="CapsuleShape3D" id="Capsule"]
margin = 0.001

[node name="Root" type="Node3D"]

[node name="Player" type="RustCharacterBody3D" parent="."]
safe_margin = 0.001
max_step_height = 0.3

[node name="Shape" type="CollisionShape3D" parent="Player"]
shape = SubResource("Capsule")

[node name="Readout" type="Label" parent="."]
script = ExtResource("1_hud")
player = NodePath("../Player")

[connection signal="stepped" from="Player" to="Readout" method="_on_player_stepped"]
"#;

    fn problems(scene: &str) -> Vec<String> {
        let classes = classes();
        let read = |path: &str| (path == "res://hud.gd").then(|| SCRIPT.to_string());
        let context = Context {
            classes: &classes,
            read: &read,
        };
        check_scene("inline.tscn", scene, &context)
    }

    /// `scene` has problems, the first of them mentioning `needle`.
    fn one_problem(scene: &str, needle: &str) {
        let found = problems(scene);
        assert!(
            !found.is_empty(),
            "no problem found, expected one about {needle}"
        );
        assert!(found[0].contains(needle), "{found:#?}");
    }

    fn broken(from: &str, to: &str) -> String {
        assert!(GOOD.contains(from), "{from}");
        GOOD.replacen(from, to, 1)
    }

    #[test]
    fn the_good_scene_passes() {
        assert_eq!(problems(GOOD), Vec::<String>::new());
    }

    #[test]
    fn renamed_extension_signal() {
        one_problem(
            &broken("signal=\"stepped\"", "signal=\"step\""),
            "no signal `step`",
        );
    }

    #[test]
    fn builtin_signals_are_known() {
        assert!(problems(&broken("signal=\"stepped\"", "signal=\"ready\"")).is_empty());
    }

    #[test]
    fn missing_handler() {
        one_problem(
            &broken("method=\"_on_player_stepped\"", "method=\"_on_step\""),
            "no method `_on_step`",
        );
    }

    #[test]
    fn unknown_node_type() {
        one_problem(
            &broken("type=\"CollisionShape3D\"", "type=\"CollisionShape\""),
            "unknown type CollisionShape",
        );
    }

    #[test]
    fn unknown_property_of_the_extension() {
        one_problem(
            &broken("max_step_height = 0.3", "step_height = 0.3"),
            "no property `step_height`",
        );
    }

    #[test]
    fn missing_file() {
        one_problem(
            &broken("res://hud.gd", "res://gone.gd"),
            "res://gone.gd does not exist",
        );
    }

    #[test]
    fn undeclared_sub_resource() {
        one_problem(
            &broken("SubResource(\"Capsule\")", "SubResource(\"Box\")"),
            "SubResource(\"Box\")",
        );
    }

    #[test]
    fn missing_parent() {
        let found = problems(&broken("parent=\"Player\"", "parent=\"Body\""));
        assert!(
            found.iter().any(|p| p.contains("parent Body")),
            "{found:#?}"
        );
    }

    #[test]
    fn connection_from_a_missing_node() {
        one_problem(&broken("from=\"Player\"", "from=\"Hero\""), "no such node");
    }

    #[test]
    fn godot_4_6_header() {
        one_problem(&broken("format=3]", "format=3 uid=\"uid://abc\"]"), "uid");
    }

    #[test]
    fn unreadable_scene() {
        one_problem(
            &broken(
                "[node name=\"Root\" type=\"Node3D\"]",
                "[node name=\"Root\" type=\"Node3D\"",
            ),
            "not closed",
        );
    }
}

/// The literal after `#[init(val = ...)]` for each field of `RustCharacterBody3D` that has one,
/// as (field, literal): the editor help shows these literals as the defaults.
fn inspector_defaults() -> Vec<(String, String)> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("src/character.rs");
    let text = read(&path);
    let mut found = Vec::new();
    let mut pending: Option<String> = None;
    for line in text.lines().map(str::trim) {
        if let Some(rest) = line.strip_prefix("#[init(val = ") {
            pending = rest.strip_suffix(")]").map(str::to_string);
        } else if let Some(value) = pending.take_if(|_| !line.starts_with('#'))
            && let Some((field, _)) = line.split_once(':')
        {
            found.push((field.to_string(), value));
        }
    }
    found
}

#[test]
fn inspector_defaults_are_the_cores_and_read_like_godots() {
    use rust_character_body::settings::Properties;
    let core = Properties::default();
    let expected: [(&str, f64); 21] = [
        ("max_step_height", f64::from(core.max_step_height)),
        ("min_step_depth", f64::from(core.min_step_depth)),
        ("min_step_forward", f64::from(core.min_step_forward)),
        ("step_forward_test", f64::from(core.step_forward_test)),
        ("sweep_iterations", f64::from(core.sweep_iterations)),
        ("flat_base", f64::from(u8::from(core.flat_base))),
        ("step_up_enabled", f64::from(u8::from(core.step_up_enabled))),
        (
            "step_down_enabled",
            f64::from(u8::from(core.step_down_enabled)),
        ),
        ("max_speed", f64::from(core.max_speed)),
        ("attack_time", f64::from(core.attack_time)),
        ("release_time", f64::from(core.release_time)),
        ("air_max_speed", f64::from(core.air_max_speed)),
        ("air_attack_time", f64::from(core.air_attack_time)),
        ("air_release_time", f64::from(core.air_release_time)),
        (
            "constant_horizontal_speed",
            f64::from(u8::from(core.constant_horizontal_speed)),
        ),
        ("custom_gravity", f64::from(core.custom_gravity)),
        ("terminal_speed", f64::from(core.terminal_speed)),
        ("jump_velocity", f64::from(core.jump_velocity)),
        ("coyote_time", f64::from(core.coyote_time)),
        ("jump_buffer_time", f64::from(core.jump_buffer_time)),
        ("jump_release_cut", f64::from(core.jump_release_cut)),
    ];
    let defaults = inspector_defaults();
    for (field, value) in expected {
        let literal = defaults
            .iter()
            .find(|(name, _)| name == field)
            .map(|(_, literal)| literal.as_str())
            .unwrap_or_else(|| panic!("{field} has no #[init(val = ...)]"));
        // A literal the help can show as it is (0.4, 3, true), not an expression.
        let shown = match literal {
            "true" => 1.0,
            "false" => 0.0,
            number => number
                .parse::<f64>()
                .unwrap_or_else(|_| panic!("{field}: `{literal}` is not a literal")),
        };
        assert!(
            (shown - value).abs() < 1e-6,
            "{field}: the inspector shows {literal}, the core's default is {value}"
        );
    }
    // Float properties are typed `float` and integer ones `int`, as Godot names them.
    let text = read(&Path::new(env!("CARGO_MANIFEST_DIR")).join("src/character.rs"));
    for (field, _) in expected {
        let declared = ["float", "int", "bool"]
            .iter()
            .any(|ty| text.contains(&format!("    {field}: {ty},")));
        assert!(declared, "{field} is not declared as float, int or bool");
    }
}

#[test]
fn camera_decay_default_is_its_smoothers() {
    let text = read(&Path::new(env!("CARGO_MANIFEST_DIR")).join("src/camera.rs"));
    let constant = text
        .lines()
        .find_map(|l| l.trim().strip_prefix("const DEFAULT_DECAY: f32 = "))
        .and_then(|v| v.strip_suffix(';'))
        .expect("DEFAULT_DECAY");
    let lines: Vec<&str> = text.lines().map(str::trim).collect();
    let at = lines
        .iter()
        .position(|l| *l == "decay: float,")
        .expect("decay: float");
    assert_eq!(lines[at - 1], format!("#[init(val = {constant})]"));
}
