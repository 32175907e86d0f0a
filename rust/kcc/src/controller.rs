//! The controller's public face: [`Controller`] with its tick, and the building blocks a script
//! with its own order composes. The tick's stages are in the
//! private module `tick` (see the crate docs).

use glam::Vec3;

use crate::body::KinematicBody;
use crate::cast_check::{CheckedCasts, checked_casts};
use crate::climb::{Climb, climb};
use crate::crouch::CrouchState;
use crate::error::ConfigError;
use crate::float;
use crate::floor::{horizontal, up_of, vertical};
use crate::footing;
use crate::intent::Controls;
use crate::jump::JumpState;
use crate::landing::Landing;
use crate::push::{self, PushState};
use crate::report::TickReport;
use crate::sanitize::{Sanitized, usable_position, usable_velocity};
use crate::settings::ControllerSettings;
use crate::smooth::{self, Floating};
use crate::stairs::{Stance, step_down};
use crate::surface::is_level;
use crate::tick::{self, Ground};

/// What the player or game code asks of the character this tick.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct TickInput {
    /// Where to go, world space: direction, and length for how far the stick is pushed (0..1;
    /// longer is clamped to 1). Its vertical part is ignored.
    pub wish_direction: Vec3,
    /// Jump if standing on floor.
    pub jump: bool,
    /// The character's velocity before the tick, m/s (Godot's `velocity` property).
    pub velocity: Vec3,
    /// Crouch while held; stand up once released and there is room (see [`crate::crouch`]).
    /// Only [`Controller::tick_with`] crouches: it keeps the standing height.
    pub crouch: bool,
}

/// What a character remembers between ticks besides its velocity: the jump's timers, its
/// crouch, when it last pushed a body, and whether its last move stepped down. Start with
/// `CharacterState::default()` and pass the same value to every tick
/// ([`Controller::tick_with`]).
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct CharacterState {
    /// Coyote time, jump buffer and the rising jump (see [`crate::jump`]).
    pub jump: JumpState,
    /// Whether the body crouches, and its standing height (see [`crate::crouch`]).
    pub crouch: CrouchState,
    /// When the character last pushed a body (see [`crate::push`]).
    pub push: PushState,
    /// What the last move left to the next: whether it came down (see [`Landing`]).
    pub landing: Landing,
}

/// The character controller: settings plus the tick. It keeps no state between ticks; the
/// velocity lives on the body and the curve position is recovered from it.
#[derive(Debug, Clone, PartialEq)]
pub struct Controller {
    settings: ControllerSettings,
}

impl Default for Controller {
    /// A controller with [`ControllerSettings::default`].
    fn default() -> Self {
        Self {
            settings: ControllerSettings::default(),
        }
    }
}

impl Controller {
    /// A controller with validated settings.
    pub fn new(settings: ControllerSettings) -> Result<Self, ConfigError> {
        settings.validate()?;
        Ok(Self { settings })
    }

    /// The settings in use.
    pub fn settings(&self) -> &ControllerSettings {
        &self.settings
    }

    /// Replaces the settings if they are valid; otherwise keeps the old ones.
    pub fn set_settings(&mut self, settings: ControllerSettings) -> Result<(), ConfigError> {
        settings.validate()?;
        self.settings = settings;
        Ok(())
    }

    /// Runs one physics tick of `dt` seconds.
    ///
    /// Unusable input is sanitized, never trusted: a non-finite wish direction counts as no
    /// input; a non-finite velocity becomes zero; a zero, negative or non-finite `dt`, or a
    /// non-finite body position, moves nothing; a `dt` above
    /// [`MAX_DELTA`](crate::sanitize::MAX_DELTA) is clamped to it; a `dt` above
    /// [`MAX_SUBSTEP`](crate::sanitize::MAX_SUBSTEP) is split into equal sub-steps, and so is a
    /// tick whose move off level floor would be longer than
    /// [`SUBSTEP_RADII`](crate::tolerances::SUBSTEP_RADII) of the shape's radius (a low tick
    /// rate with a fast walk on stairs).
    ///
    /// Without a [`CharacterState`] carried between ticks, a jump starts on every tick the
    /// button is held on the floor and the crouch input is ignored; [`tick_with`](Self::tick_with)
    /// adds coyote time, the jump buffer, a jump height that follows how long the button is held,
    /// and crouching.
    pub fn tick<B: KinematicBody + ?Sized>(
        &self,
        body: &mut B,
        input: &TickInput,
        dt: f32,
    ) -> TickReport {
        let input = TickInput {
            crouch: false,
            ..*input
        };
        self.tick_with(body, &input, &mut CharacterState::default(), dt)
    }

