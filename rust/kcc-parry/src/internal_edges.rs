//! Contacts with a mesh's internal edges left out, as Godot's Jolt leaves them out.
//!
//! Godot's Jolt gathers the contacts of its motion queries (the recovery and the contacts
//! after the cast; `physics/jolt_physics_3d/motion_queries/use_enhanced_internal_edge_removal`,
//! on by default) and, in the oracle's project, of its plain queries through Jolt's internal
//! edge removal, one body at a time:
//! - a contact whose normal is within [`FACE_CONTACT_COS`] of its triangle's normal is a face
//!   contact: kept at once, and its triangle's corners are *voided*;
//! - the others wait ([`MOST_DELAYED`] of them; beyond that a contact is kept at once, as a face
//!   contact is) and are then taken deepest first: each is dropped when the corner or the edge
//!   of its triangle nearest to its point is voided (an edge when both its ends are), kept
//!   otherwise, and voids its triangle's corners in either case.
//!
//! A body resting on a chamfer touches the chamfer's face and, at the edge the chamfer shares
//! with the tread above, the tread's triangle with a tilted normal: the first voids that edge's
//! ends, and the second is dropped, so the slide sees the chamfer alone. Convex solids give one
//! contact each and are untouched. A cast only asks whether anything touches, which the
//! deepest contact always answers, so casts are untouched too.

use arrayvec::ArrayVec;
use glam::DVec3;

use crate::solid::Touch;

/// Cosine of the largest angle (1 degree) between a contact's normal and its triangle's normal
/// at which the contact is with the triangle's face.
const FACE_CONTACT_COS: f64 = 0.999_848;

/// How many contacts wait to be judged by their nearest feature; more are kept at once.
const MOST_DELAYED: usize = 16;

/// How many voided corners are remembered; corners voided beyond that are forgotten.
const MOST_VOIDED: usize = 128;

/// Square of the distance (m²) within which a corner is the voided one: Jolt compares corners
/// by position (shared corners of a mesh are equal to the last bit).
const SAME_CORNER_SQ: f64 = 1e-8;

/// Shortest edge (m) a contact can be judged to lie along; a shorter one is judged by its ends.
const SHORTEST_EDGE: f64 = f32::EPSILON as f64;

/// The contacts of one body with one mesh, sorted as Godot's Jolt sorts them: feed every
/// triangle's contact to [`InternalEdges::add`], then call [`InternalEdges::flush`].
#[derive(Default)]
pub(crate) struct InternalEdges {
    voided: ArrayVec<DVec3, MOST_VOIDED>,
    delayed: ArrayVec<(Touch, [DVec3; 3]), MOST_DELAYED>,
}

impl InternalEdges {
    /// Takes `touch`, a contact with the triangle whose corners (world space, m, in the mesh's
    /// winding) are `corners`: a face contact goes to `kept` at once, the others wait for
    /// [`InternalEdges::flush`].
    pub(crate) fn add(&mut self, touch: Touch, corners: [DVec3; 3], kept: &mut impl FnMut(Touch)) {
        let [a, b, c] = corners;
        let normal = (b - a).cross(c - a);
        let length = normal.length();
        let on_face = length < 1e-6 || normal.dot(-touch.normal) > FACE_CONTACT_COS * length;
        if on_face || self.delayed.is_full() {
            self.void(&corners);
            kept(touch);
        } else {
            self.delayed.push((touch, corners));
        }
    }

    /// Judges the waiting contacts, deepest first, and passes those kept to `kept`.
    pub(crate) fn flush(mut self, kept: &mut impl FnMut(Touch)) {
        let mut delayed = std::mem::take(&mut self.delayed);
        delayed.sort_by(|x, y| x.0.dist.total_cmp(&y.0.dist));
        for (touch, corners) in delayed {
            let (first, second) = nearest_feature(touch.point, &corners);
            let voided = self.is_voided(corners[first])
                && (first == second || self.is_voided(corners[second]));
            if !voided {
                kept(touch);
            }
            self.void(&corners);
        }
    }

    fn is_voided(&self, corner: DVec3) -> bool {
        self.voided
            .iter()
            .any(|v| v.distance_squared(corner) <= SAME_CORNER_SQ)
    }

    fn void(&mut self, corners: &[DVec3; 3]) {
        for &corner in corners {
            if self.voided.is_full() {
                return;
            }
            if !self.is_voided(corner) {
                self.voided.push(corner);
            }
        }
    }
}

/// The corner or edge of a triangle nearest to `point` (m), as the indices of its ends (the same
/// index twice for a corner), found as Jolt finds it: each edge in turn, from the last corner
/// to the first, offers its start when `point` projects before it, or itself when `point`
/// projects inside it.
fn nearest_feature(point: DVec3, corners: &[DVec3; 3]) -> (usize, usize) {
    let mut best = (f64::MAX, (0, 0));
    let mut offer = |distance_sq: f64, feature: (usize, usize)| {
        if distance_sq < best.0 {
            best = (distance_sq, feature);
        }
    };
    let mut start = corners.len() - 1;
    for end in 0..corners.len() {
        let from = corners[start] - point;
        let along = corners[end] - corners[start];
        let length_sq = along.length_squared();
        if length_sq < SHORTEST_EDGE * SHORTEST_EDGE {
            offer(from.length_squared(), (start, start));
        } else {
            let fraction = -from.dot(along) / length_sq;
            if fraction < 1e-6 {
                offer(from.length_squared(), (start, start));
            } else if fraction < 1.0 - 1e-6 {
                offer((from + along * fraction).length_squared(), (start, end));
            }
        }
        start = end;
    }
    best.1
}

