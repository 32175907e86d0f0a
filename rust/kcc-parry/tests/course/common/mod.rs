//! Shared harness for the course tests: build a world, run the controller tick by tick, and
//! record what happened.
#![allow(dead_code)]

use std::sync::Arc;

use glam::Vec3;
use kcc::{Controller, ControllerSettings, KinematicBody, TickInput, TickReport};
use kcc_parry::{BodySettings, CharacterShape, ParryBody, Solid, World, geometry};

/// The ground: a 200 x 1 x 200 m slab whose top is at y = 0.
pub fn ground() -> Solid {
    geometry::aabb_box(Vec3::new(0.0, -0.5, 0.0), Vec3::new(200.0, 1.0, 200.0)).unwrap()
}

pub fn world(solids: Vec<Solid>) -> Arc<World> {
    let mut world = World::new();
    world.add(ground()).extend(solids);
    Arc::new(world)
}

pub fn capsule() -> CharacterShape {
    CharacterShape::Capsule {
        radius: 0.4,
        height: 1.8,
    }
}

pub fn cylinder() -> CharacterShape {
    CharacterShape::Cylinder {
        radius: 0.4,
        height: 1.8,
    }
}

pub fn body(world: &Arc<World>, shape: CharacterShape, position: Vec3) -> ParryBody {
    let settings = BodySettings {
        shape,
        ..BodySettings::default()
    };
    ParryBody::new(world.clone(), settings, position).unwrap()
}

/// Controller settings with a top speed and quick curves.
pub fn settings(max_speed: f32) -> ControllerSettings {
    let mut settings = ControllerSettings::default();
    settings.movement.ground.max_speed = max_speed;
    settings.movement.air.max_speed = max_speed;
    settings
}

/// One recorded tick.
#[derive(Debug, Clone, Copy)]
pub struct Tick {
    pub before: Vec3,
    pub after: Vec3,
    pub report: TickReport,
    pub penetration: f32,
}

/// Lands the body on whatever is under it (a few ticks of no input) so it starts on floor.
pub fn settle(controller: &Controller, body: &mut ParryBody, rate: f32) -> Vec3 {
    let mut velocity = Vec3::ZERO;
    for _ in 0..10 {
        let input = TickInput {
            velocity,
            ..TickInput::default()
        };
        velocity = controller.tick(body, &input, 1.0 / rate).velocity;
    }
    assert!(
        body.is_on_floor(),
        "body did not settle on floor at {}",
        body.position()
    );
    velocity
}

/// Runs `ticks` ticks of `step` and records each.
fn record(
    body: &mut ParryBody,
    ticks: u32,
    mut step: impl FnMut(&mut ParryBody) -> TickReport,
) -> Vec<Tick> {
    (0..ticks)
        .map(|_| {
            let before = body.position();
            let report = step(body);
            Tick {
                before,
                after: body.position(),
                report,
                penetration: body.penetration(),
            }
        })
        .collect()
}

/// Runs `ticks` ticks with a constant wish direction, from rest, and records each.
pub fn walk(
    controller: &Controller,
    body: &mut ParryBody,
    wish: Vec3,
    rate: f32,
    ticks: u32,
) -> Vec<Tick> {
    let mut velocity = Vec3::ZERO;
    record(body, ticks, |body| {
        let input = TickInput {
            wish_direction: wish,
            jump: false,
            velocity,
            crouch: false,
        };
        let report = controller.tick(body, &input, 1.0 / rate);
        velocity = report.velocity;
        report
    })
}

/// Runs with a velocity fixed by the test (no movement model): `move_and_step` each tick.
pub fn drive(
    controller: &Controller,
    body: &mut ParryBody,
    velocity: Vec3,
    rate: f32,
    ticks: u32,
) -> Vec<Tick> {
    record(body, ticks, |body| {
        controller.move_and_step(body, velocity, 1.0 / rate)
    })
}

pub fn ticks_off_floor(trace: &[Tick]) -> usize {
    trace.iter().filter(|t| !t.report.on_floor).count()
}

/// Height of the top tread of the Jolt stairs (10 steps of 0.3 x 0.3 m along -Z from z = -1),
/// m.
pub const JOLT_STAIRS_TOP: f32 = 3.0;

