//! # kcc-parry: a headless world for the kcc controller
//!
//! Static solids (boxes, convex hulls, triangle meshes) and a character body ([`ParryBody`])
//! that implements [`kcc::KinematicBody`] with the semantics of Godot's `CharacterBody3D`
//! (as Godot 4.4+ runs it on Jolt):
//! - `test_move`: recover out of overlaps within the safe margin (4 passes of 40 %), cast the
//!   shape along the motion by Jolt's binary search over the motion's fraction, then report the
//!   contacts that oppose the motion where the search first touched; `travel` is the recovery
//!   plus the part of the motion known to be free, `remainder` the motion not made.
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
//! then gets the tilted normal and the distance Jolt gives. Triangle meshes are never rounded;
//! their contacts are found per triangle and pass Jolt's internal edge removal, as Godot's Jolt
//! runs its motion queries (a contact with an edge that a neighbouring triangle's face contact
//! already covers is left out: module `internal_edges`).
//!
//! The cast imitates Jolt's rather than stopping at the exact touch, because where a blocked
//! motion stops decides the travel, the contacts' normal and depth, and where the body rests
//! for its next query. Per solid, the fraction of the motion at which the shape first touches
//! it is computed exactly (on exact distances), and Jolt's bisection is run on it
//! ([`world::bisect`], in f32 with Jolt's step count, [`world::bisection_steps`]): the travel
//! stops short of the touch by less than the search's last step (about a millimetre), never
//! past it, and contacts are gathered at the smallest fraction found touching, where the shapes
//! overlap a little, as Jolt gathers them. Replaying the public course's queries in a real
//! Godot 4.6 with Jolt, the collided flags agree, normals within a quarter of a degree, and
//! travel to a micrometre, but where Jolt's f32 geometry puts a fraction tried on the other
//! side of the touch (the travel then differs by one step of the search) or recovers from two
//! solids in another order (see [`world`]). Jolt's quirks come with it: a touch beyond the last
//! fraction tried is missed, and a motion whose one contact kept does not oppose it counts as
//! free.
//!
//! Units: m, s, m/s, rad.

#![warn(missing_docs)]

pub mod body;
mod cylinder;
pub mod geometry;
mod hull;
mod internal_edges;
mod margin;
mod movable;
mod platform;
mod recall;
mod segment;
pub mod settings;
pub mod shape;
mod slide;
pub mod solid;
pub mod world;

pub use body::{BodyPush, ContactState, ParryBody, character_collider};
pub use geometry::GeometryError;
pub use margin::COLLISION_MARGIN_FRACTION;
pub use movable::Movable;
pub use platform::{Platform, PlatformMotion};
pub use settings::BodySettings;
pub use shape::{CHARACTER_SHAPE_MARGIN, CharacterShape};
pub use solid::{Primitive, Solid};
pub use world::World;
