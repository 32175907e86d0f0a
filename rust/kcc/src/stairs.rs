//! Stair stepping by shape sweeps: up onto ledges in the way, and down onto floor the body has
//! just walked off.
//!
//! Step up ([`step_up`]), when the body stands on floor and moves:
//! 1. Probe the tick's horizontal motion. Free: no step, the slide makes the move. Walkable ground in
//!    the way (a ramp, the edge the body rolls over) is slid along in case a riser follows; a
//!    path that ends free or on walkable ground, or an overhang, is no step: sliding handles it.
//! 2. Sweep up from the obstacle by at most the max step height, sliding along ceilings.
//! 3. Sweep forward by the motion left, at least the minimum forward step, sliding along walls.
//! 4. Sweep down by at most the height climbed. The landing must be higher than the start and
//!    walkable. A tilted landing (a rounded shape resting on the step's edge) is moved ahead
//!    onto the tread when a second look a little further ahead finds one (halfway there when
//!    that is already walkable), since the engine's slide stops against such an edge.
//! 5. Check the riser between the surface under the body and the landing's contact point
//!    against the max step height, and that the tread is deep enough: the body needs the
//!    minimum step depth of room ahead.
//!
//! Step down ([`step_down`]): sweep straight down by at most the max step height; land on
//! walkable floor and snap, or rest on the edge of a step being rolled over when sliding off it
//! would reach floor within that height (the edge supports the body, as Jolt's
//! `CharacterVirtual` counts contacts under its supporting volume).

use glam::Vec3;

use crate::body::{Contact, KinematicBody, MotionTest};
use crate::floor::{horizontal, slide, unit_up, vertical};
use crate::settings::StairSettings;
use crate::surface::{
    FLOOR_ANGLE_MARGIN, GRAZING_COSINE, TOWARD_RISER_COSINE, is_level, is_overhang, is_walkable,
    slope_angle, supports, usable_normal,
};
use crate::sweep::iterate_sweep;

/// Smallest height gain that counts as a step, m. Below it the sweeps only found the floor the
/// body already stands on (the difference is the engines' margin and recovery noise).
pub const MIN_STEP_RISE: f32 = 0.002;

/// A drop larger than what the floor's slope explains by more than this counts as a step down
/// (and moves the camera smoother), m. Following a ramp down is not a step.
pub const STEP_DOWN_TOLERANCE: f32 = 0.01;

/// What lies ahead of a grounded body for this tick's horizontal motion.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Ahead {
    /// Nothing in the way, or only walkable ground that Godot's slide follows.
    Free,
    /// The body can step up onto a ledge; it has not been moved yet. The forward part of the
    /// step covers this tick's horizontal motion.
    Stepped(StepUp),
    /// Something is in the way that is not a step: slide along it.
    Blocked,
}

/// A step up that was found.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct StepUp {
    /// Displacement from the body's position to the landing on the step, m.
    pub displacement: Vec3,
    /// Height gained, m (positive).
    pub height: f32,
    /// Height of the step's top where the body lands (its contact there), above the body's
    /// position, m: `height` for a flat bottom on the tread, more for a rounded one resting on
    /// the edge.
    pub tread: f32,
    /// The landing is on the step's edge (a rounded bottom on it, too steep to be floor for the
    /// engine), with a walkable tread right behind it: the edge supports the body.
    pub on_edge: bool,
    /// How high above the body's position its bottom clears the top of the step, m (at least
    /// `height`; less than that only under a ceiling).
    pub clearance: f32,
    /// How far the tick's own horizontal motion carries the body past where it met the step,
    /// m (negative when it stops short of it).
    pub past_obstacle: f32,
    /// What stopped the motion leans back from the body (its contact normal points up a
    /// little): the rounding of the step's edge, or a rounded bottom touching the edge from
    /// below it, not a vertical riser's face.
    pub tilted_obstacle: bool,
    /// The landing's contact is level: a flat bottom standing flat on the tread, not a
    /// rounded one resting on the tread near its edge.
    pub level_landing: bool,
    /// A landing met at the body's feet on the rounding of the step's edge, with a tread
    /// behind it (`tread_height`): a flat bottom's rim on the rounding, not a rounded bottom's
    /// side.
    pub rim_on_edge: bool,
    /// Height of the tread behind a landing on the edge's rounding above the body's position,
    /// m: where a flat bottom resting on the rounding stands once on the tread (`height` when
    /// no such tread was looked for).
    pub tread_height: f32,
}

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
}

