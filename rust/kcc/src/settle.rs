//! Stage 4 of a move, settle: after the slide, the body is put on what supports it ([`settle`]):
//! a flat bottom keeps floating at the tread's height, a climbed body is set down on the step's
//! edge, a body that walked off floor steps down onto the floor below, and with the flat base a
//! rounded bottom stands held on the edge still under it or comes down off it in one step.
//! The stair step the move made is judged here, once.

use glam::Vec3;

use crate::body::{KinematicBody, MotionTest};
use crate::climb::Lift;
use crate::flat_base::{self, SetDown};
use crate::floor::{horizontal, vertical};
use crate::footing::Footing;
use crate::plan::Plan;
use crate::settings::StairSettings;
use crate::slide::Slid;
use crate::stairs::step_down;
use crate::surface::{is_level, is_walkable};
use crate::tolerances::{
    FACE_TEST_WALK, HELD_TOLERANCE, MARGIN_PUSH_SHARE, MIN_MOTION, MIN_STEP_RISE, edge_tolerance,
    step_down_tolerance, touch_reach,
};

/// How the body was settled after the slide.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub(crate) struct Settled {
    /// Height the step down moved the body, m (0 or less; 0 when it found no floor or did not
    /// run).
    pub(crate) step_down: f32,
    /// Height the flat base's hold raised the body back to the edge under it, or a landing out
    /// of the level floor the slide sank it into, m (0 or more).
    pub(crate) raised: f32,
    /// The stair step down (or onto a lower edge) the move made, m, for the `stepped` report;
    /// a climb's step is judged by the report itself.
    pub(crate) stepped: Option<f32>,
    /// An edge supports the body, which the engine does not count as floor: the body stands on
    /// it as on floor.
    pub(crate) on_edge: bool,
    /// The body was put down on what supports it: it keeps the walk's velocity and has no
    /// vertical speed.
    pub(crate) caught: bool,
    /// The flat base's reach (the max step height, m) when it applied to this move (a
    /// grounded move, not rising, with the flat base on).
    pub(crate) flat: Option<f32>,
}

/// Settles the body after the slide of `plan` that ended as `slid` (see the module docs).
pub(crate) fn settle<B: KinematicBody + ?Sized>(
    body: &mut B,
    stairs: &StairSettings,
    plan: &Plan,
    slid: &Slid,
) -> Settled {
    // Where the slide left the body, for the flat base's look down.
    let slid_to = body.position();
    let flat = stairs
        .flat_reach()
        .filter(|_| plan.grounded && slid.rise <= 0.0);
    let mut settled = Settled {
        flat,
        ..Settled::default()
    };
    if !plan.grounded {
        settled.raised = out_of_landed_floor(body, stairs, plan);
        return settled;
    }
    let floats = floats_over_tread(body, plan, slid.lift);
    if flat.is_some() && floats {
        settled.on_edge = true;
        settled.caught = true;
        return settled;
    }
    let here = vertical(plan.start, plan.up);
    // With a flat base, a body lifted over a step's edge is put down held on that edge at
    // once (see `flat_base::set_down`); the step down follows when it is not.
    let set_down = match (flat, slid.lift) {
        (Some(reach), Some(lift)) if !body.is_on_floor() => {
            flat_base::set_down(body, here + lift.tread, plan.run, reach)
        }
        _ => SetDown::NoEdge,
    };
    if set_down == SetDown::Held {
        settled.raised = 0.0;
        settled.on_edge = true;
        settled.caught = true;
        return settled;
    }
    if set_down == SetDown::Resting
        && plan.footing.on_floor()
        && flat_base::rest_on_edge(body, plan.start)
    {
        settled.on_edge = true;
        settled.caught = true;
        return settled;
    }
    let landed = if plan.grounded && slid.rise <= 0.0 && !body.is_on_floor() {
        step_down_onto_floor(body, stairs, plan, slid, &mut settled)
    } else {
        None
    };
    if set_down == SetDown::Resting {
        return settled;
    }
    if let Some(reach) = flat {
        stand_or_come_down(body, plan, slid, reach, slid_to, landed, &mut settled);
        if body.position() == slid_to {
            settled.step_down += onto_tread(body, plan, slid);
        }
    }
    if settled.stepped.is_none() && landed.is_none() {
        settled.stepped = off_slope_foot(body, stairs, plan, slid, flat.is_some());
    }
    if body.position() == slid_to {
        settled.raised =
            out_of_landed_floor(body, stairs, plan).max(out_of_snapped_floor(body, plan, slid));
    }
    settled
}

