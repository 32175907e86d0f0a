//! `kcc-sim bench`: the per-tick cost of our controller and of its peers (Rapier's, and Jolt's
//! with the feature `jolt`) on the same course in one run, as ratios, and the wall time of a
//! tick of many characters moving at once.

use std::path::Path;
use std::rc::Rc;
use std::time::Instant;

use glam::Vec3;

use crate::course;
use crate::rapier::RapierMover;
use crate::run::{self, Command, ControllerKind, KccMover, Mover};
use crate::scenario::Scenario;
use crate::tape;

/// Tick rate of the crowd, Hz.
pub const CROWD_RATE: f64 = 60.0;

/// What to measure.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct BenchOptions {
    /// Characters moving at once in the crowd measurement.
    pub characters: usize,
    /// Times each scenario is run per controller; the fastest run counts.
    pub repeats: u32,
    /// Ticks the crowd runs.
    pub crowd_ticks: u32,
}

/// Cost of one controller on one scenario.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Cost {
    /// Ticks of one run.
    pub ticks: u64,
    /// Wall time of the fastest run's ticks, ns.
    pub nanos: u64,
}

impl Cost {
    /// Mean wall time of a tick, µs.
    pub fn micros_per_tick(&self) -> f64 {
        self.nanos as f64 / 1000.0 / self.ticks.max(1) as f64
    }
}

/// The commands of every tick of `scenario` at `rate` Hz, for `ticks` ticks.
pub(crate) fn commands(scenario: &Scenario, rate: f64, ticks: u64) -> Vec<Command> {
    (0..ticks)
        .map(|i| {
            scenario.input_at(i as f64 / rate).map_or(
                Command {
                    wish: Vec3::ZERO,
                    jump: false,
                    crouch: false,
                },
                |s| Command {
                    wish: s.wish,
                    jump: s.jump,
                    crouch: s.crouch,
                },
            )
        })
        .collect()
}

/// Times only the ticks of `kind` running `scenario` at its own rate, fastest of `repeats`.
pub fn cost(scenario: &Scenario, kind: ControllerKind, repeats: u32) -> Cost {
    let rate = scenario.tick_rate;
    let ticks = scenario.ticks(rate);
    let commands = commands(scenario, rate, ticks);
    let dt = (1.0 / rate) as f32;
    let mut best = u64::MAX;
    for _ in 0..repeats.max(1) {
        let mut mover = run::mover(scenario, kind);
        let clock = Instant::now();
        for command in &commands {
            mover.tick(command, dt);
        }
        best = best.min(clock.elapsed().as_nanos() as u64);
    }
    Cost { ticks, nanos: best }
}

/// Characters moving at once, each with the index of the scenario whose commands it follows.
type Crowd = Vec<(Box<dyn Mover>, usize)>;

/// Wall time of one tick of `movers` moving at once, ns per tick, over `ticks` ticks; movers
/// follow the commands of the scenario they were made for.
fn crowd(movers: &mut Crowd, commands: &[Vec<Command>], ticks: u32) -> f64 {
    let dt = (1.0 / CROWD_RATE) as f32;
    let clock = Instant::now();
    for tick in 0..ticks as usize {
        for (mover, scenario) in movers.iter_mut() {
            let commands = &commands[*scenario];
            mover.tick(&commands[tick % commands.len()], dt);
        }
    }
    clock.elapsed().as_nanos() as f64 / f64::from(ticks.max(1))
}

