//! A flat-faced convex hull's sides: the planes of its faces and the edges between them, and
//! the few edges a shape outside the hull can be nearest to.
//!
//! The way `w` from a hull's point nearest to a shape outside it to the shape's nearest point
//! lies in the cone of the normals of the faces at that point (the normal cone). On an edge,
//! that cone is spanned by its two faces' normals, so `w` has a positive part along one of them
//! at least (the shape reaches past that face's plane), and no part along the way from the edge
//! into either face square to it (the shape reaches past the edge's two side planes: through
//! the edge, square to each face, facing away from it). At a corner, `w` lies in the same
//! region of one of the corner's edges: on the sphere of directions the normal cone is a convex
//! polygon whose sides are the edges' cones, and the shortest way from `w` to its nearest side
//! meets that side square, between its ends, which is what the edge's region holds. So the
//! search for the nearest edge runs over the edges with a face and both side planes the shape
//! reaches past, a handful of a hull's.

use glam::DVec3;
use parry3d_f64::shape::{ConvexPolyhedron, SharedShape};

use crate::segment::Face;

/// How far short of a face's plane a shape's reach still counts as past it, m: the culling's
/// guard against rounding, far below any distance the queries resolve.
pub(crate) const FACING_SLACK: f64 = 1e-9;

/// Most edges one closed-form search takes, a box's (with more, a hull of many small faces, the
/// query is left to GJK: against all of a spiral staircase's step's 24 edges GJK was faster).
pub(crate) const MOST_EDGES: usize = 12;

/// One edge of a hull: its two ends (indices into the hull's points), the two faces it joins
/// (indices into [`Sides::faces`]) and its side planes.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct Edge {
    pub(crate) ends: [usize; 2],
    faces: [usize; 2],
    /// For each face, the plane through the edge square to the face, its normal away from the
    /// face (see the module's doc); a zero normal, which never culls, between faces too close
    /// to coplanar to tell.
    sides: [Face; 2],
}

/// The faces and edges of a flat-faced hull, made once per solid; both empty for any other
/// shape, or for a hull with a face that is not flat (the queries then go to GJK).
#[derive(Clone, Default)]
pub(crate) struct Sides {
    /// The planes of the faces, in parry's order of the hull's faces.
    pub(crate) faces: Box<[Face]>,
    /// Each edge once.
    pub(crate) edges: Box<[Edge]>,
}

impl Sides {
    /// The sides of `shape` when it is a flat-faced hull (empty otherwise).
    pub(crate) fn of(shape: &SharedShape) -> Self {
        shape
            .as_convex_polyhedron()
            .map(Self::of_hull)
            .unwrap_or_default()
    }

    fn of_hull(hull: &ConvexPolyhedron) -> Self {
        let adjacent_vertices = hull.vertices_adj_to_face();
        let adjacent_edges = hull.edges_adj_to_face();
        let ranges: Vec<_> = hull
            .faces()
            .iter()
            .map(|face| {
                let first = face.first_vertex_or_edge as usize;
                first..first + face.num_vertices_or_edges as usize
            })
            .collect();
        let faces = Face::of_polyhedron(
            hull.points(),
            hull.faces()
                .iter()
                .zip(&ranges)
                .map(|(face, range)| (face.normal, &adjacent_vertices[range.clone()])),
        );
        if faces.is_empty() {
            return Self::default();
        }
        // Each edge of parry's is met from both faces it joins: the first meeting adds it.
        let mut slot_of = vec![None; hull.edges().len()];
        let mut edges: Vec<Edge> = Vec::new();
        for (index, range) in ranges.into_iter().enumerate() {
            for &id in &adjacent_edges[range] {
                match slot_of[id as usize] {
                    Some(slot) => {
                        let edge: &mut Edge = &mut edges[slot];
                        edge.faces[1] = index;
                    }
                    None => {
                        slot_of[id as usize] = Some(edges.len());
                        let [a, b] = hull.edges()[id as usize].vertices;
                        edges.push(Edge {
                            ends: [a as usize, b as usize],
                            faces: [index, index],
                            sides: [NEVER_CULLS; 2],
                        });
                    }
                }
            }
        }
        for edge in &mut edges {
            let [a, b] = edge.ends.map(|end| hull.points()[end]);
            let normals = edge.faces.map(|face| faces[face].normal);
            edge.sides = [0, 1].map(|i| side_plane(a, b - a, normals[i], normals[1 - i]));
        }
        Self {
            faces: faces.into(),
            edges: edges.into(),
        }
    }
}

/// A plane every shape reaches past.
const NEVER_CULLS: Face = Face {
    normal: DVec3::ZERO,
    offset: f64::NEG_INFINITY,
};

/// Least part of the other face's normal along the way into a face for the two to count as
/// apart (a unit vector's part): below it the faces are too close to coplanar to tell.
const APART: f64 = 1e-9;

