//! Climbing straight stairs: the Jolt "walk stairs" test and its variants.

use crate::common::*;
use glam::Vec3;
use kcc::hooked::{BodyHooks, Hooked};
use kcc::{Controller, KinematicBody};

/// 10 steps of 0.3 m rise and 0.3 m run, 4 m wide, starting 1 m ahead of the body along -Z.
fn jolt_stairs() -> std::sync::Arc<kcc_parry::World> {
    rounded_jolt_stairs(0.0)
}

/// [`jolt_stairs`] with every step given Godot's shape `margin` (m): Jolt rounds their edges.
fn rounded_jolt_stairs(margin: f32) -> std::sync::Arc<kcc_parry::World> {
    rounded_stairs(10, 0.3, 0.3, 4.0, margin)
}

/// `count` steps of `rise` and `run` (m), `width` wide, starting 1 m ahead of the body along
/// -Z, every step given Godot's shape `margin` (m).
fn rounded_stairs(
    count: u32,
    rise: f32,
    run: f32,
    width: f32,
    margin: f32,
) -> std::sync::Arc<kcc_parry::World> {
    let steps = kcc_parry::geometry::stairs(
        Vec3::new(0.0, 0.0, -1.0),
        Vec3::NEG_Z,
        count,
        rise,
        run,
        width,
    )
    .unwrap();
    world(
        steps
            .into_iter()
            .map(|step| step.with_margin(margin).unwrap())
            .collect(),
    )
}

#[test]
fn climbs_jolt_stairs_at_every_rate() {
    let world = jolt_stairs();
    let cube = kcc_parry::CharacterShape::Box {
        size: Vec3::new(0.7, 1.8, 0.7),
    };
    for shape in [capsule(), cylinder(), cube] {
        for rate in [60.0, 120.0, 240.0, 360.0] {
            climb_jolt_stairs(&world, shape, rate, &format!("{shape:?} {rate} Hz"));
        }
    }
}

#[test]
fn without_step_up_stops_at_first_riser() {
    let world = jolt_stairs();
    let mut s = settings(4.0);
    s.stairs.step_up_enabled = false;
    let controller = Controller::new(s).unwrap();
    let mut body = body(&world, capsule(), Vec3::ZERO);
    settle(&controller, &mut body, 60.0);
    let trace = walk(&controller, &mut body, Vec3::NEG_Z, 60.0, 120);
    let end = trace.last().unwrap().after;
    assert!(end.y < 0.01, "climbed to {end}");
    // The capsule's front (radius 0.4) stops at the riser at z = -1.
    assert!((end.z - (-0.6)).abs() < 0.02, "stopped at {end}");
}

