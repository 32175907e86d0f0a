//! `kcc-sim`: run scenario files with the kcc controller (and its peers, Rapier's and Jolt's), print metrics and
//! checks, write traces and plots, run the public course as a demo, and benchmark.
//!
//! Exit codes: 0 every check passed, 1 a check failed, 2 invalid input (a scenario, the command
//! line) or an output that cannot be written.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::{Parser, Subcommand, ValueEnum};
use kcc::{GroundFollow, StepDetection};
use kcc_godot::PhysicsEngine;
use kcc_sim::bench::{self, BenchOptions};
use kcc_sim::course::{self, Profile};
use kcc_sim::demo::{self, DEMO_RATES};
use kcc_sim::godot::{GodotOptions, GodotWorld};
use kcc_sim::report::{self, Outcome};
use kcc_sim::run::{self, ControllerKind};
use kcc_sim::scenario::{MAX_TICK_RATE, MAX_TICKS, Scenario};
use kcc_sim::{compare, known, plot, trace};

/// Headless scenario runner for the kcc character controller.
#[derive(Parser)]
#[command(name = "kcc-sim", version, about, long_about = None)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Run scenario files and print a table (or JSON) of checks and metrics.
    Run(RunArgs),
    /// Run the public course with every controller of this build at 30, 60, 144 and 240 Hz,
    /// print the comparison and write plots.
    Demo(DemoArgs),
    /// Per-tick cost of kcc and its peers on the course, and many characters at once.
    Bench(BenchArgs),
    /// Run scenarios in the parry world and in the Godot world, and replay every motion
    /// query of the parry run in Godot: where the worlds differ.
    Compare(CompareArgs),
    /// Write the web demo (the sample course in Godot's web template, moved by the core built
    /// for wasm) as a static site, and serve it on 127.0.0.1.
    WebDemo(WebDemoArgs),
}

#[derive(clap::Args)]
struct WebDemoArgs {
    /// The wasm build of the core (scripts/web-demo/build-wasm.sh); under the repository's
    /// root when relative.
    #[arg(long, default_value = kcc_sim::web::CORE)]
    core: PathBuf,
    /// Folder to write the site into (out/web-demo when absent).
    #[arg(long)]
    out: Option<PathBuf>,
    /// Serve the site on 127.0.0.1 after writing it, until stopped.
    #[arg(long)]
    serve: bool,
    /// Port to serve on (0: any free port).
    #[arg(long, default_value_t = 8060)]
    port: u16,
}

#[derive(clap::Args)]
struct CompareArgs {
    /// Scenario files (TOML).
    #[arg(required = true)]
    files: Vec<PathBuf>,
    /// Tick rates, Hz (comma separated); the file's rate when absent.
    #[arg(long, value_delimiter = ',')]
    tick_rate: Vec<f64>,
    /// Print a JSON array of comparisons instead of the table.
    #[arg(long)]
    json: bool,
    /// `Shape3D.margin` of every static box and hull, m, in both worlds; the file's
    /// `shape_margin` (Godot's default 0.04) when absent.
    #[arg(long, value_name = "M")]
    shape_margin: Option<f32>,
    /// Seconds to wait for Godot to start and for each answer.
    #[arg(long, value_name = "S")]
    godot_timeout: Option<f64>,
    /// The physics engine that answers the replays, `jolt` (the default) or `godot` (Godot
    /// Physics).
    #[arg(long, value_enum, value_name = "ENGINE")]
    physics: Option<Physics>,
    /// Exit code 1 when fewer replayed queries than this share agree on collided (0..1).
    #[arg(long, default_value_t = 0.99)]
    min_agreement: f64,
}

