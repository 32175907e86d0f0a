//! Static solids of the world: convex shapes and triangle meshes.
//!
//! Geometry queries run in f64 (parry3d-f64): with f32, GJK near a 200 m floor box was measured
//! to be off by up to 2 mm for a 0.94 mm gap, enough to let a character sink through the floor.
//!
//! A capsule is queried as its segment grown by its radius (`Rounded`): GJK between polytopes
//! ends exactly in a few steps, where on the rounded capsule it needs many steps near a touch
//! and still stops up to several micrometres off near an edge or a corner (measured in the
//! tests below). A segment and a box, or a segment over a face or nearest to an edge or a
//! corner of a hull or a mesh's triangle, have a closed form (`segment`); so have a cylinder and
//! an upright box, or a cylinder over such a face or a box's, or nearest to an edge or a corner
//! of a hull, a mesh's triangle or a tilted box (`cylinder`: GJK on a cylinder was the slowest
//! query, and the roughest, up to micrometres off). Of a hull's edges only the few that can
//! hold the nearest point are searched (`hull`). A face's plane that has the body further than
//! the distance asked about settles a query without either (`Closed::Beyond`); shapes closer
//! than [`TOUCH_DISTANCE`] or overlapping are GJK's and EPA's. Casts advance conservatively
//! on those exact distances (`advance`), then step onto the first touch (`first_touch`).
//!
//! A convex solid may be rounded as Jolt rounds Godot's boxes and convex polygons with their
//! margin ([`Solid::with_margin`]): its inner shape (shrunk by the convex radius, see `margin`)
//! grown by the radius. The same design covers it: the distance between a body's core grown by
//! R and a solid's core grown by r is the distance between the cores minus R + r, along the
//! direction between their nearest points. Where the cores overlap (a body more than R + r
//! deep), the sharp solid is queried instead, as Jolt's EPA then works on the whole shapes.

use std::sync::Arc;

use glam::DVec3;
use parry3d_f64::bounding_volume::{Aabb, BoundingVolume};
use parry3d_f64::math::Pose;
use parry3d_f64::query::{self, ShapeCastOptions};
use parry3d_f64::shape::{Cylinder, Segment, Shape, SharedShape, TriMesh, Triangle};

use crate::cylinder;
use crate::geometry::GeometryError;
use crate::hull::{self, Edge, Sides};
use crate::internal_edges::InternalEdges;
use crate::margin;
use crate::segment::{self, Face, OnFace};
use crate::world::TOUCH_DISTANCE;

/// What a solid was built from, in world space (m): enough to build the same solid in another
/// engine (the simulator builds Rapier colliders from it).
#[derive(Debug, Clone, PartialEq)]
pub enum Primitive {
    /// A box of full `size` centred at `center`, rotated by `rotation`.
    Cuboid {
        /// Centre, m.
        center: glam::Vec3,
        /// Full size along the box's own axes, m.
        size: glam::Vec3,
        /// Orientation.
        rotation: glam::Quat,
    },
    /// A ball of `radius` centred at `center` (m): a ball, a boulder.
    Ball {
        /// Centre, m.
        center: glam::Vec3,
        /// Radius, m.
        radius: f32,
    },
    /// The convex hull of points, m.
    Hull {
        /// The points.
        points: Vec<glam::Vec3>,
    },
    /// A triangle mesh, m.
    Mesh {
        /// Vertices in world space.
        vertices: Vec<glam::Vec3>,
        /// Vertex index triples.
        indices: Vec<[u32; 3]>,
    },
    /// Another character's body standing upright, the bottom of its shape at `bottom` (m).
    Character {
        /// Bottom of the shape, m.
        bottom: glam::Vec3,
        /// The shape.
        shape: crate::CharacterShape,
    },
}

/// One static solid placed in the world.
#[derive(Clone)]
pub struct Solid {
    pose: Pose,
    kind: SolidKind,
    aabb: Aabb,
    primitive: Primitive,
    /// Godot's `Shape3D.margin`, m.
    margin: f32,
}

#[derive(Clone)]
enum SolidKind {
    /// A box, a convex hull or any other convex shape.
    Convex(Convex),
    /// A triangle mesh: contacts are found per triangle, as Jolt does for mesh shapes.
    Mesh(Arc<Mesh>),
}

/// A triangle mesh with the planes that bound each of its triangles (see [`triangle_faces`]),
/// made once.
struct Mesh {
    triangles: TriMesh,
    /// The faces of each triangle, in the order of the mesh's triangles.
    faces: Box<[Option<[Face; 5]>]>,
}

impl Mesh {
    /// Calls `found` with each triangle whose bounds meet `reach` (in the mesh's frame, m) and
    /// whose front faces `center` (the body's centre in the mesh's frame, m), with its faces
    /// (none for a sliver). Jolt ignores a triangle whose plane has the centre of the body's
    /// shape behind it (a mesh is one-sided, as Godot's `ConcavePolygonShape3D` is by default).
    fn near(&self, reach: &Aabb, center: DVec3, found: impl FnMut((Triangle, &[Face]))) {
        self.triangles
            .bvh()
            .intersect_aabb(reach)
            .filter(|&index| {
                let t = self.triangles.triangle(index);
                (t.b - t.a).cross(t.c - t.a).dot(t.a - center) <= 0.0
            })
            .map(|index| {
                let faces = self.faces[index as usize].as_ref();
                (
                    self.triangles.triangle(index),
                    faces.map_or(&[][..], |f| &f[..]),
                )
            })
            .for_each(found);
    }
}

/// A convex solid, sharp or rounded.
#[derive(Clone)]
struct Convex {
    /// The shape as built, with sharp edges.
    shape: SharedShape,
    /// The faces and edges of `shape` when it is a flat-faced hull (empty for other shapes).
    sides: Sides,
    /// The inner shape when the solid is rounded by a convex radius.
    rounded: Option<Box<Core>>,
}

/// The inner shape of a rounded convex solid: the solid is this shape grown by `radius`.
#[derive(Clone)]
struct Core {
    shape: SharedShape,
    /// The faces and edges of `shape` when it is a flat-faced hull (empty for a box).
    sides: Sides,
    /// Convex radius, m.
    radius: f64,
}

impl Convex {
    /// The solid at `pose` as a target of queries: its core and radius when rounded.
    fn target<'a>(&'a self, pose: &'a Pose) -> Target<'a> {
        let whole = self.shape.as_ref();
        match &self.rounded {
            Some(core) => Target {
                pose,
                shape: core.shape.as_ref(),
                faces: &core.sides.faces,
                edges: &core.sides.edges,
                radius: core.radius,
                whole,
            },
            None => Target {
                edges: &self.sides.edges,
                ..Target::new(pose, whole, &self.sides.faces)
            },
        }
    }

    /// World-space bounds at `pose`, m.
    fn aabb(&self, pose: &Pose) -> Aabb {
        let sharp = self.shape.compute_aabb(pose);
        match &self.rounded {
            // The rounded solid lies within the sharp one for a box and a hull whose vertices
            // have 3 faces; the union is safe for any hull.
            Some(core) => sharp.merged(&core.shape.compute_aabb(pose).loosened(core.radius)),
            None => sharp,
        }
    }
}

