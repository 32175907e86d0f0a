//! Climbing straight stairs: the Jolt "walk stairs" test and its variants.

mod common;

use common::*;
use glam::Vec3;
use kcc::{Controller, KinematicBody};

/// 10 steps of 0.3 m rise and 0.3 m run, 4 m wide, starting 1 m ahead of the body along -Z.
fn jolt_stairs() -> std::sync::Arc<kcc_parry::World> {
    let steps =
        kcc_parry::geometry::stairs(Vec3::new(0.0, 0.0, -1.0), Vec3::NEG_Z, 10, 0.3, 0.3, 4.0)
            .unwrap();
    world(steps)
}

const TOP: f32 = 3.0;

#[test]
fn climbs_jolt_stairs_at_every_rate() {
    let world = jolt_stairs();
    let cube = kcc_parry::CharacterShape::Box {
        size: Vec3::new(0.7, 1.8, 0.7),
    };
    for shape in [capsule(), cylinder(), cube] {
        for rate in [60.0, 120.0, 240.0, 360.0] {
            let controller = Controller::new(settings(4.0)).unwrap();
            let mut body = body(&world, shape, Vec3::ZERO);
            let mut velocity = settle(&controller, &mut body, rate);
            // Start at full speed so the ideal time is distance / speed.
            velocity = Vec3::new(0.0, velocity.y, -4.0);
            let mut tick = 0u32;
            let mut drift = 0.0f32;
            let mut reached = None;
            while tick < (rate * 5.0) as u32 {
                let before = body.position();
                let input = kcc::TickInput {
                    wish_direction: Vec3::NEG_Z,
                    jump: false,
                    velocity,
                };
                let report = controller.tick(&mut body, &input, 1.0 / rate);
                velocity = report.velocity;
                tick += 1;
                let after = body.position();
                drift = drift.max(after.x.abs());
                assert!(
                    report.on_floor,
                    "{shape:?} {rate} Hz: off floor at tick {tick}, {after}"
                );
                assert!(
                    after.z < before.z,
                    "{shape:?} {rate} Hz: no progress at tick {tick}: {before} -> {after}"
                );
                assert!(
                    body.penetration() < 0.01,
                    "{shape:?} {rate} Hz: inside geometry"
                );
                if after.y > TOP - 0.01 && reached.is_none() {
                    reached = Some(tick);
                    break;
                }
            }
            let ticks = reached.unwrap_or_else(|| {
                panic!(
                    "{shape:?} {rate} Hz: never reached the top, at {}",
                    body.position()
                )
            });
            // The top tread starts 1 m + 9 runs ahead of the start.
            let ideal = (1.0 + 9.0 * 0.3) / 4.0;
            let time = ticks as f32 / rate;
            assert!(
                time <= 1.5 * ideal,
                "{shape:?} {rate} Hz: {time} s vs ideal {ideal} s"
            );
            assert!(drift < 0.01, "{shape:?} {rate} Hz: drift {drift}");
            eprintln!(
                "{shape:?} {rate} Hz: top in {time:.3} s (ideal {ideal:.3} s, ratio {:.2}), drift {drift:.5} m",
                time / ideal
            );
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
