//! The tick, read top to bottom: its stages in the order they run.
//!
//! [`run`] sanitizes the input and splits the delta into sub-steps. Each sub-step
//! ([`substep`]):
//! 1. **sense** what the body stands on ([`crate::footing::sense`], or the floating shape's
//!    ground with [`GroundFollow::Smooth`](crate::GroundFollow::Smooth));
//! 2. **intent**: the velocity the input asks for ([`Intent::resolve`]: speed curves, gravity,
//!    jump);
//! 3. the **move** ([`move_once`]): an unsure footing settled, the move **planned**
//!    ([`Plan`]; after a step down, less the riser's push, [`Landing::pay`]), the engine's
//!    **slide** with the **climb** onto a step in its way ([`slide::slide`]), the body
//!    **settled** on what supports it ([`settle::settle`]), and the **report** built once from
//!    those values ([`report_of`]).
//!
//! After each sub-step the controller **pushes** the bodies the engine simulates that the move
//! walked into ([`crate::push::push_touched`]). Before the first, a body the last tick left
//! against another character is moved out of half of any overlap with it (the other takes the
//! other half; [`crate::push::separate_from_characters`]).

use glam::Vec3;

use crate::body::KinematicBody;
use crate::climb::{Climb, Lift, climb};
use crate::flat_base;
use crate::floor::{horizontal, up_of, vertical};
use crate::footing::{self, Footing};
use crate::intent::{self, Controls, Intent};
use crate::jump::JumpState;
use crate::landing::Landing;
use crate::plan::Plan;
use crate::report::TickReport;
use crate::sanitize::{self, Sanitized, split_delta, usable_position};
use crate::settings::{ControllerSettings, StairSettings};
use crate::settle::{self, Settled};
use crate::slide::{self, Slid};
use crate::smooth::{self, Floating};
use crate::stairs::Stance;
use crate::surface::is_level;
use crate::tolerances::{BodyScale, MIN_STEP_RISE, edge_tolerance};

/// What a tick walks on, for its split into sub-steps by the length of its move (see [`run`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Ground {
    /// A floating shape: no stairs to follow, and no split by length.
    Floats,
    /// Walking: split by length unless the engine has the body on level floor.
    Walks,
    /// Walking from a step's edge the last move ended on ([`Landing::on_edge`]): split by
    /// length whatever floor the engine tells of. A step down's floor snap may have met the
    /// lower tread before the flat base put the body back on the edge above it, and the engine
    /// then tells of that level floor: a 0.3 m capsule walking down 0.15 m risers at 21 Hz and
    /// 5.8 m/s (0.28 m a tick) went unsplit from edge to edge and took three risers as one
    /// step of 0.24 m and two drops that were none.
    OnEdge,
}

/// Sanitizes `velocity` (m/s), `dt` (s) and the body's position (noting what was replaced in
/// `sanitized`), then runs `step` once per sub-step with the velocity the last one left, and
/// sums up their reports. Nothing moves when `dt` or the position is unusable.
/// A delta longer than [`MAX_SUBSTEP`](crate::sanitize::MAX_SUBSTEP) is split into equal
/// sub-steps, and so is one whose move across the ground (at `top`, m/s: the fastest the
/// input may ask for on the floor, or the velocity when faster) is longer than
/// [`SUBSTEP_RADII`](crate::tolerances::SUBSTEP_RADII) of the shape's radius (see
/// [`BodyScale::substeps_for`]), unless the body stands on level floor or floats (`ground`):
/// a low tick rate with a fast walk crosses a staircase in moves no longer than those of a
/// usual rate, and walks flat ground at the cost of one move a tick. Each sub-step leaves the
/// engine's state (floor, wall, slide collisions) of its own move; the last one's is the tick's.
pub(crate) fn run<B: KinematicBody + ?Sized>(
    body: &mut B,
    velocity: Vec3,
    top: f32,
    ground: Ground,
    dt: f32,
    mut sanitized: Sanitized,
    mut step: impl FnMut(&mut B, Vec3, f32) -> TickReport,
) -> TickReport {
    let mut velocity = sanitize::velocity(velocity, &mut sanitized);
    let on_floor = body.is_on_floor();
    let mut report = TickReport {
        velocity,
        was_on_floor: on_floor,
        on_floor,
        ..TickReport::default()
    };
    // On level floor there is no edge to hold or step down from before the next tick looks
    // again: the move is not split by its length.
    let up = up_of(body);
    let level = on_floor && is_level(body.floor_normal(), up);
    let speed = match ground {
        Ground::Floats => 0.0,
        Ground::Walks if level => 0.0,
        Ground::Walks | Ground::OnEdge => horizontal(velocity, up).length().max(top),
    };
    let split = split_delta(dt, &mut sanitized)
        .map(|split| split_motion(split, speed, BodyScale::of(body)));
    if !usable_position(body.position()) {
        sanitized.position = true;
    }
    report.sanitized = sanitized;
    let Some((substeps, step_dt)) = split.filter(|_| !sanitized.position) else {
        return report;
    };
    crate::push::separate_from_characters(body, crate::push::BEFORE_MOVE_SHARE);
    let start = body.position();
    for substep in 0..substeps {
        let part = step(body, velocity, step_dt);
        if substep == 0 {
            report.was_on_floor = part.was_on_floor;
        }
        velocity = part.velocity;
        report.absorb(&part);
    }
    let moved = body.position() - start - report.separated;
    let real_velocity = moved / (step_dt * substeps as f32);
    if real_velocity.is_finite() {
        report.real_velocity = real_velocity;
    }
    report
}