impl Solid {
    /// A convex shape (box, hull) at `pose`, built from `primitive`; sharp (margin 0).
    pub(crate) fn convex(shape: SharedShape, pose: Pose, primitive: Primitive) -> Self {
        let convex = Convex {
            sides: Sides::of(&shape),
            shape,
            rounded: None,
        };
        Self {
            pose,
            aabb: convex.aabb(&pose),
            kind: SolidKind::Convex(convex),
            primitive,
            margin: 0.0,
        }
    }

    /// A triangle mesh at `pose`, built from `primitive`.
    pub(crate) fn mesh(mesh: TriMesh, pose: Pose, primitive: Primitive) -> Self {
        let aabb = mesh.compute_aabb(&pose);
        let faces = mesh.triangles().map(|t| triangle_faces(&t)).collect();
        let mesh = Mesh {
            triangles: mesh,
            faces,
        };
        Self {
            pose,
            kind: SolidKind::Mesh(Arc::new(mesh)),
            aabb,
            primitive,
            margin: 0.0,
        }
    }

    /// The same solid with Godot's `Shape3D.margin` set to `margin` (m, finite, at least 0;
    /// replaces an earlier margin), rounded as Godot 4.4+ on Jolt rounds it: a box or a convex hull keeps its faces where
    /// they are, and its edges and corners become rounded with the convex radius
    /// ([`Solid::convex_radius`]): at most `margin`, at most [`COLLISION_MARGIN_FRACTION`]
    /// (Godot's default for `physics/jolt_physics_3d/collisions/collision_margin_fraction`)
    /// of the smallest half extent (of a box; of the hull's points' bounds, along the axes
    /// the points are given in), and for a hull at most what Jolt allows for a thin hull or
    /// a sharp edge (a 30 degree wedge's tip edge takes about 1.7 cm). A triangle mesh keeps
    /// the margin but stays sharp, as Jolt ignores it. Margin 0 (what every builder gives) is
    /// a sharp solid. Build the same solid in Godot with this margin on its shape. (One
    /// difference: where Jolt's inner hull is flat, the radius being half a thin hull's width,
    /// the radius here is 1 µm smaller so that the inner hull keeps a volume.)
    ///
    /// Errors: a margin that is negative or not finite, or a hull whose inner hull stays flat
    /// even so.
    ///
    /// [`COLLISION_MARGIN_FRACTION`]: crate::COLLISION_MARGIN_FRACTION
    pub fn with_margin(mut self, margin: f32) -> Result<Self, GeometryError> {
        let margin = margin::validate(margin)?;
        if let SolidKind::Convex(convex) = &mut self.kind {
            let rounding = if let Some(cuboid) = convex.shape.as_cuboid() {
                margin::rounded_box(cuboid.half_extents, margin)
            } else if let Some(hull) = convex.shape.as_convex_polyhedron() {
                margin::rounded_hull(hull, margin)?
            } else {
                None
            };
            convex.rounded = rounding.map(|rounding| {
                Box::new(Core {
                    sides: Sides::of(&rounding.core),
                    shape: rounding.core,
                    radius: f64::from(rounding.radius),
                })
            });
            self.aabb = convex.aabb(&self.pose);
        }
        self.margin = margin;
        Ok(self)
    }

    /// The same solid moved rigidly by `by` (applied after its own pose), for a platform
    /// placed where its motion has taken it.
    pub(crate) fn moved(&self, by: &Pose) -> Self {
        let pose = by * self.pose;
        let aabb = match &self.kind {
            SolidKind::Convex(convex) => convex.aabb(&pose),
            SolidKind::Mesh(mesh) => mesh.triangles.compute_aabb(&pose),
        };
        Self {
            pose,
            aabb,
            ..self.clone()
        }
    }

    /// Godot's `Shape3D.margin` of the solid, m (0 unless set with [`Solid::with_margin`]).
    pub fn margin(&self) -> f32 {
        self.margin
    }

    /// How much the solid's edges and corners are rounded, m: the convex radius Jolt derives
    /// from the margin (see [`Solid::with_margin`]); 0 for a sharp solid and a mesh.
    pub fn convex_radius(&self) -> f32 {
        match &self.kind {
            SolidKind::Convex(Convex {
                rounded: Some(core),
                ..
            }) => core.radius as f32,
            _ => 0.0,
        }
    }

    /// What the solid was built from.
    pub fn primitive(&self) -> &Primitive {
        &self.primitive
    }

    /// World-space bounds, m (those of the sharp solid, which hold a rounded one).
    pub fn aabb(&self) -> &Aabb {
        &self.aabb
    }

    /// True for a convex solid, which has at most one contact with the body.
    pub(crate) fn is_convex(&self) -> bool {
        matches!(self.kind, SolidKind::Convex(..))
    }

    /// True when a point (m) is inside the solid, rounded edges included (a mesh counts its
    /// inside by orientation).
    pub fn contains_point(&self, point: glam::Vec3) -> bool {
        use parry3d_f64::query::PointQuery;
        let point = point.as_dvec3();
        match &self.kind {
            SolidKind::Convex(Convex {
                rounded: Some(core),
                ..
            }) => core.shape.distance_to_point(&self.pose, point, true) <= core.radius,
            SolidKind::Convex(convex) => convex.shape.contains_point(&self.pose, point),
            SolidKind::Mesh(mesh) => mesh.triangles.contains_point(&self.pose, point),
        }
    }

    /// Calls `found` with every contact between `body` at `pose` and this solid closer than
    /// `prediction` (m); of a mesh's, those `which` says (what a query answers:
    /// [`MeshContacts::Kept`]).
    pub(crate) fn contacts(
        &self,
        body: &Rounded,
        pose: &Pose,
        body_aabb: &Aabb,
        (prediction, which): (f64, MeshContacts),
        found: &mut impl FnMut(Touch),
    ) {
        let reach = body_aabb.loosened(prediction);
        if !self.aabb.intersects(&reach) {
            return;
        }
        match &self.kind {
            SolidKind::Convex(convex) => {
                let target = convex.target(&self.pose);
                if let Some(touch) = body.contact(pose, &target, prediction) {
                    found(touch);
                }
            }
            SolidKind::Mesh(mesh) => {
                let local = reach.transform_by(&self.pose.inverse());
                let center = self.pose.inverse_transform_point(pose.translation);
                let mut edges = InternalEdges::default();
                mesh.near(&local, center, |(triangle, faces)| {
                    let target = Target::new(&self.pose, &triangle, faces);
                    let Some(touch) = body.contact(pose, &target, prediction) else {
                        return;
                    };
                    if which == MeshContacts::All {
                        return found(touch);
                    }
                    let corners = [triangle.a, triangle.b, triangle.c]
                        .map(|corner| self.pose.transform_point(corner));
                    edges.add(touch, corners, found);
                });
                edges.flush(found);
            }
        }
    }

    /// Where `touch`, a closed form's contact of `body` with this convex solid, is with the
    /// inside of one of the solid's faces: how far (m) the body may move along that face and
    /// stay over its inside (its distance to the solid then changes exactly as its distance to
    /// the face's plane; see [`segment::room_on_face`]), and how far apart (m) the cores are
    /// (the contact stays exact while they are further apart than [`TOUCH_DISTANCE`]). `None`
    /// for a mesh, a contact not known exactly, or one with an edge or a corner.
    pub(crate) fn on_face(&self, body: &Rounded, touch: &Touch) -> Option<OnFaceRoom> {
        let SolidKind::Convex(convex) = &self.kind else {
            return None;
        };
        if !touch.closed {
            return None;
        }
        let target = convex.target(&self.pose);
        let normal = target.pose.rotation.inverse() * touch.normal;
        let foot = target
            .pose
            .inverse_transform_point(touch.point + touch.normal * target.radius);
        let room = match target.shape.as_cuboid() {
            Some(cuboid) => {
                segment::room_on_face(&cylinder::box_faces(cuboid.half_extents), -normal, foot)
            }
            None => segment::room_on_face(target.faces, -normal, foot),
        };
        (room > 0.0).then_some(OnFaceRoom {
            room,
            cores_apart: touch.dist + body.radius + target.radius,
        })
    }

