//! Stage 1 of a move, sense: what the body stands on as the move begins ([`Footing`]).
//!
//! The engine's floor state says most of it. With the flat base (see [`crate::flat_base`]) a
//! body on tilted floor or off the floor may stand held over a stair's edge, and a body the
//! last step down left on an edge rests there though the engine has it off the floor: one
//! probe down tells, made only in those cases.

use glam::Vec3;

use crate::body::{Contact, KinematicBody, MotionTest};
use crate::flat_base;
use crate::floor::{horizontal, up_of, vertical};
use crate::settings::StairSettings;
use crate::surface::{floor_of, is_gentle, is_level, is_walkable, supports, usable_normal};
use crate::tolerances::{BodyScale, EDGE_REST_SPEED, MIN_STEP_RISE, touch_reach};

/// What the body stands on as a move begins.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) enum Footing {
    /// Floor, as the engine says.
    Floor,
    /// The engine's floor, which came without a floor normal, with level floor right under the
    /// feet by the probe: it moves as on level floor. Godot Physics' slide may report the floor
    /// so when it meets a body it pushes along the floor (a crate), and may end the next slide
    /// well inside the floor; the flat base's hold, which stands a body on level floor at the
    /// height it stood, lifts it out.
    LevelFloor,
    /// Held over the edge of a stair with its feet at the edge's height (see
    /// [`crate::flat_base`]); the probe's contact with the edge.
    Held(Contact),
    /// A flat bottom floating at the height of the level tread of the step it climbed, short of
    /// resting on it (see [`crate::flat_base::over_tread`]). It moves as when held, level,
    /// until the tread is under it.
    OverTread,
    /// The edge of a stair it is rolling over, where the last step down left it (see
    /// [`crate::stairs::StepDown::on_edge`]): no floor for the engine, but it supports the body.
    Edge,
    /// On the engine's floor with its side touching the top of a riser ahead: the probe down
    /// met the riser's edge, too steep to stand on, above the feet, along the walk. The probe
    /// for a riser runs before the slide, as for a held body: Godot Physics' slide may sink
    /// the body into that edge without reporting it, and the climb would wait a tick.
    AtRiser,
    /// Nothing: in the air.
    Air,
    /// On the engine's floor with the very normal of the contact under its feet, walking up
    /// into it: held over an edge's rounding, or on a slope's face. The probe for a riser runs
    /// first, as for a held body; one more probe (`reach` long, m) tells only when it finds
    /// none.
    Unsure {
        /// The contact under the feet.
        contact: Contact,
        /// Length of the probe that tells, m (the one [`sense`] made).
        reach: f32,
    },
}

impl Footing {
    /// True when something supports the body: it moves with the ground's curve, may jump, and
    /// the stair sweeps may run.
    pub(crate) fn supported(&self) -> bool {
        *self != Footing::Air
    }

    /// True when the engine has the body on its floor ([`Footing::Floor`],
    /// [`Footing::LevelFloor`] or [`Footing::AtRiser`]).
    pub(crate) fn on_floor(&self) -> bool {
        matches!(
            self,
            Footing::Floor | Footing::LevelFloor | Footing::AtRiser
        )
    }

    /// True when the flat base holds the body level over an edge ([`Footing::Held`] or
    /// [`Footing::OverTread`]): its move is level, and the next riser is near.
    pub(crate) fn held(&self) -> bool {
        matches!(self, Footing::Held(_) | Footing::OverTread)
    }

    /// True when the body is held over the edge of a step it walks off: the edge lies behind
    /// the middle of the body at `start` (m) along the walk `run` (m/s). The next riser up is
    /// then a tread away at least, so a probe for it before the slide finds nothing; a riser the
    /// slide meets is still climbed.
    pub(crate) fn walks_off_edge(&self, start: Vec3, run: Vec3, up: Vec3) -> bool {
        match self {
            Footing::Held(edge) => horizontal(edge.point - start, up).dot(run) < 0.0,
            _ => false,
        }
    }
}

