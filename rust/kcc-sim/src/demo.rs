//! `kcc-sim demo`: the public course with our controller and its peers (Rapier's, and Jolt's
//! with the feature `jolt`) at every tick rate, progress on stderr, then the comparison table,
//! and plots and traces of each scenario at its own rate.

use std::path::{Path, PathBuf};

use crate::course::{self, Profile};
use crate::godot::GodotWorld;
use crate::report::{self, Outcome};
use crate::run::{self, ControllerKind};
use crate::{plot, trace};

/// Tick rates the demo runs at, Hz.
pub const DEMO_RATES: [f64; 4] = [30.0, 60.0, 144.0, 240.0];

/// What the demo found.
pub struct Summary {
    /// Runs of our controller, and how many passed every check.
    pub kcc: (usize, usize),
    /// Each peer's runs, and how many passed every check: Godot's plain body first when the
    /// demo ran in the Godot world, then [`ControllerKind::PEERS`] in order.
    pub peers: Vec<(ControllerKind, (usize, usize))>,
}

/// Runs the scenarios in `dir` at `rates` with every controller, prints the tables to stdout and
/// writes plots and traces under `out` (`plots/`, `traces/`). With `godot`, our controller
/// and Godot's plain body ([`ControllerKind::Plain`]) run in the Godot world (the other peers
/// in their own); `shape_margin` (m) replaces the files' margin of boxes and hulls. Errors are
/// messages for the user.
pub fn demo(
    dir: &Path,
    out: &Path,
    rates: &[f64],
    mut godot: Option<&mut GodotWorld>,
    shape_margin: Option<f32>,
) -> Result<Summary, String> {
    let mut scenarios = course::load_all(dir)?;
    if let Some(margin) = shape_margin {
        for scenario in &mut scenarios {
            scenario.set_shape_margin(margin)?;
        }
    }

    // Godot's plain body is a peer only where a real Godot answers: the parry world imitates
    // our controller's queries, not a whole game's.
    let plain = godot.is_some().then_some(ControllerKind::Plain);
    let kinds: Vec<ControllerKind> = std::iter::once(ControllerKind::Kcc)
        .chain(plain)
        .chain(ControllerKind::PEERS.iter().copied())
        .collect();
    let names: Vec<&str> = kinds.iter().map(|k| k.name()).collect();
    let total = scenarios.len() * rates.len() * kinds.len();
    let rate_list = rates
        .iter()
        .map(|r| r.to_string())
        .collect::<Vec<_>>()
        .join(", ");
    eprintln!(
        "kcc-sim demo: {} scenarios from {}, at {rate_list} Hz, with {} ({total} runs)",
        scenarios.len(),
        dir.display(),
        names.join(", "),
    );
    let plots = out.join("plots");
    let traces = out.join("traces");
    let mut done = 0;
    let mut outcomes: Vec<Vec<Outcome>> = Vec::new();
    let mut written: Vec<PathBuf> = Vec::new();
    for scenario in &scenarios {
        let profile = Profile::new(&scenario.world);
        let mut scenario_outcomes = Vec::new();
        let mut scenario_rates = rates.to_vec();
        if !scenario_rates.contains(&scenario.tick_rate) {
            scenario_rates.push(scenario.tick_rate);
        }
        for &rate in &scenario_rates {
            for &kind in &kinds {
                let run = run::run_in(scenario, kind, rate, godot.as_deref_mut())?;
                let outcome = Outcome::new(scenario, run);
                if rate == scenario.tick_rate {
                    let write = |e: std::io::Error| format!("{}: {e}", out.display());
                    written.push(
                        plot::write(scenario, &outcome.run, &profile, &plots).map_err(write)?,
                    );
                    trace::write(&outcome.run, &traces).map_err(write)?;
                }
                if rates.contains(&rate) {
                    done += 1;
                    eprintln!(
                        "[{done:>3}/{total}] {:<24} {:>5} Hz {:<6} {} {}/{} checks",
                        scenario.name,
                        rate,
                        kind.name(),
                        if outcome.passed() { "PASS" } else { "FAIL" },
                        outcome.checks_passed(),
                        outcome.checks.len()
                    );
                }
                scenario_outcomes.push(outcome);
            }
        }
        outcomes.push(scenario_outcomes);
    }

    if godot.is_some() {
        println!(
            "kcc and plain (Godot's own CharacterBody3D: move_and_slide with its floor snap, our \
             movement curves, no stair stepping) run in the Godot world; the other peers in their \
             own worlds"
        );
    }
    println!(
        "Pass per tick rate ({rate_list} Hz): every check of a scenario passed (P) or not (F)"
    );
    let width = scenarios
        .iter()
        .map(|s| s.name.len())
        .max()
        .unwrap_or(0)
        .max(24);
    let row = |first: &str, cells: &[String]| {
        let cells: Vec<String> = cells.iter().map(|c| format!("{c:<14}")).collect();
        format!("{first:<width$}  {}", cells.join("  "))
            .trim_end()
            .to_string()
    };
    let heads: Vec<String> = names.iter().map(|n| n.to_string()).collect();
    println!("{}", row("scenario", &heads));
    let mut counts = vec![(0usize, 0usize); kinds.len()];
    for (scenario, runs) in scenarios.iter().zip(&outcomes) {
        let mut cells = Vec::new();
        for (&kind, count) in kinds.iter().zip(counts.iter_mut()) {
            let marks: Vec<&Outcome> = runs
                .iter()
                .filter(|o| o.run.controller == kind && rates.contains(&o.run.tick_rate))
                .collect();
            let passed = marks.iter().filter(|o| o.passed()).count();
            count.0 += marks.len();
            count.1 += passed;
            let letters: String = marks
                .iter()
                .map(|o| if o.passed() { 'P' } else { 'F' })
                .collect();
            cells.push(format!("{letters} {passed}/{}", marks.len()));
        }
        println!("{}", row(&scenario.name, &cells));
    }
    let passed: Vec<String> = names
        .iter()
        .zip(&counts)
        .map(|(name, (runs, passed))| format!("{name} {passed} of {runs}"))
        .collect();
    println!("runs passed: {}", passed.join(", "));
    println!(
        "(each controller over the checks it can have: the exact count of `stepped` signals and \
         the queries at a step are ours alone)"
    );
    let at_rates: Vec<&Outcome> = outcomes
        .iter()
        .flatten()
        .filter(|o| rates.contains(&o.run.tick_rate))
        .collect();
    if let Some(cost) = report::godot_cost(&at_rates) {
        println!("{cost}");
    }
    let summary = Summary {
        kcc: counts[0],
        peers: kinds[1..]
            .iter()
            .copied()
            .zip(counts[1..].to_vec())
            .collect(),
    };
    println!();
    println!("Side by side at each scenario's own tick rate:");
    println!("{}", report::table_header());
    for (scenario, runs) in scenarios.iter().zip(&outcomes) {
        for outcome in runs
            .iter()
            .filter(|o| o.run.tick_rate == scenario.tick_rate)
        {
            println!("{}", report::table_row(outcome));
        }
    }
    println!();
    println!(
        "Plots (height of the body and of the smoothed camera against distance, over the floor \
         and ceiling under the path): {} ({} SVG files, e.g. {})",
        plots.display(),
        written.len(),
        written
            .first()
            .map_or(String::new(), |p| p.display().to_string())
    );
    println!("Per-tick traces: {} (CSV)", traces.display());
    Ok(summary)
}
