//! The web demo's site: the sample course (`godot_project/course.tscn`, the same file) with a
//! character moved by the controller core compiled to wasm (`rust/kcc-wasm`), in Godot's web
//! template. The demo's own files are in `web_demo/`; the course, its scripts and the project
//! settings (input map, Jolt, 60 ticks) come from `godot_project/`, and the port's answers from
//! the Godot world's oracle (`godot_oracle/port.gd`, the GDScript twin of
//! `rust/godot/src/body.rs`).

use crate::engine::Engine;
use crate::pck::{self, PackFile};

/// The demo's files, path inside the pack and contents, as they are in the repository.
pub const FILES: [(&str, &str); 8] = [
    ("demo.tscn", include_str!("../../../web_demo/demo.tscn")),
    ("demo.gd", include_str!("../../../web_demo/demo.gd")),
    ("player.gd", include_str!("../../../web_demo/player.gd")),
    ("kcc_core.gd", include_str!("../../../web_demo/kcc_core.gd")),
    (
        "step_camera.gd",
        include_str!("../../../web_demo/step_camera.gd"),
    ),
    ("hud.gd", include_str!("../../../web_demo/hud.gd")),
    ("port.gd", include_str!("../../../godot_oracle/port.gd")),
    (
        "course/spiral_stairs.gd",
        include_str!("../../../godot_project/course/spiral_stairs.gd"),
    ),
];

/// Mouse look, the sample course's own script.
const LOOK: (&str, &str) = (
    "course/player_look.gd",
    include_str!("../../../godot_project/course/player_look.gd"),
);

/// The page: loads the wasm core, then Godot on `demo.pck`.
pub const PAGE: &str = include_str!("../../../web_demo/index.html");

/// The sample course as the addon's users see it.
const COURSE: &str = include_str!("../../../godot_project/course.tscn");

/// The sample project's settings.
const PROJECT: &str = include_str!("../../../godot_project/project.godot");

/// The sample project's settings with the demo as its main scene.
pub fn project() -> String {
    PROJECT
        .replace(
            "run/main_scene=\"res://course.tscn\"",
            "run/main_scene=\"res://demo.tscn\"",
        )
        .replace(
            "config/name=\"RustCharacterBody3D course\"",
            "config/name=\"RustCharacterBody3D web demo\"",
        )
}

/// `course.tscn` without the nodes only the addon provides (the `Player`, a
/// RustCharacterBody3D with its StepSmoothCamera3D) and the HUD that watches it: every node
/// named in `drop` goes with its children, with the signal connections that touch them and the
/// external resources nothing else uses. The geometry is untouched.
pub fn strip_nodes(scene: &str, drop: &[&str]) -> String {
    let sections = split_sections(scene);
    let dropped = |header: &str| {
        let name = attribute(header, "name");
        let parent = attribute(header, "parent");
        let path = match parent.as_deref() {
            Some(".") => name.clone(),
            Some(parent) => name.as_ref().map(|n| format!("{parent}/{n}")),
            None => None,
        };
        path.is_some_and(|p| {
            drop.iter()
                .any(|d| p == *d || p.starts_with(&format!("{d}/")))
        })
    };
    let connection_dropped = |header: &str| {
        ["from", "to"].iter().any(|key| {
            attribute(header, key).is_some_and(|node| {
                drop.iter()
                    .any(|d| node == *d || node.starts_with(&format!("{d}/")))
            })
        })
    };
    let kept: Vec<&str> = sections
        .iter()
        .copied()
        .filter(|section| {
            let header = section.lines().next().unwrap_or("");
            if header.starts_with("[node ") {
                !dropped(header)
            } else if header.starts_with("[connection ") {
                !connection_dropped(header)
            } else {
                true
            }
        })
        .collect();
    // External resources that only the dropped nodes used.
    let body: String = kept
        .iter()
        .filter(|s| !s.starts_with("[ext_resource "))
        .copied()
        .collect();
    kept.iter()
        .filter(|section| {
            !section.starts_with("[ext_resource ")
                || attribute(section, "id")
                    .is_some_and(|id| body.contains(&format!("ExtResource(\"{id}\")")))
        })
        .copied()
        .collect()
}

/// The sections of a text scene, each from its `[` header line up to the next one.
fn split_sections(scene: &str) -> Vec<&str> {
    let mut starts: Vec<usize> = scene
        .match_indices('\n')
        .map(|(at, _)| at + 1)
        .filter(|&at| scene[at..].starts_with('['))
        .collect();
    starts.insert(0, 0);
    starts.push(scene.len());
    starts.dedup();
    starts.windows(2).map(|w| &scene[w[0]..w[1]]).collect()
}

/// The value of `key="value"` in a section's header line.
fn attribute(section: &str, key: &str) -> Option<String> {
    let header = section.lines().next()?;
    let start = header.find(&format!(" {key}=\""))? + key.len() + 3;
    let end = header[start..].find('"')? + start;
    Some(header[start..end].to_string())
}

/// The sample course for the web: without the addon's player and its HUD.
pub fn course() -> String {
    strip_nodes(COURSE, &["Player", "Hud"])
}

/// An empty global class cache: without it Godot prints a harmless error at start-up.
const CLASS_CACHE: (&str, &str) = (
    ".godot/global_script_class_cache.cfg",
    "list=Array[Dictionary]([])\n",
);

