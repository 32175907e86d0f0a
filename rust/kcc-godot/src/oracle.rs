//! The oracle project (`godot_oracle/` in the repository), compiled into this crate and packed
//! into a `.pck` for the web template.

use crate::pck::{self, PackFile};

/// Which of Godot's 3D physics engines the oracle's project runs (its project setting
/// `physics/3d/physics_engine`). The web template has both compiled in.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum PhysicsEngine {
    /// Jolt Physics, Godot 4.4's module and 4.6's default for new projects.
    #[default]
    Jolt,
    /// Godot Physics (`GodotPhysics3D`), the default of new projects before 4.6.
    GodotPhysics,
}

impl PhysicsEngine {
    /// The value of the project setting `physics/3d/physics_engine` that selects it.
    pub fn setting(self) -> &'static str {
        match self {
            Self::Jolt => "Jolt Physics",
            Self::GodotPhysics => "GodotPhysics3D",
        }
    }
}

/// The line of the oracle's `project.godot` that picks the physics engine.
const ENGINE_LINE: &str = "3d/physics_engine=\"Jolt Physics\"";

/// The oracle's files: path inside the project and contents.
pub const FILES: [(&str, &str); 5] = [
    (
        "project.godot",
        include_str!("../../../godot_oracle/project.godot"),
    ),
    (
        "oracle.tscn",
        include_str!("../../../godot_oracle/oracle.tscn"),
    ),
    ("oracle.gd", include_str!("../../../godot_oracle/oracle.gd")),
    ("port.gd", include_str!("../../../godot_oracle/port.gd")),
    ("scene.gd", include_str!("../../../godot_oracle/scene.gd")),
];

/// An empty global class cache: without it Godot prints a harmless error at start-up.
const CLASS_CACHE: (&str, &str) = (
    ".godot/global_script_class_cache.cfg",
    "list=Array[Dictionary]([])\n",
);

/// The oracle as a pack that Godot 4.4 and later load, its project set to run `physics`.
pub fn pack(physics: PhysicsEngine) -> Vec<u8> {
    let project = FILES[0].1.replace(
        ENGINE_LINE,
        &format!("3d/physics_engine=\"{}\"", physics.setting()),
    );
    let files: Vec<PackFile<'_>> = FILES
        .iter()
        .skip(1)
        .chain(std::iter::once(&CLASS_CACHE))
        .map(|(path, text)| PackFile {
            path,
            data: text.as_bytes(),
        })
        .chain(std::iter::once(PackFile {
            path: FILES[0].0,
            data: project.as_bytes(),
        }))
        .collect();
    pck::write(&files, (4, 4))
}

/// The names of the files in a folder of the repository, sorted, hidden ones left out: what a
/// pack must cover.
#[cfg(test)]
pub(crate) fn repository_folder(folder: &str) -> Vec<String> {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../..")
        .join(folder);
    let mut names: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|name| !name.starts_with('.'))
        .collect();
    names.sort();
    names
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_file_of_the_oracle_folder_is_packed() {
        let on_disk = repository_folder("godot_oracle");
        let mut packed: Vec<String> = FILES.iter().map(|(p, _)| p.to_string()).collect();
        packed.sort();
        assert_eq!(on_disk, packed);
    }

    #[test]
    fn the_pack_starts_with_the_magic_and_holds_the_project() {
        let pack = pack(PhysicsEngine::Jolt);
        assert_eq!(&pack[..4], pck::MAGIC);
        let text = String::from_utf8_lossy(&pack);
        assert!(text.contains("3d/physics_engine=\"Jolt Physics\""));
        assert!(text.contains("global_script_class_cache.cfg"));
    }

    #[test]
    fn the_pack_runs_the_physics_engine_asked_for() {
        assert!(
            FILES[0].1.contains(ENGINE_LINE),
            "the oracle's project picks Jolt"
        );
        let text = String::from_utf8_lossy(&pack(PhysicsEngine::GodotPhysics)).into_owned();
        assert!(text.contains("3d/physics_engine=\"GodotPhysics3D\""));
        assert!(!text.contains(ENGINE_LINE));
    }
}
