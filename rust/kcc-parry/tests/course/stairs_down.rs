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

/// At 20 Hz a walk of 4 to 5 m/s covers two thirds of a 0.3 m tread a tick: the body held on
/// one step's edge is carried past the middle of the next step, whose edge its round rim meets
/// only further down than the step's height. The step down reaches for it (and the flat base's
/// hold from there), so the body goes down every riser: on the floor every tick, one `stepped`
/// of 0.3 m per riser.
#[test]
fn a_long_tick_down_the_stairs_meets_the_next_steps_edge() {
    let world = stairs_world();
    for shape in [capsule(), cylinder()] {
        for (rate, speed) in [(20.0, 4.0), (20.0, 5.0), (24.0, 5.0), (16.0, 4.0)] {
            let label = format!("{shape:?} {rate} Hz {speed} m/s");
            let controller = Controller::new(settings(speed)).unwrap();
            let mut body = body(&world, shape, Vec3::new(0.0, JOLT_STAIRS_TOP, -4.5));
            settle(&controller, &mut body, rate);
            let trace = walk(&controller, &mut body, Vec3::Z, rate, (2.0 * rate) as u32);
            assert_eq!(ticks_off_floor(&trace), 0, "{label}");
            let steps: Vec<f32> = trace.iter().filter_map(|t| t.report.stepped).collect();
            let per_tick = speed / rate;
            if per_tick < 0.3 {
                assert_eq!(steps.len(), 10, "{label}: {steps:?}");
                for dy in &steps {
                    assert!((dy + 0.3).abs() < 0.02, "{label}: {steps:?}");
                }
            }
            let total: f32 = steps.iter().sum();
            assert!((total + 3.0).abs() < 0.03, "{label}: {steps:?}");
            assert!(
                body.position().y < 0.01,
                "{label}: ends at {}",
                body.position()
            );
        }
    }
}
