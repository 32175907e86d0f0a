//! # kcc-godot: the Godot world
//!
//! The controller's port ([`kcc::KinematicBody`]) answered by a real Godot 4.6 with Jolt,
//! running headless in Chromium (Godot's official web export template, which cannot load our
//! GDExtension but runs GDScript and Godot's physics). The controller stays in our process;
//! Godot answers its physics questions over a loopback connection:
//!
//! - [`engine`] finds the web template (the pinned npm package or `GODOT_WEB_DIR`) and checks
//!   its checksums;
//! - [`oracle`] packs the GDScript oracle (`godot_oracle/`) with our own [`pck`] writer;
//! - [`server`] serves the page, the engine and the pack on 127.0.0.1 and carries the oracle's
//!   synchronous calls; [`browser`] runs Chromium in its own process group;
//! - [`session::GodotSession`] holds the conversation ([`protocol`]);
//! - [`web_demo`] packs the web demo (the sample course moved by the wasm core, `web_demo/`);
//! - [`body::GodotBody`] is the port: each method is the oracle's function of the same name in
//!   `godot_oracle/port.gd`, which mirrors `rust/godot/src/body.rs` call for call.
//!
//! Units: m, s, m/s, rad.

#![warn(missing_docs)]

pub mod body;
pub mod browser;
pub mod engine;
pub mod error;
pub mod oracle;
pub mod pck;
pub mod protocol;
pub mod server;
pub mod session;
pub mod web_demo;

pub use body::{GodotBody, Observation, PortCalls};
pub use engine::Engine;
pub use error::GodotError;
pub use oracle::PhysicsEngine;
pub use protocol::{BodyDesc, PlatformDesc, RigidBodyDesc, SceneDesc, ShapeDesc, SolidDesc};
pub use session::{GodotSession, Timeouts};
