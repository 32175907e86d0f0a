//! Settings, one struct per concern, each with defaults that work on a usual course, a
//! `validate` that names what is wrong, and a `sanitized` that repairs it.
//!
//! Each field has one rule (`check`) used both to validate and to repair, so the two never
//! disagree. Repairs: a non-finite value becomes the default; a value below its range is
//! clamped to the nearest usable value ([`MIN_SPEED`], [`MIN_TIME`], 0 for lengths, gravity and
//! jump speed, 1 sweep iteration).

use crate::error::ConfigError;

/// Smallest top or terminal speed a repair gives, m/s.
pub const MIN_SPEED: f32 = 0.01;

/// Smallest attack or release time a repair gives, s.
pub const MIN_TIME: f32 = 0.001;

/// Smallest follow rate a repair gives, 1/s.
pub const MIN_RATE: f32 = 0.1;

/// Checks one number: non-finite values are reported as [`ConfigError::NotFinite`] and replaced
/// by `default`; values outside `usable` are reported by `error` and replaced by `clamped`.
fn check(
    problems: &mut Vec<ConfigError>,
    setting: &'static str,
    value: &mut f32,
    default: f32,
    usable: impl Fn(f32) -> bool,
    error: impl Fn(f32) -> ConfigError,
    clamped: f32,
) {
    if !value.is_finite() {
        problems.push(ConfigError::NotFinite {
            setting,
            value: *value,
        });
        *value = default;
    } else if !usable(*value) {
        problems.push(error(*value));
        *value = clamped;
    }
}

/// A copy of `settings` put through `repair`, and the problems it found.
fn repaired<T: Copy>(
    settings: &T,
    repair: fn(&mut T, &mut Vec<ConfigError>),
) -> (T, Vec<ConfigError>) {
    let mut fixed = *settings;
    let mut problems = Vec::new();
    repair(&mut fixed, &mut problems);
    (fixed, problems)
}

/// The first problem, as `validate` reports it.
fn first(problems: Vec<ConfigError>) -> Result<(), ConfigError> {
    problems.into_iter().next().map_or(Ok(()), Err)
}

/// `validate` and `sanitized` for settings structs with a `repair(&mut self, problems)`, the
/// one rule set both use.
macro_rules! checked_by_repair {
    ($($settings:ty),+) => {$(
        impl $settings {
            /// Checks every value; the first bad one is returned.
            pub fn validate(&self) -> Result<(), ConfigError> {
                first(self.sanitized().1)
            }

            /// These settings with every bad value repaired, and what was wrong.
            pub fn sanitized(&self) -> (Self, Vec<ConfigError>) {
                repaired(self, Self::repair)
            }
        }
    )+};
}

checked_by_repair!(
    MovementSettings,
    StairSettings,
    GravitySettings,
    JumpSettings,
    CrouchSettings,
    PushSettings
);

/// One normalized ADSR speed curve: how fast the character reaches its top speed and stops.
#[derive(Debug, Clone, Copy, PartialEq)]
#[cfg_attr(
    feature = "serde",
    derive(serde::Serialize, serde::Deserialize),
    serde(deny_unknown_fields)
)]
pub struct SpeedCurve {
    /// Top horizontal speed with the stick fully pushed, m/s.
    pub max_speed: f32,
    /// Time from standing still to `max_speed` while input is held (attack), s.
    pub attack_time: f32,
    /// Time from `max_speed` to standing still once input is released (release), s.
    pub release_time: f32,
}

impl SpeedCurve {
    fn repair(&mut self, names: Names, default: &SpeedCurve, problems: &mut Vec<ConfigError>) {
        let speed = |setting| move |value| ConfigError::NonPositiveSpeed { setting, value };
        let time = |setting| move |value| ConfigError::NonPositiveTime { setting, value };
        let positive = |v: f32| v > 0.0;
        let (max_speed, attack, release) = (names.max_speed, names.attack_time, names.release_time);
        check(
            problems,
            max_speed,
            &mut self.max_speed,
            default.max_speed,
            positive,
            speed(max_speed),
            MIN_SPEED,
        );
        check(
            problems,
            attack,
            &mut self.attack_time,
            default.attack_time,
            positive,
            time(attack),
            MIN_TIME,
        );
        check(
            problems,
            release,
            &mut self.release_time,
            default.release_time,
            positive,
            time(release),
            MIN_TIME,
        );
    }
}

