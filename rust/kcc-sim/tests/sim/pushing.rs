//! Pushing rigid bodies in the parry world (a Rapier simulation steps them between ticks): a
//! light crate slides ahead, a heavy one stays, a push strength of 0 makes a crate a wall, a
//! low crate is climbed only when the character may step onto bodies, a ball rolling into a
//! character stops against it and a pushed ball rolls ahead, and a `[[rigid_body]]` table's
//! mistakes are errors naming the table and key.

use std::path::Path;

use glam::Vec3;
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

#[test]
fn a_low_crate_is_stepped_onto_only_when_the_character_may_step_onto_bodies() {
    let mut scenario = course_file("push_crate_wall");
    let pushed = ours(&scenario, 60.0);
    assert!(pushed.ticks.iter().all(|t| t.stepped.is_none()));
    assert!(pushed.ticks.iter().all(|t| t.position.y < 0.01));
    scenario.character.controller.stairs.step_onto_bodies = true;
    let climbed = ours(&scenario, 60.0);
    let highest = climbed
        .ticks
        .iter()
        .map(|t| t.position.y)
        .fold(f32::MIN, f32::max);
    // The crate is 0.3 m tall: the character stands on it.
    assert!(highest > 0.28, "highest {highest} m");
    assert!(climbed.ticks.iter().any(|t| t.stepped.is_some()));
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
