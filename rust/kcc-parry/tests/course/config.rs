//! Every invalid setting is refused with its own named error.

use std::sync::Arc;

use glam::Vec3;
use kcc::{ConfigError, Controller, ControllerSettings};
use kcc_parry::{BodySettings, CharacterShape, ParryBody, World};

fn controller_error(change: impl Fn(&mut ControllerSettings)) -> ConfigError {
    let mut settings = ControllerSettings::default();
    change(&mut settings);
    Controller::new(settings).expect_err("must be refused")
}

fn body_error(change: impl Fn(&mut BodySettings)) -> ConfigError {
    let mut settings = BodySettings::default();
    change(&mut settings);
    ParryBody::new(Arc::new(World::new()), settings, Vec3::ZERO)
        .err()
        .expect("must be refused")
}

#[test]
fn defaults_are_valid() {
    assert!(Controller::new(ControllerSettings::default()).is_ok());
    assert!(ParryBody::new(Arc::new(World::new()), BodySettings::default(), Vec3::ZERO).is_ok());
}

#[test]
fn movement_errors_are_named() {
    assert_eq!(
        controller_error(|s| s.movement.ground.max_speed = 0.0),
        ConfigError::NonPositiveSpeed {
            setting: "movement.ground.max_speed",
            value: 0.0
        }
    );
    assert_eq!(
        controller_error(|s| s.movement.air.max_speed = -1.0),
        ConfigError::NonPositiveSpeed {
            setting: "movement.air.max_speed",
            value: -1.0
        }
    );
    assert_eq!(
        controller_error(|s| s.movement.ground.attack_time = 0.0),
        ConfigError::NonPositiveTime {
            setting: "movement.ground.attack_time",
            value: 0.0
        }
    );
    assert_eq!(
        controller_error(|s| s.movement.ground.release_time = -0.5),
        ConfigError::NonPositiveTime {
            setting: "movement.ground.release_time",
            value: -0.5
        }
    );
    assert_eq!(
        controller_error(|s| s.movement.air.attack_time = 0.0),
        ConfigError::NonPositiveTime {
            setting: "movement.air.attack_time",
            value: 0.0
        }
    );
    assert_eq!(
        controller_error(|s| s.movement.air.release_time = 0.0),
        ConfigError::NonPositiveTime {
            setting: "movement.air.release_time",
            value: 0.0
        }
    );
    assert!(matches!(
        controller_error(|s| s.movement.ground.attack_time = f32::NAN),
        ConfigError::NotFinite {
            setting: "movement.ground.attack_time",
            ..
        }
    ));
    assert!(matches!(
        controller_error(|s| s.movement.ground.max_speed = f32::INFINITY),
        ConfigError::NotFinite {
            setting: "movement.ground.max_speed",
            ..
        }
    ));
}

#[test]
fn stair_errors_are_named() {
    assert_eq!(
        controller_error(|s| s.stairs.max_step_height = -0.2),
        ConfigError::NegativeStepHeight { value: -0.2 }
    );
    assert_eq!(
        controller_error(|s| s.stairs.min_step_depth = -0.1),
        ConfigError::NegativeLength {
            setting: "stairs.min_step_depth",
            value: -0.1
        }
    );
    assert_eq!(
        controller_error(|s| s.stairs.min_step_forward = -0.1),
        ConfigError::NegativeLength {
            setting: "stairs.min_step_forward",
            value: -0.1
        }
    );
    assert_eq!(
        controller_error(|s| s.stairs.step_forward_test = -0.1),
        ConfigError::NegativeLength {
            setting: "stairs.step_forward_test",
            value: -0.1
        }
    );
    assert_eq!(
        controller_error(|s| s.stairs.sweep_iterations = 0),
        ConfigError::NoSweepIterations
    );
    assert!(matches!(
        controller_error(|s| s.stairs.max_step_height = f32::NAN),
        ConfigError::NotFinite {
            setting: "stairs.max_step_height",
            ..
        }
    ));
}

#[test]
fn gravity_errors_are_named() {
    assert_eq!(
        controller_error(|s| s.gravity.gravity = -9.8),
        ConfigError::NegativeGravity { value: -9.8 }
    );
    assert_eq!(
        controller_error(|s| s.gravity.terminal_speed = 0.0),
        ConfigError::NonPositiveTerminalSpeed { value: 0.0 }
    );
    assert_eq!(
        controller_error(|s| s.gravity.jump_velocity = -1.0),
        ConfigError::NegativeJumpVelocity { value: -1.0 }
    );
}

#[test]
fn body_errors_are_named() {
    for degrees in [0.0f32, 90.0, -10.0, 120.0] {
        assert_eq!(
            body_error(|s| s.floor_max_angle = degrees.to_radians()),
            ConfigError::FloorMaxAngle {
                degrees: degrees.to_radians().to_degrees()
            }
        );
    }
    assert!(matches!(
        body_error(|s| s.floor_max_angle = f32::NAN),
        ConfigError::NotFinite { .. }
    ));
    for margin in [0.0f32, -0.001, 0.5] {
        assert_eq!(
            body_error(|s| s.safe_margin = margin),
            ConfigError::SafeMargin { value: margin }
        );
    }
    assert!(matches!(
        body_error(|s| s.up_direction = Vec3::ZERO),
        ConfigError::UpDirection { .. }
    ));
    assert!(matches!(
        body_error(|s| s.up_direction = Vec3::NAN),
        ConfigError::UpDirection { .. }
    ));
    assert_eq!(body_error(|s| s.max_slides = 0), ConfigError::NoSlides);
    assert_eq!(
        body_error(|s| s.floor_snap_length = -0.1),
        ConfigError::NegativeLength {
            setting: "floor_snap_length",
            value: -0.1
        }
    );
    assert!(matches!(
        body_error(|s| s.shape = CharacterShape::Capsule {
            radius: 0.5,
            height: 0.8
        }),
        ConfigError::ShapeSize { .. }
    ));
    assert_eq!(
        body_error(|s| s.shape = CharacterShape::Cylinder {
            radius: 0.0,
            height: 1.8
        }),
        ConfigError::ShapeSize {
            setting: "shape.radius",
            value: 0.0
        }
    );
    assert_eq!(
        body_error(|s| s.shape = CharacterShape::Box {
            size: Vec3::new(1.0, -1.0, 1.0)
        }),
        ConfigError::ShapeSize {
            setting: "shape.size.y",
            value: -1.0
        }
    );
}

#[test]
fn errors_read_well() {
    let text = controller_error(|s| s.movement.ground.attack_time = 0.0).to_string();
    assert_eq!(
        text,
        "movement.ground.attack_time must be greater than 0 s, got 0"
    );
}