#[derive(Clone, Copy)]
struct Names {
    max_speed: &'static str,
    attack_time: &'static str,
    release_time: &'static str,
}

/// Horizontal movement: one curve on the floor and one in the air.
#[derive(Debug, Clone, Copy, PartialEq)]
#[cfg_attr(
    feature = "serde",
    derive(serde::Serialize, serde::Deserialize),
    serde(default, deny_unknown_fields)
)]
pub struct MovementSettings {
    /// Curve used while the character stands on floor.
    pub ground: SpeedCurve,
    /// Curve used while the character is in the air (air control and air drag).
    pub air: SpeedCurve,
    /// Keep the horizontal speed on ramps and over stair edges: the move on floor follows the
    /// floor's slope (its vertical speed comes from the floor normal), so walking up or down a
    /// 30 degree ramp covers the ground as fast as flat floor. Off: Godot's own slide, which
    /// projects a horizontal move onto the slope and walks slower up and down it.
    pub constant_horizontal_speed: bool,
}

impl Default for MovementSettings {
    fn default() -> Self {
        Self {
            ground: SpeedCurve {
                max_speed: 5.0,
                attack_time: 0.2,
                release_time: 0.15,
            },
            air: SpeedCurve {
                max_speed: 5.0,
                attack_time: 0.5,
                release_time: 1.0,
            },
            constant_horizontal_speed: true,
        }
    }
}

impl MovementSettings {
    fn repair(&mut self, problems: &mut Vec<ConfigError>) {
        let defaults = Self::default();
        let ground = Names {
            max_speed: "movement.ground.max_speed",
            attack_time: "movement.ground.attack_time",
            release_time: "movement.ground.release_time",
        };
        let air = Names {
            max_speed: "movement.air.max_speed",
            attack_time: "movement.air.attack_time",
            release_time: "movement.air.release_time",
        };
        self.ground.repair(ground, &defaults.ground, problems);
        self.air.repair(air, &defaults.air, problems);
    }
}

/// How a grounded move finds a step in its way.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[cfg_attr(
    feature = "serde",
    derive(serde::Serialize, serde::Deserialize),
    serde(rename_all = "snake_case")
)]
pub enum StepDetection {
    /// From the move's own contacts (the rigidbody article's technique): the engine's slide
    /// goes first, and only a slide that met a wall runs the stair sweeps. Flat ground costs
    /// the slide alone. A body held on a stair's edge by the flat base probes first, as with
    /// [`Probe`](Self::Probe): its next riser is near (not on the edge it walks off, going
    /// down).
    #[default]
    Contacts,
    /// By a probe along the tick's motion before every grounded move (the classic sweep-based
    /// technique): one more query a tick on flat ground, and a step found before the engine's
    /// slide touches it.
    Probe,
}

/// How a body on the ground follows steps and slopes up and down. Each way carries its own
/// settings, so no setting of one can be set for the other.
#[derive(Debug, Clone, Copy, PartialEq)]
#[cfg_attr(
    feature = "serde",
    derive(serde::Serialize, serde::Deserialize),
    serde(tag = "mode", rename_all = "snake_case", deny_unknown_fields)
)]
pub enum GroundFollow {
    /// Stair sweeps (the stair article's technique): the body is lifted onto a step and
    /// snapped down onto a lower one at once, and the `stepped` report moves the camera
    /// smoother by the step.
    Snap {
        /// Whether the body stands flat on a stair's edge, its feet at the edge's height while
        /// the edge is under it (see [`crate::flat_base`]; on by default): a capsule then does
        /// not roll over the edge, its height changes once per stair, and the camera smoother
        /// sees one step per riser, as with a flat bottom (which it holds on the rounding of an
        /// edge too). Off, a capsule rolls over each edge.
        #[cfg_attr(feature = "serde", serde(default = "yes"))]
        flat_base: bool,
        /// How a step in the way is found: from the move's contacts, or by a probe every
        /// tick.
        #[cfg_attr(feature = "serde", serde(default))]
        detection: StepDetection,
    },
    /// A probe under a floating shape with a smoothed body height (the "raycast snapping"
    /// technique, see [`crate::smooth`]): the body's collision shape must float
    /// `max_step_height` above its origin; the feet move toward the ground's height at
    /// `speed`. No stair sweeps, no `stepped` reports: the body itself moves smoothly.
    Smooth {
        /// How fast the feet close the gap to the ground's height, 1/s: the gap shrinks by
        /// `exp(-speed * t)` (20: 95 % in 0.15 s).
        #[cfg_attr(feature = "serde", serde(default = "smooth_speed"))]
        speed: f32,
    },
}