/// `n` characters of `kind` spread over `scenarios` in turn, each with the index of its
/// scenario. The peers share one world per scenario, as a game's characters share its level.
fn crowd_of(kind: ControllerKind, scenarios: &[Scenario], n: usize) -> Result<Crowd, String> {
    let make: Box<dyn Fn(usize) -> Box<dyn Mover>> = match kind {
        ControllerKind::Kcc | ControllerKind::Plain => {
            Box::new(move |index| Box::new(KccMover::driven(&scenarios[index], kind)))
        }
        ControllerKind::Rapier => {
            let worlds: Vec<_> = scenarios
                .iter()
                .map(|s| Rc::new(course::rapier_world(&s.world)))
                .collect();
            Box::new(move |index| {
                Box::new(RapierMover::in_world(
                    &scenarios[index],
                    worlds[index].clone(),
                ))
            })
        }
        #[cfg(feature = "jolt")]
        ControllerKind::Jolt => {
            let worlds = scenarios
                .iter()
                .map(|s| crate::jolt::world(&s.world))
                .collect::<Result<Vec<_>, _>>()?;
            Box::new(move |index| {
                Box::new(crate::jolt::JoltMover::in_world(
                    &scenarios[index],
                    worlds[index].clone(),
                ))
            })
        }
    };
    (0..n)
        .map(|i| {
            let index = i % scenarios.len();
            let mut mover = make(index);
            match mover.failure() {
                Some(failure) => Err(format!("{}: {failure}", scenarios[index].name)),
                None => Ok((mover, index)),
            }
        })
        .collect()
}

/// The line on the core alone: every scenario's recorded parry answers replayed to the
/// controller (see [`crate::tape`]), its time a tick, its allocations a tick and its share of
/// `with_world` (ns: our controller's time in the parry world on the same course).
fn core_alone(scenarios: &[Scenario], repeats: u32, with_world: u64) -> String {
    let (mut ticks, mut nanos, mut allocations, mut diverged) = (0u64, 0u64, Some(0u64), 0);
    for scenario in scenarios {
        let cost = tape::replay(scenario, &tape::record(scenario), repeats);
        ticks += cost.ticks;
        nanos += cost.nanos;
        allocations = allocations.zip(cost.allocations).map(|(a, b)| a + b);
        diverged += usize::from(cost.diverged);
    }
    let per_tick = nanos as f64 / 1000.0 / ticks.max(1) as f64;
    let allocated = allocations.map_or("not counted in this program".to_string(), |a| {
        format!("{:.3} allocations a tick", a as f64 / ticks.max(1) as f64)
    });
    let mut line = format!(
        "core alone (each run's parry answers replayed, no world): {per_tick:.2} us/tick, \
         {allocated}, {:.0} % of kcc's time with its world",
        100.0 * nanos as f64 / with_world.max(1) as f64
    );
    if diverged > 0 {
        line += &format!(" ({diverged} replays diverged: not the runs' time)");
    }
    line
}

/// The per-scenario table of [`bench`] and the course's totals: our time (ns), each peer's
/// (ns, in [`ControllerKind::PEERS`] order), the ticks of each, and the worst scenario against
/// each peer (its name and our time over the peer's).
struct CourseCost {
    rows: Vec<String>,
    ours: u64,
    theirs: Vec<u64>,
    ticks: u64,
    worst: Vec<(String, f64)>,
}

/// Measures every scenario with our controller and each peer (the fastest of `repeats` runs).
fn course_cost(scenarios: &[Scenario], repeats: u32) -> Result<CourseCost, String> {
    let peers = ControllerKind::PEERS;
    let mut total = CourseCost {
        rows: Vec::new(),
        ours: 0,
        theirs: vec![0; peers.len()],
        ticks: 0,
        worst: vec![(String::new(), 0.0); peers.len()],
    };
    for scenario in scenarios {
        let kcc = cost(scenario, ControllerKind::Kcc, repeats);
        let mut row = format!(
            "{:<24} {:>6} {:>12.2}",
            scenario.name,
            kcc.ticks,
            kcc.micros_per_tick()
        );
        for (i, peer) in peers.iter().enumerate() {
            let cost = cost(scenario, *peer, repeats);
            let ratio = kcc.nanos as f64 / cost.nanos.max(1) as f64;
            row += &format!(" {:>14.2} {ratio:>11.2}", cost.micros_per_tick());
            total.theirs[i] += cost.nanos;
            if ratio > total.worst[i].1 {
                total.worst[i] = (scenario.name.clone(), ratio);
            }
        }
        let run = run::run(scenario, ControllerKind::Kcc, scenario.tick_rate)?;
        let queries = crate::metrics::measure(scenario, &run)
            .queries_per_tick
            .map_or("-".to_string(), |q| format!("{:.2} / {}", q.mean, q.max));
        total.rows.push(format!("{row} {queries:>16}"));
        total.ours += kcc.nanos;
        total.ticks += kcc.ticks;
    }
    Ok(total)
}