    /// [`tick`](Self::tick) with the character's memory `state` carried from tick to tick
    /// (start with `CharacterState::default()`): a jump starts on a press of the button, on the
    /// floor or within `coyote_time` of walking off it; a press in the air jumps on landing
    /// within `buffer_time`; releasing the button while rising cuts the jump (see
    /// [`crate::jump`]). Holding crouch shrinks the shape and walks with the crouch's speed and
    /// step height; releasing it stands up where there is room (see [`crate::crouch`]).
    pub fn tick_with<B: KinematicBody + ?Sized>(
        &self,
        body: &mut B,
        input: &TickInput,
        state: &mut CharacterState,
        dt: f32,
    ) -> TickReport {
        let body = &mut checked_casts(body, self.settings.float_height());
        let mut sanitized = Sanitized::default();
        let controls = Controls {
            wish: crate::sanitize::wish(input.wish_direction, &mut sanitized),
            jump: input.jump,
        };
        let top = self.top_speed(body, controls.wish);
        let floating = self.settings.floats();
        let ground = match (floating, state.landing.on_edge()) {
            (true, _) => Ground::Floats,
            (false, true) => Ground::OnEdge,
            (false, false) => Ground::Walks,
        };
        let mut report = tick::run(
            body,
            input.velocity,
            top,
            ground,
            dt,
            sanitized,
            |body, velocity, dt| self.substep(body, controls, input.crouch, state, velocity, dt),
        );
        report.crouched = state.crouch.crouched();
        let ran = !(report.sanitized.delta || report.sanitized.position);
        if ran && !floating {
            push::press_floor(
                body,
                &self.settings.push,
                &mut state.push,
                report.stepped.is_some(),
                self.settings.gravity.gravity,
                dt.min(crate::sanitize::MAX_DELTA),
            );
        }
        report
    }

    /// One sub-step of [`tick_with`](Self::tick_with), `dt` seconds from `velocity` (m/s): the
    /// crouch follows `crouch` (the button held), the move runs with the settings of the
    /// stance (floating or walking), and the bodies it touched are pushed.
    fn substep<B: KinematicBody + ?Sized>(
        &self,
        body: &mut CheckedCasts<'_, B>,
        controls: Controls,
        crouch: bool,
        state: &mut CharacterState,
        velocity: Vec3,
        dt: f32,
    ) -> TickReport {
        let crouched = state
            .crouch
            .update(body, crouch, &self.settings.crouch_of_shape());
        let crouching = self.settings.while_crouched();
        let settings = if crouched { &crouching } else { &self.settings };
        let mut report = if self.settings.floats() {
            float::substep(settings, body, controls.wish, velocity, dt)
        } else {
            let (jump, landing) = (&mut state.jump, &mut state.landing);
            tick::substep(settings, body, controls, jump, landing, velocity, dt)
        };
        let walk = controls.wish * settings.movement.ground.max_speed;
        let (push, memory) = (&settings.push, &mut state.push);
        report.velocity = push::push_touched(body, push, memory, walk, report.velocity, dt);
        report.crouched = crouched;
        report
    }

    /// The fastest horizontal speed on the floor the input `wish` (world space, its length how
    /// far the stick is pushed) may ask of `body` this tick, m/s.
    fn top_speed<B: KinematicBody + ?Sized>(&self, body: &B, wish: Vec3) -> f32 {
        let push = horizontal(wish, up_of(body)).length().min(1.0);
        push * self.settings.movement.ground.max_speed
    }

