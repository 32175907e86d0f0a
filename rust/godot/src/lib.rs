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
//! | [`input`] | stick input and the yaw node's rotation to a wish direction |
//! | [`warnings`] | the editor's configuration warnings, worded from plain facts |
//! | [`convert`] | `Vector3` and `glam::Vec3` |
//!
//! Godot loads the library through `addons/rust_character_body/rust_character_body.gdextension`
//! (entry symbol `gdext_rust_init`, Godot 4.4 or later).

use godot::prelude::*;

pub mod body;
pub mod camera;
pub mod character;
pub mod convert;
pub mod input;
pub mod settings;
pub mod warnings;

pub use camera::StepSmoothCamera3D;
pub use character::RustCharacterBody3D;

/// The extension's entry point; gdext exports it as `gdext_rust_init`.
struct RustCharacterBodyExtension;

#[gdextension]
unsafe impl ExtensionLibrary for RustCharacterBodyExtension {}
