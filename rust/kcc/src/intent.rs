//! Stage 2 of a tick, intent: the velocity the character wants this sub-step, from the input,
//! with no query ([`Intent`]): the speed curves on the floor or in the air, gravity, and a jump
//! (with coyote time, the jump buffer and the release cut of [`crate::jump`]).

use glam::Vec3;

use crate::floor::{horizontal, vertical};
use crate::jump::JumpState;
use crate::movement::{horizontal_velocity, vertical_speed};
use crate::settings::ControllerSettings;

/// What the character wants to do this sub-step.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct Intent {
    /// Horizontal velocity, m/s.
    pub(crate) run: Vec3,
    /// Vertical speed, m/s (positive up): gravity, or a jump's.
    pub(crate) rise: f32,
    /// A jump starts now.
    pub(crate) jumped: bool,
    /// Horizontal velocity before the sub-step, m/s.
    before: Vec3,
    /// Horizontal velocity the input asks for at top speed, m/s.
    target: Vec3,
}

/// What moves the character: the input and its state.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct Controls {
    /// Wish direction, world space (its length how far the stick is pushed).
    pub(crate) wish: Vec3,
    /// The jump button is held.
    pub(crate) jump: bool,
}

/// What the intent needs to know of the body as the sub-step begins.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct Body {
    /// Velocity, m/s.
    pub(crate) velocity: Vec3,
    /// Unit up.
    pub(crate) up: Vec3,
    /// Something supports the body (see [`crate::footing::Footing::supported`]).
    pub(crate) supported: bool,
    /// The last slide left the body against a wall.
    pub(crate) on_wall: bool,
}

impl Intent {
    /// The intent of `body` for the `controls` over `dt` (s). `jumps` remembers presses and
    /// grace times. Against a wall, the velocity is no faster along the wall than the push's
    /// part that way (see [`along_wall`]).
    pub(crate) fn resolve(
        settings: &ControllerSettings,
        controls: Controls,
        jumps: &mut JumpState,
        body: Body,
        dt: f32,
    ) -> Self {
        let Body {
            velocity,
            up,
            supported,
            on_wall,
        } = body;
        let movement = &settings.movement;
        let curve = if supported {
            &movement.ground
        } else {
            &movement.air
        };
        let wish = horizontal(controls.wish, up).clamp_length_max(1.0);
        let before = horizontal(velocity, up);
        let mut run = horizontal_velocity(before, wish, curve, dt);
        let target = wish * curve.max_speed;
        if on_wall {
            // Last tick's slide left the velocity along the wall.
            run = along_wall(run, before, before, target);
        }
        let starts = jumps.start(controls.jump, supported, dt, &settings.jump);
        let (rise, jumped) = vertical_speed(vertical(velocity, up), starts, &settings.gravity, dt);
        let rise = jumps.cut(rise, &settings.jump);
        Self {
            run,
            rise,
            jumped,
            before,
            target,
        }
    }

    /// The horizontal unit direction the input steers the body toward; zero without input.
    pub(crate) fn aim(&self) -> Vec3 {
        self.target.normalize_or_zero()
    }

    /// The velocity the move starts with, m/s.
    pub(crate) fn velocity(&self, up: Vec3) -> Vec3 {
        self.run + up * self.rise
    }

    /// The velocity after a move that ended against a wall (`velocity`, m/s): no faster along
    /// the wall than the push's part that way, or than the body was before.
    pub(crate) fn along_wall_after(&self, velocity: Vec3, up: Vec3) -> Vec3 {
        let slid = horizontal(velocity, up);
        velocity + (along_wall(slid, slid, self.before, self.target) - slid)
    }
}

/// The horizontal velocity `run` (m/s) of a body sliding along a wall, no faster along the wall
/// (the way `along` points) than the push's part that way: the wish's `target` velocity (m/s)
/// projected on it. The curve turns the velocity back into the wall each tick and the wall
/// takes away only that part, so without this limit the release of the rest would add speed
/// along the wall. Speed the body had that way before the tick (`before`, m/s) is kept:
/// turning along a wall slows by the curve.
fn along_wall(run: Vec3, along: Vec3, before: Vec3, target: Vec3) -> Vec3 {
    let Some(direction) = along.try_normalize() else {
        return run;
    };
    let speed = run.dot(direction);
    let limit = target.dot(direction).max(before.dot(direction)).max(0.0);
    if speed > limit {
        run - direction * (speed - limit)
    } else {
        run
    }
}