#[test]
fn a_flat_base_climb_is_put_down_on_the_edge_in_one_probe() {
    // With the flat base (the default), the tick that climbs a riser lifts the capsule clear,
    // slides it on and puts it down held on the step's edge with one probe, where the step
    // down and the hold after it took five; a capsule held on the last step's edge probes for
    // the next riser before its slide, which then runs only once. At most 10 motion queries
    // on a step tick (each slide iteration counts): from level floor a slide of two
    // iterations, the climb's five sweeps, the lift's slide of two and the probe down; held,
    // the probe under the body instead of the first slide. Rolling (the flat base off) a step
    // tick costs more. A cylinder at 144 and 240 Hz, whose level landing lies beyond its
    // tick's motion, floats at the tread's height with no probe down and no step down. One
    // `stepped` per riser, 0.3 m within 2 cm, up the 10 risers.
    // Godot's default shape margin: Jolt's rounded step edges.
    let world = rounded_jolt_stairs(0.04);
    let most = |shape, flat_base: bool, rate: f32| {
        let mut s = settings(4.0);
        s.stairs.ground_follow = kcc::GroundFollow::Snap {
            flat_base,
            detection: kcc::StepDetection::Contacts,
        };
        let controller = Controller::new(s).unwrap();
        let mut body = body(&world, shape, Vec3::ZERO);
        settle(&controller, &mut body, rate);
        let mut velocity = Vec3::ZERO;
        let mut steps = Vec::new();
        let mut top = 0.0f32;
        // The stairs end at z = -4 with no landing: stop on the top step.
        while body.position().z > -3.8 {
            let before = body.queries();
            let input = kcc::TickInput {
                wish_direction: Vec3::NEG_Z,
                velocity,
                ..kcc::TickInput::default()
            };
            let report = controller.tick(&mut body, &input, 1.0 / rate);
            velocity = report.velocity;
            if let Some(dy) = report.stepped {
                steps.push((dy, body.queries() - before));
            }
            top = top.max(body.position().y);
            assert!(!flat_base || steps.len() <= 10, "{rate} Hz: {steps:?}");
        }
        assert!(top > 2.99, "{rate} Hz: at {}", body.position());
        steps
    };
    for shape in [capsule(), cylinder()] {
        for rate in [60.0, 144.0, 240.0] {
            let steps = most(shape, true, rate);
            assert_eq!(steps.len(), 10, "{shape:?} {rate} Hz: {steps:?}");
            assert!(steps.iter().all(|(dy, _)| (dy - 0.3).abs() < 0.02));
            let cost = steps.iter().map(|(_, q)| *q).max().unwrap();
            assert!(cost <= 10, "{shape:?} {rate} Hz: {steps:?}");
            if shape == capsule() {
                let rolling = most(shape, false, rate);
                let rolling_cost = rolling.iter().map(|(_, q)| *q).max().unwrap();
                assert!(rolling_cost > cost, "{rate} Hz: {rolling:?}");
            }
        }
    }
}

#[test]
fn a_slow_cylinder_climbs_at_its_own_speed_over_the_rounded_edges() {
    // A flat bottom walking 0.5 m/s at 144 and 240 Hz (2 to 3.5 mm a tick) up Jolt's stairs
    // with Godot's default margin (rounded step edges): each step tick lifts it to the tread's
    // height and moves it by its own motion, and the tread holds it there, floating over the
    // rounding of the edge, until it is under its bottom. Before, a step tick put it 2 cm (the
    // minimum forward step) past the riser: up to 9 times its speed.
    let world = rounded_jolt_stairs(0.04);
    let speed = 0.5;
    for rate in [144.0, 240.0] {
        let controller = Controller::new(settings(speed)).unwrap();
        let mut body = body(&world, cylinder(), Vec3::ZERO);
        settle(&controller, &mut body, rate);
        // 1.2 s to the first riser (0.6 m), then a riser every 0.6 s: 5 in 4 s.
        let ticks = (4.0 * rate) as u32;
        let trace = walk(&controller, &mut body, Vec3::NEG_Z, rate, ticks);
        let after_attack = (0.5 * rate) as usize;
        for (i, tick) in trace.iter().enumerate() {
            let label = format!("{rate} Hz, tick {i}: {tick:?}");
            assert!(tick.report.on_floor, "{label}");
            let moved = Vec3::new(
                tick.after.x - tick.before.x,
                0.0,
                tick.after.z - tick.before.z,
            );
            let ratio = moved.length() * rate / speed;
            if i >= after_attack {
                assert!((0.9..=1.05).contains(&ratio), "ratio {ratio}: {label}");
            }
            // On a tread or floating at its height: never resting lower, on an edge's rounding.
            let tread = (tick.after.y / 0.3).round() * 0.3;
            assert!((tick.after.y - tread).abs() < 0.003, "{label}");
        }
        let steps: Vec<f32> = trace.iter().filter_map(|t| t.report.stepped).collect();
        assert_eq!(steps.len(), 5, "{rate} Hz: {steps:?}");
        assert!(steps.iter().all(|dy| (dy - 0.3).abs() < 0.02), "{steps:?}");
    }
}

