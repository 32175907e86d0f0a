//! Unusable per-tick input is sanitized: the body never moves by a non-finite amount.

use crate::common::*;
use glam::Vec3;
use kcc::{Controller, KinematicBody, TickInput};

fn setup() -> (Controller, kcc_parry::ParryBody) {
    let world = world(vec![]);
    let controller = Controller::new(settings(4.0)).unwrap();
    let mut body = body(&world, capsule(), Vec3::ZERO);
    settle(&controller, &mut body, 60.0);
    (controller, body)
}

#[test]
fn non_finite_wish_direction_counts_as_no_input() {
    let (controller, mut body) = setup();
    for wish in [
        Vec3::NAN,
        Vec3::new(f32::INFINITY, 0.0, 0.0),
        Vec3::new(0.0, 0.0, f32::NEG_INFINITY),
    ] {
        let start = body.position();
        let input = TickInput {
            wish_direction: wish,
            jump: false,
            velocity: Vec3::ZERO,
            crouch: false,
        };
        let report = controller.tick(&mut body, &input, 1.0 / 60.0);
        assert!(report.sanitized.wish_direction);
        assert!(report.velocity.is_finite() && report.velocity.length() < 1e-6);
        assert!((body.position() - start).length() < 1e-3);
    }
}

#[test]
fn non_finite_velocity_is_reset() {
    let (controller, mut body) = setup();
    let input = TickInput {
        wish_direction: Vec3::NEG_Z,
        jump: false,
        velocity: Vec3::new(f32::NAN, 0.0, 1.0),
        crouch: false,
    };
    let report = controller.tick(&mut body, &input, 1.0 / 60.0);
    assert!(report.sanitized.velocity);
    assert!(report.velocity.is_finite() && body.position().is_finite());
    let report = controller.move_and_step(&mut body, Vec3::INFINITY, 1.0 / 60.0);
    assert!(report.sanitized.velocity);
    assert!(body.position().is_finite() && body.position().length() < 0.1);
}

#[test]
fn unusable_delta_moves_nothing() {
    let (controller, mut body) = setup();
    let start = body.position();
    for dt in [0.0, -1.0 / 60.0, f32::NAN, f32::INFINITY, f32::NEG_INFINITY] {
        let input = TickInput {
            wish_direction: Vec3::NEG_Z,
            jump: true,
            velocity: Vec3::new(0.0, 0.0, -4.0),
            crouch: false,
        };
        let report = controller.tick(&mut body, &input, dt);
        assert!(report.sanitized.delta, "{dt}");
        assert_eq!(report.substeps, 0);
        assert!(!report.jumped);
        assert_eq!(body.position(), start, "{dt}");
    }
}

#[test]
fn a_hitch_is_clamped_and_split() {
    let (controller, mut body) = setup();
    let start = body.position();
    // A 2 s freeze: simulated as 0.25 s in sub-steps of at most 0.05 s.
    let report = controller.move_and_step(&mut body, Vec3::new(0.0, 0.0, -4.0), 2.0);
    assert!(report.sanitized.delta_clamped);
    assert_eq!(report.substeps, 5);
    let moved = start.z - body.position().z;
    assert!((moved - 1.0).abs() < 0.01, "moved {moved} m");
    assert!(report.on_floor);
}

#[test]
fn a_body_spawned_inside_geometry_is_pushed_out() {
    // Feet 0.3 m below the top of a 2 m cube, and a body in the middle of a 6 m cube.
    let world = world(vec![
        kcc_parry::geometry::aabb_box(Vec3::new(0.0, 1.0, -5.0), Vec3::splat(2.0)).unwrap(),
        kcc_parry::geometry::aabb_box(Vec3::new(20.0, 3.0, 0.0), Vec3::splat(6.0)).unwrap(),
    ]);
    let controller = Controller::new(settings(4.0)).unwrap();
    for start in [Vec3::new(0.0, 1.7, -5.0), Vec3::new(20.0, 2.0, 0.0)] {
        let mut body = body(&world, capsule(), start);
        assert!(body.penetration() > 0.2, "not inside at {start}");
        let mut velocity = Vec3::ZERO;
        let mut out_after = None;
        for tick in 0..240 {
            let input = TickInput {
                wish_direction: Vec3::ZERO,
                jump: false,
                velocity,
                crouch: false,
            };
            velocity = controller.tick(&mut body, &input, 1.0 / 60.0).velocity;
            assert!(body.position().is_finite() && velocity.is_finite());
            if out_after.is_none() && body.penetration() < 0.002 {
                out_after = Some(tick);
            }
        }
        let ticks = out_after
            .unwrap_or_else(|| panic!("still {} m inside from {start}", body.penetration()));
        assert!(body.penetration() < 0.002, "went back inside");
        eprintln!(
            "spawned inside at {start}: out after {ticks} ticks, at {}",
            body.position()
        );
    }
}

#[test]
fn a_world_with_no_floor_falls_at_terminal_speed() {
    let world = std::sync::Arc::new(kcc_parry::World::new());
    let controller = Controller::new(settings(4.0)).unwrap();
    let terminal = controller.settings().gravity.terminal_speed;
    let mut body = body(&world, cylinder(), Vec3::ZERO);
    let mut velocity = Vec3::ZERO;
    for _ in 0..600 {
        let input = TickInput {
            wish_direction: Vec3::NEG_Z,
            jump: true,
            velocity,
            crouch: false,
        };
        let report = controller.tick(&mut body, &input, 1.0 / 60.0);
        velocity = report.velocity;
        assert!(!report.on_floor && !report.jumped);
        assert!(velocity.y >= -terminal - 1e-3);
        assert!(body.position().is_finite());
    }
    assert!(
        (velocity.y + terminal).abs() < 1e-3,
        "falls at {} m/s",
        velocity.y
    );
}

#[test]
fn huge_finite_values_never_overflow_the_position() {
    // Found by fuzzing: finite inputs near f32::MAX overflowed the position to infinity.
    let (controller, mut near) = setup();
    let input = TickInput {
        wish_direction: Vec3::NEG_Z,
        jump: false,
        velocity: Vec3::splat(3.0e38),
        crouch: false,
    };
    let report = controller.tick(&mut near, &input, 0.25);
    assert!(report.sanitized.velocity);
    assert!(report.velocity.length() <= kcc::sanitize::MAX_VELOCITY * 1.01);
    assert!(near.position().is_finite());

    let world = world(vec![]);
    let far = Vec3::new(3.0e38, -3.0e38, 1.0e20);
    let mut distant = body(&world, capsule(), far);
    let input = TickInput {
        wish_direction: Vec3::NEG_Z,
        jump: false,
        velocity: Vec3::splat(1.0e4),
        crouch: false,
    };
    let report = controller.tick(&mut distant, &input, 1.0 / 60.0);
    assert!(report.sanitized.position);
    assert_eq!(distant.position(), far);
}
