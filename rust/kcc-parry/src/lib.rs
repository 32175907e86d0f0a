//! # kcc-parry: a headless world for the kcc controller
//!
//! Static solids (boxes, convex hulls, triangle meshes) and a character body ([`ParryBody`])
//! that implements [`kcc::KinematicBody`] with the semantics of Godot's `CharacterBody3D`
//! (as Godot 4.4+ runs it on Jolt):
//! - `test_move`: recover out of overlaps within the safe margin (4 passes of 40 %), cast the
//!   shape along the motion, then report contacts at the first touching point; `travel` is the
//!   recovery plus the free part of the motion, `remainder` the motion not made.
//! - `move_and_slide`: grounded mode with `max_slides` iterations, floor/wall/ceiling by angle,
//!   wedge averaging, stop on slope, block on wall, constant speed and floor snap.
//!
//! The body's origin is the bottom of its shape; the shape stands along +Y. Every motion query
//! is counted ([`ParryBody::queries`]) so the cost of a tick can be measured.
//!
//! Solids are sharp unless given a margin: [`Solid::with_margin`] rounds a box or a convex hull
//! as Godot on Jolt rounds a `BoxShape3D` or `ConvexPolygonShape3D` with that `Shape3D.margin`
//! (default 0.04 m in Godot): the faces stay in place and the edges and corners become rounded
//! with the convex radius ([`Solid::convex_radius`], at most the margin and
//! [`COLLISION_MARGIN_FRACTION`] of the smallest half extent). A capsule meeting a step's edge
//! then gets the tilted normal and the distance Jolt gives. Triangle meshes are never rounded.
//!
//! Units: m, s, m/s, rad.

#![warn(missing_docs)]

pub mod body;
pub mod geometry;
mod margin;
mod segment;
pub mod settings;
pub mod shape;
mod slide;
pub mod solid;
pub mod world;

pub use body::{ContactState, ParryBody};
pub use geometry::GeometryError;
pub use margin::COLLISION_MARGIN_FRACTION;
pub use settings::BodySettings;
pub use shape::CharacterShape;
pub use solid::{Primitive, Solid};
pub use world::World;
