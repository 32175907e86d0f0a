//! Measures what motion queries cost in the headless world: a capsule and a cylinder walk up
//! and down the Jolt stairs (10 steps of 0.3 m x 0.3 m) at 60 Hz, and `test_move` is timed on
//! its own near a step's edge. Every solid gets the margin given as the first argument (m,
//! default 0: sharp), as Godot gives its shapes with `Shape3D.margin`.
//!
//! `cargo run --release -p kcc-parry --example query_cost -- 0.04`

use std::sync::Arc;
use std::time::Instant;

use glam::Vec3;
use kcc::{Controller, ControllerSettings, KinematicBody, TickInput};
use kcc_parry::{BodySettings, CharacterShape, ParryBody, World, geometry};

const RATE: f32 = 60.0;

fn world(margin: f32) -> Result<World, Box<dyn std::error::Error>> {
    let mut solids = vec![geometry::aabb_box(
        Vec3::new(0.0, -0.5, 0.0),
        Vec3::new(40.0, 1.0, 40.0),
    )?];
    solids.extend(geometry::stairs(
        Vec3::new(0.0, 0.0, -1.0),
        Vec3::NEG_Z,
        10,
        0.3,
        0.3,
        4.0,
    )?);
    solids.push(geometry::aabb_box(
        Vec3::new(0.0, 1.5, -6.0),
        Vec3::new(4.0, 3.0, 4.0),
    )?);
    // A 30 degree ramp (a hull) off to the side, up along +X from x = 6 to its top edge.
    solids.push(geometry::ramp(
        Vec3::new(6.0, 0.0, 0.0),
        Vec3::X,
        30f32.to_radians(),
        2.0,
        2.0,
    )?);
    let mut world = World::new();
    for solid in solids {
        world.add(solid.with_margin(margin)?);
    }
    Ok(world)
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let margin: f32 = match std::env::args().nth(1) {
        Some(text) => text.parse()?,
        None => 0.0,
    };
    let world = Arc::new(world(margin)?);
    println!(
        "margin {margin} m: convex radius of the first step {} m",
        world.solids()[1].convex_radius()
    );
    let mut settings = ControllerSettings::default();
    settings.movement.ground.max_speed = 4.0;
    let controller = Controller::new(settings)?;
    for shape in [
        CharacterShape::Capsule {
            radius: 0.4,
            height: 1.8,
        },
        CharacterShape::Cylinder {
            radius: 0.4,
            height: 1.8,
        },
    ] {
        let body_settings = BodySettings {
            shape,
            ..BodySettings::default()
        };
        // Up and down the stairs, many times.
        let (mut ticks, mut queries) = (0u64, 0u64);
        let start = Instant::now();
        for _ in 0..200 {
            let mut body = ParryBody::new(world.clone(), body_settings, Vec3::ZERO)?;
            let mut velocity = Vec3::ZERO;
            for (wish, count) in [(Vec3::NEG_Z, 90), (Vec3::Z, 90)] {
                for _ in 0..count {
                    let input = TickInput {
                        wish_direction: wish,
                        jump: false,
                        velocity,
                        crouch: false,
                    };
                    velocity = controller.tick(&mut body, &input, 1.0 / RATE).velocity;
                    ticks += 1;
                }
            }
            queries += body.queries();
        }
        let elapsed = start.elapsed().as_secs_f64();
        println!(
            "{shape:?}: stairs up and down: {:.2} us a tick, {:.3} us a query ({} ticks, {:.2} queries a tick)",
            elapsed / ticks as f64 * 1e6,
            elapsed / queries as f64 * 1e6,
            ticks,
            queries as f64 / ticks as f64
        );
        // test_move alone: forward into the first riser's edge from a few places.
        let mut body = ParryBody::new(world.clone(), body_settings, Vec3::ZERO)?;
        let n = 200_000;
        let start = Instant::now();
        let mut hits = 0;
        for i in 0..n {
            let from = Vec3::new(0.0, 0.001 + 0.3 * ((i % 7) as f32 / 7.0), -0.5);
            let motion = Vec3::new(0.0, -0.05, -0.1);
            if body.test_move(from, motion).contact.is_some() {
                hits += 1;
            }
        }
        let elapsed = start.elapsed().as_secs_f64();
        println!(
            "{shape:?}: test_move near the first riser: {:.3} us a query ({hits} of {n} hit)",
            elapsed / n as f64 * 1e6
        );
        // test_move onto the ramp's slope and top edge (a hull).
        let top = 6.0 + 2.0 * 30f32.to_radians().cos();
        let start = Instant::now();
        let mut hits = 0;
        for i in 0..n {
            let from = Vec3::new(top - 0.6 * ((i % 7) as f32 / 7.0), 1.5, 0.0);
            if body
                .test_move(from, Vec3::new(0.0, -0.6, 0.0))
                .contact
                .is_some()
            {
                hits += 1;
            }
        }
        let elapsed = start.elapsed().as_secs_f64();
        println!(
            "{shape:?}: test_move onto the ramp's top edge: {:.3} us a query ({hits} of {n} hit)",
            elapsed / n as f64 * 1e6
        );
    }
    Ok(())
}
