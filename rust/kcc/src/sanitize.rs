//! Unusable input, replaced before a tick trusts it: non-finite or absurd velocities, deltas
//! and positions, and the split of a long delta into sub-steps.

use glam::Vec3;

/// Longest simulated time of one sub-step, s. A longer delta is split.
pub const MAX_SUBSTEP: f32 = 0.05;

/// Longest delta a tick simulates, s. A longer hitch (a 2 s freeze, say) is clamped to this,
/// so the character never jumps through the world after a stall.
pub const MAX_DELTA: f32 = 0.25;

/// Fastest velocity a tick accepts, m/s (10 km/s: far beyond any game); a longer one is
/// shortened to it, so a tick's motion can never overflow.
pub const MAX_VELOCITY: f32 = 1.0e4;

/// Farthest a body may be from the world's origin on any axis, m (10 000 km). Beyond it `f32`
/// positions have no useful precision left, and the body is not moved.
pub const MAX_COORDINATE: f32 = 1.0e7;

/// Which inputs of a tick were unusable and replaced (see [`crate::Controller::tick`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Sanitized {
    /// The wish direction was NaN or infinite and counted as no input.
    pub wish_direction: bool,
    /// The velocity was NaN or infinite (reset to zero) or faster than [`MAX_VELOCITY`]
    /// (shortened to it).
    pub velocity: bool,
    /// The delta was zero, negative or not finite: nothing moved.
    pub delta: bool,
    /// The delta was longer than [`MAX_DELTA`] and was clamped.
    pub delta_clamped: bool,
    /// The body's position was not finite or beyond [`MAX_COORDINATE`]: nothing moved.
    pub position: bool,
}

impl Sanitized {
    /// True when any input was replaced.
    pub fn any(&self) -> bool {
        self.wish_direction || self.velocity || self.delta || self.delta_clamped || self.position
    }
}

/// The wish direction (world space, its length how far the stick is pushed) a tick uses: no
/// input when it is not finite (noted in `sanitized`).
pub fn wish(wish: Vec3, sanitized: &mut Sanitized) -> Vec3 {
    if wish.is_finite() {
        wish
    } else {
        sanitized.wish_direction = true;
        Vec3::ZERO
    }
}

/// The velocity (m/s) a tick starts from: zero when it is not finite, no faster than
/// [`MAX_VELOCITY`] (either noted in `sanitized`).
pub fn velocity(velocity: Vec3, sanitized: &mut Sanitized) -> Vec3 {
    if !velocity.is_finite() {
        sanitized.velocity = true;
        Vec3::ZERO
    } else if velocity.length() > MAX_VELOCITY {
        sanitized.velocity = true;
        velocity.clamp_length_max(MAX_VELOCITY)
    } else {
        velocity
    }
}

/// True when `velocity` (m/s) is one a tick accepts as it is.
pub fn usable_velocity(velocity: Vec3) -> bool {
    velocity.is_finite() && velocity.length() <= MAX_VELOCITY
}

/// True when `position` (m) is finite and within [`MAX_COORDINATE`] of the origin.
pub fn usable_position(position: Vec3) -> bool {
    position.is_finite() && position.abs().max_element() <= MAX_COORDINATE
}

/// Splits a tick's delta into sub-steps: how many, and how long each is (s); `None` when
/// nothing should move. A delta over [`MAX_DELTA`] is clamped to it, and one over
/// [`MAX_SUBSTEP`] split into equal parts no longer than that (both noted in `sanitized`).
pub fn split_delta(dt: f32, sanitized: &mut Sanitized) -> Option<(u32, f32)> {
    if !dt.is_finite() || dt <= 0.0 {
        sanitized.delta = true;
        return None;
    }
    let dt = if dt > MAX_DELTA {
        sanitized.delta_clamped = true;
        MAX_DELTA
    } else {
        dt
    };
    let substeps = (dt / MAX_SUBSTEP).ceil().max(1.0) as u32;
    Some((substeps, dt / substeps as f32))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn delta_is_split_and_clamped() {
        let mut s = Sanitized::default();
        assert_eq!(split_delta(1.0 / 60.0, &mut s), Some((1, 1.0 / 60.0)));
        assert!(!s.any());
        let (n, step) = split_delta(0.12, &mut s).unwrap();
        assert_eq!(n, 3);
        assert!((step - 0.04).abs() < 1e-6);
        let (n, step) = split_delta(2.0, &mut s).unwrap();
        assert!(s.delta_clamped);
        assert!((n as f32 * step - MAX_DELTA).abs() < 1e-6);
        for bad in [0.0, -1.0, f32::NAN, f32::INFINITY] {
            let mut s = Sanitized::default();
            assert_eq!(split_delta(bad, &mut s), None);
            assert!(s.delta);
        }
    }

    #[test]
    fn unusable_velocities_and_wishes_are_replaced() {
        let mut s = Sanitized::default();
        assert_eq!(velocity(Vec3::X, &mut s), Vec3::X);
        assert_eq!(wish(Vec3::Z, &mut s), Vec3::Z);
        assert!(!s.any());
        assert_eq!(velocity(Vec3::NAN, &mut s), Vec3::ZERO);
        assert!(s.velocity);
        let fast = velocity(Vec3::X * 1e9, &mut Sanitized::default());
        assert!((fast.length() - MAX_VELOCITY).abs() < 1.0);
        assert!(!usable_velocity(Vec3::X * 1e9) && usable_velocity(Vec3::X));
        let mut s = Sanitized::default();
        assert_eq!(wish(Vec3::INFINITY, &mut s), Vec3::ZERO);
        assert!(s.wish_direction);
        assert!(!usable_position(Vec3::X * 2e7) && usable_position(Vec3::X));
    }
}
