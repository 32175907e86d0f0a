//! `kcc-sim compare`: the same scenario run in the parry world and in the Godot world, side by
//! side, and every motion query of the parry run asked again of Godot from the same place.
//!
//! Two kinds of difference: where the runs go apart (the body's path, its floor state, the
//! steps taken), which compounds small differences over many ticks; and how each query is
//! answered (collided or not, travel, contact normal), which shows where our imitation of
//! Godot's `test_move` (kcc-parry) differs from Jolt's, query by query.

use kcc::MotionTest;
use serde_json::{Value, json};

use crate::godot::{GodotMover, GodotWorld};
use crate::metrics;
use crate::run::{self, ControllerKind, KccMover, RecordedMove, WorldKind};
use crate::scenario::Scenario;

/// A steps count in each world.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PerWorld {
    /// In the parry world.
    pub parry: usize,
    /// In the Godot world.
    pub godot: usize,
}

/// One scenario at one rate in both worlds.
#[derive(Debug, Clone, PartialEq)]
pub struct Comparison {
    /// Scenario name.
    pub scenario: String,
    /// Tick rate, Hz.
    pub tick_rate: f64,
    /// Largest distance between the body's positions in the two worlds after the same tick, m.
    pub max_divergence_m: f64,
    /// Ticks after which one world has the body on the floor and the other does not.
    pub floor_disagreements: usize,
    /// Ticks with a step up.
    pub steps_up: PerWorld,
    /// Ticks with a step down.
    pub steps_down: PerWorld,
    /// `test_move`s of the parry run asked again of Godot.
    pub replayed: usize,
    /// Of those, how many Godot answered as collided exactly when parry did.
    pub collided_agree: usize,
    /// Largest difference of travel between the worlds, over the queries whose collided flags
    /// agree, m.
    pub travel_error_max_m: f64,
    /// Largest angle between the contact normals, over the queries that collided in both, deg.
    pub normal_error_max_deg: f64,
}

impl Comparison {
    /// Share of replayed queries whose collided flags agree (1 when none were replayed).
    pub fn agreement(&self) -> f64 {
        if self.replayed == 0 {
            1.0
        } else {
            self.collided_agree as f64 / self.replayed as f64
        }
    }

    /// The JSON object of this comparison.
    pub fn to_json(&self) -> Value {
        json!({
            "scenario": self.scenario,
            "tick_rate": self.tick_rate,
            "max_divergence_m": self.max_divergence_m,
            "floor_disagreements": self.floor_disagreements,
            "steps_up": { "parry": self.steps_up.parry, "godot": self.steps_up.godot },
            "steps_down": { "parry": self.steps_down.parry, "godot": self.steps_down.godot },
            "replayed": self.replayed,
            "collided_agree": self.collided_agree,
            "collided_agree_ratio": self.agreement(),
            "travel_error_max_m": self.travel_error_max_m,
            "normal_error_max_deg": self.normal_error_max_deg,
        })
    }
}

/// How one replayed query differs: collided flags agree, travel difference (m) and normal
/// angle (deg) where they can be compared.
fn query_difference(
    parry: &RecordedMove,
    godot: &kcc::MotionTest,
) -> (bool, Option<f64>, Option<f64>) {
    let agree = parry.result.collided() == godot.collided();
    let travel = agree.then(|| f64::from(parry.result.travel.distance(godot.travel)));
    let normal = match (parry.result.contact, godot.contact) {
        (Some(a), Some(b)) => Some(f64::from(a.normal.angle_between(b.normal)).to_degrees()),
        _ => None,
    };
    (agree, travel, normal)
}

/// Runs `scenario` at `rate` Hz in both worlds and replays the parry run's queries in Godot.
/// A scenario with moving platforms, rigid bodies or other characters is compared run against
/// run only: its queries met them wherever they were at the time, and the replay's scene
/// holds still.
pub fn compare(
    scenario: &Scenario,
    rate: f64,
    godot: &mut GodotWorld,
) -> Result<Comparison, String> {
    let mut parry_mover = KccMover::recording(scenario);
    let parry = run::record(
        scenario,
        ControllerKind::Kcc,
        WorldKind::Parry,
        rate,
        &mut parry_mover,
    )?;
    let queries = parry_mover.take_recorded();
    let in_godot = run::run_in(scenario, ControllerKind::Kcc, rate, Some(godot))?;

    let max_divergence_m = parry
        .ticks
        .iter()
        .zip(&in_godot.ticks)
        .map(|(a, b)| f64::from(a.position.distance(b.position)))
        .fold(0.0, f64::max);
    let floor_disagreements = parry
        .ticks
        .iter()
        .zip(&in_godot.ticks)
        .filter(|(a, b)| a.on_floor != b.on_floor)
        .count();
    let (parry_metrics, godot_metrics) = (
        metrics::measure(scenario, &parry),
        metrics::measure(scenario, &in_godot),
    );

    let world = &scenario.world;
    let still = world.platforms().is_empty() && world.movables().is_empty();
    let replayed: &[RecordedMove] = if still && scenario.others.is_empty() {
        &queries
    } else {
        &[]
    };
    let answers = replay(scenario, rate, godot, replayed)?;
    let mut collided_agree = 0;
    let mut travel_error_max_m = 0.0f64;
    let mut normal_error_max_deg = 0.0f64;
    for (query, answer) in queries.iter().zip(&answers) {
        let (agree, travel, normal) = query_difference(query, answer);
        collided_agree += usize::from(agree);
        travel_error_max_m = travel_error_max_m.max(travel.unwrap_or(0.0));
        normal_error_max_deg = normal_error_max_deg.max(normal.unwrap_or(0.0));
    }
    Ok(Comparison {
        scenario: scenario.name.clone(),
        tick_rate: rate,
        max_divergence_m,
        floor_disagreements,
        steps_up: PerWorld {
            parry: parry_metrics.steps_up,
            godot: godot_metrics.steps_up,
        },
        steps_down: PerWorld {
            parry: parry_metrics.steps_down,
            godot: godot_metrics.steps_down,
        },
        replayed: answers.len(),
        collided_agree,
        travel_error_max_m,
        normal_error_max_deg,
    })
}