#[test]
fn a_cylinder_on_stairs_at_80_degrees_floats_over_the_rounded_edges() {
    // Five steps of 0.2 m x 0.3 m, 30 m wide, with Godot's default margin (rounded step edges),
    // walked at 4 m/s at 80 degrees from their direction: the look along a motion nearly
    // parallel to the riser reaches only onto the rounding of the step's edge. The climb lifts
    // the cylinder to the tread's height, and the tread holds it there, floating over the
    // rounding, until its flat bottom is over the tread: it never rests on the rounding, where
    // Jolt's recovery sank it 3.5 to 4.3 mm into the step at 144 and 240 Hz. One `stepped` of
    // the riser's height per step.
    // The steps, and the landing 1 m high behind them (as `stairs_angle_80_cylinder`).
    let mut solids =
        kcc_parry::geometry::stairs(Vec3::new(0.0, 0.0, -1.0), Vec3::NEG_Z, 5, 0.2, 0.3, 30.0)
            .unwrap();
    let landing = Vec3::new(30.0, 1.0, 3.0);
    solids.push(kcc_parry::geometry::aabb_box(Vec3::new(0.0, 0.5, -4.0), landing).unwrap());
    let world = world(
        solids
            .into_iter()
            .map(|solid| solid.with_margin(0.04).unwrap())
            .collect(),
    );
    let angle = 80f32.to_radians();
    let wish = Vec3::new(angle.sin(), 0.0, -angle.cos());
    for rate in [60.0, 144.0, 240.0] {
        let controller = Controller::new(settings(4.0)).unwrap();
        let mut body = body(&world, cylinder(), Vec3::new(-8.79, 0.0, 0.0));
        settle(&controller, &mut body, rate);
        let ticks = (4.6 * rate) as u32;
        let trace = walk(&controller, &mut body, wish, rate, ticks);
        for (i, tick) in trace.iter().enumerate() {
            let label = format!("{rate} Hz, tick {i}: {tick:?}");
            assert!(tick.report.on_floor, "{label}");
            // On a tread or floating at its height: never lower, on an edge's rounding.
            let tread = (tick.after.y / 0.2).round() * 0.2;
            assert!((tick.after.y - tread).abs() < 0.003, "{label}");
        }
        let steps: Vec<f32> = trace.iter().filter_map(|t| t.report.stepped).collect();
        assert_eq!(steps.len(), 5, "{rate} Hz: {steps:?}");
        assert!(steps.iter().all(|dy| (dy - 0.2).abs() < 0.02), "{steps:?}");
    }
}

/// An engine that does not say its slide's first collision (the port's default): every climb
/// probes its motion itself (see [`Hooked`]).
struct Untold;

impl BodyHooks<kcc_parry::ParryBody> for Untold {
    fn slide_collision(&self, _: &kcc_parry::ParryBody, _: usize) -> Option<kcc::MotionTest> {
        None
    }
}