    /// How far (m along `motion`) `body` moves from `pose` before it first touches this solid
    /// (distance 0): 0 when it starts touching or overlapping it; `None` when the motion stays
    /// clear of it (a mesh: the first touch of any of its triangles). See [`first_touch`].
    pub(crate) fn first_touch(
        &self,
        body: &Rounded,
        pose: &Pose,
        swept: &Aabb,
        motion: DVec3,
    ) -> Option<f64> {
        let reach = swept.loosened(SWEEP_GAP);
        if !self.aabb.intersects(&reach) {
            return None;
        }
        match &self.kind {
            SolidKind::Convex(convex) => {
                let target = convex.target(&self.pose);
                first_touch(body, pose, motion, &target)
            }
            SolidKind::Mesh(mesh) => {
                self.first_touch_of_triangles(mesh, body, pose, swept, motion, true)
            }
        }
    }

    /// The first touch (see [`Solid::first_touch`]) of any triangle of `mesh` (this solid's)
    /// near `swept`; with `prune`, each triangle is cast only as far as the first touch found
    /// before it ([`up_to`]), which changes nothing but the time it takes.
    fn first_touch_of_triangles(
        &self,
        mesh: &Mesh,
        body: &Rounded,
        pose: &Pose,
        swept: &Aabb,
        motion: DVec3,
        prune: bool,
    ) -> Option<f64> {
        let local = swept.loosened(SWEEP_GAP).transform_by(&self.pose.inverse());
        let center = self.pose.inverse_transform_point(pose.translation);
        let mut first: Option<f64> = None;
        mesh.near(&local, center, |(triangle, faces)| {
            let target = Target::new(&self.pose, &triangle, faces);
            let reach = first.filter(|_| prune).map_or(motion, |f| up_to(motion, f));
            if let Some(distance) = first_touch(body, pose, reach, &target) {
                first = Some(first.map_or(distance, |f| f.min(distance)));
            }
        });
        first
    }
}

/// The part of `motion` (m) a cast needs once something is touched `first` m along it: only
/// a touch no later than that (give or take [`PAST_FIRST`] of the motion) changes the answer,
/// and a shorter cast ends sooner (the conservative advancement stops where the rest of the
/// motion cannot reach a solid). The whole motion when `first` is not shorter.
pub(crate) fn up_to(motion: DVec3, first: f64) -> DVec3 {
    let part = first / motion.length() + PAST_FIRST;
    if part < 1.0 { motion * part } else { motion }
}

/// How much further than the first touch found (a fraction of the motion) [`up_to`] casts, so
/// that a touch at the same place, found again with other rounding, is still found.
const PAST_FIRST: f64 = 1e-9;

/// The planes that bound a mesh's triangle, in the mesh's frame (none for a sliver): the faces
/// the closed forms of a segment and a cylinder look for their nearest points on.
fn triangle_faces(triangle: &Triangle) -> Option<[Face; 5]> {
    Face::of_triangle(triangle.a, triangle.b, triangle.c)
}

/// Which of a mesh's contacts [`Solid::contacts`] gives.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum MeshContacts {
    /// Those Godot's Jolt keeps after its internal edge removal (see `internal_edges`): what
    /// a query answers.
    Kept,
    /// Every triangle's: what may come to be kept as the body moves (the removal of one
    /// contact depends on the others found with it).
    All,
}

/// A contact between the body's shape and a solid, in world space.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct Touch {
    /// Unit normal from the body toward the solid.
    pub(crate) normal: DVec3,
    /// Signed distance, m (negative when they overlap).
    pub(crate) dist: f64,
    /// Contact point on the solid, m.
    pub(crate) point: DVec3,
    /// The normal and distance are exact: the cores are further apart than
    /// [`TOUCH_DISTANCE`], where the closest points, and so the normal, are well defined.
    pub(crate) exact: bool,
    /// The nearest points are a closed form's (exact to the last bits), not GJK's.
    pub(crate) closed: bool,
}

/// A contact with the inside of a solid's face (see [`Solid::on_face`]), m.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct OnFaceRoom {
    /// How far the body may move along the face and stay over its inside.
    pub(crate) room: f64,
    /// How far apart the cores of the body and the solid are.
    pub(crate) cores_apart: f64,
}

/// A convex shape the body is queried against: a solid or one triangle of a mesh, as a core
/// grown by a radius (0 unless the solid is rounded).
struct Target<'a> {
    pose: &'a Pose,
    /// The core: the whole shape, or the inner shape of a rounded solid.
    shape: &'a dyn Shape,
    /// The faces of the core when it is a flat-faced hull or a triangle, in its frame; empty
    /// otherwise.
    faces: &'a [Face],
    /// The edges of the core when it is a flat-faced hull; empty otherwise (a triangle's are
    /// its corners').
    edges: &'a [Edge],
    /// Convex radius the core is grown by, m.
    radius: f64,
    /// The sharp shape (the core itself when the radius is 0): what Jolt's EPA queries when
    /// the cores overlap.
    whole: &'a dyn Shape,
}

impl<'a> Target<'a> {
    /// A sharp target.
    fn new(pose: &'a Pose, shape: &'a dyn Shape, faces: &'a [Face]) -> Self {
        Self {
            pose,
            shape,
            faces,
            edges: &[],
            radius: 0.0,
            whole: shape,
        }
    }

    /// The points of the core when it is a hull, in its frame, m.
    fn hull_corners(&self) -> Option<&'a [DVec3]> {
        Some(self.shape.as_convex_polyhedron()?.points())
    }
}

/// A convex shape as a core grown by a radius: a capsule is its segment grown by its radius
/// (as Jolt's convex radius), any other shape is itself grown by 0. Distances between a
/// segment and a polytope are exact (in closed form against a box or a hull's face, by GJK in
/// a few steps otherwise), and while the cores are apart the normal is exact even when the
/// rounded shapes overlap. A rounded target is its core grown by its radius in the same way:
/// both radii come off the distance between the cores.
#[derive(Clone)]
pub(crate) struct Rounded {
    core: SharedShape,
    /// The core when it is a segment, whose distance to a box or a face has a closed form.
    segment: Option<Segment>,
    /// The shape when it is a cylinder, whose distance to an upright box or over a face has a
    /// closed form.
    cylinder: Option<Cylinder>,
    radius: f64,
}

impl Rounded {
    /// The core and radius of `shape`.
    pub(crate) fn new(shape: &SharedShape) -> Self {
        match shape.as_capsule() {
            Some(capsule) => Self {
                core: SharedShape::new(capsule.segment),
                segment: Some(capsule.segment),
                cylinder: None,
                radius: capsule.radius,
            },
            None => Self {
                core: shape.clone(),
                segment: None,
                cylinder: shape.as_cylinder().copied(),
                radius: 0.0,
            },
        }
    }