#[derive(clap::Args)]
struct RunArgs {
    /// Scenario files (TOML).
    #[arg(required = true)]
    files: Vec<PathBuf>,
    /// Tick rates to run each scenario at, Hz (comma separated); the file's rate when absent.
    #[arg(long, value_delimiter = ',')]
    tick_rate: Vec<f64>,
    /// Which controller moves the character.
    #[arg(long, value_enum, default_value_t = Choice::Kcc)]
    controller: Choice,
    /// Print a JSON array of results instead of the table.
    #[arg(long)]
    json: bool,
    /// Write a per-tick CSV trace of each run into this folder.
    #[arg(long, value_name = "DIR")]
    trace: Option<PathBuf>,
    /// Write an SVG plot of each run into this folder.
    #[arg(long, value_name = "DIR")]
    plot: Option<PathBuf>,
    /// How our controller finds steps, for every file with stair sweeps (snap): from the move's
    /// contacts or by a probe every tick; each file's own (default contacts) when absent.
    #[arg(long, value_enum)]
    step_detection: Option<Detection>,
    /// How our controller follows the ground, for every file: stair sweeps that snap, or a
    /// probe under a floating shape that moves the body smoothly (a file of the other mode
    /// takes that mode's defaults); each file's own `ground_follow` (default snap) when absent.
    #[arg(long, value_enum)]
    ground_follow: Option<Follow>,
    /// Whether rounded bottoms stand flat on stair edges, for every file with stair sweeps
    /// (snap): `true` (the controller's default) or `false` (a capsule rolls over each edge);
    /// each file's own when absent.
    #[arg(long, value_name = "true|false", action = clap::ArgAction::Set)]
    flat_base: Option<bool>,
    /// A file of runs expected to fail, `scenario rate` a line (`#` starts the reason): the
    /// command then passes when exactly those runs fail. For an engine's own faults
    /// (scenarios/godot-physics-known-failures.txt), never for ours.
    #[arg(long, value_name = "FILE")]
    known_failures: Option<PathBuf>,
    #[command(flatten)]
    world: WorldArgs,
}

/// `--ground-follow` values.
#[derive(Clone, Copy, PartialEq, Eq, ValueEnum)]
enum Follow {
    /// Stair sweeps: lifted onto steps and snapped down at once (the default).
    Snap,
    /// A probe under a floating shape: the body moves toward the ground's height smoothly.
    Smooth,
}

/// `--step-detection` values.
#[derive(Clone, Copy, PartialEq, Eq, ValueEnum)]
enum Detection {
    /// From the move's own contacts: the stair sweeps run when the slide met a wall (and
    /// first, for a body held on a stair's edge).
    Contacts,
    /// A probe along the motion before every grounded move.
    Probe,
}

impl From<Detection> for StepDetection {
    fn from(detection: Detection) -> Self {
        match detection {
            Detection::Contacts => Self::Contacts,
            Detection::Probe => Self::Probe,
        }
    }
}

/// Where our controller runs.
#[derive(clap::Args)]
struct WorldArgs {
    /// The world that answers our controller's physics queries: `parry` (our imitation of
    /// Godot, fast) or `godot` (a real Godot 4.6 + Jolt in headless Chromium; set it up with
    /// scripts/godot-web/setup.sh). Godot's plain body (`--controller plain`) runs there too;
    /// the peers (Rapier's, Jolt's) run in their own worlds.
    #[arg(long, value_enum, default_value_t = World::Parry)]
    world: World,
    /// `Shape3D.margin` of every static box and hull, m, in both worlds (Jolt rounds their
    /// edges by it, and the parry world does the same); the file's `shape_margin` (Godot's
    /// default 0.04) when absent.
    #[arg(long, value_name = "M")]
    shape_margin: Option<f32>,
    /// Godot world: seconds to wait for Godot to start and for each answer.
    #[arg(long, value_name = "S")]
    godot_timeout: Option<f64>,
    /// Godot world: the physics engine that answers, `jolt` (the default) or `godot` (Godot
    /// Physics); both are in the web template.
    #[arg(long, value_enum, value_name = "ENGINE")]
    physics: Option<Physics>,
}

/// `--physics` values.
#[derive(Clone, Copy, PartialEq, Eq, ValueEnum)]
enum Physics {
    /// Jolt Physics (the default).
    Jolt,
    /// Godot Physics (`GodotPhysics3D`).
    Godot,
}

/// `--world` values.
#[derive(Clone, Copy, PartialEq, Eq, ValueEnum)]
enum World {
    /// kcc-parry: our imitation of Godot's queries.
    Parry,
    /// A real Godot 4.6 with Jolt, headless.
    Godot,
}

impl WorldArgs {
    /// Applies `--shape-margin` to `scenarios`; errors are messages for the user.
    fn apply_margin(&self, scenarios: &mut [Scenario]) -> Result<(), String> {
        let Some(margin) = self.shape_margin else {
            return Ok(());
        };
        if !(margin.is_finite() && margin >= 0.0) {
            return Err(format!("--shape-margin: must be 0 m or more, got {margin}"));
        }
        scenarios
            .iter_mut()
            .try_for_each(|s| s.set_shape_margin(margin))
            .map_err(|e| format!("--shape-margin {margin}: {e}"))
    }

