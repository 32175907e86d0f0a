//! The controller against fake engines, in one test binary: an engine that answers nonsense,
//! the answers real Godot + Jolt gives beside a step's edge, and slides that sink the body
//! into level floor or stop dead against a wall as Godot Physics' do.

mod broken_engine;
mod sinking_slide;
mod step_down_at_edges;
mod stopped_at_wall;
