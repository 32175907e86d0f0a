//! Stage 3 of a move, climb: when a step blocks the move, the body is put where a slide by the
//! move lands it on the step ([`climb`]). The queries are [`crate::stairs::step_up`]'s; this
//! stage decides how high and how far ahead the body is lifted.

use glam::Vec3;

use crate::body::{KinematicBody, MotionTest};
use crate::floor::{horizontal, up_of, vertical};
use crate::sanitize::usable_position;
use crate::settings::StairSettings;
use crate::stairs::{Ahead, Stance, StepUp, step_up};
use crate::tolerances::{MIN_MOTION, OVER_RISER, WALK_SHARE};

/// A lift onto a step made by [`climb`].
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct Lift {
    /// Height gained, m.
    pub(crate) height: f32,
    /// Height of the step's top where the body lands, above where the climb began, m.
    pub(crate) tread: f32,
    /// How far the lift moved the body ahead, on top of the tick's motion, m.
    pub(crate) ahead: f32,
    /// How high the lift put the body above where the climb began, m: the height the slide
    /// across the tread starts from (clear of the step's edge, for a rounded bottom).
    pub(crate) top: f32,
    /// What stopped the motion was tilted, not a riser's face (see
    /// [`StepUp::tilted_obstacle`](crate::stairs::StepUp::tilted_obstacle)).
    pub(crate) tilted_obstacle: bool,
    /// A flat bottom lifted to the tread's height short of its level landing: it floats over
    /// the rounding of the step's edge (see [`Footing::OverTread`](crate::footing::Footing)).
    pub(crate) over: bool,
    /// The top of a lip the slide did not pass, no higher than the engines' recovery above the
    /// feet (see [`Ahead::Lip`]): no step, whatever the body rose.
    pub(crate) lip: bool,
}

/// What [`climb`] found.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) enum Climb {
    /// A step: the body was lifted onto it.
    Lifted(Lift),
    /// Nothing in the way of the motion.
    Free,
    /// Something in the way that is not a step.
    Blocked,
}

/// If a step blocks the `motion` (m: horizontal, or along the floor's slope) of a move from
/// `from` (m), puts the body where a slide by `motion` lands it on the step: `from` lifted by
/// the step's height. For a rounded bottom landing on the step's edge or on a tread that is
/// not level under it, `from` lifted clear of the edge: the slide carries it over by its
/// own motion, and the step down after it stands it on the edge. A flat bottom whose level
/// landing lies beyond `motion` (the minimum forward step) is lifted to the tread's height
/// and floats there with the flat base ([`Lift::over`]); without it, it is moved ahead to
/// that landing. Says what it found otherwise, and leaves the body alone.
/// `aim`: the direction the input steers the body toward (unit, or zero); `stance`: how the
/// body stands at `from` (see [`Stance`]); `met`: what the slide that made `motion` from `from` met
/// first (see [`step_up`]).
pub(crate) fn climb<B: KinematicBody + ?Sized>(
    body: &mut B,
    stairs: &StairSettings,
    from: Vec3,
    motion: Vec3,
    aim: Vec3,
    stance: Stance,
    met: Option<MotionTest>,
) -> Climb {
    let up = up_of(body);
    if !motion.is_finite() || horizontal(motion, up).length() <= MIN_MOTION {
        return Climb::Blocked;
    }
    // How far along the motion the slide before the climb (if any) already took the body.
    let slid = horizontal(body.position() - from, up).length();
    let (step, lip) = match step_up(body, from, motion, aim, stairs, stance, met) {
        Ahead::Stepped(step) => (step, false),
        Ahead::Lip(step) => (step, true),
        Ahead::Free => return Climb::Free,
        Ahead::Blocked => return Climb::Blocked,
    };
    let across = horizontal(step.displacement, up);
    let flat = horizontal(motion, up);
    let direction = flat.normalize();
    let beyond = (across.dot(direction) - flat.length()).max(0.0);
    // With the flat base, a flat bottom floats at the tread's height when its level landing
    // lies beyond the tick's motion, or when its rim lands on the rounding of the edge.
    let over =
        stairs.flat_reach().is_some() && ((beyond > 0.0 && step.level_landing) || step.rim_on_edge);
    let rounded = !over && (step.on_edge || (beyond > 0.0 && !step.level_landing));
    // A rounded bottom whose motion ends less than the safe margin past where it meets
    // the step's edge, and that the slide already took the whole way: lifted and moved on,
    // it would rest on that edge within the margin of the floor it stands on, and the
    // drop after the lift would find the floor, where the slide left it.
    let margin = body.safe_margin().max(0.0);
    let at_edge = step.past_obstacle < margin && slid >= flat.length() * (1.0 - WALK_SHARE);
    if (rounded || over) && step.past_obstacle < -margin || rounded && at_edge {
        // The probe found the step beyond this tick's motion (or its edge at its end): the
        // slide makes the move, and a later tick climbs. Not when the step is less than the
        // safe margin beyond it: the slide keeps that margin from the riser and cannot take
        // the body nearer (a body starting from rest against a riser, whose first ticks move
        // less than the margin, would stand there; on Godot Physics, whose slide stops dead
        // against two walls, for good).
        return Climb::Free;
    }
    let (lifted, ahead) = lift_to(body, from, direction, &step, rounded, over, beyond);
    if !usable_position(lifted) {
        return Climb::Blocked;
    }
    body.set_position(lifted);
    Climb::Lifted(Lift {
        height: if over { step.tread_height } else { step.height },
        tread: step.tread,
        ahead,
        top: vertical(lifted - from, up),
        tilted_obstacle: step.tilted_obstacle,
        over,
        lip,
    })
}

/// Where a climb puts a body that started at `from` (m) and walks along the unit `direction`:
/// lifted clear of the step's edge (`rounded`) or to the tread's height (`over`), moved ahead
/// only as far as its side must pass the riser to be over it; otherwise lifted by the step's
/// height and moved ahead by what the tread needs `beyond` the tick's motion (m). Returns the
/// place and how far ahead it was moved (m).
fn lift_to<B: KinematicBody + ?Sized>(
    body: &B,
    from: Vec3,
    direction: Vec3,
    step: &StepUp,
    rounded: bool,
    over: bool,
    beyond: f32,
) -> (Vec3, f32) {
    let up = up_of(body);
    let need = body.safe_margin().max(0.0) + OVER_RISER;
    let short = (need - step.past_obstacle).clamp(0.0, beyond);
    if rounded {
        // A rounded bottom: lifted clear of the step's top, the slide carries the body by
        // the tick's own motion, and the step down stands it on the edge (or the tread),
        // over which it rolls in the next ticks.
        (from + up * step.clearance + direction * short, short)
    } else if over {
        // A flat bottom short of its level landing (a slow walk, a high tick rate, stairs
        // walked at an angle): lifted to the tread's height, the slide carries it by its
        // own motion, floating over the rounding of the step's edge, and the tread holds it
        // there until it is under the body. Resting flat on the rounding instead, the
        // engine's slide takes the rounding for a wall and Jolt's recovery sinks the body
        // into it.
        (from + up * step.tread_height + direction * short, short)
    } else {
        (from + up * step.height + direction * beyond, beyond)
    }
}
