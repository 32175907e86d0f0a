//! What a tick reports: the velocity to write back, the floor state, the steps for the
//! camera, the jump and the crouch.

use glam::Vec3;

use crate::sanitize::Sanitized;

/// What happened during a tick.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct TickReport {
    /// Velocity after the tick, m/s; write it back to the body. As Godot's `velocity` after
    /// `move_and_slide`, it is the body's own: horizontal on a ramp, without a platform's.
    pub velocity: Vec3,
    /// How fast the body really moved this tick, m/s: its displacement over the tick's delta
    /// (zero when nothing moved). On a tick without a stair step this is what Godot's
    /// `get_real_velocity()` says after the tick; on a ramp it follows the slope, on a platform
    /// it includes the ride.
    pub real_velocity: Vec3,
    /// How far the body was moved out of another character this tick outside the engine's
    /// slide, m: Godot Physics' slide stops dead in a character that walked into the body
    /// after its last move, and the move is made again out of it (see `real_velocity`, which
    /// leaves it out, as `get_real_velocity()` does). Zero on almost every tick.
    pub separated: Vec3,
    /// Height the body was raised outside the engine's slide this tick, m (0 or more): by a
    /// climb's lift onto a step (the slide across the step starts there and may end lower, on
    /// the rounding of its edge or, when the engine's floor snap takes the body back down off
    /// the step, below where the tick began), or by the settle (the flat base's hold on an
    /// edge, a landing stood out of the floor the slide sank it into), or to make again a slide
    /// the engine stopped dead on its own floor (a safe margin). On such a tick
    /// `real_velocity` is the whole move's, where Godot's `get_real_velocity()` is the last
    /// slide's.
    pub step_up: f32,
    /// Height lost by stepping down this tick, m (0 or less), including drops that only follow
    /// a sloped floor. A step down that found the floor right where the body was can report a
    /// fraction of a millimetre up: the engine's recovery out of that floor.
    pub step_down: f32,
    /// Vertical travel of the stair steps this tick, m, for the `stepped` signal and the camera:
    /// step ups plus those step downs that were steps. `None` when there was no step.
    pub stepped: Option<f32>,
    /// The body stood on floor when the tick began.
    pub was_on_floor: bool,
    /// The body stands on floor after the tick.
    pub on_floor: bool,
    /// A jump started this tick.
    pub jumped: bool,
    /// The body is crouched after the tick (its shape shrunk to the crouch height).
    pub crouched: bool,
    /// Number of sub-steps the delta was split into.
    pub substeps: u32,
    /// Inputs that were unusable and replaced.
    pub sanitized: Sanitized,
}

impl TickReport {
    /// The body came down on floor this tick.
    pub fn landed(&self) -> bool {
        !self.was_on_floor && self.on_floor
    }

    /// The body left the floor this tick (walked off a ledge or jumped).
    pub fn left_floor(&self) -> bool {
        self.was_on_floor && !self.on_floor
    }

    /// Adds the report of one sub-step of the tick: its velocity and floor state replace this
    /// one's, its steps add up.
    pub(crate) fn absorb(&mut self, part: &TickReport) {
        self.velocity = part.velocity;
        self.separated += part.separated;
        self.step_up += part.step_up;
        self.step_down += part.step_down;
        self.stepped = match (self.stepped, part.stepped) {
            (Some(a), Some(b)) => Some(a + b),
            (a, b) => a.or(b),
        };
        self.on_floor = part.on_floor;
        self.jumped |= part.jumped;
        self.crouched = part.crouched;
        self.substeps += 1;
    }
}
