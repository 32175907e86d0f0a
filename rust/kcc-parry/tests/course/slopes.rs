//! Ramps, a spiral staircase and slow walking at a high tick rate.

use crate::common::*;
use glam::Vec3;
use kcc::{Controller, KinematicBody, TickInput};
use kcc_parry::geometry;

#[test]
fn slow_walk_climbs_small_steps_at_240_hz() {
    let mut solids =
        geometry::stairs(Vec3::new(0.0, 0.0, -0.6), Vec3::NEG_Z, 5, 0.2, 0.3, 4.0).unwrap();
    // A landing at the top, 1 m high.
    solids.push(geometry::aabb_box(Vec3::new(0.0, 0.5, -4.1), Vec3::new(4.0, 1.0, 4.0)).unwrap());
    let world = world(solids);
    for shape in [capsule(), cylinder()] {
        let controller = Controller::new(settings(0.5)).unwrap();
        let mut body = body(&world, shape, Vec3::ZERO);
        settle(&controller, &mut body, 240.0);
        let trace = walk(&controller, &mut body, Vec3::NEG_Z, 240.0, 240 * 8);
        let top = trace.iter().map(|t| t.after.y).fold(0.0, f32::max);
        assert!(top > 0.99, "{shape:?} reached only {top} m");
        let after_start = &trace[60..];
        assert!(
            after_start.iter().all(|t| t.report.on_floor),
            "{shape:?} left the floor"
        );
    }
}

#[test]
fn spiral_staircase_of_16_steps_is_climbed() {
    let center = Vec3::new(0.0, 0.0, 0.0);
    // 16 steps of 20 degrees leave a gap of 40 degrees to start in.
    let world =
        world(geometry::spiral_stairs(center, 0.5, 2.5, 16, 0.2, 20f32.to_radians()).unwrap());
    let controller = Controller::new(settings(3.0)).unwrap();
    // Start just before the first step (angle 0 is +X), on the walking line at radius 1.5 m,
    // and walk along the circle counter-clockwise (seen from above).
    let radius = 1.5;
    let start = Vec3::new(
        radius * 22f32.to_radians().cos(),
        0.0,
        radius * 22f32.to_radians().sin(),
    );
    let mut body = body(&world, cylinder(), start);
    settle(&controller, &mut body, 60.0);
    let mut velocity = Vec3::ZERO;
    let mut steps = Vec::new();
    for tick in 0..60 * 20 {
        let p = body.position();
        let angle = (-p.z).atan2(p.x);
        // Tangent of the counter-clockwise circle, pulled back toward the walking line.
        let tangent = Vec3::new(-angle.sin(), 0.0, -angle.cos());
        let here = Vec3::new(p.x, 0.0, p.z);
        let pull = here.normalize() * (radius - here.length());
        let wish = (tangent + pull).normalize();
        let report = controller.tick(
            &mut body,
            &TickInput {
                wish_direction: wish,
                jump: false,
                velocity,
                crouch: false,
            },
            1.0 / 60.0,
        );
        velocity = report.velocity;
        steps.extend(report.stepped);
        assert!(
            body.penetration() < 0.002,
            "inside a step at {}",
            body.position()
        );
        if body.position().y > 3.19 {
            // On the top tread after one step per riser (the cylinder's flat base), each 0.2 m.
            assert_eq!(steps.len(), 16, "{steps:?}");
            assert!(steps.iter().all(|dy| (dy - 0.2).abs() < 0.02), "{steps:?}");
            // At the walk's pace: the top riser is at 300 degrees, and the cylinder (0.4 m,
            // 15.3 degrees of the 1.5 m walking line) meets it with its centre at 284.7: from
            // the start at -22 degrees that is 5.35 rad of the line, 8.03 m, which 3 m/s (and
            // the 5 % the course allows above it) cannot walk in less than 2.55 s.
            let seconds = (tick + 1) as f32 / 60.0;
            assert!(seconds >= 8.03 / (3.0 * 1.05), "on top after {seconds} s");
            return;
        }
    }
    panic!("spiral not climbed: ended at {}", body.position());
}