/// Where the body with `velocity` (m/s) stands. A body the engine has off the floor rests on an
/// edge when the last move left it there (it has no vertical speed) and it still touches
/// something below it. With a flat base (`stairs`' [`StairSettings::flat_reach`]), a body on tilted
/// floor or off the floor, not rising, may stand held over an edge (see
/// [`crate::flat_base::held`]). One probe down, made only in those cases; one more when the
/// engine's floor has the very normal of that contact (an edge or a slope's face), unless the
/// body walks up into a gentle one: then it is [`Footing::Unsure`], for the move to tell. On
/// the engine's floor without a floor normal, the probe tells level floor
/// ([`Footing::LevelFloor`]); on the engine's floor, a probe that meets the top of a riser
/// ahead tells [`Footing::AtRiser`].
pub(crate) fn sense<B: KinematicBody + ?Sized>(
    body: &mut B,
    velocity: Vec3,
    stairs: &StairSettings,
) -> Footing {
    let up = up_of(body);
    let flat = stairs.flat_reach();
    let on_floor = body.is_on_floor();
    let fallback = if on_floor {
        Footing::Floor
    } else {
        Footing::Air
    };
    if !velocity.is_finite() {
        return fallback;
    }
    let speed = vertical(velocity, up);
    let level = on_floor && is_level(body.floor_normal(), up);
    let look_edge = !on_floor && speed.abs() <= EDGE_REST_SPEED;
    let look_held = flat.is_some() && !level && (look_edge || on_floor && speed <= EDGE_REST_SPEED);
    if !look_held && !look_edge {
        return fallback;
    }
    let touch = touch_reach(body);
    let reach = flat
        .filter(|_| look_held)
        .map_or(touch, |reach| reach.max(touch));
    let here = body.position();
    let below = body.test_move(here, -up * reach);
    if on_floor && rests_on_level(body, &below, touch) {
        return Footing::LevelFloor;
    }
    let look = BodyScale::of(body).tread_look(stairs.step_forward_test);
    let over =
        |body: &mut B, reach| flat_base::over_tread(body, &below, here, velocity, reach, look);
    if look_held && look_edge && flat.is_some_and(|flat| over(body, flat)) {
        return Footing::OverTread;
    }
    let held = |reach| flat_base::held(&below, here, up, body.safe_margin(), reach);
    if look_held && let Some(contact) = flat.and_then(held).and(below.contact) {
        return held_or_face(body, &below, contact, velocity, reach);
    }
    if look_held
        && let Some(flat) = flat
        && let Some(again) = flat_base::out_of_nook(body, &below, here, here, velocity, flat)
        && let Some(contact) = again.contact
    {
        return Footing::Held(contact);
    }
    if on_floor && at_riser(body, &below, here, velocity, touch) {
        return Footing::AtRiser;
    }
    match below.contact {
        Some(contact)
            if look_edge
                && supports(contact.normal, up)
                && -vertical(below.travel, up) <= touch =>
        {
            Footing::Edge
        }
        _ => fallback,
    }
}

/// True when the probe `below`, straight down from the feet at `here` (m), met the top of a
/// riser ahead along `velocity` (m/s) within `touch` (m): a contact too steep to stand on,
/// higher than the feet by more than a step's least rise.
fn at_riser<B: KinematicBody + ?Sized>(
    body: &B,
    below: &MotionTest,
    here: Vec3,
    velocity: Vec3,
    touch: f32,
) -> bool {
    let up = up_of(body);
    let Some(contact) = below.contact else {
        return false;
    };
    let touching = -vertical(below.travel, up) <= touch;
    let steep = !is_walkable(contact.normal, up, body.floor_max_angle());
    let higher = vertical(contact.point - here, up) > MIN_STEP_RISE;
    let ahead = horizontal(contact.point - here, up).dot(velocity) > 0.0;
    touching && steep && higher && ahead
}

/// True when the engine has `body` on a floor without a usable floor normal and the probe
/// `below`, straight down from its feet, met level floor within `touch` (m) of them.
fn rests_on_level<B: KinematicBody + ?Sized>(body: &B, below: &MotionTest, touch: f32) -> bool {
    let up = up_of(body);
    let resting = -vertical(below.travel, up) <= touch;
    let level = below
        .contact
        .is_some_and(|contact| is_level(contact.normal, up));
    usable_normal(body.floor_normal()).is_none() && resting && level
}

/// A flat bottom on a slope touches it with its rim at the feet's height, and the engine has
/// the body on floor with that contact's normal (or, on Godot Physics, that normal averaged with
/// level contacts: [`floor_of`]). So may a held body whose slide
/// touched the edge; one that floats above it (the probe `below`, `reach` long, fell before it
/// touched) is held: otherwise one more probe tells a slope's face from an edge, unless the
/// body walks up into a gentle contact ([`Footing::Unsure`]).
fn held_or_face<B: KinematicBody + ?Sized>(
    body: &mut B,
    below: &MotionTest,
    held: Contact,
    velocity: Vec3,
    reach: f32,
) -> Footing {
    let normal = held.normal;
    let up = up_of(body);
    let here = body.position();
    let touch = touch_reach(body);
    let resting = -vertical(below.travel, up) <= touch;
    let unsure = body.is_on_floor() && resting && floor_of(body.floor_normal(), normal, up);
    let rising = horizontal(-normal, up).dot(horizontal(velocity, up)) > 0.0;
    if let Some(contact) = below
        .contact
        .filter(|_| unsure && rising && is_gentle(normal, up))
    {
        return Footing::Unsure { contact, reach };
    }
    let face = unsure
        && below
            .contact
            .is_some_and(|contact| flat_base::looks_like_face(body, here, &contact, reach));
    if face {
        Footing::Floor
    } else {
        Footing::Held(held)
    }
}
