//! Moving platforms: the body rides a platform exactly once per tick, keeps stepping on it, and
//! leaves it with Godot's `platform_on_leave` (the platform's velocity is kept).

use crate::common::*;
use glam::Vec3;
use kcc::{Controller, KinematicBody, TickInput, TickReport};
use kcc_parry::{ParryBody, PlatformMotion, World, geometry};
use std::sync::Arc;

const RATE: f32 = 60.0;

/// The ground, and a 3 x `height` x 3 m platform whose top centre is at `top` at time 0.
fn platform_world(top: Vec3, height: f32, motion: PlatformMotion) -> Arc<World> {
    let mut world = World::new();
    world.add(ground());
    let center = top - Vec3::Y * (height / 2.0);
    let slab = geometry::aabb_box(center, Vec3::new(3.0, height, 3.0)).unwrap();
    world.add_platform(
        slab,
        PlatformMotion {
            pivot: center,
            ..motion
        },
    );
    Arc::new(world)
}

/// `ticks` ticks with a constant wish from `velocity`, the platforms moving on between ticks as
/// the engine's physics step moves them; returns each tick's report and the body's position.
fn ride(
    controller: &Controller,
    body: &mut ParryBody,
    wish: Vec3,
    first_tick: u32,
    ticks: u32,
) -> Vec<(TickReport, Vec3)> {
    let dt = 1.0 / RATE;
    let mut velocity = Vec3::ZERO;
    (first_tick..first_tick + ticks)
        .map(|tick| {
            let input = TickInput {
                wish_direction: wish,
                jump: false,
                velocity,
                crouch: false,
            };
            let report = controller.tick(body, &input, dt);
            velocity = report.velocity;
            body.set_time(f64::from(tick + 1) / f64::from(RATE));
            (report, body.position())
        })
        .collect()
}

fn sliding(velocity: Vec3) -> PlatformMotion {
    PlatformMotion {
        velocity,
        angular_velocity: 0.0,
        pivot: Vec3::ZERO,
        reverse_every: None,
    }
}

#[test]
fn standing_on_a_moving_platform_rides_it_exactly() {
    let world = platform_world(
        Vec3::new(0.0, 0.5, 0.0),
        0.5,
        sliding(Vec3::new(1.5, 0.0, -0.5)),
    );
    let controller = Controller::new(settings(4.0)).unwrap();
    for shape in [capsule(), cylinder()] {
        let mut body = body(&world, shape, Vec3::new(0.0, 0.52, 0.0));
        body.set_time(0.0);
        let settled = ride(&controller, &mut body, Vec3::ZERO, 0, 10);
        let on_top = settled.last().unwrap().1;
        let trace = ride(&controller, &mut body, Vec3::ZERO, 10, 60);
        for (i, (report, position)) in trace.iter().enumerate() {
            assert!(report.on_floor, "{shape:?} tick {i}: off the platform");
            // The platform has moved (tick + 1) ticks since the body settled.
            let carried = Vec3::new(1.5, 0.0, -0.5) * ((i + 1) as f32 / RATE);
            let drift = (*position - (on_top + carried)).length();
            assert!(
                drift < 0.002,
                "{shape:?} tick {i}: {drift} m from its place"
            );
        }
    }
}

#[test]
fn walking_on_a_moving_platform_adds_the_platforms_velocity() {
    let world = platform_world(
        Vec3::new(0.0, 0.5, 0.0),
        0.5,
        sliding(Vec3::new(1.0, 0.0, 0.0)),
    );
    let controller = Controller::new(settings(2.0)).unwrap();
    let mut body = body(&world, capsule(), Vec3::new(0.0, 0.52, 1.0));
    ride(&controller, &mut body, Vec3::ZERO, 0, 10);
    // Walk toward -Z at 2 m/s for 0.5 s: the platform carries the body +X at 1 m/s meanwhile.
    let before = body.position();
    let trace = ride(&controller, &mut body, Vec3::NEG_Z, 10, 30);
    let after = body.position();
    assert!(trace.iter().all(|(r, _)| r.on_floor));
    assert!(
        (after.x - before.x - 0.5).abs() < 0.01,
        "{before} -> {after}"
    );
    assert!(after.z < before.z - 0.7, "walked only to {after}");
    // The reported velocity is the body's own, as Godot's `velocity`: the platform's is not in it.
    assert!(trace.last().unwrap().0.velocity.x.abs() < 1e-3);
}

#[test]
fn an_elevator_carries_the_body_up_and_down() {
    let lift = PlatformMotion {
        reverse_every: Some(1.5),
        ..sliding(Vec3::new(0.0, 1.0, 0.0))
    };
    let world = platform_world(Vec3::new(0.0, 0.3, 0.0), 0.3, lift);
    let controller = Controller::new(settings(4.0)).unwrap();
    for shape in [capsule(), cylinder()] {
        let mut body = body(&world, shape, Vec3::new(0.0, 0.32, 0.0));
        body.set_time(0.0);
        let trace = ride(&controller, &mut body, Vec3::ZERO, 0, 180);
        let highest = trace.iter().map(|(_, p)| p.y).fold(0.0, f32::max);
        assert!((highest - 1.8).abs() < 0.03, "{shape:?} rose to {highest}");
        let (last, end) = trace.last().unwrap();
        assert!(
            last.on_floor && (end.y - 0.3).abs() < 0.03,
            "{shape:?} ended at {end}"
        );
        // Apart from landing at the start, on the floor every tick, going up and coming down.
        let off = trace[10..].iter().filter(|(r, _)| !r.on_floor).count();
        assert_eq!(off, 0, "{shape:?}");
    }
}

