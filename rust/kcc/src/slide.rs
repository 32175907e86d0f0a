//! Stage 3 of a move, slide and climb: the engine's slide, the climb onto a step when the slide
//! met a wall, and the slide across the tread after a climb ([`slide`]).
//!
//! Every move ends with a slide of the engine's (as a script calling `move_and_slide`
//! expects): its real velocity, position delta, wall and slide collisions describe the move.

use glam::Vec3;

use crate::body::{Contact, KinematicBody, MotionTest};
use crate::climb::{Climb, Lift, climb};
use crate::floor::{horizontal, unit_up, vertical};
use crate::footing::Footing;
use crate::movement::along_floor;
use crate::plan::Plan;
use crate::push;
use crate::settings::{StairSettings, StepDetection};
use crate::surface::{is_walkable, same_slope, supports};
use crate::tolerances::{MIN_MOTION, MIN_SHARE, NUDGE, STOPPED_SHARE, WALK_SHARE, graze_clearance};

/// The outcome of [`slide`]: where the engine's slide left the body, and how fast.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct Slid {
    /// Horizontal velocity after the slide, m/s.
    pub(crate) run: Vec3,
    /// The body's own vertical speed after the slide, m/s: without the part of the slope it
    /// followed (as Godot's, the velocity of a body on floor is horizontal, and one that left
    /// the slope keeps only its own vertical speed).
    pub(crate) rise: f32,
    /// Vertical speed of the slope the slide followed, m/s (0 when it did not).
    pub(crate) slope: f32,
    /// The climb onto a step, when there was one.
    pub(crate) lift: Option<Lift>,
    /// How far the body was raised to make a slide stopped dead on its own floor again (see
    /// [`unstuck`]), m: a move outside the slide.
    pub(crate) raised: f32,
    /// How far the body was moved out of another character before the slide was made again
    /// (see [`past_character`]), m.
    pub(crate) separated: Vec3,
}

/// The slide of `plan`, with the climb onto a step in its way: `early` is a climb the move
/// already made (the probe of an unsure footing, see [`crate::footing::Footing::Unsure`]);
/// otherwise the slide goes first, and a grounded slide that met a wall runs the stair sweeps
/// (see [`slide_and_climb`]). After a climb the body slides again, across the tread, by the
/// rest of the tick's motion.
pub(crate) fn slide<B: KinematicBody + ?Sized>(
    body: &mut B,
    stairs: &StairSettings,
    plan: &Plan,
    early: Option<Lift>,
) -> Slid {
    let (velocity, slope, lift) = match early {
        Some(lift) => (plan.run, plan.slope, Some(lift)),
        None => slide_and_climb(body, stairs, plan),
    };
    let (velocity, raised) = match lift {
        None => unstuck(body, plan, velocity, slope),
        Some(_) => (velocity, 0.0),
    };
    let (after, separated) = match lift {
        Some(lift) => (across_tread(body, plan, lift), Vec3::ZERO),
        None => unstopped(body, plan, velocity),
    };
    let up = plan.up;
    let lifted = lift.is_some_and(|lift| lift.height > 0.0);
    let rise = if lifted || slope == 0.0 {
        vertical(after, up)
    } else if body.is_on_floor() {
        0.0
    } else {
        (vertical(after, up) - slope).min(0.0)
    };
    Slid {
        run: horizontal(after, up),
        rise,
        slope,
        lift,
        raised,
        separated,
    }
}

