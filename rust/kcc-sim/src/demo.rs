//! `kcc-sim demo`: the public course with both controllers at every tick rate, progress on
//! stderr, then the comparison table, and plots and traces of each scenario at its own rate.

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
    /// Runs of Rapier's controller, and how many passed every check.
    pub rapier: (usize, usize),
}

/// Runs the scenarios in `dir` at `rates` with both controllers, prints the tables to stdout and
/// writes plots and traces under `out` (`plots/`, `traces/`). With `godot`, our controller
/// runs in the Godot world (Rapier's stays in the parry world); `shape_margin` (m) replaces the
/// files' margin of boxes and hulls. Errors are messages for the user.
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

    let kinds = [ControllerKind::Kcc, ControllerKind::Rapier];
    let total = scenarios.len() * rates.len() * kinds.len();
    let rate_list = rates
        .iter()
        .map(|r| r.to_string())
        .collect::<Vec<_>>()
        .join(", ");
    eprintln!(
        "kcc-sim demo: {} scenarios from {}, at {rate_list} Hz, with kcc and rapier ({total} runs)",
        scenarios.len(),
        dir.display(),
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
            for kind in kinds {
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
        println!("kcc runs in the Godot world; Rapier's controller runs in the parry world");
    }
    println!(
        "Pass per tick rate ({rate_list} Hz): every check of a scenario passed (P) or not (F)"
    );
    println!("{:<24}  {:<14}  {:<14}", "scenario", "kcc", "rapier");
    let mut summary = Summary {
        kcc: (0, 0),
        rapier: (0, 0),
    };
    for (scenario, runs) in scenarios.iter().zip(&outcomes) {
        let mut cells = Vec::new();
        for kind in kinds {
            let marks: Vec<&Outcome> = runs
                .iter()
                .filter(|o| o.run.controller == kind && rates.contains(&o.run.tick_rate))
                .collect();
            let passed = marks.iter().filter(|o| o.passed()).count();
            let count = match kind {
                ControllerKind::Kcc => &mut summary.kcc,
                ControllerKind::Rapier => &mut summary.rapier,
            };
            count.0 += marks.len();
            count.1 += passed;
            let letters: String = marks
                .iter()
                .map(|o| if o.passed() { 'P' } else { 'F' })
                .collect();
            cells.push(format!("{letters} {passed}/{}", marks.len()));
        }
        println!("{:<24}  {:<14}  {:<14}", scenario.name, cells[0], cells[1]);
    }
    println!(
        "runs passed: kcc {} of {}, rapier {} of {}",
        summary.kcc.1, summary.kcc.0, summary.rapier.1, summary.rapier.0
    );
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