/// The side plane of the edge from `a` along `along` (m) on the face of unit `normal`, the
/// edge's other face having `other`: through the edge, its normal the way out of the face
/// square to the edge.
fn side_plane(a: DVec3, along: DVec3, normal: DVec3, other: DVec3) -> Face {
    let across = normal.cross(along).normalize_or_zero();
    let part = across.dot(other);
    if part.abs() < APART {
        return NEVER_CULLS;
    }
    // Into the face, the other face's normal has a part against the way (the hull is convex).
    let out = if part > 0.0 { across } else { -across };
    Face {
        normal: out,
        offset: out.dot(a),
    }
}

/// The edges of a hull with `faces` and `edges` (its [`Sides`]) that can hold the point nearest
/// to a shape outside it, as pairs of indices into the hull's points, and how many: those on a
/// face the shape reaches past whose two side planes it reaches past too (see the module's
/// doc). `reach(normal)` is how far the shape reaches along a plane's unit `normal` (its
/// support, m, in the hull's frame). `None` when there are no edges, more faces than the search
/// tracks, or more such edges than [`MOST_EDGES`].
pub(crate) fn edges_facing(
    faces: &[Face],
    edges: &[Edge],
    reach: impl Fn(DVec3) -> f64,
) -> Option<([[usize; 2]; MOST_EDGES], usize)> {
    if edges.is_empty() || faces.len() > u64::BITS as usize {
        return None;
    }
    let reached = |plane: &Face| reach(plane.normal) - plane.offset > -FACING_SLACK;
    let past = faces
        .iter()
        .enumerate()
        .filter(|(_, face)| reached(face))
        .fold(0_u64, |mask, (index, _)| mask | 1 << index);
    let mut kept = [[0; 2]; MOST_EDGES];
    let mut count = 0;
    for edge in edges {
        let facing = edge.faces.iter().any(|&face| past & 1 << face != 0);
        if facing && edge.sides.iter().all(reached) {
            *kept.get_mut(count)? = edge.ends;
            count += 1;
        }
    }
    Some((kept, count))
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    /// The points of a wedge, m: a 2 m wide ramp rising 1.2 m over 1 m, five faces and nine
    /// edges.
    pub(crate) const WEDGE: [DVec3; 6] = [
        DVec3::new(-1.0, 0.0, 0.0),
        DVec3::new(1.0, 0.0, 0.0),
        DVec3::new(-1.0, 0.0, -1.0),
        DVec3::new(1.0, 0.0, -1.0),
        DVec3::new(-1.0, 1.2, -1.0),
        DVec3::new(1.0, 1.2, -1.0),
    ];

    fn wedge() -> SharedShape {
        SharedShape::convex_hull(&WEDGE).expect("a hull")
    }

    #[test]
    fn a_wedge_has_five_faces_and_nine_edges_each_joining_two_faces_it_ends_on() {
        let shape = wedge();
        let hull = shape.as_convex_polyhedron().expect("a hull");
        let sides = Sides::of(&shape);
        assert_eq!(sides.faces.len(), 5);
        assert_eq!(sides.edges.len(), 9);
        for edge in &sides.edges {
            assert_ne!(edge.faces[0], edge.faces[1], "{edge:?}");
            for face in edge.faces.map(|f| sides.faces[f]) {
                for end in edge.ends {
                    let height = face.normal.dot(hull.points()[end]) - face.offset;
                    assert!(height.abs() < 1e-12, "{edge:?} {face:?}");
                }
            }
        }
    }

    #[test]
    fn a_point_faces_only_the_edges_at_its_nearest_point_on_the_hull() {
        let sides = Sides::of(&wedge());
        let count = |point: DVec3| {
            let facing = edges_facing(&sides.faces, &sides.edges, |normal| normal.dot(point));
            facing.expect("few edges").1
        };
        // Over the slope's inside: no edge.
        assert_eq!(count(DVec3::new(0.0, 1.0, 0.0)), 0);
        // Past the front edge, below and ahead of it: that edge.
        assert_eq!(count(DVec3::new(0.0, -0.5, 1.0)), 1);
        // Past the front right corner: its three edges.
        assert_eq!(count(DVec3::new(2.0, -0.5, 1.0)), 3);
        // Past the top right corner: two of its three edges (the way out of the corner is not
        // between the slope's and the right side's normals, across their edge).
        assert_eq!(count(DVec3::new(1.5, 1.5, -1.5)), 2);
    }

    #[test]
    fn other_shapes_have_no_sides() {
        let sides = Sides::of(&SharedShape::cuboid(1.0, 1.0, 1.0));
        assert!(sides.faces.is_empty() && sides.edges.is_empty());
        assert!(edges_facing(&sides.faces, &sides.edges, |_| 0.0).is_none());
    }
}
