//! Step down ([`step_down`]): sweep straight down by at most the max step height; land on
//! walkable floor and snap, or rest on the edge of a step being rolled over when sliding off it
//! would reach floor within that height (the edge supports the body, as Jolt's
//! `CharacterVirtual` counts contacts under its supporting volume).

use glam::Vec3;

use crate::body::{Contact, KinematicBody};
use crate::floor::{horizontal, slide, unit_up, vertical};
use crate::settings::StairSettings;
use crate::surface::{is_level, is_walkable, slope_angle, supports};
use crate::tolerances::{BodyScale, NUDGE, step_down_tolerance};

/// A step down that was taken.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct StepDown {
    /// Vertical travel, m (negative: down).
    pub height: f32,
    /// True when the drop was a step and not just following a sloped floor down.
    pub is_step: bool,
    /// The body rests on the edge of a step it is rolling over (see [`step_down`]): supported,
    /// though the engine does not count the edge as floor.
    pub on_edge: bool,
    /// What the body came down on: the sweep's contact with the floor or the edge.
    pub contact: Contact,
    /// The body came down beside the side of the step it walked off, which it hugs: nothing
    /// takes it back along its walk (see [`step_down`]).
    pub beside_side: bool,
}

/// What a step down stood the body on.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Support {
    /// Walkable floor, as the engine's floor snap agrees; the sweep's contact with it.
    Floor(Contact),
    /// The edge of the step the body is rolling over: too steep to be floor for the engine,
    /// with walkable floor below it within the max step height.
    Edge(Contact),
}

/// Down from `from`, until walkable floor within the max step height: stands the body there and
/// says on what.
///
/// The first sweep goes straight down. When it stops on something that is not floor (a rounded
/// bottom on the edge of the step it walked off), the sweep slides off it toward lower floor;
/// if that floor is within reach, the edge is a stair's and holds the body where the straight
/// sweep stopped: it rolls over the edge at the tick's own horizontal speed instead of sliding
/// off it ahead of its motion. Sliding off a steep surface that leads to no floor within
/// reach (a steep ramp, a ledge) is no landing.
///
/// A walkable contact is a landing only if the engine's own floor snap agrees: an edge right at
/// the floor angle may be floor to the sweep and not to the engine (its contact is measured a
/// little lower), and is then treated like a steep one. Level floor reached by sliding off an
/// edge needs no such agreement: the body rests on the edge, and the engine's snap from down
/// there may meet the edge before the floor (a 0.6 m capsule, its safe margin shrunk with it,
/// walking off the last step of `stairs_020_60cm` at 240 Hz was left in the air for a tick).
fn descend<B: KinematicBody + ?Sized>(
    body: &mut B,
    from: Vec3,
    up: Vec3,
    settings: &StairSettings,
) -> Option<Support> {
    let max_angle = body.floor_max_angle();
    let drop = settings.max_step_height;
    let mut end = from;
    let mut motion = -up * drop;
    let mut edge = None;
    for _ in 0..=settings.sweep_iterations {
        let test = body.test_move(end, motion);
        if !test.travel.is_finite() {
            return None;
        }
        // Straight down, the sweep's sideways travel is only the engine's push out of the safe
        // margin: dropped, as Godot's own floor snap does (`floor_stop_on_slope`), so that a body
        // rolling over a rounded edge is not pushed back along its normal every tick.
        let straight = horizontal(motion, up).length() <= 1e-6;
        let sideways = horizontal(test.travel, up).length();
        if straight && sideways <= body.safe_margin().max(0.0) {
            end += up * vertical(test.travel, up);
        } else {
            end += test.travel;
        }
        let left = drop - vertical(from - end, up);
        match test.contact {
            Some(hit) => {
                // Level floor met after sliding off an edge holds the body on that edge even
                // when the engine's snap from there meets the edge first (a capsule a hair
                // above the floor, its side against the edge).
                let below_edge = edge.is_some() && is_level(hit.normal, up);
                if is_walkable(hit.normal, up, max_angle) && (land(body, end) || below_edge) {
                    return Some(match edge {
                        Some((rest, contact)) => {
                            body.set_position(rest);
                            Support::Edge(contact)
                        }
                        None => Support::Floor(hit),
                    });
                }
                if edge.is_none() {
                    edge = Some((end, hit));
                }
                motion = slide(test.remainder, hit.normal);
                if vertical(motion, up) >= 0.0 {
                    return None;
                }
            }
            None if horizontal(motion, up).length() > 1e-6 && left > 1e-5 => {
                motion = -up * left;
            }
            None => return None,
        }
    }
    None
}

