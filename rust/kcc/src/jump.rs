//! Jump feel: coyote time, a jump buffer and a jump whose height follows how long the button is
//! held ([`JumpSettings`]).
//!
//! A jump starts on a *press* of the button (held now, not held the tick before), as Godot's
//! `Input.is_action_just_pressed` would have it, when the body stands on the floor or left it
//! by walking off less than `coyote_time` s ago. A press in the air is remembered for
//! `buffer_time` s and jumps as soon as the body is on the floor again. Releasing the button
//! while the jump still rises keeps only `release_cut` of the upward speed, once.
//!
//! The times are measured in seconds of simulated time, so the same presses give the same jumps
//! at any tick rate (within one tick). What a jump remembers between ticks is a [`JumpState`],
//! kept by the caller as it keeps the velocity.

use crate::settings::JumpSettings;

/// What the jump remembers from one tick to the next. Start with `JumpState::default()` and
/// pass the same value to every tick ([`crate::Controller::tick_with`]).
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct JumpState {
    /// The button was held on the last tick.
    pub held: bool,
    /// Time since a press that has not jumped yet, s (`None`: no such press).
    pub since_press: Option<f32>,
    /// Time since the body last stood on the floor, s (`None`: it jumped since, or never stood).
    pub since_floor: Option<f32>,
    /// A jump is rising and has not been cut yet.
    pub rising: bool,
}

impl JumpState {
    /// The start of a (sub-)step of `dt` s with the button `held` and the body on the floor or
    /// not: true when a jump starts now. Remembers a new press and ages the old one.
    pub fn start(&mut self, held: bool, on_floor: bool, dt: f32, settings: &JumpSettings) -> bool {
        let pressed = held && !self.held;
        self.held = held;
        self.since_press = if pressed {
            Some(0.0)
        } else {
            self.since_press
                .map(|t| t + dt)
                .filter(|t| *t <= settings.buffer_time)
        };
        let grace = self.since_floor.is_some_and(|t| t <= settings.coyote_time);
        let jump = self.since_press.is_some() && (on_floor || grace);
        if jump {
            self.since_press = None;
            self.since_floor = None;
            self.rising = true;
        }
        jump
    }

    /// The upward speed (m/s, positive up) of a body after its jump's start: cut to
    /// `release_cut` of it once, the first time the button is up while the jump rises.
    pub fn cut(&mut self, rise: f32, settings: &JumpSettings) -> f32 {
        if rise <= 0.0 {
            self.rising = false;
            return rise;
        }
        if self.rising && !self.held {
            self.rising = false;
            return rise * settings.release_cut;
        }
        rise
    }

    /// The end of a (sub-)step of `dt` s that left the body on the floor or not.
    pub fn end(&mut self, on_floor: bool, dt: f32) {
        if on_floor {
            self.since_floor = Some(0.0);
            self.rising = false;
        } else if let Some(t) = self.since_floor.as_mut() {
            *t += dt;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const SETTINGS: JumpSettings = JumpSettings {
        coyote_time: 0.1,
        buffer_time: 0.1,
        release_cut: 0.5,
    };

    #[test]
    fn only_a_press_jumps_and_holding_does_not_jump_again() {
        let mut state = JumpState::default();
        state.end(true, 1.0 / 60.0);
        assert!(state.start(true, true, 1.0 / 60.0, &SETTINGS));
        state.end(true, 1.0 / 60.0);
        assert!(!state.start(true, true, 1.0 / 60.0, &SETTINGS));
        assert!(!state.start(false, true, 1.0 / 60.0, &SETTINGS));
        assert!(state.start(true, true, 1.0 / 60.0, &SETTINGS));
    }

    #[test]
    fn coyote_time_and_buffer_time_hold_within_one_tick_at_any_rate() {
        for rate in [30.0_f32, 60.0, 144.0, 240.0] {
            let dt = 1.0 / rate;
            // Walked off a ledge: a press within coyote time jumps, one after it does not.
            for (late, jumps) in [(SETTINGS.coyote_time - dt, true), (0.2, false)] {
                let mut state = JumpState::default();
                state.end(true, dt);
                let mut time = 0.0;
                while time + dt <= late + 1e-6 {
                    assert!(!state.start(false, false, dt, &SETTINGS));
                    state.end(false, dt);
                    time += dt;
                }
                assert_eq!(state.start(true, false, dt, &SETTINGS), jumps, "{rate} Hz");
            }
            // Pressed in the air: a landing within buffer time jumps, one after it does not.
            for (landing, jumps) in [(SETTINGS.buffer_time - dt, true), (0.2, false)] {
                let mut state = JumpState::default();
                assert!(!state.start(true, false, dt, &SETTINGS));
                state.end(false, dt);
                let mut time = dt;
                while time + dt <= landing + 1e-6 {
                    assert!(!state.start(true, false, dt, &SETTINGS));
                    state.end(false, dt);
                    time += dt;
                }
                assert_eq!(state.start(true, true, dt, &SETTINGS), jumps, "{rate} Hz");
            }
        }
    }

    #[test]
    fn a_jump_uses_up_the_coyote_time_and_the_press() {
        let mut state = JumpState::default();
        state.end(true, 0.01);
        assert!(state.start(true, true, 0.01, &SETTINGS));
        state.end(false, 0.01);
        // In the air after the jump: a second press is buffered, not a double jump.
        assert!(!state.start(false, false, 0.01, &SETTINGS));
        assert!(!state.start(true, false, 0.01, &SETTINGS));
        assert!(state.since_press.is_some());
    }

    #[test]
    fn releasing_while_rising_cuts_once_and_never_a_fall() {
        let mut state = JumpState::default();
        state.end(true, 0.01);
        assert!(state.start(true, true, 0.01, &SETTINGS));
        assert_eq!(state.cut(4.0, &SETTINGS), 4.0);
        state.start(false, false, 0.01, &SETTINGS);
        assert_eq!(state.cut(3.0, &SETTINGS), 1.5);
        assert_eq!(state.cut(1.4, &SETTINGS), 1.4);
        let mut falling = JumpState {
            rising: true,
            ..JumpState::default()
        };
        assert_eq!(falling.cut(-1.0, &SETTINGS), -1.0);
        assert!(!falling.rising);
    }
}