impl Default for GroundFollow {
    /// Stair sweeps with the flat base, finding steps from the move's contacts.
    fn default() -> Self {
        Self::Snap {
            flat_base: true,
            detection: StepDetection::Contacts,
        }
    }
}

impl GroundFollow {
    /// [`GroundFollow::Smooth`] at the default speed (20 per second).
    pub const SMOOTH: Self = Self::Smooth {
        speed: DEFAULT_SMOOTH_SPEED,
    };

    /// True for the probe under a floating shape ([`GroundFollow::Smooth`]).
    pub fn is_smooth(&self) -> bool {
        matches!(self, Self::Smooth { .. })
    }

    /// How a step in the way is found (the stair sweeps' own setting; contacts for
    /// [`GroundFollow::Smooth`], which has no stair sweeps).
    pub fn detection(&self) -> StepDetection {
        match *self {
            Self::Snap { detection, .. } => detection,
            Self::Smooth { .. } => StepDetection::Contacts,
        }
    }
}

/// Default rate of [`GroundFollow::Smooth`], 1/s.
pub const DEFAULT_SMOOTH_SPEED: f32 = 20.0;

#[cfg(feature = "serde")]
fn yes() -> bool {
    true
}

#[cfg(feature = "serde")]
fn smooth_speed() -> f32 {
    DEFAULT_SMOOTH_SPEED
}

/// Stair stepping up and down.
#[derive(Debug, Clone, Copy, PartialEq)]
#[cfg_attr(
    feature = "serde",
    derive(serde::Serialize, serde::Deserialize),
    serde(default, deny_unknown_fields)
)]
pub struct StairSettings {
    /// Whether the character steps up onto ledges no higher than `max_step_height`.
    pub step_up_enabled: bool,
    /// Whether the character follows steps and slopes down instead of flying off them.
    pub step_down_enabled: bool,
    /// Highest ledge the character steps onto, and deepest drop it follows down, m.
    pub max_step_height: f32,
    /// Free tread the character needs ahead of it after stepping up, m. A ledge shallower than
    /// this in front of a wall or a higher riser is not climbed.
    pub min_step_depth: f32,
    /// Shortest forward move used to look for the top of a step, m, so that slow walking and
    /// high tick rates (where speed x tick is tiny) still find it. The body still moves only by
    /// its own motion on the step tick: a rounded bottom (a capsule) is lifted clear of the
    /// step's edge, a flat bottom (a cylinder) floats at the tread's height until the tread is
    /// under it (with `flat_base`; without it a flat bottom is put this far past the riser).
    pub min_step_forward: f32,
    /// How much further ahead to look for a flat tread when a rounded shape lands on a step's
    /// edge and the contact normal there is tilted, m.
    pub step_forward_test: f32,
    /// Slide iterations of the up and forward sweeps (along ceilings and walls), count.
    pub sweep_iterations: u32,
    /// Stair sweeps that snap the body onto steps (with the flat base and the way steps are
    /// found), or a ground probe under a floating shape that moves it there smoothly (at its
    /// speed).
    pub ground_follow: GroundFollow,
    /// Whether the character steps up onto a body the engine simulates (a crate, a barrel) or
    /// another character that its slide runs into. Off: players expect a crate to be pushed
    /// (see [`crate::push`]), not climbed; it then stops the character as a wall does when it
    /// is too heavy to push, and so does another character.
    pub step_onto_bodies: bool,
}

impl Default for StairSettings {
    fn default() -> Self {
        Self {
            step_up_enabled: true,
            step_down_enabled: true,
            max_step_height: 0.4,
            min_step_depth: 0.1,
            min_step_forward: 0.02,
            step_forward_test: 0.15,
            sweep_iterations: 3,
            ground_follow: GroundFollow::default(),
            step_onto_bodies: false,
        }
    }
}

