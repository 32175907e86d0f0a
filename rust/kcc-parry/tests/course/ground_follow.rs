//! Ground following by a probe under a floating shape (`GroundFollow::Smooth`): the body moves
//! up and down stairs without a step in one tick, at the same heights at any tick rate, and
//! without `stepped` reports.

use std::sync::Arc;

use crate::common::*;
use glam::Vec3;
use kcc::{CharacterState, Controller, GroundFollow, KinematicBody, TickInput};
use kcc_parry::{BodySettings, ParryBody, World, geometry};

/// 8 steps of 0.2 m x 0.3 m up from z = -1, and a landing at 1.6 m from z = -3.4.
fn stairs() -> Arc<World> {
    let mut solids =
        geometry::stairs(Vec3::new(0.0, 0.0, -1.0), Vec3::NEG_Z, 8, 0.2, 0.3, 4.0).unwrap();
    solids.push(geometry::aabb_box(Vec3::new(0.0, 0.8, -4.9), Vec3::new(4.0, 1.6, 3.0)).unwrap());
    world(solids)
}

/// Walks toward -Z at 4 m/s for `seconds` at `rate` Hz with a smooth ground follow; returns
/// the feet's height at the end of every tick and whether any tick reported a stair step.
fn walk_up(rate: f32, seconds: f32) -> (Vec<f32>, bool) {
    let mut settings = settings(4.0);
    settings.stairs.ground_follow = GroundFollow::SMOOTH;
    let controller = Controller::new(settings).unwrap();
    let body_settings = BodySettings {
        shape: capsule(),
        float_height: settings.float_height(),
        ..BodySettings::default()
    };
    let mut body = ParryBody::new(stairs(), body_settings, Vec3::new(0.0, 0.0, 0.5)).unwrap();
    let mut state = CharacterState::default();
    let mut velocity = Vec3::ZERO;
    let mut heights = Vec::new();
    let mut stepped = false;
    for _ in 0..(seconds * rate).round() as u32 {
        let input = TickInput {
            wish_direction: Vec3::NEG_Z,
            velocity,
            ..TickInput::default()
        };
        let report = controller.tick_with(&mut body, &input, &mut state, 1.0 / rate);
        assert!(report.on_floor, "off the ground at {}", body.position());
        assert!(body.penetration() <= body.safe_margin() + 1e-3);
        stepped |= report.stepped.is_some();
        velocity = report.velocity;
        heights.push(body.position().y);
    }
    (heights, stepped)
}

#[test]
fn smooth_ground_follow_climbs_without_a_step_in_one_tick() {
    let (heights, stepped) = walk_up(60.0, 1.5);
    assert!(!stepped, "a smooth ground follow reports no stair steps");
    let top = *heights.last().unwrap();
    assert!(
        (top - 1.6).abs() < 0.02,
        "ended at {top} m, not on the 1.6 m landing"
    );
    let largest = heights
        .windows(2)
        .map(|pair| (pair[1] - pair[0]).abs())
        .fold(0.0, f32::max);
    assert!(
        largest < 0.1,
        "one tick moved {largest} m: a whole 0.2 m step is never taken at once"
    );
}

#[test]
fn smooth_ground_follow_rises_alike_at_every_rate() {
    // The feet's height after each tenth of a second, at 60 and 240 Hz.
    let (at_60, _) = walk_up(60.0, 1.5);
    let (at_240, _) = walk_up(240.0, 1.5);
    for tenth in 1..=15 {
        let (a, b) = (at_60[tenth * 6 - 1], at_240[tenth * 24 - 1]);
        assert!(
            (a - b).abs() < 0.05,
            "at {} s: {a} m at 60 Hz, {b} m at 240 Hz",
            tenth as f32 / 10.0
        );
    }
}