/// A body that the engine's slide left below the top of the level floor it met by more than
/// the engine's safe margin is stood on that floor. Godot Physics' slide lands a falling body
/// within its margin and then sinks it along the floor with the rest of the motion (a 1.8 m
/// capsule landing at 45 Hz, 8 mm deep; Godot's plain body the same, until its next tick's
/// recovery), and a grounded one that walks from an edge's rounding onto level floor as well
/// (the 6 m capsule of `stairs_030_6m` at 144 Hz, 2.9 mm). The floor's
/// top is the height of the slide's first contact, when that contact is level; a landing
/// deeper than the max step height is left alone. One motion test up by the depth and a safe
/// margin (a test that [began inside](flat_base::raised) the floor counts whole) and one back
/// down find where the body stands free; the body goes there only when that is above where
/// the slide left it. No query runs unless the slide left the body that deep. Returns how far
/// the body was raised (m, 0 or more), a move outside the slide as the flat base's hold is.
fn out_of_landed_floor<B: KinematicBody + ?Sized>(
    body: &mut B,
    stairs: &StairSettings,
    plan: &Plan,
) -> f32 {
    let up = plan.up;
    if !(body.is_on_floor() && is_level(body.floor_normal(), up)) {
        return 0.0;
    }
    let Some(floor) = body.slide_collision(0).and_then(|hit| hit.contact) else {
        return 0.0;
    };
    let here = body.position();
    let depth = vertical(floor.point - here, up);
    let margin = body.safe_margin().max(0.0);
    let deep = depth > margin.max(HELD_TOLERANCE) && depth <= stairs.max_step_height;
    if !(deep && is_level(floor.normal, up)) {
        return 0.0;
    }
    let rise = depth + margin;
    let raise = body.test_move(here, up * rise);
    stand_out(body, here, rise, &raise, up)
}

/// A grounded body that the engine's floor snap inside the slide took down onto level floor,
/// with no slide collision to tell the floor's top (the slide met nothing), is stood on that
/// floor when it ended inside it. Godot Physics' snap sinks a capsule rolling off a stair's
/// edge into the floor below (`stairs_down_full_speed_rolling` at 144 Hz: 18 mm above the
/// floor, snapped 7.4 mm into it). One motion test up by the snap's drop (below the slide's
/// own vertical motion) and a safe margin tells, only when the body is sunk: it travels
/// further than asked, the engine's push out of the overlap, and the body is raised by that
/// push (a probe down from above would not do: Godot Physics' cast calls the capsule clear of
/// that floor 8 mm inside it); or it [began inside](flat_base::raised) the floor and one probe
/// down finds where the body stands free. No query runs unless the snap took the body down by
/// more than the margins. Sloped floor is left alone: a capsule rolling down over an edge's
/// rounding would be raised on every tick it sinks a little, and the raises read as speed
/// (`stairs_down_full_speed_rolling` at 240 Hz, 1.065 times the walk). Returns how far the
/// body was raised (m, 0 or more).
fn out_of_snapped_floor<B: KinematicBody + ?Sized>(body: &mut B, plan: &Plan, slid: &Slid) -> f32 {
    let up = plan.up;
    let here = body.position();
    let own = (plan.push + plan.slope).min(0.0) * plan.dt;
    let drop = vertical(plan.start - here, up) + own;
    let margin = body.safe_margin().max(0.0);
    // The drop first: it needs no call to the engine, and most ticks end there.
    let snapped = || {
        slid.lift.is_none()
            && body.slide_collision(0).is_none()
            && body.is_on_floor()
            && is_level(body.floor_normal(), up)
    };
    if !(drop > margin.max(HELD_TOLERANCE) && snapped()) {
        return 0.0;
    }
    let rise = drop + margin;
    let raise = body.test_move(here, up * rise);
    // Out of an overlap, the test pushes the body out first (its travel goes beyond the
    // motion), or reports the overlap as a collision.
    let pushed = vertical(raise.travel, up) - rise;
    let free = here + up * pushed;
    if raise.contact.is_none() && pushed > margin.max(HELD_TOLERANCE) && free.is_finite() {
        body.set_position(free);
        return pushed;
    }
    if !flat_base::began_inside(&raise, up) {
        return 0.0;
    }
    stand_out(body, here, rise, &raise, up)
}

