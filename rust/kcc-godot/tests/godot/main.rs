//! The Godot world's tests, in one test binary: the ports of the oracle and the addon make the
//! same engine calls, and a real Godot 4.6 + Jolt answers the port end to end.

mod godot_world;
mod port_mirror;