/// Each of `queries` asked again in a Godot scene of `scenario` at `rate` Hz, with the body's
/// shape as tall as it was when parry answered (a crouch's queries with the crouched shape).
fn replay(
    scenario: &Scenario,
    rate: f64,
    godot: &mut GodotWorld,
    queries: &[RecordedMove],
) -> Result<Vec<MotionTest>, String> {
    let mut mover = GodotMover::new(scenario, rate, godot, ControllerKind::Kcc)?;
    let mut answers = Vec::with_capacity(queries.len());
    for same in queries.chunk_by(|a, b| a.shape_height == b.shape_height) {
        mover.set_shape_height(same[0].shape_height);
        let moves: Vec<[glam::Vec3; 2]> = same.iter().map(|q| [q.from, q.motion]).collect();
        answers.extend(mover.replay(&moves)?);
    }
    Ok(answers)
}

/// Header of the comparison table.
pub fn table_header() -> String {
    format!(
        "{:<24} {:>5} {:>10} {:>8} {:>9} {:>9} {:>8} {:>8} {:>10} {:>10}",
        "scenario",
        "Hz",
        "diverge m",
        "floor !=",
        "up p/g",
        "down p/g",
        "replayed",
        "agree %",
        "travel mm",
        "normal deg"
    )
}

/// One row of the comparison table.
pub fn table_row(c: &Comparison) -> String {
    let name: String = c.scenario.chars().take(24).collect();
    format!(
        "{:<24} {:>5} {:>10.4} {:>8} {:>9} {:>9} {:>8} {:>8.2} {:>10.3} {:>10.2}",
        name,
        c.tick_rate,
        c.max_divergence_m,
        c.floor_disagreements,
        format!("{}/{}", c.steps_up.parry, c.steps_up.godot),
        format!("{}/{}", c.steps_down.parry, c.steps_down.godot),
        c.replayed,
        c.agreement() * 100.0,
        c.travel_error_max_m * 1000.0,
        c.normal_error_max_deg
    )
}

/// The summary line over `comparisons`: agreement over every replayed query, the largest
/// travel and normal errors and the largest divergence.
pub fn summary(comparisons: &[Comparison]) -> String {
    let replayed: usize = comparisons.iter().map(|c| c.replayed).sum();
    let agree: usize = comparisons.iter().map(|c| c.collided_agree).sum();
    let max = |f: fn(&Comparison) -> f64| comparisons.iter().map(f).fold(0.0, f64::max);
    format!(
        "compare: {agree} of {replayed} replayed queries agree on collided ({:.2} %), travel error max {:.3} mm, normal error max {:.2} deg, largest divergence {:.4} m over {} runs",
        if replayed == 0 {
            100.0
        } else {
            agree as f64 * 100.0 / replayed as f64
        },
        max(|c| c.travel_error_max_m) * 1000.0,
        max(|c| c.normal_error_max_deg),
        max(|c| c.max_divergence_m),
        comparisons.len()
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use glam::Vec3;
    use kcc::{Contact, MotionTest};

    fn hit(travel: Vec3, normal: Vec3) -> MotionTest {
        MotionTest {
            travel,
            remainder: Vec3::ZERO,
            contact: Some(Contact {
                normal,
                point: Vec3::ZERO,
                depth: 0.0,
                movable: false,
            }),
        }
    }

    fn free(travel: Vec3) -> MotionTest {
        MotionTest {
            travel,
            remainder: Vec3::ZERO,
            contact: None,
        }
    }

    #[test]
    fn queries_are_compared_by_flag_travel_and_normal() {
        let parry = RecordedMove {
            shape_height: 1.8,
            from: Vec3::ZERO,
            motion: Vec3::X,
            result: hit(Vec3::new(0.5, 0.0, 0.0), Vec3::NEG_X),
        };
        let tilted = Vec3::new(-1.0, 1.0, 0.0).normalize();
        let (agree, travel, normal) =
            query_difference(&parry, &hit(Vec3::new(0.502, 0.0, 0.0), tilted));
        assert!(agree);
        assert!((travel.unwrap() - 0.002).abs() < 1e-6);
        assert!((normal.unwrap() - 45.0).abs() < 1e-3);

        // A free answer to a blocked query disagrees, and its travel is not compared.
        let (agree, travel, normal) = query_difference(&parry, &free(Vec3::X));
        assert!(!agree);
        assert_eq!((travel, normal), (None, None));
    }

    #[test]
    fn the_summary_counts_every_replayed_query() {
        let row = |agree, replayed, travel| Comparison {
            scenario: "s".into(),
            tick_rate: 60.0,
            max_divergence_m: 0.01,
            floor_disagreements: 0,
            steps_up: PerWorld { parry: 1, godot: 1 },
            steps_down: PerWorld { parry: 0, godot: 0 },
            replayed,
            collided_agree: agree,
            travel_error_max_m: travel,
            normal_error_max_deg: 1.0,
        };
        let line = summary(&[row(99, 100, 0.001), row(100, 100, 0.002)]);
        assert!(line.contains("199 of 200"), "{line}");
        assert!(line.contains("99.50 %"), "{line}");
        assert!(line.contains("travel error max 2.000 mm"), "{line}");
        assert_eq!(row(0, 0, 0.0).agreement(), 1.0);
    }
}
