//! Property tests: random staircases, ramps and boxes, random input timelines and tick rates.
//! Every tick must keep the invariants that stop a character controller from breaking a game.
//!
//! Cases per property: `PROPTEST_CASES` (default 48 in CI; `just soak` runs far more). The
//! cases come from a fixed seed, so `cargo test` checks the same cases on every machine and
//! every run; `PROPTEST_RNG_SEED` picks others (`just soak` draws a random one and prints it).

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

use crate::common::*;
use glam::{Quat, Vec3};
use kcc::{Controller, ControllerSettings, KinematicBody, TickInput};
use kcc_parry::{CharacterShape, ParryBody, Solid, World, geometry};
use proptest::prelude::*;

/// Overlap allowed beyond the safe margin, m. The recovery leaves up to 13 % of a margin's
/// depth per query and sweeps stop 0.1 mm short; and Godot's own `move_and_slide`, pushed
/// with gravity into the corner of the floor and a steep ramp, cancels only the horizontal
/// part of a short blocked travel (`floor_block_on_wall`), so the body sinks a little each
/// tick until the recovery holds it: 2.8 mm on real Godot with Jolt for a 0.3 m box against a
/// sharp 50 degree ramp at 58 Hz (the same in the parry world).
const OVERLAP_TOLERANCE: f32 = 0.003;

/// A course piece in front of the body (it starts at the origin and walks toward -Z).
#[derive(Debug, Clone)]
enum Course {
    Stairs {
        rise: f32,
        run: f32,
        count: u32,
        yaw: f32,
    },
    Ramp {
        degrees: f32,
        length: f32,
        yaw: f32,
    },
    Boxes {
        boxes: Vec<(Vec3, Vec3, f32)>,
    },
}

impl Course {
    fn solids(&self) -> Vec<Solid> {
        match self {
            Course::Stairs {
                rise,
                run,
                count,
                yaw,
            } => {
                let direction = Quat::from_rotation_y(*yaw) * Vec3::NEG_Z;
                geometry::stairs(direction * 1.0, direction, *count, *rise, *run, 3.0).unwrap()
            }
            Course::Ramp {
                degrees,
                length,
                yaw,
            } => {
                let direction = Quat::from_rotation_y(*yaw) * Vec3::NEG_Z;
                vec![
                    geometry::ramp(
                        direction * 1.0,
                        direction,
                        degrees.to_radians(),
                        *length,
                        3.0,
                    )
                    .unwrap(),
                ]
            }
            Course::Boxes { boxes } => boxes
                .iter()
                .map(|(center, size, yaw)| {
                    geometry::cuboid(*center, *size, Quat::from_rotation_y(*yaw)).unwrap()
                })
                .collect(),
        }
    }
}

fn course() -> impl Strategy<Value = Course> {
    let yaw = 0.0f32..std::f32::consts::TAU;
    prop_oneof![
        (0.01f32..1.0, 0.02f32..1.0, 1u32..8, yaw.clone()).prop_map(|(rise, run, count, yaw)| {
            Course::Stairs {
                rise,
                run,
                count,
                yaw,
            }
        }),
        (5.0f32..80.0, 0.5f32..6.0, yaw.clone()).prop_map(|(degrees, length, yaw)| Course::Ramp {
            degrees,
            length,
            yaw
        }),
        prop::collection::vec(
            (
                // x, y of the centre, and z of the side nearest the start (turned or not).
                (-3.0f32..3.0, -0.5f32..1.0, -6.0f32..-0.8),
                (0.05f32..2.0, 0.05f32..1.5, 0.05f32..2.0).prop_map(|(x, y, z)| Vec3::new(x, y, z)),
                yaw,
            )
                .prop_map(|((x, y, near), size, yaw)| {
                    // In front of the body, whatever the turn: its centre lies half a diagonal
                    // of its footprint beyond the near side.
                    let reach = 0.5 * size.x.hypot(size.z);
                    (Vec3::new(x, y, near - reach), size, yaw)
                }),
            1..6,
        )
        .prop_map(|boxes| Course::Boxes { boxes }),
    ]
}

fn shape() -> impl Strategy<Value = CharacterShape> {
    prop_oneof![
        (0.2f32..0.5, 1.0f32..2.0)
            .prop_map(|(radius, height)| CharacterShape::Capsule { radius, height }),
        (0.2f32..0.5, 1.0f32..2.0)
            .prop_map(|(radius, height)| CharacterShape::Cylinder { radius, height }),
        (0.3f32..1.0, 1.0f32..2.0).prop_map(|(side, height)| CharacterShape::Box {
            size: Vec3::new(side, height, side)
        }),
    ]
}

/// One segment of input: direction (yaw of the stick, rad), push (0..1), jump, length (s).
fn timeline() -> impl Strategy<Value = Vec<(f32, f32, bool, f32)>> {
    prop::collection::vec(
        (
            -0.6f32..0.6,
            0.0f32..1.0,
            prop::bool::weighted(0.15),
            0.1f32..1.2,
        ),
        1..5,
    )
}

