//! # RustCharacterBody3D for Godot 4
//!
//! The Godot side of the controller: a thin gdext layer over the engine-agnostic [`kcc`] core.
//! Every game decision (speed curves, stair sweeps, floor rules, camera smoothing) is made in
//! `kcc`; this crate converts types and forwards calls.
//!
//! | module | what it does |
//! |---|---|
//! | [`character`] | `RustCharacterBody3D`: the node, its inspector properties, signals and script API |
//! | [`camera`] | `StepSmoothCamera3D`: a camera that hides stair steps |
//! | [`body`] | `GodotBody`: the `kcc::KinematicBody` port over a `CharacterBody3D` |
//! | [`settings`] | inspector properties to `kcc::ControllerSettings`, with clamping of bad values |
//! | [`input`] | built-in input: the actions' states and the yaw node's rotation to a wish direction and buttons |
//! | [`signals`] | which signals a tick or a building block emits, in order |
//! | [`frame`] | one move a physics frame: a script's `move_with_input`, and the warnings for two moves or none |
//! | [`ground`] | the character's ground state after a tick (floor, a stair's edge, a steep slope, the air) |
//! | [`cache`] | what a tick keeps from the last one (the controller, the input actions) |
//! | [`gravity`] | Godot's gravity vector to the body's downward acceleration |
//! | [`shape`] | the body's collision shape as sizes, and how crouching resizes it |
//! | [`camera_height`] | the smoothing camera's local height over time |
//! | [`problems`] | problems met while the game runs, each warned about once |
//! | [`warnings`] | the editor's configuration warnings, worded from plain facts |
//! | [`convert`] | `Vector3` and `glam::Vec3` |
//!
//! The two classes only move values between Godot and these modules; every choice they make
//! (what input means, which signal fires, which gravity, how a shape crouches, where the
//! camera sits) is a plain function here, tested by `cargo test` without Godot.
//!
//! Godot loads the library through `addons/rust_character_body/rust_character_body.gdextension`
//! (entry symbol `gdext_rust_init`, Godot 4.4 or later).

use godot::prelude::*;

pub mod body;
pub mod cache;
pub mod camera;
pub mod camera_height;
pub mod character;
pub mod convert;
pub mod frame;
pub mod gravity;
pub mod ground;
pub mod input;
pub mod problems;
pub mod settings;
pub mod shape;
pub mod signals;
pub mod warnings;

pub use camera::StepSmoothCamera3D;
pub use character::RustCharacterBody3D;

/// The extension's entry point; gdext exports it as `gdext_rust_init`.
struct RustCharacterBodyExtension;

#[gdextension]
unsafe impl ExtensionLibrary for RustCharacterBodyExtension {}
