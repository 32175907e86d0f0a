//! Step up ([`step_up`]), when the body stands on floor and moves. Queries only: the body is not
//! moved. Its stages:
//! 1. **Probe** the tick's horizontal motion ([`find_obstacle`]). Free: no step, the slide makes
//!    the move. Walkable ground in the way (a ramp, the edge the body rolls over) is slid along
//!    in case a riser follows; a path that ends free or on walkable ground, or an overhang, is
//!    no step: sliding handles it.
//! 2. **Up** from the obstacle by at most the max step height, sliding along ceilings.
//! 3. **Forward** by the motion left, at least the minimum forward step, sliding along walls
//!    ([`look_ahead`]).
//! 4. **Down** by at most the height climbed ([`land`]). The landing must be higher than the
//!    start and walkable. A tilted landing (a rounded shape resting on the step's edge) is moved
//!    ahead onto the tread when a second look a little further ahead finds one (halfway there
//!    when that is already walkable), since the engine's slide stops against such an edge.
//! 5. **Check** the riser between the surface under the body and the landing's contact point
//!    against the max step height ([`riser_fits`]), and that the tread is deep enough: the
//!    body needs the minimum step depth of room ahead ([`deep_enough`]).

use glam::Vec3;

use crate::body::{Contact, KinematicBody, MotionTest};
use crate::floor::{horizontal, slide, unit_up, vertical};
use crate::settings::StairSettings;
use crate::surface::{
    FLOOR_ANGLE_MARGIN, GRAZING_COSINE, Surface, TOWARD_RISER_COSINE, classify, is_level,
    is_walkable, supports, usable_normal,
};
use crate::sweep::{Sweep, iterate_sweep, sweep_while};
use crate::tolerances::{
    BodyScale, MIN_MOTION, MIN_STEP_RISE, NUDGE, graze_clearance, touch_reach,
};

/// How the body stands where a step up's probe starts.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Stance {
    /// On level floor, its bottom on it: the floor under it needs no probe (it is at the body's
    /// origin, its feet), and a level landing is a riser exactly as high as the body rises.
    Level,
    /// Held by the flat base (see [`crate::flat_base`]) over a stair's edge, its feet at the
    /// height of the edge's contact `edge` (m), or floating at the height of the tread it
    /// climbed (no `edge`): as on level floor, and a probe whose motion carries the feet past
    /// the edge (any probe, without one) starts a hair above them ([`graze_clearance`]), so
    /// that it does not graze the tread.
    Held {
        /// The point of the edge's contact, m.
        edge: Option<Vec3>,
    },
    /// Anywhere else: on a slope, on an edge it rolls over, off the floor.
    Other,
}

impl Stance {
    /// The stance of a body standing on level floor when `level`, elsewhere otherwise.
    pub fn on(level: bool) -> Self {
        if level { Stance::Level } else { Stance::Other }
    }

    /// True on level floor or held over an edge: the feet are on what is under them.
    pub fn level(self) -> bool {
        self != Stance::Other
    }
}

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
    /// A landing past what the probe met, above the feet by no more than the engines' recovery
    /// ([`MIN_STEP_RISE`]), after a slide that met something and could not move the body at
    /// all (`met` given, the body still at `from` within the safe margin): the top of a lip
    /// that the engine's slide does not pass (Godot Physics stops a cylinder whose rim rests
    /// half a millimetre down a 45 degree chamfer, the tread right above it). No step: the
    /// climb steps onto it, or the body would stand there for good. Anywhere else such a
    /// landing is the floor the body stands on, and [`Ahead::Blocked`].
    Lip(StepUp),
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