    /// The core and radius of a character's `shape` whose `Shape3D.margin` is `margin` (m):
    /// Jolt rounds a cylinder's rims and a box's edges by a convex radius of at most the
    /// margin (see [`margin::rounded_box`]), keeping their size; a capsule is its segment
    /// grown by its radius whatever the margin.
    pub(crate) fn character(shape: &SharedShape, margin: f32) -> Self {
        let rounding = if let Some(cylinder) = shape.as_cylinder() {
            margin::rounded_cylinder(cylinder.half_height, cylinder.radius, margin)
        } else if let Some(cuboid) = shape.as_cuboid() {
            margin::rounded_box(cuboid.half_extents, margin)
        } else {
            None
        };
        match rounding {
            Some(rounding) => Self {
                cylinder: rounding.core.as_cylinder().copied(),
                core: rounding.core,
                segment: None,
                radius: f64::from(rounding.radius),
            },
            None => Self::new(shape),
        }
    }

    /// The contact of the rounded shape at `pose` with `target` closer than `prediction` (m).
    fn contact(&self, pose: &Pose, target: &Target, prediction: f64) -> Option<Touch> {
        let closed = match (&self.segment, &self.cylinder) {
            (Some(segment), _) => self.segment_contact(segment, pose, target, prediction),
            (None, Some(cylinder)) => {
                cylinder_contact(cylinder, self.radius, pose, target, prediction)
            }
            (None, None) => Closed::Unknown,
        };
        match closed {
            Closed::Touch(touch) => return (touch.dist <= prediction).then_some(touch),
            Closed::Beyond => return None,
            Closed::Unknown => {}
        }
        let core: &dyn Shape = self.core.as_ref();
        let radii = self.radius + target.radius;
        let c =
            query::contact(pose, core, target.pose, target.shape, prediction + radii).ok()??;
        if target.radius > 0.0 && c.dist <= TOUCH_DISTANCE {
            // The cores touch or overlap: the body is at least R + r deep. Jolt's EPA then
            // measures the whole shapes, the solid sharp; the depth is the same where the
            // cores just touch (a point of the core is r inside the sharp solid's nearest face).
            let c = query::contact(
                pose,
                core,
                target.pose,
                target.whole,
                prediction + self.radius,
            )
            .ok()??;
            return Some(Touch {
                normal: c.normal1,
                dist: c.dist - self.radius,
                point: c.point2,
                exact: false,
                closed: false,
            });
        }
        Some(Touch {
            normal: c.normal1,
            dist: c.dist - radii,
            // On the rounded surface, toward the body.
            point: c.point2 - c.normal1 * target.radius,
            exact: c.dist > TOUCH_DISTANCE,
            closed: false,
        })
    }

    /// The contact of the segment core in closed form, when there is one (against a box, a
    /// capsule, or a face, an edge or a corner of a hull or a triangle) and the segment is
    /// further from the target than [`TOUCH_DISTANCE`]; [`Closed::Beyond`] when a face's plane
    /// has it further than `prediction` (m) from the target.
    fn segment_contact(
        &self,
        segment: &Segment,
        pose: &Pose,
        target: &Target,
        prediction: f64,
    ) -> Closed {
        let a = target
            .pose
            .inverse_transform_point(pose.transform_point(segment.a));
        let b = target
            .pose
            .inverse_transform_point(pose.transform_point(segment.b));
        if let Some(cuboid) = target.shape.as_cuboid() {
            let nearest = segment::nearest_to_box(a, b, cuboid.half_extents);
            Closed::of_nearest(Some(nearest), target, self.radius)
        } else if let Some(capsule) = target.shape.as_capsule() {
            let nearest = segment::nearest_to_capsule(a, b, capsule);
            Closed::of_nearest(nearest, target, self.radius)
        } else {
            let on_face = segment::nearest_on_face(a, b, target.faces);
            Closed::face_or_edges(on_face, target, self.radius, prediction, || {
                if let Some(corners) = triangle_corners(target) {
                    return segment::nearest_to_edges(a, b, &corners, &segment::TRIANGLE_EDGES);
                }
                let reach = |normal: DVec3| normal.dot(a).max(normal.dot(b));
                let (facing, count) = hull::edges_facing(target.faces, target.edges, reach)?;
                segment::nearest_to_edges(a, b, target.hull_corners()?, &facing[..count])
            })
        }
    }
}

/// What a closed form found between the body and a target.
enum Closed {
    /// Their contact, exact.
    Touch(Touch),
    /// They are further apart than the distance asked about.
    Beyond,
    /// No closed form applies: GJK decides.
    Unknown,
}

impl Closed {
    /// The contact of a body whose core is grown by `body_radius` (m) with `target` from the
    /// nearest points `(on the core, on the target's core)` (in the target's frame, m):
    /// [`Closed::Unknown`] without them, or when the cores are within [`TOUCH_DISTANCE`] (the
    /// direction between the points says nothing there).
    fn of_nearest(nearest: Option<(DVec3, DVec3)>, target: &Target, body_radius: f64) -> Self {
        let Some((on_body, on_target)) = nearest else {
            return Self::Unknown;
        };
        let distance = on_body.distance(on_target);
        if distance <= TOUCH_DISTANCE {
            return Self::Unknown;
        }
        let normal = (on_target - on_body) / distance;
        Self::Touch(Touch {
            normal: target.pose.rotation * normal,
            dist: distance - body_radius - target.radius,
            // On the rounded surface, toward the body.
            point: target
                .pose
                .transform_point(on_target - normal * target.radius),
            exact: true,
            closed: true,
        })
    }

    /// The contact from a face test (`on_face`); when it found no face, [`Closed::Beyond`] if
    /// its plane already has the body further than `prediction` (m) from `target`, else the
    /// contact from the nearest points `edges` finds.
    fn face_or_edges(
        on_face: OnFace,
        target: &Target,
        body_radius: f64,
        prediction: f64,
        edges: impl FnOnce() -> Option<(DVec3, DVec3)>,
    ) -> Self {
        let nearest = match on_face {
            Ok(nearest) => Some(nearest),
            Err(gap) if gap - body_radius - target.radius > prediction => return Self::Beyond,
            Err(_) => edges(),
        };
        Self::of_nearest(nearest, target, body_radius)
    }
}