/// Stands a body sunk into level floor on it: lifted from `here` (m) as far as `raise`, a
/// motion test `rise` (m) straight up, found room (one that [began inside](flat_base::raised)
/// the floor counts whole), then probed down by the rise and a safe margin; the body goes
/// where the probe stops, on level ground, when that is above `here`. Returns how far it was
/// raised (m, 0 or more).
fn stand_out<B: KinematicBody + ?Sized>(
    body: &mut B,
    here: Vec3,
    rise: f32,
    raise: &MotionTest,
    up: Vec3,
) -> f32 {
    let margin = body.safe_margin().max(0.0);
    let lifted = here + up * flat_base::raised(raise, rise, up);
    let probe = body.test_move(lifted, -up * (rise + margin));
    if !probe
        .contact
        .is_some_and(|ground| is_level(ground.normal, up))
    {
        return 0.0;
    }
    let free = lifted + up * vertical(probe.travel, up);
    let raised = vertical(free - here, up);
    if !(free.is_finite() && raised > 0.0) {
        return 0.0;
    }
    body.set_position(free);
    raised
}

/// A body held over an edge whose level move the engine's slide carried up from the edge's
/// rounding into the air over the tread is put down on that tread. The slide meets the rounding
/// under the rim of a flat bottom, slides the rest of the move along the rounding's tilt and,
/// on floor from that contact, makes no floor snap: a 5.5 m cylinder (the course's, 3.06 times
/// larger) at 39 Hz ended 4 cm over the tread, and the step down of its next tick counted the
/// way back as a step. A held move that rose more than [`MIN_STEP_RISE`], ending on tilted
/// floor by the engine's word, makes one probe down, as long as the rise and the engine's
/// margins; the body goes where it found walkable floor, when that is further below than the
/// margins. No step: the body never left the height of the edge it walked onto. Returns how
/// far it went down (m, 0 or less), a move outside the slide as a step down is.
fn onto_tread<B: KinematicBody + ?Sized>(body: &mut B, plan: &Plan, slid: &Slid) -> f32 {
    let up = plan.up;
    let here = body.position();
    let rise = vertical(here - plan.start, up);
    let held = matches!(plan.footing, Footing::Held(_)) && slid.lift.is_none();
    let tilted = body.is_on_floor() && !is_level(body.floor_normal(), up);
    if !(held && tilted && rise > MIN_STEP_RISE && rise.is_finite()) {
        return 0.0;
    }
    let touch = touch_reach(body);
    let below = body.test_move(here, -up * (rise + touch));
    let floor = below
        .contact
        .is_some_and(|floor| is_walkable(floor.normal, up, body.floor_max_angle()));
    let landed = here + below.travel;
    let drop = vertical(below.travel, up);
    if !(floor && -drop > touch && landed.is_finite()) {
        return 0.0;
    }
    body.set_position(landed);
    drop
}

