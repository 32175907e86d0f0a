//! Pushing: after each sub-step, the bodies the engine simulates (Godot's `RigidBody3D`s) that
//! the move walked into get an impulse along the walk ([`push_touched`]).
//!
//! The engine's slide treats such a body as a wall. The push then gives it the velocity the
//! character and the body would share if the walk's momentum were shared by their masses, no
//! more than [`PushSettings::strength`] allows, and the character keeps as much of its walk
//! toward the body as the body now moves away at: a light crate slides ahead at nearly the
//! walking speed, a heavy one (whose friction on the floor is more than the strength) stays,
//! and stops the character as a wall does.
//!
//! After the tick the character's weight presses on a body the engine simulates that it stands
//! on ([`press_floor`]): a seesaw tips under it.
//!
//! The strength is a force, given over the time the character has been pushing: since its
//! last push, up to [`PUSH_MEMORY`]. A character walking behind a crate touches it only every
//! few ticks (Godot's slide cancels a move of less than 20 safe margins that ends against a
//! wall, so the tick that meets the crate does not move, and the crate gets ahead in the
//! physics step), and a push only on the ticks that touch, bounded by one tick's strength,
//! would make the crate slower the higher the tick rate.

use glam::Vec3;

use crate::body::{KinematicBody, Touched};
use crate::floor::{horizontal, up_of};
use crate::settings::PushSettings;
use crate::surface::same_slope;

/// Most bodies one slide pushes (a slide has at most this many collisions in Godot's default
/// `max_slides`, and every one may be another body).
const MOST_BODIES: usize = 8;

/// Longest time a push may count the character's strength over, s: a push right after
/// another counts the time between them, one after a pause no more than this.
pub const PUSH_MEMORY: f32 = 0.1;

/// What the character remembers of its pushes between sub-steps, and of its floor between
/// ticks (when to look for a body under it, [`press_floor`]).
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct PushState {
    /// Time since the last push ended, s (up to [`PUSH_MEMORY`]); `None` before the first.
    since: Option<f32>,
    /// The floor's normal after the last tick, when the body ended it on floor.
    floor_normal: Option<Vec3>,
    /// The floor plane the body last stood on two ticks running (or landed on), by its normal.
    plane: Option<Vec3>,
    /// The last look found a body the engine simulates under the character.
    on_body: bool,
    /// A look was due on a tick that stepped, and is left to the next.
    look_due: bool,
}

/// Pushes every body the last slide touched, once each, with the walk `wanted` (m/s, what the
/// input asks for: the wish times the top speed, so that a walk slowed by the body is not what
/// pushes it) over `dt` (s), and remembers it in `state`. Returns `velocity` (m/s, the velocity
/// after the move) with its part toward each pushed body raised to the speed that body now
/// moves away at, no faster than `wanted` that way.
pub fn push_touched<B: KinematicBody + ?Sized>(
    body: &mut B,
    push: &PushSettings,
    state: &mut PushState,
    wanted: Vec3,
    velocity: Vec3,
    dt: f32,
) -> Vec3 {
    if push.strength <= 0.0 || dt.is_nan() || dt <= 0.0 {
        return velocity;
    }
    let pushing = state
        .since
        .map_or(dt, |since| (since + dt).min(PUSH_MEMORY));
    let mut pushed = [0u64; MOST_BODIES];
    let mut count = 0;
    let mut velocity = velocity;
    let up = up_of(body);
    let floor = body.floor_max_angle().cos();
    for index in 0..body.slide_collision_count() {
        let Some(touched) = body.touched_body(index) else {
            continue;
        };
        // A body stood on (a tilted plank walked up) is not pushed across the ground: the
        // feet's friction holds what the weight's lean would push.
        if pushed[..count].contains(&touched.id) || touched.normal.dot(up) >= floor {
            continue;
        }
        let Some(push) = impulse(push, &touched, wanted, up, pushing) else {
            continue;
        };
        body.push_body(index, push.impulse);
        if count < MOST_BODIES {
            pushed[count] = touched.id;
            count += 1;
        }
        let toward = velocity.dot(push.direction);
        if toward < push.keep {
            velocity += push.direction * (push.keep - toward);
        }
    }
    state.since = if count > 0 {
        Some(0.0)
    } else {
        state.since.map(|since| (since + dt).min(PUSH_MEMORY))
    };
    velocity
}

