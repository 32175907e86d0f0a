//! A flat base for rounded bottoms on stair edges.
//!
//! A capsule's round bottom rolls over a step's edge: going down, it sinks along the edge's arc
//! for several ticks before it drops onto the tread below; going up, it rests on the edge below
//! the tread and rolls up onto it. Its height then changes on many ticks by amounts that are no
//! step, and the camera sees every one of them.
//!
//! With a flat base the body stands on an edge under its bottom as a flat-bottomed one would:
//! its feet (the body's origin) at the edge's height, the round bottom floating a little above
//! the edge, for as long as the edge is under it. The height then changes only when the body
//! steps: up onto the tread (one `stepped` the riser's height) and down off the edge once the
//! edge is no longer under it (one `stepped` down). This is the idea of Unreal's
//! `bUseFlatBaseForFloorChecks`, made with the body's own shape casts.
//!
//! The controller keeps no state for it: a held body is recognised by a probe under its feet
//! ([`held`]): an edge there, at the feet's height, not under the whole bottom (a tilted
//! contact). A flat bottom on a slope touches it the same way with its rim; the controller
//! tells that face from an edge with one more probe a few millimetres toward the contact. It
//! is on by default (`GroundFollow::Snap`'s `flat_base`).

use glam::Vec3;

use crate::body::{Contact, KinematicBody, MotionTest};
use crate::floor::{horizontal, unit_up, vertical};
use crate::surface::{
    CREST_SLOPE, FLOOR_ANGLE_MARGIN, FLOOR_ANGLE_TOLERANCE, is_edge, is_level, is_overhang,
    is_walkable, same_normal,
};
use crate::tolerances::{
    FACE_SHIFT, HELD_TOLERANCE, MIN_HOLD, NUDGE, SWEEP_SLACK, edge_tolerance, tread_look,
};

/// The contact normal of the edge a body at `here` (m) stands held over, from a `probe` straight
/// down from there, when it does: the probe met an edge (`under_base`: a tilted contact, not
/// a level floor, or a riser's top met with a rounded bottom's side) at the feet's height, no
/// lower than the safe `margin` (m) and the [`SWEEP_SLACK`] below them (a sweep put the body
/// there), no higher than half the [`edge_tolerance`] of the flat base's `reach` (m) above
/// them (a step down or a slide may leave the feet a little down the rounding
/// of the edge's top). A rounded bottom resting on an edge it has barely begun to roll over
/// counts as held too.
pub fn held(probe: &MotionTest, here: Vec3, up: Vec3, margin: f32, reach: f32) -> Option<Vec3> {
    let contact = probe.contact?;
    let height = vertical(contact.point - here, up);
    let below = margin.max(0.0) + SWEEP_SLACK;
    let near = height >= -below && height <= below.max(0.5 * edge_tolerance(reach));
    let fell = -vertical(probe.travel, up);
    (under_base(contact.normal, fell, up, margin) && near).then_some(contact.normal)
}

/// A rounded bottom wider than a tread, held on the edge of the step it climbed, hangs over
/// the edge of the step below too; a `probe` straight down from `from` (m) falls as far to
/// either, and may name the lower one. Then one more probe as long, [`NUDGE`] further along
/// the walk (`walk`, the body's horizontal velocity, m/s: up the stairs, toward the upper
/// edge), names the upper edge: returned when it is one a body with its feet at `feet` (m)
/// stands held on ([`held`]). Coming down, held on the lower edge, the probe may name the
/// upper one behind the body, which its side still reaches: the look along the walk then
/// names the lower one. `reach` is the flat base's probe length (m). `None` when the first
/// probe met no such edge (more than the [`edge_tolerance`] below the feet, or above them and
/// behind), or the second no edge at their height.
pub fn out_of_nook<B: KinematicBody + ?Sized>(
    body: &mut B,
    probe: &MotionTest,
    from: Vec3,
    feet: Vec3,
    walk: Vec3,
    reach: f32,
) -> Option<MotionTest> {
    let up = unit_up(body.up_direction());
    let lower = probe.contact?;
    let margin = body.safe_margin();
    let walk = horizontal(walk, up).try_normalize()?;
    let height = vertical(lower.point - feet, up);
    let fell = -vertical(probe.travel, up);
    // Above the feet: the edge the body walked off, behind it, that its side still reaches
    // (the probe fell to it; a slope under the body is met at once).
    let behind = horizontal(lower.point - feet, up).dot(walk) < 0.0 && fell_to(fell, margin);
    let off = height < -edge_tolerance(reach) || height > edge_tolerance(reach) && behind;
    if !(off && under_base(lower.normal, fell, up, margin)) {
        return None;
    }
    let again = body.test_move(from + walk * NUDGE, probe.travel + probe.remainder);
    held(&again, feet, up, margin, reach).map(|_| again)
}

