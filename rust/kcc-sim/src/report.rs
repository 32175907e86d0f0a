//! The outcome of a run (metrics and checks) as a table row or a JSON object.

use serde_json::{Value, json};

use crate::checks::{self, Check};
use crate::metrics::{self, GodotState, Metrics, Spread};
use crate::run::{ControllerKind, Run};
use crate::scenario::Scenario;

/// A run with what it measured and how its checks went.
pub struct Outcome {
    /// The run.
    pub run: Run,
    /// Its metrics.
    pub metrics: Metrics,
    /// Its checks, in the order of `scenarios/README.md`.
    pub checks: Vec<Check>,
}

impl Outcome {
    /// Measures and checks `run` of `scenario`.
    pub fn new(scenario: &Scenario, run: Run) -> Self {
        let metrics = metrics::measure(scenario, &run);
        let checks = checks::evaluate(scenario, &run, &metrics);
        Self {
            run,
            metrics,
            checks,
        }
    }

    /// True when at least one check comes from the scenario's `[expect]` table and every check
    /// passed. A run with no such check proves nothing and fails, at every rate and for every
    /// controller: a file without `[expect]` keys, or a peer's run of a file whose keys all
    /// apply to our controller only (`max_step_tick_queries`, `on_wall_from`); the
    /// `real_velocity` check every run of ours gets does not count.
    pub fn passed(&self) -> bool {
        self.has_expect_checks() && self.checks.iter().all(|c| c.passed)
    }

    /// True when at least one check comes from the scenario's `[expect]` table.
    pub fn has_expect_checks(&self) -> bool {
        self.checks.iter().any(Check::from_expect)
    }

    /// Number of checks that passed.
    pub fn checks_passed(&self) -> usize {
        self.checks.iter().filter(|c| c.passed).count()
    }

    /// The JSON object of this outcome (see `scenarios/README.md` for the fields).
    pub fn to_json(&self) -> Value {
        let m = &self.metrics;
        let spread = |s: Option<Spread>| match s {
            Some(s) => json!({ "min": s.min, "mean": s.mean, "max": s.max }),
            None => json!({ "min": null, "mean": null, "max": null }),
        };
        let queries = match m.queries_per_tick {
            Some(q) => json!({ "mean": q.mean, "max": q.max }),
            None => json!({ "mean": null, "max": null }),
        };
        let round_trips = m
            .round_trips_per_tick
            .map(|q| json!({ "mean": q.mean, "max": q.max }));
        let godot_state = m.godot_state.map(|g| {
            json!({
                "real_velocity_error_max": g.real_velocity_error_max,
                "real_velocity_disagreements": g.real_velocity_disagreements,
                "on_wall_ticks": g.on_wall_ticks,
                "wall_collision_ticks": g.wall_collision_ticks,
                "slide_collisions_max": g.slide_collisions_max,
                "floor_agreement": g.floor_agreement,
                "floor_differences": {
                    "step_ticks": g.floor_differences.step_ticks,
                    "standing_unseen": g.floor_differences.standing_unseen,
                    "engine_only": g.floor_differences.engine_only,
                },
            })
        });
        json!({
            "scenario": self.run.scenario,
            "controller": self.run.controller.name(),
            "world": self.run.world.name(),
            "physics": self.run.world.physics(),
            "tick_rate": self.run.tick_rate,
            "ticks": m.ticks,
            "final_position": m.final_position.to_array(),
            "passed": self.passed(),
            "checks": self.checks.iter().map(|c| json!({
                "name": c.name,
                "passed": c.passed,
                "value": c.value,
                "limit": c.limit,
            })).collect::<Vec<_>>(),
            "airborne_ticks": m.airborne_ticks,
            "grounded_ratio": m.grounded_ratio,
            "horizontal_speed": spread(m.horizontal_speed),
            "speed_ratio": spread(m.speed_ratio),
            "camera_max_change": m.camera_max_change,
            "steps_up": m.steps_up,
            "steps_down": m.steps_down,
            "max_step_per_tick": m.max_step_per_tick,
            "max_penetration": m.max_penetration,
            "highest": m.highest,
            "queries_per_tick": queries,
            "round_trips_per_tick": round_trips,
            "godot_physics_us": m.godot_physics_us_median.map(|all| json!({
                "median": all,
                "step_tick_median": m.godot_physics_us_step_median,
            })),
            "godot_state": godot_state,
            "ns_per_tick": { "median": m.ns_per_tick_median },
        })
    }
}

/// Header of the table printed by `kcc-sim run` and `kcc-sim demo`.
pub fn table_header() -> String {
    format!(
        "{:<24} {:>5} {:<6} {:<5} {:<4} {:>6} {:>5} {:>6} {:>17} {:>7} {:>6} {:>7} {:>9} {:>7}  {}",
        "scenario",
        "Hz",
        "ctrl",
        "world",
        "ok",
        "checks",
        "air",
        "ground",
        "speed min/avg/max",
        "step+/-",
        "dy max",
        "pen mm",
        "queries",
        "us/tick",
        "failed checks (value vs limit)"
    )
}