/// The contact of a cylinder core at `pose` grown by `body_radius` (m) with `target` in closed
/// form, when there is one (an upright box, turned about the cylinder's axis only; a face, an
/// edge or a corner of a box, a hull or a triangle) and the core is further from the target
/// than [`TOUCH_DISTANCE`]; [`Closed::Beyond`] when a face's plane has it further than
/// `prediction` (m) from the target.
fn cylinder_contact(
    cylinder: &Cylinder,
    body_radius: f64,
    pose: &Pose,
    target: &Target,
    prediction: f64,
) -> Closed {
    let center = target.pose.inverse_transform_point(pose.translation);
    let axis = target.pose.rotation.inverse() * (pose.rotation * DVec3::Y);
    let (half_height, radius) = (cylinder.half_height, cylinder.radius);
    let edges = |corners: &[DVec3], edges: &[[usize; 2]]| {
        cylinder::nearest_to_edges(center, axis, half_height, radius, corners, edges)
    };
    match target.shape.as_cuboid() {
        Some(cuboid) if axis.x == 0.0 && axis.z == 0.0 => {
            let half = cuboid.half_extents;
            let nearest = cylinder::nearest_to_upright_box(center, half_height, radius, half);
            Closed::of_nearest(nearest, target, body_radius)
        }
        Some(cuboid) => {
            let half = cuboid.half_extents;
            let faces = cylinder::box_faces(half);
            let on_face = cylinder::nearest_on_face(center, axis, half_height, radius, &faces);
            Closed::face_or_edges(on_face, target, body_radius, prediction, || {
                let (facing, count) =
                    cylinder::box_edges_facing(center, axis, half_height, radius, half);
                edges(&cylinder::box_corners(half), &facing[..count])
            })
        }
        None => {
            let faces = target.faces;
            let on_face = cylinder::nearest_on_face(center, axis, half_height, radius, faces);
            Closed::face_or_edges(on_face, target, body_radius, prediction, || {
                if let Some(corners) = triangle_corners(target) {
                    return edges(&corners, &segment::TRIANGLE_EDGES);
                }
                let reach = |normal: DVec3| {
                    let farthest = cylinder::farthest(center, axis, half_height, radius, normal);
                    normal.dot(farthest)
                };
                let (facing, count) = hull::edges_facing(target.faces, target.edges, reach)?;
                edges(target.hull_corners()?, &facing[..count])
            })
        }
    }
}

/// The corners of the target's core when it is a triangle (a mesh's), in its frame, m.
fn triangle_corners(target: &Target) -> Option<[DVec3; 3]> {
    let triangle = target.shape.as_triangle()?;
    Some([triangle.a, triangle.b, triangle.c])
}

/// Most steps of the conservative advancement before [`advance`] falls back on parry's cast.
const ADVANCE_STEPS: usize = 16;
/// The advancement stops this close (m) to the distance it aims for.
const ADVANCE_TOLERANCE: f64 = 1e-9;
/// How far from a solid (m) the advancement of [`first_touch`] stops before it steps onto the
/// touch: there the distance queries and their normals are exact (see [`Touch::exact`]).
const SWEEP_GAP: f64 = 1e-4;
/// Most Newton steps of [`first_touch`] from [`SWEEP_GAP`] onto the touch (a face takes one).
const TOUCH_STEPS: usize = 8;

/// Where [`advance`] stopped.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Advance {
    /// The body came within the gap after this distance (m along the motion), with the
    /// contact there when known.
    Reached { distance: f64, touch: Option<Touch> },
    /// The body starts within the gap already: the contact at the start.
    Within(Touch),
}

/// Distance (m) the rounded `body` travels along `motion` (not zero) before it comes within
/// `gap` of `target`; `None` when it never does within the motion.
///
/// The cast is a conservative advancement on the cores, whose distance queries are exact:
/// distance along a straight motion is convex, so a step of (distance - gap) / approach speed
/// never passes the first touch, and a body that does not approach never will. A face is
/// reached in one step; an edge or a corner in a few. Should it take too many, parry's cast
/// (a ray cast on the Minkowski difference) decides.
fn advance(
    body: &Rounded,
    pose: &Pose,
    motion: DVec3,
    target: &Target,
    gap: f64,
) -> Option<Advance> {
    let length = motion.length();
    let at = |time: f64| Pose::from_parts(pose.translation + motion * time, pose.rotation);
    let mut time = 0.0;
    for _ in 0..ADVANCE_STEPS {
        // Farther than the rest of the motion (plus the gap) cannot be reached.
        let touch = body.contact(&at(time), target, gap + (1.0 - time) * length)?;
        if time == 0.0 && touch.dist < gap {
            return Some(Advance::Within(touch));
        }
        let rest = touch.dist - gap;
        if rest <= ADVANCE_TOLERANCE {
            return Some(Advance::Reached {
                distance: time * length,
                touch: Some(touch),
            });
        }
        let approach = motion.dot(touch.normal);
        if approach <= 0.0 {
            return None;
        }
        time += rest / approach;
        if time > 1.0 {
            return None;
        }
    }
    let core: &dyn Shape = body.core.as_ref();
    let options = ShapeCastOptions {
        max_time_of_impact: 1.0,
        target_distance: gap + body.radius + target.radius,
        stop_at_penetration: true,
        compute_impact_geometry_on_penetration: false,
    };
    let (other_pose, other) = (target.pose, target.shape);
    let hit =
        query::cast_shapes(pose, motion, core, other_pose, DVec3::ZERO, other, options).ok()??;
    Some(Advance::Reached {
        distance: hit.time_of_impact * length,
        touch: None,
    })
}

/// Distance (m along `motion`) the rounded `body` travels from `pose` before it first touches
/// `target` (distance 0): what Jolt's swept "collides" test of a motion's fraction turns on
/// (the shape swept from the start to the fraction touches or overlaps the target exactly when
/// the fraction reaches this distance). 0 when the body starts touching or overlapping it
/// (whatever the motion, as the swept shape then always touches it); `None` when the motion
/// ends before the touch, or never approaches. A motion of length 0 touches only from a touch
/// or an overlap.
///
/// The conservative advancement ([`advance`]) stops [`SWEEP_GAP`] short, where the contact is
/// exact; Newton steps along the motion (distance / approach speed, which never pass the touch
/// as the distance is convex along the motion) then reach it, until a step is under 1 nm: one
/// step for a face, a few for an edge or a corner.
fn first_touch(body: &Rounded, pose: &Pose, motion: DVec3, target: &Target) -> Option<f64> {
    let found = exact_first_touch(body, pose, motion, target);
    if found.is_some() {
        return found;
    }
    // A motion that ends inside the target touched it on the way, whatever the steps above
    // concluded from a contact whose nearest feature changed on the way (seen: a cylinder
    // crossing the side edge of a wedge's slope, which Jolt stops at): cast for the touch.
    let end = Pose::from_parts(pose.translation + motion, pose.rotation);
    let inside = body
        .contact(&end, target, 0.0)
        .is_some_and(|c| c.dist < 0.0);
    if !inside {
        return None;
    }
    let options = ShapeCastOptions {
        max_time_of_impact: 1.0,
        target_distance: body.radius + target.radius,
        stop_at_penetration: true,
        compute_impact_geometry_on_penetration: false,
    };
    let core: &dyn Shape = body.core.as_ref();
    let hit = query::cast_shapes(
        pose,
        motion,
        core,
        target.pose,
        DVec3::ZERO,
        target.shape,
        options,
    )
    .ok()??;
    Some(hit.time_of_impact * motion.length())
}