/// True when a contact with unit `normal`, met by a probe straight down that fell `fell` (m)
/// before it touched, is an edge the flat base stands on (found at the feet's height by the
/// caller): a tilted contact ([`is_edge`]), or the top of a riser about as high as a rounded
/// bottom's radius, carried barely past it, that the bottom met with its side after a fall
/// (the flat base reaches it; the side of something the body only brushes stops the probe at
/// once, within the engines' margins).
fn under_base(normal: Vec3, fell: f32, up: Vec3, margin: f32) -> bool {
    let side = !is_level(normal, up) && !is_overhang(normal, up);
    is_edge(normal, up) || side && fell_to(fell, margin)
}

/// True when a probe straight down fell `fell` (m) before it touched: further than the
/// engines' margins (twice the safe `margin`, m, and the [`SWEEP_SLACK`]), so what it met lies
/// below the body, not at its side where the body already touched it.
fn fell_to(fell: f32, margin: f32) -> bool {
    fell > 2.0 * margin.max(0.0) + SWEEP_SLACK
}

/// True when a flat bottom at `here` (m) floats at the height of the tread of the step it
/// climbed, short of resting on it: it climbed before its bottom was over the tread proper (a
/// slow walk, a high tick rate), and the tread holds it at that height, over the rounding of
/// the step's edge or within the safe margin of the riser's face, until it is under the body.
/// `below` is the probe straight down from `here`: it met the rounding (a tilted contact, or the
/// riser's face right below it when the rim is barely past the face) no more than the
/// [`edge_tolerance`] below the feet, or nothing that close. One more probe, from
/// the [`tread_look`] further toward that contact (or, when it met nothing that close,
/// `climb_look` along `walk`, the body's horizontal velocity, m/s), must meet the tread
/// (walkable ground) at the feet's height, within the engine's margins (a landing found by a
/// sweep down stops up to twice the safe margin above the tread). `climb_look` (m) is how far
/// past its landing the climb looked for the tread (the step forward test, see
/// [`BodyScale::tread_look`](crate::tolerances::BodyScale::tread_look)): over a chamfer deeper
/// than the rounding (15 cm on 30 cm steps), the climb lifted the body to a tread that far
/// ahead, and the tread holds it while it is. When `below` met nothing that close, the look
/// reaches down as far as `below` did (`reach`) and the tread's edge at the feet's height (as
/// [`held`] sees it) counts too: a rounded bottom lifted just past the riser hangs over the
/// edge it stood on and the tread's edge at one stop of the cast, and `below` may name either. The
/// tread must not lie behind the walk: a body held on the edge of a step it is walking down
/// from has that step's tread behind it. `reach` is the flat base's probe length (the max step
/// height, m), which sizes both.
pub fn over_tread<B: KinematicBody + ?Sized>(
    body: &mut B,
    below: &MotionTest,
    here: Vec3,
    walk: Vec3,
    reach: f32,
    climb_look: f32,
) -> bool {
    let up = unit_up(body.up_direction());
    let margin = body.safe_margin().max(0.0);
    let tolerance = edge_tolerance(reach);
    let near = below.contact.filter(|contact| {
        let depth = vertical(here - contact.point, up);
        depth.is_finite() && depth <= tolerance
    });
    let walk = horizontal(walk, up);
    let toward = match near {
        Some(contact) => {
            let depth = vertical(here - contact.point, up);
            // The rounding of the step's edge, or the riser's face within the safe margin of
            // the rim; neither level floor nor an overhang.
            let under = !is_level(contact.normal, up) && !is_overhang(contact.normal, up);
            if !under || depth < -(margin + HELD_TOLERANCE) {
                return false;
            }
            horizontal(-contact.normal, up)
        }
        None => walk,
    };
    let Some(toward) = toward.try_normalize() else {
        return false;
    };
    if !walk.is_finite() || toward.dot(walk) < 0.0 {
        return false;
    }
    // Met nothing close: a rounded bottom lifted just past the riser may hang over the edge
    // it stood on and the tread's edge alike (the probe then names either), and the look
    // reaches as far down as the probe did, to find the tread's edge at the feet's height.
    let (depth, ahead) = match near {
        Some(_) => (tolerance + 2.0 * margin, tread_look(reach)),
        None => (reach.max(tolerance + 2.0 * margin), climb_look),
    };
    let from = here + toward * ahead;
    let look = body.test_move(from, -up * depth);
    let max_angle = body.floor_max_angle();
    let tread = look.contact.is_some_and(|tread| {
        let floor = is_walkable(tread.normal, up, max_angle);
        floor && vertical(tread.point - here, up).abs() <= settled(margin)
    });
    tread || near.is_none() && held(&look, from, up, margin, reach).is_some()
}

