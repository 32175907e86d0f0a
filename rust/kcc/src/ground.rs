//! Ground following by a probe with a smoothed body height (the "raycast snapping" technique),
//! the [`GroundFollow::Smooth`](crate::GroundFollow::Smooth) alternative to stair sweeps.
//!
//! The body's collision shape floats `reach` (the max step height, m) above its origin, the
//! feet, so it passes over any riser up to that height. Each move on the ground is a slide
//! without gravity, then one cast of the shape from the highest steppable point (its bottom at
//! the feet + `reach`) down to the lowest (its bottom at the feet - `reach`): a shape, not a thin
//! ray, so a gap narrower than the body does not fool it. Walkable ground found there cancels
//! the vertical speed, and the feet move toward its height by exponential decay at the follow
//! speed: steps up and down become smooth motion, and the camera needs no step offset.

use glam::Vec3;

use crate::body::KinematicBody;
use crate::floor::{horizontal, unit_up, vertical};
use crate::surface::{is_walkable, supports};

/// Ground found under a floating body.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Ground {
    /// Height of the ground along up, m: where the feet rest on it.
    pub height: f32,
    /// Unit normal of the ground where the shape touched it.
    pub normal: Vec3,
}

/// The ground under a body whose shape floats `reach` (m) above its origin, from `reach` above
/// its feet down to `reach + lag` below them (`lag`, m: how far the feet were still above the
/// ground the body stood on, so the lowest point looked at is a step below that ground);
/// `None` over nothing, or when the shape first touches the side of
/// something (a contact within [`SIDE_COSINE`](crate::surface::SIDE_COSINE) of horizontal).
///
/// Walkable ground is where the feet go. A contact too steep to stand on supports the body: a
/// rounded shape on a step's edge, or a steep slope. It lifts the body only when a second look
/// `look` (m) further toward it finds walkable ground (a tread behind the edge); otherwise the
/// feet go no higher than they are, so a body rolls down over edges and is not walked up steep
/// slopes.
pub fn probe<B: KinematicBody + ?Sized>(
    body: &mut B,
    reach: f32,
    lag: f32,
    look: f32,
) -> Option<Ground> {
    if !(reach.is_finite() && reach > 0.0) {
        return None;
    }
    let lag = if lag.is_finite() { lag.max(0.0) } else { 0.0 };
    let up = unit_up(body.up_direction());
    let from = body.position();
    let depth = 2.0 * reach + lag;
    let test = body.test_move(from, -up * depth);
    let contact = test.contact?;
    if !supports(contact.normal, up) {
        return None;
    }
    // Resting there, the shape's bottom is on the ground and the feet `reach` below it.
    let max_angle = body.floor_max_angle();
    let rest = vertical(from + test.travel, up) + reach;
    let feet = vertical(from, up);
    let height = if is_walkable(contact.normal, up, max_angle) || rest <= feet {
        rest
    } else {
        let toward = horizontal(contact.point - (from + test.travel), up).normalize_or_zero();
        let tread = body.test_move(from + toward * look.max(0.0), -up * depth);
        let behind = tread
            .contact
            .is_some_and(|c| is_walkable(c.normal, up, max_angle));
        if behind { rest } else { feet }
    };
    height.is_finite().then_some(Ground {
        height,
        normal: contact.normal,
    })
}

/// `height` (m) moved toward `target` (m) at `rate` (1/s) over `dt` (s): the gap shrinks by
/// `exp(-rate * dt)`, so the same time closes the same share of it at any tick rate.
///
/// ```
/// use kcc::ground::follow;
///
/// // Half a second at 60 Hz and at 240 Hz closes the same share of a 0.2 m step.
/// let mut at_60 = 0.0;
/// for _ in 0..30 {
///     at_60 = follow(at_60, 0.2, 10.0, 1.0 / 60.0);
/// }
/// let mut at_240 = 0.0;
/// for _ in 0..120 {
///     at_240 = follow(at_240, 0.2, 10.0, 1.0 / 240.0);
/// }
/// assert!((at_60 - at_240).abs() < 1e-5);
/// assert!((at_60 - 0.2 * (1.0 - (-5.0f32).exp())).abs() < 1e-5);
/// ```
pub fn follow(height: f32, target: f32, rate: f32, dt: f32) -> f32 {
    target + (height - target) * (-rate.max(0.0) * dt).exp()
}