/// One table row: controller and world, pass or fail, checks passed, airborne ticks, grounded share, horizontal speed
/// (m/s), steps up/down, largest vertical move of a tick (m), deepest overlap (mm), queries per
/// tick (mean/max), median tick time (µs) and the failed checks.
pub fn table_row(outcome: &Outcome) -> String {
    let m = &outcome.metrics;
    let run = &outcome.run;
    let speed = m.horizontal_speed.map_or("-".to_string(), |s| {
        format!("{:.2}/{:.2}/{:.2}", s.min, s.mean, s.max)
    });
    let queries = m
        .queries_per_tick
        .map_or("-".to_string(), |q| format!("{:.1}/{}", q.mean, q.max));
    let mut failed: Vec<String> = outcome
        .checks
        .iter()
        .filter(|c| !c.passed)
        .map(|c| {
            let value = c.value.map_or("none".to_string(), |v| format!("{v:.3}"));
            format!("{} {value} vs {}", c.name, c.limit)
        })
        .collect();
    if !outcome.has_expect_checks() {
        failed.push("no check from [expect] applies to this run".to_string());
    }
    let name: String = run.scenario.chars().take(24).collect();
    format!(
        "{:<24} {:>5} {:<6} {:<5} {:<4} {:>6} {:>5} {:>5.1}% {:>17} {:>7} {:>6.3} {:>7.2} {:>9} {:>7.1}  {}",
        name,
        run.tick_rate,
        run.controller.name(),
        run.world.name(),
        if outcome.passed() { "PASS" } else { "FAIL" },
        format!("{}/{}", outcome.checks_passed(), outcome.checks.len()),
        m.airborne_ticks,
        m.grounded_ratio * 100.0,
        speed,
        format!("{}/{}", m.steps_up, m.steps_down),
        m.max_step_per_tick,
        m.max_penetration * 1000.0,
        queries,
        m.ns_per_tick_median as f64 / 1000.0,
        failed.join("; ")
    )
}

/// One line per controller and world in `outcomes`, in order of appearance: runs passed,
/// motion queries a tick (mean over every tick, and the most in one), and over the runs of
/// stairs scenarios (names with `stairs`) the horizontal speed ratio and the largest change of
/// the smoothed camera's height in one tick (m).
pub fn summaries(outcomes: &[Outcome]) -> Vec<String> {
    let mut groups: Vec<(&str, &str)> = Vec::new();
    for outcome in outcomes {
        let key = (outcome.run.controller.name(), outcome.run.world.label());
        if !groups.contains(&key) {
            groups.push(key);
        }
    }
    groups
        .into_iter()
        .map(|(controller, world)| {
            let runs: Vec<&Outcome> = outcomes
                .iter()
                .filter(|o| o.run.controller.name() == controller && o.run.world.label() == world)
                .collect();
            summary(controller, world, &runs)
        })
        .collect()
}

/// The summary's words on how often Godot's `is_on_floor()` said what the controller said
/// (see [`crate::metrics::GodotState::floor_agreement`]): the lowest share of a run, the runs
/// below [`FLOOR_AGREEMENT`], and why the ticks of those runs differ (the engine cannot see the
/// controller's support on a step tick or over an edge; any other difference is named with its
/// runs); nothing when no run kept Godot's state.
fn floor_agreement(runs: &[&Outcome]) -> String {
    let states: Vec<(&Outcome, GodotState)> = runs
        .iter()
        .filter_map(|o| Some((*o, o.metrics.godot_state?)))
        .collect();
    let Some(lowest) = states
        .iter()
        .map(|(_, g)| g.floor_agreement)
        .reduce(f64::min)
    else {
        return String::new();
    };
    let below: Vec<&(&Outcome, GodotState)> = states
        .iter()
        .filter(|(_, g)| g.floor_agreement < FLOOR_AGREEMENT)
        .collect();
    let (steps, unseen) = below.iter().fold((0, 0), |(s, u), (_, g)| {
        let d = g.floor_differences;
        (s + d.step_ticks, u + d.standing_unseen)
    });
    let engine_only: Vec<String> = states
        .iter()
        .filter(|(_, g)| g.floor_differences.engine_only > 0)
        .map(|(o, g)| {
            let run = &o.run;
            format!(
                "{} at {} Hz ({})",
                run.scenario, run.tick_rate, g.floor_differences.engine_only
            )
        })
        .collect();
    let others = if engine_only.is_empty() {
        "none otherwise".to_owned()
    } else {
        format!(
            "engine on floor where the controller is not: {}",
            engine_only.join(", ")
        )
    };
    format!(
        "; is_on_floor() agrees {:.1} % of ticks at worst, {} runs below {:.1} % (their \
         differing ticks: {steps} step ticks, {unseen} standing where the engine sees no floor; \
         {others})",
        lowest * 100.0,
        below.len(),
        FLOOR_AGREEMENT * 100.0
    )
}