/// How far from the feet (m) a tread a body floats over counts as the one it stands on, for a
/// safe `margin` (m): the engine keeps the body a margin clear and its recovery may leave
/// another ([`HELD_TOLERANCE`] more), and the cast that put it there (a climb's landing) may
/// have stopped up to [`SWEEP_SLACK`] short beyond the margin.
fn settled(margin: f32) -> f32 {
    (2.0 * margin + HELD_TOLERANCE).max(margin + SWEEP_SLACK)
}

/// After a move that took the body's feet below `base` (the height, m along up, its feet stood
/// at: the floor or edge under it, or the top of a step it climbed), stands it on an edge
/// still under it: lifted back to `base` (when there is room), it is put with its feet at the
/// height of the edge a probe down finds, when that edge is no more than the [`edge_tolerance`]
/// from `base` and no more than `reach` (m) below it.
///
/// The probe looks down from above `from` (m): where the move's slide left the body. A step
/// down after the slide drops a held body onto the edge's steep side, which pushes it back
/// from where it walked to; a slow walker would lose a quarter of its walk each tick.
///
/// `before` says how to tell a slope's face from an edge (see [`Face`]): `None` when the body
/// stood on level floor, climbed, or hardly moved. A body over a face is not held.
///
/// A body the engine's slide sank into level floor is stood on that floor the same way, where
/// the probe stopped: when its lift began inside that floor (a contact facing up stopped it), or when the
/// probe stopped above where the slide left the body by more than the margins (Godot Physics'
/// slide sank a 6 m character 4.4 mm into the tread its feet came onto from the edge they
/// stood held on).
///
/// Returns the height the feet were raised by (m), or `None` (the body left where the move
/// put it) when there is no such edge: the body walked off it, onto level floor, or onto a
/// lower step.
pub fn stand<B: KinematicBody + ?Sized>(
    body: &mut B,
    from: Vec3,
    base: f32,
    before: Option<Face>,
    reach: f32,
) -> Option<f32> {
    let up = unit_up(body.up_direction());
    if !holds_below(body, base, reach) {
        return None;
    }
    let tolerance = edge_tolerance(reach);
    // Straight up from `from` as far as there is room (a body that walked down off a step may
    // touch that step's edge behind it). The raise's sideways travel, the engine's push out of
    // the safe margin of an edge the body is close to, is dropped: the hold keeps the body
    // where its walk took it. A body that began inside what is below it is lifted the whole
    // way ([`raised`]): the room above it is then the probe's to find.
    let rise = (base - vertical(from, up)).max(0.0) + tolerance;
    let raise = body.test_move(from, up * rise);
    let inside = began_inside(&raise, up);
    let lifted = from + up * raised(&raise, rise, up);
    // Started above the base (the slide left the body on the step it walked down from), the
    // probe reaches as far below the base as from it.
    let above = (vertical(from, up) - base).max(0.0);
    let raised = Raised {
        lifted,
        inside,
        above,
    };
    stand_over(body, raised, base, before, reach)
}

/// Where the raise of [`stand`] took the body, or a place above it known to be free.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Raised {
    /// Where the probe down starts, m: the body's feet lifted clear of what is below.
    pub lifted: Vec3,
    /// The raise began inside what is below the body: a contact facing up stopped it.
    pub inside: bool,
    /// How far above `base` the move began, m: the probe reaches as far below the base.
    pub above: f32,
}

/// True when feet at the body's place are below `base` (m along up) by more than
/// [`MIN_HOLD`] and no more than `reach` (m): a hold may lift them back.
fn holds_below<B: KinematicBody + ?Sized>(body: &B, base: f32, reach: f32) -> bool {
    let up = unit_up(body.up_direction());
    let below = base - vertical(body.position(), up);
    below.is_finite() && below > MIN_HOLD && below <= reach
}

