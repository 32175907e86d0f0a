//! A controller tick fed arbitrary floats: any settings (jump feel, the flat base and floating motion included), start, velocity,
//! wish direction and delta, including NaN, infinities and huge values, and any pattern of jump
//! presses and crouches, over a course of a floor, stairs and boxes the input places. The controller must
//! never panic, must accept its own repair of any settings, and must never move a body that
//! started at a finite position to a non-finite one.

#![no_main]

use std::sync::Arc;

use arbitrary::Arbitrary;
use glam::Vec3;
use kcc::{CharacterState, Controller, ControllerSettings, KinematicBody, TickInput};
use kcc_parry::{BodySettings, CharacterShape, ParryBody, World, geometry};
use libfuzzer_sys::fuzz_target;

#[derive(Arbitrary, Debug)]
struct Case {
    speeds: [f32; 6],
    stairs: [f32; 4],
    iterations: u8,
    gravity: [f32; 3],
    shape: u8,
    start: [f32; 3],
    velocity: [f32; 3],
    wish: [f32; 3],
    deltas: Vec<f32>,
    jump: u32,
    jump_feel: [f32; 3],
    crouch: u32,
    crouch_feel: [f32; 3],
    boxes: Vec<([f32; 3], [f32; 3])>,
}

fn settings(case: &Case) -> ControllerSettings {
    let mut s = ControllerSettings::default();
    let [a, b, c, d, e, f] = case.speeds;
    (s.movement.ground.max_speed, s.movement.ground.attack_time, s.movement.ground.release_time) = (a, b, c);
    (s.movement.air.max_speed, s.movement.air.attack_time, s.movement.air.release_time) = (d, e, f);
    let [h, depth, forward, test] = case.stairs;
    (s.stairs.max_step_height, s.stairs.min_step_depth, s.stairs.min_step_forward, s.stairs.step_forward_test) =
        (h, depth, forward, test);
    s.stairs.sweep_iterations = u32::from(case.iterations % 10);
    // Either way of following the ground, with the arbitrary settings of each.
    s.stairs.ground_follow = if case.iterations >= 224 {
        kcc::GroundFollow::Smooth { speed: e }
    } else {
        kcc::GroundFollow::Snap {
            flat_base: case.iterations >= 128,
            detection: if case.iterations % 2 == 0 {
                kcc::StepDetection::Contacts
            } else {
                kcc::StepDetection::Probe
            },
        }
    };
    (s.gravity.gravity, s.gravity.terminal_speed, s.gravity.jump_velocity) =
        (case.gravity[0], case.gravity[1], case.gravity[2]);
    (s.jump.coyote_time, s.jump.buffer_time, s.jump.release_cut) =
        (case.jump_feel[0], case.jump_feel[1], case.jump_feel[2]);
    (s.crouch.height, s.crouch.max_speed, s.crouch.max_step_height) =
        (case.crouch_feel[0], case.crouch_feel[1], case.crouch_feel[2]);
    s.motion_mode = motion_mode(case);
    s
}

/// Grounded or floating (the shape byte's high bit), for the controller and the body alike.
fn motion_mode(case: &Case) -> kcc::MotionMode {
    if case.shape >= 128 {
        kcc::MotionMode::Floating
    } else {
        kcc::MotionMode::Grounded
    }
}

fn world(case: &Case) -> World {
    let mut world = World::new();
    world.add(geometry::aabb_box(Vec3::new(0.0, -0.5, 0.0), Vec3::new(100.0, 1.0, 100.0)).unwrap());
    world.extend(geometry::stairs(Vec3::new(0.0, 0.0, -1.0), Vec3::NEG_Z, 6, 0.25, 0.3, 3.0).unwrap());
    for (center, size) in case.boxes.iter().take(8) {
        // Invalid boxes are refused by the builder with an error, never a panic.
        if let Ok(solid) = geometry::aabb_box(Vec3::from(*center), Vec3::from(*size)) {
            world.add(solid);
        }
    }
    world
}

fuzz_target!(|case: Case| {
    let (repaired, _) = settings(&case).sanitized();
    let controller = Controller::new(repaired).expect("the core accepts its own repair");
    let shape = match case.shape % 3 {
        0 => CharacterShape::Capsule { radius: 0.4, height: 1.8 },
        1 => CharacterShape::Cylinder { radius: 0.4, height: 1.8 },
        _ => CharacterShape::Box { size: Vec3::new(0.6, 1.8, 0.6) },
    };
    let start = Vec3::from(case.start);
    let body_settings = BodySettings { shape, motion_mode: motion_mode(&case), ..BodySettings::default() };
    let mut body = ParryBody::new(Arc::new(world(&case)), body_settings, start).unwrap();
    let mut velocity = Vec3::from(case.velocity);
    let mut state = CharacterState::default();
    for (tick, &dt) in case.deltas.iter().take(32).enumerate() {
        // The jump button follows the bits of `jump`: presses, holds and releases.
        let jump = case.jump >> tick & 1 == 1;
        let crouch = case.crouch >> tick & 1 == 1;
        let input = TickInput { wish_direction: Vec3::from(case.wish), jump, velocity, crouch };
        let report = controller.tick_with(&mut body, &input, &mut state, dt);
        assert!(body.shape_height().is_finite() && body.shape_height() > 0.0);
        assert!(report.velocity.is_finite(), "velocity {:?}", report.velocity);
        if start.is_finite() {
            assert!(body.position().is_finite(), "position {:?}", body.position());
        }
        if !(dt.is_finite() && dt > 0.0) {
            assert!(report.sanitized.delta);
        }
        velocity = report.velocity;
    }
});
