//! The parry world's rigid bodies (`[[rigid_body]]`): a Rapier simulation that steps them
//! between ticks, as Godot's physics step moves its `RigidBody3D`s after a game's
//! `_physics_process`. The character is a kinematic body in it (a body falling or rolling into
//! it stops as at a wall), the level's solids are fixed, and the impulses the character gave
//! during the tick are applied before the step.
//!
//! What it imitates of a Godot project's defaults: gravity 9.8 m/s², friction 1 on every
//! surface (Godot's default physics material), no bounce, and a linear and angular damping of
//! 0.1 (`physics/3d/default_linear_damp`, `default_angular_damp`).

use glam::{DQuat, Quat, Vec3};
use kcc::KinematicBody;
use kcc_parry::{ParryBody, PlatformMotion, Primitive, World};
use rapier3d::prelude::{
    ColliderBuilder, PhysicsWorld, Pose, RigidBodyBuilder, RigidBodyHandle, Vector,
};

use crate::course;
use crate::rapier::rapier_shape;

/// Godot's default gravity, m/s².
const GRAVITY: f32 = 9.8;
/// Godot's default physics material's friction.
const FRICTION: f32 = 1.0;
/// Godot's default linear and angular damping, 1/s.
const DAMPING: f32 = 0.1;
/// How far ahead of a rigid body Rapier looks for contacts, m: Jolt (Godot's engine) stops a
/// body at what it is about to hit in a step (its speculative contacts), where Rapier alone
/// lets a crate sliding at walking speed sink centimetres into a step's riser and then pushes
/// it back, into the character.
const SOFT_CCD: f32 = 0.5;

/// A Rapier world stepping the movable bodies of a parry world.
pub struct Dynamics {
    physics: PhysicsWorld,
    /// One per movable body, in the world's order, with its rotation at the start.
    bodies: Vec<(RigidBodyHandle, Quat)>,
    /// The character, kinematic.
    character: RigidBodyHandle,
    /// From the character's origin (the bottom of its shape) to its shape's centre, m.
    center: Vec3,
}

impl Dynamics {
    /// The simulation of `body`'s world, with `body` as the character; `None` when the world
    /// has no movable body.
    pub fn of(body: &ParryBody) -> Option<Self> {
        let world = body.world();
        if world.movables().is_empty() {
            return None;
        }
        let mut physics = godot_gravity();
        add_fixed(&mut physics, world);
        let bodies = add_movables(&mut physics, world);
        let shape = body.settings().shape;
        let center = shape.center_offset().as_vec3();
        let character = physics.insert(
            RigidBodyBuilder::kinematic_position_based().translation(body.position() + center),
            ColliderBuilder::new(rapier_shape(shape)).friction(FRICTION),
        );
        Some(Self {
            physics,
            bodies,
            character: character.0,
            center,
        })
    }

    /// One physics step of `dt` (s) after a tick of `body`: its impulses applied, the
    /// character where the tick left it, then the movable bodies put where the step took them.
    pub fn step(&mut self, body: &mut ParryBody, dt: f32) {
        for push in body.take_pushes() {
            if let Some(rigid) = self
                .bodies
                .get(push.movable)
                .and_then(|(h, _)| self.physics.bodies.get_mut(*h))
            {
                match push.point {
                    Some(point) => rigid.apply_impulse_at_point(push.impulse, point, true),
                    None => rigid.apply_impulse(push.impulse, true),
                }
            }
        }
        if let Some(character) = self.physics.bodies.get_mut(self.character) {
            character.set_next_kinematic_translation(body.position() + self.center);
        }
        self.physics.integration_parameters.dt = dt;
        self.physics.step();
        body.place_movables(places(&self.physics, &self.bodies));
    }
}

/// An empty Rapier world with Godot's default gravity.
pub(crate) fn godot_gravity() -> PhysicsWorld {
    let mut physics = PhysicsWorld::new();
    physics.gravity = Vector::new(0.0, -GRAVITY, 0.0);
    physics
}

