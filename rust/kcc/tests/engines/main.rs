//! The controller against fake engines, in one test binary: an engine that answers nonsense,
//! the answers real Godot + Jolt gives beside a step's edge, and a slide that sinks the body
//! into level floor as Godot Physics' does.

mod broken_engine;
mod sinking_slide;
mod step_down_at_edges;