/// `split` (sub-steps, and the length of each, s) split further when a sub-step at `speed`
/// (m/s) would move the body further across the ground than `scale` allows.
fn split_motion((substeps, step_dt): (u32, f32), speed: f32, scale: BodyScale) -> (u32, f32) {
    let total = step_dt * substeps as f32;
    let needed = scale.substeps_for(speed * total);
    if needed > substeps {
        (needed, total / needed as f32)
    } else {
        (substeps, step_dt)
    }
}

/// One sub-step of a tick driven by `controls`: sense, intent, move. `jumps` remembers the
/// jump between sub-steps and ticks, `landing` what a move that came down left to the next.
pub(crate) fn substep<B: KinematicBody + ?Sized>(
    settings: &ControllerSettings,
    body: &mut B,
    controls: Controls,
    jumps: &mut JumpState,
    landing: &mut Landing,
    velocity: Vec3,
    dt: f32,
) -> TickReport {
    let up = up_of(body);
    // 1. Sense.
    let floating = smooth::ground_under(body, &settings.stairs, velocity);
    let footing = match floating {
        Floating::Yes {
            ground: Some(_), ..
        } => Footing::Floor,
        Floating::Yes { ground: None, .. } => Footing::Air,
        Floating::No => footing::sense(body, velocity, &settings.stairs),
    };
    // 2. Intent.
    let state = intent::Body {
        velocity,
        up,
        supported: footing.supported(),
        on_wall: body.is_on_wall(),
    };
    let intent = Intent::resolve(settings, controls, jumps, state, dt);
    // 3. Move.
    let mut report = match floating {
        // A jump leaves the ground: no probe catches it.
        Floating::Yes { ground, speed } => {
            let ground = ground.filter(|_| intent.rise <= 0.0);
            *landing = Landing::default();
            let velocity = intent.velocity(up);
            smooth::move_floating(body, &settings.stairs, velocity, dt, ground, speed)
        }
        Floating::No => {
            let velocity = intent.velocity(up);
            move_once(settings, body, velocity, intent.aim(), dt, footing, landing)
        }
    };
    jumps.end(report.on_floor, dt);
    if body.is_on_wall() {
        report.velocity = intent.along_wall_after(report.velocity, up);
    }
    report.jumped = intent.jumped;
    report
}

/// One move with the stair sweeps of a body standing on `footing` with `velocity` (m/s),
/// steered along `aim` (the input's horizontal unit direction, or zero), over `dt` (s): the engine's slide, a climb when a step stopped it, the settle onto what supports
/// the body, and the report. Every move ends the engine's state with a slide (see
/// [`slide::slide`]). A body resting on a stair's edge ([`Footing::Edge`]) moves as on floor,
/// without pushing down into the edge (the engine would slide it off ahead of its motion).
/// A move after one that came down (a step down of any height, or a drop over an edge) first
/// pays the push out of the margin of the riser behind the body, or of the rounding under it,
/// out of its walk (`landing`: what the last move left to this one, and this one to the next;
/// see [`Landing::pay`]).
pub(crate) fn move_once<B: KinematicBody + ?Sized>(
    settings: &ControllerSettings,
    body: &mut B,
    velocity: Vec3,
    aim: Vec3,
    dt: f32,
    footing: Footing,
    landing: &mut Landing,
) -> TickReport {
    let stairs = &settings.stairs;
    let start = body.position();
    let was_supported = footing.supported();
    let unsure = settle_unsure(body, stairs, footing, velocity, aim, dt);
    let keep_speed = settings.movement.constant_horizontal_speed;
    let plan = Plan::new(
        body,
        start,
        unsure.footing,
        velocity,
        dt,
        keep_speed,
        unsure.probed,
    )
    .aimed(aim);
    let (paying, paid) = match unsure.lift {
        None => landing.pay(body, &plan),
        Some(_) => (plan, Vec3::ZERO),
    };
    let slid = slide::slide(body, stairs, &paying, unsure.lift);
    let slid = Slid {
        run: slid.run + paid,
        ..slid
    };
    let settled = settle::settle(body, stairs, &plan, &slid);
    let report = report_of(body, &plan, &slid, &settled);
    let moved = body.position() - start;
    *landing = Landing::after(
        &report,
        moved,
        plan.up,
        body.floor_max_angle(),
        settled.on_edge,
    );
    TickReport {
        was_on_floor: was_supported,
        ..report
    }
}

