//! Inspector properties to `kcc::ControllerSettings`, and what to do with values that cannot
//! work.
//!
//! [`Properties`] holds the node's tuning properties exactly as the inspector shows them (same
//! names, same units). [`Properties::to_settings`] is the translation table to the core's
//! settings. [`sanitize`] repairs settings the core refuses: each problem the core names is
//! clamped to a safe value, and the core's error is kept so the node can warn once. A bad
//! setting never stops the game and never panics.

use kcc::{ConfigError, ControllerSettings};

/// Smallest top speed a repaired setting gets, m/s.
pub const MIN_SPEED: f32 = 0.01;

/// Smallest attack or release time a repaired setting gets, s.
pub const MIN_TIME: f32 = 0.001;

/// Upper bound on repairs in one [`sanitize`] call: more than the number of settings, so every
/// setting can be repaired once.
const MAX_REPAIRS: usize = 32;

/// The node's tuning properties, one field per inspector property (m, s, m/s, m/s², count).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Properties {
    /// Highest ledge stepped onto and deepest drop followed down, m.
    pub max_step_height: f32,
    /// Free tread needed on top of a step, m.
    pub min_step_depth: f32,
    /// Shortest forward probe for the top of a step, m.
    pub min_step_forward: f32,
    /// Extra look-ahead when landing on a step's edge, m.
    pub step_forward_test: f32,
    /// Slide iterations of the stair sweeps (as the inspector's integer).
    pub sweep_iterations: i32,
    /// Step up onto ledges.
    pub step_up_enabled: bool,
    /// Follow steps and slopes down.
    pub step_down_enabled: bool,
    /// Top speed on floor, m/s.
    pub max_speed: f32,
    /// Time to top speed on floor, s.
    pub attack_time: f32,
    /// Time to stop on floor, s.
    pub release_time: f32,
    /// Top speed in the air, m/s.
    pub air_max_speed: f32,
    /// Time to top speed in the air, s.
    pub air_attack_time: f32,
    /// Time to stop in the air, s.
    pub air_release_time: f32,
    /// Downward acceleration, m/s².
    pub gravity: f32,
    /// Fastest fall, m/s.
    pub terminal_speed: f32,
    /// Upward speed of a jump, m/s.
    pub jump_velocity: f32,
}

impl Default for Properties {
    /// The core's defaults: a node fresh from the editor behaves like
    /// `kcc::ControllerSettings::default()`.
    fn default() -> Self {
        Self::from_settings(&ControllerSettings::default())
    }
}

impl Properties {
    /// Properties showing `settings`.
    pub fn from_settings(settings: &ControllerSettings) -> Self {
        let stairs = &settings.stairs;
        let ground = &settings.movement.ground;
        let air = &settings.movement.air;
        let gravity = &settings.gravity;
        Self {
            max_step_height: stairs.max_step_height,
            min_step_depth: stairs.min_step_depth,
            min_step_forward: stairs.min_step_forward,
            step_forward_test: stairs.step_forward_test,
            sweep_iterations: i32::try_from(stairs.sweep_iterations).unwrap_or(i32::MAX),
            step_up_enabled: stairs.step_up_enabled,
            step_down_enabled: stairs.step_down_enabled,
            max_speed: ground.max_speed,
            attack_time: ground.attack_time,
            release_time: ground.release_time,
            air_max_speed: air.max_speed,
            air_attack_time: air.attack_time,
            air_release_time: air.release_time,
            gravity: gravity.gravity,
            terminal_speed: gravity.terminal_speed,
            jump_velocity: gravity.jump_velocity,
        }
    }

    /// The core's settings, unchecked: pass them through [`sanitize`] before use. A negative
    /// iteration count becomes 0, which the core refuses and [`sanitize`] repairs.
    pub fn to_settings(&self) -> ControllerSettings {
        let mut settings = ControllerSettings::default();
        let stairs = &mut settings.stairs;
        stairs.max_step_height = self.max_step_height;
        stairs.min_step_depth = self.min_step_depth;
        stairs.min_step_forward = self.min_step_forward;
        stairs.step_forward_test = self.step_forward_test;
        stairs.sweep_iterations = u32::try_from(self.sweep_iterations).unwrap_or(0);
        stairs.step_up_enabled = self.step_up_enabled;
        stairs.step_down_enabled = self.step_down_enabled;
        let ground = &mut settings.movement.ground;
        ground.max_speed = self.max_speed;
        ground.attack_time = self.attack_time;
        ground.release_time = self.release_time;
        let air = &mut settings.movement.air;
        air.max_speed = self.air_max_speed;
        air.attack_time = self.air_attack_time;
        air.release_time = self.air_release_time;
        let gravity = &mut settings.gravity;
        gravity.gravity = self.gravity;
        gravity.terminal_speed = self.terminal_speed;
        gravity.jump_velocity = self.jump_velocity;
        settings
    }
}

