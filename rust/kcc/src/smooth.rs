//! Ground following by a probe with a smoothed body height (the "raycast snapping" technique),
//! the [`GroundFollow::Smooth`] alternative to the stair sweeps: its sense stage (the ground
//! under the body) and its move (a slide, then the feet eased toward the ground).
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
use crate::floor::{horizontal, unit_up, up_of, vertical};
use crate::report::TickReport;
use crate::settings::{GroundFollow, StairSettings};
use crate::surface::{is_walkable, supports};
use crate::tolerances::{BodyScale, EDGE_REST_SPEED};

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
/// use kcc::smooth::follow;
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

/// Whether a move floats ([`GroundFollow::Smooth`]), and the ground found under it then.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) enum Floating {
    /// Stair sweeps: the engine's floor state says where the body stands.
    No,
    /// A floating shape whose feet follow the ground at `speed` (1/s), over `ground` (`None`:
    /// in the air or rising).
    Yes {
        /// The ground under the body.
        ground: Option<Ground>,
        /// The follow speed of [`GroundFollow::Smooth`], 1/s.
        speed: f32,
    },
}

/// For [`GroundFollow::Smooth`], the ground under the body moving with `velocity` (none while
/// it rises); [`Floating::No`] for the stair sweeps.
pub(crate) fn ground_under<B: KinematicBody + ?Sized>(
    body: &mut B,
    stairs: &StairSettings,
    velocity: Vec3,
) -> Floating {
    let GroundFollow::Smooth { speed } = stairs.ground_follow else {
        return Floating::No;
    };
    if vertical(velocity, up_of(body)) > EDGE_REST_SPEED {
        return Floating::Yes {
            ground: None,
            speed,
        };
    }
    let look = BodyScale::of(body).tread_look(stairs.step_forward_test);
    let ground = probe(body, stairs.max_step_height, 0.0, look);
    Floating::Yes { ground, speed }
}

/// One move of a body whose shape floats above its feet: on the `ground` found at the start,
/// a slide without gravity; otherwise a slide with it. Then, unless it rises, a probe for the
/// ground: found, the vertical speed is cancelled and the feet move toward its height at
/// `speed` (1/s).
pub(crate) fn move_floating<B: KinematicBody + ?Sized>(
    body: &mut B,
    stairs: &StairSettings,
    velocity: Vec3,
    dt: f32,
    ground: Option<Ground>,
    speed: f32,
) -> TickReport {
    let up = up_of(body);
    let run = horizontal(velocity, up);
    let push = if ground.is_some() {
        0.0
    } else {
        vertical(velocity, up)
    };
    let mut report = TickReport {
        was_on_floor: ground.is_some(),
        substeps: 1,
        ..TickReport::default()
    };
    // How far the feet still were above the ground they stood on.
    let lag = ground.map_or(0.0, |g| vertical(body.position(), up) - g.height);
    let after = body.move_and_slide(run + up * push, dt);
    let mut rise = vertical(after, up);
    let look = BodyScale::of(body).tread_look(stairs.step_forward_test);
    if rise <= 0.0
        && let Some(found) = probe(body, stairs.max_step_height, lag, look)
    {
        let moved = ease_toward(body, found.height, speed, dt);
        report.step_up = moved.max(0.0);
        report.step_down = moved.min(0.0);
        rise = 0.0;
        report.on_floor = true;
    }
    report.velocity = horizontal(after, up) + up * rise;
    report
}

/// Moves the feet toward `height` (m along up) at `rate` (1/s) over `dt` (s), rising only as
/// far as the room above allows; returns how far they moved, m (0 when that is not finite).
fn ease_toward<B: KinematicBody + ?Sized>(body: &mut B, height: f32, rate: f32, dt: f32) -> f32 {
    let up = up_of(body);
    let here = vertical(body.position(), up);
    let eased = follow(here, height, rate, dt);
    let mut moved = eased - here;
    if moved > 0.0 {
        // Rising toward the ground's height: only as far as the room above allows.
        let room = body.test_move(body.position(), up * moved);
        moved = vertical(room.travel, up).clamp(0.0, moved);
    }
    if !moved.is_finite() {
        return 0.0;
    }
    body.set_position(body.position() + up * moved);
    moved
}