#[test]
fn a_rotating_disc_carries_the_body_around() {
    let turn = 45f32.to_radians();
    let disc = PlatformMotion {
        angular_velocity: turn,
        ..sliding(Vec3::ZERO)
    };
    let world = platform_world(Vec3::new(0.0, 0.2, 0.0), 0.2, disc);
    let controller = Controller::new(settings(4.0)).unwrap();
    let mut body = body(&world, cylinder(), Vec3::new(1.0, 0.22, 0.0));
    ride(&controller, &mut body, Vec3::ZERO, 0, 10);
    let start = body.position();
    let trace = ride(&controller, &mut body, Vec3::ZERO, 10, 120);
    let end = trace.last().unwrap().1;
    // Two seconds at 45 degrees a second: a quarter turn counter-clockwise, on a 1 m radius
    // (Godot carries the body along the rim's velocity, which drifts outward a little).
    let heading = |p: Vec3| (-p.z).atan2(p.x);
    let radius = Vec3::new(end.x, 0.0, end.z).length();
    let turned = heading(end) - heading(start);
    assert!((radius - 1.0).abs() < 0.03, "radius {radius}");
    assert!((turned - 2.0 * turn).abs() < 0.03, "turned {turned} rad");
    assert!(trace.iter().all(|(r, _)| r.on_floor));
}

/// A 0.25 m high platform drifting sideways (+X) at 0.5 m/s, 1 m ahead of a capsule standing
/// still for ten ticks; with `flat_base` as given.
fn before_a_drifting_platform(flat_base: bool) -> (Controller, ParryBody) {
    let world = platform_world(
        Vec3::new(0.0, 0.25, -2.5),
        0.25,
        sliding(Vec3::new(0.5, 0.0, 0.0)),
    );
    let mut settings = settings(3.0);
    settings.stairs.ground_follow = kcc::GroundFollow::Snap {
        flat_base,
        detection: kcc::StepDetection::Contacts,
    };
    let controller = Controller::new(settings).unwrap();
    let mut body = body(&world, capsule(), Vec3::new(0.0, 0.02, 0.0));
    ride(&controller, &mut body, Vec3::ZERO, 0, 10);
    (controller, body)
}

/// Asserts the body stands on the platform, carried sideways while it crossed it.
fn assert_on_the_platform(on_it: Vec3) {
    assert!(
        (on_it.y - 0.25).abs() < 0.02 && on_it.z < -1.3,
        "on the platform at {on_it}"
    );
    assert!(on_it.x > 0.1, "not carried: {on_it}");
}

/// Asserts the walk off the far side ended on the ground beyond, on the floor every tick.
fn assert_down_on_the_ground(down: &[(TickReport, Vec3)]) {
    assert!(down.iter().all(|(r, _)| r.on_floor), "off the floor");
    let end = down.last().unwrap();
    assert!(
        end.0.on_floor && end.1.y.abs() < 0.01 && end.1.z < -4.0,
        "ended at {}",
        end.1
    );
}

#[test]
fn a_rolling_capsule_steps_onto_and_off_a_moving_platform() {
    let (controller, mut body) = before_a_drifting_platform(false);
    let up = ride(&controller, &mut body, Vec3::NEG_Z, 10, 40);
    // The capsule rolls up over the platform's edge: a few small steps onto the edge, then the
    // edge's own slope, walked as floor.
    let steps: Vec<f32> = up.iter().filter_map(|(r, _)| r.stepped).collect();
    assert!(
        (1..=3).contains(&steps.len()) && steps.iter().all(|dy| *dy > 0.0 && *dy < 0.25),
        "stepped {steps:?}"
    );
    let on_it = up.last().unwrap().1;
    assert_on_the_platform(on_it);
    // Keep walking: off the far side, down onto the ground. The capsule rolls over the edge,
    // supported by it, so it goes down the 0.25 m over several ticks, never more than 10 cm in
    // one, and at most the last part is a step.
    let down = ride(&controller, &mut body, Vec3::NEG_Z, 50, 60);
    let steps: Vec<f32> = down.iter().filter_map(|(r, _)| r.stepped).collect();
    assert!(steps.len() <= 1, "stepped {steps:?}");
    let mut before = on_it;
    for (_, after) in &down {
        assert!(before.y - after.y < 0.1, "dropped {before} -> {after}");
        before = *after;
    }
    assert_down_on_the_ground(&down);
}

#[test]
fn a_flat_base_steps_onto_and_off_a_moving_platform_once_each_way() {
    let (controller, mut body) = before_a_drifting_platform(true);
    // With the flat base (the default), the capsule stands on the platform's edges as a flat
    // bottom would: the 0.25 m is one step up and one step down, each within 2 cm of it.
    let up = ride(&controller, &mut body, Vec3::NEG_Z, 10, 40);
    let steps: Vec<f32> = up.iter().filter_map(|(r, _)| r.stepped).collect();
    assert!(
        steps.len() == 1 && (steps[0] - 0.25).abs() < 0.02,
        "stepped {steps:?}"
    );
    assert!(up.iter().all(|(r, _)| r.on_floor), "off the floor going up");
    assert_on_the_platform(up.last().unwrap().1);
    let down = ride(&controller, &mut body, Vec3::NEG_Z, 50, 60);
    let steps: Vec<f32> = down.iter().filter_map(|(r, _)| r.stepped).collect();
    assert!(
        steps.len() == 1 && (steps[0] + 0.25).abs() < 0.02,
        "stepped {steps:?}"
    );
    assert_down_on_the_ground(&down);
}
