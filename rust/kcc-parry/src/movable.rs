//! Bodies the engine simulates (Godot's `RigidBody3D`): solids a character can push, placed
//! and given their velocity from outside (a rigid-body simulation steps them between ticks,
//! as Godot's physics step does).

use glam::{DQuat, Vec3};
use parry3d_f64::math::Pose;

use crate::Solid;

/// A movable body of the world: which solid it is, where it rests at the start, its mass, and
/// where the simulation has put it and how fast it goes.
#[derive(Clone)]
pub struct Movable {
    /// Index of the body among the world's solids.
    pub index: usize,
    /// The solid where the body starts.
    pub rest: Solid,
    /// Its centre of mass where it starts, m.
    pub center: Vec3,
    /// Its mass, kg.
    pub mass: f32,
    /// The rigid motion from where it starts to where it is now.
    pub placement: Pose,
    /// Linear velocity of its centre of mass, m/s.
    pub velocity: Vec3,
    /// Angular velocity about its centre of mass, rad/s.
    pub angular_velocity: Vec3,
}

impl Movable {
    /// Its centre of mass now, m.
    pub fn center_now(&self) -> Vec3 {
        (self.placement * self.center.as_dvec3()).as_vec3()
    }

    /// How far it has turned from where it started, rad (0 to pi).
    pub fn turn_now(&self) -> f32 {
        let w = self.placement.rotation.w.abs().min(1.0);
        (2.0 * w.acos()) as f32
    }

    /// Velocity of its material point at `point` (m) now, m/s.
    pub fn velocity_at(&self, point: Vec3) -> Vec3 {
        self.velocity + self.angular_velocity.cross(point - self.center_now())
    }

    /// Its placement for a body whose centre of mass is at `center` (m) turned by `rotation`
    /// from where it started.
    pub fn placement_for(&self, center: Vec3, rotation: DQuat) -> Pose {
        let start = self.center.as_dvec3();
        // x -> center + rotation (x - start).
        let translation = center.as_dvec3() - rotation * start;
        Pose::from_parts(translation, rotation)
    }
}
