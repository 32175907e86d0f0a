//! What a GDScript file reaches on the extension's nodes: every `name.member` where `name` is
//! a variable holding one of the classes (the headless suite's `body` and `camera`), checked
//! against the members the Rust source registers and the few engine members the script uses.
//!
//! The suite cannot run without Godot, so a misspelt method (`camera.get_rest_heigth()`) would
//! otherwise wait for the day it does.

use crate::classes::Classes;

/// Members of Godot's own classes that the scripts use on the extension's nodes, by the class
/// that declares them (the allowlist of `classes.rs` holds only what scenes set).
const ENGINE_MEMBERS: &[(&str, &[&str])] = &[
    ("Object", &["get", "set_script"]),
    ("Node", &["add_child", "get_node", "get_process_delta_time"]),
    (
        "Node3D",
        &[
            "position",
            "rotation",
            "global_position",
            "global_transform",
        ],
    ),
    (
        "CharacterBody3D",
        &["velocity", "is_on_floor", "move_and_slide", "motion_mode"],
    ),
];

/// Each `variable.member` of `text` with its line (1-based): `variable` as a whole word, the
/// member an identifier right after the dot.
pub fn member_uses<'a>(text: &'a str, variable: &str) -> Vec<(usize, &'a str)> {
    let is_word = |c: char| c.is_alphanumeric() || c == '_';
    let needle = format!("{variable}.");
    let mut uses = Vec::new();
    for (index, line) in text.lines().enumerate() {
        for (at, _) in line.match_indices(&needle) {
            if line[..at].chars().next_back().is_some_and(is_word) {
                continue;
            }
            let rest = &line[at + needle.len()..];
            let end = rest.find(|c: char| !is_word(c)).unwrap_or(rest.len());
            if end > 0 {
                uses.push((index + 1, &rest[..end]));
            }
        }
    }
    uses
}

/// The uses of `variable.member` in `text` (a script named `name`) that `class` does not
/// have: no registered method, property or signal of it or its ancestors, and no engine
/// member of [`ENGINE_MEMBERS`] for it.
pub fn unknown_members(
    name: &str,
    text: &str,
    variable: &str,
    class: &str,
    classes: &Classes,
) -> Vec<String> {
    let engine = |member: &str| {
        ENGINE_MEMBERS
            .iter()
            .any(|(owner, members)| classes.inherits(class, owner) && members.contains(&member))
    };
    member_uses(text, variable)
        .into_iter()
        .filter(|(_, member)| {
            !(classes.has_method(class, member)
                || classes.has_property(class, member)
                || classes.has_signal(class, member)
                || engine(member))
        })
        .map(|(line, member)| format!("{name}:{line}: {class} has no `{member}`"))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_members_of_the_variable_only() {
        let text = "var body = x\n\tbody.tick(TICK)  # the body.\n\tsomebody.foo = 1\n\
                    \tif body.is_on_floor() and body.velocity.y > 0:\n";
        assert_eq!(
            member_uses(text, "body"),
            [(2, "tick"), (4, "is_on_floor"), (4, "velocity")]
        );
    }
}
