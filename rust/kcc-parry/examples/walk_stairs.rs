//! Walks a capsule up a staircase (10 steps of 0.3 m x 0.3 m) and back down at 60 Hz with the
//! kcc controller in the headless parry world, and prints what happened tick by tick. It checks
//! the walk as it prints it: one `stepped` of 0.3 m per riser up and down, never off the floor,
//! back where it started; a wrong walk ends with an error (exit code 1).
//!
//! `cargo run --release -p kcc-parry --example walk_stairs`

use std::sync::Arc;

use glam::Vec3;
use kcc::{Controller, ControllerSettings, KinematicBody, StepSmoother, TickInput};
use kcc_parry::{BodySettings, CharacterShape, ParryBody, World, geometry};

const RATE: f32 = 60.0;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut world = World::new();
    world.add(geometry::aabb_box(
        Vec3::new(0.0, -0.5, 0.0),
        Vec3::new(40.0, 1.0, 40.0),
    )?);
    world.extend(geometry::stairs(
        Vec3::new(0.0, 0.0, -1.0),
        Vec3::NEG_Z,
        10,
        0.3,
        0.3,
        4.0,
    )?);
    world.add(geometry::aabb_box(
        Vec3::new(0.0, 1.5, -6.0),
        Vec3::new(4.0, 3.0, 4.0),
    )?);

    let shape = CharacterShape::Capsule {
        radius: 0.4,
        height: 1.8,
    };
    let mut body = ParryBody::new(
        Arc::new(world),
        BodySettings {
            shape,
            ..BodySettings::default()
        },
        Vec3::ZERO,
    )?;
    let mut settings = ControllerSettings::default();
    settings.movement.ground.max_speed = 4.0;
    let controller = Controller::new(settings)?;
    let mut camera = StepSmoother::new(20.0);

    println!(
        "A 1.8 m capsule walks up 10 steps of 0.3 m (rise) x 0.3 m (run) and back down, at {RATE} Hz."
    );
    println!(
        "{:>5} {:>6} {:>8} {:>8} {:>7} {:>6} {:>8} {:>8} {:>5}",
        "tick", "time", "z m", "y m", "speed", "floor", "step m", "camera", "query"
    );
    let mut velocity = Vec3::ZERO;
    let mut stats = Stats::default();
    for (phase, wish, ticks) in [
        ("up", Vec3::NEG_Z, 90),
        ("rest", Vec3::ZERO, 30),
        ("down", Vec3::Z, 120),
    ] {
        println!("-- {phase}");
        for _ in 0..ticks {
            let queries = body.queries();
            let report = controller.tick(
                &mut body,
                &TickInput {
                    wish_direction: wish,
                    jump: false,
                    velocity,
                    crouch: false,
                },
                1.0 / RATE,
            );
            velocity = report.velocity;
            if let Some(dy) = report.stepped {
                camera.on_step(dy);
            }
            camera.update(1.0 / RATE);
            let p = body.position();
            stats.record(&report, body.queries() - queries);
            if stats.ticks % 5 == 0 || report.stepped.is_some() {
                println!(
                    "{:>5} {:>6.3} {:>8.3} {:>8.3} {:>7.2} {:>6} {:>8} {:>8.3} {:>5}",
                    stats.ticks,
                    stats.ticks as f32 / RATE,
                    p.z,
                    p.y,
                    Vec3::new(velocity.x, 0.0, velocity.z).length(),
                    report.on_floor,
                    report
                        .stepped
                        .map_or(String::new(), |dy| format!("{dy:+.3}")),
                    camera.offset(),
                    body.queries() - queries,
                );
            }
        }
    }
    println!(
        "{} ticks: {} off the floor, {} steps up ({:.2} m), {} steps down ({:.2} m), {:.1} queries per tick on average, {} at most.",
        stats.ticks,
        stats.airborne,
        stats.ups,
        stats.up_height,
        stats.downs,
        -stats.down_height,
        stats.queries as f32 / stats.ticks as f32,
        stats.max_queries,
    );
    stats.check(body.position())
}

/// Risers of the staircase, each 0.3 m high.
const RISERS: u32 = 10;
/// Height of one riser, m.
const RISE: f32 = 0.3;
/// How far a step's height may be from the riser's (the engine's margins), m.
const STEP_TOLERANCE: f32 = 0.02;

#[derive(Default)]
struct Stats {
    ticks: u32,
    airborne: u32,
    ups: u32,
    up_height: f32,
    downs: u32,
    down_height: f32,
    queries: u64,
    max_queries: u64,
}

impl Stats {
    fn record(&mut self, report: &kcc::TickReport, queries: u64) {
        self.ticks += 1;
        self.airborne += u32::from(!report.on_floor);
        match report.stepped {
            Some(dy) if dy > 0.0 => {
                self.ups += 1;
                self.up_height += dy;
            }
            Some(dy) => {
                self.downs += 1;
                self.down_height += dy;
            }
            None => {}
        }
        self.queries += queries;
        self.max_queries = self.max_queries.max(queries);
    }

    /// What went wrong with the walk that ended at `end`, if anything: a step for every riser
    /// each way, each as high as the riser, no tick off the floor, and back on the ground floor
    /// (120 ticks at 4 m/s walk 8 m, past the 1 m in front of the stairs).
    fn check(&self, end: Vec3) -> Result<(), Box<dyn std::error::Error>> {
        let mut problems = Vec::new();
        if self.ups != RISERS || self.downs != RISERS {
            problems.push(format!(
                "{} steps up and {} down for {RISERS} risers",
                self.ups, self.downs
            ));
        }
        let height = RISE * RISERS as f32;
        for (way, total) in [("up", self.up_height), ("down", self.down_height.abs())] {
            if (total - height).abs() > STEP_TOLERANCE * RISERS as f32 {
                problems.push(format!(
                    "{total:.3} m stepped {way} for {height:.1} m of stairs"
                ));
            }
        }
        if self.airborne > 0 {
            problems.push(format!("{} ticks off the floor", self.airborne));
        }
        if end.y.abs() > STEP_TOLERANCE || end.z < 0.0 {
            problems.push(format!("ended at {end}, not on the ground floor in front"));
        }
        if problems.is_empty() {
            println!("The walk is right: {RISERS} steps up, {RISERS} down, always on the floor.");
            Ok(())
        } else {
            Err(format!("the walk is wrong: {}", problems.join("; ")).into())
        }
    }
}
