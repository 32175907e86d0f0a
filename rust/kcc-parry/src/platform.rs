//! Moving platforms: solids that a motion carries through the world over time, as a Godot
//! `AnimatableBody3D` moved every physics tick.

use glam::{DQuat, DVec3, Vec3};
use parry3d_f64::math::Pose;

/// How a platform moves: a constant linear velocity and a constant turn about the vertical axis
/// through its pivot, both turning back every [`reverse_every`](Self::reverse_every) when set
/// (an elevator going up and down, a door swinging).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct PlatformMotion {
    /// Linear velocity, m/s.
    pub velocity: Vec3,
    /// Turn rate about +Y through [`pivot`](Self::pivot), rad/s (positive counter-clockwise
    /// seen from above).
    pub angular_velocity: f32,
    /// The point the platform turns about at time 0, m (it travels with the platform).
    pub pivot: Vec3,
    /// The motion turns back every this long, s; `None`: it never does.
    pub reverse_every: Option<f32>,
}

impl PlatformMotion {
    /// How far along its motion the platform is at time `t` (s): the time it has moved forward
    /// minus the time it has moved back, s.
    fn progress(&self, t: f64) -> f64 {
        match self.reverse_every.map(f64::from) {
            Some(period) if period > 0.0 => {
                let phase = t.rem_euclid(2.0 * period);
                if phase <= period {
                    phase
                } else {
                    2.0 * period - phase
                }
            }
            _ => t,
        }
    }

    /// +1 while the platform moves forward at time `t` (s), -1 while it moves back.
    fn direction(&self, t: f64) -> f64 {
        match self.reverse_every.map(f64::from) {
            Some(period) if period > 0.0 && t.rem_euclid(2.0 * period) >= period => -1.0,
            _ => 1.0,
        }
    }

    /// The rigid motion from the platform's place at time 0 to its place at time `t` (s).
    pub fn placement(&self, t: f64) -> Pose {
        let progress = self.progress(t);
        let pivot = self.pivot.as_dvec3();
        let turn = DQuat::from_rotation_y(f64::from(self.angular_velocity) * progress);
        let shift = self.velocity.as_dvec3() * progress;
        // Turn about the pivot, then move: x -> pivot + shift + turn (x - pivot).
        let translation = pivot + shift - turn * pivot;
        Pose::from_parts(translation, turn)
    }

    /// Where the pivot is at time `t` (s), m.
    pub fn pivot_at(&self, t: f64) -> Vec3 {
        (self.pivot.as_dvec3() + self.velocity.as_dvec3() * self.progress(t)).as_vec3()
    }

    /// Velocity of the platform's material point at `point` (m) at time `t` (s), m/s: the
    /// linear velocity plus the turn's, in the direction the motion has at `t`.
    pub fn velocity_at(&self, t: f64, point: Vec3) -> Vec3 {
        let direction = self.direction(t);
        let arm = point.as_dvec3() - self.pivot_at(t).as_dvec3();
        let spin = DVec3::Y * f64::from(self.angular_velocity);
        ((self.velocity.as_dvec3() + spin.cross(arm)) * direction).as_vec3()
    }
}

/// A platform of the world: which solid it is, where that solid is at time 0, and its motion.
#[derive(Clone)]
pub struct Platform {
    /// Index of the platform among the world's solids.
    pub index: usize,
    /// The solid at time 0.
    pub rest: crate::Solid,
    /// How it moves.
    pub motion: PlatformMotion,
}

#[cfg(test)]
mod tests {
    use super::*;

    fn elevator() -> PlatformMotion {
        PlatformMotion {
            velocity: Vec3::new(0.0, 1.0, 0.0),
            angular_velocity: 0.0,
            pivot: Vec3::ZERO,
            reverse_every: Some(2.0),
        }
    }

    #[test]
    fn an_elevator_goes_up_then_down() {
        let lift = elevator();
        let at = |t: f64| lift.placement(t).translation.y;
        assert!((at(1.0) - 1.0).abs() < 1e-12);
        assert!((at(2.0) - 2.0).abs() < 1e-12);
        assert!((at(3.0) - 1.0).abs() < 1e-12);
        assert!(at(4.0).abs() < 1e-12);
        assert_eq!(lift.velocity_at(0.5, Vec3::ZERO), Vec3::Y);
        assert_eq!(lift.velocity_at(2.5, Vec3::ZERO), -Vec3::Y);
    }

    #[test]
    fn a_disc_turns_about_its_pivot() {
        let disc = PlatformMotion {
            velocity: Vec3::ZERO,
            angular_velocity: std::f32::consts::FRAC_PI_2,
            pivot: Vec3::new(2.0, 0.0, 0.0),
            reverse_every: None,
        };
        // After 1 s a quarter turn counter-clockwise: the point 1 m east of the pivot is 1 m
        // north of it (-Z).
        let moved = disc
            .placement(1.0)
            .transform_point(DVec3::new(3.0, 0.0, 0.0));
        assert!(moved.distance(DVec3::new(2.0, 0.0, -1.0)) < 1e-6, "{moved}");
        // The rim 1 m east moves north at 1.57 m/s.
        let v = disc.velocity_at(0.0, Vec3::new(3.0, 0.0, 0.0));
        assert!((v - Vec3::new(0.0, 0.0, -std::f32::consts::FRAC_PI_2)).length() < 1e-6);
    }
}
