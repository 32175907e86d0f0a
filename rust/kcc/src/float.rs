//! Floating motion: swimming, flying, a ladder the game scripts (see
//! [`MotionMode::Floating`](crate::MotionMode::Floating)).
//!
//! A sub-step of a floating character has no footing to sense, no gravity, no jump and no
//! stair to climb: the wish direction, every part of it (up and down too), sets the velocity
//! along the floor's speed curves in three dimensions (attack toward the wish, release when it
//! stops; the same curves as on the floor, see [`crate::movement::horizontal_velocity`]), and
//! the engine's own slide (floating, so every contact is a wall) moves the body: one query a
//! sub-step in open space.

use glam::Vec3;

use crate::body::KinematicBody;
use crate::movement::horizontal_velocity;
use crate::report::TickReport;
use crate::settings::ControllerSettings;

/// One sub-step of `dt` s of a floating character with velocity `velocity` (m/s) toward `wish`
/// (world space, its length how far the stick is pushed, 0 to 1: longer counts as 1).
pub(crate) fn substep<B: KinematicBody + ?Sized>(
    settings: &ControllerSettings,
    body: &mut B,
    wish: Vec3,
    velocity: Vec3,
    dt: f32,
) -> TickReport {
    let curve = &settings.movement.ground;
    let velocity = horizontal_velocity(velocity, wish.clamp_length_max(1.0), curve, dt);
    slide(body, velocity, dt)
}

/// The engine's slide of a floating body with `velocity` (m/s) over `dt` s: what
/// [`Controller::move_and_step`](crate::Controller::move_and_step) does for it.
pub(crate) fn slide<B: KinematicBody + ?Sized>(
    body: &mut B,
    velocity: Vec3,
    dt: f32,
) -> TickReport {
    let velocity = body.move_and_slide(velocity, dt);
    TickReport {
        velocity,
        ..TickReport::default()
    }
}