/// Climbs the Jolt stairs of `world` from z = 0 at 4 m/s and `rate` Hz with `shape`: on the
/// floor and moving forward every tick, never more than 1 cm inside geometry, less than 1 cm of
/// sideways drift, and the top within 1.5 x the ideal time. `label` names the case in
/// failures. Returns the time to the top, s.
pub fn climb_jolt_stairs(world: &Arc<World>, shape: CharacterShape, rate: f32, label: &str) -> f32 {
    let controller = Controller::new(settings(4.0)).unwrap();
    let mut body = body(world, shape, Vec3::ZERO);
    let mut velocity = settle(&controller, &mut body, rate);
    // Start at full speed so the ideal time is distance / speed.
    velocity = Vec3::new(0.0, velocity.y, -4.0);
    let mut drift = 0.0f32;
    let mut reached = None;
    for tick in 1..=(rate * 5.0) as u32 {
        let before = body.position();
        let input = TickInput {
            wish_direction: Vec3::NEG_Z,
            jump: false,
            velocity,
            crouch: false,
        };
        let report = controller.tick(&mut body, &input, 1.0 / rate);
        velocity = report.velocity;
        let after = body.position();
        let state = body.contact_state();
        drift = drift.max(after.x.abs());
        assert!(
            report.on_floor,
            "{label}: off floor at tick {tick}, {before} -> {after}, floor normal {}, wall normal {}",
            state.floor_normal, state.wall_normal
        );
        assert!(
            after.z < before.z,
            "{label}: no progress at tick {tick}: {before} -> {after}, wall normal {}",
            state.wall_normal
        );
        assert!(
            body.penetration() < 0.01,
            "{label}: inside geometry at tick {tick}: {}",
            body.penetration()
        );
        if after.y > JOLT_STAIRS_TOP - 0.01 {
            reached = Some(tick);
            break;
        }
    }
    let ticks =
        reached.unwrap_or_else(|| panic!("{label}: never reached the top, at {}", body.position()));
    // The top tread starts 1 m + 9 runs ahead of the start.
    let ideal = (1.0 + 9.0 * 0.3) / 4.0;
    let time = ticks as f32 / rate;
    assert!(time <= 1.5 * ideal, "{label}: {time} s vs ideal {ideal} s");
    assert!(drift < 0.01, "{label}: drift {drift}");
    eprintln!(
        "{label}: top in {time:.3} s (ideal {ideal:.3} s, ratio {:.2}), drift {drift:.5} m",
        time / ideal
    );
    time
}

/// Walks down the Jolt stairs of `world` (with a landing at the top) from the top tread at
/// 4 m/s and `rate` Hz with `shape`: on the floor and moving forward every tick at no more than
/// 1.05 x the speed (a rounded bottom rolls over each edge, it does not slide off ahead), no
/// drop larger than the max step height, never more than 1 cm inside geometry, on the ground at
/// the end, within 5 % of the ideal time. `label` names the case in failures. Returns the ticks
/// it took.
pub fn descend_jolt_stairs(
    world: &Arc<World>,
    shape: CharacterShape,
    rate: f32,
    label: &str,
) -> u32 {
    let settings = settings(4.0);
    let max_step = settings.stairs.max_step_height;
    let controller = Controller::new(settings).unwrap();
    // Start on the top tread, facing down the stairs (+Z).
    let mut body = body(world, shape, Vec3::new(0.0, JOLT_STAIRS_TOP, -4.5));
    settle(&controller, &mut body, rate);
    let mut velocity = Vec3::new(0.0, 0.0, 4.0);
    let mut largest_drop = 0.0f32;
    let mut smoother = kcc::StepSmoother::default();
    let mut ticks = 0;
    while body.position().z < 1.0 {
        let before = body.position();
        let input = TickInput {
            wish_direction: Vec3::Z,
            jump: false,
            velocity,
            crouch: false,
        };
        let report = controller.tick(&mut body, &input, 1.0 / rate);
        velocity = report.velocity;
        if let Some(dy) = report.stepped {
            smoother.on_step(dy);
        }
        smoother.update(1.0 / rate);
        let after = body.position();
        ticks += 1;
        assert!(
            report.on_floor,
            "{label}: off floor at tick {ticks}, {before} -> {after}, floor normal {}",
            body.contact_state().floor_normal
        );
        largest_drop = largest_drop.max(before.y - after.y);
        assert!(
            before.y - after.y <= max_step + 1e-3,
            "{label}: dropped {} at tick {ticks}",
            before.y - after.y
        );
        assert!(after.z > before.z, "{label}: no progress at tick {ticks}");
        let speed = (after - before).with_y(0.0).length() * rate;
        assert!(
            speed <= 1.05 * 4.0,
            "{label}: {speed} m/s at tick {ticks}, {before} -> {after}"
        );
        assert!(
            body.penetration() < 0.01,
            "{label}: inside geometry at tick {ticks}"
        );
        assert!(
            ticks < 10 * rate as u32,
            "{label}: never reached the bottom"
        );
    }
    assert!(
        body.position().y < 0.01,
        "{label}: ends on the ground, at {}",
        body.position()
    );
    // From z = -4.5 to z = 1 at 4 m/s.
    let ideal = 5.5 / 4.0 * rate;
    assert!(
        (ticks as f32 - ideal).abs() <= 0.05 * ideal,
        "{label}: down in {ticks} ticks, ideal {ideal}"
    );
    eprintln!(
        "{label}: down in {ticks} ticks, largest drop {largest_drop:.3} m, camera offset {:.3} m",
        smoother.offset()
    );
    ticks
}

/// The property tests' configuration: `PROPTEST_CASES` cases (48 unless set), drawn from
/// `seed` unless `PROPTEST_RNG_SEED` picks others, so that `cargo test` checks the same cases
/// on every machine and every run; failures persist in `regressions` (a path from the crate's
/// folder, where cargo runs tests: proptest's own default looks for it elsewhere in a test
/// binary made of several files).
pub fn proptest_config(regressions: &'static str, seed: u64) -> proptest::test_runner::Config {
    use proptest::test_runner::{Config, FileFailurePersistence, RngSeed};
    let defaults = Config::default();
    let rng_seed = match defaults.rng_seed {
        RngSeed::Random => RngSeed::Fixed(seed),
        chosen => chosen,
    };
    let cases = std::env::var("PROPTEST_CASES")
        .ok()
        .and_then(|c| c.parse().ok())
        .unwrap_or(48);
    Config {
        cases,
        failure_persistence: Some(Box::new(FileFailurePersistence::Direct(regressions))),
        rng_seed,
        ..defaults
    }
}
