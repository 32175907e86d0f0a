//! The `[expect]` keys as named checks of a run.

use glam::Vec3;

use crate::metrics::Metrics;
use kcc_godot::PhysicsEngine;

use crate::run::{ControllerKind, Run, WorldKind};
use crate::scenario::{Expectations, GodotPhysicsLimits, Risers, Scenario};

/// One named check and its outcome.
#[derive(Debug, Clone, PartialEq)]
pub struct Check {
    /// The `[expect]` key.
    pub name: &'static str,
    /// True when the measured value is within the limit.
    pub passed: bool,
    /// The measured value (unit of the key); `None` when nothing could be measured (no tick
    /// held input after the attack time, no tick with a step for a budget at a step), which
    /// fails the check.
    pub value: Option<f64>,
    /// The limit from the file.
    pub limit: f64,
}

/// The check every run of our controller gets, whatever the file asks (see [`Check::from_expect`]).
pub const REAL_VELOCITY: &str = "real_velocity";

impl Check {
    /// True when the check comes from a key of the scenario's `[expect]` table; false for
    /// [`REAL_VELOCITY`], which every run of our controller gets. A run passes only when at
    /// least one check comes from the file (see `Outcome::passed`).
    pub fn from_expect(&self) -> bool {
        self.name != REAL_VELOCITY
    }
}

/// `value` as the f64 with the same decimal digits (0.35f32 becomes 0.35, not
/// 0.3499999940395355), so limits print as they were written.
fn decimal(value: f32) -> f64 {
    value.to_string().parse().unwrap_or(f64::from(value))
}

/// Whether `value` is at most `limit`.
fn at_most(name: &'static str, value: Option<f64>, limit: f64) -> Check {
    Check {
        name,
        passed: value.is_some_and(|v| v <= limit),
        value,
        limit,
    }
}

/// Whether `value` is at least `limit`.
fn at_least(name: &'static str, value: Option<f64>, limit: f64) -> Check {
    Check {
        name,
        passed: value.is_some_and(|v| v >= limit),
        value,
        limit,
    }
}

/// The limit a run in `world` is held to: the file's `file`, or on Godot Physics the one
/// `own` picks from the file's `godot_physics` table when it has it (what Godot's own body
/// leaves there).
fn limit_in(
    expect: &Expectations,
    world: WorldKind,
    file: f32,
    own: fn(&GodotPhysicsLimits) -> Option<f32>,
) -> f64 {
    let on_godot_physics = world == WorldKind::Godot(PhysicsEngine::GodotPhysics);
    let own = expect.godot_physics.as_ref().and_then(own);
    decimal(own.filter(|_| on_godot_physics).unwrap_or(file))
}

