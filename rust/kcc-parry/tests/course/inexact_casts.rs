//! An engine whose casts overshoot, as Godot Physics' do onto flat faces (a capsule tested
//! 0.4 m down onto a floor 0.2 m below stops 6 mm inside it, and its floor snap sinks the
//! body as far): the controller still never leaves the character inside the floor, going down
//! stairs or walking off a ledge, for either shape, at every rate of the course.

use glam::Vec3;
use kcc::hooked::{BodyHooks, Hooked};
use kcc::{CharacterState, Controller, KinematicBody, MotionTest, TickInput};
use kcc_parry::{CharacterShape, ParryBody, geometry};

use crate::common::{body, capsule, cylinder, settings, world};

/// How far past the surface each downward cast and floor snap of [`Overshooting`] goes, m.
const OVERSHOOT: f32 = 0.006;

/// The deepest overlap a tick may leave, m: the course's `max_penetration`.
const ALLOWED: f32 = 0.002;

/// Downward casts that travel [`OVERSHOOT`] too far into what they hit, and a floor snap that
/// sinks the body as far (see [`Hooked`]).
struct Overshooting;

impl BodyHooks<ParryBody> for Overshooting {
    fn test_move(&mut self, body: &mut ParryBody, from: Vec3, motion: Vec3) -> MotionTest {
        let test = body.test_move(from, motion);
        if test.contact.is_none() || motion.y >= 0.0 {
            return test;
        }
        let along = motion.normalize();
        let extra = OVERSHOOT.min(test.remainder.length());
        MotionTest {
            travel: test.travel + along * extra,
            remainder: test.remainder - along * extra,
            contact: test.contact,
        }
    }

    fn apply_floor_snap(&mut self, body: &mut ParryBody) {
        body.apply_floor_snap();
        if body.is_on_floor() {
            let sunk = body.position() - Vec3::Y * OVERSHOOT;
            body.set_position(sunk);
        }
    }
}

/// Stairs of 8 risers 0.2 m high and 0.3 m deep going up along -Z from z = -1, with a 2 m
/// landing at the top.
fn stairs_world() -> std::sync::Arc<kcc_parry::World> {
    let mut solids =
        geometry::stairs(Vec3::new(0.0, 0.0, -1.0), Vec3::NEG_Z, 8, 0.2, 0.3, 4.0).unwrap();
    solids.push(geometry::aabb_box(Vec3::new(0.0, 0.8, -4.4), Vec3::new(4.0, 1.6, 2.0)).unwrap());
    world(solids)
}

/// Walks the body at `rate` Hz with `wish` for `seconds`, its engine overshooting; returns
/// the deepest overlap after any tick (m) and the body's end.
fn walk(
    body: &mut ParryBody,
    shape: CharacterShape,
    wish: Vec3,
    rate: f32,
    seconds: f32,
) -> (f32, Vec3) {
    let controller = Controller::new(settings(4.0)).unwrap();
    let mut state = CharacterState::default();
    let mut velocity = Vec3::ZERO;
    let mut deepest: f32 = 0.0;
    for tick in 0..(seconds * rate).round() as usize {
        let input = TickInput {
            wish_direction: wish,
            jump: false,
            velocity,
            crouch: false,
        };
        let mut engine = Hooked::new(&mut *body, Overshooting);
        velocity = controller
            .tick_with(&mut engine, &input, &mut state, 1.0 / rate)
            .velocity;
        let depth = body.penetration();
        assert!(
            depth <= ALLOWED,
            "{shape:?} at {rate} Hz: tick {tick} left the body {depth} m deep at {}",
            body.position()
        );
        deepest = deepest.max(depth);
    }
    (deepest, body.position())
}

#[test]
fn the_fake_engine_really_overshoots() {
    let start = Vec3::new(0.0, 0.2, 0.0);
    let mut parry = body(&world(Vec::new()), capsule(), start);
    let mut fake = Hooked::new(&mut parry, Overshooting);
    let test = fake.test_move(start, Vec3::NEG_Y * 0.4);
    fake.set_position(start + test.travel);
    assert!(
        parry.penetration() > 2.0 * ALLOWED,
        "{}",
        parry.penetration()
    );
}

#[test]
fn stairs_down_and_up_stay_out_of_the_floor_when_the_engine_overshoots() {
    let world = stairs_world();
    for shape in [capsule(), cylinder()] {
        for rate in [30.0, 60.0, 144.0, 240.0] {
            let top = Vec3::new(0.0, 1.6, -4.8);
            let mut fake = body(&world, shape, top);
            let (_, end) = walk(&mut fake, shape, Vec3::Z, rate, 2.0);
            assert!(
                end.z > 0.5 && end.y.abs() < 0.01,
                "{shape:?} {rate} Hz down: {end}"
            );
            let (_, end) = walk(&mut fake, shape, Vec3::NEG_Z, rate, 2.0);
            assert!(end.y > 1.59, "{shape:?} {rate} Hz up again: {end}");
        }
    }
}

#[test]
fn walking_off_a_ledge_lands_out_of_the_floor_when_the_engine_overshoots() {
    // A 0.15 m ledge (within the step height): the step down lands on the floor below.
    let ledge = geometry::aabb_box(Vec3::new(0.0, 0.075, 0.0), Vec3::new(4.0, 0.15, 4.0)).unwrap();
    let world = world(vec![ledge]);
    for shape in [capsule(), cylinder()] {
        for rate in [30.0, 60.0, 144.0, 240.0] {
            let mut parry = body(&world, shape, Vec3::new(0.0, 0.15, 0.0));
            let (_, end) = walk(&mut parry, shape, Vec3::X, rate, 1.5);
            assert!(
                end.x > 3.0 && end.y.abs() < 0.01,
                "{shape:?} {rate} Hz: {end}"
            );
        }
    }
}