/// [`stand`] from where its raise took the body (`raised`), or from a place above the body
/// known to be free: one probe down, and the body put held on the edge it finds. A slide
/// across a tread that the engine's floor snap brought down onto the rounding of the next
/// edge came straight down from the lift's height, which is then that place (no raise).
pub fn stand_over<B: KinematicBody + ?Sized>(
    body: &mut B,
    raised: Raised,
    base: f32,
    before: Option<Face>,
    reach: f32,
) -> Option<f32> {
    let up = unit_up(body.up_direction());
    if !holds_below(body, base, reach) {
        return None;
    }
    let here = body.position();
    let tolerance = edge_tolerance(reach);
    let Raised {
        lifted,
        inside,
        above,
    } = raised;
    let probe = body.test_move(
        lifted,
        -up * (reach + above + 2.0 * body.safe_margin().max(0.0)),
    );
    let contact = probe.contact?;
    let high = vertical(lifted, up);
    // A rounded bottom in the nook between the edge it stood held on and the next one down
    // touches both where the probe stopped, and the probe names either: it stays held on the
    // edge it stood on.
    if let Some(Face::Was(edge)) = before
        && vertical(contact.point, up) < base - tolerance
        && touches(body, lifted + probe.travel, &edge)
    {
        return put_held(body, lifted, high - base, here);
    }
    let top = vertical(contact.point, up);
    let margin = body.safe_margin();
    let edge = under_base(contact.normal, -vertical(probe.travel, up), up, margin);
    // Level floor the engine's slide sank the body into stands it as an edge would: on it, at
    // the height it stood.
    let stop = vertical(lifted + probe.travel - here, up);
    let sunk = sunk_into_level(&contact, inside, stop, margin, up);
    // A rounded bottom that came down from the edge it stood held on, still reaching back to
    // it: the probe meets that edge before the lower one, and the body stays held on it.
    if let Some(Face::LookFrom { stood }) = before
        && edge
        && top - base > tolerance
        && (top - stood).abs() <= tolerance
        && top <= high
        && vertical(probe.travel, up) <= top - high
    {
        return put_held(body, lifted, high - top, here);
    }
    if let Some(Face::Was(held_on)) = before
        && top > base + HELD_TOLERANCE
        && top - base <= reach
        && up_one_face(&held_on, &contact, margin, body.floor_max_angle(), up)
    {
        return rise_onto(body, lifted, top, here);
    }
    if !(edge || sunk) || (top - base).abs() > tolerance || top <= vertical(here, up) || top > high
    {
        return None;
    }
    if sunk {
        // On it where the probe stopped, clear of it by the engine's margin.
        return put_held(body, lifted, -vertical(probe.travel, up), here);
    }
    let face = match before {
        Some(Face::Was(edge)) => same_normal(edge.normal, contact.normal),
        Some(Face::Look | Face::LookFrom { .. }) => looks_like_face(body, lifted, &contact, reach),
        None => false,
    };
    if face || vertical(probe.travel, up) > top - high {
        // A face, or the probe did not fall as far as the held place: it may not be free.
        return None;
    }
    put_held(body, lifted, high - top, here)
}

/// True when `contact`, met by a probe down, is further up one steep face than the contact the
/// body stood held on (`held_on`): one of the two lies on the other's plane (within the
/// engines' margins, `margin` m), the way from one to the other is too steep for the climb to
/// land on as floor (steeper than `max_angle`, rad, less the [`FLOOR_ANGLE_MARGIN`]: a 45
/// degree chamfer at the default floor angle), and `contact` is no steeper than `held_on`.
/// Held on a chamfer's foot, a rounded bottom walking on meets the chamfer's face or its top
/// corner: a flat bottom stands on what is under it, not lower. A ramp walked onto from an
/// edge is floor, walked as a slope.
fn up_one_face(
    held_on: &Contact,
    contact: &Contact,
    margin: f32,
    max_angle: f32,
    up: Vec3,
) -> bool {
    let near = 2.0 * margin.max(0.0) + HELD_TOLERANCE;
    let on_plane =
        |plane: &Contact, point: Vec3| plane.normal.dot(point - plane.point).abs() <= near;
    let one_face = on_plane(held_on, contact.point) || on_plane(contact, held_on.point);
    let way = contact.point - held_on.point;
    let slope = vertical(way, up).atan2(horizontal(way, up).length());
    let steep = slope > max_angle - FLOOR_ANGLE_MARGIN + FLOOR_ANGLE_TOLERANCE;
    let no_steeper = contact.normal.dot(up) > held_on.normal.dot(up)
        || same_normal(contact.normal, held_on.normal);
    is_edge(held_on.normal, up) && one_face && steep && no_steeper
}

/// Holds the body with its feet at `top` (m along up), from `lifted` (m): up there when the way
/// up is free (one motion test), or down where the probe from `lifted` fell past. Returns how
/// far that is above `here` (m), `None` when the way up is not free.
fn rise_onto<B: KinematicBody + ?Sized>(
    body: &mut B,
    lifted: Vec3,
    top: f32,
    here: Vec3,
) -> Option<f32> {
    let up = unit_up(body.up_direction());
    let rise = top - vertical(lifted, up);
    if rise > 0.0 {
        // Above where the raise of [`stand`] went: up the rest of the way, if it is free.
        let raise = body.test_move(lifted, up * rise);
        if raise.contact.is_some() {
            return None;
        }
    }
    put_held(body, lifted, -rise, here)
}

/// True when `contact`, met by the probe of [`stand`], is level floor the engine's slide sank
/// the body into: the lift began `inside` it, or the probe stopped `stop` (m) above where the
/// slide left the body, more than the safe `margin` (m) and [`HELD_TOLERANCE`]. A flat bottom
/// resting on a slope within a degree of level touches it with its rim above its feet, but
/// the probe stops where it is.
fn sunk_into_level(contact: &Contact, inside: bool, stop: f32, margin: f32, up: Vec3) -> bool {
    is_level(contact.normal, up) && (inside || stop > margin.max(0.0) + HELD_TOLERANCE)
}

