//! The public course in `scenarios/`: our controller passes every check at 60 Hz (CI runs all
//! four rates with the release binary), and the query targets of the issue.

use std::path::Path;

use kcc_sim::course;
use kcc_sim::report::Outcome;
use kcc_sim::run::{self, ControllerKind};
use kcc_sim::scenario::Scenario;

fn public_course() -> Vec<Scenario> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../scenarios");
    let files = course::files(&dir).unwrap();
    assert!(files.len() >= 14, "{} scenarios", files.len());
    files.iter().map(|f| Scenario::load(f).unwrap()).collect()
}

#[test]
fn the_public_course_passes_for_kcc_at_60_hz() {
    let mut failures = Vec::new();
    for scenario in public_course() {
        let outcome = Outcome::new(&scenario, run::run(&scenario, ControllerKind::Kcc, 60.0));
        for check in outcome.checks.iter().filter(|c| !c.passed) {
            failures.push(format!(
                "{}: {} = {:?}, limit {}",
                scenario.name, check.name, check.value, check.limit
            ));
        }
        assert!(
            !outcome.checks.is_empty(),
            "{} has no checks",
            scenario.name
        );
    }
    assert!(failures.is_empty(), "{failures:#?}");
}

/// Largest number of motion queries of one tick of `name` at `rate` Hz.
fn max_queries(course: &[Scenario], name: &str, rate: f64) -> u64 {
    let scenario = course.iter().find(|s| s.name == name).unwrap();
    let run = run::run(scenario, ControllerKind::Kcc, rate);
    run.ticks.iter().filter_map(|t| t.queries).max().unwrap()
}

#[test]
fn flat_ground_costs_at_most_3_queries_a_tick() {
    let course = public_course();
    for rate in [30.0, 60.0, 144.0, 240.0] {
        assert!(max_queries(&course, "flat_ground", rate) <= 3, "{rate} Hz");
    }
}

#[test]
fn no_tick_of_the_course_costs_more_than_20_queries() {
    // A step over a capsule's edge: the slide, the sweeps, the lift's slide, the step down
    // onto the edge (15 before edge support).
    let course = public_course();
    for scenario in &course {
        for rate in [30.0, 60.0, 144.0, 240.0] {
            let most = max_queries(&course, &scenario.name, rate);
            assert!(most <= 20, "{} at {rate} Hz: {most} queries", scenario.name);
        }
    }
}
