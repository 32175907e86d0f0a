//! Settings, one struct per concern, each with defaults that work on a usual course and a
//! `validate` that names what is wrong.

use crate::error::{ConfigError, finite};

/// One normalized ADSR speed curve: how fast the character reaches its top speed and stops.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct SpeedCurve {
    /// Top horizontal speed with the stick fully pushed, m/s.
    pub max_speed: f32,
    /// Time from standing still to `max_speed` while input is held (attack), s.
    pub attack_time: f32,
    /// Time from `max_speed` to standing still once input is released (release), s.
    pub release_time: f32,
}

impl SpeedCurve {
    fn validate(&self, prefix: Names) -> Result<(), ConfigError> {
        let speed = finite(prefix.max_speed, self.max_speed)?;
        if speed <= 0.0 {
            return Err(ConfigError::NonPositiveSpeed {
                setting: prefix.max_speed,
                value: speed,
            });
        }
        for (setting, value) in [
            (prefix.attack_time, self.attack_time),
            (prefix.release_time, self.release_time),
        ] {
            if finite(setting, value)? <= 0.0 {
                return Err(ConfigError::NonPositiveTime { setting, value });
            }
        }
        Ok(())
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
pub struct MovementSettings {
    /// Curve used while the character stands on floor.
    pub ground: SpeedCurve,
    /// Curve used while the character is in the air (air control and air drag).
    pub air: SpeedCurve,
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
        }
    }
}

impl MovementSettings {
    /// Checks every value; the first bad one is returned.
    pub fn validate(&self) -> Result<(), ConfigError> {
        self.ground.validate(Names {
            max_speed: "movement.ground.max_speed",
            attack_time: "movement.ground.attack_time",
            release_time: "movement.ground.release_time",
        })?;
        self.air.validate(Names {
            max_speed: "movement.air.max_speed",
            attack_time: "movement.air.attack_time",
            release_time: "movement.air.release_time",
        })
    }
}

/// Stair stepping up and down.
#[derive(Debug, Clone, Copy, PartialEq)]
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
    /// high tick rates (where speed x tick is tiny) still find it.
    pub min_step_forward: f32,
    /// How much further ahead to look for a flat tread when a rounded shape lands on a step's
    /// edge and the contact normal there is tilted, m.
    pub step_forward_test: f32,
    /// Slide iterations of the up and forward sweeps (along ceilings and walls), count.
    pub sweep_iterations: u32,
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
        }
    }
}

impl StairSettings {
    /// Checks every value; the first bad one is returned.
    pub fn validate(&self) -> Result<(), ConfigError> {
        let height = finite("stairs.max_step_height", self.max_step_height)?;
        if height < 0.0 {
            return Err(ConfigError::NegativeStepHeight { value: height });
        }
        for (setting, value) in [
            ("stairs.min_step_depth", self.min_step_depth),
            ("stairs.min_step_forward", self.min_step_forward),
            ("stairs.step_forward_test", self.step_forward_test),
        ] {
            if finite(setting, value)? < 0.0 {
                return Err(ConfigError::NegativeLength { setting, value });
            }
        }
        if self.sweep_iterations == 0 {
            return Err(ConfigError::NoSweepIterations);
        }
        Ok(())
    }
}

/// Falling and jumping.
#[derive(Debug, Clone, Copy, PartialEq)]
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
    /// Checks every value; the first bad one is returned.
    pub fn validate(&self) -> Result<(), ConfigError> {
        let gravity = finite("gravity.gravity", self.gravity)?;
        if gravity < 0.0 {
            return Err(ConfigError::NegativeGravity { value: gravity });
        }
        let terminal = finite("gravity.terminal_speed", self.terminal_speed)?;
        if terminal <= 0.0 {
            return Err(ConfigError::NonPositiveTerminalSpeed { value: terminal });
        }
        let jump = finite("gravity.jump_velocity", self.jump_velocity)?;
        if jump < 0.0 {
            return Err(ConfigError::NegativeJumpVelocity { value: jump });
        }
        Ok(())
    }
}

/// Everything the controller is tuned with.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct ControllerSettings {
    /// Horizontal speed curves.
    pub movement: MovementSettings,
    /// Stair stepping.
    pub stairs: StairSettings,
    /// Falling and jumping.
    pub gravity: GravitySettings,
}

impl ControllerSettings {
    /// Checks every value; the first bad one is returned.
    pub fn validate(&self) -> Result<(), ConfigError> {
        self.movement.validate()?;
        self.stairs.validate()?;
        self.gravity.validate()
    }
}
