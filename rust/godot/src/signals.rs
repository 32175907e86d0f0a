//! Which of `RustCharacterBody3D`'s signals a call emits, in what order, and what the step
//! building blocks hand back.
//!
//! The node emits exactly what these functions list, one emit per entry; keeping the choice
//! here lets plain `cargo test` check it.

use glam::Vec3;
use kcc::TickReport;

/// A signal of `RustCharacterBody3D`, with its argument.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum BodySignal {
    /// `stepped(vertical_travel)`: a stair step of this height change, m (positive up).
    Stepped(f32),
    /// `jumped()`: a jump started.
    Jumped,
    /// `left_floor()`: the body left the floor (jumped, or walked off a ledge).
    LeftFloor,
    /// `landed()`: the body came down on floor after being in the air.
    Landed,
}

/// The signals a tick (of `tick()`, the built-in input or `move_and_step()`) calls for, in the
/// order they are emitted: the tick's stair steps as one `stepped`, then `jumped`, then
/// `left_floor`, then `landed`. A jump's tick emits `jumped` before `left_floor`, so a handler
/// of `left_floor` can tell a jump from a fall.
pub fn tick_signals(report: &TickReport) -> impl Iterator<Item = BodySignal> + use<> {
    let stepped = report.stepped.map(BodySignal::Stepped);
    let jumped = report.jumped.then_some(BodySignal::Jumped);
    let left_floor = report.left_floor().then_some(BodySignal::LeftFloor);
    let landed = report.landed().then_some(BodySignal::Landed);
    [stepped, jumped, left_floor, landed].into_iter().flatten()
}

/// What `stair_step_up()` does after the core lifted the body onto a step.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct StepUp {
    /// Height gained, m: the call's return value and the `stepped` signal's argument.
    pub height: f32,
    /// The body's new velocity, m/s: its horizontal part only, since it now stands on the step.
    pub velocity: Vec3,
}

/// The step up for a lift of `height` m (the core's `stair_step_up`) of a body moving with
/// `velocity` (m/s) under `up` (any length; +Y when unusable, as the core's); `None` when the body was not lifted (a height of 0, or one
/// that is not a positive finite number), and then the call returns 0, leaves the velocity
/// alone and emits nothing.
pub fn step_up(height: f32, velocity: Vec3, up: Vec3) -> Option<StepUp> {
    (height.is_finite() && height > 0.0).then(|| StepUp {
        height,
        velocity: kcc::floor::horizontal(velocity, kcc::floor::unit_up(up)),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn signals(report: &TickReport) -> Vec<BodySignal> {
        tick_signals(report).collect()
    }

    fn grounded() -> TickReport {
        TickReport {
            was_on_floor: true,
            on_floor: true,
            ..TickReport::default()
        }
    }

    #[test]
    fn a_plain_tick_on_the_floor_emits_nothing() {
        assert_eq!(signals(&grounded()), []);
        let airborne = TickReport::default();
        assert_eq!(signals(&airborne), []);
    }

    #[test]
    fn a_step_emits_stepped_with_its_height() {
        let up = TickReport {
            stepped: Some(0.3),
            ..grounded()
        };
        assert_eq!(signals(&up), [BodySignal::Stepped(0.3)]);
        let down = TickReport {
            stepped: Some(-0.2),
            ..grounded()
        };
        assert_eq!(signals(&down), [BodySignal::Stepped(-0.2)]);
    }

    #[test]
    fn a_jump_emits_jumped_then_left_floor() {
        let jump = TickReport {
            jumped: true,
            on_floor: false,
            ..grounded()
        };
        assert_eq!(signals(&jump), [BodySignal::Jumped, BodySignal::LeftFloor]);
    }

    #[test]
    fn walking_off_a_ledge_and_landing_emit_one_signal_each() {
        let off = TickReport {
            on_floor: false,
            ..grounded()
        };
        assert_eq!(signals(&off), [BodySignal::LeftFloor]);
        let land = TickReport {
            on_floor: true,
            ..TickReport::default()
        };
        assert_eq!(signals(&land), [BodySignal::Landed]);
    }

    #[test]
    fn every_signal_of_one_tick_comes_in_order() {
        // A buffered jump on landing onto a step: landed from the air, stepped, jumped at once.
        let busy = TickReport {
            stepped: Some(0.1),
            jumped: true,
            on_floor: true,
            ..TickReport::default()
        };
        assert_eq!(
            signals(&busy),
            [
                BodySignal::Stepped(0.1),
                BodySignal::Jumped,
                BodySignal::Landed
            ]
        );
        let step_off = TickReport {
            stepped: Some(-0.4),
            jumped: true,
            on_floor: false,
            ..grounded()
        };
        assert_eq!(
            signals(&step_off),
            [
                BodySignal::Stepped(-0.4),
                BodySignal::Jumped,
                BodySignal::LeftFloor
            ]
        );
    }

    #[test]
    fn a_step_up_keeps_only_the_horizontal_velocity() {
        let velocity = Vec3::new(3.0, -2.0, -4.0);
        let step = step_up(0.25, velocity, Vec3::Y).expect("lifted");
        assert_eq!(step.height, 0.25);
        assert_eq!(step.velocity, Vec3::new(3.0, 0.0, -4.0));
        // Up along +X, given twice as long: the part along X is dropped.
        let sideways = step_up(0.25, velocity, 2.0 * Vec3::X).expect("lifted");
        assert_eq!(sideways.velocity, Vec3::new(0.0, -2.0, -4.0));
    }

    #[test]
    fn no_lift_is_no_step_up() {
        for height in [0.0, -0.1, f32::NAN, f32::INFINITY] {
            assert_eq!(step_up(height, Vec3::NEG_Z, Vec3::Y), None, "{height}");
        }
    }
}