/// The demo as a pack that Godot 4.4 and later load.
pub fn pack() -> Vec<u8> {
    let project = project();
    let course = course();
    let generated = [
        ("project.godot", project.as_str()),
        ("course.tscn", course.as_str()),
    ];
    let files: Vec<PackFile<'_>> = generated
        .iter()
        .chain(FILES.iter())
        .chain([&LOOK, &CLASS_CACHE])
        .map(|(path, text)| PackFile {
            path,
            data: text.as_bytes(),
        })
        .collect();
    pck::write(&files, (4, 4))
}

/// One file of the site: its name (a path under the site's root) and bytes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SiteFile {
    /// File name, no leading `/`.
    pub name: String,
    /// `Content-Type` to serve it with.
    pub content_type: &'static str,
    /// Contents.
    pub data: Vec<u8>,
}

/// Every file of the demo's site: the page, the engine's files, the pack and `core` (the wasm
/// build of `rust/kcc-wasm`). Static files: any web server can serve them.
pub fn site(engine: &Engine, core: Vec<u8>) -> Vec<SiteFile> {
    let mut files = vec![
        SiteFile {
            name: "index.html".into(),
            content_type: "text/html; charset=utf-8",
            data: PAGE.as_bytes().to_vec(),
        },
        SiteFile {
            name: "demo.pck".into(),
            content_type: "application/octet-stream",
            data: pack(),
        },
        SiteFile {
            name: "kcc_core.wasm".into(),
            content_type: "application/wasm",
            data: core,
        },
    ];
    files.extend(engine.files.iter().map(|file| SiteFile {
        name: file.name.to_string(),
        content_type: if file.name.ends_with(".wasm") {
            "application/wasm"
        } else {
            "text/javascript"
        },
        data: file.data.clone(),
    }));
    files
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_course_loses_the_addons_nodes_and_keeps_its_geometry() {
        let course = course();
        for gone in [
            "RustCharacterBody3D",
            "StepSmoothCamera3D",
            "player_look.gd",
            "hud.gd",
        ] {
            assert!(!course.contains(gone), "{gone} is still in the course");
        }
        assert!(!course.contains("[connection"));
        let nodes = |scene: &str| scene.matches("\n[node ").count();
        // Player, its shape, yaw pivot and camera; the HUD and its label.
        assert_eq!(nodes(COURSE) - nodes(&course), 6);
        for kept in [
            "Stairs30cm",
            "Ramp60",
            "SpiralStairs",
            "spiral_stairs.gd",
            "SlideWall",
        ] {
            assert!(course.contains(kept), "{kept} went missing");
        }
        // Every section but the dropped ones is there, byte for byte.
        let stairs = COURSE.find("[node name=\"Stairs30cm\"").unwrap();
        let ramp = COURSE.find("[node name=\"Ramp30\"").unwrap();
        assert!(course.contains(&COURSE[stairs..ramp]));
    }

    #[test]
    fn every_external_resource_left_is_used_and_every_use_is_declared() {
        let course = course();
        for section in split_sections(&course) {
            if section.starts_with("[ext_resource ") {
                let id = attribute(section, "id").unwrap();
                assert!(
                    course.contains(&format!("ExtResource(\"{id}\")")),
                    "{id} unused"
                );
            }
        }
        for (at, _) in course.match_indices("ExtResource(\"") {
            let id = &course[at + 13..];
            let id = &id[..id.find('"').unwrap()];
            assert!(course.contains(&format!("id=\"{id}\"]")), "{id} undeclared");
        }
    }

    #[test]
    fn the_project_runs_the_demo_with_the_courses_settings() {
        let project = project();
        assert!(project.contains("run/main_scene=\"res://demo.tscn\""));
        assert!(project.contains("3d/physics_engine=\"Jolt Physics\""));
        assert!(project.contains("move_forward="));
        assert!(!project.contains("res://course.tscn\""));
    }

    #[test]
    fn the_pack_holds_every_file_the_demo_loads() {
        let pack = pack();
        assert_eq!(&pack[..4], pck::MAGIC);
        let text = String::from_utf8_lossy(&pack);
        let mut wanted = vec!["project.godot", "course.tscn", "course/player_look.gd"];
        wanted.extend(FILES.iter().map(|(path, _)| *path));
        for path in wanted {
            assert!(text.contains(path), "{path} is not in the pack");
        }
        // Every res:// path the demo's scenes and scripts name is packed.
        let packed: Vec<&str> = FILES.iter().map(|(p, _)| *p).collect();
        for (_, text) in FILES.iter().chain([&LOOK]) {
            for (at, _) in text.match_indices("\"res://") {
                let path = &text[at + 7..];
                let path = &path[..path.find('"').unwrap()];
                assert!(
                    packed.contains(&path)
                        || ["course.tscn", "course/player_look.gd"].contains(&path),
                    "res://{path} is not packed"
                );
            }
        }
    }

    #[test]
    fn every_file_of_the_demo_folder_is_packed_or_served() {
        let on_disk = crate::oracle::repository_folder("web_demo");
        let mut known: Vec<String> = FILES
            .iter()
            .map(|(p, _)| p.to_string())
            .filter(|p| !p.contains('/') && p != "port.gd")
            .collect();
        known.push("index.html".into());
        known.sort();
        assert_eq!(on_disk, known);
    }
}