/// Probes `motion` (m, this tick: horizontal, or following the slope of the floor under the
/// body as the move did) from `from` (the body's origin, m) and, if a step blocks it, finds the
/// landing on top of the step. Does not move the body. Past the probe, only the horizontal part
/// of `motion` counts.
///
/// The probe reaches at least the minimum forward step ahead: a slow body resting against a
/// riser within the safe margin would otherwise find its short motion free (the recovery
/// pushes it clear first), while the engine's slide stops it there as against a wall.
///
/// `stance` says how the body stands at `from` (see [`Stance`]).
///
/// `aim`: the horizontal unit direction the input steers the body toward (zero when there is
/// none or it is the motion's own). A slide along a riser bends the motion away from the
/// riser tick after tick (at 258 Hz a walk 80 degrees off the stairs' direction moves 85.5
/// degrees off it), and a step is looked for toward the riser when either is within
/// [`TOWARD_RISER_COSINE`] of it.
///
/// `met`: what a test of `motion` from `from` already found, when the caller has it (the first
/// collision of a slide that made that motion, see [`KinematicBody::slide_collision`]): it
/// stands for the probe's first test, which is then not made.
///
/// What the probe meets is no step when it is [`Contact::movable`](crate::Contact::movable) (a
/// body the engine simulates, or another character) and the settings do not allow stepping
/// onto bodies ([`StairSettings::step_onto_bodies`]).
pub fn step_up<B: KinematicBody + ?Sized>(
    body: &mut B,
    from: Vec3,
    motion: Vec3,
    aim: Vec3,
    settings: &StairSettings,
    stance: Stance,
    met: Option<MotionTest>,
) -> Ahead {
    let up = unit_up(body.up_direction());
    let flat = horizontal(motion, up).length();
    let asked = motion;
    let motion = at_least(motion, flat, settings.min_step_forward.max(0.0));
    // 1. Probe.
    let obstacle = match find_obstacle(body, from, motion, asked, met, stance, settings) {
        Probe::Found(obstacle) => obstacle,
        Probe::Free => return Ahead::Free,
        Probe::Blocked => return Ahead::Blocked,
    };
    let length = horizontal(motion, up).length();
    if !steppable(&obstacle, length, settings) {
        return Ahead::Blocked;
    }
    let direction = horizontal(motion, up) / length;
    // 2. Up from where the probe stopped.
    let Some(rise) = lift_over(body, &obstacle, direction, settings) else {
        return Ahead::Blocked;
    };
    // 3. Forward (lower, under something the head met), and 4. down onto the step.
    let first = look_ahead(body, rise.end, direction, obstacle.remainder, settings);
    let ahead = match look_under(body, from, &first, &obstacle, direction, settings) {
        Some(under) => under,
        None => slide_on(body, first, settings),
    };
    let Some(landed) = land(body, from, &ahead, &obstacle, direction, aim, settings) else {
        return Ahead::Blocked;
    };
    let landing = landed.landing;
    let height = vertical(landing.position - from, up);
    // No higher than the engines' recovery: the floor the body stands on, or, after a slide
    // that could not move the body, a lip it faces (see [`Ahead::Lip`]).
    let lip = height <= MIN_STEP_RISE;
    if height <= 0.0 || lip && !stood_dead(body, from, met) {
        return Ahead::Blocked;
    }
    // 5. The riser and the tread.
    let Some(tread) = riser_fits(body, from, ahead.top, &landing, stance.level(), settings) else {
        return Ahead::Blocked;
    };
    if !deep_enough(body, &landing, &ahead, obstacle.at, direction, settings) {
        return Ahead::Blocked;
    }
    // Lifted this high, the body passes over the step's top: its contact, plus the engines'
    // margins, within what the sweep up found free.
    let clearance = (tread + 2.0 * body.safe_margin())
        .min(vertical(ahead.top - from, up))
        .max(height);
    let step = StepUp {
        displacement: landing.position - from,
        height,
        tread,
        on_edge: landed.on_edge,
        clearance,
        past_obstacle: flat - horizontal(obstacle.at - from, up).dot(direction),
        tilted_obstacle: supports(obstacle.contact.normal, up),
        level_landing: is_level(landing.contact.normal, up),
        rim_on_edge: landed.rim && landed.tread_height.is_some(),
        tread_height: landed.tread_height.unwrap_or(height),
    };
    if lip {
        Ahead::Lip(step)
    } else {
        Ahead::Stepped(step)
    }
}

/// The lift: a sweep up from `at` (m) by the max step height, sliding along what the head
/// meets (a sloped ceiling) as [`iterate_sweep`] does, but never back from the step: a slide
/// along the underside edge of something hanging over the step (its normal facing down and
/// back toward the body) gains a little height away from the step, where the look ahead meets
/// the same edge again; the looks under it start lower anyway. `direction` is the walk's
/// horizontal unit direction. One motion test less on such a step, and the same landing.
fn lift<B: KinematicBody + ?Sized>(
    body: &mut B,
    at: Vec3,
    direction: Vec3,
    settings: &StairSettings,
) -> Sweep {
    let up = unit_up(body.up_direction());
    let motion = up * settings.max_step_height;
    sweep_while(body, at, motion, settings.sweep_iterations, |next| {
        next.dot(motion) > 0.0 && horizontal(next, up).dot(direction) >= 0.0
    })
}