impl StairSettings {
    /// The reach of the flat base's probes (the max step height, m) when rounded bottoms stand
    /// flat on stair edges (see [`crate::flat_base`]); `None` when they roll over them.
    pub fn flat_reach(&self) -> Option<f32> {
        let flat = matches!(
            self.ground_follow,
            GroundFollow::Snap {
                flat_base: true,
                ..
            }
        );
        (flat && self.max_step_height > 0.0).then_some(self.max_step_height)
    }

    fn repair(&mut self, problems: &mut Vec<ConfigError>) {
        let defaults = Self::default();
        let not_negative = |v: f32| v >= 0.0;
        check(
            problems,
            "stairs.max_step_height",
            &mut self.max_step_height,
            defaults.max_step_height,
            not_negative,
            |value| ConfigError::NegativeStepHeight { value },
            0.0,
        );
        for (setting, value, default) in [
            (
                "stairs.min_step_depth",
                &mut self.min_step_depth,
                defaults.min_step_depth,
            ),
            (
                "stairs.min_step_forward",
                &mut self.min_step_forward,
                defaults.min_step_forward,
            ),
            (
                "stairs.step_forward_test",
                &mut self.step_forward_test,
                defaults.step_forward_test,
            ),
        ] {
            let error = move |value| ConfigError::NegativeLength { setting, value };
            check(problems, setting, value, default, not_negative, error, 0.0);
        }
        if let GroundFollow::Smooth { speed } = &mut self.ground_follow {
            check(
                problems,
                "stairs.ground_follow.speed",
                speed,
                DEFAULT_SMOOTH_SPEED,
                |v| v > 0.0,
                |value| ConfigError::NonPositiveRate {
                    setting: "stairs.ground_follow.speed",
                    value,
                },
                MIN_RATE,
            );
        }
        if self.sweep_iterations == 0 {
            problems.push(ConfigError::NoSweepIterations);
            self.sweep_iterations = 1;
        }
    }
}

/// Falling and jumping.
#[derive(Debug, Clone, Copy, PartialEq)]
#[cfg_attr(
    feature = "serde",
    derive(serde::Serialize, serde::Deserialize),
    serde(default, deny_unknown_fields)
)]
pub struct GravitySettings {
    /// Downward acceleration, m/s².
    pub gravity: f32,
    /// Fastest falling speed, m/s.
    pub terminal_speed: f32,
    /// Upward speed given by a jump from the floor, m/s (0 disables jumping).
    pub jump_velocity: f32,
}

impl Default for GravitySettings {
    fn default() -> Self {
        Self {
            gravity: 9.8,
            terminal_speed: 55.0,
            jump_velocity: 4.5,
        }
    }
}

impl GravitySettings {
    fn repair(&mut self, problems: &mut Vec<ConfigError>) {
        let defaults = Self::default();
        let not_negative = |v: f32| v >= 0.0;
        check(
            problems,
            "gravity.gravity",
            &mut self.gravity,
            defaults.gravity,
            not_negative,
            |value| ConfigError::NegativeGravity { value },
            0.0,
        );
        check(
            problems,
            "gravity.terminal_speed",
            &mut self.terminal_speed,
            defaults.terminal_speed,
            |v| v > 0.0,
            |value| ConfigError::NonPositiveTerminalSpeed { value },
            MIN_SPEED,
        );
        check(
            problems,
            "gravity.jump_velocity",
            &mut self.jump_velocity,
            defaults.jump_velocity,
            not_negative,
            |value| ConfigError::NegativeJumpVelocity { value },
            0.0,
        );
    }
}

/// Jump feel: the grace times players expect and a jump whose height follows how long the
/// button is held. They take effect when the caller carries a [`crate::JumpState`] from tick to
/// tick ([`crate::Controller::tick_with`]).
#[derive(Debug, Clone, Copy, PartialEq)]
#[cfg_attr(
    feature = "serde",
    derive(serde::Serialize, serde::Deserialize),
    serde(default, deny_unknown_fields)
)]
pub struct JumpSettings {
    /// How long after walking off a ledge a jump press still jumps, s (0: only on the floor).
    pub coyote_time: f32,
    /// How long before landing a jump press is remembered and jumps on landing, s (0: only a
    /// press on the floor jumps).
    pub buffer_time: f32,
    /// Share of its upward speed a rising jump keeps when the button is released, 0..1: a tap
    /// jumps lower than a hold (1: every jump is as high).
    pub release_cut: f32,
}