/// The time of a tick of `n` characters at once (ns) for our controller and then each peer.
fn crowd_cost(scenarios: &[Scenario], n: usize, ticks: u32) -> Result<Vec<f64>, String> {
    let commands: Vec<Vec<Command>> = scenarios
        .iter()
        .map(|s| commands(s, CROWD_RATE, s.ticks(CROWD_RATE)))
        .collect();
    std::iter::once(ControllerKind::Kcc)
        .chain(ControllerKind::PEERS.iter().copied())
        .map(|kind| Ok(crowd(&mut crowd_of(kind, scenarios, n)?, &commands, ticks)))
        .collect()
}

/// Runs the benchmark on the scenarios in `dir` and prints the results: the ratios first,
/// then the table of every scenario and the times behind the ratios. Errors are messages for
/// the user.
pub fn bench(dir: &Path, options: &BenchOptions) -> Result<(), String> {
    let scenarios = course::load_all(dir)?;
    if cfg!(debug_assertions) {
        eprintln!("note: a debug build; measure with `cargo run --release -p kcc-sim -- bench`");
    }
    let peers = ControllerKind::PEERS;
    let n = options.characters;
    let course = course_cost(&scenarios, options.repeats)?;
    let alone = core_alone(&scenarios, options.repeats, course.ours);
    let crowd = crowd_cost(&scenarios, n, options.crowd_ticks)?;

    println!(
        "Ratios (kcc over each peer, each controller in its own world, measured in this run):"
    );
    for (i, peer) in peers.iter().enumerate() {
        let name = peer.name();
        let (worst, ratio) = &course.worst[i];
        println!(
            "  kcc/{name}: course {:.2}, {n} characters at once {:.2}, worst scenario {worst} {ratio:.2}",
            course.ours as f64 / course.theirs[i].max(1) as f64,
            crowd[0] / crowd[i + 1].max(1.0),
        );
    }
    println!("  {alone}");
    println!(
        "  (inside Godot, ours over Godot's plain body by Godot's own clock: `kcc-sim demo --world godot`)"
    );

    println!();
    println!(
        "Per-tick cost on the course, each scenario at its own tick rate, fastest of {} runs:",
        options.repeats.max(1)
    );
    let mut header = format!("{:<24} {:>6} {:>12}", "scenario", "ticks", "kcc us/tick");
    for peer in peers {
        let name = peer.name();
        header += &format!(
            " {:>14} {:>11}",
            format!("{name} us/tick"),
            format!("kcc/{name}")
        );
    }
    println!("{header} {:>16}", "kcc queries/tick");
    for row in &course.rows {
        println!("{row}");
    }
    let per_tick = |nanos: u64| nanos as f64 / 1000.0 / course.ticks.max(1) as f64;
    let mut line = format!("course: kcc {:.2} us/tick", per_tick(course.ours));
    for (peer, total) in peers.iter().zip(&course.theirs) {
        line += &format!(", {} {:.2} us/tick", peer.name(), per_tick(*total));
    }
    println!("{line} ({} ticks each)", course.ticks);

    println!(
        "{n} characters moving at once on the course ({} scenarios in turn), {} ticks at {CROWD_RATE} Hz, one thread:",
        scenarios.len(),
        options.crowd_ticks
    );
    let kinds = std::iter::once(ControllerKind::Kcc).chain(peers.iter().copied());
    for (kind, nanos) in kinds.zip(&crowd) {
        println!(
            "{:<7} {:>9.3} ms per tick ({:.2} us per character)",
            kind.name(),
            nanos / 1e6,
            nanos / 1000.0 / n.max(1) as f64
        );
    }
    Ok(())
}
