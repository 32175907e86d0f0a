//! Climbing straight stairs: the Jolt "walk stairs" test and its variants.

use crate::common::*;
use glam::Vec3;
use kcc::{Controller, KinematicBody};

/// 10 steps of 0.3 m rise and 0.3 m run, 4 m wide, starting 1 m ahead of the body along -Z.
fn jolt_stairs() -> std::sync::Arc<kcc_parry::World> {
    rounded_jolt_stairs(0.0)
}

/// [`jolt_stairs`] with every step given Godot's shape `margin` (m): Jolt rounds their edges.
fn rounded_jolt_stairs(margin: f32) -> std::sync::Arc<kcc_parry::World> {
    let steps =
        kcc_parry::geometry::stairs(Vec3::new(0.0, 0.0, -1.0), Vec3::NEG_Z, 10, 0.3, 0.3, 4.0)
            .unwrap();
    world(
        steps
            .into_iter()
            .map(|step| step.with_margin(margin).unwrap())
            .collect(),
    )
}

#[test]
fn climbs_jolt_stairs_at_every_rate() {
    let world = jolt_stairs();
    let cube = kcc_parry::CharacterShape::Box {
        size: Vec3::new(0.7, 1.8, 0.7),
    };
    for shape in [capsule(), cylinder(), cube] {
        for rate in [60.0, 120.0, 240.0, 360.0] {
            climb_jolt_stairs(&world, shape, rate, &format!("{shape:?} {rate} Hz"));
        }
    }
}

#[test]
fn without_step_up_stops_at_first_riser() {
    let world = jolt_stairs();
    let mut s = settings(4.0);
    s.stairs.step_up_enabled = false;
    let controller = Controller::new(s).unwrap();
    let mut body = body(&world, capsule(), Vec3::ZERO);
    settle(&controller, &mut body, 60.0);
    let trace = walk(&controller, &mut body, Vec3::NEG_Z, 60.0, 120);
    let end = trace.last().unwrap().after;
    assert!(end.y < 0.01, "climbed to {end}");
    // The capsule's front (radius 0.4) stops at the riser at z = -1.
    assert!((end.z - (-0.6)).abs() < 0.02, "stopped at {end}");
}

#[test]
fn a_flat_base_climb_is_put_down_on_the_edge_in_one_probe() {
    // With the flat base (the default), the tick that climbs a riser lifts the capsule clear,
    // slides it on and puts it down held on the step's edge with one probe, where the step
    // down and the hold after it took five; a capsule held on the last step's edge probes for
    // the next riser before its slide, which then runs only once. At most 10 motion queries
    // on a step tick (each slide iteration counts): from level floor a slide of two
    // iterations, the climb's five sweeps, the lift's slide of two and the probe down; held,
    // the probe under the body instead of the first slide. Rolling (the flat base off) a step
    // tick costs more. A cylinder at 144 and 240 Hz, whose level landing lies beyond its
    // tick's motion, floats at the tread's height with no probe down and no step down. One
    // `stepped` per riser, 0.3 m within 2 cm, up the 10 risers.
    // Godot's default shape margin: Jolt's rounded step edges.
    let world = rounded_jolt_stairs(0.04);
    let most = |shape, flat_base: bool, rate: f32| {
        let mut s = settings(4.0);
        s.stairs.flat_base = flat_base;
        let controller = Controller::new(s).unwrap();
        let mut body = body(&world, shape, Vec3::ZERO);
        settle(&controller, &mut body, rate);
        let mut velocity = Vec3::ZERO;
        let mut steps = Vec::new();
        let mut top = 0.0f32;
        // The stairs end at z = -4 with no landing: stop on the top step.
        while body.position().z > -3.8 {
            let before = body.queries();
            let input = kcc::TickInput {
                wish_direction: Vec3::NEG_Z,
                velocity,
                ..kcc::TickInput::default()
            };
            let report = controller.tick(&mut body, &input, 1.0 / rate);
            velocity = report.velocity;
            if let Some(dy) = report.stepped {
                steps.push((dy, body.queries() - before));
            }
            top = top.max(body.position().y);
            assert!(!flat_base || steps.len() <= 10, "{rate} Hz: {steps:?}");
        }
        assert!(top > 2.99, "{rate} Hz: at {}", body.position());
        steps
    };
    for shape in [capsule(), cylinder()] {
        for rate in [60.0, 144.0, 240.0] {
            let steps = most(shape, true, rate);
            assert_eq!(steps.len(), 10, "{shape:?} {rate} Hz: {steps:?}");
            assert!(steps.iter().all(|(dy, _)| (dy - 0.3).abs() < 0.02));
            let cost = steps.iter().map(|(_, q)| *q).max().unwrap();
            assert!(cost <= 10, "{shape:?} {rate} Hz: {steps:?}");
            if shape == capsule() {
                let rolling = most(shape, false, rate);
                let rolling_cost = rolling.iter().map(|(_, q)| *q).max().unwrap();
                assert!(rolling_cost > cost, "{rate} Hz: {rolling:?}");
            }
        }
    }
}