/// How far (m along up) the raise of [`stand`], a motion test `rise` (m) straight up, lifts
/// the body: as far as it travelled up, or the whole rise when it [`began_inside`] what is
/// below the body.
pub(crate) fn raised(raise: &MotionTest, rise: f32, up: Vec3) -> f32 {
    if began_inside(raise, up) {
        rise
    } else {
        vertical(raise.travel, up)
    }
}

/// True when the raise of [`stand`], a motion test straight up, began inside what is below
/// the body: what stopped it lies below (its contact faces up), and a motion up cannot meet
/// that from a free place. Godot Physics' floor snap in the slide sinks a rounded bottom into
/// the rounding of the edge it walks over (a 0.13 m capsule 8 mm deep), and its slide may end
/// a body pushing a crate well inside level floor; its motion test then reports the overlap
/// as a collision and makes little or no motion. The raise then counts as made whole: the
/// probe down from its top finds what is below as from a free place.
pub(crate) fn began_inside(raise: &MotionTest, up: Vec3) -> bool {
    raise
        .contact
        .is_some_and(|contact| contact.normal.dot(up) > 0.0)
}

/// Puts the body `down` (m) below `lifted` (m), where a probe down from there fell past: held
/// there. Returns how far that is above `here` (m), `None` when it is not a usable place.
fn put_held<B: KinematicBody + ?Sized>(
    body: &mut B,
    lifted: Vec3,
    down: f32,
    here: Vec3,
) -> Option<f32> {
    let up = unit_up(body.up_direction());
    let held = lifted - up * down;
    if !held.is_finite() {
        return None;
    }
    body.set_position(held);
    Some(vertical(held - here, up))
}

/// True when a rounded bottom with its feet at `feet` (m) reaches the point of `edge` within
/// the engine's margins: a sphere of the body's [`shape_radius`](KinematicBody::shape_radius)
/// sitting on the feet (the bottom of a capsule; inside a cylinder's or a box's).
fn touches<B: KinematicBody + ?Sized>(body: &B, feet: Vec3, edge: &Contact) -> bool {
    let up = unit_up(body.up_direction());
    let radius = body.shape_radius().max(0.0);
    let reach = radius + 2.0 * body.safe_margin().max(0.0) + HELD_TOLERANCE;
    (feet + up * radius).distance(edge.point) <= reach
}

/// After a climb that lifted the body clear of a step's top and the slide that carried it on,
/// puts it down held on that step's edge: a probe straight down from where it is meets the
/// edge (a tilted contact) no more than the [`edge_tolerance`] from `base` (the height, m along up,
/// of the step's top where the climb found it), and the feet are put at the contact's height.
/// `reach` is the hold's probe length (m). One probe, where the step down and the hold after it
/// take up to five. A body the slide left below the step's top (a lift that went only part of
/// the way up a tilted edge, the slide resting it on the edge's rounding) is raised onto the
/// edge as [`stand`] raises a held body. See [`SetDown`] for what it says.
pub fn set_down<B: KinematicBody + ?Sized>(
    body: &mut B,
    base: f32,
    walk: Vec3,
    reach: f32,
) -> SetDown {
    let up = unit_up(body.up_direction());
    let here = body.position();
    let high = vertical(here, up);
    // A round bottom meets the edge lower than its feet: the probe reaches as far as the hold's.
    let drop = (high - base).max(0.0) + reach + 2.0 * body.safe_margin().max(0.0);
    if !drop.is_finite() {
        return SetDown::NoEdge;
    }
    // The slide left the body below the step's top (a partial lift up a tilted edge, resting
    // on its rounding): it is raised onto the edge as a hold raises a body back to its base.
    if high < base - edge_tolerance(reach) {
        return match stand(body, here, base, None, reach) {
            Some(_) => SetDown::Held,
            None => SetDown::NoEdge,
        };
    }
    let mut probe = body.test_move(here, -up * drop);
    let feet = here - up * (high - base);
    if let Some(again) = out_of_nook(body, &probe, here, feet, walk, reach) {
        probe = again;
    }
    let Some(contact) = probe.contact else {
        return SetDown::NoEdge;
    };
    let top = vertical(contact.point, up);
    let edge = under_base(
        contact.normal,
        -vertical(probe.travel, up),
        up,
        body.safe_margin(),
    );
    if !edge || (top - base).abs() > edge_tolerance(reach) {
        return SetDown::NoEdge;
    }
    if top > high {
        // A round bottom the slide rested on the edge's rounding, its feet below the edge's
        // top: raised onto the edge as a hold raises a body back to its base.
        return match stand(body, here, base, None, reach) {
            Some(_) => SetDown::Held,
            None => SetDown::NoEdge,
        };
    }
    // The probe fell further than the feet go before it touched: the held place is free, and
    // the body floats above the edge there. A bottom that falls no further is a flat one
    // resting on the edge's rounding with its rim, at its feet.
    let held = here - up * (high - top);
    let margins = 2.0 * body.safe_margin().max(0.0) + HELD_TOLERANCE;
    if !held.is_finite() || vertical(probe.travel, up) > top - high - margins {
        // Put down where the probe stopped, as a step down straight down would.
        let rest = here + up * vertical(probe.travel, up);
        if rest.is_finite() {
            body.set_position(rest);
        }
        return SetDown::Resting;
    }
    body.set_position(held);
    SetDown::Held
}

