//! The local height of a `StepSmoothCamera3D` over time: its resting place, lowered by the
//! character's crouch, plus the offset of recent stair steps, both eased with the core's
//! frame-rate independent decay (`kcc::StepSmoother`, `kcc::smoothing::exp_decay`).

use kcc::StepSmoother;
use kcc::smoothing::exp_decay;

/// Where the camera sits along its parent's Y, m, and how a step moves it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct CameraHeight {
    /// Local y of the camera at rest, m.
    rest: f32,
    /// The offset of recent steps, m, and its decay.
    smoother: StepSmoother,
    /// How far below its resting place the camera sits for the character's crouch, m: eased
    /// toward the crouch's drop (see [`advance`](Self::advance)).
    crouch: f32,
}

impl CameraHeight {
    /// A camera resting at local y `rest` (m), with no offset; `decay` (1/s) is the rate the
    /// offset of a step returns to zero.
    pub fn new(rest: f32, decay: f32) -> Self {
        Self {
            rest,
            smoother: StepSmoother::new(decay),
            crouch: 0.0,
        }
    }

    /// Local y of the camera at rest, m.
    pub fn rest(&self) -> f32 {
        self.rest
    }

    /// Moves the resting place to local y `rest`, m; the offset stays.
    pub fn set_rest(&mut self, rest: f32) {
        self.rest = rest;
    }

    /// Records a step of the character by `vertical_travel` m (positive up): the camera keeps
    /// its height, so its offset from the resting place changes by `-vertical_travel`. Steps
    /// add up; a non-finite one is ignored.
    pub fn add_step(&mut self, vertical_travel: f32) {
        self.smoother.on_step(vertical_travel);
    }

    /// The camera's offset from its resting place, m (negative after a step up).
    pub fn offset(&self) -> f32 {
        self.smoother.offset()
    }

    /// Drops the offset at once (after a teleport, say).
    pub fn reset(&mut self) {
        self.smoother.reset();
    }