#[test]
fn a_climb_after_a_slide_into_the_riser_reads_the_slide_instead_of_probing_again() {
    // Stairs walked at 30, 60 and 80 degrees from level floor: the slide meets the first
    // riser, then slides along it, and the climb needs what the slide's first motion met. Read
    // from the slide (Godot's `get_slide_collision(0)`), it is not tested again: the first step
    // tick costs one query less than with an engine that does not say it (where a capsule's
    // cost 11 or 12), the climb is the same, and every step tick costs at most 10. Five risers
    // of 0.2 m with Godot's default shape margin (Jolt's rounded edges), both shapes, 30 to
    // 240 Hz, at 0.9 to 1.05 times the walk's speed on every tick after the attack.
    let world = rounded_stairs(5, 0.2, 0.3, 30.0, 0.04);
    let speed = 4.0;
    let controller = Controller::new(settings(speed)).unwrap();
    for shape in [capsule(), cylinder()] {
        for (degrees, rate) in [30.0f32, 60.0, 80.0]
            .into_iter()
            .flat_map(|degrees| [30.0, 60.0, 144.0, 240.0].map(|rate| (degrees, rate)))
        {
            let label = format!("{shape:?} at {degrees} degrees, {rate} Hz");
            let (sin, cos) = degrees.to_radians().sin_cos();
            let wish = Vec3::new(sin, 0.0, -cos);
            let start = Vec3::new(-0.9 * sin / cos, 0.001, 0.0);
            let mut told = body(&world, shape, start);
            let mut parry_untold = body(&world, shape, start);
            let mut untold = Hooked::new(&mut parry_untold, Untold);
            let mut velocity = settle(&controller, &mut told, rate);
            let mut untold_velocity = Vec3::ZERO;
            for _ in 0..10 {
                let input = kcc::TickInput {
                    velocity: untold_velocity,
                    ..kcc::TickInput::default()
                };
                untold_velocity = controller.tick(&mut untold, &input, 1.0 / rate).velocity;
            }
            assert_eq!(told.position(), untold.position(), "{label}");
            let input = |velocity| kcc::TickInput {
                wish_direction: wish,
                velocity,
                ..kcc::TickInput::default()
            };
            let mut steps = Vec::new();
            let mut first = None;
            // To the first riser, 0.9 m away, and up the five (1.5 m), with time to spare.
            let walk = (2.4 / (speed * cos) + 0.5) * rate;
            for tick in 0..walk as u32 {
                let before = told.position();
                let (q, q_untold) = (told.queries(), untold.body.queries());
                let report = controller.tick(&mut told, &input(velocity), 1.0 / rate);
                velocity = report.velocity;
                let q = told.queries() - q;
                if first.is_none() {
                    // Up to the first step both bodies make the same moves.
                    let other = controller.tick(&mut untold, &input(untold_velocity), 1.0 / rate);
                    untold_velocity = other.velocity;
                    let q_untold = untold.body.queries() - q_untold;
                    if let Some(a) = report.stepped {
                        let b = other.stepped.unwrap_or(0.0);
                        // The same climb, within the engines' margins.
                        assert!((a - b).abs() < 0.0025, "{label}: {a} and {b}");
                        first = Some((q, q_untold));
                    }
                }
                if let Some(dy) = report.stepped {
                    steps.push(dy);
                    assert!(q <= 10, "{label}, tick {tick}: {q} queries on a step tick");
                }
                let moved = told.position() - before;
                let ratio = Vec3::new(moved.x, 0.0, moved.z).length() * rate / speed;
                if tick as f32 > 0.3 * rate {
                    assert!(
                        (0.9..=1.05).contains(&ratio),
                        "{label}, tick {tick}: {ratio}"
                    );
                }
            }
            let (q, q_untold) = first.unwrap_or_else(|| panic!("{label}: no step"));
            assert_eq!(q + 1, q_untold, "{label}: the first step tick");
            assert_eq!(steps.len(), 5, "{label}: {steps:?}");
            assert!(steps.iter().all(|dy| (dy - 0.2).abs() < 0.02), "{label}");
        }
    }
}