/// Down from `from` onto the edge of a lower step that a round bottom meets only with its side:
/// the sweep reaches the max step height plus how far such a bottom hangs below its feet at
/// its rim (the shape's radius, see [`BodyScale::bottom_hang`]), and what it meets counts when
/// the body travels further down than the max step height (the straight sweep of [`descend`]
/// met nothing) and its contact lies within the max step height (and the safe margin) below
/// the feet. A long move (a low tick rate) can take a body that was held on one step's edge
/// past the next step's middle, where its rim meets that step's edge only this far down; the
/// edge a body walked off, met at once, is not one. `None` when the engine does not tell the
/// radius, or nothing is met.
fn onto_lower_edge<B: KinematicBody + ?Sized>(
    body: &mut B,
    from: Vec3,
    up: Vec3,
    settings: &StairSettings,
) -> Option<Support> {
    let hang = BodyScale::of(body).bottom_hang();
    if hang <= 0.0 {
        return None;
    }
    let test = body.test_move(from, -up * (settings.max_step_height + hang));
    let contact = test.contact?;
    let depth = vertical(from - contact.point, up);
    let margin = body.safe_margin().max(0.0);
    let beyond = -vertical(test.travel, up) > settings.max_step_height - margin;
    if !(beyond && depth <= settings.max_step_height + margin && supports(contact.normal, up)) {
        return None;
    }
    let end = from + up * vertical(test.travel, up);
    if is_walkable(contact.normal, up, body.floor_max_angle()) && land(body, end) {
        return Some(Support::Floor(contact));
    }
    end.is_finite().then(|| {
        body.set_position(end);
        Support::Edge(contact)
    })
}

/// Puts the body at `end` and snaps it to the floor there; true when the engine then has it on
/// the floor.
fn land<B: KinematicBody + ?Sized>(body: &mut B, end: Vec3) -> bool {
    if !end.is_finite() {
        return false;
    }
    body.set_position(end);
    body.apply_floor_snap();
    body.is_on_floor()
}

/// Moves the body down onto walkable floor within the max step height and snaps it there, or
/// onto the edge of a step it is rolling over when floor lies below that edge (see
/// [`StepDown::on_edge`]).
///
/// `travel` is the body's horizontal displacement this tick (m): a drop that the landing
/// floor's slope explains over its length is reported as not a step, and its direction is
/// where to look again when the first probe finds nothing (see below). Returns `None` (and
/// leaves the body where it was) when there is no walkable floor in reach.
///
/// A body that has just walked off a step can end the tick hugging the side of that step,
/// within the safe margin of it. Jolt then answers the probe down with "free" for the whole
/// drop, straight through the tread below: the touch stops its cast at once, and the only
/// contact where it stopped, the side, does not oppose the motion and is dropped (seen on real
/// Godot with a cylinder at 60 Hz). So when nothing is found, the probe is made once more from
/// a few millimetres further along `travel`, clear of that side; landed, the body is moved back
/// by those millimetres, or as far back as that side lets it.
pub fn step_down<B: KinematicBody + ?Sized>(
    body: &mut B,
    settings: &StairSettings,
    travel: Vec3,
) -> Option<StepDown> {
    if !settings.step_down_enabled || settings.max_step_height <= 0.0 {
        return None;
    }
    let up = unit_up(body.up_direction());
    let start = body.position();
    let along = horizontal(travel, up);
    let along = if along.is_finite() { along } else { Vec3::ZERO };
    let mut support = descend(body, start, up, settings);
    if support.is_none() {
        support = onto_lower_edge(body, start, up, settings);
    }
    let beside_side = support.is_none() && along.length() > 1e-6;
    if beside_side {
        let clear = 2.0 * body.safe_margin().max(0.0) + NUDGE;
        let ahead = body.test_move(start, along.normalize() * clear);
        let from = start + ahead.travel;
        if from.is_finite() {
            support = descend(body, from, up, settings);
            if matches!(support, Some(Support::Floor(_))) {
                // Down on the tread, clear of the side: take the nudge back, so the tick moves
                // the body no further than it walked; when the side is in the way, as far as
                // it lets the body go (the nudge is two margins and a millimetre: a third of a
                // small character's walk at 250 Hz).
                let landed = body.position();
                let back = body.test_move(landed, -ahead.travel);
                let undone = match back.contact {
                    None => back.travel,
                    Some(_) => {
                        let way = (-ahead.travel).normalize_or_zero();
                        way * back.travel.dot(way).clamp(0.0, ahead.travel.length())
                    }
                };
                if (landed + undone).is_finite() {
                    body.set_position(landed + undone);
                }
            }
        }
    }
    let Some(support) = support else {
        body.set_position(start);
        return None;
    };
    let height = vertical(body.position() - start, up);
    let normal = match support {
        Support::Floor(_) => body.floor_normal(),
        Support::Edge(contact) => contact.normal,
    };
    let slope = slope_angle(normal, up).unwrap_or(0.0);
    let explained = along.length() * slope.tan();
    Some(StepDown {
        height,
        is_step: -height > explained + step_down_tolerance(settings.max_step_height),
        on_edge: matches!(support, Support::Edge(_)),
        contact: match support {
            Support::Floor(contact) | Support::Edge(contact) => contact,
        },
        beside_side,
    })
}
