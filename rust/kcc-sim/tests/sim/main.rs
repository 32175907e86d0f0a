//! `kcc-sim`'s tests, in one test binary (one link instead of one per file): the binary's
//! command line, the public course, the Godot world, Jolt's controller (with the feature `jolt`),
//! pushing rigid bodies, other characters and scenario parsing.

mod characters;
mod cli;
mod course;
mod godot_world;
mod jolt;
mod parsing;
mod pushing;
