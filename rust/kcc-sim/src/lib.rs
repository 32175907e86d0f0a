//! # kcc-sim: scenario runner for the kcc controller
//!
//! Reads scenario files (TOML, see `scenarios/README.md`), runs them headlessly with our
//! controller in the parry world ([`run::KccMover`]) or in a real Godot 4.6 + Jolt
//! ([`godot::GodotMover`], the Godot world), or with a peer fed by the same movement model
//! ([`peer`]): Rapier's `KinematicCharacterController` ([`rapier::RapierMover`]) or, with the
//! feature `jolt`, Jolt's `CharacterVirtual` (`jolt::JoltMover`), and
//! reports metrics ([`metrics`]), named checks ([`checks`]), CSV traces ([`trace`]) and SVG
//! plots ([`plot`]). The binary `kcc-sim` has the commands `run`, `demo`, `compare` and `bench`.
//!
//! Units: m, s, m/s, Hz; angles in degrees in scenario files.

#![warn(missing_docs)]

pub mod bench;
pub mod checks;
pub mod compare;
pub mod course;
pub mod demo;
pub mod dynamics;
pub mod godot;
#[cfg(feature = "jolt")]
pub mod jolt;
pub mod known;
pub mod metrics;
pub mod obj;
pub mod peer;
pub mod plain;
pub mod plot;
pub mod rapier;
pub mod report;
pub mod run;
pub mod scenario;
pub mod tape;
pub mod trace;
pub mod web;