/// The step of a grounded move down a slope whose slide went past the slope's foot onto level
/// ground lower than the slope's line, by more than the [`edge_tolerance`]: the engine's floor
/// snap took the body down a riser (a 45 degree chamfer on a stair's nosing is floor: the slide
/// follows its face beyond its foot, over the riser below it, and the snap comes down onto the
/// tread). The edge tolerance, not the step down's: the rounded foot of a ramp (Jolt's convex
/// radius cuts its sharp foot into a lip) drops a flat bottom up to 2.5 cm below the slope's
/// line at 0.4 m. One probe down (the edge tolerance and two safe margins long) tells level
/// ground under the body from the curve of a rounded nosing, which falls away from the slope's
/// line as well (the engine may give its top a level floor normal). With the flat base the tick's whole drop is the step, as for a
/// step down; rolling, only the drop beyond the slope. `None` when the move climbed, did not
/// follow a slope down, or did not end on level ground.
fn off_slope_foot<B: KinematicBody + ?Sized>(
    body: &mut B,
    stairs: &StairSettings,
    plan: &Plan,
    slid: &Slid,
    flat: bool,
) -> Option<f32> {
    let downhill = plan.grounded && slid.lift.is_none() && slid.slope < 0.0;
    if !(downhill && body.is_on_floor()) {
        return None;
    }
    let tolerance = edge_tolerance(stairs.max_step_height);
    let here = body.position();
    let drop = vertical(here - plan.start, plan.up);
    let beyond = drop - slid.slope * plan.dt;
    let step = if flat { drop } else { beyond };
    if !(beyond < -tolerance && step.is_finite()) {
        return None;
    }
    let touch = tolerance + 2.0 * body.safe_margin().max(0.0);
    let below = body.test_move(here, -plan.up * touch);
    let level = below
        .contact
        .is_some_and(|contact| is_level(contact.normal, plan.up));
    level.then_some(step)
}

/// True when the body is a flat bottom floating at the tread's height over the rounding of the
/// step it climbed ([`Lift::over`], [`Footing::OverTread`]) that the slide carried on level:
/// it stays there, held by the tread (the step down would drop it onto the rounding).
fn floats_over_tread<B: KinematicBody + ?Sized>(body: &B, plan: &Plan, lift: Option<Lift>) -> bool {
    let (floats, height) = match lift {
        Some(lift) => (lift.over, lift.height),
        None => (plan.footing == Footing::OverTread, 0.0),
    };
    let level_slide = (vertical(body.position() - plan.start, plan.up) - height).abs()
        <= body.safe_margin().max(0.0);
    floats && level_slide
}

/// What a step down came down on.
#[derive(Debug, Clone, Copy)]
struct Landed {
    /// Its height along up, m.
    top: f32,
    /// The drop was a step, not a slope followed down.
    is_step: bool,
    /// It is level floor (see [`is_level`]).
    level: bool,
}

/// The step down of a body that walked off the floor it stood on (see [`step_down`]); writes
/// what it did into `settled`, and returns what it came down on.
fn step_down_onto_floor<B: KinematicBody + ?Sized>(
    body: &mut B,
    stairs: &StairSettings,
    plan: &Plan,
    slid: &Slid,
    settled: &mut Settled,
) -> Option<Landed> {
    let slid_to = body.position();
    let travelled = horizontal(slid_to - plan.start, plan.up);
    let step = step_down(body, stairs, travelled)?;
    settled.step_down = step.height;
    // After a lift over an edge, the drop back onto it is part of the climb; after a move up a
    // slope, so is the drop back onto its crest.
    let overshoot = slid.slope.max(0.0) * plan.dt + step_down_tolerance(stairs.max_step_height);
    let lifted = slid.lift.is_some_and(|lift| lift.height > 0.0);
    if step.is_step && !lifted && -step.height > overshoot {
        // The slide may have gone down the rounding of the edge first, by the engine's floor
        // snap or following the rounding's slope: with the flat base that drop is part of the
        // step, the tick's whole drop (a body walking level has no slope of its own to follow
        // down); rolling, only the snap's drop beyond the slope it followed.
        let drop = vertical(slid_to - plan.start, plan.up);
        let before = if settled.flat.is_some() {
            drop
        } else {
            drop - slid.slope * plan.dt
        };
        settled.stepped = Some(step.height + before.min(0.0));
        if !step.beside_side {
            keep_to_walk(body, plan, slid_to);
        }
    }
    settled.on_edge = step.on_edge;
    // Standing on floor again: gravity does not accumulate (as Godot's slide).
    settled.caught = true;
    Some(Landed {
        top: vertical(step.contact.point, plan.up),
        is_step: step.is_step,
        level: is_level(step.contact.normal, plan.up),
    })
}