#[test]
fn a_capsule_whose_tick_ends_at_a_steps_edge_climbs_on_the_next_tick() {
    // A capsule driven at 2 m/s at 144 Hz (13.9 mm a tick) at a 0.2 m riser with Godot's
    // default margin (a rounded edge), straight and at 30 and 60 degrees, from 70 starts
    // 0.2 mm apart: every phase of the tick at which the slide meets the step's edge. When it
    // meets it within the safe margin of the tick's end, the capsule lifted and moved on by
    // what is left would rest on the edge within the margin of the floor: the drop after the
    // lift finds the floor, where the slide left it (a tick off the floor straight on; 14
    // queries for nothing on the capsule's spiral at 144 Hz). The slide makes that tick's
    // move; the next one climbs. On the floor every tick, at the drive's speed, one `stepped`
    // of 0.2 m, at most 10 queries on the step tick.
    let world = rounded_stairs(1, 0.2, 2.0, 8.0, 0.04);
    let controller = Controller::new(settings(4.0)).unwrap();
    let rate = 144.0;
    for degrees in [0.0f32, 30.0, 60.0] {
        let (sin, cos) = degrees.to_radians().sin_cos();
        let velocity = Vec3::new(2.0 * sin, 0.0, -2.0 * cos);
        for start in 0..70 {
            let z = -0.3 - 0.0002 * start as f32;
            let mut body = body(&world, capsule(), Vec3::new(-0.35 * sin / cos, 0.0, z));
            settle(&controller, &mut body, rate);
            let mut steps = Vec::new();
            for tick in 0..(0.6 * rate) as u32 {
                let label = format!("{degrees} degrees, start z {z}, tick {tick}");
                let (before, queries) = (body.position(), body.queries());
                let report = controller.move_and_step(&mut body, velocity, 1.0 / rate);
                let queries = body.queries() - queries;
                let moved = body.position() - before;
                let speed = Vec3::new(moved.x, 0.0, moved.z).length() * rate;
                assert!(report.on_floor, "{label}");
                assert!((speed / 2.0 - 1.0).abs() < 0.05, "{label}: {speed} m/s");
                if let Some(dy) = report.stepped {
                    steps.push(dy);
                    assert!(queries <= 10, "{label}: {queries} queries");
                }
            }
            assert_eq!(steps.len(), 1, "{degrees} degrees, start z {z}: {steps:?}");
            assert!((steps[0] - 0.2).abs() < 0.02, "{degrees}, {z}: {steps:?}");
        }
    }
}

#[test]
fn a_capsule_held_on_the_edge_it_climbed_probes_for_the_next_riser_before_telling_a_face() {
    // The web demo's staircase: eight boxes of 0.3 x 0.3 m (margin 1 mm), a capsule of radius
    // 0.3 m at 4 m/s, 30 to 240 Hz. Held on the edge of the step it just climbed, its feet on
    // the rounding near the tread's top, the engine has it on floor with the very normal of
    // that rounding: an edge or a slope's face? Walking up into it, it probes for the next
    // riser first, as a held body does; only when it finds none does one more probe tell.
    // Found, that probe is saved: at most 10 queries a move on a step tick (11 when it told
    // first).
    // One `stepped` of 0.3 m per riser.
    let mut solids = Vec::new();
    for i in 0..8 {
        let height = 0.3 * (i + 1) as f32;
        let center = Vec3::new(0.0, height / 2.0, -2.15 - 0.3 * i as f32);
        let step = kcc_parry::geometry::aabb_box(center, Vec3::new(2.0, height, 0.3)).unwrap();
        solids.push(step.with_margin(0.001).unwrap());
    }
    let landing =
        kcc_parry::geometry::aabb_box(Vec3::new(0.0, 1.2, -5.4), Vec3::new(2.0, 2.4, 2.0)).unwrap();
    solids.push(landing.with_margin(0.001).unwrap());
    let world = world(solids);
    let shape = kcc_parry::CharacterShape::Capsule {
        radius: 0.3,
        height: 1.8,
    };
    let controller = Controller::new(settings(5.0)).unwrap();
    for rate in [30.0, 60.0, 144.0, 240.0] {
        let mut body = body(&world, shape, Vec3::new(0.0, 0.0, 4.0));
        let mut velocity = settle(&controller, &mut body, rate);
        let mut steps = Vec::new();
        for tick in 0..(2.0 * rate) as u32 {
            let queries = body.queries();
            let input = kcc::TickInput {
                wish_direction: Vec3::NEG_Z,
                velocity,
                ..kcc::TickInput::default()
            };
            let report = controller.tick(&mut body, &input, 1.0 / rate);
            velocity = report.velocity;
            // The budget is a move's: a long tick off level floor is split into sub-steps.
            let queries = (body.queries() - queries).div_ceil(u64::from(report.substeps.max(1)));
            if let Some(dy) = report.stepped {
                steps.push(dy);
                assert!(
                    queries <= 10,
                    "{rate} Hz, tick {tick}: {queries} queries a move"
                );
            }
        }
        assert_eq!(steps.len(), 8, "{rate} Hz: {steps:?}");
        assert!(steps.iter().all(|dy| (dy - 0.3).abs() < 0.02), "{steps:?}");
        assert!(
            body.position().y > 2.39,
            "{rate} Hz: at {}",
            body.position()
        );
    }
}

