//! A writer for Godot's resource packs (`.pck`), so that the oracle project can be handed to
//! the web template without a Godot editor.
//!
//! Format version 2, which every Godot from 4.0 to 4.6 reads (4.5 and 4.6 write version 3,
//! whose only difference is the directory placed after the files; both are read by
//! `PackedSourcePCK::try_open_pack` in `core/io/file_access_pack.cpp`). Layout, little-endian:
//! the magic `GDPC`, the format version, the engine version (major, minor, patch), flags 0,
//! the file base (absolute), 16 reserved words; the directory: a file count and per file its
//! path (without `res://`, zero-padded to 4 bytes), offset from the file base, size, MD5 of its
//! bytes and flags 0; then the file data, each file aligned to 16 bytes.

use md5::{Digest, Md5};

/// Magic bytes that open a pack.
pub const MAGIC: &[u8; 4] = b"GDPC";
/// Pack format version written: read by Godot 4.0 to 4.6.
pub const FORMAT_VERSION: u32 = 2;
/// Size of the header: magic, 5 words, the file base, 16 reserved words.
const HEADER_SIZE: usize = 4 + 5 * 4 + 8 + 16 * 4;
/// File data and the start of the data are aligned to this many bytes.
const ALIGNMENT: usize = 16;

/// One file of a pack: its path inside the project (`project.godot`, `oracle/port.gd`, no
/// `res://`) and its bytes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PackFile<'a> {
    /// Path inside the project, `/`-separated, without `res://`.
    pub path: &'a str,
    /// Contents.
    pub data: &'a [u8],
}

fn align(value: usize, to: usize) -> usize {
    value.div_ceil(to) * to
}

/// The bytes of a pack holding `files` (in the order given), made for an engine of version
/// `major.minor` (Godot refuses packs made for a newer engine than itself).
pub fn write(files: &[PackFile<'_>], engine: (u32, u32)) -> Vec<u8> {
    let mut directory = Vec::new();
    directory.extend_from_slice(&(files.len() as u32).to_le_bytes());
    let mut data = Vec::new();
    for file in files {
        let name = file.path.as_bytes();
        let padded = align(name.len(), 4);
        directory.extend_from_slice(&(padded as u32).to_le_bytes());
        directory.extend_from_slice(name);
        directory.resize(directory.len() + padded - name.len(), 0);
        directory.extend_from_slice(&(data.len() as u64).to_le_bytes());
        directory.extend_from_slice(&(file.data.len() as u64).to_le_bytes());
        directory.extend_from_slice(&Md5::digest(file.data));
        directory.extend_from_slice(&0u32.to_le_bytes());
        data.extend_from_slice(file.data);
        data.resize(align(data.len(), ALIGNMENT), 0);
    }
    let file_base = align(HEADER_SIZE + directory.len(), ALIGNMENT);

    let mut out = Vec::with_capacity(file_base + data.len());
    out.extend_from_slice(MAGIC);
    for word in [FORMAT_VERSION, engine.0, engine.1, 0, 0] {
        out.extend_from_slice(&word.to_le_bytes());
    }
    out.extend_from_slice(&(file_base as u64).to_le_bytes());
    out.resize(HEADER_SIZE, 0);
    out.extend_from_slice(&directory);
    out.resize(file_base, 0);
    out.extend_from_slice(&data);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn u32_at(bytes: &[u8], at: usize) -> u32 {
        u32::from_le_bytes(bytes[at..at + 4].try_into().unwrap())
    }

    fn u64_at(bytes: &[u8], at: usize) -> u64 {
        u64::from_le_bytes(bytes[at..at + 8].try_into().unwrap())
    }

    /// Reads a pack back the way Godot's `PackedSourcePCK` does: header, directory, files.
    fn read(pack: &[u8]) -> Vec<(String, Vec<u8>, [u8; 16])> {
        assert_eq!(&pack[0..4], MAGIC);
        assert_eq!(u32_at(pack, 4), FORMAT_VERSION);
        assert_eq!(u32_at(pack, 20), 0, "pack flags");
        let base = u64_at(pack, 24) as usize;
        assert_eq!(base % ALIGNMENT, 0);
        // Version 2: the directory follows the header's reserved words.
        let mut at = HEADER_SIZE;
        let count = u32_at(pack, at);
        at += 4;
        let mut files = Vec::new();
        for _ in 0..count {
            let len = u32_at(pack, at) as usize;
            at += 4;
            let name = String::from_utf8(pack[at..at + len].to_vec()).unwrap();
            at += len;
            let offset = u64_at(pack, at) as usize;
            let size = u64_at(pack, at + 8) as usize;
            let md5: [u8; 16] = pack[at + 16..at + 32].try_into().unwrap();
            assert_eq!(u32_at(pack, at + 32), 0, "file flags");
            at += 36;
            assert_eq!((base + offset) % ALIGNMENT, 0, "{name} is aligned");
            files.push((
                name.trim_end_matches('\0').to_string(),
                pack[base + offset..base + offset + size].to_vec(),
                md5,
            ));
        }
        assert!(at <= base, "the directory ends before the files");
        files
    }

    #[test]
    fn files_come_back_with_their_paths_bytes_and_md5() {
        let files = [
            PackFile {
                path: "project.godot",
                data: b"config_version=5\n",
            },
            PackFile {
                path: "oracle/port.gd",
                data: b"extends RefCounted\n",
            },
            PackFile {
                path: "empty.txt",
                data: b"",
            },
        ];
        let pack = write(&files, (4, 4));
        assert_eq!(u32_at(&pack, 8), 4);
        assert_eq!(u32_at(&pack, 12), 4);
        let back = read(&pack);
        assert_eq!(back.len(), 3);
        for (file, (path, data, md5)) in files.iter().zip(&back) {
            assert_eq!(file.path, path);
            assert_eq!(file.data, data.as_slice());
            let expected: [u8; 16] = Md5::digest(file.data).into();
            assert_eq!(&expected, md5);
        }
    }

    #[test]
    fn names_are_padded_to_four_bytes() {
        let pack = write(
            &[PackFile {
                path: "a.gd",
                data: b"x",
            }],
            (4, 4),
        );
        let dir = HEADER_SIZE;
        assert_eq!(u32_at(&pack, dir), 1);
        assert_eq!(u32_at(&pack, dir + 4), 4, "\"a.gd\" is already 4 bytes");
        let pack = write(
            &[PackFile {
                path: "ab.gd",
                data: b"x",
            }],
            (4, 4),
        );
        let dir = HEADER_SIZE;
        assert_eq!(u32_at(&pack, dir + 4), 8, "5 bytes padded to 8");
        assert_eq!(read(&pack)[0].0, "ab.gd");
    }
}