/// Runs every check the scenario's `[expect]` table asks for, in the order of the keys in
/// `scenarios/README.md`.
pub fn evaluate(scenario: &Scenario, run: &Run, metrics: &Metrics) -> Vec<Check> {
    let expect = &scenario.expect;
    let mut checks = Vec::new();
    if let Some(reach) = expect.reach {
        let target = Vec3::from(reach.position);
        let before = reach.before.unwrap_or(f64::INFINITY);
        let closest = run
            .ticks
            .iter()
            .filter(|t| t.time <= before + 1e-9)
            .map(|t| f64::from(t.position.distance(target)))
            .reduce(f64::min);
        checks.push(at_most("reach", closest, decimal(reach.radius)));
    }
    if let Some(near) = expect.end_near {
        let distance = metrics.final_position.distance(Vec3::from(near.position));
        let radius = limit_in(expect, run.world, near.radius, |g| g.end_near_radius);
        checks.push(at_most("end_near", Some(f64::from(distance)), radius));
    }
    if let Some(limit) = expect.never_above {
        checks.push(at_most(
            "never_above",
            Some(metrics.highest),
            decimal(limit),
        ));
    }
    if let Some(limit) = expect.rises_above {
        checks.push(at_least(
            "rises_above",
            Some(metrics.highest),
            decimal(limit),
        ));
    }
    if let Some(wanted) = expect.crouched_at_end {
        let crouched = run.ticks.last().map(|t| f64::from(u8::from(t.crouched)));
        checks.push(Check {
            name: "crouched_at_end",
            passed: crouched == Some(f64::from(u8::from(wanted))),
            value: crouched,
            limit: f64::from(u8::from(wanted)),
        });
    }
    if let Some(limit) = expect.max_airborne_ticks {
        checks.push(at_most(
            "max_airborne_ticks",
            Some(metrics.airborne_ticks as f64),
            f64::from(limit),
        ));
    }
    if let Some(limit) = expect.min_grounded_ratio {
        checks.push(at_least(
            "min_grounded_ratio",
            Some(metrics.grounded_ratio),
            decimal(limit),
        ));
    }
    if let Some(limit) = expect.speed_ratio_min {
        checks.push(at_least(
            "speed_ratio_min",
            metrics.speed_ratio.map(|s| s.min),
            decimal(limit),
        ));
    }
    if let Some(limit) = expect.speed_ratio_max {
        checks.push(at_most(
            "speed_ratio_max",
            metrics.speed_ratio.map(|s| s.max),
            decimal(limit),
        ));
    }
    if let Some(limit) = expect.max_step_per_tick {
        checks.push(at_most(
            "max_step_per_tick",
            Some(metrics.max_step_per_tick),
            decimal(limit),
        ));
    }
    if let Some(file) = expect.max_penetration {
        let limit = limit_in(expect, run.world, file, |g| g.max_penetration);
        checks.push(at_most(
            "max_penetration",
            Some(metrics.max_penetration),
            limit,
        ));
    }
    if let Some(limit) = expect.max_steps {
        checks.push(at_most(
            "max_steps",
            Some((metrics.steps_up + metrics.steps_down) as f64),
            f64::from(limit),
        ));
    }
    // Our `stepped` signal's exact counts: the other controllers report none (the simulator
    // infers their steps from their motion), so the check does not apply to them.
    if let Some(risers) = expect
        .steps_per_riser
        .filter(|_| run.controller == ControllerKind::Kcc)
    {
        checks.push(at_most(
            "steps_per_riser",
            Some(riser_mismatches(run, risers) as f64),
            0.0,
        ));
    }
    if let Some(limit) = expect.max_step_tick_queries {
        // Our controller's budget at a step: the peers' queries are not counted, and Godot's
        // plain body, whose calls the Godot world counts, never steps. A run without a step
        // has nothing to measure (`None`), and a budget at a step it never took proves
        // nothing: it fails. The budget is a move's: a tick split into sub-steps (a low tick
        // rate) makes one move per sub-step.
        let counted = run.ticks.iter().all(|t| t.queries.is_some());
        if counted && run.controller == ControllerKind::Kcc {
            let most = run
                .ticks
                .iter()
                .filter(|t| t.stepped.is_some())
                .filter_map(|t| t.queries.map(|q| q.div_ceil(u64::from(t.substeps.max(1)))))
                .max();
            checks.push(at_most(
                "max_step_tick_queries",
                most.map(|m| m as f64),
                f64::from(limit),
            ));
        }
    }
    if let (Some(from), Some(_)) = (expect.on_wall_from, metrics.godot_state) {
        let off_wall = run
            .ticks
            .iter()
            .filter(|t| t.time > from + 1e-9 && t.input_held.is_some())
            .filter(|t| t.godot.is_none_or(|g| !g.on_wall || !g.slide_hit_wall))
            .count();
        checks.push(at_most("on_wall_from", Some(off_wall as f64), 0.0));
    }
    checks.extend(rigid_body_checks(scenario, run));
    checks.extend(character_checks(scenario, run));
    if let Some(state) = metrics.godot_state {
        checks.push(at_most(
            REAL_VELOCITY,
            Some(state.real_velocity_disagreements as f64),
            0.0,
        ));
    }
    checks
}

/// The checks on the rigid bodies (`pushed_speed`, `body_travel_max`, `body_end_near`,
/// `body_end_turn`). A run whose world did
/// not simulate them (a peer's) has nothing to measure: they fail.
fn rigid_body_checks(scenario: &Scenario, run: &Run) -> Vec<Check> {
    let expect = &scenario.expect;
    let mut checks = Vec::new();
    if let Some(pushed) = expect.pushed_speed {
        let top = scenario.character.controller.movement.ground.max_speed;
        let ratio = pushed_speed(run, pushed).map(|speed| speed / f64::from(top));
        checks.push(at_least("pushed_speed_min", ratio, decimal(pushed.min)));
        checks.push(at_most("pushed_speed_max", ratio, decimal(pushed.max)));
    }
    if let Some(limit) = expect.body_travel_max {
        let first = run.bodies.first().filter(|b| !b.is_empty());
        let travel = first.map(|start| {
            run.bodies
                .iter()
                .flat_map(|now| now.iter().zip(start).map(|(a, b)| a.distance(*b)))
                .fold(0.0f32, f32::max)
        });
        checks.push(at_most(
            "body_travel_max",
            travel.map(f64::from),
            decimal(limit),
        ));
    }
    if let Some(near) = expect.body_end_near {
        let end = run.bodies.last().and_then(|b| b.get(near.body));
        let distance = end.map(|c| f64::from(c.distance(Vec3::from(near.position))));
        let radius = limit_in(expect, run.world, near.radius, |g| g.body_end_near_radius);
        checks.push(at_most("body_end_near", distance, radius));
    }
    if let Some(turn) = expect.body_end_turn {
        let degrees = run
            .body_turns
            .get(turn.body)
            .map(|t| f64::from(t.to_degrees()));
        checks.push(at_least("body_end_turn_min", degrees, decimal(turn.min)));
        checks.push(at_most("body_end_turn_max", degrees, decimal(turn.max)));
    }
    checks
}