/// After a climb that left a flat bottom resting on the rounding of the step's edge
/// ([`SetDown::Resting`]), gives the engine the floor state of the floor the body climbed from
/// (at `start`, m): the state a step down onto such an edge leaves, which the next tick's slide
/// starts from. One floor snap there; the body is put back where it rests. False when the
/// engine finds no floor at `start` (the climb began on an edge): the step down then decides.
pub fn rest_on_edge<B: KinematicBody + ?Sized>(body: &mut B, start: Vec3) -> bool {
    let rest = body.position();
    body.set_position(start);
    body.apply_floor_snap();
    let floor = body.is_on_floor();
    body.set_position(rest);
    floor
}

/// What [`set_down`] did after a climb.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum SetDown {
    /// The body stands held on the step's edge, its feet at the edge's height.
    Held,
    /// A flat bottom resting on the rounding of the step's edge with its rim: put down where
    /// the probe met the rounding, for the step down to stand it there; no hold finds an edge
    /// below its feet.
    Resting,
    /// No edge of the step under the body (a level tread, or nothing within reach): left where
    /// it is for the step down and the hold.
    NoEdge,
}

/// Judges a tick that took a body off the edge (or the level floor) it stood on at `start` (m),
/// when it came down more than the [`edge_tolerance`]: the tick's whole vertical travel is the
/// step, and the body may now stand held on the next step's edge; `None` when it leaves the
/// judgement to the step down.
///
/// - On level floor: the drop is the step.
/// - On a gently tilted contact (a capsule wider than the tread comes down on the next step's
///   edge): held on that edge, its feet at the edge's height.
/// - A little above level floor (resting against the side of the edge it walked off, or on the
///   rounding of the tread's edge): put down on that floor in the same tick, so that the whole
///   riser is one step.
/// - On a slope steeper than [`CREST_SLOPE`]: a held body let go over a slope's crest comes
///   down on the slope's face a little lower than it was held: no step. Unless the face is a
///   chamfer on a step's nosing (`is_chamfer`): a round bottom comes down onto a 45 degree
///   chamfer's face 14 cm lower in one tick, which is the riser's step.
///
/// `reach` is the flat base's probe length (m). `stood` says the body stood held on an edge or
/// on level floor at `start`; a body that was rolling over an edge (or walking a slope) is only
/// put down on level floor just below it, and otherwise left to the step down's own judgement
/// (`None`). `hold`: look for the next step's edge to hold the body on (false when the caller
/// just looked for it, and found none).
pub fn come_down<B: KinematicBody + ?Sized>(
    body: &mut B,
    start: Vec3,
    reach: f32,
    stood: bool,
    hold: bool,
) -> Option<CameDown> {
    let up = unit_up(body.up_direction());
    let here = body.position();
    let drop = vertical(here - start, up);
    let tolerance = edge_tolerance(reach);
    if !drop.is_finite() || drop >= -tolerance {
        return None;
    }
    // Level floor right under it (or within a little more than the engine's margins): the drop
    // is the step, the body put down on that floor in this tick. The engine's floor state is
    // not asked: after a step down onto an edge it may still tell of the floor its snap found
    // below.
    let margin = body.safe_margin().max(0.0);
    let below = body.test_move(here, -up * (tolerance + 2.0 * margin));
    let landed = here + below.travel;
    let level = below
        .contact
        .is_some_and(|contact| is_level(contact.normal, up));
    if level && landed.is_finite() {
        let above = -vertical(below.travel, up);
        if above > 2.0 * margin {
            body.set_position(landed);
            body.apply_floor_snap();
        } else if !stood {
            return None;
        }
        return Some(CameDown::step(body, start, false));
    }
    if !stood {
        return None;
    }
    let floor = body.is_on_floor().then(|| body.floor_normal());
    let cosine = floor.map(|normal| normal.dot(up));
    let gentle = cosine.is_none_or(|c| c >= CREST_SLOPE.cos());
    if hold && cosine.is_some() && gentle {
        let next = vertical(here, up) + tolerance;
        if stand(body, here, next, None, reach).is_some() {
            return Some(CameDown::step(body, start, true));
        }
    }
    let chamfer = !gentle && floor.is_some_and(|face| is_chamfer(body, start, face, reach));
    Some(CameDown {
        stepped: (gentle || chamfer).then_some(drop),
        held: false,
    })
}

