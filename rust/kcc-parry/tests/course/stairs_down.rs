//! Walking down stairs and slopes at full speed: glued to the floor, never a jump larger than
//! a step.

use crate::common::*;
use glam::Vec3;
use kcc::{Controller, KinematicBody};

/// The Jolt stairs (10 x 0.3 x 0.3, 4 m wide) going up along -Z from z = -1.
fn stairs_world() -> std::sync::Arc<kcc_parry::World> {
    let mut solids =
        kcc_parry::geometry::stairs(Vec3::new(0.0, 0.0, -1.0), Vec3::NEG_Z, 10, 0.3, 0.3, 4.0)
            .unwrap();
    // A landing at the top, 3 m high, from z = -4 to -8.
    solids.push(
        kcc_parry::geometry::aabb_box(Vec3::new(0.0, 1.5, -6.0), Vec3::new(4.0, 3.0, 4.0)).unwrap(),
    );
    world(solids)
}

#[test]
fn walks_down_stairs_on_the_floor_every_tick() {
    let world = stairs_world();
    for shape in [capsule(), cylinder()] {
        for rate in [60.0, 120.0, 240.0] {
            descend_jolt_stairs(&world, shape, rate, &format!("{shape:?} {rate} Hz"));
        }
    }
}

#[test]
fn stepped_signal_adds_up_to_the_climb() {
    let world = stairs_world();
    let controller = Controller::new(settings(4.0)).unwrap();
    let mut body = body(&world, cylinder(), Vec3::ZERO);
    settle(&controller, &mut body, 60.0);
    let trace = walk(&controller, &mut body, Vec3::NEG_Z, 60.0, 90);
    let up: f32 = trace
        .iter()
        .filter_map(|t| t.report.stepped)
        .filter(|dy| *dy > 0.0)
        .sum();
    let steps = trace
        .iter()
        .filter(|t| t.report.stepped.is_some_and(|dy| dy > 0.0))
        .count();
    assert!(body.position().y > 2.99, "reached {}", body.position());
    // Every riser is one step of its rise (the cylinder has a flat bottom).
    assert_eq!(steps, 10);
    assert!((up - 3.0).abs() < 0.01, "stepped {up} m in all");
    for t in trace.iter().filter(|t| t.report.stepped.is_some()) {
        assert!(
            (t.report.stepped.unwrap() - 0.3).abs() < 0.005,
            "{:?}",
            t.report.stepped
        );
    }
}