/// The velocity (m/s) after a slide of `plan` that left `velocity` (m/s), and how far the body
/// was moved out of another character (m; see [`past_character`]): the walk's part
/// along the wall the slide met, when the engine stopped the body dead against that wall.
/// Godot's slide stops all motion when it meets a wall a second time in one slide (its guard
/// against jitter in corners), and Godot Physics reports the wall the body just slid along
/// again when the body lands against it: the walk would start again from rest (0.3 m short
/// after a second along the wall). When the walk's part along the wall is free for the tick,
/// one motion test, the body keeps it, as the slide without its guard would; the part of this
/// tick's motion the stop cut off stays lost (moving the body after the slide would make
/// Godot's `get_real_velocity()` wrong for the tick). In a corner the test meets the other
/// wall: the body stays stopped. The wall is the slide's first collision or, when that was
/// the floor (a body landing beside the wall meets the floor first), the contact of a test of
/// the walk; when that test finds the walk free, the body keeps the walk (one query more, on
/// such a tick only). A body the engine simulates stops the body as it did; another
/// character met but head on is slid along once the body is out of it ([`past_character`]).
fn unstopped<B: KinematicBody + ?Sized>(body: &mut B, plan: &Plan, velocity: Vec3) -> (Vec3, Vec3) {
    let kept = |velocity: Vec3| (velocity, Vec3::ZERO);
    let up = plan.up;
    let run = plan.run;
    let stopped = horizontal(velocity, up).length() < run.length() * STOPPED_SHARE;
    if !(stopped && body.is_on_wall()) {
        // The common case, told without asking the engine for the slide's collision.
        return kept(velocity);
    }
    let Some(first) = body.slide_collision(0).and_then(|met| met.contact) else {
        return kept(velocity);
    };
    let max_angle = body.floor_max_angle();
    let is_wall = |contact: &Contact| !is_walkable(contact.normal, up, max_angle);
    let wall = if is_wall(&first) {
        first
    } else {
        match free_for(body, plan.walk()) {
            Ok(()) => return kept(run + up * vertical(velocity, up)),
            Err(Some(wall)) if is_wall(&wall) => wall,
            Err(_) => return kept(velocity),
        }
    };
    let Some(away) = horizontal(wall.normal, up).try_normalize() else {
        return kept(velocity);
    };
    let along = run - away * run.dot(away).min(0.0);
    if along.length() < run.length() * STOPPED_SHARE {
        return kept(velocity);
    }
    if wall.movable {
        return if push::touched_a_character(body) {
            past_character(body, plan, velocity)
        } else {
            kept(velocity)
        };
    }
    match free_for(body, along * plan.dt) {
        Ok(()) => kept(along + up * vertical(velocity, up)),
        Err(_) => kept(velocity),
    }
}

/// The velocity (m/s) after a slide of `plan` that another character stopped dead (leaving
/// `velocity`, m/s): the slide made again once the body is out of that character. The other
/// moved into the body after the body's last move (Godot moves a character in its server only
/// in the physics step after the frame), and Godot Physics' slide stops dead in such an
/// overlap, cancelling its push out with the travel, where Jolt's slides out and along the
/// other's side (two characters passing in a corridor stopped dead for a tick at 30, 90
/// and 100 Hz, each 0.23 m short at the end). Out of the overlap
/// ([`push::separate_from_characters`], one motion test), the walk slides again; a body not
/// deeper than its margins keeps the first slide's answer.
fn past_character<B: KinematicBody + ?Sized>(
    body: &mut B,
    plan: &Plan,
    velocity: Vec3,
) -> (Vec3, Vec3) {
    let here = body.position();
    push::separate_from_characters(body, 1.0);
    let separated = body.position() - here;
    if separated == Vec3::ZERO {
        return (velocity, separated);
    }
    let walk = plan.run + plan.up * vertical(velocity, plan.up);
    (body.move_and_slide(walk, plan.dt), separated)
}

/// Whether `motion` (m) from where the body is, one motion test, is free but for
/// [`WALK_SHARE`] of it; `Err` with the contact that blocked it when it is not. A motion too
/// short to test ([`MIN_MOTION`]) is not free: there is no walk to keep.
fn free_for<B: KinematicBody + ?Sized>(body: &mut B, motion: Vec3) -> Result<(), Option<Contact>> {
    let length = motion.length();
    if length <= MIN_MOTION {
        return Err(None);
    }
    let test = body.test_move(body.position(), motion);
    let made = test.travel.dot(motion) / length;
    if made < length * (1.0 - WALK_SHARE) {
        Err(test.contact)
    } else {
        Ok(())
    }
}

/// On the step: the slide that carries the body across the tread (or over the edge it then
/// rests on), without gravity. The lift already carried it `ahead`: the slide makes only the
/// rest of the tick's motion. Returns the velocity after it, m/s, scaled back up to the
/// body's (the body keeps its walk when the slide had almost nothing left to make).
fn across_tread<B: KinematicBody + ?Sized>(body: &mut B, plan: &Plan, lift: Lift) -> Vec3 {
    let motion = plan.walk().length();
    let share = (1.0 - lift.ahead / motion).clamp(0.0, 1.0);
    let slid = body.move_and_slide(plan.run * share, plan.dt);
    if share > MIN_SHARE {
        slid / share
    } else {
        plan.run
    }
}