/// True when the steep face (unit normal `face`) that a body which came down from `start` (m)
/// rests on is a chamfer on a step's nosing, not a slope's crest: the body came down more than
/// its walk down that face explains (beyond the [`edge_tolerance`] of the flat base's `reach`,
/// m), and one more look, down the face the way the body walks, meets gentler walkable
/// ground (the tread below, or the next nosing) before the body is `reach` below `start`.
fn is_chamfer<B: KinematicBody + ?Sized>(
    body: &mut B,
    start: Vec3,
    face: Vec3,
    reach: f32,
) -> bool {
    let up = unit_up(body.up_direction());
    let here = body.position();
    let walk = horizontal(here - start, up);
    let drop = -vertical(here - start, up);
    let cosine = face.dot(up);
    let Some(down) = (-up - face * (-up).dot(face)).try_normalize() else {
        return false;
    };
    let sine = -down.dot(up);
    let left = reach - drop;
    let walked_down = walk.length() * (1.0 - cosine * cosine).max(0.0).sqrt() / cosine;
    if cosine <= 0.0 || sine <= 0.0 || left <= 0.0 || drop <= walked_down + edge_tolerance(reach) {
        return false;
    }
    if horizontal(down, up).dot(walk) <= 0.0 {
        return false;
    }
    let look = body.test_move(here, down * (left / sine));
    let max_angle = body.floor_max_angle();
    look.contact.is_some_and(|ground| {
        let gentler = ground.normal.dot(up) > cosine && !same_normal(ground.normal, face);
        gentler && is_walkable(ground.normal, up, max_angle)
    })
}

/// What [`come_down`] judged of a drop.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct CameDown {
    /// The step (m, negative), `None` for a slope's crest.
    pub stepped: Option<f32>,
    /// The body stands held on the next step's edge.
    pub held: bool,
}

impl CameDown {
    /// The whole drop of the body since `start` (m) as the step.
    fn step<B: KinematicBody + ?Sized>(body: &B, start: Vec3, held: bool) -> Self {
        let up = unit_up(body.up_direction());
        Self {
            stepped: Some(vertical(body.position() - start, up)),
            held,
        }
    }
}

/// How [`stand`] tells a slope's face from an edge under the body.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Face {
    /// The contact with the edge the body stood held over when the move began: meeting a
    /// contact with the same normal after walking, the body is on a face; still touching that
    /// edge where the probe met a lower one, it is held on it.
    Was(Contact),
    /// One more probe, a few millimetres toward the contact: a face gives the same normal
    /// there, an edge a turned one.
    Look,
    /// As [`Face::Look`], for the lower edge a step down came down on from the edge the body
    /// stood held on, its feet at the height `stood` (m along up): a probe that meets that
    /// edge first (a rounded bottom still reaching back to it touches it before the lower
    /// one) keeps the body held there.
    LookFrom {
        /// The height the body stood held at, m along up.
        stood: f32,
    },
}

