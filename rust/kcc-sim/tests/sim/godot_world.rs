//! `kcc-sim --world godot` and `kcc-sim compare`: the public course on a real Godot 4.6 + Jolt,
//! and every way setting it up can go wrong giving a clear error, exit code 2, no hang and no
//! browser left behind.
//!
//! Tests that need Chromium and the pinned web template (`scripts/godot-web/setup.sh`) fail
//! without them, saying what is missing; `KCC_SKIP_GODOT=1` skips them, and each skip prints a
//! `SKIPPED` line among the test results (written to the stderr handle itself, which libtest
//! does not capture: a passing test's `eprintln!` would be hidden).

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::time::{Duration, Instant};

fn folder(test: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("kcc-sim-godot-{}-{test}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn kcc_sim(args: &[&str], env: &[(&str, &str)]) -> Output {
    let mut command = Command::new(env!("CARGO_BIN_EXE_kcc-sim"));
    command.args(args).current_dir(repo());
    for (key, value) in env {
        command.env(key, value);
    }
    command.output().unwrap()
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// True when this machine can run the Godot world; false (with a note) when it cannot and
/// KCC_SKIP_GODOT=1.
fn godot_available(test: &str) -> bool {
    let required = !std::env::var("KCC_SKIP_GODOT").is_ok_and(|v| v == "1");
    let chromium = kcc_godot::browser::find();
    let engine = kcc_godot::Engine::locate(&repo());
    match (chromium, engine) {
        (Ok(_), Ok(_)) => true,
        (Err(e), _) | (_, Err(e)) if !required => {
            // Not `eprintln!`: libtest captures it and shows it only for a failing test. One write
            // of a whole line, on a line of its own among the results of tests running beside it.
            let note = format!(
                "\nSKIPPED godot_world::{test} (KCC_SKIP_GODOT=1, it reports ok without running): {e}\n"
            );
            let _ = std::io::stderr().write_all(note.as_bytes());
            false
        }
        (Err(e), _) | (_, Err(e)) => panic!(
            "{e}\n(the Godot world is set up by scripts/godot-web/setup.sh; KCC_SKIP_GODOT=1 skips these tests)"
        ),
    }
}

/// Processes whose command line names a browser profile of the process `pid`.
fn browsers_of(pid: u32) -> usize {
    let marker = format!("kcc-godot-chromium-{pid}-");
    std::fs::read_dir("/proc")
        .unwrap()
        .filter_map(|e| std::fs::read(e.ok()?.path().join("cmdline")).ok())
        .filter(|cmdline| String::from_utf8_lossy(cmdline).contains(&marker))
        .count()
}

/// Runs `kcc-sim` and checks that it left no browser behind.
fn kcc_sim_cleanly(args: &[&str], env: &[(&str, &str)]) -> Output {
    let child = Command::new(env!("CARGO_BIN_EXE_kcc-sim"))
        .args(args)
        .envs(env.iter().copied())
        .current_dir(repo())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let pid = child.id();
    let out = child.wait_with_output().unwrap();
    assert_eq!(
        browsers_of(pid),
        0,
        "a browser of kcc-sim {pid} is still running"
    );
    out
}

#[test]
fn no_chromium_is_a_clear_error_with_exit_code_2() {
    let out = kcc_sim(
        &["run", "scenarios/flat_ground.toml", "--world", "godot"],
        &[("CHROMIUM", "/nonexistent/chromium")],
    );
    let message = text(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{message}");
    assert!(message.contains("Chromium not found"), "{message}");
    assert!(message.contains("scripts/godot-web/setup.sh"), "{message}");
}

#[test]
fn no_web_template_is_a_clear_error_with_exit_code_2() {
    let empty = folder("empty");
    let chromium = std::env::current_exe().unwrap(); // any file: never started
    let out = kcc_sim(
        &["run", "scenarios/flat_ground.toml", "--world", "godot"],
        &[
            ("CHROMIUM", chromium.to_str().unwrap()),
            ("GODOT_WEB_DIR", empty.to_str().unwrap()),
        ],
    );
    let message = text(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{message}");
    assert!(message.contains("web template is missing"), "{message}");
    assert!(message.contains("index.js"), "{message}");
}

#[test]
fn a_wrong_checksum_is_a_clear_error_with_exit_code_2() {
    let dir = folder("checksum");
    std::fs::write(dir.join("index.js"), "// not Godot").unwrap();
    std::fs::write(dir.join("index.wasm"), b"\0asm").unwrap();
    let pins = repo().join("scripts/godot-web/engine.sha256");
    let chromium = std::env::current_exe().unwrap();
    let out = kcc_sim(
        &["run", "scenarios/flat_ground.toml", "--world", "godot"],
        &[
            ("CHROMIUM", chromium.to_str().unwrap()),
            ("GODOT_WEB_DIR", dir.to_str().unwrap()),
            ("GODOT_WEB_SHA256", pins.to_str().unwrap()),
        ],
    );
    let message = text(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{message}");
    assert!(message.contains("has sha256"), "{message}");
    assert!(message.contains("setup.sh"), "{message}");
}

#[test]
fn a_page_that_never_gets_ready_times_out_with_exit_code_2_and_no_browser_left() {
    if !godot_available(
        "a_page_that_never_gets_ready_times_out_with_exit_code_2_and_no_browser_left",
    ) {
        return;
    }
    // A "template" whose loader defines an engine that never starts.
    let dir = folder("never-ready");
    std::fs::write(
        dir.join("index.js"),
        "function Engine() {}\nEngine.prototype.startGame = function () { return new Promise(function () {}); };\n",
    )
    .unwrap();
    std::fs::write(dir.join("index.wasm"), b"\0asm").unwrap();
    let clock = Instant::now();
    let out = kcc_sim_cleanly(
        &[
            "run",
            "scenarios/flat_ground.toml",
            "--world",
            "godot",
            "--godot-timeout",
            "4",
        ],
        &[("GODOT_WEB_DIR", dir.to_str().unwrap())],
    );
    let message = text(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{message}");
    assert!(message.contains("did not answer within 4 s"), "{message}");
    assert!(
        clock.elapsed() < Duration::from_secs(30),
        "{:?}",
        clock.elapsed()
    );
}

#[test]
fn a_page_that_breaks_fails_fast_with_what_it_said() {
    if !godot_available("a_page_that_breaks_fails_fast_with_what_it_said") {
        return;
    }
    let dir = folder("broken-page");
    std::fs::write(dir.join("index.js"), "throw new Error('no engine here');\n").unwrap();
    std::fs::write(dir.join("index.wasm"), b"\0asm").unwrap();
    let clock = Instant::now();
    let out = kcc_sim_cleanly(
        &["run", "scenarios/flat_ground.toml", "--world", "godot"],
        &[("GODOT_WEB_DIR", dir.to_str().unwrap())],
    );
    let message = text(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{message}");
    assert!(message.contains("no engine here"), "{message}");
    assert!(
        clock.elapsed() < Duration::from_secs(30),
        "{:?}",
        clock.elapsed()
    );
}

#[test]
fn the_course_passes_on_godot_with_its_state_in_the_json() {
    if !godot_available("the_course_passes_on_godot_with_its_state_in_the_json") {
        return;
    }
    let files = ["scenarios/wall_slide.toml", "scenarios/jolt_stairs.toml"];
    let rows = json_rows(&[&["run"][..], &files, &["--world", "godot"]].concat(), 0);
    // One run of ours per file, at its own rate.
    let names: Vec<&str> = rows.iter().filter_map(|r| r["scenario"].as_str()).collect();
    assert_eq!(names, ["wall_slide", "jolt_stairs"], "{rows:?}");
    for row in rows {
        assert_eq!(row["world"], "godot");
        assert_eq!(row["passed"], true, "{row}");
        let trips = row["round_trips_per_tick"]["mean"].as_f64().unwrap();
        assert!((1.0..10.0).contains(&trips), "{row}");
        // Godot's get_real_velocity() agreed with the tick's real velocity on every tick without
        // a stair step: the check is there and found no tick off. On those ticks both are the
        // slide's own displacement over the tick time, so they differ by float rounding only:
        // f32 positions a few metres from the origin are exact to about 1 µm, over 1/60 s
        // well under 1 mm/s (a step tick counted by mistake would be off by metres a second).
        let checks = row["checks"].as_array().unwrap();
        let real = checks
            .iter()
            .find(|c| c["name"] == "real_velocity")
            .unwrap_or_else(|| panic!("no real_velocity check: {row}"));
        assert_eq!(real["value"], 0.0, "{row}");
        let state = &row["godot_state"];
        let error = state["real_velocity_error_max"].as_f64().unwrap();
        assert!(error < 0.001, "{row}");
        assert!(
            state["slide_collisions_max"].as_u64().unwrap() >= 1,
            "{row}"
        );
        // Penetration is Jolt's own overlap: below a millimetre or so.
        assert!(row["max_penetration"].as_f64().unwrap() < 0.002, "{row}");
        // Godot timed the port's calls with its own clock: a tick of one move_and_slide takes
        // some microseconds (not nothing, not the round trip's milliseconds); a step tick of
        // several calls takes longer than the median tick.
        let physics = &row["godot_physics_us"];
        let tick = physics["median"].as_f64().unwrap();
        assert!((1.0..2000.0).contains(&tick), "{row}");
        if row["scenario"] == "jolt_stairs" {
            let step = physics["step_tick_median"].as_f64().unwrap();
            assert!(step > tick, "{row}");
        }
    }
}

#[test]
fn compare_replays_the_parry_queries_in_godot() {
    if !godot_available("compare_replays_the_parry_queries_in_godot") {
        return;
    }
    let files = ["scenarios/stairs_030.toml", "scenarios/wall_slide.toml"];
    let rows = json_rows(
        &[&["compare"][..], &files, &["--tick-rate", "60"]].concat(),
        0,
    );
    assert_eq!(rows.len(), 2);
    for row in &rows {
        // Motion tests run only where a slide met a wall (a riser, the wall slid along) and
        // where the body steps down: dozens per scenario.
        let replayed = row["replayed"].as_u64().unwrap();
        assert!(replayed > 20, "{row}");
        assert!(row["collided_agree"].as_u64().unwrap() as f64 >= 0.95 * replayed as f64);
        assert!(row["travel_error_max_m"].as_f64().unwrap() < 0.05, "{row}");
        for key in ["steps_up", "steps_down"] {
            assert!(
                row[key]["parry"].is_u64() && row[key]["godot"].is_u64(),
                "{row}"
            );
        }
    }
    let wall = rows.iter().find(|r| r["scenario"] == "wall_slide").unwrap();
    assert!(wall["max_divergence_m"].as_f64().unwrap() < 0.01, "{wall}");
}

#[test]
fn cylinders_and_boxes_climb_stairs_on_godot_too() {
    if !godot_available("cylinders_and_boxes_climb_stairs_on_godot_too") {
        return;
    }
    let dir = folder("shapes");
    let mut files = Vec::new();
    for (name, shape) in [
        (
            "cylinder",
            "shape = \"cylinder\"\nradius = 0.4\nheight = 1.8",
        ),
        ("box", "shape = \"box\"\nsize = [0.7, 1.8, 0.7]"),
    ] {
        let path = dir.join(format!("{name}.toml"));
        std::fs::write(
            &path,
            format!(
                "name = \"{name}\"\nduration = 2.0\n[character]\n{shape}\nmax_speed = 4.0\n\
                 [start]\nposition = [0, 0.02, 0]\n\
                 [[solid]]\nbox = {{ center = [0, -0.5, 0], size = [40, 1, 40] }}\n\
                 [[solid]]\nstairs = {{ origin = [0, 0, -1], direction = [0, 0, -1], count = 5, rise = 0.2, run = 0.3, width = 4 }}\n\
                 [[solid]]\nbox = {{ center = [0, 0.5, -7.5], size = [4, 1, 10] }}\n\
                 [[input]]\nduration = 2.0\nmove = [0, -1]\n\
                 [expect]\nreach = {{ position = [0, 1, -3], radius = 0.2 }}\n\
                 max_airborne_ticks = 0\nmax_penetration = 0.002\n"
            ),
        )
        .unwrap();
        files.push(path.to_str().unwrap().to_string());
    }
    let mut args = vec!["run"];
    args.extend(files.iter().map(String::as_str));
    args.extend(["--world", "godot"]);
    let rows = json_rows(&args, 0);
    let names: Vec<&str> = rows.iter().filter_map(|r| r["scenario"].as_str()).collect();
    assert_eq!(names, ["cylinder", "box"], "{rows:?}");
    for row in rows {
        assert_eq!(row["passed"], true, "{row}");
        assert_eq!(row["steps_up"], 5, "one step per riser: {row}");
    }
}

/// Jolt measured a capsule touching the top edge of a 45 degree chamfer's riser (an inactive
/// edge for Jolt's mesh) along the riser's face normal: `collide_shape` paired the riser's
/// plane with the capsule's side, 9 cm apart, where the capsule overlaps the mesh by 0.1 mm.
/// The oracle's queries now judge a mesh's edges as Jolt's motion queries do. The capsule
/// also keeps its speed up the chamfered stairs (it stopped dead after every climb).
#[test]
fn a_capsule_on_chamfered_mesh_stairs_is_measured_as_deep_as_it_is() {
    if !godot_available("a_capsule_on_chamfered_mesh_stairs_is_measured_as_deep_as_it_is") {
        return;
    }
    let rows = json_rows(
        &[
            "run",
            "scenarios/open/mesh_stairs_chamfer_5cm_capsule.toml",
            "--world",
            "godot",
            "--tick-rate",
            "60,144",
        ],
        1,
    );
    assert_eq!(rows.len(), 2, "{rows:?}");
    for row in rows {
        let checks = row["checks"].as_array().unwrap();
        for name in ["max_penetration", "speed_ratio_min", "max_airborne_ticks"] {
            let check = checks.iter().find(|c| c["name"] == name).unwrap();
            assert_eq!(check["passed"], true, "{name}: {row}");
        }
    }
}

#[test]
fn a_cylinder_on_a_ramp_on_godot_physics_is_measured_by_the_overlap_of_its_own_bounds() {
    // Godot Physics' collide_shape paired a point of the ramp with one 3.27 m away on a tick
    // whose rim was on the slope (and 4.17 m on another): the oracle measured that as the
    // penetration. A pair with a point outside the body's bounds is no overlap of the body.
    let name = "a_cylinder_on_a_ramp_on_godot_physics_is_measured_by_the_overlap_of_its_own_bounds";
    if !godot_available(name) {
        return;
    }
    let row = godot_row("scenarios/ramp_30_cylinder.toml", "godot", "120");
    let checks = row["checks"].as_array().unwrap();
    let check = checks
        .iter()
        .find(|c| c["name"] == "max_penetration")
        .unwrap();
    let depth = check["value"].as_f64().unwrap();
    assert!(depth < 0.05, "{check}");
}

/// A cylinder walking up a 30 degree ramp on Godot Physics at 175 Hz (a rate the course does
/// not run) stood still halfway up for 170 ticks: set down on the ramp's face by the engine's
/// floor snap, each of its slides met that face with no travel, six times a slide, and
/// ended where it began (Godot's plain body walks on there). The slide stopped dead on its
/// own floor is made again from a safe margin higher (`slide::unstuck`): the body reaches the
/// top and keeps at least 0.7 of its walk on every tick. The raise is a move outside the slide
/// in the report: without it, a crouched capsule stopped so under a bar at 100 Hz disagreed
/// with Godot's `get_real_velocity()` on one tick.
#[test]
fn a_cylinder_stopped_dead_on_a_ramp_by_godot_physics_walks_on() {
    if !godot_available("a_cylinder_stopped_dead_on_a_ramp_by_godot_physics_walks_on") {
        return;
    }
    // The run fails `speed_ratio_max` (1.108) on the way down, where Godot Physics' cast
    // passes through the ramp's face (docs/godot-world.md): exit code 1.
    let args = [
        "run",
        "scenarios/ramp_30_cylinder.toml",
        "--world",
        "godot",
        "--physics",
        "godot",
        "--tick-rate",
        "175",
    ];
    let row = json_rows(&args, 1).remove(0);
    let checks = row["checks"].as_array().unwrap();
    for name in [
        "reach",
        "speed_ratio_min",
        "max_airborne_ticks",
        "real_velocity",
    ] {
        let check = checks.iter().find(|c| c["name"] == name).unwrap();
        assert_eq!(check["passed"], true, "{check}");
    }
    let row = godot_row("scenarios/crouch_stays_under_bar.toml", "godot", "100");
    assert_eq!(row["passed"], true, "{row}");
}

/// The web demo's staircase (0.3 m risers, a 0.3 m capsule) on Godot Physics at 175 Hz, a
/// rate the course does not run: the probe for the next riser before the slide stopped 0.4 mm
/// short of the motion's end and, tested again from above the floor it met, was answered free
/// after the recovery pushed the body 0.7 mm back out of the riser; the slide then stopped dead
/// against it, and the climb came after, 12 queries on the step's tick (budget 10). A probe
/// answered free after a push back head-on is made again a margin further
/// (`stairs::up::pushed_back`): the riser is found and climbed before the slide.
#[test]
fn a_riser_within_the_margin_of_the_probes_end_is_climbed_before_the_slide() {
    if !godot_available("a_riser_within_the_margin_of_the_probes_end_is_climbed_before_the_slide") {
        return;
    }
    let row = godot_row("scenarios/stairs30cm_capsule.toml", "godot", "175");
    assert_eq!(row["passed"], true, "{row}");
}

#[test]
fn godot_physics_answers_when_asked_and_the_output_says_so() {
    if !godot_available("godot_physics_answers_when_asked_and_the_output_says_so") {
        return;
    }
    let out = kcc_sim_cleanly(
        &[
            "run",
            "scenarios/flat_ground.toml",
            "--tick-rate",
            "60",
            "--world",
            "godot",
            "--physics",
            "godot",
            "--json",
        ],
        &[],
    );
    let message = text(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{message}");
    assert!(message.contains("with GodotPhysics3D"), "{message}");
    let rows: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let rows = rows.as_array().unwrap();
    assert_eq!(rows.len(), 1);
    assert_eq!(rows[0]["world"], "godot");
    assert_eq!(rows[0]["physics"], "godot_physics");
    assert_eq!(rows[0]["passed"], true);
}

/// The JSON rows of `kcc-sim ARGS --json` (run cleanly, see `kcc_sim_cleanly`), after
/// checking that it exited with `code`.
fn json_rows(args: &[&str], code: i32) -> Vec<serde_json::Value> {
    let mut args = args.to_vec();
    args.push("--json");
    let out = kcc_sim_cleanly(&args, &[]);
    assert_eq!(out.status.code(), Some(code), "{}", text(&out.stderr));
    let rows: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    rows.as_array().unwrap().clone()
}

/// The JSON rows of `kcc-sim run FILE --world godot --physics godot --tick-rate RATES`, which
/// must exit 0, each checked to say Godot Physics answered.
fn godot_physics_rows(file: &str, rates: &str) -> Vec<serde_json::Value> {
    let world = ["--world", "godot", "--physics", "godot"];
    let rows = json_rows(
        &[&["run", file, "--tick-rate", rates][..], &world].concat(),
        0,
    );
    for row in &rows {
        assert_eq!(row["physics"], "godot_physics", "{row}");
    }
    rows
}

/// Runs `file` on Godot Physics at `rates` (`runs` of them, comma-separated): every run passes
/// and ends no tick deeper than `deepest` (m) inside anything.
fn passes_on_godot_physics(file: &str, rates: &str, runs: usize, deepest: f64) {
    let rows = godot_physics_rows(file, rates);
    assert_eq!(rows.len(), runs, "{rows:?}");
    for row in &rows {
        assert_eq!(row["passed"], true, "{row}");
        assert!(row["max_penetration"].as_f64().unwrap() < deepest, "{row}");
    }
}

/// On Godot Physics a scene built in the same physics frame as the old one was freed was
/// answered wrongly (wall_slide at 240 Hz ended 24 mm inside the wall right after another
/// file at that rate): the oracle now lets a physics step pass between the two. The same file
/// twice in one Godot gives the same run.
#[test]
fn godot_physics_runs_a_file_the_same_after_another_at_the_same_rate() {
    if !godot_available("godot_physics_runs_a_file_the_same_after_another_at_the_same_rate") {
        return;
    }
    let wall_slide = "scenarios/wall_slide.toml";
    let rates = ["--tick-rate", "240"];
    let world = ["--world", "godot", "--physics", "godot"];
    let rows = json_rows(
        &[&["run", wall_slide, wall_slide][..], &rates, &world].concat(),
        0,
    );
    assert_eq!(rows.len(), 2);
    for row in &rows {
        assert_eq!(row["passed"], true, "{row}");
        assert!(row["max_penetration"].as_f64().unwrap() < 0.002, "{row}");
    }
    assert_eq!(rows[0]["final_position"], rows[1]["final_position"]);
}

/// Godot Physics' floor snap inside its slide sank a 0.6 m capsule walking down 0.1 m steps
/// 8.5 mm into each edge's rounding, and its motion test from there stuck (a collision, no
/// motion): the flat base's lift back to the edge went nowhere. A lift stopped by what is below
/// the body now counts as made (`flat_base::raised`): one `stepped` per riser, never inside.
#[test]
fn a_small_capsule_walks_down_stairs_on_godot_physics_out_of_the_edges() {
    if !godot_available("a_small_capsule_walks_down_stairs_on_godot_physics_out_of_the_edges") {
        return;
    }
    let rows = godot_physics_rows("scenarios/stairs_030_60cm.toml", "60,240");
    assert_eq!(rows.len(), 2, "{rows:?}");
    for row in &rows {
        assert_eq!(row["passed"], true, "{row}");
        assert!(row["max_penetration"].as_f64().unwrap() < 0.002, "{row}");
        let checks = row["checks"].as_array().unwrap();
        let risers = checks
            .iter()
            .find(|c| c["name"] == "steps_per_riser")
            .unwrap();
        assert_eq!(risers["value"], 0.0, "{row}");
    }
}

/// Godot Physics' slide, meeting the crate the character pushes along level floor, ended the
/// body 47 to 49 mm inside the floor at 30, 60 and 240 Hz, and reported the floor without a
/// normal on other ticks. The flat base's hold stands a body that began inside level floor on
/// it (`flat_base::began_inside`), and a floor without a normal over level floor is level
/// (`Footing::LevelFloor`): never 2 mm inside, the crate still pushed at the walk's speed.
#[test]
fn pushing_a_crate_on_godot_physics_keeps_the_character_out_of_the_floor() {
    if !godot_available("pushing_a_crate_on_godot_physics_keeps_the_character_out_of_the_floor") {
        return;
    }
    passes_on_godot_physics("scenarios/push_crate_light.toml", "30,60,240", 3, 0.002);
}

/// Landing against a wall, Godot Physics reports it twice in one slide and Godot's guard
/// against jitter in corners stops all motion: `wall_slide` ended 0.33 and 0.38 m short at 30
/// and 60 Hz (the walk started again from rest). The walk's part along the wall is kept when it
/// is free (`slide::unstopped`). At 75 and 90 Hz the slide that stops dead met the floor first
/// (the body landed): at 75 Hz the wall is found by a test of the walk, at 90 Hz the walk was
/// already along the wall and is free (0.365 and 0.353 m short before).
#[test]
fn a_slide_godot_physics_stops_dead_at_a_wall_keeps_the_walk_along_it() {
    if !godot_available("a_slide_godot_physics_stops_dead_at_a_wall_keeps_the_walk_along_it") {
        return;
    }
    let rows = godot_physics_rows("scenarios/wall_slide.toml", "30,60,75,90");
    assert_eq!(rows.len(), 4, "{rows:?}");
    for row in &rows {
        assert_eq!(row["passed"], true, "{row}");
        let end = row["final_position"].as_array().unwrap();
        // 5 m along the wall in 1 s, less the rest of the one tick the slide stopped.
        assert!(end[0].as_f64().unwrap() > 4.9, "{row}");
    }
}

#[test]
fn godots_plain_body_walks_in_the_godot_world_and_stops_at_the_first_riser() {
    if !godot_available("godots_plain_body_walks_in_the_godot_world_and_stops_at_the_first_riser") {
        return;
    }
    let files = ["scenarios/flat_ground.toml", "scenarios/stairs_020.toml"];
    let options = [
        "--tick-rate",
        "60",
        "--world",
        "godot",
        "--controller",
        "plain",
    ];
    // The plain body cannot climb: the stairs fail, so the run does too.
    let rows = json_rows(&[&["run"][..], &files, &options].concat(), 1);
    assert_eq!(rows.len(), 2);
    for row in &rows {
        assert_eq!(row["controller"], "plain");
        assert_eq!(row["world"], "godot");
        assert_eq!(row["physics"], "jolt");
        // One move_and_slide a tick, and nothing else.
        assert_eq!(row["queries_per_tick"]["max"], 1.0, "{row}");
    }
    assert_eq!(rows[0]["passed"], true, "{}", rows[0]);
    // Walking at the 0.2 m risers, it stays on the ground in front of them (z = -1 - 0.4).
    let end = rows[1]["final_position"].as_array().unwrap();
    let (y, z) = (end[1].as_f64().unwrap(), end[2].as_f64().unwrap());
    assert!(y < 0.01 && z > -1.41, "ended at {end:?}");
    assert_eq!(rows[1]["steps_up"], 0, "{}", rows[1]);
}

#[test]
fn compare_replays_a_crouchs_queries_with_the_crouched_shape() {
    if !godot_available("compare_replays_a_crouchs_queries_with_the_crouched_shape") {
        return;
    }
    // The queries under the bar are the crouched shape's: replayed with the standing shape,
    // 14 of them met the bar (travel 420 mm off).
    let file = "scenarios/crouch_stand_after_bar.toml";
    let rows = json_rows(&["compare", file, "--tick-rate", "60"], 0);
    let row = &rows[0];
    let replayed = row["replayed"].as_u64().unwrap();
    assert!(replayed > 10, "{row}");
    assert_eq!(row["collided_agree"].as_u64().unwrap(), replayed, "{row}");
    assert!(row["travel_error_max_m"].as_f64().unwrap() < 0.002, "{row}");
}

/// On real Godot (Jolt) the seesaw tips under the character's weight, and not without it: the
/// parry world's Rapier tips it either way (its kinematic character's contacts push the plank),
/// so only Godot tells the weight's effect.
#[test]
fn the_seesaw_tips_on_godot_only_under_the_characters_weight() {
    if !godot_available("the_seesaw_tips_on_godot_only_under_the_characters_weight") {
        return;
    }
    let dir = folder("seesaw");
    let seesaw = std::fs::read_to_string(repo().join("scenarios/seesaw.toml")).unwrap();
    let light = dir.join("seesaw_without_weight.toml");
    let without = seesaw.replace(
        "max_speed = 2.0",
        "max_speed = 2.0\nweight_on_bodies = false",
    );
    assert_ne!(without, seesaw);
    std::fs::write(&light, without).unwrap();
    // At 144 Hz: at 60 Hz a character walking off the high end of a plank that did not tip
    // sometimes tips it on its way down (its kinematic body sweeps past the plank's end).
    let options = ["--tick-rate", "144", "--world", "godot"];
    let turn = |row: &serde_json::Value| {
        let checks = row["checks"].as_array().unwrap();
        let check = checks.iter().find(|c| c["name"] == "body_end_turn_min");
        check.and_then(|c| c["value"].as_f64()).unwrap()
    };
    let rows = json_rows(
        &[&["run", "scenarios/seesaw.toml"][..], &options].concat(),
        0,
    );
    assert_eq!(rows[0]["passed"], true, "{}", rows[0]);
    assert!(turn(&rows[0]) > 20.0, "{}", rows[0]);
    let rows = json_rows(
        &[&["run", light.to_str().unwrap()][..], &options].concat(),
        1,
    );
    assert!(turn(&rows[0]) < 2.0, "{}", rows[0]);
}

/// Landing from 2 cm up at 45 Hz (a rate the course does not use), Godot Physics' slide stops
/// its first motion within the margin and sinks the rest into the floor: the capsule ended its
/// landing tick 8 mm inside (Godot's plain body as deep). A landing the slide left below the
/// level floor it touched is stood on that floor (`settle::out_of_landed_floor`).
#[test]
fn a_landing_godot_physics_sank_into_the_floor_ends_on_it() {
    if !godot_available("a_landing_godot_physics_sank_into_the_floor_ends_on_it") {
        return;
    }
    passes_on_godot_physics("scenarios/stairwell_up.toml", "45", 1, 0.001);
}

/// A 6 m character at 200 Hz (a rate the course does not use) whose feet come from the edge
/// they stood held on onto the tread: Godot Physics' slide sank it 4.4 mm into the tread, and
/// the flat base's probe found the tread's top above it but did not stand it there (only a
/// lift that began inside the floor did). It now does (`flat_base::stand`).
#[test]
fn a_tall_character_coming_onto_a_tread_on_godot_physics_stays_out_of_it() {
    if !godot_available("a_tall_character_coming_onto_a_tread_on_godot_physics_stays_out_of_it") {
        return;
    }
    passes_on_godot_physics("scenarios/stairs_015_6m.toml", "200", 1, 0.002);
}

/// A 0.4 m capsule walking 0.5 m/s up 0.3 m treads at 200 Hz (a rate the course does not use)
/// is held on one step's edge with its side touching the next one's. Godot Physics' slide sank
/// it 0.6 mm into that edge without reporting it, the probe down pushed it 1.2 mm back, and
/// the climb waited a tick (a tick at 0.52 times the walk). A probe down that meets the top of
/// a riser ahead now runs the climb first (`Footing::AtRiser`): the walk keeps its speed.
#[test]
fn a_body_touching_a_riser_on_godot_physics_climbs_it_without_a_halt() {
    if !godot_available("a_body_touching_a_riser_on_godot_physics_climbs_it_without_a_halt") {
        return;
    }
    passes_on_godot_physics("scenarios/slow_walk_stairs.toml", "200", 1, 0.002);
}

/// A cylinder walking up mesh stairs with 2 cm chamfers at 135 and 235 Hz (rates the course
/// does not use) climbed the top step with its rim over the chamfer, and Godot Physics' floor
/// snap in the slide across the tread put that rim on the chamfer's face, half a millimetre
/// below the tread. Its slide then stopped dead against the 45 degree face, and the climb's
/// landing on the tread, 0.7 mm higher, was no step: it stood there for the rest of the run
/// (0.9 to 2.6 m short of the landing, speed 0). A climb after a slide that could not move the
/// body takes such a lip (`stairs::Ahead::Lip`): it walks on, with one `stepped` per riser.
#[test]
fn a_cylinder_stopped_by_a_chamfers_lip_on_godot_physics_walks_on() {
    if !godot_available("a_cylinder_stopped_by_a_chamfers_lip_on_godot_physics_walks_on") {
        return;
    }
    let file = "scenarios/mesh_stairs_chamfer_2cm_cylinder.toml";
    passes_on_godot_physics(file, "135,235", 2, 0.002);
}

/// Jolt's floor normal of the two 60 degree slopes a capsule rests between (averaged by Godot)
/// leans by 4.5e-5 along the valley: at 75 Hz the walk followed that as an uphill slope, Godot
/// does not snap a body moving up, and the capsule, raised a millimetre onto its flat base,
/// floated off the floor for 69 ticks of its walk. A grade under 1e-3 is flat
/// (`movement::along_floor`): on the floor every tick, at 75 Hz and beside it.
#[test]
fn a_capsule_walking_along_a_v_of_two_slopes_on_jolt_stays_on_the_floor() {
    if !godot_available("a_capsule_walking_along_a_v_of_two_slopes_on_jolt_stays_on_the_floor") {
        return;
    }
    let file = "scenarios/wedge_v_60.toml";
    let rows = json_rows(
        &["run", file, "--world", "godot", "--tick-rate", "70,75"],
        0,
    );
    assert_eq!(rows.len(), 2, "{rows:?}");
    for row in &rows {
        assert_eq!(row["physics"], "jolt", "{row}");
        assert_eq!(row["passed"], true, "{row}");
        assert_eq!(row["airborne_ticks"], 0, "{row}");
    }
}

/// `stairs_030_rolling` (a capsule without the flat base) at 70 Hz on Jolt: the slide made the
/// tick's whole walk and stopped dead against the first step's edge, which the climb leaves to
/// the next tick, and the walk started again from rest (0.14 of its speed, 0.22 m short at the
/// end; the parry world the same). The walk is kept (`slide::climb_at_wall`).
#[test]
fn a_capsule_rolling_onto_an_edge_on_jolt_keeps_its_speed() {
    if !godot_available("a_capsule_rolling_onto_an_edge_on_jolt_keeps_its_speed") {
        return;
    }
    passes_on_jolt("scenarios/stairs_030_rolling.toml", "70");
}

/// `stairs30cm_capsule` at 130 Hz on Jolt: a slide stopped 1.5 mm short of its walk against a
/// riser the climb's probe did not reach, and the walk started again from rest (0.35 m from
/// the end's mark; the parry world the same). The walk's speed is kept when the climb finds
/// the walk free (`slide::climb_at_wall`).
#[test]
fn a_capsule_stopped_short_of_a_riser_on_jolt_keeps_its_speed() {
    if !godot_available("a_capsule_stopped_short_of_a_riser_on_jolt_keeps_its_speed") {
        return;
    }
    passes_on_jolt("scenarios/stairs30cm_capsule.toml", "130");
}

/// `stairs_020_sprint_capsule` at 54.25 Hz on Jolt: held on a step's edge a fraction of a
/// millimetre below the tread's top, the capsule's level walk grazed the tread after the
/// recovery lifted it off the edge's rounding, and Jolt answered it free through the next
/// step's nosing; the step down pushed the body out onto the nosing's edge (12 queries), the
/// next tick climbed the rest of the riser, and the walk dropped to 0.44 of its speed (the
/// parry world the same). The climb's probe tests such a walk again from a margin higher
/// (`stairs::up::rose_off_an_edge`).
#[test]
fn a_capsule_walking_level_off_an_edge_on_jolt_finds_the_next_nosing() {
    if !godot_available("a_capsule_walking_level_off_an_edge_on_jolt_finds_the_next_nosing") {
        return;
    }
    passes_on_jolt("scenarios/stairs_020_sprint_capsule.toml", "54.24753");
}

/// `stairs_020_sprint_capsule` at 165 Hz on Jolt: the capsule's slide followed the tread and
/// met the next step's nosing 0.3 mm short of its end, and Jolt's `move_and_slide` took that
/// motion's 18.7 mm back (a grounded body meeting a wall within 20 safe margins): a tick at
/// 0.47 of the walk. The slide is made again short of the nosing (`slide::remade_short`, read
/// from `get_slide_collision(i)`).
#[test]
fn a_slide_jolt_took_back_short_of_the_next_nosing_keeps_the_walk() {
    if !godot_available("a_slide_jolt_took_back_short_of_the_next_nosing_keeps_the_walk") {
        return;
    }
    passes_on_jolt("scenarios/stairs_020_sprint_capsule.toml", "165");
}

/// `stairs_020_sprint_capsule` at 30 Hz on Jolt with sharp edges (shape margins 0): held by
/// the flat base with its feet at a sharp edge's height, level with the tread, the capsule's
/// walk grazed the tread, and Jolt answered it free through the next step's nosing or not by
/// the last bit of its f32 geometry (of three such walks replayed from the same places, one
/// free): a step of 0.187 m and a tick 0.84 of the walk. The probe of a held body starts a
/// hair above its feet (`tolerances::graze_clearance`).
#[test]
fn a_capsule_held_on_a_sharp_edge_on_jolt_finds_the_next_nosing() {
    if !godot_available("a_capsule_held_on_a_sharp_edge_on_jolt_finds_the_next_nosing") {
        return;
    }
    let file = "scenarios/stairs_020_sprint_capsule.toml";
    let row = godot_row_with(file, "jolt", "30", &["--shape-margin", "0"]);
    assert_eq!(row["passed"], true, "{row}");
}

/// `ramp_30_cylinder` at 200 Hz on Jolt: on the tick the cylinder's rim came within 1 mm of the
/// ramp's crest, rounded by the hull's 4 cm margin, the Godot world measured it 12.2 mm deep
/// (the pairs of `collide_shape`, a manifold between the sharp faces, put the rim under the
/// slope's plane), where Jolt's own deepest contact is 0.6 mm deep and the parry world 0.5 mm;
/// both worlds had the body at the same place to the micrometre on that tick and the next.
/// The measure on Jolt is its deepest contact's depth (`godot_oracle/oracle.gd`, `_overlap`).
#[test]
fn a_cylinder_at_a_rounded_crest_on_jolt_is_measured_by_the_crest_it_touches() {
    if !godot_available("a_cylinder_at_a_rounded_crest_on_jolt_is_measured_by_the_crest_it_touches")
    {
        return;
    }
    let row = godot_row("scenarios/ramp_30_cylinder.toml", "jolt", "200");
    let depth = row["max_penetration"].as_f64().unwrap();
    assert!(depth > 0.0 && depth < 0.002, "{row}");
    assert_eq!(row["passed"], true, "{row}");
}

/// A capsule rolling over the edges of `stairs_030_rolling` (no flat base) at 300 Hz, a rate
/// the course does not use: Jolt's floor snap in the slide carried it down over an edge's
/// rounding and left it within the margin of the rounding's tilted face, and the next slide's
/// recovery pushed it on by 0.72 mm along its 13.3 mm walk (1.057 times the walk with the
/// step downs' pushes, 1.054 without them; 1.057 on Godot Physics at 260 Hz);
/// `ramp_30_cylinder` the same at the ramp's foot (1.054). The move
/// after one that came down more steeply than walkable floor pays that push out of its walk
/// (`Landing`), as after a step down.
#[test]
fn a_body_carried_down_over_an_edge_walks_no_further_for_its_push() {
    if !godot_available("a_body_carried_down_over_an_edge_walks_no_further_for_its_push") {
        return;
    }
    passes_on_jolt("scenarios/stairs_030_rolling.toml", "300");
    passes_on_jolt("scenarios/ramp_30_cylinder.toml", "300");
    passes_on_godot_physics("scenarios/stairs_030_rolling.toml", "260,300", 2, 0.002);
}

/// `boards_on_floor_cylinder` at 300 Hz on Godot Physics, walking back onto the 2 cm board: the
/// climb lifted the cylinder 20.3 mm, and Godot Physics' floor snap in the slide from there
/// took it back down to the floor, 0.59 mm below where the tick began (the next tick climbs).
/// Godot's `get_real_velocity()` is that last slide's (6.27 m/s down), and the report said no
/// move outside the slide (`step_up` was the height gained, 0): a `real_velocity`
/// disagreement. `step_up` now says the lift, a move outside the slide however the slide ends.
#[test]
fn a_climb_the_slide_took_back_down_is_reported_as_a_lift() {
    if !godot_available("a_climb_the_slide_took_back_down_is_reported_as_a_lift") {
        return;
    }
    let row = godot_row("scenarios/boards_on_floor_cylinder.toml", "godot", "300");
    assert_eq!(row["passed"], true, "{row}");
    assert_eq!(
        row["godot_state"]["real_velocity_disagreements"], 0,
        "{row}"
    );
}

/// Runs `file` on Jolt at one `rate`: the run passes.
fn passes_on_jolt(file: &str, rate: &str) {
    let row = godot_row(file, "jolt", rate);
    assert_eq!(row["physics"], "jolt", "{row}");
    assert_eq!(row["passed"], true, "{row}");
}

/// Runs `file` on the Godot world with the engine `physics` at one `rate`; its JSON row.
fn godot_row(file: &str, physics: &str, rate: &str) -> serde_json::Value {
    godot_row_with(file, physics, rate, &[])
}

/// [`godot_row`] with the options `extra` besides (`--shape-margin 0`).
fn godot_row_with(file: &str, physics: &str, rate: &str, extra: &[&str]) -> serde_json::Value {
    let mut args = vec![
        "run",
        file,
        "--world",
        "godot",
        "--physics",
        physics,
        "--tick-rate",
        rate,
    ];
    args.extend_from_slice(extra);
    let mut rows = json_rows(&args, 0);
    assert_eq!(rows.len(), 1, "{rows:?}");
    rows.remove(0)
}

/// Two characters passing in a corridor at 30, 90 and 100 Hz: the other walked into ours after
/// its last move, and Godot Physics' slide stopped dead in that overlap (its push out cancelled
/// with its travel), for a tick at 0 m/s; each ended 0.23 m short. Out of the other, the slide
/// is made again along its side (`slide::past_character`).
#[test]
fn characters_passing_on_godot_physics_slide_on_past_each_other() {
    if !godot_available("characters_passing_on_godot_physics_slide_on_past_each_other") {
        return;
    }
    passes_on_godot_physics(
        "scenarios/characters_corridor_pass.toml",
        "30,90,100",
        3,
        0.02,
    );
}
