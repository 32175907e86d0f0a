//! Triangle meshes from Wavefront OBJ files, read with `tobj` (polygons are triangulated; every
//! object of the file becomes part of one mesh).

use std::io::BufReader;
use std::path::Path;

use glam::Vec3;

/// Largest OBJ file read, bytes: a scenario names a level mesh, never a device or a huge file.
pub const MAX_OBJ_BYTES: u64 = 64 * 1024 * 1024;

/// Vertices (m) and triangles of the OBJ file at `path`.
pub fn read(path: &Path) -> Result<(Vec<Vec3>, Vec<[u32; 3]>), String> {
    let meta = std::fs::metadata(path).map_err(|e| format!("cannot read: {e}"))?;
    if !meta.is_file() {
        return Err("not a regular file".into());
    }
    if meta.len() > MAX_OBJ_BYTES {
        return Err(format!("{} bytes, more than {MAX_OBJ_BYTES}", meta.len()));
    }
    let file = std::fs::File::open(path).map_err(|e| format!("cannot read: {e}"))?;
    parse_reader(&mut BufReader::new(file))
}

/// Vertices (m) and triangles of OBJ `text`.
pub fn parse(text: &str) -> Result<(Vec<Vec3>, Vec<[u32; 3]>), String> {
    parse_reader(&mut text.as_bytes())
}

fn parse_reader(reader: &mut impl std::io::BufRead) -> Result<(Vec<Vec3>, Vec<[u32; 3]>), String> {
    let options = tobj::LoadOptions {
        triangulate: true,
        single_index: true,
        ..tobj::LoadOptions::default()
    };
    // Materials are not needed: every material library resolves to nothing.
    let (models, _) = tobj::load_obj_buf(reader, &options, |_| Ok(Default::default()))
        .map_err(|e| format!("not a valid OBJ file: {e}"))?;
    let mut vertices = Vec::new();
    let mut triangles = Vec::new();
    for model in &models {
        let base = u32::try_from(vertices.len()).map_err(|_| "too many vertices".to_string())?;
        for p in model.mesh.positions.chunks_exact(3) {
            let v = Vec3::new(p[0], p[1], p[2]);
            if !v.is_finite() {
                return Err(format!("vertex {} is not finite", vertices.len() + 1));
            }
            vertices.push(v);
        }
        for t in model.mesh.indices.chunks_exact(3) {
            triangles.push([base + t[0], base + t[1], base + t[2]]);
        }
    }
    if triangles.is_empty() {
        return Err("no faces".into());
    }
    Ok((vertices, triangles))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quads_are_triangulated() {
        let (v, t) = parse("# a quad\nv 0 0 0\nv 1 0 0\nv 1 0 1\nv 0 0 1\nf 1 2 3 4\n").unwrap();
        assert_eq!(v.len(), 4);
        assert_eq!(t.len(), 2);
        assert!(t.iter().flatten().all(|&i| i < 4));
    }

    #[test]
    fn bad_files_are_refused() {
        assert!(parse("v 0 0 0\n").unwrap_err().contains("no faces"));
        assert!(parse("v 0 0 0\nf 1 2 3\n").is_err());
        assert!(read(Path::new("/dev/null")).is_err());
        assert!(
            read(Path::new("/nonexistent/level.obj"))
                .unwrap_err()
                .starts_with("cannot read")
        );
    }
}
