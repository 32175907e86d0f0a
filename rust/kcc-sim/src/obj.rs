//! A minimal Wavefront OBJ reader: `v x y z` vertices and `f a b c ...` faces (polygons are
//! fanned into triangles; `a/b/c` references and negative indices are understood). Every other
//! line (normals, texture coordinates, groups, materials, comments) is ignored.

use std::path::Path;

use glam::Vec3;

/// Vertices (m) and triangles of the OBJ file at `path`; the error names the line.
pub fn read(path: &Path) -> Result<(Vec<Vec3>, Vec<[u32; 3]>), String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("cannot read: {e}"))?;
    parse(&text)
}

/// Vertices (m) and triangles of OBJ `text`.
pub fn parse(text: &str) -> Result<(Vec<Vec3>, Vec<[u32; 3]>), String> {
    let mut vertices = Vec::new();
    let mut triangles = Vec::new();
    for (number, line) in text.lines().enumerate() {
        let line_no = number + 1;
        let mut words = line.split_whitespace();
        match words.next() {
            Some("v") => {
                let coords: Vec<f32> = words
                    .take(3)
                    .map(|w| w.parse::<f32>().map_err(|e| format!("line {line_no}: {e}")))
                    .collect::<Result<_, _>>()?;
                match coords[..] {
                    [x, y, z] if x.is_finite() && y.is_finite() && z.is_finite() => {
                        vertices.push(Vec3::new(x, y, z))
                    }
                    _ => return Err(format!("line {line_no}: a vertex needs 3 finite numbers")),
                }
            }
            Some("f") => {
                let corners: Vec<u32> = words
                    .map(|w| corner(w, vertices.len()).map_err(|e| format!("line {line_no}: {e}")))
                    .collect::<Result<_, _>>()?;
                if corners.len() < 3 {
                    return Err(format!("line {line_no}: a face needs at least 3 corners"));
                }
                for i in 1..corners.len() - 1 {
                    triangles.push([corners[0], corners[i], corners[i + 1]]);
                }
            }
            _ => {}
        }
    }
    if triangles.is_empty() {
        return Err("no faces".into());
    }
    Ok((vertices, triangles))
}

/// Zero-based vertex index of a face corner (`7`, `7/1/2`, `7//2` or `-1`), given `count`
/// vertices read so far.
fn corner(word: &str, count: usize) -> Result<u32, String> {
    let index: i64 = word
        .split('/')
        .next()
        .unwrap_or(word)
        .parse()
        .map_err(|_| format!("bad face corner `{word}`"))?;
    let resolved = match index {
        i if i > 0 => i - 1,
        i if i < 0 => count as i64 + i,
        _ => -1,
    };
    if resolved < 0 || resolved >= count as i64 {
        return Err(format!(
            "face corner `{word}` refers to no vertex ({count} so far)"
        ));
    }
    Ok(resolved as u32)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quads_are_fanned_and_references_resolved() {
        let (v, t) =
            parse("# a quad\nv 0 0 0\nv 1 0 0\nv 1 0 1\nv 0 0 1\nf 1/1 2/2 3/3 -1\n").unwrap();
        assert_eq!(v.len(), 4);
        assert_eq!(t, vec![[0, 1, 2], [0, 2, 3]]);
    }

    #[test]
    fn errors_name_the_line() {
        assert_eq!(
            parse("v 0 0 0\nf 1 2 3\n").unwrap_err(),
            "line 2: face corner `2` refers to no vertex (1 so far)"
        );
        assert!(parse("v 0 nan 0\n").unwrap_err().starts_with("line 1"));
        assert_eq!(parse("v 0 0 0\n").unwrap_err(), "no faces");
    }
}
