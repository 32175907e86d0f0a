//! Pushing rigid bodies in the parry world (a Rapier simulation steps them between ticks): a
//! light crate slides ahead, a heavy one stays, a push strength of 0 makes a crate a wall, a
//! low crate is climbed only when the character may step onto bodies, a ball rolling into a
//! character stops against it and a pushed ball rolls ahead, the character's weight presses
//! on a body it stands on (and costs no query on static floor), and a `[[rigid_body]]` table's
//! mistakes are errors naming the table and key.

use std::path::Path;
use std::sync::Arc;

use glam::Vec3;
use kcc::{CharacterState, Controller, ControllerSettings, KinematicBody, TickInput};
use kcc_parry::{BodyPush, BodySettings, ParryBody, World, geometry};
use kcc_sim::run::{self, ControllerKind, Run};
use kcc_sim::scenario::{Scenario, ScenarioError};

fn course_file(name: &str) -> Scenario {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../scenarios");
    Scenario::load(&dir.join(format!("{name}.toml"))).unwrap()
}

fn ours(scenario: &Scenario, rate: f64) -> Run {
    run::run(scenario, ControllerKind::Kcc, rate).expect("the parry world answers")
}

/// How far the first rigid body's centre moved over the run, m.
fn crate_travel(run: &Run) -> f32 {
    let first = run.bodies.first().expect("a tick")[0];
    let last = run.bodies.last().expect("a tick")[0];
    first.distance(last)
}

fn last_position(run: &Run) -> Vec3 {
    run.ticks.last().expect("a tick").position
}

#[test]
fn a_light_crate_slides_ahead_and_a_heavy_one_stays() {
    for rate in [30.0, 144.0] {
        let light = ours(&course_file("push_crate_light"), rate);
        // Pushed for about 2.3 s at nearly 3 m/s, then it slides to a stop.
        let travel = crate_travel(&light);
        assert!(travel > 5.5 && travel < 7.5, "{rate} Hz: {travel} m");
        // The character follows it, over 6 m from its start.
        assert!(
            last_position(&light).z < -6.0,
            "{:?}",
            last_position(&light)
        );
        let heavy = ours(&course_file("push_crate_heavy"), rate);
        assert!(crate_travel(&heavy) < 0.01, "{}", crate_travel(&heavy));
        // It stops against the crate, whose back face is at z = -1.0, its radius away.
        let stopped = last_position(&heavy).z;
        assert!(
            (stopped + 0.6).abs() < 0.01,
            "{rate} Hz: stopped at z = {stopped}"
        );
    }
}

#[test]
fn with_no_strength_a_crate_is_a_wall() {
    let mut scenario = course_file("push_crate_light");
    scenario.character.controller.push.strength = 0.0;
    let run = ours(&scenario, 60.0);
    assert!(crate_travel(&run) < 1e-3, "{}", crate_travel(&run));
    assert!((last_position(&run).z + 0.6).abs() < 0.01);
}

/// A low crate against a wall is pushed (it cannot move) and not climbed, whichever way the
/// steps are found: from the slide's contacts, or by the probe before the slide (which sees the
/// crate through its contact's `movable`); allowed to step onto bodies, the character climbs it.
#[test]
fn a_low_crate_is_stepped_onto_only_when_the_character_may_step_onto_bodies() {
    use kcc::StepDetection;
    for detection in [StepDetection::Contacts, StepDetection::Probe] {
        let mut scenario = course_file("push_crate_wall");
        scenario.character.controller.stairs.ground_follow = kcc::GroundFollow::Snap {
            flat_base: true,
            detection,
        };
        for rate in [30.0, 60.0, 240.0] {
            let pushed = ours(&scenario, rate);
            assert!(
                pushed.ticks.iter().all(|t| t.stepped.is_none()),
                "{detection:?} at {rate} Hz"
            );
            assert!(
                pushed.ticks.iter().all(|t| t.position.y < 0.01),
                "{detection:?} at {rate} Hz"
            );
        }
        scenario.character.controller.stairs.step_onto_bodies = true;
        let climbed = ours(&scenario, 60.0);
        let highest = climbed
            .ticks
            .iter()
            .map(|t| t.position.y)
            .fold(f32::MIN, f32::max);
        // The crate is 0.3 m tall: the character stands on it.
        assert!(highest > 0.28, "{detection:?}: highest {highest} m");
        assert!(climbed.ticks.iter().any(|t| t.stepped.is_some()));
    }
}