/// A slide that stops dead against a wall, as Godot Physics' `move_and_slide` does when it
/// meets a wall twice in one slide (its guard against jitter in corners), counting a wall
/// within the safe margin as met (Godot reports the contacts of its recovery): the velocity
/// after it is zero whenever the body ends with a wall within the margin ahead, and a slide
/// that went no further than the margin is taken back (Godot cancels such a motion).
struct StopsDeadAtWalls;

impl BodyHooks<kcc_parry::ParryBody> for StopsDeadAtWalls {
    fn move_and_slide(&mut self, body: &mut kcc_parry::ParryBody, velocity: Vec3, dt: f32) -> Vec3 {
        let start = body.position();
        let after = body.move_and_slide(velocity, dt);
        let ahead = Vec3::new(velocity.x, 0.0, velocity.z).normalize_or_zero();
        let margin = body.safe_margin();
        if !body.test_move(body.position(), ahead * margin).collided() {
            return after;
        }
        if (body.position() - start).length() <= margin {
            body.set_position(start);
        }
        Vec3::ZERO
    }

    /// The contact of the slide's recovery, not of its motion: nothing a climb can read.
    fn slide_collision(&self, _body: &kcc_parry::ParryBody, _: usize) -> Option<kcc::MotionTest> {
        None
    }
}

/// A flat-bottomed body at rest so near a riser that a slide by its first ticks' motion ends
/// within the safe margin of it (and is taken back) climbs on its first ticks of walking: on
/// Godot Physics a cylinder starting the spiral
/// staircase there at 240 Hz stood still for 100 ticks, its climb put off to a later tick
/// that never came (the step lay 0.4 mm beyond each tick's motion, the slide zeroed the speed).
#[test]
fn a_body_at_rest_a_hair_from_a_riser_climbs_when_it_walks() {
    let world = rounded_stairs(2, 0.2, 0.3, 4.0, 0.0);
    let cube = kcc_parry::CharacterShape::Box {
        size: Vec3::new(0.8, 1.8, 0.8),
    };
    // Flat bottoms, whose sides meet the riser (a capsule's round bottom meets its edge
    // further on).
    for shape in [cylinder(), cube] {
        for rate in [60.0, 144.0, 240.0] {
            // The riser's face is at z = -1; the body's front 1.3 mm from it (margin: 1 mm).
            let mut body = body(&world, shape, Vec3::new(0.0, 0.0, -0.6 + 0.0013));
            let controller = Controller::new(settings(2.0)).unwrap();
            let mut state = kcc::CharacterState::default();
            let mut velocity = Vec3::ZERO;
            // Standing: ticks of no input first.
            for _ in 0..10 {
                let input = kcc::TickInput {
                    velocity,
                    ..kcc::TickInput::default()
                };
                let mut engine = Hooked::new(&mut body, StopsDeadAtWalls);
                velocity = controller
                    .tick_with(&mut engine, &input, &mut state, 1.0 / rate)
                    .velocity;
            }
            let mut climbed_at = None;
            for tick in 0..(rate * 0.25) as usize {
                let input = kcc::TickInput {
                    wish_direction: Vec3::NEG_Z,
                    velocity,
                    ..kcc::TickInput::default()
                };
                let mut engine = Hooked::new(&mut body, StopsDeadAtWalls);
                let report = controller.tick_with(&mut engine, &input, &mut state, 1.0 / rate);
                velocity = report.velocity;
                if body.position().y > 0.15 {
                    climbed_at = Some(tick);
                    break;
                }
            }
            let climbed_at = climbed_at.unwrap_or_else(|| {
                panic!(
                    "{shape:?} at {rate} Hz never climbed: at {}",
                    body.position()
                )
            });
            assert!(
                climbed_at <= 2,
                "{shape:?} at {rate} Hz climbed on tick {climbed_at}"
            );
        }
    }
}