/// Settings the core accepts, and the core's complaints about the ones it was given (empty
/// when they were fine). Each complaint is repaired by clamping the named setting to a safe
/// value: a non-finite value to the core's default, a negative length, gravity or jump speed to
/// 0, a speed or time that must be positive to [`MIN_SPEED`] or [`MIN_TIME`], zero sweep
/// iterations to 1. Should the core ever name a problem this table does not know, everything is
/// reset to the core's defaults.
pub fn sanitize(settings: ControllerSettings) -> (ControllerSettings, Vec<ConfigError>) {
    let mut settings = settings;
    let mut problems = Vec::new();
    for _ in 0..MAX_REPAIRS {
        match settings.validate() {
            Ok(()) => break,
            Err(problem) => {
                repair(&mut settings, &problem);
                problems.push(problem);
            }
        }
    }
    (settings, problems)
}

/// Clamps the setting `problem` names.
fn repair(settings: &mut ControllerSettings, problem: &ConfigError) {
    let defaults = ControllerSettings::default();
    let fixed = match *problem {
        ConfigError::NotFinite { setting, .. } => {
            let value = number(&defaults, setting);
            set_number(settings, setting, value)
        }
        ConfigError::NonPositiveSpeed { setting, .. } => {
            set_number(settings, setting, Some(MIN_SPEED))
        }
        ConfigError::NonPositiveTime { setting, .. } => {
            set_number(settings, setting, Some(MIN_TIME))
        }
        ConfigError::NegativeLength { setting, .. } => set_number(settings, setting, Some(0.0)),
        ConfigError::NegativeStepHeight { .. } => {
            settings.stairs.max_step_height = 0.0;
            true
        }
        ConfigError::NoSweepIterations => {
            settings.stairs.sweep_iterations = 1;
            true
        }
        ConfigError::NegativeGravity { .. } => {
            settings.gravity.gravity = 0.0;
            true
        }
        ConfigError::NonPositiveTerminalSpeed { .. } => {
            settings.gravity.terminal_speed = MIN_SPEED;
            true
        }
        ConfigError::NegativeJumpVelocity { .. } => {
            settings.gravity.jump_velocity = 0.0;
            true
        }
        _ => false,
    };
    if !fixed {
        *settings = defaults;
    }
}

/// The numeric setting at `path` (the names the core uses in its errors).
fn number(settings: &ControllerSettings, path: &str) -> Option<f32> {
    let mut copy = *settings;
    number_mut(&mut copy, path).map(|value| *value)
}

/// Sets the numeric setting at `path`; false when the path or the value is unknown.
fn set_number(settings: &mut ControllerSettings, path: &str, value: Option<f32>) -> bool {
    match (number_mut(settings, path), value) {
        (Some(slot), Some(value)) => {
            *slot = value;
            true
        }
        _ => false,
    }
}