/// True when the slide that `met` something (see [`step_up`]) left the body where the step up
/// begins (`from`, m), within the safe margin: it could not move the body at all.
fn stood_dead<B: KinematicBody + ?Sized>(body: &B, from: Vec3, met: Option<MotionTest>) -> bool {
    let up = unit_up(body.up_direction());
    let moved = horizontal(body.position() - from, up).length();
    met.is_some() && moved <= body.safe_margin().max(0.0)
}

/// The [`lift`] from where the probe stopped at `obstacle`, when it rises more than
/// [`MIN_STEP_RISE`] and reaches that contact: a tread is no lower than the riser or edge the
/// probe met, so a lift that something overhead stopped short of it (by more than the engines'
/// margins) leaves no tread to land on. `direction`: the walk's horizontal unit direction.
fn lift_over<B: KinematicBody + ?Sized>(
    body: &mut B,
    obstacle: &Obstacle,
    direction: Vec3,
    settings: &StairSettings,
) -> Option<Sweep> {
    let up = unit_up(body.up_direction());
    let rise = lift(body, obstacle.at, direction, settings);
    let risen = vertical(rise.end - obstacle.at, up) > MIN_STEP_RISE;
    let short = vertical(obstacle.contact.point - rise.end, up) > 2.0 * body.safe_margin();
    (risen && !short).then_some(rise)
}

/// True when the `obstacle` a probe of `length` m (horizontal) met may be stepped onto: step
/// up is on, with a max step height, and the obstacle is no overhang. A body the engine
/// simulates or another character is pushed or met as a wall, not climbed, unless the
/// settings allow it.
fn steppable(obstacle: &Obstacle, length: f32, settings: &StairSettings) -> bool {
    let movable = obstacle.contact.movable && !settings.step_onto_bodies;
    let off = !settings.step_up_enabled || settings.max_step_height <= 0.0 || length <= 0.0;
    !(off || obstacle.overhang || movable)
}

/// `motion` (m) lengthened to reach at least `reach` (m) ahead; `flat` is its horizontal
/// length (m). A motion with no horizontal part is none.
fn at_least(motion: Vec3, flat: f32, reach: f32) -> Vec3 {
    if flat >= reach {
        motion
    } else if flat > 0.0 {
        motion * (reach / flat)
    } else {
        Vec3::ZERO
    }
}

/// What stopped the probe of a step up.
#[derive(Debug, Clone, Copy, PartialEq)]
struct Obstacle {
    /// Where the probe stopped, m.
    at: Vec3,
    /// The contact that stopped it.
    contact: Contact,
    /// What was left of the motion there, m.
    remainder: Vec3,
    /// The contact faces down: no step up passes it.
    overhang: bool,
}

/// What the probe of a step up found.
enum Probe {
    /// Something that is not walkable ground stopped it.
    Found(Obstacle),
    /// Nothing, or only walkable ground that the slide follows.
    Free,
    /// Walkable ground that turned the motion back: no step.
    Blocked,
}

