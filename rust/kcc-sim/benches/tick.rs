//! Criterion benchmarks of the controller's hot paths: one tick on flat ground, one tick that
//! steps up a 0.3 m riser, and the ADSR velocity update. Each prints its motion queries once.
//!
//! `cargo bench -p kcc-sim --features bench --bench tick`

use std::hint::black_box;
use std::sync::Arc;

use criterion::{BatchSize, Criterion, criterion_group, criterion_main};
use glam::Vec3;
use kcc::{Controller, ControllerSettings, KinematicBody, TickInput, movement};
use kcc_parry::{BodySettings, ParryBody, World, geometry};

const DT: f32 = 1.0 / 60.0;
const SPEED: f32 = 4.0;

/// Flat ground 40 m wide with a 0.3 m riser at z = -1 across x in -2..2 when `riser`.
fn world(riser: bool) -> Arc<World> {
    let mut world = World::new();
    world.add(geometry::aabb_box(Vec3::new(0.0, -0.5, 0.0), Vec3::new(40.0, 1.0, 40.0)).unwrap());
    if riser {
        world
            .add(geometry::aabb_box(Vec3::new(0.0, 0.15, -2.0), Vec3::new(4.0, 0.3, 2.0)).unwrap());
    }
    Arc::new(world)
}

/// A capsule standing on the floor at `position`, and the controller.
fn standing(world: Arc<World>, position: Vec3) -> (Controller, ParryBody) {
    let mut settings = ControllerSettings::default();
    settings.movement.ground.max_speed = SPEED;
    let controller = Controller::new(settings).unwrap();
    let mut body =
        ParryBody::new(world, BodySettings::default(), position + Vec3::Y * 0.02).unwrap();
    for _ in 0..10 {
        controller.tick(&mut body, &TickInput::default(), DT);
    }
    assert!(body.is_on_floor());
    body.set_position(position.with_y(body.position().y));
    (controller, body)
}

fn input() -> TickInput {
    TickInput {
        wish_direction: Vec3::NEG_Z,
        jump: false,
        velocity: Vec3::NEG_Z * SPEED,
        crouch: false,
    }
}

fn tick_on_flat_ground(c: &mut Criterion) {
    let (controller, body) = standing(world(false), Vec3::ZERO);
    let mut probe = body.clone();
    let report = controller.tick(&mut probe, &input(), DT);
    assert!(report.on_floor && report.stepped.is_none());
    eprintln!(
        "flat ground tick: {} motion queries",
        probe.queries() - body.queries()
    );
    c.bench_function("tick on flat ground", |b| {
        b.iter_batched_ref(
            || body.clone(),
            |body| controller.tick(body, black_box(&input()), DT),
            BatchSize::SmallInput,
        )
    });
}

fn tick_at_a_step(c: &mut Criterion) {
    // The capsule's front is 5 cm from the riser: this tick's 6.7 cm reach it.
    let (controller, body) = standing(world(true), Vec3::new(0.0, 0.0, -0.55));
    let mut probe = body.clone();
    let report = controller.tick(&mut probe, &input(), DT);
    assert!(report.stepped.is_some_and(|dy| dy > 0.0), "{report:?}");
    eprintln!(
        "step tick: {} motion queries",
        probe.queries() - body.queries()
    );
    c.bench_function("tick at a step", |b| {
        b.iter_batched_ref(
            || body.clone(),
            |body| controller.tick(body, black_box(&input()), DT),
            BatchSize::SmallInput,
        )
    });
}

fn adsr_update(c: &mut Criterion) {
    let curve = ControllerSettings::default().movement.ground;
    c.bench_function("ADSR update", |b| {
        b.iter(|| {
            movement::horizontal_velocity(
                black_box(Vec3::new(1.5, 0.0, -2.0)),
                black_box(Vec3::new(0.6, 0.0, -0.8)),
                &curve,
                DT,
            )
        })
    });
}

criterion_group!(benches, tick_on_flat_ground, tick_at_a_step, adsr_update);
criterion_main!(benches);
