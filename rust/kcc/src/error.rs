//! Configuration errors: every setting that can be wrong has a named variant.

use thiserror::Error;

/// A setting that cannot work, named by its path (for example `movement.ground.attack_time`).
#[derive(Debug, Clone, PartialEq, Error)]
pub enum ConfigError {
    /// A setting is NaN or infinite.
    #[error("{setting} must be a finite number, got {value}")]
    NotFinite {
        /// Path of the setting.
        setting: &'static str,
        /// The rejected value.
        value: f32,
    },
    /// A top speed is zero or negative.
    #[error("{setting} must be greater than 0 m/s, got {value}")]
    NonPositiveSpeed {
        /// Path of the setting.
        setting: &'static str,
        /// The rejected value, m/s.
        value: f32,
    },
    /// An attack or release time is zero or negative.
    #[error("{setting} must be greater than 0 s, got {value}")]
    NonPositiveTime {
        /// Path of the setting.
        setting: &'static str,
        /// The rejected value, s.
        value: f32,
    },
    /// A rate (of a decay toward a target) is zero or negative.
    #[error("{setting} must be greater than 0 1/s, got {value}")]
    NonPositiveRate {
        /// Path of the setting.
        setting: &'static str,
        /// The rejected value, 1/s.
        value: f32,
    },
    /// The max step height is negative.
    #[error("stairs.max_step_height must be 0 m or more, got {value}")]
    NegativeStepHeight {
        /// The rejected value, m.
        value: f32,
    },
    /// A length that must not be negative is negative.
    #[error("{setting} must be 0 m or more, got {value}")]
    NegativeLength {
        /// Path of the setting.
        setting: &'static str,
        /// The rejected value, m.
        value: f32,
    },
    /// The sweeps would run no iteration at all.
    #[error("stairs.sweep_iterations must be at least 1, got 0")]
    NoSweepIterations,
    /// Gravity is negative (it would push the character up).
    #[error("gravity.gravity must be 0 m/s² or more, got {value}")]
    NegativeGravity {
        /// The rejected value, m/s².
        value: f32,
    },
    /// Terminal falling speed is zero or negative.
    #[error("gravity.terminal_speed must be greater than 0 m/s, got {value}")]
    NonPositiveTerminalSpeed {
        /// The rejected value, m/s.
        value: f32,
    },
    /// Jump velocity is negative.
    #[error("gravity.jump_velocity must be 0 m/s or more, got {value}")]
    NegativeJumpVelocity {
        /// The rejected value, m/s.
        value: f32,
    },
    /// A grace time (coyote time, jump buffer) is negative.
    #[error("{setting} must be 0 s or more, got {value}")]
    NegativeTime {
        /// Path of the setting.
        setting: &'static str,
        /// The rejected value, s.
        value: f32,
    },
    /// The share of upward speed kept when jump is released early is not between 0 and 1.
    #[error("jump.release_cut must be between 0 and 1, got {value}")]
    ReleaseCut {
        /// The rejected value (a share of the upward speed).
        value: f32,
    },
    /// The floor max angle is not strictly between 0 and 90 degrees.
    #[error("floor_max_angle must be between 0 and 90 degrees (exclusive), got {degrees} degrees")]
    FloorMaxAngle {
        /// The rejected value, degrees.
        degrees: f32,
    },
    /// The safe margin is not in (0, 0.1] m.
    #[error("safe_margin must be greater than 0 m and at most 0.1 m, got {value}")]
    SafeMargin {
        /// The rejected value, m.
        value: f32,
    },
    /// The up direction has no length or is not finite.
    #[error("up_direction must be a finite non-zero vector, got {value:?}")]
    UpDirection {
        /// The rejected value.
        value: [f32; 3],
    },
    /// A slide would run no iteration at all.
    #[error("max_slides must be at least 1, got 0")]
    NoSlides,
    /// The character's push strength is negative.
    #[error("push.strength must be 0 N or more, got {value}")]
    NegativeForce {
        /// The rejected value, N.
        value: f32,
    },
    /// The character's mass is zero or negative.
    #[error("push.mass must be greater than 0 kg, got {value}")]
    NonPositiveMass {
        /// The rejected value, kg.
        value: f32,
    },
    /// A character shape dimension is zero, negative or not finite.
    #[error("{setting} must be a finite number greater than 0 m, got {value}")]
    ShapeSize {
        /// Path of the setting.
        setting: &'static str,
        /// The rejected value, m.
        value: f32,
    },
}

/// Validates a floor max angle given in radians (shared by every body implementation).
pub fn validate_floor_max_angle(radians: f32) -> Result<(), ConfigError> {
    if !radians.is_finite() {
        return Err(ConfigError::NotFinite {
            setting: "floor_max_angle",
            value: radians,
        });
    }
    let degrees = radians.to_degrees();
    if degrees <= 0.0 || degrees >= 90.0 {
        return Err(ConfigError::FloorMaxAngle { degrees });
    }
    Ok(())
}

/// Validates a safe margin in m (shared by every body implementation).
pub fn validate_safe_margin(value: f32) -> Result<(), ConfigError> {
    if !(value > 0.0 && value <= 0.1) {
        return Err(ConfigError::SafeMargin { value });
    }
    Ok(())
}

/// Validates an up direction (shared by every body implementation).
pub fn validate_up_direction(up: glam::Vec3) -> Result<(), ConfigError> {
    if !up.is_finite() || up.length_squared() < 1e-12 {
        return Err(ConfigError::UpDirection {
            value: up.to_array(),
        });
    }
    Ok(())
}