/// The slide of `plan`, and, when a grounded slide met a wall, the climb onto the step there:
/// the velocity after the slide (m/s), the slope it followed (m/s) and the lift. With
/// [`StepDetection::Probe`], a grounded move first probes its motion for a step and climbs
/// one it finds without the slide; when it finds none, the move goes on as with
/// [`StepDetection::Contacts`] (a slide bent onto a step still climbs it). So does a body held
/// on a stair's edge by its flat base, or touching a riser's top with its side
/// ([`Footing::AtRiser`]), whatever the setting: the next riser is near, and a
/// climb found first saves the slide that would meet it (2 to 3 queries, where a probe that
/// finds nothing costs 1). Not a body held on the edge it walks off (going down stairs, see
/// [`crate::footing::Footing::walks_off_edge`]): its next riser up is a tread away at least.
///
/// Following the slope can run the body into a wall that the walk itself does not reach (the
/// arc of an edge being rolled over rises fastest): the move is then made again as Godot's
/// own slide would. A move on floor that the engine bent onto a new slope (a ramp's foot,
/// the rounding of a step's edge), falling short of the walk, is made again along that
/// slope.
fn slide_and_climb<B: KinematicBody + ?Sized>(
    body: &mut B,
    stairs: &StairSettings,
    plan: &Plan,
) -> (Vec3, f32, Option<Lift>) {
    let Plan {
        start,
        up,
        run,
        dt,
        grounded,
        stance,
        ..
    } = *plan;
    let probe = stairs.ground_follow.detection() == StepDetection::Probe;
    let held_ahead = plan.footing.held() && !plan.footing.walks_off_edge(start, run, up);
    let at_riser = plan.footing == Footing::AtRiser;
    if grounded && (probe || held_ahead || at_riser) && !plan.probed {
        // The probe first: a step found is climbed before the engine's slide touches it.
        let motion = (run + up * plan.slope) * dt;
        if let Climb::Lifted(lift) = climb(body, stairs, start, motion, plan.aim, stance, None) {
            return (run, plan.slope, Some(lift));
        }
    }
    let (velocity, slope) = follow_floor(body, plan);
    if !grounded || !body.is_on_wall() {
        return (velocity, slope, None);
    }
    if !stairs.step_onto_bodies && push::against_body(body) {
        // A crate is pushed, not climbed.
        return (velocity, slope, None);
    }
    let (velocity, slope, found) = climb_at_wall(body, stairs, plan, velocity, slope);
    let lift = match found {
        Climb::Lifted(lift) => Some(lift),
        _ => None,
    };
    (velocity, slope, lift)
}

/// The climb onto the step of the wall a grounded slide met, after that slide left the body
/// with `velocity` (m/s), having followed a slope of vertical speed `slope` (m/s): the
/// velocity and slope the move ends with, and what the climb found. The climb's sweep goes
/// along the slide's first motion; when it finds nothing where the slide stopped dead, it
/// looks once more a margin further; and a slide that followed a slope into a wall the walk
/// does not reach is made again level, as Godot's own slide would.
fn climb_at_wall<B: KinematicBody + ?Sized>(
    body: &mut B,
    stairs: &StairSettings,
    plan: &Plan,
    mut velocity: Vec3,
    mut slope: f32,
) -> (Vec3, f32, Climb) {
    let Plan {
        start,
        up,
        run,
        push,
        dt,
        stance,
        ..
    } = *plan;
    let stopped = |v: Vec3| horizontal(v, up).length() < run.length() * STOPPED_SHARE;
    // The slide's first motion was the climb's when gravity did not push it down.
    let motion = (run + up * slope) * dt;
    let met = slide_met(body, motion).filter(|_| push == 0.0);
    let mut found = if met.is_none() && walked_to_edge(body, motion) {
        Climb::Free
    } else {
        climb(body, stairs, start, motion, plan.aim, stance, met)
    };
    let walked = horizontal(body.position() - start, up).length();
    let cancelled = walked <= body.safe_margin().max(0.0);
    if matches!(found, Climb::Free) && stopped(velocity) && cancelled {
        // Nothing in the way of the motion, yet the slide did not move the body: Godot's slide
        // cancels the travel of a grounded move that meets a wall (a riser) within 20 safe
        // margins, here within the margin of the motion's end, where the climb's own sweep
        // stops short of it. Looked for once more a margin further, the step is climbed now;
        // left for the next tick, the body would stand there and the walk would start again
        // from rest.
        let margin = body.safe_margin().max(0.0);
        let reach = motion + horizontal(motion, up).normalize_or_zero() * (margin + NUDGE);
        found = climb(body, stairs, start, reach, plan.aim, stance, None);
    }
    if matches!(found, Climb::Free) && stopped(velocity) {
        // The slide stopped dead, yet the walk is free: it made the whole walk and ended
        // against the next riser, which the climb's probe (as long as the walk) finds just
        // beyond it, or against the edge a rounded bottom meets at the walk's end (`climb`'s
        // `at_edge`), or it stopped a little short of a riser just beyond the walk (Godot's
        // slide stops within the margin of a wall it met). The next tick climbs it, and the
        // body keeps the walk's speed, and the ground Godot's slide took back.
        remade_short(body, plan, slope);
        velocity = run + up * vertical(velocity, up);
    }
    if !matches!(found, Climb::Lifted(_)) && slope != 0.0 && stopped(velocity) {
        slope = 0.0;
        body.set_position(start);
        velocity = body.move_and_slide(run + up * push, dt);
        found = if body.is_on_wall() {
            let met = slide_met(body, run * dt).filter(|_| push == 0.0);
            climb(body, stairs, start, run * dt, plan.aim, stance, met)
        } else {
            Climb::Blocked
        };
    }
    (velocity, slope, found)
}

