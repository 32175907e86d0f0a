//! The body's own settings: the properties of Godot's `CharacterBody3D`, with its defaults.

use glam::Vec3;
use kcc::error::{validate_floor_max_angle, validate_safe_margin, validate_up_direction};
use kcc::{ConfigError, MotionMode};

use crate::shape::CharacterShape;

/// The `CharacterBody3D` properties the headless body imitates. Defaults are Godot's, except
/// the safe margin (0.001 m, as the stair article and our addon use).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct BodySettings {
    /// Grounded (Godot's default: contacts are floor, wall or ceiling) or floating (every
    /// contact is a wall).
    pub motion_mode: MotionMode,
    /// Collision shape and size.
    pub shape: CharacterShape,
    /// Distance kept from surfaces in motion tests, m.
    pub safe_margin: f32,
    /// Steepest floor, rad (Godot default 45 degrees).
    pub floor_max_angle: f32,
    /// Most slide iterations per `move_and_slide` (Godot default 6).
    pub max_slides: u32,
    /// How far `move_and_slide` snaps down to keep floor contact, m (Godot default 0.1).
    pub floor_snap_length: f32,
    /// Walls hit at less than this angle stop horizontal motion instead of sliding, rad
    /// (Godot default 15 degrees).
    pub wall_min_slide_angle: f32,
    /// Standing still on a slope does not slide down it (Godot default true).
    pub floor_stop_on_slope: bool,
    /// Walls do not push the body up slopes (Godot default true).
    pub floor_block_on_wall: bool,
    /// Speed along slopes equals speed on flat floor (Godot default false).
    pub floor_constant_speed: bool,
    /// Hitting a ceiling while moving up slides along it (Godot default true).
    pub slide_on_ceiling: bool,
    /// Up direction (Godot default +Y). The shape itself always stands along +Y.
    pub up_direction: Vec3,
    /// How far above the origin (the feet) the collision shape's bottom floats, m; its top
    /// stays at the shape's height, so the collider is this much shorter (a capsule stays at
    /// least twice its radius tall). 0 (the default) for the stair sweeps; the max step height
    /// for `kcc::GroundFollow::Smooth`.
    pub float_height: f32,
}

impl Default for BodySettings {
    fn default() -> Self {
        Self {
            motion_mode: MotionMode::Grounded,
            shape: CharacterShape::default(),
            safe_margin: 0.001,
            floor_max_angle: 45f32.to_radians(),
            max_slides: 6,
            floor_snap_length: 0.1,
            wall_min_slide_angle: 15f32.to_radians(),
            floor_stop_on_slope: true,
            floor_block_on_wall: true,
            floor_constant_speed: false,
            slide_on_ceiling: true,
            up_direction: Vec3::Y,
            float_height: 0.0,
        }
    }
}

impl BodySettings {
    /// Checks every value with the core's named errors.
    pub fn validate(&self) -> Result<(), ConfigError> {
        self.shape.validate()?;
        validate_safe_margin(self.safe_margin)?;
        validate_floor_max_angle(self.floor_max_angle)?;
        validate_up_direction(self.up_direction)?;
        if self.max_slides == 0 {
            return Err(ConfigError::NoSlides);
        }
        if !self.floor_snap_length.is_finite() || self.floor_snap_length < 0.0 {
            return Err(ConfigError::NegativeLength {
                setting: "floor_snap_length",
                value: self.floor_snap_length,
            });
        }
        if !(self.float_height.is_finite()
            && self.float_height >= 0.0
            && self.float_height < self.shape.height())
        {
            return Err(ConfigError::ShapeSize {
                setting: "float_height (from 0 up to less than the shape's height)",
                value: self.float_height,
            });
        }
        if !self.wall_min_slide_angle.is_finite() {
            return Err(ConfigError::NotFinite {
                setting: "wall_min_slide_angle",
                value: self.wall_min_slide_angle,
            });
        }
        Ok(())
    }
}