/// True when the probe down from `lifted` (m) that met `contact` meets a contact with the same
/// normal again from [`FACE_SHIFT`] closer to it: the body is over a slope's face, not an edge.
/// `reach` is the probe's length below `lifted` (m, besides the engine's margins).
pub(crate) fn looks_like_face<B: KinematicBody + ?Sized>(
    body: &mut B,
    lifted: Vec3,
    contact: &Contact,
    reach: f32,
) -> bool {
    let up = unit_up(body.up_direction());
    let Some(toward) = horizontal(-contact.normal, up).try_normalize() else {
        return false;
    };
    let from = lifted + toward * FACE_SHIFT;
    let probe = body.test_move(from, -up * (reach + 2.0 * body.safe_margin().max(0.0)));
    probe
        .contact
        .is_some_and(|again| same_normal(contact.normal, again.normal))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn probe(point: Vec3, normal: Vec3) -> MotionTest {
        MotionTest {
            travel: Vec3::new(0.0, -0.05, 0.0),
            remainder: Vec3::ZERO,
            contact: Some(Contact {
                normal: normal.normalize(),
                point,
                depth: 0.0,
                movable: false,
            }),
        }
    }

    #[test]
    fn a_contact_further_up_the_chamfer_held_on_is_told_from_another_surface() {
        let contact = |point: Vec3, normal: Vec3| Contact {
            normal: normal.normalize(),
            point,
            depth: 0.0,
            movable: false,
        };
        let margin = 0.001;
        // A 5 cm chamfer at 45 degrees from (y 0.15, z -1.0) to (y 0.2, z -1.05).
        let face = Vec3::new(0.0, 1.0, 1.0);
        let foot = contact(Vec3::new(0.0, 0.15, -1.0), Vec3::new(0.0, 0.67, 0.74));
        let on_face = contact(Vec3::new(0.0, 0.188, -1.038), face);
        let top = contact(Vec3::new(0.0, 0.2, -1.05), Vec3::new(0.0, 0.87, 0.49));
        let floor = std::f32::consts::FRAC_PI_4;
        let up = |from: &Contact, to: &Contact| up_one_face(from, to, margin, floor, Vec3::Y);
        // Held on the foot, then on the face: the face rises from the foot, and the top
        // corner is on the face's plane.
        assert!(up(&foot, &on_face));
        assert!(up(&on_face, &top));
        // Further up the same face, but back down from the top.
        let lower_on_face = contact(Vec3::new(0.0, 0.17, -1.02), face);
        assert!(up(&lower_on_face, &on_face));
        assert!(!up(&top, &on_face));
        // A 30 degree ramp walked onto from an edge at its foot is floor: no.
        let ramp = Vec3::new(0.0, 0.866, 0.5);
        let ramp_foot = contact(Vec3::ZERO, Vec3::new(0.0, 0.6, 0.8));
        let on_ramp = contact(Vec3::new(0.0, 0.05, -0.0866), ramp);
        assert!(!up(&ramp_foot, &on_ramp));
        // Two corners of a 2 cm chamfer, the way between them at 45 degrees.
        let foot_2cm = contact(Vec3::new(0.0, 0.38, -1.3), Vec3::new(0.0, 0.629, 0.777));
        let top_2cm = contact(Vec3::new(0.0, 0.4, -1.32), Vec3::new(0.0, 0.75, 0.66));
        assert!(up(&foot_2cm, &top_2cm));
        // The next step's chamfer, 0.2 m higher: not on this face's plane.
        let next = contact(Vec3::new(0.0, 0.4, -1.35), Vec3::new(0.0, 0.87, 0.49));
        assert!(!up(&on_face, &next));
        // Held on level floor: no face to go up.
        let level = contact(Vec3::new(0.0, 0.0, -0.9), Vec3::Y);
        assert!(!up(&level, &top));
    }

    #[test]
    fn a_body_is_held_over_a_tilted_contact_at_its_feet() {
        let feet = Vec3::new(0.0, 1.5, 0.0);
        let edge = Vec3::new(0.0, 1.5, -0.2);
        let tilted = Vec3::new(0.0, 0.8, 0.6);
        let margin = 0.001;
        let reach = 0.4;
        let held = |point, normal| held(&probe(point, normal), feet, Vec3::Y, margin, reach);
        // The edge at the feet's height (within the margin): held, with the edge's normal.
        assert_eq!(held(edge, tilted), Some(tilted.normalize()));
        let just_below = edge - Vec3::Y * (margin + 0.4 * HELD_TOLERANCE);
        assert!(held(just_below, tilted).is_some());
        // Feet left a little down the rounding of the edge's top (half the edge tolerance, 1 cm
        // at a 0.4 m step): still held.
        assert!(held(edge + Vec3::Y * 0.009, tilted).is_some());
        // Level floor under the feet: standing, not held.
        assert_eq!(held(edge, Vec3::Y), None);
        // A body rolling over the edge, or sunk below it: its contact well above its feet; or
        // an edge well below them.
        assert_eq!(held(edge + Vec3::Y * 0.011, tilted), None);
        assert_eq!(held(edge - Vec3::Y * 0.003, tilted), None);
        // The side of something the probe met at once, or nothing at all.
        let side = Vec3::new(0.0, 0.01, 1.0).normalize();
        let brushed = MotionTest {
            travel: Vec3::ZERO,
            ..probe(edge, side)
        };
        assert_eq!(super::held(&brushed, feet, Vec3::Y, margin, reach), None);
        // A rounded bottom carried barely past a riser as high as its radius: the probe falls
        // until its side meets the riser's top, at the feet's height. Held.
        assert_eq!(held(edge, side), Some(side));
        let free = MotionTest {
            contact: None,
            ..probe(edge, tilted)
        };
        assert_eq!(super::held(&free, feet, Vec3::Y, margin, reach), None);
    }

    #[test]
    fn a_raise_from_inside_an_edge_counts_as_the_whole_rise() {
        let rise = 0.025;
        let edge = Vec3::new(0.0, 0.5, -0.73);
        // Godot Physics, the body 8 mm inside an edge's rounding: its push out of the overlap
        // (up and away along the edge's normal) and no motion, reported as a collision.
        let tilted = Vec3::new(0.0, 0.925, 0.38);
        let stuck = MotionTest {
            travel: tilted.normalize() * 0.0077,
            ..probe(edge, tilted)
        };
        assert_eq!(raised(&stuck, rise, Vec3::Y), rise);
        // A ceiling met on the way up: only as far as the body got.
        let ceiling = MotionTest {
            travel: Vec3::Y * 0.01,
            ..probe(edge + Vec3::Y * 2.0, -Vec3::Y)
        };
        assert_eq!(raised(&ceiling, rise, Vec3::Y), 0.01);
        // Nothing met: the whole way, as travelled.
        let free = MotionTest {
            travel: Vec3::Y * rise,
            contact: None,
            ..probe(edge, tilted)
        };
        assert_eq!(raised(&free, rise, Vec3::Y), rise);
    }
}