/// The table and key a file whose `[[rigid_body]]` table holds `body` (its lines) is refused
/// for.
fn refused(body: &str) -> (String, String) {
    let text = format!(
        "name = \"t\"\nduration = 1.0\n[start]\nposition = [0, 0.02, 0]\n[[rigid_body]]\n{body}"
    );
    match Scenario::parse(Path::new("t.toml"), &text) {
        Err(ScenarioError::Invalid { table, key, .. }) => (table, key),
        other => panic!("{:?}", other.map(|s| s.name)),
    }
}

#[test]
fn a_rigid_body_needs_a_mass_above_zero_and_a_box() {
    let mass_0 = refused("box = { center = [0, 0.5, -2], size = [1, 1, 1] }\nmass = 0\n");
    assert_eq!(mass_0, ("rigid_body #1".into(), "mass".into()));
    let no_box = refused("mass = 5\n");
    assert_eq!(no_box, ("rigid_body #1".into(), "box".into()));
}

#[test]
fn a_rolling_ball_stops_against_the_character_and_a_pushed_one_rolls_ahead() {
    for rate in [30.0, 144.0] {
        let run = ours(&course_file("ball_rolls_into_character"), rate);
        // It stands still; the ball rolls 2.3 m and rests against it, the two radii apart.
        assert!(
            last_position(&run).length() < 0.01,
            "{:?}",
            last_position(&run)
        );
        let ball = run.bodies.last().expect("a tick")[0];
        assert!((ball.z + 0.7).abs() < 0.05, "{rate} Hz: the ball at {ball}");
        assert!(run.ticks.iter().all(|t| t.on_floor && t.stepped.is_none()));
        let pushed = ours(&course_file("open/push_ball"), rate);
        // Pushed for about 2.1 s at nearly 3 m/s, then it rolls on.
        assert!(
            crate_travel(&pushed) > 6.0,
            "{rate} Hz: {}",
            crate_travel(&pushed)
        );
        assert!(pushed.ticks.iter().all(|t| t.position.y.abs() < 0.01));
    }
}

#[test]
fn a_rigid_body_is_one_box_or_one_ball() {
    let both = refused(
        "box = { center = [0, 0.5, -2], size = [1, 1, 1] }\n\
         ball = { center = [0, 0.5, -2], radius = 0.5 }\nmass = 1\n",
    );
    assert_eq!(both, ("rigid_body #1".into(), "box".into()));
    let radius_0 = refused("ball = { center = [0, 0.5, -2], radius = 0 }\nmass = 1\n");
    assert_eq!(radius_0, ("rigid_body #1".into(), "ball".into()));
}

#[test]
fn a_turned_crate_keeps_its_turn_once_the_simulation_moves_it() {
    // 1.6 m wide and 0.8 m deep, turned 90 degrees about up: 1.6 m deep along the walk. Too
    // heavy to push: the character stops at its back face (0.8 m before its centre, z = -1.2),
    // its radius away.
    let text = "name = \"turned\"\nduration = 2.0\n[character]\nmax_speed = 3.0\n\
                [start]\nposition = [0, 0, 0]\n\
                [[solid]]\nbox = { center = [0, -0.5, 0], size = [40, 1, 40] }\n\
                [[rigid_body]]\nbox = { center = [0, 0.35, -2.0], size = [1.6, 0.7, 0.8], \
                rotation_deg = [0, 90, 0] }\nmass = 500\n\
                [[input]]\nduration = 2.0\nmove = [0, -1]\n";
    let scenario = Scenario::parse(Path::new("turned.toml"), text).unwrap();
    let run = ours(&scenario, 60.0);
    let stopped = last_position(&run).z;
    assert!((stopped + 0.8).abs() < 0.01, "stopped at z = {stopped}");
}

