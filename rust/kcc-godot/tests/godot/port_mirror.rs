//! The oracle's port (`godot_oracle/port.gd`) and the addon's port (`rust/godot/src/body.rs`)
//! make the same engine calls, in the same order, for every method of `kcc::KinematicBody`:
//! what is measured in the Godot world is what the addon does in a game.
//!
//! Both files are read as text. Engine calls are the calls on the body (Rust: `base()` /
//! `base_mut()`; GDScript: `body.`), on the `KinematicCollision3D` result, on a touched
//! `RigidBody3D` (`rigid.`), on `Engine` and `PhysicsServer3D`, and the construction of the
//! result; helpers of the same file are followed where they are called. A call with defaults
//! (gdext's `_ex` form) counts as the call.

use std::path::Path;

use regex::Regex;

/// Each port method and the engine calls it must make, in order.
const TABLE: [(&str, &[&str]); 22] = [
    ("position", &["get_global_position"]),
    ("set_position", &["set_global_position"]),
    (
        "test_move",
        &[
            "get_global_transform",
            "get_safe_margin",
            "KinematicCollision3D.new",
            "test_move",
            "get_normal",
            "get_position",
            "get_depth",
            "get_collider",
            "is_freeze_enabled",
            "get_travel",
            "get_remainder",
        ],
    ),
    (
        "move_and_slide",
        &[
            "is_in_physics_frame",
            "get_physics_process_delta_time",
            "get_process_delta_time",
            "get_platform_velocity",
            "set_velocity",
            "move_and_slide",
            "get_velocity",
        ],
    ),
    (
        "slide_collision",
        &[
            "get_platform_velocity",
            "get_slide_collision_count",
            "get_slide_collision",
            "get_travel",
            "get_remainder",
            "get_normal",
            "get_position",
            "get_depth",
            "get_collider",
            "is_freeze_enabled",
        ],
    ),
    ("slide_collision_count", &["get_slide_collision_count"]),
    (
        "touched_body",
        &[
            "get_slide_collision_count",
            "get_slide_collision",
            "get_collider",
            "is_freeze_enabled",
            "get_rid",
            "get_normal",
            "get_position",
            "get_mass",
            "body_get_state",
        ],
    ),
    (
        "touched_character",
        &[
            "get_slide_collision_count",
            "get_slide_collision",
            "get_collider",
        ],
    ),
    (
        "push_body",
        &[
            "get_slide_collision_count",
            "get_slide_collision",
            "get_collider",
            "is_freeze_enabled",
            "apply_central_impulse",
        ],
    ),
    (
        "floor_body",
        &[
            "get_safe_margin",
            "get_global_transform",
            "get_up_direction",
            "KinematicCollision3D.new",
            "test_move",
            "get_collider",
            "is_freeze_enabled",
            "get_rid",
            "get_normal",
            "get_position",
            "get_mass",
            "body_get_state",
        ],
    ),
    (
        "press_floor_body",
        &["get_global_position", "apply_impulse"],
    ),
    ("is_on_floor", &["is_on_floor"]),
    ("is_on_wall", &["is_on_wall"]),
    ("wall_normal", &["get_wall_normal"]),
    ("floor_normal", &["get_floor_normal"]),
    ("apply_floor_snap", &["apply_floor_snap"]),
    ("up_direction", &["get_up_direction"]),
    ("floor_max_angle", &["get_floor_max_angle"]),
    ("safe_margin", &["get_safe_margin"]),
    ("shape_height", &["get_children"]),
    ("shape_radius", &["get_children"]),
    ("set_shape_height", &["get_children"]),
];

fn read(relative: &str) -> String {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../..")
        .join(relative);
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// The body of Rust function `name` (from its `{` to the matching `}`) in `text`.
fn rust_fn<'a>(text: &'a str, name: &str) -> &'a str {
    let start = text
        .find(&format!("fn {name}("))
        .unwrap_or_else(|| panic!("body.rs has no fn {name}"));
    let open = start + text[start..].find('{').unwrap();
    let mut depth = 0;
    for (i, c) in text[open..].char_indices() {
        match c {
            '{' => depth += 1,
            '}' => {
                depth -= 1;
                if depth == 0 {
                    return &text[open..=open + i];
                }
            }
            _ => {}
        }
    }
    panic!("fn {name} does not end")
}