/// An unsure footing, settled (see [`settle_unsure`]).
struct Settling {
    /// The footing the move plans with.
    footing: Footing,
    /// The climb the probe for a riser made, when it found one.
    lift: Option<Lift>,
    /// The probe for a riser ran and found none.
    probed: bool,
}

/// Settles a [`Footing::Unsure`]: the probe for a riser first, as for a held body (when the
/// body is not rising); it climbs a step it finds. When it finds none, one more probe tells a
/// slope's face (floor) from an edge (held). Other footings pass unchanged.
fn settle_unsure<B: KinematicBody + ?Sized>(
    body: &mut B,
    stairs: &StairSettings,
    footing: Footing,
    velocity: Vec3,
    aim: Vec3,
    dt: f32,
) -> Settling {
    let Footing::Unsure { contact, reach } = footing else {
        return Settling {
            footing,
            lift: None,
            probed: false,
        };
    };
    let up = up_of(body);
    let start = body.position();
    let held = Footing::Held(contact);
    let run = horizontal(velocity, up);
    if vertical(velocity, up) <= 0.0
        && let Climb::Lifted(lift) = climb(
            body,
            stairs,
            start,
            run * dt,
            aim,
            Stance::Held {
                edge: Some(contact.point),
            },
            None,
        )
    {
        return Settling {
            footing: held,
            lift: Some(lift),
            probed: false,
        };
    }
    let face = flat_base::looks_like_face(body, start, &contact, reach);
    Settling {
        footing: if face { Footing::Floor } else { held },
        lift: None,
        probed: true,
    }
}

/// The report of a move, built once from its stages' values: the climb's step when it climbed
/// (its whole rise, when more than the engines' noise), otherwise the settle's; the velocity
/// the slide left, or the walk's when the body was put down on what supports it.
fn report_of<B: KinematicBody + ?Sized>(
    body: &B,
    plan: &Plan,
    slid: &Slid,
    settled: &Settled,
) -> TickReport {
    let up = plan.up;
    let (step_up, stepped) = match slid.lift {
        Some(lift) => {
            let rise = vertical(body.position() - plan.start, up);
            // With a flat base a climb that ends a hair above where it began (the step's edge
            // not yet under the body; the next tick climbs it) is no step; nor is the rest of
            // a climb that left a flat bottom on the rounding of the step's edge, below the
            // tread by less than the rounding: it meets the rounding, not a riser. Nor is the
            // top of a lip the slide did not pass.
            let least = match (settled.flat, lift.tilted_obstacle) {
                (None, _) => 0.0,
                (Some(reach), true) => edge_tolerance(reach),
                (Some(_), false) => MIN_STEP_RISE,
            };
            // The lift is a move outside the slide even when the slide ends lower (Godot
            // Physics' floor snap can take the body back down off the step).
            (
                lift.top.max(0.0),
                (rise > least && !lift.lip).then_some(rise),
            )
        }
        None => (settled.raised + slid.raised, settled.stepped),
    };
    // Caught by the step down, the body has not left the floor it walks on: keep the walk's
    // own velocity, without what the engine adds when a slide leaves a moving platform
    // (Godot's `platform_on_leave`), unless a wall changed it.
    let run = if settled.caught && !body.is_on_wall() {
        plan.run
    } else {
        slid.run
    };
    let rise = if settled.caught { 0.0 } else { slid.rise };
    TickReport {
        velocity: run + up * rise,
        step_up,
        step_down: settled.step_down,
        stepped,
        on_floor: body.is_on_floor() || settled.on_edge,
        substeps: 1,
        separated: slid.separated,
        ..TickReport::default()
    }
}