/// A capsule standing still for 10 ticks of 1/60 s on the floor, or (`board`) on a 20 kg board
/// 0.1 m thick lying on it, with the character's weight on bodies as `weight` says: the
/// impulses it gave over the last 5 ticks, and the motion queries of the last tick.
fn standing_still(board: bool, weight: bool) -> (Vec<BodyPush>, u64) {
    let mut world = World::new();
    let floor = geometry::aabb_box(Vec3::new(0.0, -0.5, 0.0), Vec3::new(40.0, 1.0, 40.0));
    world.add(floor.unwrap());
    let top = if board {
        let center = Vec3::new(0.0, 0.05, 0.0);
        let solid = geometry::aabb_box(center, Vec3::new(2.0, 0.1, 2.0)).unwrap();
        world.add_movable(solid, center, 20.0, Vec3::ZERO);
        0.1
    } else {
        0.0
    };
    let mut settings = ControllerSettings::default();
    settings.push.weight_on_bodies = weight;
    let controller = Controller::new(settings).unwrap();
    let start = Vec3::new(0.0, top + 0.01, 0.0);
    let mut body = ParryBody::new(Arc::new(world), BodySettings::default(), start).unwrap();
    let mut state = CharacterState::default();
    let mut pushes = Vec::new();
    let mut queries = 0;
    for tick in 0..10 {
        let before = body.queries();
        controller.tick_with(&mut body, &TickInput::default(), &mut state, 1.0 / 60.0);
        queries = body.queries() - before;
        let given = body.take_pushes();
        if tick >= 5 {
            pushes.extend(given);
        }
    }
    assert!(body.is_on_floor(), "{:?}", body.position());
    (pushes, queries)
}

#[test]
fn the_characters_weight_presses_on_the_body_it_stands_on_at_the_contact() {
    let (pushes, _) = standing_still(true, true);
    // One press a tick: 80 kg x 9.8 m/s² over 1/60 s, straight down, on the board's top.
    assert_eq!(pushes.len(), 5, "{pushes:?}");
    for push in &pushes {
        assert_eq!(push.movable, 0);
        let weight = Vec3::new(0.0, -80.0 * 9.8 / 60.0, 0.0);
        assert!(push.impulse.distance(weight) < 1e-3, "{push:?}");
        let point = push.point.expect("at the contact");
        assert!(point.x.abs() < 0.01 && point.z.abs() < 0.01, "{push:?}");
        assert!((point.y - 0.1).abs() < 0.01, "{push:?}");
    }
    // Off, the board feels nothing.
    let (pushes, _) = standing_still(true, false);
    assert!(pushes.is_empty(), "{pushes:?}");
}

#[test]
fn on_static_floor_the_weight_costs_no_query_after_the_first_tick() {
    let (pushes, with) = standing_still(false, true);
    let (_, without) = standing_still(false, false);
    assert!(pushes.is_empty(), "{pushes:?}");
    assert_eq!(with, without);
}

/// Rapier's controller, as a peer, pushes the rigid bodies of a world of its own with its own
/// impulses (`solve_character_collision_impulses`, the character's mass), and Rapier steps
/// them: a light crate slides ahead of the character, and a ball rolling into the standing
/// character stops against its kinematic body. Without them the crates stood still where
/// they started.
#[test]
fn rapiers_character_pushes_crates_with_its_own_impulses() {
    for rate in [30.0, 144.0] {
        let light = run::run(
            &course_file("push_crate_light"),
            ControllerKind::Rapier,
            rate,
        )
        .expect("Rapier's world");
        let travel = crate_travel(&light);
        assert!(travel > 2.0, "{rate} Hz: the crate moved {travel} m");
        // The crate's back face (0.5 m behind its centre) stays ahead of the character's front.
        let crate_z = light.bodies.last().expect("a tick")[0].z;
        let front = last_position(&light).z - 0.4;
        assert!(
            crate_z + 0.5 <= front + 0.01,
            "{rate} Hz: {crate_z} vs {front}"
        );
        let ball = run::run(
            &course_file("ball_rolls_into_character"),
            ControllerKind::Rapier,
            rate,
        )
        .expect("Rapier's world");
        let stopped = ball.bodies.last().expect("a tick")[0];
        // It rolled from z = -3 toward the character at the origin, and stopped short of it.
        assert!(stopped.z > -2.0 && stopped.z < -0.5, "{rate} Hz: {stopped}");
    }
}