/// The body of GDScript function `name`: its indented lines.
fn gd_fn(text: &str, name: &str) -> String {
    let mut lines = text.lines().skip_while(|l| {
        !(l.starts_with(&format!("func {name}(")) || l.starts_with(&format!("static func {name}(")))
    });
    lines
        .next()
        .unwrap_or_else(|| panic!("port.gd has no func {name}"));
    lines
        .take_while(|l| l.is_empty() || l.starts_with(char::is_whitespace))
        .collect::<Vec<_>>()
        .join("\n")
}

/// The engine calls of a function body, in order, following `helper` calls.
fn calls(body: &str, pattern: &Regex, helper: &dyn Fn(&str) -> Option<String>) -> Vec<String> {
    let mut found = Vec::new();
    for capture in pattern.captures_iter(body) {
        if let Some(name) = capture.name("helper").or_else(|| capture.name("free")) {
            let inner = helper(name.as_str()).expect("a known helper");
            found.extend(calls(&inner, pattern, helper));
        } else if capture.name("new").is_some() {
            found.push("KinematicCollision3D.new".to_string());
        } else {
            let name = capture.name("call").unwrap().as_str();
            found.push(name.strip_suffix("_ex").unwrap_or(name).to_string());
        }
    }
    found
}

#[test]
fn the_oracle_and_the_addon_make_the_same_engine_calls() {
    let rust = read("rust/godot/src/body.rs");
    let gd = read("godot_oracle/port.gd");
    let port_impl = &rust[rust
        .find("impl<T> KinematicBody for GodotBody")
        .expect("body.rs implements the port")..];
    let rust_pattern = Regex::new(
        r"(?:base(?:_mut)?\(\)\s*\.\s*|\bcollision\s*\.\s*|\brigid\s*\.\s*|(?:Engine|PhysicsServer3D)::singleton\(\)\s*\.\s*)(?P<call>\w+)\s*\(|(?P<new>KinematicCollision3D::new_gd)\(|self\.(?P<helper>engine_delta|collision_shape|result_object|collision_at)\((?:index)?\)|\b(?P<free>movable|touched_of)\(&collision(?:, &rigid)?\)",
    )
    .unwrap();
    let gd_pattern = Regex::new(
        r"(?:\bbody\.|\bcollision\.|\brigid\.|\bEngine\.|\bPhysicsServer3D\.)(?P<call>\w+)\(|(?P<new>KinematicCollision3D\.new)\(|(?P<helper>_engine_delta|_collision_shape|_result_object|_collision_at|_movable|_touched_of)\((?:index|collision|collision, rigid)?\)",
    )
    .unwrap();
    let rust_helper = |name: &str| Some(rust_fn(&rust, name).to_string());
    let gd_helper = |name: &str| Some(gd_fn(&gd, name));

    let mut mismatches = Vec::new();
    for (method, expected) in TABLE {
        let from_rust = calls(rust_fn(port_impl, method), &rust_pattern, &rust_helper);
        let from_gd = calls(&gd_fn(&gd, method), &gd_pattern, &gd_helper);
        for (file, got) in [
            ("rust/godot/src/body.rs", &from_rust),
            ("godot_oracle/port.gd", &from_gd),
        ] {
            if got != expected {
                mismatches.push(format!("{file} {method}: {got:?}, expected {expected:?}"));
            }
        }
    }
    assert!(mismatches.is_empty(), "{mismatches:#?}");
}

#[test]
fn both_ports_pass_the_bodys_own_safe_margin_to_test_move() {
    let rust = read("rust/godot/src/body.rs");
    let gd = read("godot_oracle/port.gd");
    let rust_test_move = rust_fn(
        &rust[rust.find("impl<T> KinematicBody").unwrap()..],
        "test_move",
    );
    assert!(rust_test_move.contains(".collision(&collision)"));
    assert!(rust_test_move.contains(".safe_margin(margin)"));
    assert!(gd_fn(&gd, "test_move").contains("body.test_move(start, motion, collision, margin)"));
}

#[test]
fn every_port_method_is_in_the_table() {
    // The port trait's methods, read from the core: a new one needs a row (and both ports).
    let trait_text = read("rust/kcc/src/body.rs");
    let methods: Vec<String> = Regex::new(r"(?m)^\s+fn (\w+)\(")
        .unwrap()
        .captures_iter(&trait_text)
        .map(|c| c[1].to_string())
        .filter(|name| name != "collided")
        .collect();
    let table: Vec<&str> = TABLE.iter().map(|(m, _)| *m).collect();
    assert_eq!(methods, table);
}