/// Probes `motion` (m) from `from` (m): the probe and at most one slide along walkable ground,
/// so a riser right behind an edge (or at a ramp's top) is found, and a failed attempt stays
/// cheap. `asked` is the motion the caller's `met` (the first collision of its slide) made,
/// before it was lengthened to the minimum forward step: the same contact stops the probe, at
/// the same place, and stands for its first test. Otherwise a body held over an edge (`stance`)
/// is probed from a hair above its feet.
fn find_obstacle<B: KinematicBody + ?Sized>(
    body: &mut B,
    from: Vec3,
    motion: Vec3,
    asked: Vec3,
    met: Option<MotionTest>,
    stance: Stance,
    settings: &StairSettings,
) -> Probe {
    let up = unit_up(body.up_direction());
    let max_angle = body.floor_max_angle();
    let margin = body.safe_margin().max(0.0);
    // The probe comes before the slide (no slide has moved the body from `from` yet).
    let before_slide = horizontal(body.position() - from, up).length() <= margin;
    let mut met = met.filter(|m| m.contact.is_some()).map(|m| MotionTest {
        remainder: m.remainder + (motion - asked),
        ..m
    });
    let mut at = match (stance, met) {
        (Stance::Held { edge }, None) if edge.is_none_or(|e| crosses(from, e, motion, up)) => {
            from + up * graze_clearance(from)
        }
        _ => from,
    };
    let mut rest = motion;
    for _ in 0..settings.sweep_iterations.clamp(1, 2) {
        let mut test = match met.take() {
            Some(known) => known,
            None => body.test_move(at, rest),
        };
        if let Some(floor) = test.contact.filter(|hit| unopposed(hit, &test)) {
            // Stopped, with a contact the rest of the motion does not go into: what Godot
            // Physics reports when a motion along the floor stops against a riser it only
            // just touches (the deepest contact there is the floor's, within the margin). The
            // rest of the motion is tested again from just above that floor.
            at += test.travel + up * touch_reach(body).max(floor.depth);
            let rest = test.remainder;
            test = body.test_move(at, rest);
            if before_slide && pushed_back(&test, rest) {
                // Free, after the recovery pushed the body back against the motion: what it
                // stopped short of (a riser) lies within the safe margin ahead, and Godot
                // Physics answers free for the few tenths of a millimetre left (a 0.3 m
                // capsule at 175 Hz, whose slide then stopped dead against that riser and
                // climbed it in 12 queries). Tested again a margin further, it is found. After
                // a slide, the climb looks a margin further itself (`slide::climb_at_wall`).
                let beyond = horizontal(rest, up).normalize_or_zero() * (margin + NUDGE);
                test = body.test_move(at, rest + beyond);
            }
        } else if rose_off_an_edge(&test, rest, up) {
            // Free, after the recovery lifted the body off the rounding of an edge under it:
            // its feet may then be level with the top of the tread the motion crosses, which
            // the motion grazes. Jolt's cast stops at that touch and, its contact not opposing
            // the motion, answers free for the whole motion, through whatever lies beyond (a
            // 0.3 m capsule held on an edge at 119 Hz ended a walk 4.5 mm inside the next
            // step's nosing). The motion is tested again from a safe margin above where the
            // recovery left the body.
            at += test.travel - rest + up * body.safe_margin().max(0.0);
            test = body.test_move(at, rest);
        }
        let Some(hit) = test.contact else {
            // Free, or free after following walkable ground as Godot's slide would: done.
            return Probe::Free;
        };
        at += test.travel;
        let surface = classify(hit.normal, up, max_angle - FLOOR_ANGLE_MARGIN);
        if !matches!(surface, Surface::Level | Surface::Slope) {
            return Probe::Found(Obstacle {
                at,
                contact: hit,
                remainder: test.remainder,
                overhang: surface == Surface::Overhang,
            });
        }
        rest = floor_slide(test.remainder, hit.normal, up);
        if rest.dot(motion) <= 0.0 {
            break;
        }
    }
    Probe::Blocked
}

/// True when `motion` (m) from `from` (m) carries the feet over `edge` (m) in the horizontal
/// plane: the edge lies ahead along the motion, no further than the motion reaches.
fn crosses(from: Vec3, edge: Vec3, motion: Vec3, up: Vec3) -> bool {
    let flat = horizontal(motion, up);
    let along = horizontal(edge - from, up).dot(flat.normalize_or_zero());
    along >= 0.0 && along <= flat.length()
}

/// True when `test` of `motion` (m) was answered free after the engine's recovery lifted the
/// body along a tilted normal (more than [`is_level`] allows): off the rounding of an edge under
/// it, not off level floor, whose recovery leaves the feet clear of it.
fn rose_off_an_edge(test: &MotionTest, motion: Vec3, up: Vec3) -> bool {
    let recovery = test.travel - motion;
    test.contact.is_none()
        && vertical(recovery, up) > MIN_MOTION
        && !is_level(recovery.normalize_or_zero(), up)
}

/// True when `test` of `motion` (m) met nothing and its travel goes back against the motion
/// (by more than [`MIN_MOTION`], and more head-on than [`GRAZING_COSINE`]): the engine's
/// recovery pushed the body out of something the motion goes into, not out of a wall it
/// slides along.
fn pushed_back(test: &MotionTest, motion: Vec3) -> bool {
    let along = motion.normalize_or_zero();
    let back = -test.travel.dot(along);
    test.contact.is_none() && back > MIN_MOTION && back > test.travel.length() * GRAZING_COSINE
}

