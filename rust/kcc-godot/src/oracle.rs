//! The oracle project (`godot_oracle/` in the repository), compiled into this crate and packed
//! into a `.pck` for the web template.

use crate::pck::{self, PackFile};

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

/// The oracle as a pack that Godot 4.4 and later load.
pub fn pack() -> Vec<u8> {
    let files: Vec<PackFile<'_>> = FILES
        .iter()
        .chain(std::iter::once(&CLASS_CACHE))
        .map(|(path, text)| PackFile {
            path,
            data: text.as_bytes(),
        })
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
        let pack = pack();
        assert_eq!(&pack[..4], pck::MAGIC);
        let text = String::from_utf8_lossy(&pack);
        assert!(text.contains("3d/physics_engine=\"Jolt Physics\""));
        assert!(text.contains("global_script_class_cache.cfg"));
    }
}
