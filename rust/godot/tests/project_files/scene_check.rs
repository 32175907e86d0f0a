//! Consistency checks of one `.tscn` scene against the known classes and the project's files.
//!
//! Every check returns the problems it found as sentences, so a test can assert that the real
//! scenes have none and that small broken scenes have the expected one.

use std::collections::{BTreeMap, BTreeSet};

use crate::classes::{BUILTIN_RESOURCES, Classes};
use crate::godot_text::{Section, call, parse, references, string_literal, strings_in};

/// What the checks may look at besides the scene itself.
pub struct Context<'a> {
    /// The known classes.
    pub classes: &'a Classes,
    /// Reads a `res://` file; `None` when it does not exist.
    pub read: &'a dyn Fn(&str) -> Option<String>,
}

/// What a GDScript file declares, as far as scenes care.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct ScriptInfo {
    /// The class after `extends`.
    pub extends: String,
    /// `signal` names.
    pub signals: BTreeSet<String>,
    /// `func` names.
    pub functions: BTreeSet<String>,
    /// Top-level `var` names (exported or not).
    pub variables: BTreeSet<String>,
}

/// Reads the declarations of a GDScript file (top level only, line by line).
pub fn script_info(text: &str) -> ScriptInfo {
    let mut info = ScriptInfo::default();
    for line in text.lines() {
        if line.starts_with([' ', '\t']) {
            continue;
        }
        // Annotations may come first: `@export_range(0.0, 1.0) var speed := 0.5`.
        let tokens: Vec<&str> = line.split_whitespace().collect();
        let start = if line.starts_with('@') {
            match tokens
                .iter()
                .position(|t| ["var", "func", "signal"].contains(t))
            {
                Some(start) => start,
                None => continue,
            }
        } else {
            0
        };
        let mut words = tokens[start..].iter().copied();
        let keyword = words.next().unwrap_or_default();
        let keyword = if keyword == "static" {
            words.next().unwrap_or_default()
        } else {
            keyword
        };
        let name: String = words
            .next()
            .unwrap_or_default()
            .chars()
            .take_while(|c| c.is_alphanumeric() || *c == '_')
            .collect();
        match keyword {
            "extends" => info.extends = name,
            "signal" => {
                info.signals.insert(name);
            }
            "func" => {
                info.functions.insert(name);
            }
            "var" => {
                info.variables.insert(name);
            }
            _ => {}
        }
    }
    info
}

/// A node of the scene as the checks see it.
struct Node {
    class: String,
    script: Option<ScriptInfo>,
}