/// Share of a run's ticks on which Godot's `is_on_floor()` should say what the controller
/// says of the body.
pub const FLOOR_AGREEMENT: f64 = 0.999;

/// The summary line of `runs` of one controller in one world (see [`summaries`]).
fn summary(controller: &str, world: &str, runs: &[&Outcome]) -> String {
    let passed = runs.iter().filter(|o| o.passed()).count();
    let ticks: usize = runs.iter().map(|o| o.metrics.ticks).sum();
    let counted: Option<Vec<(f64, f64, usize)>> = runs
        .iter()
        .map(|o| {
            o.metrics
                .queries_per_tick
                .map(|q| (q.mean, q.max, o.metrics.ticks))
        })
        .collect();
    let queries = match counted {
        Some(counted) if ticks > 0 => {
            let total: f64 = counted.iter().map(|(mean, _, n)| mean * *n as f64).sum();
            let most = counted.iter().map(|c| c.1).fold(0.0, f64::max);
            format!("{:.2} a tick, at most {most}", total / ticks as f64)
        }
        _ => "not counted".to_string(),
    };
    let stairs: Vec<&&Outcome> = runs
        .iter()
        .filter(|o| o.run.scenario.contains("stairs"))
        .collect();
    let ratio = Spread::of(
        stairs
            .iter()
            .filter_map(|o| o.metrics.speed_ratio)
            .flat_map(|s| [s.min, s.max]),
    )
    .map_or("-".to_string(), |s| format!("{:.3} to {:.3}", s.min, s.max));
    let camera = stairs
        .iter()
        .map(|o| o.metrics.camera_max_change)
        .fold(0.0, f64::max);
    format!(
        "summary {controller} ({world} world): {passed} of {} runs passed; queries {queries}; \
         on stairs: speed ratio {ratio}, largest camera move in a tick {camera:.3} m{}{}",
        runs.len(),
        floor_agreement(runs),
        godot_physics_time(runs)
    )
}

/// The median over `runs` of a per-run median time (us), `None` when no run has one.
fn median_of(runs: &[&Outcome], of: impl Fn(&Outcome) -> Option<f64>) -> Option<f64> {
    let mut values: Vec<f64> = runs.iter().filter_map(|o| of(o)).collect();
    values.sort_by(f64::total_cmp);
    let n = values.len();
    (n > 0).then(|| (values[(n - 1) / 2] + values[n / 2]) / 2.0)
}

/// The summary's words on the time Godot spent in the port's calls (see
/// [`crate::metrics::Metrics::godot_physics_us_median`]): the median run's median tick, and
/// its median step tick; nothing outside the Godot world.
fn godot_physics_time(runs: &[&Outcome]) -> String {
    let Some(tick) = median_of(runs, |o| o.metrics.godot_physics_us_median) else {
        return String::new();
    };
    let step = median_of(runs, |o| o.metrics.godot_physics_us_step_median)
        .map_or(String::new(), |us| format!(", {us:.0} us on a step tick"));
    format!("; physics calls inside Godot (its clock, medians) {tick:.0} us a tick{step}")
}

/// What our controller's physics calls cost inside Godot next to Godot's plain body's, from
/// the runs of both in the Godot world (medians by Godot's own clock, see
/// [`crate::metrics::Metrics::godot_physics_us_median`]): on `flat_ground` (every rate) ours
/// over plain, and our step ticks over a plain tick on the same stairs files. `None` without
/// runs of both.
pub fn godot_cost(outcomes: &[&Outcome]) -> Option<String> {
    let of = |kind: ControllerKind, flat: bool| -> Vec<&Outcome> {
        outcomes
            .iter()
            .copied()
            .filter(|o| o.run.controller == kind && (o.run.scenario == "flat_ground") == flat)
            .collect()
    };
    let tick = |o: &Outcome| o.metrics.godot_physics_us_median;
    let flat_ours = median_of(&of(ControllerKind::Kcc, true), tick)?;
    let flat_plain = median_of(&of(ControllerKind::Plain, true), tick)?;
    let step_ours = median_of(&of(ControllerKind::Kcc, false), |o| {
        o.metrics.godot_physics_us_step_median
    })?;
    let tick_plain = median_of(&of(ControllerKind::Plain, false), tick)?;
    Some(format!(
        "physics calls inside Godot (Godot's own clock, medians): on flat ground ours {flat_ours:.0} \
         us a tick, Godot's plain body {flat_plain:.0} us ({:.2} x); on a step tick ours \
         {step_ours:.0} us, a plain body's tick on the same files {tick_plain:.0} us ({:.1} x)",
        flat_ours / flat_plain,
        step_ours / tick_plain
    ))
}