/// Probes `motion` (m, this tick: horizontal, or following the slope of the floor under the
/// body as the move did) from `from` (the body's origin, m) and, if a step blocks it, finds the
/// landing on top of the step. Does not move the body. Past the probe, only the horizontal part
/// of `motion` counts.
///
/// The probe reaches at least the minimum forward step ahead: a slow body resting against a
/// riser within the safe margin would otherwise find its short motion free (the recovery
/// pushes it clear first), while the engine's slide stops it there as against a wall.
///
/// `level` says the body stands at `from` on level floor: the floor under it needs no probe
/// (it is at the body's origin, its feet), and a level landing is a riser exactly as high as
/// the body rises.
///
/// `met`: what a test of `motion` from `from` already found, when the caller has it (the first
/// collision of a slide that made that motion, see [`KinematicBody::first_slide_collision`]): it
/// stands for the probe's first test, which is then not made.
pub fn step_up<B: KinematicBody + ?Sized>(
    body: &mut B,
    from: Vec3,
    motion: Vec3,
    settings: &StairSettings,
    level: bool,
    met: Option<MotionTest>,
) -> Ahead {
    let up = unit_up(body.up_direction());
    let max_angle = body.floor_max_angle();
    let start = from;
    let reach = settings.min_step_forward.max(0.0);
    let flat = horizontal(motion, up).length();
    let asked = motion;
    let motion = if flat >= reach {
        motion
    } else if flat > 0.0 {
        motion * (reach / flat)
    } else {
        Vec3::ZERO
    };

    // Probe the motion. Walkable ground in the way (a ramp, or the edge of the step the body is
    // rolling over) is followed, since a riser may be right behind it.
    let length = horizontal(motion, up).length();
    let mut at_obstacle = start;
    let mut rest = motion;
    let mut obstacle = None;
    // What the caller's test met stopped the motion short of its end: the same contact stops
    // the probe (as long or longer, the same way), at the same place.
    let mut met = met.filter(|m| m.contact.is_some()).map(|m| MotionTest {
        remainder: m.remainder + (motion - asked),
        ..m
    });
    // The probe and at most one slide along walkable ground: a riser right behind an edge is
    // found, and a failed attempt stays cheap.
    for _ in 0..settings.sweep_iterations.clamp(1, 2) {
        let test = match met.take() {
            Some(known) => known,
            None => body.test_move(at_obstacle, rest),
        };
        let Some(hit) = test.contact else {
            // Free, or free after following walkable ground as Godot's slide would: done.
            return Ahead::Free;
        };
        at_obstacle += test.travel;
        if !is_walkable(hit.normal, up, max_angle - FLOOR_ANGLE_MARGIN) {
            obstacle = Some((hit, test.remainder));
            break;
        }
        rest = floor_slide(test.remainder, hit.normal, up);
        if rest.dot(motion) <= 0.0 {
            break;
        }
    }
    let Some((obstacle, remainder)) = obstacle else {
        return Ahead::Blocked;
    };
    if !settings.step_up_enabled
        || settings.max_step_height <= 0.0
        || length <= 0.0
        || is_overhang(obstacle.normal, up)
    {
        return Ahead::Blocked;
    }
    let direction = horizontal(motion, up) / length;

    // Sweep up from where the probe stopped.
    let rise = iterate_sweep(
        body,
        at_obstacle,
        up * settings.max_step_height,
        settings.sweep_iterations,
    );
    if vertical(rise.end - at_obstacle, up) <= MIN_STEP_RISE {
        return Ahead::Blocked;
    }
    let top = rise.end;

    // Forward by what is left of the motion, and far enough to reach the tread.
    let forward = horizontal(remainder, up)
        .length()
        .max(settings.min_step_forward);
    // One sweep out to the furthest point looked at (the tread test beyond a tilted landing).
    // Its first, straight part is free, so the nearer landing needs no sweep of its own.
    let reach = forward + settings.step_forward_test.max(0.0);
    let first = body.test_move(top, direction * reach);
    let straight = horizontal(first.travel, up).dot(direction);
    let near = if straight >= forward {
        top + direction * forward
    } else {
        top + first.travel
    };
    let far = match first.contact.and_then(|hit| usable_normal(hit.normal)) {
        Some(normal) if settings.sweep_iterations > 1 => {
            let rest = slide(first.remainder, normal);
            let more = settings.sweep_iterations - 1;
            iterate_sweep(body, top + first.travel, rest, more).end
        }
        _ => top + first.travel,
    };
    let Some(mut landing) = drop_onto(body, start, near) else {
        return Ahead::Blocked;
    };
    let mut on_edge = false;
    let mut tread_height = None;
    if !is_walkable(landing.contact.normal, up, max_angle) {
        // A rounded bottom resting on the step's edge is not on floor for the engine. Step on
        // only if a walkable tread follows a little further on. The edge then supports the
        // body (see `StepDown::on_edge`), which rolls up over it in the next ticks at its own
        // speed. When the way ahead was not clear, stand on the tread instead.
        if settings.step_forward_test <= 0.0 {
            return Ahead::Blocked;
        }
        let walkable = |tread: &Landing| is_walkable(tread.contact.normal, up, max_angle);
        // Approached at a grazing angle, the look along the motion (nearly parallel to the
        // riser) finds only the edge again: look toward the riser, as Jolt's `CharacterVirtual`
        // does within its `mWalkStairsCosAngleForwardContact`; first, when the motion is more
        // than 70 degrees off it.
        let toward = toward_riser(obstacle.normal, direction, up);
        let grazing = toward.is_some_and(|toward| toward.dot(direction) < GRAZING_COSINE);
        // One slanted sweep, toward the riser by the tread test and down to the start's
        // height: what it meets first is the tread when walkable.
        let look_toward = |body: &mut B| {
            let toward = toward?;
            let drop = vertical(near - start, up);
            let slant = body.test_move(near, toward * settings.step_forward_test - up * drop);
            let contact = slant.contact?;
            let landing = Landing {
                position: near + slant.travel,
                contact,
                above: near + horizontal(slant.travel, up),
            };
            Some(landing).filter(walkable)
        };
        let mut tread = if grazing { look_toward(body) } else { None };
        if tread.is_none() {
            tread = drop_onto(body, start, far).filter(walkable);
        }
        if tread.is_none() && !grazing {
            tread = look_toward(body);
        }
        let Some(tread) = tread else {
            return Ahead::Blocked;
        };
        if first.contact.is_some() {
            landing = tread;
        } else {
            on_edge = true;
            tread_height = Some(vertical(tread.position - start, up));
        }
    }
    // A flat bottom's rim on the walkable rounding of the edge (its contact at the feet, not
    // level): with the flat base it floats at the height of the level tread behind it, when
    // the look as far as the tread test finds one (see `StepUp::rim_on_edge`).
    let rim = vertical(landing.contact.point - landing.position, up) <= 2.0 * body.safe_margin();
    if settings.flat_base
        && rim
        && tread_height.is_none()
        && !is_level(landing.contact.normal, up)
        && let Some(tread) = drop_onto(body, start, far)
        && is_level(tread.contact.normal, up)
    {
        tread_height = Some(vertical(tread.position - start, up));
    }
    let height = vertical(landing.position - start, up);
    if height <= MIN_STEP_RISE {
        return Ahead::Blocked;
    }
    // The riser is measured between the surfaces, not the body's positions: a rounded bottom
    // resting on an edge sits lower than the tread and must not sneak up a higher step.
    // The body's origin is its feet, so whatever it stands on lies no lower than the origin
    // less the safe margin: a landing whose contact is within the max step height of the feet
    // is a low enough riser whatever the floor under the body, and needs no probe of it. On
    // level floor the origin is on the floor, and a level landing is as high as the body rises.
    let contact_height = vertical(landing.contact.point - start, up);
    if settings.flat_base && vertical(top - start, up) + body.safe_margin() < contact_height {
        // A flat base stands on the step's top or not at all: with no room to rise above it (a
        // ceiling), the body would only roll part way up the edge, and that is no step.
        return Ahead::Blocked;
    }
    let riser = if level && is_level(landing.contact.normal, up) {
        height
    } else if level || contact_height <= settings.max_step_height {
        contact_height
    } else {
        let support = body.test_move(start, -up * settings.max_step_height);
        let floor = support
            .contact
            .map_or(vertical(start, up), |c| vertical(c.point, up));
        vertical(landing.contact.point, up) - floor
    };
    if riser > settings.max_step_height + body.safe_margin() {
        return Ahead::Blocked;
    }

    // The tread must leave room ahead, measured from the obstacle at the swept-up height (as
    // Rapier's `min_width`), above the edge a rounded body may rest on. A landing on the forward
    // sweep's line needs no sweep of its own when that one reached far enough or hit something.
    let advanced = horizontal(landing.above - at_obstacle, up).dot(direction);
    let room = settings.min_step_depth - advanced.max(0.0);
    if room > body.safe_margin() {
        let on_line = landing.above == near;
        let ahead = if on_line && (first.contact.is_some() || straight >= advanced + room) {
            (first.contact, straight - advanced)
        } else {
            let ahead = body.test_move(landing.above, direction * room);
            (ahead.contact, ahead.travel.dot(direction))
        };
        if let (Some(wall), travel) = ahead {
            let blocked =
                !is_walkable(wall.normal, up, max_angle) && travel < room - body.safe_margin();
            if blocked {
                return Ahead::Blocked;
            }
        }
    }

    // Lifted this high, the body passes over the step's top: its contact, plus the engines'
    // margins, within what the sweep up found free.
    let clearance = (vertical(landing.contact.point - start, up) + 2.0 * body.safe_margin())
        .min(vertical(top - start, up))
        .max(height);
    Ahead::Stepped(StepUp {
        displacement: landing.position - start,
        height,
        tread: contact_height,
        on_edge,
        clearance,
        past_obstacle: flat - horizontal(at_obstacle - start, up).dot(direction),
        tilted_obstacle: supports(obstacle.normal, up),
        level_landing: is_level(landing.contact.normal, up),
        rim_on_edge: rim && tread_height.is_some(),
        tread_height: tread_height.unwrap_or(height),
    })
}