/// Every problem of the scene `text` (named `name` in the messages).
pub fn check_scene(name: &str, text: &str, context: &Context) -> Vec<String> {
    let doc = match parse(text) {
        Ok(doc) => doc,
        Err(error) => return vec![format!("{name}: {error}")],
    };
    let mut problems = Vec::new();
    let mut problem =
        |line: usize, message: String| problems.push(format!("{name}:{line}: {message}"));

    // Header: format 3 and nothing a Godot 4.4 reader would not understand.
    match doc.sections.first() {
        Some(header) if header.tag == "gd_scene" => {
            if header.attribute("format") != Some("3") {
                problem(header.line, "the scene must be [gd_scene format=3]".into());
            }
            for key in ["uid", "load_steps"] {
                if header.attribute(key).is_some() {
                    problem(
                        header.line,
                        format!("drop `{key}` from the header (Godot 4.4 compatibility)"),
                    );
                }
            }
        }
        _ => problem(1, "the file must start with [gd_scene format=3]".into()),
    }

    // Resources: known types, unique ids, files that exist.
    let mut external: BTreeMap<String, (String, String)> = BTreeMap::new();
    let mut internal: BTreeSet<String> = BTreeSet::new();
    for section in &doc.sections {
        match section.tag.as_str() {
            "ext_resource" => {
                let (Some(kind), Some(path), Some(id)) = (
                    section.attribute_string("type"),
                    section.attribute_string("path"),
                    section.attribute_string("id"),
                ) else {
                    problem(section.line, "ext_resource needs type, path and id".into());
                    continue;
                };
                if !BUILTIN_RESOURCES.contains(&kind.as_str()) {
                    problem(section.line, format!("unknown resource type {kind}"));
                }
                if (context.read)(&path).is_none() {
                    problem(section.line, format!("{path} does not exist"));
                }
                if external.insert(id.clone(), (kind, path)).is_some() {
                    problem(section.line, format!("ext_resource id {id} is used twice"));
                }
            }
            "sub_resource" => {
                let (Some(kind), Some(id)) = (
                    section.attribute_string("type"),
                    section.attribute_string("id"),
                ) else {
                    problem(section.line, "sub_resource needs type and id".into());
                    continue;
                };
                if !BUILTIN_RESOURCES.contains(&kind.as_str()) {
                    problem(section.line, format!("unknown resource type {kind}"));
                }
                check_references(section, &external, &internal, &mut problem);
                if !internal.insert(id.clone()) {
                    problem(section.line, format!("sub_resource id {id} is used twice"));
                }
            }
            "gd_scene" | "node" | "connection" | "editable" => {}
            other => problem(section.line, format!("unexpected section [{other}]")),
        }
    }

    // Nodes: known classes, parents that exist, properties the class or script has.
    let mut nodes: BTreeMap<String, Node> = BTreeMap::new();
    for section in doc.sections("node") {
        let Some(node_name) = section.attribute_string("name") else {
            problem(section.line, "node without a name".into());
            continue;
        };
        let path = match section.attribute_string("parent") {
            None if nodes.is_empty() => ".".to_string(),
            None => {
                problem(section.line, format!("node {node_name} needs a parent"));
                continue;
            }
            Some(parent) if nodes.is_empty() => {
                problem(
                    section.line,
                    format!("the root node has a parent ({parent})"),
                );
                continue;
            }
            Some(parent) if !nodes.contains_key(&parent) => {
                problem(
                    section.line,
                    format!("parent {parent} of {node_name} is not an earlier node"),
                );
                continue;
            }
            Some(parent) if parent == "." => node_name.clone(),
            Some(parent) => format!("{parent}/{node_name}"),
        };
        let class = match (
            section.attribute_string("type"),
            section.attribute("instance"),
        ) {
            (Some(class), None) => {
                if !context.classes.knows(&class) {
                    problem(
                        section.line,
                        format!("node {path} has unknown type {class}"),
                    );
                }
                class
            }
            (None, Some(instance)) => match instanced_root_class(instance, &external, context) {
                Ok(class) => class,
                Err(message) => {
                    problem(section.line, format!("node {path}: {message}"));
                    continue;
                }
            },
            _ => {
                problem(
                    section.line,
                    format!("node {path} needs exactly one of type or instance"),
                );
                continue;
            }
        };
        if section.attribute("unique_id").is_some() {
            problem(
                section.line,
                "drop `unique_id` (Godot 4.4 compatibility)".into(),
            );
        }
        check_references(section, &external, &internal, &mut problem);
        let script = match section.property("script") {
            None => None,
            Some(value) => match script_of(value, &external, context) {
                Ok(info) => {
                    if !info.extends.is_empty() && !context.classes.inherits(&class, &info.extends)
                    {
                        problem(
                            section.line,
                            format!(
                                "the script of {path} extends {}, but the node is a {class}",
                                info.extends
                            ),
                        );
                    }
                    Some(info)
                }
                Err(message) => {
                    problem(section.line, format!("node {path}: {message}"));
                    None
                }
            },
        };
        let class_known = context.classes.knows(&class);
        for (key, _) in section.properties.iter().filter(|_| class_known) {
            let known = context.classes.has_property(&class, key)
                || script.as_ref().is_some_and(|s| s.variables.contains(key))
                || key.starts_with("metadata/");
            if !known {
                problem(
                    section.line,
                    format!("{class} {path} has no property `{key}`"),
                );
            }
        }
        if nodes.insert(path.clone(), Node { class, script }).is_some() {
            problem(section.line, format!("two nodes at {path}"));
        }
    }

    // Connections: nodes that exist, signals their sources emit, methods their targets have.
    for section in doc.sections("connection") {
        let (Some(signal), Some(from), Some(to), Some(method)) = (
            section.attribute_string("signal"),
            section.attribute_string("from"),
            section.attribute_string("to"),
            section.attribute_string("method"),
        ) else {
            problem(
                section.line,
                "a connection needs signal, from, to and method".into(),
            );
            continue;
        };
        match nodes.get(&from) {
            None => problem(
                section.line,
                format!("connection from {from}: no such node"),
            ),
            Some(source) => {
                let declared = context.classes.has_signal(&source.class, &signal)
                    || source
                        .script
                        .as_ref()
                        .is_some_and(|s| s.signals.contains(&signal));
                if !declared {
                    problem(
                        section.line,
                        format!("{} {from} has no signal `{signal}`", source.class),
                    );
                }
            }
        }
        match nodes.get(&to) {
            None => problem(section.line, format!("connection to {to}: no such node")),
            Some(target) => {
                let declared = context.classes.has_method(&target.class, &method)
                    || target
                        .script
                        .as_ref()
                        .is_some_and(|s| s.functions.contains(&method));
                if !declared {
                    problem(
                        section.line,
                        format!("{} {to} has no method `{method}`", target.class),
                    );
                }
            }
        }
    }

    // Any res:// path mentioned anywhere must exist.
    for section in &doc.sections {
        let values = section.attributes.iter().chain(&section.properties);
        for (_, value) in values {
            for text in strings_in(value) {
                if text.starts_with("res://") && (context.read)(&text).is_none() {
                    problem(section.line, format!("{text} does not exist"));
                }
            }
        }
    }
    problems.dedup();
    problems
}

