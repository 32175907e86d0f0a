//! Floating motion (`MotionMode::Floating`: swimming, flying, a ladder a game scripts): no
//! gravity, no jump, no stair stepping, the wish moving the character in three dimensions with
//! the floor's speed curves, and the engine's floating slide (every contact a wall).

use glam::Vec3;
use kcc::{CharacterState, Controller, KinematicBody, MotionMode, TickInput};
use kcc_parry::{BodySettings, ParryBody, geometry};

use crate::common::{capsule, cylinder, settings, world};

const RATES: [f32; 4] = [30.0, 60.0, 144.0, 240.0];

/// A floating controller (4 m/s, the default curves) and a floating body of `shape` at `at`.
fn floating(
    solids: Vec<kcc_parry::Solid>,
    shape: kcc_parry::CharacterShape,
    at: Vec3,
) -> (Controller, ParryBody) {
    let mut tuned = settings(4.0);
    tuned.motion_mode = MotionMode::Floating;
    let controller = Controller::new(tuned).unwrap();
    let body_settings = BodySettings {
        shape,
        motion_mode: MotionMode::Floating,
        ..BodySettings::default()
    };
    let body = ParryBody::new(world(solids), body_settings, at).unwrap();
    (controller, body)
}

/// Runs `seconds` of ticks at `rate` with `wish`, jump and crouch as given; returns the
/// velocity after and whether any tick jumped, stepped or reported floor.
fn run(
    controller: &Controller,
    body: &mut ParryBody,
    state: &mut CharacterState,
    (velocity, rate, seconds): (Vec3, f32, f32),
    (wish, jump): (Vec3, bool),
) -> (Vec3, bool) {
    let mut velocity = velocity;
    let mut grounded_anything = false;
    for _ in 0..(seconds * rate).round() as usize {
        let input = TickInput {
            wish_direction: wish,
            jump,
            velocity,
            crouch: false,
        };
        let report = controller.tick_with(body, &input, state, 1.0 / rate);
        grounded_anything |= report.jumped || report.stepped.is_some() || report.on_floor;
        velocity = report.velocity;
    }
    (velocity, grounded_anything)
}

#[test]
fn a_floating_character_hovers_without_input_and_rises_at_its_top_speed() {
    for rate in RATES {
        let start = Vec3::new(0.0, 1.0, 0.0);
        let (controller, mut body) = floating(Vec::new(), capsule(), start);
        let mut state = CharacterState::default();
        let (still, events) = run(
            &controller,
            &mut body,
            &mut state,
            (Vec3::ZERO, rate, 1.0),
            (Vec3::ZERO, false),
        );
        assert_eq!(still, Vec3::ZERO, "{rate} Hz");
        assert!(
            body.position().distance(start) < 1e-6,
            "{rate} Hz: fell to {}",
            body.position()
        );
        let (rising, _) = run(
            &controller,
            &mut body,
            &mut state,
            (still, rate, 1.0),
            (Vec3::Y, false),
        );
        assert!(
            (rising - Vec3::Y * 4.0).length() < 1e-4,
            "{rate} Hz: {rising}"
        );
        // 1 s of rise: 4 m/s after the 0.2 s attack, 2/3 of it during; a tick moves at the
        // speed it ends with, so the attack gains up to half a tick at top speed more.
        let risen = body.position().y - start.y;
        let expected = 4.0 * 0.8 + 4.0 * 0.2 * 2.0 / 3.0;
        assert!(
            (risen - expected).abs() < 2.0 / rate + 1e-3,
            "{rate} Hz: rose {risen}, expected {expected}"
        );
        assert!(!events, "{rate} Hz: no jump, step or floor while floating");
    }
}

#[test]
fn a_floating_wish_is_clamped_to_the_top_speed_in_three_dimensions() {
    let (controller, mut body) = floating(Vec::new(), capsule(), Vec3::new(0.0, 5.0, 0.0));
    let mut state = CharacterState::default();
    let wish = Vec3::new(0.0, 1.0, -1.0);
    let (velocity, _) = run(
        &controller,
        &mut body,
        &mut state,
        (Vec3::ZERO, 60.0, 1.0),
        (wish, false),
    );
    assert!((velocity.length() - 4.0).abs() < 1e-3, "{velocity}");
    assert!(
        (velocity.normalize() - wish.normalize()).length() < 1e-4,
        "{velocity}"
    );
}

#[test]
fn a_floating_character_neither_jumps_nor_steps_up_and_stops_at_a_riser() {
    let step = geometry::aabb_box(Vec3::new(0.0, 0.1, -3.0), Vec3::new(4.0, 0.2, 4.0)).unwrap();
    for rate in RATES {
        let (controller, mut body) =
            floating(vec![step.clone()], cylinder(), Vec3::new(0.0, 0.001, 0.0));
        let mut state = CharacterState::default();
        let forward = Vec3::new(0.0, 0.0, -1.0);
        let (_, events) = run(
            &controller,
            &mut body,
            &mut state,
            (Vec3::ZERO, rate, 1.5),
            (forward, true),
        );
        let at = body.position();
        assert!(!events, "{rate} Hz");
        assert!((at.y - 0.001).abs() < 1e-4, "{rate} Hz: rose to {at}");
        // Against the riser's face at z = -1: the radius and the safe margin in front of it.
        assert!(
            (at.z - (-1.0 + 0.4 + 0.001)).abs() < 2e-3,
            "{rate} Hz: at {at}"
        );
    }
}

#[test]
fn the_building_blocks_do_nothing_for_a_floating_body() {
    let step = geometry::aabb_box(Vec3::new(0.0, 0.1, -1.5), Vec3::new(4.0, 0.2, 1.0)).unwrap();
    let (controller, mut body) = floating(vec![step], cylinder(), Vec3::new(0.0, 0.0, -0.55));
    let velocity = Vec3::new(0.0, -1.0, -4.0);
    assert_eq!(
        controller.stair_step_up(&mut body, velocity, 1.0 / 60.0),
        0.0
    );
    assert_eq!(
        controller.stair_step_down(&mut body, true, velocity, 0.1),
        None
    );
    let report = controller.move_and_step(&mut body, velocity, 1.0 / 60.0);
    assert_eq!(report.stepped, None);
    assert!(!report.on_floor);
}