/// A 6 m ramp at `degrees` going up along -Z from z = -1, 4 m wide, with a flat top.
fn ramp_world(degrees: f32) -> (std::sync::Arc<kcc_parry::World>, f32) {
    let angle = degrees.to_radians();
    let length = 6.0;
    let run = length * angle.cos();
    let height = length * angle.sin();
    let ramp = geometry::ramp(Vec3::new(0.0, 0.0, -1.0), Vec3::NEG_Z, angle, length, 4.0).unwrap();
    let top = geometry::aabb_box(
        Vec3::new(0.0, height * 0.5, -1.0 - run - 2.0),
        Vec3::new(4.0, height, 4.0),
    )
    .unwrap();
    (world(vec![ramp, top]), height)
}

#[test]
fn ramp_of_30_degrees_is_walked_up_and_down() {
    let (world, height) = ramp_world(30.0);
    let controller = Controller::new(settings(4.0)).unwrap();
    let mut body = body(&world, capsule(), Vec3::ZERO);
    settle(&controller, &mut body, 60.0);
    // 140 ticks at 4 m/s (the horizontal speed is kept on the ramp): on the flat top.
    let trace = walk(&controller, &mut body, Vec3::NEG_Z, 60.0, 140);
    assert!(
        body.position().y > height - 0.01,
        "went up to {}",
        body.position()
    );
    assert!(
        trace.iter().all(|t| t.report.on_floor),
        "left the ramp going up"
    );
    // No stair steps on a smooth ramp: the camera is not jolted.
    assert!(trace.iter().all(|t| t.report.stepped.is_none()));

    // Down at 10 m/s without leaving the floor.
    let controller = Controller::new(settings(10.0)).unwrap();
    let trace = {
        let mut velocity = Vec3::new(0.0, 0.0, 10.0);
        let mut out = Vec::new();
        while body.position().z < 0.5 {
            let report = controller.tick(
                &mut body,
                &TickInput {
                    wish_direction: Vec3::Z,
                    jump: false,
                    velocity,
                    crouch: false,
                },
                1.0 / 60.0,
            );
            velocity = report.velocity;
            out.push(report);
            assert!(out.len() < 600);
        }
        out
    };
    assert!(
        trace.iter().all(|r| r.on_floor),
        "left the floor going down"
    );
    assert!(
        trace.iter().all(|r| r.stepped.is_none()),
        "a ramp is not a step"
    );
    assert!(body.position().y < 0.01);
}

#[test]
fn ramp_of_60_degrees_is_not_walkable() {
    let (world, _) = ramp_world(60.0);
    for shape in [capsule(), cylinder()] {
        let controller = Controller::new(settings(4.0)).unwrap();
        let mut body = body(&world, shape, Vec3::ZERO);
        settle(&controller, &mut body, 60.0);
        // 140 ticks at 4 m/s (the horizontal speed is kept on the ramp): on the flat top.
        let trace = walk(&controller, &mut body, Vec3::NEG_Z, 60.0, 140);
        let top = trace.iter().map(|t| t.after.y).fold(0.0, f32::max);
        assert!(top < 0.45, "{shape:?} went up the 60 degree ramp to {top}");
        let end = body.position();
        assert!(end.y < 0.05, "{shape:?} ended on the ramp at {end}");
        // It got to the ramp: it stands against its foot (within a centimetre).
        let ahead = body.test_move(end, Vec3::NEG_Z);
        assert!(
            ahead.collided() && ahead.travel.dot(Vec3::NEG_Z) < 0.01,
            "{shape:?} stopped short of the ramp: {end}, {ahead:?}"
        );
    }
}

