//! The controller against fake engines, in one test binary: an engine that answers nonsense,
//! and the answers real Godot + Jolt gives beside a step's edge.

mod broken_engine;
mod step_down_at_edges;