/// Makes the slide of `plan` (that followed a slope of vertical speed `slope`, m/s) again from
/// its start, short of the wall it met, when the engine took back the travel that met it:
/// Godot's slide of a grounded body that meets a wall within 20 safe margins puts the body
/// back where that motion began (`floor_block_on_wall`: no creeping up walls), so a slide that
/// first followed the tread and then met the next riser's nosing a little short of the walk's
/// end kept only the first part (a sprinting capsule at 165 Hz: 0.47 of its walk, the step
/// found on the next tick). Made again, it stops a safe margin and a hair
/// ([`graze_clearance`]) short of the wall along the wall's normal, where it does not meet it
/// (one slide more, on such a tick only). The wall is the slide's
/// ([`KinematicBody::wall_normal`]), else (not on a wall, or an engine that does not say it)
/// the last collision's contact: a motion that met a
/// floor and a wall at once may name the floor in its collision (a small capsule on the
/// rounding of one step's edge that met the next step's edge). Not when the
/// slide took back less than [`WALK_SHARE`] of the walk, nor when the engine does not say its
/// slide's collisions.
fn remade_short<B: KinematicBody + ?Sized>(body: &mut B, plan: &Plan, slope: f32) {
    let up = plan.up;
    let walk = horizontal(plan.walk(), up);
    let Some(direction) = walk.try_normalize() else {
        return;
    };
    let mut covered = 0.0;
    let mut last = None;
    for met in (0..).map_while(|index| body.slide_collision(index)) {
        covered += met.travel.dot(direction);
        last = met.contact;
    }
    let walked = (body.position() - plan.start).dot(direction);
    let Some(wall) = last else {
        return;
    };
    let said = body.wall_normal();
    let wall = if body.is_on_wall() && said != Vec3::ZERO {
        said
    } else {
        wall.normal
    };
    let facing = -horizontal(wall, up).dot(direction);
    if covered - walked <= walk.length() * WALK_SHARE || facing <= MIN_SHARE {
        return;
    }
    let short = (body.safe_margin().max(0.0) + graze_clearance(plan.start)) / facing;
    let share = (covered - short) / walk.length();
    if share * walk.length() <= walked {
        return;
    }
    body.set_position(plan.start);
    body.move_and_slide((plan.run + up * (plan.push + slope)) * share, plan.dt);
}

/// The engine's slide of `plan`, following the floor's slope: the velocity after it (m/s) and
/// the slope's vertical speed it followed (m/s). A move on floor that the engine bent onto a
/// new slope (a ramp's foot, the rounding of a step's edge), falling short of the walk or
/// going beyond it, is made again along the new slope.
fn follow_floor<B: KinematicBody + ?Sized>(body: &mut B, plan: &Plan) -> (Vec3, f32) {
    let Plan {
        start,
        up,
        run,
        push,
        slope,
        dt,
        ..
    } = *plan;
    let before = body.floor_normal();
    let velocity = body.move_and_slide(run + up * (push + slope), dt);
    if !(plan.follow && body.is_on_floor() && !body.is_on_wall()) {
        return (velocity, slope);
    }
    let normal = body.floor_normal();
    let walked = horizontal(body.position() - start, up).length();
    let wanted = plan.walk().length();
    let short = walked < wanted * (1.0 - WALK_SHARE);
    let long = walked > wanted * (1.0 + WALK_SHARE);
    if !(short || long) || same_slope(normal, before) {
        return (velocity, slope);
    }
    let again = along_floor(run, normal, up, body.floor_max_angle());
    if again == slope {
        return (velocity, slope);
    }
    body.set_position(start);
    (body.move_and_slide(run + up * again, dt), again)
}