/// After a tick of `dt` (s) that ended with the body on floor: the character's weight, its
/// mass times `gravity` (m/s²) over `dt`, pressed straight down on the body the engine
/// simulates that it stands on, at the contact ([`KinematicBody::press_floor_body`]).
///
/// Godot tells a body's floor only through the slide's collisions, and a walk along a floor
/// (snapped, not pushed into it) makes none: the body under the character is found by a look,
/// one motion test ([`KinematicBody::floor_body`]), made only when the character may have come
/// onto one: the last look found one, the last slide touched one from above, the body came
/// onto floor (a landing, the first tick), or it stands on a new plane (a seesaw's tilted
/// plank, a ramp: a floor normal held within a degree two ticks running, of another slope
/// than the last plane's). A tick that `stepped` leaves the look to the next (its queries are
/// the stairs'). Flat ground and stairs of static floor cost nothing more.
pub fn press_floor<B: KinematicBody + ?Sized>(
    body: &mut B,
    push: &PushSettings,
    state: &mut PushState,
    stepped: bool,
    gravity: f32,
    dt: f32,
) {
    let weight = push.mass * gravity * dt;
    let pressing = push.weight_on_bodies && weight > 0.0 && weight.is_finite();
    if !(pressing && body.is_on_floor()) {
        *state = PushState {
            since: state.since,
            ..PushState::default()
        };
        return;
    }
    let up = up_of(body);
    let normal = body.floor_normal();
    let landed = state.floor_normal.is_none();
    // A new plane: the floor's normal held within a degree for two ticks, and another slope
    // than the last plane's (rolling over a stair's rounded edge turns it by more most ticks).
    let steady = state
        .floor_normal
        .is_some_and(|was| same_slope(was, normal));
    let new_plane = steady && state.plane.is_some_and(|plane| !same_slope(plane, normal));
    if landed || steady {
        state.plane = Some(normal);
    }
    state.floor_normal = Some(normal);
    let due = state.look_due || state.on_body || landed || new_plane || stood_on_touched(body, up);
    if !due {
        return;
    }
    state.look_due = stepped;
    if stepped {
        return;
    }
    let Some(under) = body.floor_body() else {
        state.on_body = false;
        return;
    };
    state.on_body = true;
    body.press_floor_body(-up * weight, under.point);
}

/// True when one of the last slide's collisions is a body the engine simulates met from above
/// (its normal walkable floor).
fn stood_on_touched<B: KinematicBody + ?Sized>(body: &B, up: Vec3) -> bool {
    let floor = body.floor_max_angle().cos();
    (0..body.slide_collision_count()).any(|index| {
        body.touched_body(index)
            .is_some_and(|touched| touched.normal.dot(up) >= floor)
    })
}

/// True when the last slide ran into a body the engine simulates or another character: one
/// of its collisions is such a body met as a wall (its normal steeper than the floor's max
/// angle), or another character.
pub(crate) fn against_body<B: KinematicBody + ?Sized>(body: &B) -> bool {
    let count = body.slide_collision_count();
    if count == 0 {
        return false;
    }
    let up = up_of(body);
    let floor = body.floor_max_angle().cos();
    (0..count).any(|index| {
        body.touched_character(index)
            || body
                .touched_body(index)
                .is_some_and(|touched| touched.normal.dot(up).abs() < floor)
    })
}

/// Share of the push out of another character a body takes before its move, 0 to 1: half.
/// Two characters walking into each other each meet the other where the last physics step
/// left it; each taking all of the push left a gap as deep as the overlap, both walked into it
/// from rest, and where that walk was shorter than the gap (a few millimetres a tick, 100 to
/// 118 Hz) they overlapped again and trembled for as long as they pushed. Taking half, they end
/// the frame touching. A character that does not push out (Godot's plain body) leaves the
/// body half as deep, and half of the rest goes the next tick.
pub(crate) const BEFORE_MOVE_SHARE: f32 = 0.5;

/// True when one of the last slide's collisions is another character.
pub(crate) fn touched_a_character<B: KinematicBody + ?Sized>(body: &B) -> bool {
    (0..body.slide_collision_count()).any(|index| body.touched_character(index))
}