    /// Lets `dt` s pass with the offset decaying at `decay` 1/s (`offset × exp(-decay × dt)`,
    /// snapped to zero below 0.01 mm) and the crouch's lowering easing toward `crouch_drop` m
    /// (how much lower the top of the character's shape is than standing: 0 while it stands)
    /// at the same rate, and returns the camera's local y, m. A `dt` or `decay` that is not
    /// positive keeps both; a `crouch_drop` that is not finite counts as 0.
    pub fn advance(&mut self, dt: f32, decay: f32, crouch_drop: f32) -> f32 {
        self.smoother.decay = decay;
        let offset = self.smoother.update(dt);
        let drop = if crouch_drop.is_finite() {
            crouch_drop
        } else {
            0.0
        };
        if dt.is_finite() && dt > 0.0 && decay.is_finite() && decay > 0.0 {
            self.crouch = exp_decay(self.crouch, drop, decay, dt);
        }
        self.rest - self.crouch + offset
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const EYE: f32 = 1.6;
    const FRAME: f32 = 1.0 / 60.0;

    fn close(a: f32, b: f32) -> bool {
        (a - b).abs() < 1e-6
    }

    #[test]
    fn at_rest_the_camera_sits_at_its_resting_place() {
        let mut camera = CameraHeight::new(EYE, 20.0);
        assert_eq!(camera.advance(FRAME, 20.0, 0.0), EYE);
        assert_eq!(camera.offset(), 0.0);
        assert_eq!(camera.rest(), EYE);
    }

    #[test]
    fn a_step_up_leaves_the_camera_where_it_was_then_eases_it_back() {
        let mut camera = CameraHeight::new(EYE, 20.0);
        camera.add_step(0.3);
        assert!(close(camera.offset(), -0.3));
        let first = camera.advance(FRAME, 20.0, 0.0);
        assert!(close(first, EYE - 0.3 * (-20.0 * FRAME).exp()), "{first}");
        let mut last = first;
        for _ in 0..10 {
            let y = camera.advance(FRAME, 20.0, 0.0);
            assert!(y > last && y < EYE, "{y} after {last}");
            last = y;
        }
        // One second after the step it is back at rest, exactly.
        for _ in 0..49 {
            camera.advance(FRAME, 20.0, 0.0);
        }
        assert_eq!(camera.advance(FRAME, 20.0, 0.0), EYE);
        assert_eq!(camera.offset(), 0.0);
    }

    #[test]
    fn a_step_down_lifts_the_offset_and_steps_add_up() {
        let mut camera = CameraHeight::new(EYE, 20.0);
        camera.add_step(-0.2);
        assert!(close(camera.offset(), 0.2));
        camera.add_step(-0.2);
        assert!(close(camera.offset(), 0.4));
        camera.add_step(f32::NAN);
        assert!(close(camera.offset(), 0.4));
    }

    #[test]
    fn the_height_does_not_depend_on_the_frame_rate() {
        let mut at_60 = CameraHeight::new(EYE, 20.0);
        let mut at_240 = at_60;
        at_60.add_step(0.3);
        at_240.add_step(0.3);
        let mut y_60 = 0.0;
        let mut y_240 = 0.0;
        for _ in 0..6 {
            y_60 = at_60.advance(FRAME, 20.0, 0.0);
            for _ in 0..4 {
                y_240 = at_240.advance(FRAME / 4.0, 20.0, 0.0);
            }
            assert!((y_60 - y_240).abs() < 1e-5, "{y_60} vs {y_240}");
        }
        assert!(close(y_60, EYE - 0.3 * (-2.0f32).exp()), "{y_60}");
    }

    #[test]
    fn a_faster_decay_returns_sooner_and_none_never_returns() {
        let mut weighty = CameraHeight::new(EYE, 20.0);
        let mut snappy = weighty;
        let mut stuck = weighty;
        for camera in [&mut weighty, &mut snappy, &mut stuck] {
            camera.add_step(0.3);
        }
        let weighty_y = weighty.advance(0.05, 20.0, 0.0);
        let snappy_y = snappy.advance(0.05, 40.0, 0.0);
        assert!(snappy_y > weighty_y, "{snappy_y} vs {weighty_y}");
        assert!(close(stuck.advance(0.05, 0.0, 0.0), EYE - 0.3));
        assert!(close(stuck.advance(-1.0, 20.0, 0.0), EYE - 0.3));
    }

    #[test]
    fn reset_and_a_new_resting_place_apply_at_once() {
        let mut camera = CameraHeight::new(EYE, 20.0);
        camera.add_step(0.3);
        camera.set_rest(1.2);
        assert!(close(camera.offset(), -0.3));
        camera.reset();
        assert_eq!(camera.offset(), 0.0);
        assert_eq!(camera.advance(FRAME, 20.0, 0.0), 1.2);
        assert_eq!(camera.rest(), 1.2);
    }

    #[test]
    fn a_crouch_lowers_the_view_smoothly_and_standing_raises_it_at_any_frame_rate() {
        let drop = 0.8;
        let mut at_60 = CameraHeight::new(EYE, 20.0);
        let mut at_144 = at_60;
        let mut last = EYE;
        // Half a second crouched: the eye glides down, never below the crouched eye height.
        for frame in 1..=30 {
            let y_60 = at_60.advance(FRAME, 20.0, drop);
            let y_144 = (0..12).fold(0.0, |_, _| at_144.advance(FRAME / 12.0, 20.0, drop));
            assert!(y_60 < last && y_60 >= EYE - drop, "frame {frame}: {y_60}");
            assert!(
                (y_60 - y_144).abs() < 1e-4,
                "frame {frame}: {y_60} vs {y_144}"
            );
            last = y_60;
        }
        assert!((last - (EYE - drop)).abs() < 1e-4, "crouched eye {last}");
        // A step while crouched adds its offset on top.
        at_60.add_step(0.2);
        assert!((at_60.advance(1e-6, 20.0, drop) - (EYE - drop - 0.2)).abs() < 1e-3);
        // Standing up: back to the resting place.
        for _ in 0..60 {
            last = at_60.advance(FRAME, 20.0, 0.0);
        }
        assert!((last - EYE).abs() < 1e-3, "standing eye {last}");
    }
}