/// The velocity (m/s) after a slide of `plan` (following a slope of vertical speed `slope`,
/// m/s) that left `velocity` (m/s), made again from a safe margin higher when the engine
/// stopped it dead on the floor it walks along: on that floor, against no wall, moved no
/// further than a push out of the safe margin, and every collision it met walkable floor
/// (a ceiling or a block over a step is met as what stops the body). Godot Physics' slide can stop a cylinder so on a slope whose face it touches: each of
/// its collisions meets the floor it slides along with no travel (a 0.4 m cylinder walking up
/// a 30 degree ramp at 175 Hz stood still for 170 ticks), where its plain body walks on. One
/// motion test up and one slide more, on such a tick only; the slide's floor snap puts the body
/// back down. Returns the velocity and the height the body was raised outside the slide, m.
fn unstuck<B: KinematicBody + ?Sized>(
    body: &mut B,
    plan: &Plan,
    velocity: Vec3,
    slope: f32,
) -> (Vec3, f32) {
    let margin = body.safe_margin().max(0.0);
    let walk = horizontal(plan.walk(), plan.up).length();
    let moved = (body.position() - plan.start).length();
    let dead = body.is_on_floor() && !body.is_on_wall() && moved <= margin;
    if !(dead && walk > margin && margin > 0.0 && met_only_floor(body)) {
        return (velocity, 0.0);
    }
    let lift = body.test_move(plan.start, plan.up * margin);
    body.set_position(plan.start + lift.travel);
    let velocity = body.move_and_slide(plan.run + plan.up * (plan.push + slope), plan.dt);
    (velocity, vertical(lift.travel, plan.up).max(0.0))
}

/// True when the slide just made met something, and each of its collisions the engine says
/// met walkable floor: nothing else (a ceiling, a wall, a block over a step) stopped it.
fn met_only_floor<B: KinematicBody + ?Sized>(body: &B) -> bool {
    let up = unit_up(body.up_direction());
    let max_angle = body.floor_max_angle();
    let mut met = (0..)
        .map_while(|index| body.slide_collision(index))
        .peekable();
    met.peek().is_some()
        && met.all(|test| {
            test.contact
                .is_some_and(|contact| is_walkable(contact.normal, up, max_angle))
        })
}

/// True when the slide just made (by `motion`, m) went the whole way and touched a step's edge
/// at its end with the rounding of the body's bottom: its first collision left nothing of the
/// motion and is tilted, facing the motion and too steep to stand on. The climb comes on the
/// next tick, from against that edge, as [`climb`] decides for a rounded bottom the slide
/// already took to the edge; its sweeps would find that much and spend up to seven queries on
/// it (the lift, the forward look, the drops, and a sweep along the walk of their own).
fn walked_to_edge<B: KinematicBody + ?Sized>(body: &B, motion: Vec3) -> bool {
    let up = unit_up(body.up_direction());
    let Some(met) = body.slide_collision(0) else {
        return false;
    };
    let Some(contact) = met.contact else {
        return false;
    };
    let whole = met.remainder.length() <= MIN_MOTION;
    let facing = contact.normal.dot(motion) < 0.0;
    let edge =
        supports(contact.normal, up) && !is_walkable(contact.normal, up, body.floor_max_angle());
    whole && facing && edge
}

/// The first collision of the slide just made (see [`KinematicBody::slide_collision`])
/// when it is what a test of `motion` (m) from where the slide began finds: travel and
/// remainder add up to `motion` (but for a push out of an overlap within the safe margin), and
/// something stopped it short of its end.
fn slide_met<B: KinematicBody + ?Sized>(body: &B, motion: Vec3) -> Option<MotionTest> {
    let margin = body.safe_margin().max(0.0);
    let met = body.slide_collision(0)?;
    let made = met.travel + met.remainder;
    let same = (made - motion).length() <= margin + MIN_MOTION;
    let stopped = met.remainder.length() > MIN_MOTION;
    // A motion within the margin could be mistaken for another one.
    let long = motion.length() > margin + MIN_MOTION;
    (met.contact.is_some() && same && stopped && long).then_some(met)
}
