//! # kcc: a kinematic character controller that walks stairs
//!
//! The engine-agnostic core of RustCharacterBody3D. It decides how a character moves; an
//! engine adapter ([`KinematicBody`]) answers its physics questions. The Godot addon and the
//! headless parry world (`kcc-parry`) run this very code.
//!
//! How a tick works ([`Controller::tick`], in `tick.rs`, in the order the code runs):
//! 0. **Run** ([`Controller::tick`]): unusable input sanitized ([`sanitize`]); the delta split
//!    into sub-steps when it is long ([`sanitize::MAX_SUBSTEP`]) or when the walk off level
//!    floor would move the body further than [`tolerances::SUBSTEP_RADII`] of its radius. Each
//!    sub-step runs the stages below with the velocity the last one left.
//! 1. **Sense** what the body stands on: floor, held over a stair's edge by the flat base
//!    ([`flat_base`]), floating over the tread it just climbed, resting on an edge, or in the
//!    air (one probe down, only when the engine's floor state cannot tell).
//! 2. **Intent**: the velocity the input asks for. Horizontal speed by the normalized ADSR
//!    curves ([`movement`]: attack `v = 1 - (1 - t)^2`, release `v = (1 - t)^2`, `t` found
//!    from the current speed, so no state is kept and the tick rate does not matter); gravity
//!    down to the terminal speed, or a jump (with coyote time, a jump buffer and a variable
//!    height when the caller keeps a [`CharacterState`]); crouching ([`crouch`]).
//! 3. **Plan** the move: along the floor's slope, level while held over an edge; after a step
//!    down, less the push the riser behind the body will give it ([`Landing`]).
//! 4. **Slide** with the engine's own `move_and_slide`, and **climb** when a step stopped it
//!    ([`stairs::step_up`]: sweeps up, forward and down find the top of the step; the body is
//!    lifted and the slide carries it on by the rest of its motion). A body the engine
//!    simulates (a crate) is not climbed unless [`StairSettings::step_onto_bodies`] says so.
//! 5. **Settle** it on what supports it: set down on the edge of the step it climbed, stepped
//!    down onto the floor below ([`stairs::step_down`]) when it walked off the floor it stood
//!    on, held on an edge still under it, or brought down off that edge in one step. The stair
//!    step the move made is judged here, once.
//! 6. **Report** ([`TickReport`]), built once from those stages' values: velocity, floor
//!    state and the height stepped, for the camera ([`StepSmoother`]).
//! 7. **Push** the bodies the engine simulates that the move walked into ([`push`]: an
//!    impulse sharing the walk's momentum by mass, bounded by [`PushSettings::strength`]).
//!
//! Every motion test a tick makes is checked against the contact it reports
//! ([`cast_check`]): an engine whose cast ends inside what it hit (Godot Physics onto flat
//! faces) has its travel backed off, so no stage puts the body inside the floor.
//!
//! Contacts are classified in one place ([`surface`]: level, walkable, edge, side, overhang),
//! and the lengths that judge motion live in [`tolerances`] (sized by the max step height, the
//! shape's radius or the engines' precision). The public building blocks
//! ([`stairs::step_up`], [`stairs::step_down`], [`sweep::iterate_sweep`]) are the very
//! functions the tick composes. Why the flat base, and how it differs for capsules and
//! cylinders: `docs/flat-base.md`.
//!
//! Units: m, s, m/s, m/s², rad. Up is whatever the body says ([`KinematicBody::up_direction`]).
//!
//! ```
//! use kcc::{Controller, ControllerSettings, KinematicBody, MotionTest, Contact, TickInput};
//! use glam::Vec3;
//!
//! /// An endless flat floor at height 0: the smallest possible engine.
//! struct Flat { position: Vec3, on_floor: bool }
//!
//! impl KinematicBody for Flat {
//!     fn position(&self) -> Vec3 { self.position }
//!     fn set_position(&mut self, p: Vec3) { self.position = p }
//!     fn test_move(&mut self, from: Vec3, motion: Vec3) -> MotionTest {
//!         let end = from + motion;
//!         if end.y >= 0.0 {
//!             return MotionTest { travel: motion, remainder: Vec3::ZERO, contact: None };
//!         }
//!         let travel = motion * (from.y / -motion.y);
//!         let contact = Contact { normal: Vec3::Y, point: from + travel, depth: 0.0, movable: false };
//!         MotionTest { travel, remainder: motion - travel, contact: Some(contact) }
//!     }
//!     fn move_and_slide(&mut self, velocity: Vec3, dt: f32) -> Vec3 {
//!         let test = self.test_move(self.position, velocity * dt);
//!         self.position += test.travel + test.remainder.with_y(0.0);
//!         self.on_floor = test.collided() || self.position.y <= 1e-4;
//!         if self.on_floor { velocity.with_y(velocity.y.max(0.0)) } else { velocity }
//!     }
//!     fn is_on_floor(&self) -> bool { self.on_floor }
//!     fn is_on_wall(&self) -> bool { false }
//!     fn floor_normal(&self) -> Vec3 { Vec3::Y }
//!     fn apply_floor_snap(&mut self) {}
//!     fn up_direction(&self) -> Vec3 { Vec3::Y }
//!     fn floor_max_angle(&self) -> f32 { 45f32.to_radians() }
//!     fn safe_margin(&self) -> f32 { 0.001 }
//!     fn shape_height(&self) -> f32 { 1.8 }
//!     fn shape_radius(&self) -> f32 { 0.4 }
//!     fn set_shape_height(&mut self, _height: f32) {}
//! }
//!
//! let controller = Controller::new(ControllerSettings::default()).unwrap();
//! let mut body = Flat { position: Vec3::ZERO, on_floor: true };
//! let mut velocity = Vec3::ZERO;
//! for _ in 0..60 {
//!     let input = TickInput { wish_direction: Vec3::NEG_Z, velocity, ..TickInput::default() };
//!     velocity = controller.tick(&mut body, &input, 1.0 / 60.0).velocity;
//! }
//! // After one second of holding forward the character runs at top speed.
//! assert!((velocity.length() - controller.settings().movement.ground.max_speed).abs() < 1e-3);
//! assert!(body.position.z < -4.0);
//! ```

#![warn(missing_docs)]

pub mod body;
pub mod cast_check;
mod climb;
pub mod controller;
pub mod crouch;
pub mod curve;
pub mod error;
pub mod flat_base;
pub mod float;
pub mod floor;
mod footing;
pub mod hooked;
mod intent;
pub mod jump;
mod landing;
pub mod movement;
mod plan;
pub mod push;
pub mod report;
pub mod sanitize;
pub mod settings;
mod settle;
mod slide;
pub mod smooth;
pub mod smoothing;
pub mod stairs;
pub mod surface;
pub mod sweep;
mod tick;
pub mod tolerances;

pub use body::{Contact, KinematicBody, MotionTest, Touched};
pub use controller::{CharacterState, Controller, TickInput};
pub use crouch::CrouchState;
pub use error::ConfigError;
pub use jump::JumpState;
pub use landing::Landing;
pub use report::TickReport;
pub use sanitize::Sanitized;
pub use settings::{
    ControllerSettings, CrouchSettings, GravitySettings, GroundFollow, JumpSettings, MotionMode,
    MovementSettings, PushSettings, SpeedCurve, StairSettings, StepDetection,
};
pub use smoothing::{StepSmoother, exp_decay};