/// The checks on other characters and on standing still (`other_end_near`, `rest_after`). A
/// run whose controller did not move the other characters (a peer's) has nothing to measure
/// for `other_end_near`: it fails.
fn character_checks(scenario: &Scenario, run: &Run) -> Vec<Check> {
    let expect = &scenario.expect;
    let mut checks = Vec::new();
    if let Some(near) = expect.other_end_near {
        let end = run.others.last().and_then(|o| o.get(near.other));
        let distance = end.map(|p| f64::from(p.distance(Vec3::from(near.position))));
        checks.push(at_most("other_end_near", distance, decimal(near.radius)));
    }
    if let Some(rest) = expect.rest_after {
        let from = run.ticks.iter().find(|t| t.time >= rest.time - 1e-9);
        let travel = from.map(|from| {
            run.ticks
                .iter()
                .filter(|t| t.time >= from.time)
                .map(|t| f64::from(t.position.distance(from.position)))
                .fold(0.0, f64::max)
        });
        checks.push(at_most("rest_after", travel, decimal(rest.radius)));
    }
    if let Some(overlap) = expect.overlap_ticks {
        let deep = run
            .ticks
            .iter()
            .filter(|t| t.penetration > overlap.depth)
            .count();
        checks.push(at_most(
            "overlap_ticks",
            Some(deep as f64),
            f64::from(overlap.max),
        ));
    }
    checks
}

/// Mean horizontal speed of rigid body `pushed.body` between `pushed.from` and `pushed.to`
/// (s), m/s; `None` when the run did not record it then.
fn pushed_speed(run: &Run, pushed: crate::scenario::PushedSpeed) -> Option<f64> {
    let at = |time: f64| {
        let tick = run.ticks.iter().position(|t| t.time >= time - 1e-9)?;
        Some((
            run.ticks[tick].time,
            *run.bodies.get(tick)?.get(pushed.body)?,
        ))
    };
    let (start, from) = at(pushed.from)?;
    let (end, to) = at(pushed.to)?;
    let moved = Vec3::new(to.x - from.x, 0.0, to.z - from.z).length();
    (end > start).then(|| f64::from(moved) / (end - start))
}

/// How far a `stepped` may be from a riser's height to count as that riser's one step, m.
pub const RISER_TOLERANCE: f32 = 0.02;

/// How far the run's `stepped` signals are from one per riser: the steps each way more or
/// fewer than `risers` asks, plus the steps further than its tolerance ([`RISER_TOLERANCE`]
/// unless it gives one) from its height.
fn riser_mismatches(run: &Run, risers: Risers) -> u32 {
    let steps: Vec<f32> = run.ticks.iter().filter_map(|t| t.stepped).collect();
    let count = |up: bool| steps.iter().filter(|dy| (**dy > 0.0) == up).count() as u32;
    let off = steps
        .iter()
        .filter(|dy| (dy.abs() - risers.rise).abs() > risers.tolerance.unwrap_or(RISER_TOLERANCE))
        .count() as u32;
    count(true).abs_diff(risers.up) + count(false).abs_diff(risers.down) + off
}

#[cfg(test)]
mod tests {
    use super::*;

    const GODOT_PHYSICS: WorldKind = WorldKind::Godot(PhysicsEngine::GodotPhysics);

    fn expect(text: &str) -> Expectations {
        toml::from_str(text).unwrap()
    }

    #[test]
    fn godot_physics_limits_replace_the_files_on_godot_physics_only() {
        let e = expect(
            "max_penetration = 0.015\n\
             godot_physics = { max_penetration = 0.096, end_near_radius = 0.16 }",
        );
        let penetration = |world| limit_in(&e, world, 0.015, |g| g.max_penetration);
        assert_eq!(penetration(GODOT_PHYSICS), 0.096);
        assert_eq!(penetration(WorldKind::Godot(PhysicsEngine::Jolt)), 0.015);
        assert_eq!(penetration(WorldKind::Parry), 0.015);
        assert_eq!(
            limit_in(&e, GODOT_PHYSICS, 0.05, |g| g.end_near_radius),
            0.16
        );
        // A limit the table does not give stays the file's.
        assert_eq!(
            limit_in(&e, GODOT_PHYSICS, 0.05, |g| g.body_end_near_radius),
            0.05
        );
    }

    #[test]
    fn a_file_without_godot_physics_limits_keeps_its_own_everywhere() {
        let e = expect("max_penetration = 0.002");
        assert_eq!(
            limit_in(&e, GODOT_PHYSICS, 0.002, |g| g.max_penetration),
            0.002
        );
    }
}