#[cfg(test)]
mod tests {
    use super::*;

    fn touch(point: DVec3, normal: DVec3, dist: f64) -> Touch {
        Touch {
            normal,
            dist,
            point,
            exact: true,
            closed: true,
        }
    }

    /// A tread (level, y = 0, x from -1 to 0) and a 45 degree chamfer going down from its front
    /// edge (x = 0) to x = 0.1, y = -0.1; the shared edge runs along z from -1 to 1.
    const TREAD: [DVec3; 3] = [
        DVec3::new(-1.0, 0.0, -1.0),
        DVec3::new(0.0, 0.0, 1.0),
        DVec3::new(0.0, 0.0, -1.0),
    ];
    const CHAMFER: [DVec3; 3] = [
        DVec3::new(0.0, 0.0, -1.0),
        DVec3::new(0.0, 0.0, 1.0),
        DVec3::new(0.1, -0.1, 0.0),
    ];

    fn kept(contacts: &[(Touch, [DVec3; 3])]) -> Vec<Touch> {
        let mut edges = InternalEdges::default();
        let mut kept = Vec::new();
        for (touch, corners) in contacts {
            edges.add(*touch, *corners, &mut |t| kept.push(t));
        }
        edges.flush(&mut |t| kept.push(t));
        kept
    }

    #[test]
    fn the_triangles_wind_with_their_normal_up() {
        let [a, b, c] = TREAD;
        assert!(
            (b - a)
                .cross(c - a)
                .normalize()
                .abs_diff_eq(DVec3::Y, 1e-12)
        );
        let [a, b, c] = CHAMFER;
        let up_and_out = DVec3::new(1.0, 1.0, 0.0).normalize();
        assert!(
            (b - a)
                .cross(c - a)
                .normalize()
                .abs_diff_eq(up_and_out, 1e-12)
        );
    }

    #[test]
    fn a_body_on_a_chamfer_keeps_the_chamfers_contact_and_drops_the_treads_edge() {
        let chamfer_normal = -DVec3::new(1.0, 1.0, 0.0).normalize();
        let on_chamfer = touch(DVec3::new(0.01, -0.01, 0.0), chamfer_normal, 0.001);
        // The tread's triangle at its front edge, 46 degrees from its normal, deeper.
        let tilted = -DVec3::new(46f64.to_radians().sin(), 46f64.to_radians().cos(), 0.0);
        let at_edge = touch(DVec3::new(0.0, 0.0, 0.0), tilted, 0.0005);
        let kept = kept(&[(at_edge, TREAD), (on_chamfer, CHAMFER)]);
        assert_eq!(kept, vec![on_chamfer]);
    }

    #[test]
    fn an_edge_contact_with_no_face_contact_is_kept_and_voids_a_shallower_one() {
        let tilted = -DVec3::new(0.3, 1.0, 0.0).normalize();
        let deep = touch(DVec3::new(0.0, 0.0, 0.2), tilted, -0.002);
        let shallow = touch(DVec3::new(0.0, 0.0, 0.3), tilted, -0.001);
        // Both against the tread's edge x = 0 (a corner of the chamfer's sharing it).
        let kept = kept(&[(shallow, TREAD), (deep, TREAD)]);
        assert_eq!(kept, vec![deep]);
    }

    #[test]
    fn an_edge_contact_beside_a_face_contact_of_another_edge_is_kept() {
        // A face contact on the chamfer voids its corners; a contact at the tread's back edge
        // (x = -1 to z = 1) is nearest to an edge whose ends are not both voided.
        let on_chamfer = touch(
            DVec3::new(0.05, -0.05, 0.0),
            -DVec3::new(1.0, 1.0, 0.0).normalize(),
            0.0,
        );
        let back = touch(
            DVec3::new(-0.5, 0.0, 0.0),
            -DVec3::new(-0.5, 1.0, 0.0).normalize(),
            0.0,
        );
        let kept = kept(&[(on_chamfer, CHAMFER), (back, TREAD)]);
        assert_eq!(kept, vec![on_chamfer, back]);
    }

    #[test]
    fn the_nearest_feature_is_a_corner_or_an_edge() {
        let corners = TREAD;
        assert_eq!(
            nearest_feature(DVec3::new(-1.1, 0.0, -1.1), &corners),
            (0, 0)
        );
        assert_eq!(nearest_feature(DVec3::new(0.1, 0.0, 0.0), &corners), (1, 2));
        assert_eq!(
            nearest_feature(DVec3::new(-0.5, 0.0, -0.9), &corners),
            (2, 0)
        );
    }
}