impl Default for JumpSettings {
    fn default() -> Self {
        Self {
            coyote_time: 0.1,
            buffer_time: 0.1,
            release_cut: 0.5,
        }
    }
}

impl JumpSettings {
    fn repair(&mut self, problems: &mut Vec<ConfigError>) {
        let defaults = Self::default();
        let grace = |setting| move |value| ConfigError::NegativeTime { setting, value };
        let not_negative = |v: f32| v >= 0.0;
        check(
            problems,
            "jump.coyote_time",
            &mut self.coyote_time,
            defaults.coyote_time,
            not_negative,
            grace("jump.coyote_time"),
            0.0,
        );
        check(
            problems,
            "jump.buffer_time",
            &mut self.buffer_time,
            defaults.buffer_time,
            not_negative,
            grace("jump.buffer_time"),
            0.0,
        );
        let cut = self.release_cut;
        check(
            problems,
            "jump.release_cut",
            &mut self.release_cut,
            defaults.release_cut,
            |v| (0.0..=1.0).contains(&v),
            |value| ConfigError::ReleaseCut { value },
            cut.clamp(0.0, 1.0),
        );
    }
}

/// Crouching (see [`crate::crouch`]): the shape's height, speed and step height while the crouch
/// input is held.
#[derive(Debug, Clone, Copy, PartialEq)]
#[cfg_attr(
    feature = "serde",
    derive(serde::Serialize, serde::Deserialize),
    serde(default, deny_unknown_fields)
)]
pub struct CrouchSettings {
    /// Height of the body's shape while crouched, m (a capsule stays at least as tall as it is
    /// wide). No lower than the standing shape: crouching changes nothing.
    pub height: f32,
    /// Top walking speed while crouched, m/s (instead of the ground curve's).
    pub max_speed: f32,
    /// Highest ledge stepped onto, and deepest drop followed down, while crouched, m.
    pub max_step_height: f32,
}

impl Default for CrouchSettings {
    fn default() -> Self {
        Self {
            height: 1.0,
            max_speed: 2.5,
            max_step_height: 0.25,
        }
    }
}

impl CrouchSettings {
    fn repair(&mut self, problems: &mut Vec<ConfigError>) {
        let defaults = Self::default();
        check(
            problems,
            "crouch.height",
            &mut self.height,
            defaults.height,
            |v| v > 0.0,
            |value| ConfigError::ShapeSize {
                setting: "crouch.height",
                value,
            },
            MIN_CROUCH_HEIGHT,
        );
        check(
            problems,
            "crouch.max_speed",
            &mut self.max_speed,
            defaults.max_speed,
            |v| v > 0.0,
            |value| ConfigError::NonPositiveSpeed {
                setting: "crouch.max_speed",
                value,
            },
            MIN_SPEED,
        );
        check(
            problems,
            "crouch.max_step_height",
            &mut self.max_step_height,
            defaults.max_step_height,
            |v| v >= 0.0,
            |value| ConfigError::NegativeLength {
                setting: "crouch.max_step_height",
                value,
            },
            0.0,
        );
    }
}

/// Pushing the bodies the physics engine simulates (Godot's `RigidBody3D`s) that the character
/// walks into (see [`crate::push`]).
#[derive(Debug, Clone, Copy, PartialEq)]
#[cfg_attr(
    feature = "serde",
    derive(serde::Serialize, serde::Deserialize),
    serde(default, deny_unknown_fields)
)]
pub struct PushSettings {
    /// Strongest push the character gives a body it walks into, N: 0 pushes nothing (the body
    /// is a wall, as for Godot's own `CharacterBody3D`). A body whose friction on the floor is
    /// more than this (friction x mass x gravity) does not move.
    pub strength: f32,
    /// The character's mass, kg: a push shares the walk's momentum between the character and
    /// the body, so a body much lighter than the character is pushed at nearly the walking
    /// speed and one as heavy at half of it.
    pub mass: f32,
    /// The character's weight (its mass times its gravity) presses down on a body the engine
    /// simulates that it stands on, at the contact: a seesaw tips, a raft dips. Off: bodies
    /// under the character feel nothing of it (as under Godot's own `CharacterBody3D`). See
    /// [`crate::push::press_floor`].
    pub weight_on_bodies: bool,
}

