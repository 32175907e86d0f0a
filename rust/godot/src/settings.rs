//! Inspector properties to `kcc::ControllerSettings`, and what to do with values that cannot
//! work.
//!
//! [`Properties`] holds the node's tuning properties exactly as the inspector shows them (same
//! names, same units). [`Properties::to_settings`] is the translation table to the core's
//! settings. [`sanitize`] hands bad values to the core, which repairs each one and names it so
//! the node can warn once. A bad setting never stops the game and never panics.

use godot::prelude::{Export, GodotConvert, Var};
use kcc::{ConfigError, ControllerSettings};

/// An inspector enum that mirrors a core enum variant for variant, converted both ways.
macro_rules! mirrored_enum {
    ($(#[$meta:meta])* $name:ident mirrors $core:path {
        $(#[$first_meta:meta])* $first:ident,
        $($(#[$variant_meta:meta])* $variant:ident,)*
    }) => {
        $(#[$meta])*
        #[derive(GodotConvert, Var, Export, Debug, Clone, Copy, PartialEq, Eq, Default)]
        #[godot(via = i64)]
        pub enum $name {
            $(#[$first_meta])*
            #[default]
            $first,
            $($(#[$variant_meta])* $variant,)*
        }

        impl From<$name> for $core {
            fn from(value: $name) -> Self {
                match value {
                    $name::$first => Self::$first,
                    $($name::$variant => Self::$variant,)*
                }
            }
        }

        impl From<$core> for $name {
            fn from(value: $core) -> Self {
                use $core as Core;
                match value {
                    Core::$first => Self::$first,
                    $(Core::$variant => Self::$variant,)*
                }
            }
        }
    };
}

mirrored_enum! {
    /// How the body finds a step in its way (the inspector's `step_detection`; see
    /// `kcc::StepDetection`).
    StepDetection mirrors kcc::StepDetection {
        /// From the move's own contacts: the stair sweeps run when the slide meets a wall (and
        /// first, for a body held on a stair's edge).
        Contacts,
        /// A probe along the motion before every grounded move.
        Probe,
    }
}

/// How the body follows steps and slopes (the inspector's `ground_follow`; see
/// `kcc::GroundFollow`, whose variants carry their own settings: the node's `flat_base` and
/// `step_detection` go with [`Snap`](Self::Snap), `ground_follow_speed` with
/// [`Smooth`](Self::Smooth)).
#[derive(GodotConvert, Var, Export, Debug, Clone, Copy, PartialEq, Eq, Default)]
#[godot(via = i64)]
pub enum GroundFollow {
    /// Stair sweeps: lifted onto a step and snapped down at once; the camera smooths the step.
    #[default]
    Snap,
    /// A probe under a floating shape: the body moves toward the ground's height smoothly.
    Smooth,
}

/// The node's tuning properties, one field per inspector property (m, s, m/s, m/s², count).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Properties {
    /// The body's `motion_mode` is Floating (swimming, flying: no gravity, jumps or steps; see
    /// `kcc::MotionMode`).
    pub floating: bool,
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
    /// How a step in the way is found.
    pub step_detection: StepDetection,
    /// Stair sweeps that snap, or a ground probe that moves the body smoothly.
    pub ground_follow: GroundFollow,
    /// How fast a smooth ground follow closes the gap to the ground, 1/s.
    pub ground_follow_speed: f32,
    /// The body stands flat on stair edges (its feet at the edge's height).
    pub flat_base: bool,
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
    /// Keep the horizontal speed on ramps and over stair edges.
    pub constant_horizontal_speed: bool,
    /// Fall with [`custom_gravity`](Self::custom_gravity) instead of the world's gravity.
    pub use_custom_gravity: bool,
    /// Downward acceleration when [`use_custom_gravity`](Self::use_custom_gravity) is on, m/s².
    pub custom_gravity: f32,
    /// Fastest fall, m/s.
    pub terminal_speed: f32,
    /// Upward speed of a jump, m/s.
    pub jump_velocity: f32,
    /// Grace time for a jump after walking off a ledge, s.
    pub coyote_time: f32,
    /// How long a jump press in the air is remembered for the landing, s.
    pub jump_buffer_time: f32,
    /// Share of the upward speed a rising jump keeps when the button is released (0..1).
    pub jump_release_cut: f32,
    /// Height of the shape while crouched, m.
    pub crouch_height: f32,
    /// Top walking speed while crouched, m/s.
    pub crouch_max_speed: f32,
    /// Max step height while crouched, m.
    pub crouch_max_step_height: f32,
    /// Strongest push given to a `RigidBody3D` walked into, N (0: none).
    pub push_strength: f32,
    /// The character's mass, shared with the bodies it pushes, kg.
    pub mass: f32,
    /// The character's weight presses on a `RigidBody3D` it stands on.
    pub weight_on_bodies: bool,
    /// Step up onto a `RigidBody3D` walked into instead of pushing it.
    pub step_onto_bodies: bool,
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
            floating: settings.motion_mode == kcc::MotionMode::Floating,
            max_step_height: stairs.max_step_height,
            min_step_depth: stairs.min_step_depth,
            min_step_forward: stairs.min_step_forward,
            step_forward_test: stairs.step_forward_test,
            sweep_iterations: i32::try_from(stairs.sweep_iterations).unwrap_or(i32::MAX),
            step_detection: stairs.ground_follow.detection().into(),
            ground_follow: if stairs.ground_follow.is_smooth() {
                GroundFollow::Smooth
            } else {
                GroundFollow::Snap
            },
            ground_follow_speed: match stairs.ground_follow {
                kcc::GroundFollow::Smooth { speed } => speed,
                kcc::GroundFollow::Snap { .. } => kcc::settings::DEFAULT_SMOOTH_SPEED,
            },
            flat_base: match stairs.ground_follow {
                kcc::GroundFollow::Snap { flat_base, .. } => flat_base,
                kcc::GroundFollow::Smooth { .. } => true,
            },
            step_up_enabled: stairs.step_up_enabled,
            step_down_enabled: stairs.step_down_enabled,
            max_speed: ground.max_speed,
            attack_time: ground.attack_time,
            release_time: ground.release_time,
            air_max_speed: air.max_speed,
            air_attack_time: air.attack_time,
            air_release_time: air.release_time,
            constant_horizontal_speed: settings.movement.constant_horizontal_speed,
            use_custom_gravity: false,
            custom_gravity: gravity.gravity,
            terminal_speed: gravity.terminal_speed,
            jump_velocity: gravity.jump_velocity,
            coyote_time: settings.jump.coyote_time,
            jump_buffer_time: settings.jump.buffer_time,
            jump_release_cut: settings.jump.release_cut,
            crouch_height: settings.crouch.height,
            crouch_max_speed: settings.crouch.max_speed,
            crouch_max_step_height: settings.crouch.max_step_height,
            push_strength: settings.push.strength,
            mass: settings.push.mass,
            weight_on_bodies: settings.push.weight_on_bodies,
            step_onto_bodies: stairs.step_onto_bodies,
        }
    }

    /// The core's settings, unchecked: pass them through [`sanitize`] before use. A negative
    /// iteration count becomes 0, which the core refuses and [`sanitize`] repairs.
    /// `world_gravity` is the downward acceleration the world gives the body (m/s², from
    /// `get_gravity()`), used unless [`use_custom_gravity`](Self::use_custom_gravity) is on.
    pub fn to_settings(&self, world_gravity: f32) -> ControllerSettings {
        let mut settings = ControllerSettings {
            motion_mode: if self.floating {
                kcc::MotionMode::Floating
            } else {
                kcc::MotionMode::Grounded
            },
            ..ControllerSettings::default()
        };
        let stairs = &mut settings.stairs;
        stairs.max_step_height = self.max_step_height;
        stairs.min_step_depth = self.min_step_depth;
        stairs.min_step_forward = self.min_step_forward;
        stairs.step_forward_test = self.step_forward_test;
        stairs.sweep_iterations = u32::try_from(self.sweep_iterations).unwrap_or(0);
        stairs.ground_follow = match self.ground_follow {
            GroundFollow::Snap => kcc::GroundFollow::Snap {
                flat_base: self.flat_base,
                detection: self.step_detection.into(),
            },
            GroundFollow::Smooth => kcc::GroundFollow::Smooth {
                speed: self.ground_follow_speed,
            },
        };
        stairs.step_up_enabled = self.step_up_enabled;
        stairs.step_down_enabled = self.step_down_enabled;
        stairs.step_onto_bodies = self.step_onto_bodies;
        let ground = &mut settings.movement.ground;
        ground.max_speed = self.max_speed;
        ground.attack_time = self.attack_time;
        ground.release_time = self.release_time;
        let air = &mut settings.movement.air;
        air.max_speed = self.air_max_speed;
        air.attack_time = self.air_attack_time;
        air.release_time = self.air_release_time;
        settings.movement.constant_horizontal_speed = self.constant_horizontal_speed;
        let gravity = &mut settings.gravity;
        gravity.gravity = if self.use_custom_gravity {
            self.custom_gravity
        } else {
            world_gravity
        };
        gravity.terminal_speed = self.terminal_speed;
        gravity.jump_velocity = self.jump_velocity;
        let jump = &mut settings.jump;
        jump.coyote_time = self.coyote_time;
        jump.buffer_time = self.jump_buffer_time;
        jump.release_cut = self.jump_release_cut;
        let crouch = &mut settings.crouch;
        crouch.height = self.crouch_height;
        crouch.max_speed = self.crouch_max_speed;
        crouch.max_step_height = self.crouch_max_step_height;
        settings.push.strength = self.push_strength;
        settings.push.mass = self.mass;
        settings.push.weight_on_bodies = self.weight_on_bodies;
        settings
    }
}

/// Settings the core accepts, and the core's complaints about the ones it was given (empty
/// when they were fine): the core repairs each bad value (see
/// `kcc::ControllerSettings::sanitized`) and the node warns once with the complaints.
pub fn sanitize(settings: ControllerSettings) -> (ControllerSettings, Vec<ConfigError>) {
    settings.sanitized()
}

#[cfg(test)]
mod tests {
    use super::*;
    use kcc::settings::{MIN_SPEED, MIN_TIME};

    /// Godot's default gravity, m/s² (the project setting `physics/3d/default_gravity`).
    const GODOT_GRAVITY: f32 = 9.8;

    #[test]
    fn defaults_are_the_cores() {
        let properties = Properties::default();
        assert!(!properties.use_custom_gravity);
        let settings = properties.to_settings(GODOT_GRAVITY);
        assert_eq!(settings, ControllerSettings::default());
        assert_eq!(Properties::from_settings(&settings), properties);
        let (settings, problems) = sanitize(properties.to_settings(GODOT_GRAVITY));
        assert!(problems.is_empty());
        assert_eq!(settings, ControllerSettings::default());
    }

    #[test]
    fn every_property_reaches_its_setting() {
        let p = Properties {
            floating: true,
            max_step_height: 0.31,
            min_step_depth: 0.12,
            min_step_forward: 0.03,
            step_forward_test: 0.2,
            sweep_iterations: 5,
            step_detection: StepDetection::Probe,
            ground_follow: GroundFollow::Smooth,
            ground_follow_speed: 12.0,
            flat_base: false,
            step_up_enabled: false,
            step_down_enabled: false,
            max_speed: 7.0,
            attack_time: 0.3,
            release_time: 0.4,
            air_max_speed: 6.0,
            air_attack_time: 0.6,
            air_release_time: 0.7,
            constant_horizontal_speed: false,
            use_custom_gravity: true,
            custom_gravity: 20.0,
            terminal_speed: 30.0,
            jump_velocity: 6.5,
            coyote_time: 0.15,
            jump_buffer_time: 0.2,
            jump_release_cut: 0.4,
            crouch_height: 0.9,
            crouch_max_speed: 2.0,
            crouch_max_step_height: 0.2,
            push_strength: 300.0,
            mass: 60.0,
            weight_on_bodies: false,
            step_onto_bodies: true,
        };
        let s = p.to_settings(GODOT_GRAVITY);
        assert_eq!(s.motion_mode, kcc::MotionMode::Floating);
        assert_eq!(s.stairs.max_step_height, 0.31);
        assert_eq!(s.stairs.min_step_depth, 0.12);
        assert_eq!(s.stairs.min_step_forward, 0.03);
        assert_eq!(s.stairs.step_forward_test, 0.2);
        assert_eq!(s.stairs.sweep_iterations, 5);
        // Smooth ground follow takes its speed; the stair sweeps' own settings go with Snap.
        assert_eq!(
            s.stairs.ground_follow,
            kcc::GroundFollow::Smooth { speed: 12.0 }
        );
        let snap = Properties {
            ground_follow: GroundFollow::Snap,
            ..p
        }
        .to_settings(GODOT_GRAVITY);
        assert_eq!(
            snap.stairs.ground_follow,
            kcc::GroundFollow::Snap {
                flat_base: false,
                detection: kcc::StepDetection::Probe
            }
        );
        assert!(!s.stairs.step_up_enabled && !s.stairs.step_down_enabled);
        assert_eq!(s.movement.ground.max_speed, 7.0);
        assert_eq!(s.movement.ground.attack_time, 0.3);
        assert_eq!(s.movement.ground.release_time, 0.4);
        assert_eq!(s.movement.air.max_speed, 6.0);
        assert_eq!(s.movement.air.attack_time, 0.6);
        assert_eq!(s.movement.air.release_time, 0.7);
        assert!(!s.movement.constant_horizontal_speed);
        assert_eq!(s.gravity.gravity, 20.0);
        assert_eq!(s.gravity.terminal_speed, 30.0);
        assert_eq!(s.gravity.jump_velocity, 6.5);
        assert_eq!(s.jump.coyote_time, 0.15);
        assert_eq!(s.jump.buffer_time, 0.2);
        assert_eq!(s.jump.release_cut, 0.4);
        assert_eq!(s.crouch.height, 0.9);
        assert_eq!(s.crouch.max_speed, 2.0);
        assert_eq!(s.crouch.max_step_height, 0.2);
        assert_eq!(s.push.strength, 300.0);
        assert_eq!(s.push.mass, 60.0);
        assert!(!s.push.weight_on_bodies);
        assert!(s.stairs.step_onto_bodies);
        let back = Properties::from_settings(&s);
        assert_eq!(back.custom_gravity, 20.0);
        // A smooth ground follow has no stair sweeps: their settings come back as defaults.
        assert_eq!(
            Properties {
                use_custom_gravity: true,
                flat_base: p.flat_base,
                step_detection: p.step_detection,
                ..back
            },
            p
        );
        let snap_back = Properties::from_settings(&snap);
        assert_eq!(
            (snap_back.flat_base, snap_back.step_detection),
            (false, StepDetection::Probe)
        );
    }

    #[test]
    fn the_worlds_gravity_is_used_unless_a_custom_one_is_asked_for() {
        let mut p = Properties {
            custom_gravity: 3.0,
            ..Properties::default()
        };
        assert_eq!(p.to_settings(24.5).gravity.gravity, 24.5);
        p.use_custom_gravity = true;
        assert_eq!(p.to_settings(24.5).gravity.gravity, 3.0);
    }

    #[test]
    fn out_of_range_properties_are_clamped_with_one_complaint_each() {
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
            air_release_time: f32::NAN,
            use_custom_gravity: true,
            custom_gravity: -9.8,
            terminal_speed: 0.0,
            jump_velocity: -4.0,
            coyote_time: -0.1,
            jump_buffer_time: -1.0,
            jump_release_cut: 2.0,
            crouch_height: 0.0,
            crouch_max_speed: -1.0,
            crouch_max_step_height: -0.1,
            ground_follow: GroundFollow::Smooth,
            ground_follow_speed: 0.0,
            ..Properties::default()
        };
        let (s, problems) = sanitize(p.to_settings(GODOT_GRAVITY));
        assert_eq!(s.validate(), Ok(()));
        assert_eq!(problems.len(), 21, "{problems:?}");
        assert_eq!(
            s.stairs.ground_follow,
            kcc::GroundFollow::Smooth {
                speed: kcc::settings::MIN_RATE
            }
        );
        assert_eq!(s.crouch.height, kcc::settings::MIN_CROUCH_HEIGHT);
        assert_eq!(s.crouch.max_speed, MIN_SPEED);
        assert_eq!(s.crouch.max_step_height, 0.0);
        assert_eq!(s.jump.coyote_time, 0.0);
        assert_eq!(s.jump.buffer_time, 0.0);
        assert_eq!(s.jump.release_cut, 1.0);
        assert_eq!(s.stairs.max_step_height, 0.0);
        assert_eq!(s.stairs.sweep_iterations, 1);
        assert_eq!(s.movement.ground.max_speed, MIN_SPEED);
        assert_eq!(s.movement.ground.attack_time, MIN_TIME);
        let defaults = ControllerSettings::default();
        assert_eq!(
            s.movement.air.release_time,
            defaults.movement.air.release_time
        );
        assert_eq!(s.gravity.terminal_speed, MIN_SPEED);
    }
}