#[test]
fn a_slow_cylinder_climbs_at_its_own_speed_over_the_rounded_edges() {
    // A flat bottom walking 0.5 m/s at 144 and 240 Hz (2 to 3.5 mm a tick) up Jolt's stairs
    // with Godot's default margin (rounded step edges): each step tick lifts it to the tread's
    // height and moves it by its own motion, and the tread holds it there, floating over the
    // rounding of the edge, until it is under its bottom. Before, a step tick put it 2 cm (the
    // minimum forward step) past the riser: up to 9 times its speed.
    let world = rounded_jolt_stairs(0.04);
    let speed = 0.5;
    for rate in [144.0, 240.0] {
        let controller = Controller::new(settings(speed)).unwrap();
        let mut body = body(&world, cylinder(), Vec3::ZERO);
        settle(&controller, &mut body, rate);
        // 1.2 s to the first riser (0.6 m), then a riser every 0.6 s: 5 in 4 s.
        let ticks = (4.0 * rate) as u32;
        let trace = walk(&controller, &mut body, Vec3::NEG_Z, rate, ticks);
        let after_attack = (0.5 * rate) as usize;
        for (i, tick) in trace.iter().enumerate() {
            let label = format!("{rate} Hz, tick {i}: {tick:?}");
            assert!(tick.report.on_floor, "{label}");
            let moved = Vec3::new(
                tick.after.x - tick.before.x,
                0.0,
                tick.after.z - tick.before.z,
            );
            let ratio = moved.length() * rate / speed;
            if i >= after_attack {
                assert!((0.9..=1.05).contains(&ratio), "ratio {ratio}: {label}");
            }
            // On a tread or floating at its height: never resting lower, on an edge's rounding.
            let tread = (tick.after.y / 0.3).round() * 0.3;
            assert!((tick.after.y - tread).abs() < 0.003, "{label}");
        }
        let steps: Vec<f32> = trace.iter().filter_map(|t| t.report.stepped).collect();
        assert_eq!(steps.len(), 5, "{rate} Hz: {steps:?}");
        assert!(steps.iter().all(|dy| (dy - 0.3).abs() < 0.02), "{steps:?}");
    }
}

#[test]
fn a_cylinder_on_stairs_at_80_degrees_floats_over_the_rounded_edges() {
    // Five steps of 0.2 m x 0.3 m, 30 m wide, with Godot's default margin (rounded step edges),
    // walked at 4 m/s at 80 degrees from their direction: the look along a motion nearly
    // parallel to the riser reaches only onto the rounding of the step's edge. The climb lifts
    // the cylinder to the tread's height, and the tread holds it there, floating over the
    // rounding, until its flat bottom is over the tread: it never rests on the rounding, where
    // Jolt's recovery sank it 3.5 to 4.3 mm into the step at 144 and 240 Hz. One `stepped` of
    // the riser's height per step.
    // The steps, and the landing 1 m high behind them (as `stairs_angle_80_cylinder`).
    let mut solids =
        kcc_parry::geometry::stairs(Vec3::new(0.0, 0.0, -1.0), Vec3::NEG_Z, 5, 0.2, 0.3, 30.0)
            .unwrap();
    let landing = Vec3::new(30.0, 1.0, 3.0);
    solids.push(kcc_parry::geometry::aabb_box(Vec3::new(0.0, 0.5, -4.0), landing).unwrap());
    let world = world(
        solids
            .into_iter()
            .map(|solid| solid.with_margin(0.04).unwrap())
            .collect(),
    );
    let angle = 80f32.to_radians();
    let wish = Vec3::new(angle.sin(), 0.0, -angle.cos());
    for rate in [60.0, 144.0, 240.0] {
        let controller = Controller::new(settings(4.0)).unwrap();
        let mut body = body(&world, cylinder(), Vec3::new(-8.79, 0.0, 0.0));
        settle(&controller, &mut body, rate);
        let ticks = (4.6 * rate) as u32;
        let trace = walk(&controller, &mut body, wish, rate, ticks);
        for (i, tick) in trace.iter().enumerate() {
            let label = format!("{rate} Hz, tick {i}: {tick:?}");
            assert!(tick.report.on_floor, "{label}");
            // On a tread or floating at its height: never lower, on an edge's rounding.
            let tread = (tick.after.y / 0.2).round() * 0.2;
            assert!((tick.after.y - tread).abs() < 0.003, "{label}");
        }
        let steps: Vec<f32> = trace.iter().filter_map(|t| t.report.stepped).collect();
        assert_eq!(steps.len(), 5, "{rate} Hz: {steps:?}");
        assert!(steps.iter().all(|dy| (dy - 0.2).abs() < 0.02), "{steps:?}");
    }
}