/// True when `test` stopped short of its motion at `hit`, a contact its remainder does not
/// go into (by more than [`MIN_MOTION`]): something else stopped it.
fn unopposed(hit: &Contact, test: &MotionTest) -> bool {
    let stopped = test.remainder.length() > MIN_MOTION;
    stopped && hit.normal.dot(test.remainder) >= -MIN_MOTION
}

/// The forward look over a step (see [`look_ahead`]).
struct LookAhead {
    /// Where the sweep up ended, m.
    top: Vec3,
    /// The forward sweep from `top`, out to the tread test beyond the motion.
    first: MotionTest,
    /// How far straight ahead the forward sweep went, m.
    straight: f32,
    /// How far ahead the landing is looked for (the rest of the motion, at least the minimum
    /// forward step), m.
    forward: f32,
    /// Above the landing at the end of the motion (at least the minimum forward step), m.
    near: Vec3,
    /// Above the furthest point looked at (the tread test further on), m.
    far: Vec3,
}

/// One sweep from `top` (m) along the unit `direction` out to the furthest point looked at:
/// the rest of the motion (`remainder`, m, at least the minimum forward step) and the tread
/// test beyond it. Its first, straight part is free, so the nearer landing needs no sweep of
/// its own. What it meets is slid along only by [`slide_on`], for the look the climb keeps (a
/// look that met a block overhead is made again lower, see [`look_under`]).
fn look_ahead<B: KinematicBody + ?Sized>(
    body: &mut B,
    top: Vec3,
    direction: Vec3,
    remainder: Vec3,
    settings: &StairSettings,
) -> LookAhead {
    let up = unit_up(body.up_direction());
    let forward = horizontal(remainder, up)
        .length()
        .max(settings.min_step_forward);
    let reach = forward + BodyScale::of(body).tread_look(settings.step_forward_test);
    let first = body.test_move(top, direction * reach);
    let straight = horizontal(first.travel, up).dot(direction);
    let near = if straight >= forward {
        top + direction * forward
    } else {
        top + first.travel
    };
    LookAhead {
        top,
        first,
        straight,
        forward,
        near,
        far: top + first.travel,
    }
}

/// The forward `look` slid along what it met, with the sweep's remaining iterations: how far
/// the look reaches past it (its `far`).
fn slide_on<B: KinematicBody + ?Sized>(
    body: &mut B,
    look: LookAhead,
    settings: &StairSettings,
) -> LookAhead {
    let far = match look.first.contact.and_then(|hit| usable_normal(hit.normal)) {
        Some(normal) if settings.sweep_iterations > 1 => {
            let rest = slide(look.first.remainder, normal);
            let more = settings.sweep_iterations - 1;
            iterate_sweep(body, look.far, rest, more).end
        }
        _ => look.far,
    };
    LookAhead { far, ..look }
}

/// Most lower looks under something the head met (see [`look_under`]): the first from just
/// above the riser's contact, then each halving the range of lifts left.
const LOOKS_UNDER: u32 = 4;

/// Looks again from lower lifts when the look from the top of the sweep up met something with
/// the body's head before the landing (a block hanging over the step, not over the floor in
/// front of it). From `at` (where the probe stopped, m), the first lower look lifts the body's
/// feet just above where the probe met the riser (no higher than the riser's top): met again
/// with the head, it is a wall from the floor up, and the climb gives up after that one look.
/// Met with the feet, the next looks halve the range of lifts between it and the last that met
/// something with the head. The first clear look is the climb's. `None` when the first look
/// was not blocked that way, or no lift clears both.
fn look_under<B: KinematicBody + ?Sized>(
    body: &mut B,
    from: Vec3,
    first: &LookAhead,
    obstacle: &Obstacle,
    direction: Vec3,
    settings: &StairSettings,
) -> Option<LookAhead> {
    let up = unit_up(body.up_direction());
    let at = vertical(obstacle.at, up);
    if blocked_by(body, first)? != Blocked::Head {
        return None;
    }
    let riser = vertical(obstacle.contact.point, up) + 2.0 * body.safe_margin().max(0.0);
    let (mut low, mut high) = (vertical(from, up) + MIN_STEP_RISE, vertical(first.top, up));
    if low > high || low.is_nan() || high.is_nan() {
        // The sweep up ended no higher than a step's least rise above where the move began.
        return None;
    }
    let mut lift = riser.clamp(low, high);
    high = high.min(head_room(body, first)?);
    for look_number in 0..LOOKS_UNDER {
        let top = obstacle.at + up * (lift - at);
        let look = look_ahead(body, top, direction, obstacle.remainder, settings);
        match blocked_by(body, &look) {
            None => {
                let look = slide_on(body, look, settings);
                if vertical(look.far - look.top, up) <= 0.0 {
                    return Some(look);
                }
                // It rose along what it met, the rounding of the step's edge: the feet are
                // below the step's top.
                low = lift;
            }
            Some(Blocked::Head) if look_number == 0 => return None,
            Some(Blocked::Head) => high = lift,
            Some(Blocked::Feet) => low = lift,
        }
        if high <= low {
            return None;
        }
        lift = 0.5 * (low + high);
    }
    None
}