/// [`first_touch`] by conservative advancement and Newton steps on exact distances.
fn exact_first_touch(body: &Rounded, pose: &Pose, motion: DVec3, target: &Target) -> Option<f64> {
    let length = motion.length();
    if !length.is_finite() {
        return None;
    }
    if length <= 0.0 {
        let start = body.contact(pose, target, 0.0)?;
        return (start.dist <= 0.0 || !start.exact).then_some(0.0);
    }
    let direction = motion / length;
    let at =
        |distance: f64| Pose::from_parts(pose.translation + direction * distance, pose.rotation);
    let (mut distance, mut touch) = match advance(body, pose, motion, target, SWEEP_GAP)? {
        Advance::Within(touch) => (0.0, touch),
        Advance::Reached {
            distance,
            touch: Some(touch),
        } => (distance, touch),
        Advance::Reached {
            distance,
            touch: None,
        } => match body.contact(&at(distance), target, 2.0 * SWEEP_GAP) {
            Some(touch) => (distance, touch),
            None => return Some(distance),
        },
    };
    for _ in 0..TOUCH_STEPS {
        // A contact whose cores touch (an overlap, or a touch of sharp shapes) counts as
        // touching: its normal cannot be trusted for another step.
        if touch.dist <= 0.0 || !touch.exact {
            return Some(distance);
        }
        let approach = direction.dot(touch.normal);
        if approach <= 0.0 {
            // Never closer along the motion: the distance is convex.
            return None;
        }
        let step = touch.dist / approach;
        distance += step;
        if distance > length {
            return None;
        }
        if step <= ADVANCE_TOLERANCE {
            return Some(distance);
        }
        // Farther than before: the motion passed the nearest point without touching (with a
        // touch ahead, the distance only decreases until it).
        touch = body.contact(&at(distance), target, touch.dist)?;
    }
    Some(distance)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::segment::tests::{Numbers, assert_within_gjks_roughness};
    use parry3d_f64::query::PointQuery;
    use parry3d_f64::shape::{Capsule, Cuboid, RoundShape};

    /// Convex solids of every kind around the origin: a rotated box, a wedge, a rotated
    /// irregular hull, a triangle.
    fn solids() -> Vec<Solid> {
        let hull = |points: &[DVec3], pose: Pose| {
            let shape = SharedShape::convex_hull(points).expect("a hull");
            let primitive = Primitive::Hull { points: Vec::new() };
            let solid = Solid::convex(shape, pose, primitive);
            // Flat faces: the closed form applies.
            assert!(matches!(&solid.kind, SolidKind::Convex(c) if !c.sides.faces.is_empty()));
            solid
        };
        let irregular = [
            DVec3::new(-0.7, -0.2, 0.1),
            DVec3::new(0.9, -0.3, -0.2),
            DVec3::new(0.2, -0.4, 0.8),
            DVec3::new(0.1, 0.6, 0.2),
            DVec3::new(-0.3, 0.4, -0.7),
            DVec3::new(0.6, 0.3, 0.5),
            DVec3::new(-0.5, 0.1, 0.6),
        ];
        let turned = |x, y, z| glam::DQuat::from_euler(glam::EulerRot::YXZ, x, y, z);
        let cuboid = SharedShape::new(Cuboid::new(DVec3::new(1.0, 0.3, 0.7)));
        let triangle = SharedShape::triangle(
            DVec3::new(-1.0, 0.0, -1.0),
            DVec3::new(1.0, 0.2, -1.0),
            DVec3::new(0.0, -0.1, 1.0),
        );
        let pose = |x, y, z, turn| Pose::from_parts(DVec3::new(x, y, z), turn);
        let primitive = || Primitive::Hull { points: Vec::new() };
        vec![
            Solid::convex(
                cuboid,
                pose(0.1, -0.3, 0.2, turned(0.4, 0.2, -0.1)),
                primitive(),
            ),
            hull(&crate::hull::tests::WEDGE, Pose::IDENTITY),
            hull(&irregular, pose(0.3, 0.2, -0.4, turned(-0.7, 0.5, 0.3))),
            Solid::convex(triangle, Pose::IDENTITY, primitive()),
        ]
    }

    /// The same solids rounded with a margin (the box's radius clamped by the fraction, the
    /// hulls' by Jolt's limits), and the same box at the origin with a radius of 0.04 m.
    fn rounded_solids() -> Vec<Solid> {
        let rounded: Vec<Solid> = solids()
            .into_iter()
            .filter(|solid| solid.convex_radius_of_kind_applies())
            .map(|solid| solid.with_margin(0.06).expect("a valid margin"))
            .chain([
                crate::geometry::aabb_box(glam::Vec3::ZERO, glam::Vec3::new(2.0, 1.0, 1.4))
                    .unwrap()
                    .with_margin(0.04)
                    .unwrap(),
            ])
            .collect();
        for solid in &rounded {
            assert!(solid.convex_radius() > 0.0, "{:?}", solid.primitive());
            // The cores of hulls have flat faces: the closed form applies to them too.
            if let SolidKind::Convex(Convex {
                rounded: Some(core),
                ..
            }) = &solid.kind
                && core.shape.as_convex_polyhedron().is_some()
            {
                assert!(!core.sides.faces.is_empty());
            }
        }
        rounded
    }

    impl Solid {
        /// True for the kinds Jolt rounds (a box, a hull).
        fn convex_radius_of_kind_applies(&self) -> bool {
            matches!(&self.kind, SolidKind::Convex(c)
                if c.shape.as_cuboid().is_some() || c.shape.as_convex_polyhedron().is_some())
        }
    }

    impl Solid {
        /// [`Solid::first_touch`] with every triangle of a mesh cast over the whole motion:
        /// what the mesh's cast must find though it casts a triangle only as far as the
        /// first touch found before it.
        pub(crate) fn first_touch_of_every_part(
            &self,
            body: &Rounded,
            pose: &Pose,
            swept: &Aabb,
            motion: DVec3,
        ) -> Option<f64> {
            match &self.kind {
                SolidKind::Mesh(mesh) => {
                    self.first_touch_of_triangles(mesh, body, pose, swept, motion, false)
                }
                SolidKind::Convex(_) => self.first_touch(body, pose, swept, motion),
            }
        }
    }

    /// The solid as a target of queries.
    fn target(solid: &Solid) -> Target<'_> {
        match &solid.kind {
            SolidKind::Convex(convex) => convex.target(&solid.pose),
            SolidKind::Mesh(_) => unreachable!("convex solids only"),
        }
    }

    /// The solid as one parry shape: the sharp shape, or parry's rounded shape (its core grown
    /// by the radius), which parry queries by GJK on the rounded shape.
    fn parry_shape(solid: &Solid) -> SharedShape {
        let SolidKind::Convex(convex) = &solid.kind else {
            unreachable!("convex solids only")
        };
        let Some(core) = &convex.rounded else {
            return convex.shape.clone();
        };
        if let Some(cuboid) = core.shape.as_cuboid() {
            let h = cuboid.half_extents;
            return SharedShape::round_cuboid(h.x, h.y, h.z, core.radius);
        }
        let hull = core.shape.as_convex_polyhedron().expect("a box or a hull");
        SharedShape::new(RoundShape {
            inner_shape: hull.clone(),
            border_radius: core.radius,
        })
    }

    /// The cast as parry runs it on the capsule itself (as the world did before it cast the
    /// cores), which [`advance`] and [`first_touch`] must agree with.
    fn parry_sweep(
        capsule: &Capsule,
        pose: &Pose,
        motion: DVec3,
        other_pose: &Pose,
        other: &dyn Shape,
        gap: f64,
    ) -> Option<f64> {
        let options = ShapeCastOptions {
            max_time_of_impact: 1.0,
            target_distance: gap,
            stop_at_penetration: true,
            compute_impact_geometry_on_penetration: false,
        };
        let hit = query::cast_shapes(
            pose,
            motion,
            capsule,
            other_pose,
            DVec3::ZERO,
            other,
            options,
        )
        .ok()??;
        Some(hit.time_of_impact * motion.length())
    }

    /// Compares the capsule's contacts with `solids` to exact references (see the tests).
    fn check_contacts(solids: &[Solid], seed: u64) {
        let capsule = Capsule::new_y(0.5, 0.4);
        let body = Rounded::new(&SharedShape::new(capsule));
        let mut numbers = Numbers(seed);
        let mut compared = 0;
        for _ in 0..20_000 {
            let pose = Pose::from_translation(numbers.vector(2.0));
            for solid in solids {
                let target = target(solid);
                let (core_pose, core, radius) = (*target.pose, target.shape, target.radius);
                let whole = parry_shape(solid);
                let Some(touch) = body.contact(&pose, &target, 0.05) else {
                    continue;
                };
                let exact = query::contact(&pose, &capsule, &core_pose, whole.as_ref(), 0.05)
                    .unwrap()
                    .expect("the capsule is as close as its core");
                if touch.exact && exact.dist > 1e-6 {
                    compared += 1;
                    // The point is on the (rounded) solid, its radius from the core's point
                    // nearest to the capsule's core along the normal. (Not always parry's
                    // point: a side parallel to a face has many.)
                    let on_core = touch.point + touch.normal * radius;
                    let projected = core.project_point(&core_pose, on_core, false);
                    assert!(projected.point.distance(on_core) < 1e-9, "{touch:?}");
                    let segment = capsule.segment.transformed(&pose);
                    let on_segment = segment.project_point(&Pose::IDENTITY, on_core, true).point;
                    let between = on_core - on_segment;
                    assert!((between.length() - capsule.radius - radius - touch.dist).abs() < 1e-9);
                    assert!(
                        touch.normal.distance(between.normalize()) < 1e-9,
                        "{touch:?}"
                    );
                    // The distance is the least over the segment's points (a convex function
                    // of the point's place along it: a ternary search finds it).
                    let along = |t: f64| {
                        let point = segment.a + (segment.b - segment.a) * t;
                        core.distance_to_point(&core_pose, point, true)
                    };
                    let (mut low, mut high) = (0.0, 1.0);
                    for _ in 0..200 {
                        let (a, b) = (low + (high - low) / 3.0, high - (high - low) / 3.0);
                        if along(a) < along(b) {
                            high = b;
                        } else {
                            low = a;
                        }
                    }
                    let least = along(0.5 * (low + high)) - capsule.radius - radius;
                    assert!((least - touch.dist).abs() < 1e-9, "{touch:?}: {least}");
                    // GJK on the capsule itself (a rounded shape) against the solid (rounded
                    // or not) stops early near a vertex or an edge: up to several micrometres
                    // further, its normal a little off.
                    let above = exact.dist - touch.dist;
                    assert!((-1e-12..1e-4).contains(&above), "{touch:?} {exact:?}");
                    assert!(
                        touch.normal.distance(exact.normal1) < 1e-2,
                        "{touch:?} {exact:?}"
                    );
                }
            }
        }
        assert!(compared > 1000, "only {compared} contacts compared");
    }

    #[test]
    fn contacts_of_the_core_are_those_of_the_capsule() {
        check_contacts(&solids(), 0x2545_f491_4f6c_dd1d);
    }

    #[test]
    fn contacts_with_rounded_solids_are_those_of_the_cores() {
        check_contacts(&rounded_solids(), 0x2545_f491_4f6c_dd1d);
    }

    /// Compares the capsule's casts against `solids` to parry's: the advancement to a gap, and
    /// the first touch (see the tests).
    fn check_sweeps(solids: &[Solid], seed: u64) {
        let capsule = Capsule::new_y(0.5, 0.4);
        let body = Rounded::new(&SharedShape::new(capsule));
        let gap = 1e-4;
        let mut numbers = Numbers(seed);
        let (mut hits, mut misses, mut touches, mut overlaps) = (0, 0, 0, 0);
        for round in 0..20_000 {
            let pose = Pose::from_translation(numbers.vector(2.0));
            let motion = numbers.vector(if round % 2 == 0 { 0.1 } else { 2.0 });
            let length = motion.length();
            let at = |distance: f64| {
                Pose::from_translation(pose.translation + motion * (distance / length))
            };
            for solid in solids {
                let target = target(solid);
                let other_pose = *target.pose;
                let whole = parry_shape(solid);
                let other = whole.as_ref();
                let touch = first_touch(&body, &pose, motion, &target);
                let start = query::contact(&pose, &capsule, &other_pose, other, gap + 1e-6);
                if let Some(start) = start.unwrap() {
                    // A start in an overlap touches at once, whatever the motion (the swept
                    // shape always overlaps). From within the gap, the touch found is one.
                    if start.dist < -1e-6 {
                        overlaps += 1;
                        assert_eq!(touch, Some(0.0), "{pose:?} {motion}");
                    } else if let Some(a) = touch.filter(|_| start.dist > 1e-6) {
                        let contact = body.contact(&at(a), &target, 1.0).unwrap();
                        assert!(contact.dist.abs() <= 2.0 * ADVANCE_TOLERANCE, "{contact:?}");
                    }
                    continue;
                }
                let ours = match advance(&body, &pose, motion, &target, gap) {
                    Some(Advance::Reached { distance, .. }) => Some(distance),
                    Some(Advance::Within(start)) => panic!("within the gap: {start:?}"),
                    None => None,
                };
                let theirs = parry_sweep(&capsule, &pose, motion, &other_pose, other, gap);
                match (ours, theirs) {
                    (Some(a), Some(b)) => {
                        hits += 1;
                        // Parry's ray cast on the rounded Minkowski difference stops up to about
                        // 1e-7 m of distance short of the gap (1e-6 m along a grazing motion).
                        assert!((a - b).abs() < 1e-5, "{pose:?} {motion}: {a} vs {b}");
                        // The advancement stops at the gap, never inside it.
                        let touch = body.contact(&at(a), &target, 1.0).unwrap();
                        assert!(
                            touch.dist >= gap - 1e-12
                                && touch.dist <= gap + 2.0 * ADVANCE_TOLERANCE,
                            "{touch:?}"
                        );
                    }
                    (None, None) => misses += 1,
                    // Grazing casts may end on either side of the motion's end.
                    (Some(a), None) | (None, Some(a)) => {
                        assert!(
                            (a - length).abs() < 1e-7,
                            "{pose:?} {motion}: {ours:?} vs {theirs:?}"
                        );
                    }
                }
                // The first touch: within 2 nm of distance 0 there, the shapes apart a
                // micrometre before it, and never before the gap. Parry's cast to distance 0,
                // when it finds the touch, is less exact: measured up to 11 um short of it along
                // a grazing motion, and 3.2 um past it (3.2 um deep by parry's own contact).
                let theirs = parry_sweep(&capsule, &pose, motion, &other_pose, other, 0.0);
                match touch {
                    Some(a) => {
                        touches += 1;
                        assert!(ours.is_some_and(|gap_at| gap_at <= a), "{ours:?} {a}");
                        let contact = body.contact(&at(a), &target, 1.0).unwrap();
                        assert!(contact.dist.abs() <= 2.0 * ADVANCE_TOLERANCE, "{contact:?}");
                        let before = body.contact(&at(a - 1e-6), &target, 1.0).unwrap();
                        assert!(before.dist > 0.0, "{before:?}");
                        if let Some(b) = theirs {
                            assert!((a - b).abs() < 1e-4, "{pose:?} {motion}: {a} {b}");
                        }
                    }
                    // Parry may graze the end of the motion.
                    None => assert!(
                        theirs.is_none_or(|b| (b - length).abs() < 1e-6),
                        "{pose:?} {motion}: {theirs:?}"
                    ),
                }
            }
        }
        assert!(hits > 1000 && misses > 1000, "{hits} hits, {misses} misses");
        assert!(
            touches > 1000 && overlaps > 100,
            "{touches} touches, {overlaps} overlaps"
        );
    }

    #[test]
    fn a_meshs_triangle_counts_only_for_a_body_whose_centre_is_in_front_of_it() {
        // A plank as one face of a mesh, 1 m up and facing up, and a capsule (1.8 m tall)
        // whose head is through it: Jolt ignores the face while the centre is below it.
        let corners = [(-2.0, -1.0), (2.0, -1.0), (2.0, 1.0), (-2.0, 1.0)];
        let vertices = corners.map(|(x, z)| glam::Vec3::new(x, 0.0, z)).to_vec();
        let offset = glam::Vec3::Y;
        let plank = crate::geometry::mesh(vertices, vec![[0, 2, 1], [0, 3, 2]], offset).unwrap();
        let shape = SharedShape::capsule_y(0.5, 0.4);
        let body = Rounded::new(&shape);
        let at = |y: f64| Pose::from_translation(DVec3::new(0.0, y, 0.0));
        let touches = |y: f64| {
            let pose = at(y);
            let mut found = Vec::new();
            plank.contacts(
                &body,
                &pose,
                &shape.compute_aabb(&pose),
                (0.0, MeshContacts::Kept),
                &mut |t| found.push(t),
            );
            found
        };
        assert!(touches(0.95).is_empty(), "centre below the face");
        // The centre above it, the feet 5 cm below it: held up by the face.
        let held = touches(1.85);
        assert!(!held.is_empty(), "centre above the face");
        assert!(
            held.iter()
                .all(|t| t.normal.abs_diff_eq(DVec3::NEG_Y, 1e-9))
        );
        // The cast: up from below, nothing; down from above, the face.
        let cast = |from: f64, motion: DVec3| {
            let pose = at(from);
            let swept = shape.compute_swept_aabb(&pose, &at(from + motion.y));
            plank.first_touch(&body, &pose, &swept, motion)
        };
        assert_eq!(cast(0.5, DVec3::Y), None);
        let down = cast(2.5, DVec3::NEG_Y).expect("the face");
        assert!((down - 0.6).abs() < 1e-6, "{down}");
    }

    #[test]
    fn the_advancement_stops_where_the_cast_of_the_capsule_does() {
        check_sweeps(&solids(), 0x9e37_79b9_7f4a_7c15);
    }

    #[test]
    fn the_advancement_stops_where_the_cast_on_rounded_solids_does() {
        check_sweeps(&rounded_solids(), 0x9e37_79b9_7f4a_7c15);
    }

    #[test]
    fn a_rounded_box_is_its_core_grown_by_the_radius() {
        use glam::Vec3;
        let sharp = crate::geometry::aabb_box(Vec3::ZERO, Vec3::new(2.0, 1.0, 1.4)).unwrap();
        let rounded = sharp.clone().with_margin(0.04).unwrap();
        assert_eq!((rounded.margin(), rounded.convex_radius()), (0.04, 0.04));
        assert_eq!((sharp.margin(), sharp.convex_radius()), (0.0, 0.0));
        // Faces in place; a corner cut: the corner's point nearest the centre of its rounding
        // is r (sqrt 3 - 1) inside the sharp corner.
        let r = 0.04f32;
        assert!(rounded.contains_point(Vec3::new(0.0, 0.499, 0.0)));
        assert!(!rounded.contains_point(Vec3::new(0.0, 0.501, 0.0)));
        let corner = Vec3::new(1.0, 0.5, 0.7);
        let inward = Vec3::new(-1.0, -1.0, -1.0).normalize();
        let cut = r * (3f32.sqrt() - 1.0);
        assert!(sharp.contains_point(corner + inward * 0.001));
        assert!(!rounded.contains_point(corner + inward * (cut - 0.001)));
        assert!(rounded.contains_point(corner + inward * (cut + 0.001)));
        // Bounds are those of the sharp box.
        assert_eq!(rounded.aabb(), sharp.aabb());
        // A mesh keeps its margin and stays sharp.
        let mesh = crate::geometry::mesh(
            vec![Vec3::ZERO, Vec3::X, Vec3::Z],
            vec![[0, 1, 2]],
            Vec3::ZERO,
        )
        .unwrap()
        .with_margin(0.04)
        .unwrap();
        assert_eq!((mesh.margin(), mesh.convex_radius()), (0.04, 0.0));
        // Bad margins are refused with a message.
        let error = sharp.clone().with_margin(-1.0).err().unwrap();
        assert!(error.to_string().contains("margin"), "{error}");
        assert!(sharp.with_margin(f32::NAN).is_err());
    }

    /// A capsule or a tilted cylinder nearest to an edge or a corner of a hull (sharp or
    /// rounded) gets its contact in closed form, from the edges of the faces it reaches past
    /// (`hull::edges_facing`), and as GJK measures it.
    #[test]
    fn a_hulls_edge_nearest_to_a_body_is_found_in_closed_form_as_gjk_measures_it() {
        let bodies = [
            SharedShape::capsule_y(0.5, 0.4),
            SharedShape::cylinder(0.9, 0.4),
        ];
        let hulls: Vec<Solid> = solids()
            .into_iter()
            .chain(rounded_solids())
            .filter(|solid| target(solid).hull_corners().is_some())
            .collect();
        assert_eq!(hulls.len(), 4);
        let mut numbers = Numbers(0x9b05_688c_2b3e_6c1f);
        let mut on_edges = [0; 2];
        for _ in 0..5_000 {
            let axis = numbers.vector(1.0).try_normalize().unwrap_or(DVec3::Y);
            let turn = glam::DQuat::from_rotation_arc(DVec3::Y, axis);
            let pose = Pose::from_parts(numbers.vector(2.0), turn);
            for (shape, count) in bodies.iter().zip(&mut on_edges) {
                let body = Rounded::new(shape);
                for solid in &hulls {
                    let target = target(solid);
                    let Some(touch) = body.contact(&pose, &target, 0.5) else {
                        continue;
                    };
                    let on_core = target
                        .pose
                        .inverse_transform_point(touch.point + touch.normal * target.radius);
                    let corners = target.hull_corners().expect("a hull");
                    let on_edge = target.edges.iter().any(|edge| {
                        let [from, to] = edge.ends.map(|end| corners[end]);
                        Segment::new(from, to).distance_to_local_point(on_core, true) < 1e-9
                    });
                    // Overlapping the core, GJK hands over to EPA, which measures depth.
                    let apart = touch.dist + target.radius;
                    if !touch.closed || !on_edge || apart < 1e-6 {
                        continue;
                    }
                    let gjk = query::contact(&pose, shape.as_ref(), target.pose, target.shape, 2.0)
                        .expect("supported pair")
                        .expect("within 2 m");
                    let what = format!("{pose:?} {:?}", solid.primitive());
                    assert_within_gjks_roughness(apart, gjk.dist, &what);
                    *count += 1;
                }
            }
        }
        assert!(on_edges.iter().all(|&n| n > 1_000), "{on_edges:?}");
    }
}