impl Default for PushSettings {
    fn default() -> Self {
        Self {
            strength: 500.0,
            mass: 80.0,
            weight_on_bodies: true,
        }
    }
}

impl PushSettings {
    fn repair(&mut self, problems: &mut Vec<ConfigError>) {
        let defaults = Self::default();
        check(
            problems,
            "push.strength",
            &mut self.strength,
            defaults.strength,
            |v| v >= 0.0,
            |value| ConfigError::NegativeForce { value },
            0.0,
        );
        check(
            problems,
            "push.mass",
            &mut self.mass,
            defaults.mass,
            |v| v > 0.0,
            |value| ConfigError::NonPositiveMass { value },
            defaults.mass,
        );
    }
}

/// Smallest crouch height a repair gives, m.
pub const MIN_CROUCH_HEIGHT: f32 = 0.05;

/// How the character moves: on the ground, or floating (Godot's `CharacterBody3D.motion_mode`,
/// which the body's own must match: the engine's slide sorts contacts by it).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[cfg_attr(
    feature = "serde",
    derive(serde::Serialize, serde::Deserialize),
    serde(rename_all = "snake_case")
)]
pub enum MotionMode {
    /// On the ground: gravity, jumps and stair stepping; the floor's speed curves on the floor
    /// and the air's in the air, across the ground.
    #[default]
    Grounded,
    /// Floating: swimming, flying, a ladder the game scripts. No gravity, no jump and no stair
    /// stepping; every part of the wish direction moves the character (up and down too), with
    /// the floor's speed curves in three dimensions (see [`crate::float`]). The engine's slide
    /// treats every contact as a wall.
    Floating,
}

/// Everything the controller is tuned with.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
#[cfg_attr(
    feature = "serde",
    derive(serde::Serialize, serde::Deserialize),
    serde(default, deny_unknown_fields)
)]
pub struct ControllerSettings {
    /// On the ground or floating.
    pub motion_mode: MotionMode,
    /// Horizontal speed curves.
    pub movement: MovementSettings,
    /// Stair stepping.
    pub stairs: StairSettings,
    /// Falling and jumping.
    pub gravity: GravitySettings,
    /// Jump feel: coyote time, jump buffer, variable jump height.
    pub jump: JumpSettings,
    /// Crouch height, speed and step height.
    pub crouch: CrouchSettings,
    /// Pushing the bodies the engine simulates.
    pub push: PushSettings,
}

impl ControllerSettings {
    /// True when the character floats ([`MotionMode::Floating`]): no gravity, jump or stairs.
    pub fn floats(&self) -> bool {
        self.motion_mode == MotionMode::Floating
    }

    /// Checks every value; the first bad one is returned.
    pub fn validate(&self) -> Result<(), ConfigError> {
        first(self.sanitized().1)
    }

    /// These settings with every bad value repaired (see the module docs for how), and every
    /// problem found, in order. The result always passes [`validate`](Self::validate). An
    /// engine adapter uses this to keep a game running on a bad setting and warn about it.
    pub fn sanitized(&self) -> (Self, Vec<ConfigError>) {
        let mut fixed = *self;
        let mut problems = Vec::new();
        fixed.movement.repair(&mut problems);
        fixed.stairs.repair(&mut problems);
        fixed.gravity.repair(&mut problems);
        fixed.jump.repair(&mut problems);
        fixed.crouch.repair(&mut problems);
        fixed.push.repair(&mut problems);
        (fixed, problems)
    }

    /// These settings as they apply while crouched: the crouch's top speed on the ground and
    /// its step height (with [`GroundFollow::Smooth`] the step height stays: it is how far the
    /// shape floats).
    pub fn while_crouched(&self) -> Self {
        let mut crouched = *self;
        crouched.movement.ground.max_speed = self.crouch.max_speed;
        if !self.stairs.ground_follow.is_smooth() {
            crouched.stairs.max_step_height = self.crouch.max_step_height;
        }
        crouched
    }