/// The height (m, along up) of the feet that puts the top of the body's head at the height of
/// what `look` met: a lift that lets the head pass under something hanging over a step is
/// lower, since all of that thing is at least as low as any point of it. `None` when the look
/// met nothing.
fn head_room<B: KinematicBody + ?Sized>(body: &B, look: &LookAhead) -> Option<f32> {
    let up = unit_up(body.up_direction());
    let hit = look.first.contact?;
    Some(vertical(hit.point, up) - body.shape_height())
}

/// Which part of the body a forward look met something with before the landing.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Blocked {
    /// The lower half: a riser, or what the step's top holds up.
    Feet,
    /// The upper half: something hanging over the step.
    Head,
}

/// What stopped the forward `look` short of the landing, by the part of the body it met (not
/// walkable ground); `None` when it reached the landing.
fn blocked_by<B: KinematicBody + ?Sized>(body: &B, look: &LookAhead) -> Option<Blocked> {
    let up = unit_up(body.up_direction());
    let hit = look.first.contact?;
    if look.straight >= look.forward || is_walkable(hit.normal, up, body.floor_max_angle()) {
        return None;
    }
    let above_feet = vertical(hit.point - look.top, up);
    Some(if above_feet > 0.5 * body.shape_height() {
        Blocked::Head
    } else {
        Blocked::Feet
    })
}

/// Where a step up lands (see [`land`]).
struct Landed {
    /// The place on the step.
    landing: Foothold,
    /// A rounded bottom rests on the step's edge, a walkable tread behind it.
    on_edge: bool,
    /// The landing's contact is at the body's feet (within two safe margins): a flat
    /// bottom's rim.
    rim: bool,
    /// Height of the tread behind a landing on the edge (or its rounding) above the start, m.
    tread_height: Option<f32>,
}

/// Down onto the step from the forward look `ahead`, no lower than `start` (m). A landing too
/// steep to be floor (a rounded bottom on the step's edge; within the [`FLOOR_ANGLE_MARGIN`]
/// of the floor angle, as the probe sees it) counts only with a walkable tread
/// right behind it ([`tread_behind`]): the body then rests on the edge, or, when the way ahead
/// was not clear, stands on that tread. A flat bottom's rim on the walkable rounding of the
/// edge (not level) notes the height of the level tread behind it, with the flat base.
fn land<B: KinematicBody + ?Sized>(
    body: &mut B,
    start: Vec3,
    ahead: &LookAhead,
    obstacle: &Obstacle,
    direction: Vec3,
    aim: Vec3,
    settings: &StairSettings,
) -> Option<Landed> {
    let up = unit_up(body.up_direction());
    let mut landing = drop_onto(body, start, ahead.near)?;
    let mut on_edge = false;
    let mut tread_height = None;
    let max_angle = body.floor_max_angle() - FLOOR_ANGLE_MARGIN;
    if !is_walkable(landing.contact.normal, up, max_angle) {
        // A rounded bottom resting on the step's edge (or a chamfer as steep as the floor
        // angle) is not on floor for the engine. Step on only if a walkable tread follows a
        // little further on. The edge then supports the body (see `StepDown::on_edge`), which
        // rolls up over it in the next ticks at its own speed. When the way ahead was not
        // clear, stand on the tread instead. An edge higher above the feet than a riser may be
        // is no step, whatever lies behind it (`riser_fits` measures a riser from no higher
        // than the feet): a body against a riser too high stops looking here, a drop sooner.
        let margin = body.safe_margin().max(0.0);
        if vertical(landing.contact.point - start, up) > settings.max_step_height + margin {
            return None;
        }
        let tread = tread_behind(
            body,
            start,
            ahead,
            obstacle.contact.normal,
            direction,
            aim,
            settings,
        )?;
        // Resting on the edge no higher than the start, the body's side is on it (a walk
        // nearly along the riser, the look ahead hardly over the step): stand on the tread too.
        let low = vertical(landing.position - start, up) <= MIN_STEP_RISE;
        if ahead.first.contact.is_some() || low {
            landing = tread;
        } else {
            on_edge = true;
            // The edge holds the body at the tread's height only when the tread is level with
            // it: a slope rising past the edge (a ramp slab stepped onto from its side) is
            // higher there than the edge under the body.
            tread_height =
                is_level(tread.contact.normal, up).then(|| vertical(tread.position - start, up));
        }
    }
    let rim = vertical(landing.contact.point - landing.position, up) <= 2.0 * body.safe_margin();
    if settings.flat_reach().is_some()
        && rim
        && tread_height.is_none()
        && !is_level(landing.contact.normal, up)
        && let Some(tread) = drop_onto(body, start, ahead.far)
        && is_level(tread.contact.normal, up)
    {
        tread_height = Some(vertical(tread.position - start, up));
    }
    Some(Landed {
        landing,
        on_edge,
        rim,
        tread_height,
    })
}