    /// Moves the body with `velocity` (m/s) for `dt` (s) with stair stepping: a drop-in for
    /// `move_and_slide` that also steps up and down. No stepping happens while moving up (a
    /// jump), and stepping down only follows floor the body stood on at the start. Unusable
    /// velocity and delta are sanitized as in [`tick`](Self::tick).
    pub fn move_and_step<B: KinematicBody + ?Sized>(
        &self,
        body: &mut B,
        velocity: Vec3,
        dt: f32,
    ) -> TickReport {
        let stairs = &self.settings.stairs;
        let body = &mut checked_casts(body, self.settings.float_height());
        if self.settings.floats() {
            let slide = |body: &mut CheckedCasts<B>, velocity, dt| float::slide(body, velocity, dt);
            return tick::run(
                body,
                velocity,
                0.0,
                Ground::Floats,
                dt,
                Sanitized::default(),
                slide,
            );
        }
        tick::run(
            body,
            velocity,
            0.0,
            Ground::Walks,
            dt,
            Sanitized::default(),
            |body, velocity, dt| match smooth::ground_under(body, stairs, velocity) {
                Floating::Yes { ground, speed } => {
                    smooth::move_floating(body, stairs, velocity, dt, ground, speed)
                }
                Floating::No => {
                    let footing = footing::sense(body, velocity, stairs);
                    tick::move_once(
                        &self.settings,
                        body,
                        velocity,
                        Vec3::ZERO,
                        dt,
                        footing,
                        &mut Landing::default(),
                    )
                }
            },
        )
    }

    /// Building block for scripts with their own order: if a step blocks the horizontal part of
    /// `velocity` (m/s) over `dt` (s), lifts the body onto it and returns the height gained (m);
    /// the script's `move_and_slide` with the same velocity then carries it across the tread.
    /// Returns 0 and leaves the body alone when it is not on floor, is moving up, floats, or
    /// nothing steppable is ahead. Call it right before the move. It is the tick's own climb
    /// stage.
    pub fn stair_step_up<B: KinematicBody + ?Sized>(
        &self,
        body: &mut B,
        velocity: Vec3,
        dt: f32,
    ) -> f32 {
        let up = up_of(body);
        if !dt.is_finite()
            || dt <= 0.0
            || !usable_velocity(velocity)
            || !usable_position(body.position())
            || !body.is_on_floor()
            || vertical(velocity, up) > 0.0
            || self.settings.floats()
        {
            return 0.0;
        }
        let from = body.position();
        let level = is_level(body.floor_normal(), up);
        let motion = horizontal(velocity, up) * dt;
        let body = &mut checked_casts(body, self.settings.float_height());
        match climb(
            body,
            &self.settings.stairs,
            from,
            motion,
            Vec3::ZERO,
            Stance::on(level),
            None,
        ) {
            Climb::Lifted(lift) => lift.height,
            Climb::Free | Climb::Blocked => 0.0,
        }
    }

    /// Building block for scripts with their own order: after the move, if the body stood on
    /// floor before it (`was_on_floor`), is not moving up (`velocity`, m/s) and has lost the
    /// floor, moves it down onto floor within the max step height. `horizontal_travel` is how
    /// far it moved horizontally this tick (m). Returns the vertical travel for the `stepped`
    /// signal (m, negative), or `None` when there was no step (a ramp followed down is not one)
    /// or the body floats. It is the tick's own step down.
    pub fn stair_step_down<B: KinematicBody + ?Sized>(
        &self,
        body: &mut B,
        was_on_floor: bool,
        velocity: Vec3,
        horizontal_travel: f32,
    ) -> Option<f32> {
        let up = up_of(body);
        if !was_on_floor
            || !velocity.is_finite()
            || vertical(velocity, up) > 0.0
            || !usable_position(body.position())
            || body.is_on_floor()
            || self.settings.floats()
        {
            return None;
        }
        let distance = if horizontal_travel.is_finite() {
            horizontal_travel.max(0.0)
        } else {
            0.0
        };
        let travelled = horizontal(velocity, up).normalize_or_zero() * distance;
        let step = step_down(
            &mut checked_casts(body, self.settings.float_height()),
            &self.settings.stairs,
            travelled,
        )?;
        step.is_step.then_some(step.height)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn invalid_settings_are_refused() {
        let mut settings = ControllerSettings::default();
        settings.stairs.max_step_height = -0.1;
        assert_eq!(
            Controller::new(settings),
            Err(ConfigError::NegativeStepHeight { value: -0.1 })
        );
        let mut controller = Controller::new(ControllerSettings::default()).unwrap();
        assert!(controller.set_settings(settings).is_err());
        assert_eq!(controller.settings(), &ControllerSettings::default());
    }
}
