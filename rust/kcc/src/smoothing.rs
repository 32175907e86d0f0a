//! Frame-rate independent smoothing, and the camera offset that hides stair steps.

/// Moves `a` toward `b` by exponential decay at rate `decay` (1/s) over `dt` (s):
/// `b + (a - b) * exp(-decay * dt)`. Two half ticks give the same result as one whole tick, so
/// the result does not depend on the frame rate.
pub fn exp_decay(a: f32, b: f32, decay: f32, dt: f32) -> f32 {
    b + (a - b) * (-decay * dt).exp()
}

/// Offsets below this are snapped to zero, m.
const REST_OFFSET: f32 = 1e-5;

/// Vertical camera offset that hides stair steps: a step of `dy` moves the camera by `-dy`
/// relative to the body (so it stays where it was), then the offset decays back to zero.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct StepSmoother {
    offset: f32,
    /// Rate at which the offset returns to zero, 1/s (20 feels weighty, 40 snappy).
    pub decay: f32,
}

impl StepSmoother {
    /// A smoother at rest with the given decay rate (1/s).
    pub fn new(decay: f32) -> Self {
        Self { offset: 0.0, decay }
    }

    /// Current offset of the camera from its resting place, m (negative after a step up).
    pub fn offset(&self) -> f32 {
        self.offset
    }

    /// Records a step of `vertical_travel` m (positive up). Non-finite values are ignored.
    pub fn on_step(&mut self, vertical_travel: f32) {
        if vertical_travel.is_finite() {
            self.offset -= vertical_travel;
        }
    }

    /// Decays the offset over `dt` s and returns it, m. A non-finite or negative `dt` leaves
    /// it unchanged.
    pub fn update(&mut self, dt: f32) -> f32 {
        if dt.is_finite() && dt > 0.0 && self.decay.is_finite() && self.decay > 0.0 {
            self.offset = exp_decay(self.offset, 0.0, self.decay, dt);
            if self.offset.abs() < REST_OFFSET {
                self.offset = 0.0;
            }
        }
        self.offset
    }

    /// Clears the offset (after a teleport, say).
    pub fn reset(&mut self) {
        self.offset = 0.0;
    }
}

impl Default for StepSmoother {
    fn default() -> Self {
        Self::new(20.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn exp_decay_is_frame_rate_independent() {
        let once = exp_decay(1.0, 0.0, 20.0, 0.1);
        let mut twice = 1.0;
        for _ in 0..10 {
            twice = exp_decay(twice, 0.0, 20.0, 0.01);
        }
        assert!((once - twice).abs() < 1e-6);
        assert!((once - (-2.0f32).exp()).abs() < 1e-6);
        assert_eq!(exp_decay(5.0, 2.0, 10.0, 0.0), 5.0);
    }

    #[test]
    fn step_offsets_then_returns_to_rest() {
        let mut smoother = StepSmoother::new(20.0);
        smoother.on_step(0.3);
        assert_eq!(smoother.offset(), -0.3);
        let after = smoother.update(1.0 / 60.0);
        assert!(after > -0.3 && after < 0.0);
        for _ in 0..120 {
            smoother.update(1.0 / 60.0);
        }
        assert_eq!(smoother.offset(), 0.0);
        smoother.on_step(f32::NAN);
        smoother.update(f32::INFINITY);
        assert_eq!(smoother.offset(), 0.0);
    }
}