/// The walkable tread behind a landing on a step's edge: down from the far end of the forward
/// look, or, approached at a grazing angle, toward the riser (with contact `riser`), as Jolt's
/// `CharacterVirtual` does within its `mWalkStairsCosAngleForwardContact`: the look along a
/// motion nearly parallel to the riser finds only the edge again. Toward the riser first when
/// the motion is more than 70 degrees off it. `None` without a tread test or a tread.
fn tread_behind<B: KinematicBody + ?Sized>(
    body: &mut B,
    start: Vec3,
    ahead: &LookAhead,
    riser: Vec3,
    direction: Vec3,
    aim: Vec3,
    settings: &StairSettings,
) -> Option<Foothold> {
    let look = BodyScale::of(body).tread_look(settings.step_forward_test);
    if look <= 0.0 {
        return None;
    }
    let up = unit_up(body.up_direction());
    let max_angle = body.floor_max_angle();
    let walkable = |tread: &Foothold| is_walkable(tread.contact.normal, up, max_angle);
    let toward = toward_riser(riser, direction, aim, up);
    let grazing = toward.is_some_and(|toward| toward.dot(direction) < GRAZING_COSINE);
    // One slanted sweep, toward the riser by the tread test and down to the start's height:
    // what it meets first is the tread when walkable.
    let near = ahead.near;
    let look_toward = |body: &mut B| {
        let toward = toward?;
        let drop = vertical(near - start, up);
        let slant = body.test_move(near, toward * look - up * drop);
        let contact = slant.contact?;
        let landing = Foothold {
            position: near + slant.travel,
            contact,
            above: near + horizontal(slant.travel, up),
        };
        Some(landing).filter(walkable)
    };
    let mut tread = if grazing { look_toward(body) } else { None };
    if tread.is_none() {
        tread = drop_onto(body, start, ahead.far).filter(walkable);
    }
    if tread.is_none() && !grazing {
        tread = look_toward(body);
    }
    tread
}