/// The numeric setting at `path`, by the names the core uses in its errors.
fn number_mut<'a>(settings: &'a mut ControllerSettings, path: &str) -> Option<&'a mut f32> {
    let movement = &mut settings.movement;
    let stairs = &mut settings.stairs;
    let gravity = &mut settings.gravity;
    Some(match path {
        "movement.ground.max_speed" => &mut movement.ground.max_speed,
        "movement.ground.attack_time" => &mut movement.ground.attack_time,
        "movement.ground.release_time" => &mut movement.ground.release_time,
        "movement.air.max_speed" => &mut movement.air.max_speed,
        "movement.air.attack_time" => &mut movement.air.attack_time,
        "movement.air.release_time" => &mut movement.air.release_time,
        "stairs.max_step_height" => &mut stairs.max_step_height,
        "stairs.min_step_depth" => &mut stairs.min_step_depth,
        "stairs.min_step_forward" => &mut stairs.min_step_forward,
        "stairs.step_forward_test" => &mut stairs.step_forward_test,
        "gravity.gravity" => &mut gravity.gravity,
        "gravity.terminal_speed" => &mut gravity.terminal_speed,
        "gravity.jump_velocity" => &mut gravity.jump_velocity,
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every numeric setting path, with a setter on `Properties` for the same value.
    const PATHS: [&str; 13] = [
        "movement.ground.max_speed",
        "movement.ground.attack_time",
        "movement.ground.release_time",
        "movement.air.max_speed",
        "movement.air.attack_time",
        "movement.air.release_time",
        "stairs.max_step_height",
        "stairs.min_step_depth",
        "stairs.min_step_forward",
        "stairs.step_forward_test",
        "gravity.gravity",
        "gravity.terminal_speed",
        "gravity.jump_velocity",
    ];

    #[test]
    fn defaults_are_the_cores() {
        let properties = Properties::default();
        assert_eq!(properties.to_settings(), ControllerSettings::default());
        assert_eq!(
            Properties::from_settings(&properties.to_settings()),
            properties
        );
        let (settings, problems) = sanitize(properties.to_settings());
        assert!(problems.is_empty());
        assert_eq!(settings, ControllerSettings::default());
    }

    #[test]
    fn every_property_reaches_its_setting() {
        let p = Properties {
            max_step_height: 0.31,
            min_step_depth: 0.12,
            min_step_forward: 0.03,
            step_forward_test: 0.2,
            sweep_iterations: 5,
            step_up_enabled: false,
            step_down_enabled: false,
            max_speed: 7.0,
            attack_time: 0.3,
            release_time: 0.4,
            air_max_speed: 6.0,
            air_attack_time: 0.6,
            air_release_time: 0.7,
            gravity: 20.0,
            terminal_speed: 30.0,
            jump_velocity: 6.5,
        };
        let s = p.to_settings();
        assert_eq!(s.stairs.max_step_height, 0.31);
        assert_eq!(s.stairs.min_step_depth, 0.12);
        assert_eq!(s.stairs.min_step_forward, 0.03);
        assert_eq!(s.stairs.step_forward_test, 0.2);
        assert_eq!(s.stairs.sweep_iterations, 5);
        assert!(!s.stairs.step_up_enabled && !s.stairs.step_down_enabled);
        assert_eq!(s.movement.ground.max_speed, 7.0);
        assert_eq!(s.movement.ground.attack_time, 0.3);
        assert_eq!(s.movement.ground.release_time, 0.4);
        assert_eq!(s.movement.air.max_speed, 6.0);
        assert_eq!(s.movement.air.attack_time, 0.6);
        assert_eq!(s.movement.air.release_time, 0.7);
        assert_eq!(s.gravity.gravity, 20.0);
        assert_eq!(s.gravity.terminal_speed, 30.0);
        assert_eq!(s.gravity.jump_velocity, 6.5);
        assert_eq!(Properties::from_settings(&s), p);
    }

    #[test]
    fn every_error_path_is_known() {
        // The core names settings by path in its errors; a renamed path must fail here.
        let mut settings = ControllerSettings::default();
        for path in PATHS {
            assert!(number_mut(&mut settings, path).is_some(), "{path}");
        }
        assert!(number_mut(&mut settings, "stairs.nope").is_none());
    }

    #[test]
    fn non_finite_values_go_back_to_defaults() {
        let defaults = ControllerSettings::default();
        for path in PATHS {
            for bad in [f32::NAN, f32::INFINITY, f32::NEG_INFINITY] {
                let mut settings = defaults;
                *number_mut(&mut settings, path).unwrap() = bad;
                let (fixed, problems) = sanitize(settings);
                assert_eq!(fixed, defaults, "{path} = {bad}");
                assert_eq!(problems.len(), 1, "{path} = {bad}");
                assert!(problems[0].to_string().contains(path), "{}", problems[0]);
            }
        }
    }

    #[test]
    fn out_of_range_values_are_clamped() {
        let p = Properties {
            max_step_height: -1.0,
            min_step_depth: -0.1,
            min_step_forward: -0.1,
            step_forward_test: -0.1,
            sweep_iterations: -3,
            max_speed: 0.0,
            attack_time: -1.0,
            release_time: 0.0,
            air_max_speed: -2.0,
            air_attack_time: 0.0,
            air_release_time: -0.5,
            gravity: -9.8,
            terminal_speed: 0.0,
            jump_velocity: -4.0,
            ..Properties::default()
        };
        let (s, problems) = sanitize(p.to_settings());
        assert_eq!(s.validate(), Ok(()));
        assert_eq!(problems.len(), 14, "{problems:?}");
        assert_eq!(s.stairs.max_step_height, 0.0);
        assert_eq!(s.stairs.min_step_depth, 0.0);
        assert_eq!(s.stairs.min_step_forward, 0.0);
        assert_eq!(s.stairs.step_forward_test, 0.0);
        assert_eq!(s.stairs.sweep_iterations, 1);
        assert_eq!(s.movement.ground.max_speed, MIN_SPEED);
        assert_eq!(s.movement.ground.attack_time, MIN_TIME);
        assert_eq!(s.movement.ground.release_time, MIN_TIME);
        assert_eq!(s.movement.air.max_speed, MIN_SPEED);
        assert_eq!(s.movement.air.attack_time, MIN_TIME);
        assert_eq!(s.movement.air.release_time, MIN_TIME);
        assert_eq!(s.gravity.gravity, 0.0);
        assert_eq!(s.gravity.terminal_speed, MIN_SPEED);
        assert_eq!(s.gravity.jump_velocity, 0.0);
    }

    #[test]
    fn good_values_are_untouched() {
        let p = Properties {
            max_speed: 9.0,
            sweep_iterations: 1,
            gravity: 0.0,
            ..Properties::default()
        };
        let (s, problems) = sanitize(p.to_settings());
        assert!(problems.is_empty());
        assert_eq!(s, p.to_settings());
    }

    #[test]
    fn unknown_problems_reset_to_defaults() {
        let mut settings = Properties::default().to_settings();
        settings.movement.ground.max_speed = 12.0;
        repair(&mut settings, &ConfigError::NoSlides);
        assert_eq!(settings, ControllerSettings::default());
    }
}