/// The horizontal direction into a riser with contact `normal` for a body moving along the
/// horizontal unit `direction`, when it moves into it within [`TOWARD_RISER_COSINE`]; `None`
/// otherwise or for a normal with no horizontal part.
fn toward_riser(normal: Vec3, direction: Vec3, up: Vec3) -> Option<Vec3> {
    let toward = horizontal(-normal, up).try_normalize()?;
    (toward.dot(direction) >= TOWARD_RISER_COSINE).then_some(toward)
}

/// `rest` slid along walkable ground with unit `normal` the way Godot's `move_and_slide` does
/// on floor: along the line where the motion's vertical plane meets the floor, so the heading
/// does not bend downhill, with the length of a plain slide.
fn floor_slide(rest: Vec3, normal: Vec3, up: Vec3) -> Vec3 {
    let plain = slide(rest, normal);
    let along = up.cross(rest).cross(normal).normalize_or_zero();
    if along == Vec3::ZERO {
        return plain;
    }
    along * plain.length()
}

/// A place found on top of a step.
struct Landing {
    /// Where the body would stand, m.
    position: Vec3,
    /// What it would stand on.
    contact: Contact,
    /// Where the forward sweep ended, above the landing, m.
    above: Vec3,
}

/// From `above` (a place above the step the forward sweep reached), sweeps down no lower than
/// the height of `start`. `None` when nothing was found to stand on.
fn drop_onto<B: KinematicBody + ?Sized>(body: &mut B, start: Vec3, above: Vec3) -> Option<Landing> {
    let up = unit_up(body.up_direction());
    let drop = vertical(above - start, up);
    if drop <= 0.0 {
        return None;
    }
    let down = body.test_move(above, -up * drop);
    let contact = down.contact?;
    Some(Landing {
        position: above + down.travel,
        contact,
        above,
    })
}

/// How far past the safe margin the second probe of [`step_down`] starts from the first, m.
const NUDGE: f32 = 1e-3;

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
/// little lower), and is then treated like a steep one.
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
                if is_walkable(hit.normal, up, max_angle) && land(body, end) {
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
/// by those millimetres when that is free.
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
    if support.is_none() && along.length() > 1e-6 {
        let clear = 2.0 * body.safe_margin().max(0.0) + NUDGE;
        let ahead = body.test_move(start, along.normalize() * clear);
        let from = start + ahead.travel;
        if from.is_finite() {
            support = descend(body, from, up, settings);
            if matches!(support, Some(Support::Floor(_))) {
                // Down on the tread, clear of the side: take the nudge back, so the tick moves
                // the body no further than it walked.
                let landed = body.position();
                let back = body.test_move(landed, -ahead.travel);
                if back.contact.is_none() && (landed + back.travel).is_finite() {
                    body.set_position(landed + back.travel);
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
        is_step: -height > explained + STEP_DOWN_TOLERANCE,
        on_edge: matches!(support, Support::Edge(_)),
        contact: match support {
            Support::Floor(contact) | Support::Edge(contact) => contact,
        },
    })
}