/// After a step down, takes back how far the slide before it carried the body beyond its
/// walk along the walk (the body at `slid_to`, m), when that is no more than the engine's push
/// out of a safe margin: the body started the tick within the margin of the edge it was
/// walking off (set down on its rounding, or rolling over it), and the slide's recovery
/// pushed it on, up to a margin: at 240 Hz Godot's 1 mm is 6 % of a 4 m/s walk. Godot's own
/// floor snap drops such a stray sideways too. One motion test, and the body is moved back
/// only when it is free all the way; the walk must be longer than two margins, so the body
/// ends clear of the riser behind it. A push of less than [`MARGIN_PUSH_SHARE`] of the walk is
/// left in it.
fn keep_to_walk<B: KinematicBody + ?Sized>(body: &mut B, plan: &Plan, slid_to: Vec3) {
    let margin = body.safe_margin().max(0.0);
    let walk = horizontal(plan.walk(), plan.up);
    let length = walk.length();
    let Some(along) = walk.try_normalize() else {
        return;
    };
    let beyond = horizontal(slid_to - plan.start, plan.up).dot(along) - length;
    let worth = beyond > MARGIN_PUSH_SHARE * length;
    if !(worth && beyond <= 2.0 * margin && length > 2.0 * margin) {
        return;
    }
    let here = body.position();
    let back = body.test_move(here, -along * beyond);
    // The test's own recovery out of the margin of the floor under the body is not made: the
    // body keeps its height, as after the step down's floor snap.
    let moved = horizontal(back.travel, plan.up);
    let free = back.contact.is_none() && (moved + along * beyond).length() <= MIN_MOTION;
    if free && (here + moved).is_finite() {
        body.set_position(here + moved);
    }
}

