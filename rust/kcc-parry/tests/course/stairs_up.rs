//! Climbing straight stairs: the Jolt "walk stairs" test and its variants.

use crate::common::*;
use glam::Vec3;
use kcc::Controller;

/// 10 steps of 0.3 m rise and 0.3 m run, 4 m wide, starting 1 m ahead of the body along -Z.
fn jolt_stairs() -> std::sync::Arc<kcc_parry::World> {
    let steps =
        kcc_parry::geometry::stairs(Vec3::new(0.0, 0.0, -1.0), Vec3::NEG_Z, 10, 0.3, 0.3, 4.0)
            .unwrap();
    world(steps)
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
