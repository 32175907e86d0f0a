//! # kcc-wasm: the controller core in a web page
//!
//! The `kcc` core behind a small C ABI, built for `wasm32-unknown-unknown` so that a page running
//! Godot's web export template (which cannot load a GDExtension) moves its character with the
//! very code the addon runs natively. Only the bridge differs from `rust/godot/src/body.rs`: the
//! port's calls leave the module as imports ([`host`]), the page forwards them to GDScript, and
//! a GDScript twin of `body.rs` answers them with a real `CharacterBody3D`.
//!
//! The ABI ([`abi`]):
//! - `kcc_character_new(body, settings, len)`: a character from JSON settings (the fields of
//!   `kcc::ControllerSettings`, missing ones at their defaults); its handle, or 0 with the reason
//!   in `kcc_error_ptr`/`kcc_error_len`.
//! - `kcc_tick` and `kcc_move_and_step`: one physics tick; the report is left in the mailbox.
//! - `kcc_mailbox`: where numbers cross the boundary in both directions ([`mailbox`]).
//!
//! Every import takes the body id the character was created with, so one page can move several
//! bodies. Units: m, s, m/s, rad, as in `kcc`.

pub mod abi;
pub mod characters;
pub mod host;
pub mod mailbox;

#[cfg(test)]
mod tests;