#[test]
fn a_tick_reports_its_real_velocity_along_the_slope() {
    // A 30 degree ramp from z = -1 up toward -Z.
    let ramp = geometry::ramp(
        Vec3::new(0.0, 0.0, -1.0),
        Vec3::NEG_Z,
        30f32.to_radians(),
        6.0,
        4.0,
    )
    .unwrap();
    let world = world(vec![ramp]);
    let controller = Controller::new(settings(3.0)).unwrap();
    let mut body = body(&world, capsule(), Vec3::ZERO);
    settle(&controller, &mut body, 60.0);
    let trace = walk(&controller, &mut body, Vec3::NEG_Z, 60.0, 90);
    let mut on_ramp = 0;
    for tick in &trace {
        let report = &tick.report;
        let moved = (tick.after - tick.before) * 60.0;
        assert!((report.real_velocity - moved).length() < 1e-3, "{report:?}");
        // The body's own velocity stays horizontal, as Godot's; the real one climbs.
        assert!(report.velocity.y.abs() < 1e-4);
        if report.stepped.is_none() && report.real_velocity.y > 0.5 {
            on_ramp += 1;
        }
    }
    assert!(on_ramp > 30, "climbed on {on_ramp} ticks");
    // Nothing moves on an unusable delta: no real velocity either.
    let report = controller.tick(&mut body, &TickInput::default(), 0.0);
    assert_eq!(report.real_velocity, Vec3::ZERO);
}

/// Horizontal speeds (m/s) of the ticks a body walking at 4 m/s spends wholly on the ramp of
/// `world` (its foot at z = -1, its crest at z = -1 - `run`), going up and then down.
fn speeds_on_ramp(
    world: &std::sync::Arc<kcc_parry::World>,
    run: f32,
    shape: kcc_parry::CharacterShape,
    constant: bool,
) -> (Vec<f32>, Vec<f32>) {
    let mut settings = settings(4.0);
    settings.movement.constant_horizontal_speed = constant;
    let controller = Controller::new(settings).unwrap();
    let mut body = body(world, shape, Vec3::ZERO);
    settle(&controller, &mut body, 60.0);
    let on_ramp = |t: &Tick| t.before.z < -1.2 && t.after.z > -1.0 - run + 0.2;
    let speed = |t: &Tick| (t.after - t.before).with_y(0.0).length() * 60.0;
    let up = walk(&controller, &mut body, Vec3::NEG_Z, 60.0, 120);
    assert!(
        up.iter().all(|t| t.report.on_floor),
        "{shape:?}: off the ramp going up"
    );
    let down = walk(&controller, &mut body, Vec3::Z, 60.0, 150);
    assert!(
        down.iter().all(|t| t.report.on_floor),
        "{shape:?}: off the ramp going down"
    );
    let steady = |trace: &[Tick]| -> Vec<f32> {
        // After the attack time (0.2 s) and the first tick on the ramp (the slide meets its foot).
        trace[15..]
            .iter()
            .filter(|t| on_ramp(t))
            .skip(1)
            .map(speed)
            .collect()
    };
    (steady(&up), steady(&down))
}

#[test]
fn constant_horizontal_speed_keeps_the_walk_on_ramps() {
    for degrees in [15.0f32, 30.0, 44.0] {
        let (world, _) = ramp_world(degrees);
        let run = 6.0 * degrees.to_radians().cos();
        for shape in [capsule(), cylinder()] {
            let (up, down) = speeds_on_ramp(&world, run, shape, true);
            assert!(
                up.len() > 10 && down.len() > 10,
                "{degrees}: {up:?} {down:?}"
            );
            for speed in up.iter().chain(&down) {
                assert!(
                    (speed - 4.0).abs() < 0.04 * 4.0,
                    "{degrees} degrees, {shape:?}: {speed} m/s (up {up:?}, down {down:?})"
                );
            }
        }
        // Off, Godot's slide walks slower up the slope.
        let (up, _) = speeds_on_ramp(&world, run, capsule(), false);
        let slowest = up.iter().copied().fold(f32::INFINITY, f32::min);
        let slower = 4.0 * degrees.to_radians().cos();
        assert!(
            slowest < slower + 0.05,
            "{degrees}: off walks up at {slowest}"
        );
    }
}