/// The height of the step's top where the body lands above `start` (m), when the riser is low
/// enough; `None` when it is not. The riser is measured between the surfaces, not the body's
/// positions: a rounded bottom resting on an edge sits lower than the tread and must not sneak
/// up a higher step. The body's origin is its feet, so whatever it stands on lies no lower
/// than the origin less the safe margin: a landing whose contact is within the max step height
/// of the feet is a low enough riser whatever the floor under the body, and needs no probe of
/// it. On `level` floor the origin is on the floor, and a level landing is as high as the body
/// rises. A flat base stands on the step's top or not at all: with no room to rise above it
/// (under a ceiling, `top` is where the sweep up ended, m), the body would only roll part way
/// up the edge, and that is no step.
fn riser_fits<B: KinematicBody + ?Sized>(
    body: &mut B,
    start: Vec3,
    top: Vec3,
    landing: &Foothold,
    level: bool,
    settings: &StairSettings,
) -> Option<f32> {
    let up = unit_up(body.up_direction());
    let height = vertical(landing.position - start, up);
    let contact_height = vertical(landing.contact.point - start, up);
    if settings.flat_reach().is_some()
        && vertical(top - start, up) + body.safe_margin() < contact_height
    {
        return None;
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
    (riser <= settings.max_step_height + body.safe_margin()).then_some(contact_height)
}

/// True when the tread leaves room ahead: the minimum step depth, measured from where the probe
/// stopped (`obstacle`, m) at the swept-up height (as Rapier's `min_width`), above the edge a
/// rounded body may rest on. A landing on the forward sweep's line needs no sweep of its own
/// when that one reached far enough or hit something.
fn deep_enough<B: KinematicBody + ?Sized>(
    body: &mut B,
    landing: &Foothold,
    ahead: &LookAhead,
    obstacle: Vec3,
    direction: Vec3,
    settings: &StairSettings,
) -> bool {
    let up = unit_up(body.up_direction());
    let advanced = horizontal(landing.above - obstacle, up).dot(direction);
    let room = settings.min_step_depth - advanced.max(0.0);
    if room <= body.safe_margin() {
        return true;
    }
    let on_line = landing.above == ahead.near;
    let (wall, travel) =
        if on_line && (ahead.first.contact.is_some() || ahead.straight >= advanced + room) {
            (ahead.first.contact, ahead.straight - advanced)
        } else {
            let look = body.test_move(landing.above, direction * room);
            (look.contact, look.travel.dot(direction))
        };
    let Some(wall) = wall else {
        return true;
    };
    let blocked =
        !is_walkable(wall.normal, up, body.floor_max_angle()) && travel < room - body.safe_margin();
    !blocked
}

/// The horizontal direction into a riser with contact `normal` for a body moving along the
/// horizontal unit `direction` and steered along `aim` (unit, or zero), when either goes into
/// it within [`TOWARD_RISER_COSINE`]; `None` otherwise or for a normal with no horizontal
/// part.
fn toward_riser(normal: Vec3, direction: Vec3, aim: Vec3, up: Vec3) -> Option<Vec3> {
    let toward = horizontal(-normal, up).try_normalize()?;
    let into = toward.dot(direction).max(toward.dot(aim));
    (into >= TOWARD_RISER_COSINE).then_some(toward)
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
struct Foothold {
    /// Where the body would stand, m.
    position: Vec3,
    /// What it would stand on.
    contact: Contact,
    /// Where the forward sweep ended, above the landing, m.
    above: Vec3,
}

/// From `above` (a place above the step the forward sweep reached), sweeps down no lower than
/// the height of `start`. `None` when nothing was found to stand on.
fn drop_onto<B: KinematicBody + ?Sized>(
    body: &mut B,
    start: Vec3,
    above: Vec3,
) -> Option<Foothold> {
    let up = unit_up(body.up_direction());
    let drop = vertical(above - start, up);
    if drop <= 0.0 {
        return None;
    }
    let down = body.test_move(above, -up * drop);
    let contact = down.contact?;
    Some(Foothold {
        position: above + down.travel,
        contact,
        above,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn free(travel: Vec3) -> MotionTest {
        MotionTest {
            travel,
            remainder: Vec3::ZERO,
            contact: None,
        }
    }

    #[test]
    fn a_recovery_head_on_out_of_a_riser_is_a_push_back_and_one_out_of_a_wall_alongside_is_not() {
        // Godot Physics at 175 Hz: 0.4 mm left of a walk along -Z, answered free after the
        // recovery pushed the body 0.7 mm back out of the riser ahead.
        let motion = Vec3::new(0.0, 0.0, -0.0004);
        assert!(pushed_back(&free(Vec3::new(0.0, 0.0, 0.0007)), motion));
        // Sliding along a wall met at 11 degrees (`wall_slide`): the push out of the wall is
        // against the motion by its sine only.
        let along = Vec3::new(0.98, 0.0, -0.196).normalize() * 0.02;
        assert!(!pushed_back(&free(Vec3::new(0.0, 0.0, 0.0007)), along));
        // Moved on, or stopped by a contact: no push back.
        assert!(!pushed_back(&free(motion), motion));
        let stopped = MotionTest {
            contact: Some(Contact {
                normal: Vec3::Z,
                point: Vec3::ZERO,
                depth: 0.0,
                movable: false,
            }),
            ..free(Vec3::new(0.0, 0.0, 0.0007))
        };
        assert!(!pushed_back(&stopped, motion));
    }
}