/// A flat base (see [`crate::flat_base`]): a rounded bottom stands on the edge still under it
/// at the height its feet stood at (the floor or edge under it, or the top of the step it
/// climbed), or on the lower edge a step down came down on (`landed`: its height, and
/// whether it was a step). A body that walked off the edge (or the level floor) it stood on
/// comes down: the tick's whole drop is the step (see [`flat_base::come_down`]). `reach` is the
/// flat base's probe length (m); `slid_to` where the slide left the body (m).
fn stand_or_come_down<B: KinematicBody + ?Sized>(
    body: &mut B,
    plan: &Plan,
    slid: &Slid,
    reach: f32,
    slid_to: Vec3,
    landed: Option<Landed>,
    settled: &mut Settled,
) {
    let up = plan.up;
    let here = vertical(plan.start, up);
    // The lower edge a step down came down on: from an edge or level floor the body stood on,
    // or from an edge it was rolling over (held again there, it rolls no further).
    let lower = landed
        .filter(|landed| landed.is_step)
        .map(|landed| landed.top)
        .filter(|top| here - top > edge_tolerance(reach));
    let walked = horizontal(body.position() - plan.start, up).length() > FACE_TEST_WALK;
    let base = hold_base(plan, slid, lower, walked);
    // A flat bottom lifted to float at the tread's height that the engine's slide put down on
    // the rounding (its floor snap): its rim rests there at its feet, and no edge under it is
    // higher.
    let floats = slid
        .lift
        .map_or(plan.footing == Footing::OverTread, |lift| lift.over);
    let held = match base {
        _ if floats && body.is_on_floor() => None,
        Some((base, before)) => match snapped_from(body, plan, slid, slid_to, base) {
            Some(raised) => flat_base::stand_over(body, raised, base, before, reach),
            None => flat_base::stand(body, slid_to, base, before, reach),
        },
        None => None,
    };
    if let Some(raised) = held {
        settled.raised = raised;
        settled.on_edge = true;
        settled.caught = true;
        if slid.lift.is_none() {
            // A step only when the edge it now stands on is a lower one.
            let drop = vertical(body.position() - plan.start, up);
            settled.stepped = (drop < -edge_tolerance(reach)).then_some(drop);
        }
        return;
    }
    // A body that stood held on an edge or on level floor comes down off it in one step; one
    // that was rolling over an edge only onto level floor right below it (see `come_down`).
    let stood = plan.stance.level() || matches!(plan.footing, Footing::Held(_));
    let walked_off = matches!(plan.footing, Footing::Held(_)) || landed.is_some();
    // A step down that came down on level floor stood the body on it and judged the step.
    let judged = settled.stepped.is_some() && landed.is_some_and(|landed| landed.level);
    if slid.lift.is_none() && walked_off && !judged {
        // No second look for a hold on the lower edge the step down came down on: the hold
        // above just looked for it.
        if let Some(came) = flat_base::come_down(body, plan.start, reach, stood, lower.is_none()) {
            settled.stepped = came.stepped;
            settled.on_edge |= came.held;
        }
    }
}

/// After a climb that lifted the body clear of the step's top (`base`, m along up), where the
/// slide across the tread left it on the engine's floor below that top (`slid_to`, m) with no
/// wall met: the engine's floor snap brought it straight down from the lift's height onto the
/// rounding of the edge ahead (a capsule walking 4.5 m/s at 40 Hz, 9 cm down). That height
/// above `slid_to` is free, and the hold's probe starts there without a raise.
fn snapped_from<B: KinematicBody + ?Sized>(
    body: &B,
    plan: &Plan,
    slid: &Slid,
    slid_to: Vec3,
    base: f32,
) -> Option<flat_base::Raised> {
    let up = plan.up;
    let top = vertical(plan.start, up) + slid.lift?.top;
    let high = vertical(slid_to, up);
    let snapped = body.is_on_floor() && !body.is_on_wall() && high < base && top >= base;
    let lifted = slid_to + up * (top - high);
    (snapped && lifted.is_finite()).then_some(flat_base::Raised {
        lifted,
        inside: false,
        above: 0.0,
    })
}

/// The height (m along up) the flat base holds the body at after a move of `plan` that ended
/// as `slid`, and how [`flat_base::stand`] tells a slope's face from an edge there: the top of
/// the step it climbed; the `lower` edge a step down came down on (a second probe tells it from
/// a slope's face); the edge it stood held on (a body that `walked` no further than a hair is
/// on the same edge whatever the normal says); the level floor it stood on. `None` for a body
/// that was rolling over an edge or walking a slope.
fn hold_base(
    plan: &Plan,
    slid: &Slid,
    lower: Option<f32>,
    walked: bool,
) -> Option<(f32, Option<flat_base::Face>)> {
    let here = vertical(plan.start, plan.up);
    match (slid.lift, lower, plan.footing) {
        (Some(lift), _, _) => Some((here + lift.tread, None)),
        (None, Some(top), Footing::Held(_)) => {
            Some((top, Some(flat_base::Face::LookFrom { stood: here })))
        }
        (None, Some(top), _) => Some((top, Some(flat_base::Face::Look))),
        (None, None, Footing::Held(edge)) => {
            Some((here, Some(flat_base::Face::Was(edge)).filter(|_| walked)))
        }
        (None, None, _) if plan.stance.level() => Some((here, None)),
        (None, None, _) => None,
    }
}
