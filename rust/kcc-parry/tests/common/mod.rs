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
