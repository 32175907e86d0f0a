//! Fast bodies do not pass through thin geometry: sweeps are continuous.

use std::sync::Arc;

use crate::common::*;
use glam::Vec3;
use kcc::{Controller, KinematicBody, TickInput};
use kcc_parry::{World, geometry};

#[test]
fn fifty_metres_per_second_at_30_hz_stops_at_a_thin_wall() {
    // A wall 0.1 m thick whose near face is at z = -5.
    let wall = geometry::aabb_box(Vec3::new(0.0, 1.5, -5.05), Vec3::new(20.0, 3.0, 0.1)).unwrap();
    let world = world(vec![wall]);
    for shape in [capsule(), cylinder()] {
        let controller = Controller::new(settings(50.0)).unwrap();
        let mut body = body(&world, shape, Vec3::ZERO);
        settle(&controller, &mut body, 30.0);
        // 50 m/s is 1.67 m a tick, far more than the wall is thick.
        let trace = drive(&controller, &mut body, Vec3::new(0.0, 0.0, -50.0), 30.0, 30);
        for t in &trace {
            assert!(
                t.after.z > -5.0 + 0.39,
                "{shape:?} went through the wall: {}",
                t.after
            );
            assert!(t.penetration < 0.002);
        }
    }
}

#[test]
fn falling_at_terminal_speed_lands_on_a_thin_floor() {
    // A platform 0.05 m thick, 30 m below, over nothing.
    let mut world = World::new();
    world.add(
        geometry::aabb_box(Vec3::new(0.0, -30.025, 0.0), Vec3::new(10.0, 0.05, 10.0)).unwrap(),
    );
    let world = Arc::new(world);
    for shape in [capsule(), cylinder()] {
        let controller = Controller::new(settings(4.0)).unwrap();
        let terminal = controller.settings().gravity.terminal_speed;
        let mut body = body(&world, shape, Vec3::ZERO);
        let mut velocity = Vec3::new(0.0, -terminal, 0.0);
        let mut landed = false;
        for _ in 0..120 {
            let input = TickInput {
                wish_direction: Vec3::ZERO,
                jump: false,
                velocity,
                crouch: false,
            };
            let report = controller.tick(&mut body, &input, 1.0 / 30.0);
            velocity = report.velocity;
            assert!(
                body.position().y > -30.0 - 0.01,
                "{shape:?} fell through to {}",
                body.position()
            );
            if report.on_floor {
                landed = true;
                break;
            }
        }
        assert!(landed, "{shape:?} never landed, at {}", body.position());
        assert!((body.position().y + 30.0).abs() < 0.01);
    }
}