/// The world's solids that do not move (not its movable bodies, not its platforms), as fixed
/// colliders.
pub(crate) fn add_fixed(physics: &mut PhysicsWorld, world: &World) {
    let moves = |index: usize| {
        world.movable_of(index).is_some() || world.platforms().iter().any(|p| p.index == index)
    };
    for (index, solid) in world.solids().iter().enumerate() {
        if moves(index) {
            continue;
        }
        if let Some(collider) = course::rapier_collider(solid) {
            physics.insert_collider(collider.friction(FRICTION), None);
        }
    }
}

/// The world's moving platforms as kinematic Rapier bodies where they start (time 0), each
/// with its motion: the body's pose at time `t` is the motion's placement at `t` (its collider
/// keeps the solid's place at time 0 relative to the body). Rapier derives each step's
/// velocities from the next pose a step is given, as its docs move platforms.
pub(crate) fn add_platforms(
    physics: &mut PhysicsWorld,
    world: &World,
) -> Vec<(RigidBodyHandle, PlatformMotion)> {
    world
        .platforms()
        .iter()
        .filter_map(|platform| {
            let collider = course::rapier_collider(&platform.rest)?.friction(FRICTION);
            let body = RigidBodyBuilder::kinematic_position_based();
            Some((physics.insert(body, collider).0, platform.motion))
        })
        .collect()
}

/// Gives each platform of `platforms` (from [`add_platforms`]) the pose its motion has at `t`
/// (s), for the next step to move it there.
pub(crate) fn aim_platforms(
    physics: &mut PhysicsWorld,
    platforms: &[(RigidBodyHandle, PlatformMotion)],
    t: f64,
) {
    for (handle, motion) in platforms {
        let place = motion.placement(t);
        let pose = Pose::from_parts(place.translation.as_vec3(), place.rotation.as_quat());
        if let Some(body) = physics.bodies.get_mut(*handle) {
            body.set_next_kinematic_position(pose);
        }
    }
}

/// The world's movable bodies as dynamic Rapier bodies where they start (Godot's defaults: see
/// the module docs), each with its rotation at the start, in the world's order.
pub(crate) fn add_movables(
    physics: &mut PhysicsWorld,
    world: &World,
) -> Vec<(RigidBodyHandle, Quat)> {
    world
        .movables()
        .iter()
        .filter_map(|movable| {
            let (shape, rotation) = match movable.rest.primitive() {
                Primitive::Cuboid { size, rotation, .. } => {
                    let half = *size * 0.5;
                    (ColliderBuilder::cuboid(half.x, half.y, half.z), *rotation)
                }
                Primitive::Ball { radius, .. } => (ColliderBuilder::ball(*radius), Quat::IDENTITY),
                _ => return None,
            };
            let rigid = RigidBodyBuilder::dynamic()
                .pose(Pose::from_parts(movable.center, rotation))
                .linvel(movable.velocity)
                .linear_damping(DAMPING)
                .angular_damping(DAMPING)
                .soft_ccd_prediction(SOFT_CCD);
            let collider = shape.mass(movable.mass).friction(FRICTION).restitution(0.0);
            Some((physics.insert(rigid, collider).0, rotation))
        })
        .collect()
}

/// Each of `bodies` (from [`add_movables`]): its centre of mass (m), rotation from where it
/// started, velocity (m/s) and angular velocity (rad/s), in order.
pub(crate) fn places(
    physics: &PhysicsWorld,
    bodies: &[(RigidBodyHandle, Quat)],
) -> Vec<(Vec3, DQuat, Vec3, Vec3)> {
    bodies
        .iter()
        .filter_map(|(h, start)| Some((physics.bodies.get(*h)?, start)))
        .map(|(rigid, start)| {
            let turn = *rigid.rotation() * start.inverse();
            let rotation =
                DQuat::from_xyzw(turn.x.into(), turn.y.into(), turn.z.into(), turn.w.into());
            (
                rigid.translation(),
                rotation,
                rigid.linvel(),
                rigid.angvel(),
            )
        })
        .collect()
}