/// Problems with `ExtResource("id")` / `SubResource("id")` references of a section.
fn check_references(
    section: &Section,
    external: &BTreeMap<String, (String, String)>,
    internal: &BTreeSet<String>,
    problem: &mut impl FnMut(usize, String),
) {
    let values = section.attributes.iter().chain(&section.properties);
    for (key, value) in values {
        if key == "instance" {
            continue;
        }
        for id in references(value, "ExtResource") {
            if !external.contains_key(&id) {
                problem(
                    section.line,
                    format!("`{key}` uses ExtResource(\"{id}\"), which is not declared"),
                );
            }
        }
        for id in references(value, "SubResource") {
            if !internal.contains(&id) {
                problem(
                    section.line,
                    format!("`{key}` uses SubResource(\"{id}\"), which is not declared before it"),
                );
            }
        }
    }
}

/// The script a `script = ExtResource("id")` value names.
fn script_of(
    value: &str,
    external: &BTreeMap<String, (String, String)>,
    context: &Context,
) -> Result<ScriptInfo, String> {
    let ids = references(value, "ExtResource");
    let [id] = ids.as_slice() else {
        return Err(format!("script = {value} is not one ExtResource"));
    };
    let Some((kind, path)) = external.get(id) else {
        return Err(format!("script uses undeclared ExtResource(\"{id}\")"));
    };
    if kind != "Script" {
        return Err(format!("script is a {kind}, not a Script"));
    }
    let text = (context.read)(path).ok_or_else(|| format!("{path} does not exist"))?;
    Ok(script_info(&text))
}

/// The root class of the scene an `instance=ExtResource("id")` attribute names.
fn instanced_root_class(
    value: &str,
    external: &BTreeMap<String, (String, String)>,
    context: &Context,
) -> Result<String, String> {
    let (_, args) =
        call(value).ok_or_else(|| format!("instance={value} is not ExtResource(...)"))?;
    let id = args
        .first()
        .and_then(|arg| string_literal(arg))
        .ok_or_else(|| format!("instance={value} has no id"))?;
    let (kind, path) = external
        .get(&id)
        .ok_or_else(|| format!("instance uses undeclared ExtResource(\"{id}\")"))?;
    if kind != "PackedScene" {
        return Err(format!("instance is a {kind}, not a PackedScene"));
    }
    let text = (context.read)(path).ok_or_else(|| format!("{path} does not exist"))?;
    let doc = parse(&text).map_err(|e| format!("{path}: {e}"))?;
    doc.section("node")
        .and_then(|root| root.attribute_string("type"))
        .ok_or_else(|| format!("{path} has no typed root node"))
}