/// Seed of the cases `cargo test` checks when `PROPTEST_RNG_SEED` is not set.
const SEED: u64 = 0x6b63_635f_7374_6570;

fn config() -> ProptestConfig {
    crate::common::proptest_config("tests/course/properties.proptest-regressions", SEED)
}

/// The angle between up and the normal of the face a capsule meets when lowered onto the middle
/// of the slope of `Course::Ramp { degrees, length: 6.0, yaw }`, degrees.
fn ramp_face_angle(world: &Arc<World>, degrees: f32, yaw: f32) -> f32 {
    let direction = Quat::from_rotation_y(yaw) * Vec3::NEG_Z;
    let angle = degrees.to_radians();
    // 3 m up the 6 m slope, which starts 1 m along `direction`.
    let middle = direction * (1.0 + 3.0 * angle.cos()) + Vec3::Y * (3.0 * angle.sin());
    let shape = CharacterShape::Capsule {
        radius: 0.2,
        height: 1.0,
    };
    let mut probe = body(world, shape, middle + Vec3::Y);
    let down = probe.test_move(middle + Vec3::Y, Vec3::NEG_Y * 2.0);
    let normal = down.contact.expect("the slope is under the probe").normal;
    normal.angle_between(Vec3::Y).to_degrees()
}

/// Ticks checked so far by this test binary (printed with `--nocapture`).
static TICKS: AtomicU64 = AtomicU64::new(0);

/// What a run measured.
#[derive(Debug, Default)]
struct Run {
    ticks: u32,
    highest: f32,
    /// Where the body ended.
    end: Vec3,
}

/// How far the body's origin (its feet) is below the top of what it stands on, m: a rounded
/// bottom resting on a step's edge sits lower than the tread, and the max step height is a
/// height between surfaces, so its next step up may lift the origin by that much more.
fn sunk_below_support(body: &mut ParryBody, reach: f32) -> f32 {
    let feet = body.position();
    body.test_move(feet, Vec3::NEG_Y * reach)
        .contact
        .map_or(0.0, |support| (support.point.y - feet.y).max(0.0))
}

/// Runs the timeline and checks the per-tick invariants; returns what it measured.
fn run(
    world: Arc<World>,
    shape: CharacterShape,
    segments: &[(f32, f32, bool, f32)],
    rate: f32,
) -> Result<Run, TestCaseError> {
    let settings = ControllerSettings::default();
    let max_step = settings.stairs.max_step_height;
    let controller = Controller::new(settings).unwrap();
    let mut body: ParryBody = body(&world, shape, Vec3::ZERO);
    let margin = body.safe_margin();
    let dt = 1.0 / rate;
    let mut velocity = Vec3::ZERO;
    let mut out = Run::default();
    for &(yaw, push, jump, seconds) in segments {
        let wish = Quat::from_rotation_y(yaw) * Vec3::NEG_Z * push;
        for _ in 0..(seconds * rate).ceil() as u32 {
            let before = body.position();
            let sunk = sunk_below_support(&mut body, max_step);
            let rising_before = velocity.y.max(0.0);
            let report = controller.tick(
                &mut body,
                &TickInput {
                    wish_direction: wish,
                    jump,
                    velocity,
                    crouch: false,
                },
                dt,
            );
            velocity = report.velocity;
            let after = body.position();
            out.ticks += 1;
            out.highest = out.highest.max(after.y);
            out.end = after;
            prop_assert!(
                after.is_finite() && velocity.is_finite(),
                "non-finite at tick {}",
                out.ticks
            );
            let overlap = body.penetration();
            prop_assert!(
                overlap <= margin + OVERLAP_TOLERANCE,
                "overlap {overlap} m at {after} (tick {})",
                out.ticks
            );
            let rise = after.y - before.y;
            let explained = (rising_before.max(velocity.y.max(0.0))) * dt;
            let jump_rise = if report.jumped {
                controller.settings().gravity.jump_velocity * dt
            } else {
                0.0
            };
            prop_assert!(
                rise <= max_step + sunk + explained + jump_rise + margin + 1e-3,
                "rose {rise} m in one tick at {after} (tick {}, {sunk} m below its support)",
                out.ticks
            );
        }
    }
    let total = TICKS.fetch_add(u64::from(out.ticks), Ordering::Relaxed) + u64::from(out.ticks);
    eprintln!("ticks checked so far: {total}");
    Ok(out)
}

