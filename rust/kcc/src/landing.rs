//! After a step down: the push out of the safe margin of the riser behind the body, paid out
//! of the next move's walk ([`Landing`]).
//!
//! A body that walked off an edge comes down with its back right past it, within the safe
//! margin of the riser under that edge, and the next slide's recovery pushes it out, on top of
//! that move's walk: up to a margin, and at 300 Hz Godot's 1 mm is 7.5 % of a 4 m/s walk (a
//! tick moved the course's bodies up to 1.056 times their walk there). The move after a step
//! down measures that push with one motion test of no motion, before its slide, and walks that
//! much less along it: the push and the walk add up to the walk, and the velocity the move
//! reports and keeps is still the walk's. Only where a margin is more than
//! [`MARGIN_PUSH_SHARE`] of the walk (at a high tick rate, on a tick that is no step): a
//! smaller push is lost in the walk.

use glam::Vec3;

use crate::body::KinematicBody;
use crate::floor::horizontal;
use crate::plan::Plan;
use crate::tolerances::MARGIN_PUSH_SHARE;

/// What a move leaves to the character's next one (kept in
/// [`CharacterState`](crate::CharacterState)): whether it stepped down, so that the next move
/// pays the riser's push out of its walk (see the module docs).
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct Landing {
    /// The last move stepped down (its `stepped` was a step down).
    stepped_down: bool,
    /// The last move ended supported by a step's edge (held there by the flat base, or
    /// rolling over it).
    on_edge: bool,
}

impl Landing {
    /// What a move that reported `stepped` (m, negative for a step down) and ended `on_edge`
    /// leaves to the next.
    pub(crate) fn after(stepped: Option<f32>, on_edge: bool) -> Self {
        Self {
            stepped_down: stepped.is_some_and(|step| step < 0.0),
            on_edge,
        }
    }

    /// True when the last move ended on a step's edge: whatever floor the engine tells of (a
    /// step down's floor snap may have met the lower tread before the hold put the body back
    /// on the edge above it), the body is on stairs, and the next tick is split by its length
    /// as it is off level floor (see [`crate::tick`]).
    pub(crate) fn on_edge(self) -> bool {
        self.on_edge
    }

    /// `plan` with the push the body gets out of the margin of the riser behind it taken off its
    /// walk, when the last move stepped down (see the module docs): the plan the slide makes,
    /// and the velocity taken off (m/s), which the velocity the slide leaves gets back. Only a
    /// plain move on floor pays, and no more than the push along its walk, nor than the walk.
    /// One motion test, made only when a margin is more than [`MARGIN_PUSH_SHARE`] of the walk;
    /// a push of more than two margins is something else's, and is not paid.
    pub(crate) fn pay<B: KinematicBody + ?Sized>(self, body: &mut B, plan: &Plan) -> (Plan, Vec3) {
        let unpaid = (*plan, Vec3::ZERO);
        let walk = horizontal(plan.walk(), plan.up);
        let margin = body.safe_margin().max(0.0);
        let plain = plan.grounded && plan.footing.on_floor();
        if !(self.stepped_down && plain && margin > MARGIN_PUSH_SHARE * walk.length()) {
            return unpaid;
        }
        let Some(along) = walk.try_normalize() else {
            return unpaid;
        };
        let here = body.position();
        let push = horizontal(body.test_move(here, Vec3::ZERO).travel, plan.up);
        if !(push.is_finite() && push.length() <= 2.0 * margin) {
            return unpaid;
        }
        let share = push.dot(along).clamp(0.0, walk.length());
        let paid = along * share / plan.dt;
        let paying = Plan {
            run: plan.run - paid,
            ..*plan
        };
        (paying, paid)
    }
}
