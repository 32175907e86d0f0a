//! The headless body's `test_move` and `move_and_slide` against Godot's documented semantics.

use crate::common::*;
use glam::Vec3;
use kcc::{Controller, KinematicBody, TickInput};
use kcc_parry::geometry;

fn box_world() -> std::sync::Arc<kcc_parry::World> {
    // A 1 m cube whose near face is at z = -2.
    world(vec![
        geometry::aabb_box(Vec3::new(0.0, 0.5, -2.5), Vec3::ONE).unwrap(),
    ])
}

#[test]
fn travel_and_remainder_against_a_box() {
    let world = box_world();
    let mut body = body(&world, cylinder(), Vec3::new(0.0, 0.01, 0.0));
    // The cylinder (radius 0.4) first touches the cube's face at z = -2 after 1.6 m of the 3 m
    // motion: fraction 0.5333. Jolt's binary search takes int(log2(3000)) = 11 steps: 0.5
    // misses, then 0.75, 0.625 and 0.5625 touch, 0.53125 misses, 0.546875, 0.5390625 and
    // 0.53515625 touch, 0.533203125 misses, 0.5341796875 and 0.53369140625 touch.
    let test = body.test_move(Vec3::new(0.0, 0.01, 0.0), Vec3::new(0.0, 0.0, -3.0));
    let contact = test.contact.expect("the cube is hit");
    // Travel: the motion times the safe fraction 0.533203125, 0.39 mm short of the touch.
    assert_eq!(test.travel, Vec3::new(0.0, 0.0, -3.0 * 0.533_203_1));
    assert_eq!(
        test.remainder,
        Vec3::new(0.0, 0.0, -3.0 + 3.0 * 0.533_203_1)
    );
    assert!((test.travel.z - (-1.6)).abs() < 3.0 / 2048.0);
    assert!(
        (contact.normal - Vec3::Z).length() < 1e-6,
        "normal {}",
        contact.normal
    );
    assert!((contact.point.z - (-2.0)).abs() < 1e-5);
    // Contacts are gathered at the unsafe fraction 0.53369140625, where the cylinder is
    // 3 x 0.53369140625 - 1.6 = 1.07 mm inside the face: depth = that + the safe margin.
    let overlap = 3.0 * 0.533_691_4 - 1.6;
    assert!(
        (contact.depth - (body.safe_margin() + overlap)).abs() < 1e-6,
        "depth {}",
        contact.depth
    );
    // The body itself did not move.
    assert_eq!(body.position(), Vec3::new(0.0, 0.01, 0.0));

    // A free motion travels all the way and leaves no remainder.
    let free = body.test_move(Vec3::new(0.0, 0.01, 0.0), Vec3::new(0.0, 0.0, 1.0));
    assert!(free.contact.is_none());
    assert_eq!(free.remainder, Vec3::ZERO);
    assert!((free.travel - Vec3::new(0.0, 0.0, 1.0)).length() < 1e-6);

    // Sliding along the floor does not report the floor (it does not oppose the motion).
    let along = body.test_move(Vec3::new(0.0, 0.0005, 0.0), Vec3::new(1.0, 0.0, 0.0));
    assert!(along.contact.is_none(), "{along:?}");
}

#[test]
fn a_start_inside_a_box_is_recovered() {
    let world = box_world();
    // 2 cm inside the cube's near face.
    let start = Vec3::new(0.0, 0.01, -1.62);
    let mut body = body(&world, cylinder(), start);
    assert!(body.penetration() > 0.019);
    let test = body.test_move(start, Vec3::ZERO);
    // Recovery pushes out along the face normal (+Z): 4 passes of 40 % of (depth + margin).
    let expected = (0.02 + 0.001) * (1.0 - 0.6f32.powi(4));
    assert!(
        test.travel.z > 0.0 && (test.travel.z - expected).abs() < 1e-3,
        "travel {}",
        test.travel
    );
    assert!(test.travel.x.abs() < 1e-4 && test.travel.y.abs() < 1e-4);
    // Moving away from the box is allowed: the overlap does not block an exit.
    let out = body.test_move(start, Vec3::new(0.0, 0.0, 0.5));
    assert!(out.contact.is_none());
    // A few slides push the body fully out.
    for _ in 0..10 {
        body.move_and_slide(Vec3::ZERO, 1.0 / 60.0);
    }
    assert!(
        body.penetration() < 1e-4,
        "still {} inside",
        body.penetration()
    );
}