    /// The Godot world when asked for, started; errors are messages for the user.
    fn start(&self) -> Result<Option<GodotWorld>, String> {
        let timeout = match self.godot_timeout {
            Some(t) if !(t.is_finite() && t > 0.0 && t <= 3600.0) => {
                return Err(format!(
                    "--godot-timeout: must be more than 0 s and at most 3600 s, got {t}"
                ));
            }
            t => t.map(std::time::Duration::from_secs_f64),
        };
        if self.world == World::Parry {
            if self.godot_timeout.is_some() {
                return Err("--godot-timeout needs --world godot".into());
            }
            if self.physics.is_some() {
                return Err("--physics needs --world godot".into());
            }
            return Ok(None);
        }
        let physics = match self.physics {
            Some(Physics::Godot) => PhysicsEngine::GodotPhysics,
            Some(Physics::Jolt) | None => PhysicsEngine::Jolt,
        };
        let world = GodotWorld::start(GodotOptions { timeout, physics })?;
        eprintln!("{}", world.describe());
        Ok(Some(world))
    }
}

#[derive(clap::Args)]
struct DemoArgs {
    /// Folder of the course (default: ./scenarios, else the repository's).
    #[arg(long, value_name = "DIR")]
    scenarios: Option<PathBuf>,
    /// Folder for plots and traces.
    #[arg(long, value_name = "DIR", default_value = "out")]
    out: PathBuf,
    #[command(flatten)]
    world: WorldArgs,
}

#[derive(clap::Args)]
struct BenchArgs {
    /// Characters moving at once.
    #[arg(long, default_value_t = 1000)]
    characters: usize,
    /// Runs of each scenario per controller; the fastest counts.
    #[arg(long, default_value_t = 5)]
    repeats: u32,
    /// Ticks the characters run at once (at 60 Hz).
    #[arg(long, default_value_t = 60)]
    ticks: u32,
    /// Folder of the course (default: ./scenarios, else the repository's).
    #[arg(long, value_name = "DIR")]
    scenarios: Option<PathBuf>,
}

/// `--controller` values.
#[derive(Clone, Copy, PartialEq, Eq, ValueEnum)]
enum Choice {
    /// Our controller.
    Kcc,
    /// Godot's plain CharacterBody3D without this addon (move_and_slide with its floor snap,
    /// our movement curves), in the world asked.
    Plain,
    /// Rapier's KinematicCharacterController.
    Rapier,
    /// Jolt's CharacterVirtual (a build with `--features jolt`).
    Jolt,
    /// Ours and Rapier's, one after the other.
    Both,
    /// Ours and every peer of this build: Rapier's, and Jolt's with `--features jolt`.
    All,
}

impl Choice {
    /// The controllers chosen; an error line when this build lacks one.
    fn kinds(self) -> Result<Vec<ControllerKind>, String> {
        Ok(match self {
            Self::Kcc => vec![ControllerKind::Kcc],
            Self::Plain => vec![ControllerKind::Plain],
            Self::Rapier => vec![ControllerKind::Rapier],
            #[cfg(feature = "jolt")]
            Self::Jolt => vec![ControllerKind::Jolt],
            #[cfg(not(feature = "jolt"))]
            Self::Jolt => return Err(NO_JOLT.to_string()),
            Self::Both => vec![ControllerKind::Kcc, ControllerKind::Rapier],
            Self::All => std::iter::once(ControllerKind::Kcc)
                .chain(ControllerKind::PEERS.iter().copied())
                .collect(),
        })
    }
}

/// What `--controller jolt` says in a build without Jolt.
#[cfg(not(feature = "jolt"))]
const NO_JOLT: &str = "--controller jolt: this kcc-sim was built without Jolt; build it with \
    `cargo build --release -p kcc-sim --features jolt` (needs CMake 3.20 or newer: `pip install \
    cmake`), or run it as scripts/kcc-sim.sh, which does both";

/// Counts allocations, for `bench`'s line on the core alone.
#[global_allocator]
static ALLOCATOR: kcc_sim::tape::CountingAllocator = kcc_sim::tape::CountingAllocator;

/// Exit code: every check passed.
const PASSED: u8 = 0;
/// Exit code: a check failed.
const FAILED: u8 = 1;
/// Exit code: invalid input or unwritable output.
const INVALID: u8 = 2;

fn web_demo(args: &WebDemoArgs) -> Result<bool, String> {
    let core = kcc_sim::godot::repo_root().join(&args.core);
    let files = kcc_sim::web::site(&core)?;
    let out = args.out.clone().unwrap_or_else(kcc_sim::web::default_out);
    kcc_sim::web::write(&files, &out)?;
    let size: usize = files.iter().map(|f| f.data.len()).sum();
    println!(
        "web-demo: {} files, {} KiB, in {} (static files: any web server can serve them)",
        files.len(),
        size / 1024,
        out.display()
    );
    if args.serve {
        kcc_sim::web::serve(files, args.port)?;
    }
    Ok(true)
}

fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => {
            let _ = e.print();
            return ExitCode::from(if e.use_stderr() { INVALID } else { PASSED });
        }
    };
    let result = match cli.command {
        Command::Run(args) => run_files(&args),
        Command::Demo(args) => {
            let dir = args.scenarios.clone().unwrap_or_else(course::default_dir);
            let margin = args.world.shape_margin;
            args.world.start().and_then(|mut godot| {
                demo::demo(&dir, &args.out, &DEMO_RATES, godot.as_mut(), margin)
                    .map(|s| s.kcc.0 == s.kcc.1)
            })
        }
        Command::Bench(args) => {
            let dir = args.scenarios.unwrap_or_else(course::default_dir);
            let options = BenchOptions {
                characters: args.characters,
                repeats: args.repeats,
                crowd_ticks: args.ticks,
            };
            bench::bench(&dir, &options).map(|()| true)
        }
        Command::Compare(args) => compare_files(&args),
        Command::WebDemo(args) => web_demo(&args),
    };
    match result {
        Ok(true) => ExitCode::from(PASSED),
        Ok(false) => ExitCode::from(FAILED),
        Err(message) => {
            eprintln!("kcc-sim: {message}");
            ExitCode::from(INVALID)
        }
    }
}

/// The scenarios of `files`, every one checked (and checked against `rates`) before anything
/// runs; an error message on invalid input.
fn load_scenarios(files: &[PathBuf], rates: &[f64]) -> Result<Vec<Scenario>, String> {
    if let Some(bad) = rates.iter().find(|r| !(**r > 0.0 && **r <= MAX_TICK_RATE)) {
        return Err(format!(
            "--tick-rate: each rate must be greater than 0 Hz and at most {MAX_TICK_RATE} Hz, got {bad}"
        ));
    }
    let scenarios = files
        .iter()
        .map(|f| Scenario::load(f))
        .collect::<Result<Vec<_>, _>>()
        .map_err(|e| e.to_string())?;
    for scenario in &scenarios {
        for &rate in rates {
            if scenario.ticks(rate) > MAX_TICKS {
                return Err(format!(
                    "--tick-rate {rate}: scenario {} would run {} ticks, more than {MAX_TICKS}",
                    scenario.name,
                    scenario.ticks(rate)
                ));
            }
        }
    }
    Ok(scenarios)
}

/// `kcc-sim compare`: true when the replayed queries agree on collided at least as often as
/// asked; an error message on invalid input or when Godot cannot run.
fn compare_files(args: &CompareArgs) -> Result<bool, String> {
    if !(0.0..=1.0).contains(&args.min_agreement) {
        return Err(format!(
            "--min-agreement: must be between 0 and 1, got {}",
            args.min_agreement
        ));
    }
    let mut scenarios = load_scenarios(&args.files, &args.tick_rate)?;
    let world = WorldArgs {
        world: World::Godot,
        shape_margin: args.shape_margin,
        godot_timeout: args.godot_timeout,
        physics: args.physics,
    };
    world.apply_margin(&mut scenarios)?;
    let mut godot = world.start()?.ok_or("the Godot world did not start")?;
    let mut rows = Vec::new();
    if !args.json {
        println!("{}", compare::table_header());
    }
    for scenario in &scenarios {
        let rates = if args.tick_rate.is_empty() {
            vec![scenario.tick_rate]
        } else {
            args.tick_rate.clone()
        };
        for rate in rates {
            let row = compare::compare(scenario, rate, &mut godot)?;
            if !args.json {
                println!("{}", compare::table_row(&row));
            }
            rows.push(row);
        }
    }
    if args.json {
        let json: Vec<_> = rows.iter().map(compare::Comparison::to_json).collect();
        let text = serde_json::to_string_pretty(&json).map_err(|e| e.to_string())?;
        println!("{text}");
    } else {
        println!("{}", compare::summary(&rows));
    }
    let replayed: usize = rows.iter().map(|c| c.replayed).sum();
    let agree: usize = rows.iter().map(|c| c.collided_agree).sum();
    Ok(replayed == 0 || agree as f64 >= args.min_agreement * replayed as f64)
}