proptest! {
    #![proptest_config(config())]

    /// Finite positions, no overlap beyond the margin, no tick rising more than a step plus
    /// what the velocity explains, on random courses, inputs and tick rates (20 to 360 Hz).
    #[test]
    fn every_tick_keeps_the_invariants(course in course(), shape in shape(), segments in timeline(), rate in 20.0f32..360.0) {
        // `run` checks the invariants on every tick (each a `prop_assert!`).
        let world = world(course.solids());
        run(world, shape, &segments, rate)?;
    }

    /// A ramp steeper than the floor max angle is never walked up: without jumping the body
    /// gets no higher than one step onto its foot.
    #[test]
    fn steep_ramps_are_not_walked(degrees in 50.0f32..85.0, yaw in 0.0f32..0.3, shape in shape(), rate in 20.0f32..360.0) {
        let course = Course::Ramp { degrees, length: 6.0, yaw };
        let world = world(course.solids());
        // The ramp as built is steeper than the floor max angle: a capsule lowered onto the
        // middle of its slope meets a face whose normal is `degrees` from up.
        let face = ramp_face_angle(&world, degrees, yaw);
        let floor_max = kcc_parry::BodySettings::default().floor_max_angle.to_degrees();
        prop_assert!((face - degrees).abs() < 0.5, "the {degrees} degree ramp's face is at {face}");
        prop_assert!(face > floor_max, "a {face} degree face is floor (max {floor_max})");
        let segments = [(yaw, 1.0, false, 2.5)];
        let measured = run(world.clone(), shape, &segments, rate)?;
        let max_step = ControllerSettings::default().stairs.max_step_height;
        prop_assert!(measured.highest <= max_step + 0.01, "climbed to {} m on a {degrees} degree ramp", measured.highest);
        // And it got to the ramp: walked straight at it for 2.5 s, it ends against it (a
        // body that never moved, or stopped short, is not "not walked up").
        let direction = Quat::from_rotation_y(yaw) * Vec3::NEG_Z;
        let mut probe = body(&world, shape, measured.end);
        let ahead = probe.test_move(measured.end, direction * 0.05);
        prop_assert!(ahead.collided(), "stopped short of the ramp at {}", measured.end);
    }

    /// With no input on flat floor the body comes to rest within the release time plus a tick.
    #[test]
    fn comes_to_rest_within_release_time(speed in 0.0f32..1.0, yaw in 0.0f32..std::f32::consts::TAU, shape in shape(), rate in 20.0f32..360.0) {
        let world = world(vec![]);
        let settings = ControllerSettings::default();
        let release = settings.movement.ground.release_time;
        let max_speed = settings.movement.ground.max_speed;
        let controller = Controller::new(settings).unwrap();
        let mut body = body(&world, shape, Vec3::ZERO);
        settle(&controller, &mut body, rate);
        let mut velocity = Quat::from_rotation_y(yaw) * Vec3::NEG_Z * (speed * max_speed);
        let ticks = ((release + 1.0 / rate) * rate).ceil() as u32;
        for _ in 0..ticks {
            velocity = controller.tick(&mut body, &TickInput { wish_direction: Vec3::ZERO, jump: false, velocity, crouch: false }, 1.0 / rate).velocity;
        }
        prop_assert!(velocity.length() < 1e-4, "still moving at {} m/s", velocity.length());
        let rest = body.position();
        controller.tick(&mut body, &TickInput { wish_direction: Vec3::ZERO, jump: false, velocity, crouch: false }, 1.0 / rate);
        prop_assert!((body.position() - rest).length() < 1e-4);
    }
}

/// A cylinder walking diagonally over the sharp crest of a 42 degree wedge at 124.8 Hz (a soak
/// of 30 000 cases found one at 125.78 Hz; this search-found neighbour reproduces it): one
/// slide of the engine ends 1.7 cm inside the crest, and its floor snap leaves it 8 mm inside.
/// The slide's cast touches the crest, but at the stop it tried the crest's contact does not
/// oppose the motion and is dropped, so the motion counts as free and is made whole: Jolt's
/// `body_test_motion` as the parry world imitates it (docs/port.md, "The headless world"), not a
/// decision of the controller. The next tick's recovery puts the body back out; the test keeps
/// that bound: no overlap beyond the margin on two ticks in a row, none deeper than 2 cm.
#[test]
fn a_cylinder_over_a_sharp_wedges_crest_is_inside_it_for_one_tick_at_most() {
    let course = Course::Ramp {
        degrees: 42.406_37,
        length: 3.156_726_6,
        yaw: 5.825,
    };
    let world = world(course.solids());
    let shape = CharacterShape::Cylinder {
        radius: 0.421_475_74,
        height: 1.058_506,
    };
    let controller = Controller::new(ControllerSettings::default()).unwrap();
    let mut body: ParryBody = body(&world, shape, Vec3::ZERO);
    let limit = body.safe_margin() + OVERLAP_TOLERANCE;
    let rate = 124.8;
    let mut velocity = Vec3::ZERO;
    let (mut deepest, mut was_inside) = (0.0f32, false);
    for (yaw, push, seconds) in [(-0.3227f32, 0.0593, 0.3218f32), (0.2028, 0.9153, 0.7484)] {
        let wish = Quat::from_rotation_y(yaw) * Vec3::NEG_Z * push;
        for tick in 0..(seconds * rate).ceil() as u32 {
            let input = TickInput {
                wish_direction: wish,
                velocity,
                ..TickInput::default()
            };
            velocity = controller.tick(&mut body, &input, 1.0 / rate).velocity;
            let overlap = body.penetration();
            let inside = overlap > limit;
            assert!(
                !(inside && was_inside),
                "inside two ticks in a row (tick {tick}): {overlap} m"
            );
            deepest = deepest.max(overlap);
            was_inside = inside;
        }
    }
    assert!(deepest < 0.02, "{deepest} m inside the crest");
}