#[test]
fn move_and_slide_keeps_the_floor_and_stops_on_slopes() {
    let ramp = geometry::ramp(
        Vec3::new(0.0, 0.0, 0.0),
        Vec3::NEG_Z,
        30f32.to_radians(),
        6.0,
        4.0,
    )
    .unwrap();
    let world = world(vec![ramp]);
    let mut body = body(&world, capsule(), Vec3::new(0.0, 1.5, -3.0));
    // Fall onto the ramp, then stand still on it: stop on slope keeps it in place.
    for _ in 0..60 {
        body.move_and_slide(Vec3::new(0.0, -5.0, 0.0), 1.0 / 60.0);
    }
    assert!(body.is_on_floor());
    let normal = body.floor_normal();
    assert!(
        (normal.y - 30f32.to_radians().cos()).abs() < 0.01,
        "floor normal {normal}"
    );
    let resting = body.position();
    for _ in 0..60 {
        let v = body.move_and_slide(Vec3::new(0.0, -0.2, 0.0), 1.0 / 60.0);
        assert_eq!(v, Vec3::ZERO);
    }
    assert!(
        (body.position() - resting).length() < 1e-3,
        "slid from {resting} to {}",
        body.position()
    );
}

#[test]
fn a_jump_is_not_snapped_back_and_lands_again() {
    let world = world(vec![]);
    let controller = Controller::new(settings(4.0)).unwrap();
    let mut body = body(&world, capsule(), Vec3::ZERO);
    let mut velocity = settle(&controller, &mut body, 60.0);
    let jump = controller.tick(
        &mut body,
        &TickInput {
            wish_direction: Vec3::ZERO,
            jump: true,
            velocity,
            crouch: false,
        },
        1.0 / 60.0,
    );
    assert!(jump.jumped && jump.left_floor() && !jump.on_floor);
    assert!(
        body.position().y > 0.05,
        "the jump was snapped back: {}",
        body.position()
    );
    velocity = jump.velocity;
    let mut landed = None;
    let mut peak = 0.0f32;
    for tick in 0..120 {
        let report = controller.tick(
            &mut body,
            &TickInput {
                wish_direction: Vec3::ZERO,
                jump: false,
                velocity,
                crouch: false,
            },
            1.0 / 60.0,
        );
        velocity = report.velocity;
        peak = peak.max(body.position().y);
        if report.landed() {
            landed = Some(tick);
            break;
        }
    }
    // v^2 / 2g = 4.5^2 / 19.6 = 1.03 m.
    assert!((peak - 1.03).abs() < 0.05, "peak {peak}");
    let tick = landed.expect("never landed");
    assert!((50..=60).contains(&tick), "landed after {tick} ticks");
    assert!(body.position().y.abs() < 0.01);
}

#[test]
fn a_body_exactly_touching_a_floor_is_never_pushed_into_it() {
    // At an exact touch distance queries return arbitrary normals (for a 40 m box: "2.8 m deep,
    // out through the far side"); the world must not trust them.
    for size in [2.0f32, 20.0, 40.0, 60.0, 200.0] {
        let floor =
            geometry::aabb_box(Vec3::new(0.0, -0.5, 0.0), Vec3::new(size, 1.0, size)).unwrap();
        let world = std::sync::Arc::new({
            let mut w = kcc_parry::World::new();
            w.add(floor);
            w
        });
        for shape in [capsule(), cylinder()] {
            let mut body = body(&world, shape, Vec3::ZERO);
            for motion in [
                Vec3::new(0.0, 0.0, -0.05),
                Vec3::new(0.0, -0.05, 0.0),
                Vec3::ZERO,
            ] {
                let test = body.test_move(Vec3::ZERO, motion);
                assert!(
                    test.travel.y > -1e-4,
                    "{size} m floor, {shape:?}, {motion}: {:?}",
                    test.travel
                );
                assert!(
                    test.travel.y < 0.002,
                    "{size} m floor: pushed up by {}",
                    test.travel.y
                );
            }
        }
    }
}
