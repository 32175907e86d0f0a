//! Stair stepping by shape sweeps: up onto ledges in the way ([`step_up`]), and down onto floor
//! the body has just walked off ([`step_down`]). Both only ask the engine; the tick's climb and
//! settle stages move the body by what they find.

mod down;
mod up;

pub use down::{StepDown, step_down};
pub use up::{Ahead, Stance, StepUp, step_up};
