//! After a step down: the push out of the safe margin of what the body was put down by, paid
//! out of the next move's walk ([`Landing`]).
//!
//! A body that walked off an edge comes down with its back right past it, within the safe
//! margin of the riser under that edge, and the next slide's recovery pushes it out, on top of
//! that move's walk: up to a margin, and at 300 Hz Godot's 1 mm is 7.5 % of a 4 m/s walk (a
//! tick moved the course's bodies up to 1.056 times their walk there). A rounded bottom rolling
//! over an edge's rounding is put down onto it a little every tick, by step downs too small to
//! be a stair step, and it ends each within the margin of the rounding's tilted face, which
//! the next recovery pushes it out of along the walk as well (`stairs_030_rolling` at 300 Hz:
//! 0.76 mm on a 13.3 mm tick, 1.057 times the walk), and so does a slide that the engine's own
//! floor snap carried down over the rounding (Jolt, the same file: 0.72 mm). The move after
//! any step down, or after a move that came down more steeply than walkable floor, measures
//! that push with one motion test of no motion, before its slide, and walks that much less
//! along it: the push and the walk add up to the walk, and the velocity the move reports and
//! keeps is still the walk's; Godot's `get_real_velocity()`, which counts the recovery, agrees
//! with it. Only where a margin is more than [`MARGIN_PUSH_SHARE`] of the walk (at a high tick
//! rate, on a tick that is no step): a smaller push is lost in the walk.

use glam::Vec3;

use crate::body::KinematicBody;
use crate::floor::{horizontal, vertical};
use crate::plan::Plan;
use crate::report::TickReport;
use crate::tolerances::MARGIN_PUSH_SHARE;

/// What a move leaves to the character's next one (kept in
/// [`CharacterState`](crate::CharacterState)): whether it came down (a step down, or a drop
/// over an edge), so that the next move pays the push out of the margin of what it came down
/// on out of its walk (see the module docs).
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct Landing {
    /// The last move put the body down: a stair step down, a step down of any height (onto
    /// the rounding of the edge it rolls over, say), or a move that came down over an edge by
    /// the engine's own floor snap.
    put_down: bool,
    /// The last move ended supported by a step's edge (held there by the flat base, or
    /// rolling over it).
    on_edge: bool,
}

impl Landing {
    /// What a move that reported `report`, went `moved` (m) and ended `on_edge` leaves to the
    /// next, for a body with `up` whose floor is walkable up to `max_angle` (rad): it was put
    /// down when it stepped down (a stair step or less) or came down more steeply than such
    /// floor (over an edge, by the engine's own floor snap).
    pub(crate) fn after(
        report: &TickReport,
        moved: Vec3,
        up: Vec3,
        max_angle: f32,
        on_edge: bool,
    ) -> Self {
        let stepped_down = report.stepped.is_some_and(|step| step < 0.0);
        Self {
            put_down: stepped_down || report.step_down < 0.0 || fell_steeply(moved, up, max_angle),
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

    /// `plan` with the push the body gets out of the margin of the riser behind it (or of the
    /// rounding under it) taken off its walk, when the last move was put down (see the module
    /// docs): the plan the slide makes, and the velocity taken off (m/s), which the velocity
    /// the slide leaves gets back. Only a
    /// plain move on floor pays, and no more than the push along its walk, nor than the walk.
    /// One motion test, made only when a margin is more than [`MARGIN_PUSH_SHARE`] of the walk;
    /// a push of more than two margins is something else's, and is not paid.
    pub(crate) fn pay<B: KinematicBody + ?Sized>(self, body: &mut B, plan: &Plan) -> (Plan, Vec3) {
        let unpaid = (*plan, Vec3::ZERO);
        let walk = horizontal(plan.walk(), plan.up);
        let margin = body.safe_margin().max(0.0);
        let plain = plan.grounded && plan.footing.on_floor();
        if !(self.put_down && plain && margin > MARGIN_PUSH_SHARE * walk.length()) {
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

/// True when a move that went `moved` (m) came down more steeply than floor the body can walk
/// on: below the horizontal (across `up`) by more than `max_angle` (rad), over an edge and not
/// along a walkable slope. Never for a `max_angle` of a right angle or more.
fn fell_steeply(moved: Vec3, up: Vec3, max_angle: f32) -> bool {
    let drop = -vertical(moved, up);
    let across = horizontal(moved, up).length();
    drop > 0.0 && drop * max_angle.cos() > across * max_angle.sin()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_move_down_over_an_edge_falls_steeply_and_one_down_a_ramp_does_not() {
        let max = 45f32.to_radians();
        // Carried down a step edge's rounding at 300 Hz: 42.7 mm down over a 13.2 mm walk.
        assert!(fell_steeply(Vec3::new(0.0, -0.0427, 0.0132), Vec3::Y, max));
        // Down a 30 degree ramp, and up or level: walkable.
        let ramp = Vec3::new(0.0, -30f32.to_radians().tan(), 1.0) * 0.0133;
        assert!(!fell_steeply(ramp, Vec3::Y, max));
        assert!(!fell_steeply(Vec3::new(0.0, 0.02, 0.01), Vec3::Y, max));
        assert!(!fell_steeply(Vec3::new(0.01, 0.0, 0.0), Vec3::Y, max));
        // Another up direction: the same drop across it.
        assert!(fell_steeply(
            Vec3::new(0.0427, 0.0132, 0.0),
            Vec3::NEG_X,
            max
        ));
        // Floor walkable up to a right angle: nothing falls more steeply than that.
        let vertical_drop = Vec3::new(0.0, -0.5, 0.0);
        assert!(!fell_steeply(vertical_drop, Vec3::Y, 90f32.to_radians()));
        assert!(fell_steeply(vertical_drop, Vec3::Y, max));
    }
}