    /// How far the body's collision shape must float above its origin (the feet), m: the max
    /// step height with [`GroundFollow::Smooth`], none with the stair sweeps.
    pub fn float_height(&self) -> f32 {
        if self.stairs.ground_follow.is_smooth() {
            self.stairs.max_step_height.max(0.0)
        } else {
            0.0
        }
    }

    /// The crouch as the body's shape takes it: with a floating shape, the crouch height is
    /// the feet-to-top height, so the shape itself is shorter by the float.
    pub fn crouch_of_shape(&self) -> CrouchSettings {
        CrouchSettings {
            height: (self.crouch.height - self.float_height()).max(MIN_CROUCH_HEIGHT),
            ..self.crouch
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sanitized_repairs_every_bad_value_and_names_it() {
        let mut bad = ControllerSettings::default();
        bad.movement.ground.max_speed = 0.0;
        bad.movement.ground.attack_time = -1.0;
        bad.movement.air.release_time = f32::NAN;
        bad.stairs.max_step_height = -0.3;
        bad.stairs.min_step_depth = f32::INFINITY;
        bad.stairs.sweep_iterations = 0;
        bad.gravity.gravity = -9.8;
        bad.gravity.terminal_speed = 0.0;
        bad.gravity.jump_velocity = -1.0;
        bad.jump.coyote_time = -0.1;
        bad.jump.buffer_time = f32::NAN;
        bad.jump.release_cut = 1.5;
        bad.crouch.height = 0.0;
        bad.crouch.max_speed = -1.0;
        bad.crouch.max_step_height = f32::NAN;
        bad.stairs.ground_follow = GroundFollow::Smooth { speed: -1.0 };
        bad.push.strength = -5.0;
        bad.push.mass = 0.0;
        let (fixed, problems) = bad.sanitized();
        assert_eq!(problems.len(), 18, "{problems:?}");
        assert!(problems.contains(&ConfigError::NegativeForce { value: -5.0 }));
        assert!(problems.contains(&ConfigError::NonPositiveMass { value: 0.0 }));
        assert_eq!(
            fixed.stairs.ground_follow,
            GroundFollow::Smooth { speed: MIN_RATE }
        );
        assert_eq!(fixed.validate(), Ok(()));
        assert_eq!(bad.validate(), Err(problems[0].clone()));
        let defaults = ControllerSettings::default();
        assert_eq!(fixed.movement.ground.max_speed, MIN_SPEED);
        assert_eq!(fixed.movement.ground.attack_time, MIN_TIME);
        assert_eq!(
            fixed.movement.air.release_time,
            defaults.movement.air.release_time
        );
        assert_eq!(fixed.stairs.max_step_height, 0.0);
        assert_eq!(fixed.stairs.min_step_depth, defaults.stairs.min_step_depth);
        assert_eq!(fixed.stairs.sweep_iterations, 1);
        assert_eq!(fixed.gravity.gravity, 0.0);
        assert_eq!(fixed.gravity.terminal_speed, MIN_SPEED);
        assert_eq!(fixed.gravity.jump_velocity, 0.0);
        assert_eq!(fixed.jump.coyote_time, 0.0);
        assert_eq!(fixed.jump.buffer_time, defaults.jump.buffer_time);
        assert_eq!(fixed.jump.release_cut, 1.0);
        assert_eq!(fixed.crouch.height, MIN_CROUCH_HEIGHT);
        assert_eq!(fixed.crouch.max_speed, MIN_SPEED);
        assert_eq!(
            fixed.crouch.max_step_height,
            defaults.crouch.max_step_height
        );
        assert_eq!(fixed.push.strength, 0.0);
        assert_eq!(fixed.push.mass, defaults.push.mass);
    }

    #[test]
    fn good_settings_are_untouched() {
        let mut good = ControllerSettings::default();
        good.movement.ground.max_speed = 9.0;
        good.gravity.gravity = 0.0;
        good.stairs.max_step_height = 0.0;
        assert_eq!(good.sanitized(), (good, Vec::new()));
    }
}