/// Moves the body out of another character it overlaps, when its last slide touched one. In
/// Godot a character's move reaches the physics server only in the physics step after the
/// frame, so a character moving later in a frame meets one that moved earlier where it stood,
/// and may end inside it; and while both keep walking into each other, the engine's slide
/// keeps that overlap (it cancels a move that gets nowhere, recovery included). One motion test
/// of no motion (its travel is the push out of overlaps, to the safe margin), made only then;
/// an overlap shallower than the margin is left to the engine (moving the body out of it each
/// tick would make two characters leaning on each other tremble by a margin or two).
///
/// The body is moved by `share` (0 to 1) of that push. Before a tick's move it takes half
/// ([`BEFORE_MOVE_SHARE`]), as the other takes the other half in its own tick of the frame;
/// a slide stopped dead in the other takes all of it (`slide::past_character`).
pub(crate) fn separate_from_characters<B: KinematicBody + ?Sized>(body: &mut B, share: f32) {
    if !touched_a_character(body) {
        return;
    }
    let here = body.position();
    let out = body.test_move(here, Vec3::ZERO).travel;
    let moved = here + out * share;
    if out.length() > 2.0 * body.safe_margin().max(0.0) && crate::sanitize::usable_position(moved) {
        body.set_position(moved);
    }
}

/// One body's push: the impulse it gets, which way, and the speed the character keeps that way.
#[derive(Debug, Clone, Copy, PartialEq)]
struct Push {
    /// The impulse, N s.
    impulse: Vec3,
    /// Unit horizontal direction of the push, away from the character.
    direction: Vec3,
    /// Speed the body moves away at after the push, m/s, no more than the walk's that way.
    keep: f32,
}

/// The push a body `touched` gets from the walk `wanted` (m/s) given over `pushing` (s):
/// across the ground only (a body stood on or bumped from below is not pushed), and only while
/// the walk closes in on it. `None` when there is nothing to push.
fn impulse(
    push: &PushSettings,
    touched: &Touched,
    wanted: Vec3,
    up: Vec3,
    pushing: f32,
) -> Option<Push> {
    let direction = horizontal(-touched.normal, up).try_normalize()?;
    let walk = wanted.dot(direction);
    let away = touched.velocity.dot(direction);
    let closing = walk - away;
    if !(closing > 0.0 && touched.mass > 0.0 && touched.mass.is_finite()) {
        return None;
    }
    let shared = push.mass * touched.mass / (push.mass + touched.mass);
    let size = (shared * closing).min(push.strength * pushing);
    let impulse = direction * size;
    impulse.is_finite().then_some(Push {
        impulse,
        direction,
        keep: (away + size / touched.mass).min(walk),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn crate_of(mass: f32, velocity: Vec3) -> Touched {
        Touched {
            id: 1,
            normal: Vec3::Z,
            point: Vec3::new(0.0, 0.5, -0.4),
            mass,
            velocity,
        }
    }

    const WALK: Vec3 = Vec3::new(0.0, 0.0, -3.0);

    #[test]
    fn a_light_crate_gets_nearly_the_walk_and_a_heavy_one_what_the_strength_allows() {
        let push = PushSettings::default();
        // Pushing for a while: the strength (500 N x 0.1 s) allows the whole share.
        let light = impulse(
            &push,
            &crate_of(10.0, Vec3::ZERO),
            WALK,
            Vec3::Y,
            PUSH_MEMORY,
        )
        .expect("pushed");
        // 80 kg and 10 kg share the walk: the crate gets 80/90 of 3 m/s.
        assert!((light.keep - 3.0 * 80.0 / 90.0).abs() < 1e-4, "{light:?}");
        assert_eq!(light.direction, -Vec3::Z);
        // One tick of a first push: 500 N over 1/60 s.
        let dt = 1.0 / 60.0;
        let first = impulse(&push, &crate_of(10.0, Vec3::ZERO), WALK, Vec3::Y, dt).expect("pushed");
        assert!(
            (first.impulse.length() - 500.0 * dt).abs() < 1e-3,
            "{first:?}"
        );
        let heavy =
            impulse(&push, &crate_of(500.0, Vec3::ZERO), WALK, Vec3::Y, dt).expect("pushed");
        assert!(
            (heavy.impulse.length() - 500.0 * dt).abs() < 1e-3,
            "{heavy:?}"
        );
        assert!(heavy.keep < 0.02, "{heavy:?}");
    }

    #[test]
    fn nothing_is_pushed_that_moves_away_faster_is_stood_on_or_walked_away_from() {
        let push = PushSettings::default();
        let dt = 1.0 / 60.0;
        let fleeing = crate_of(10.0, Vec3::new(0.0, 0.0, -3.5));
        assert_eq!(impulse(&push, &fleeing, WALK, Vec3::Y, dt), None);
        let under = Touched {
            normal: Vec3::Y,
            ..crate_of(10.0, Vec3::ZERO)
        };
        assert_eq!(impulse(&push, &under, WALK, Vec3::Y, dt), None);
        let backward = crate_of(10.0, Vec3::ZERO);
        assert_eq!(impulse(&push, &backward, -WALK, Vec3::Y, dt), None);
    }
}