/// A file's ground follow with the command line's `--ground-follow`, `--step-detection` and
/// `--flat-base` on top: a mode switched keeps the file's settings of that mode, or takes the
/// defaults; the stair sweeps' own settings change the stair sweeps only.
fn ground_follow(file: GroundFollow, args: &RunArgs) -> GroundFollow {
    let follow = match (args.ground_follow, file) {
        (Some(Follow::Smooth), GroundFollow::Snap { .. }) => GroundFollow::SMOOTH,
        (Some(Follow::Snap), GroundFollow::Smooth { .. }) => GroundFollow::default(),
        _ => file,
    };
    match follow {
        GroundFollow::Snap {
            flat_base,
            detection,
        } => GroundFollow::Snap {
            flat_base: args.flat_base.unwrap_or(flat_base),
            detection: args.step_detection.map_or(detection, StepDetection::from),
        },
        smooth => smooth,
    }
}

/// `kcc-sim run`: true when every check passed; an error message on invalid input.
fn run_files(args: &RunArgs) -> Result<bool, String> {
    let mut scenarios = load_scenarios(&args.files, &args.tick_rate)?;
    args.world.apply_margin(&mut scenarios)?;
    for scenario in &mut scenarios {
        let character = &mut scenario.character;
        let follow = &mut character.controller.stairs.ground_follow;
        *follow = ground_follow(*follow, args);
        character.body.float_height = character.controller.float_height();
    }

    let known = match &args.known_failures {
        Some(path) => Some(
            std::fs::read_to_string(path)
                .map_err(|e| e.to_string())
                .and_then(|text| known::parse(&text))
                .map_err(|e| format!("--known-failures {}: {e}", path.display()))?,
        ),
        None => None,
    };
    let kinds = args.controller.kinds()?;
    let mut godot = args.world.start()?;
    if godot.is_some() && !matches!(args.controller, Choice::Kcc | Choice::Plain) {
        eprintln!(
            "note: the peers (Rapier's, Jolt's) run in their own worlds; --world godot is for \
             kcc and plain"
        );
    }
    let mut all_passed = true;
    let mut json = Vec::new();
    let mut outcomes = Vec::new();
    if !args.json {
        println!("{}", report::table_header());
    }
    for scenario in &scenarios {
        let profile = args.plot.as_ref().map(|_| Profile::new(&scenario.world));
        let rates = if args.tick_rate.is_empty() {
            vec![scenario.tick_rate]
        } else {
            args.tick_rate.clone()
        };
        for rate in rates {
            for &kind in &kinds {
                let run = run::run_in(scenario, kind, rate, godot.as_mut())?;
                let outcome = Outcome::new(scenario, run);
                all_passed &= outcome.passed();
                if let Some(dir) = &args.trace {
                    trace::write(&outcome.run, dir)
                        .map_err(|e| format!("--trace {}: {e}", dir.display()))?;
                }
                if let (Some(dir), Some(profile)) = (&args.plot, &profile) {
                    plot::write(scenario, &outcome.run, profile, dir)
                        .map_err(|e| format!("--plot {}: {e}", dir.display()))?;
                }
                if args.json {
                    json.push(outcome.to_json());
                } else {
                    println!("{}", report::table_row(&outcome));
                }
                outcomes.push(outcome);
            }
        }
    }
    if args.json {
        let text = serde_json::to_string_pretty(&json).map_err(|e| e.to_string())?;
        println!("{text}");
    } else {
        for summary in report::summaries(&outcomes) {
            println!("{summary}");
        }
    }
    match (known, &args.known_failures) {
        (Some(listed), Some(path)) => Ok(known_failures_hold(&listed, &outcomes, path)),
        _ => Ok(all_passed),
    }
}

/// Compares the failed runs of `outcomes` with the `listed` ones of the file at `path`, says
/// how they compare on stderr, and tells whether exactly the listed runs failed.
fn known_failures_hold(listed: &BTreeSet<String>, outcomes: &[Outcome], path: &Path) -> bool {
    let key = |o: &Outcome| known::key(&o.run.scenario, o.run.tick_rate);
    let ran = outcomes.iter().map(key).collect();
    let failed = outcomes.iter().filter(|o| !o.passed()).map(key).collect();
    let verdict = known::judge(listed, &ran, &failed);
    for run in &verdict.unexpected {
        eprintln!("failed and not in {}: {run}", path.display());
    }
    for run in &verdict.fixed {
        eprintln!(
            "passed and listed in {} (take it out): {run}",
            path.display()
        );
    }
    eprintln!(
        "known failures: {} run(s) failed as {} lists, {} other failure(s), {} listed run(s) \
         passed",
        verdict.known,
        path.display(),
        verdict.unexpected.len(),
        verdict.fixed.len()
    );
    verdict.holds()
}
