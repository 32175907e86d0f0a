//! The `kcc-sim` binary: exit codes, JSON fields, traces and plots.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use kcc_sim::run::ControllerKind;

/// A fresh folder for one test's files.
fn folder(test: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("kcc-sim-cli-{}-{test}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// A short walk on flat ground toward -Z, with the `[expect]` keys given.
fn scenario(dir: &Path, name: &str, expect: &str) -> PathBuf {
    let path = dir.join(format!("{name}.toml"));
    let text = format!(
        "name = \"{name}\"\nduration = 0.5\n[start]\nposition = [0, 0.02, 0]\n\
         [[solid]]\nbox = {{ center = [0, -0.5, 0], size = [20, 1, 20] }}\n\
         [[input]]\nduration = 0.5\nmove = [0, -1]\n[expect]\n{expect}"
    );
    std::fs::write(&path, text).unwrap();
    path
}

fn kcc_sim(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_kcc-sim"))
        .args(args)
        .output()
        .unwrap()
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

#[test]
fn exit_code_is_0_when_every_check_passes_and_1_when_one_fails() {
    let dir = folder("exit");
    let good = scenario(&dir, "good", "max_airborne_ticks = 0\nnever_above = 0.1\n");
    let bad = scenario(
        &dir,
        "bad",
        "reach = { position = [0, 0, -50], radius = 0.5 }\n",
    );
    let out = kcc_sim(&["run", good.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let table = text(&out.stdout);
    assert!(table.contains("good") && table.contains("PASS"), "{table}");

    let out = kcc_sim(&["run", good.to_str().unwrap(), bad.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1));
    let table = text(&out.stdout);
    assert!(table.contains("FAIL") && table.contains("reach"), "{table}");

    // Rapier's runs are reported too, and count for the exit code when asked for.
    let out = kcc_sim(&["run", good.to_str().unwrap(), "--controller", "both"]);
    assert!(text(&out.stdout).contains("rapier"));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_run_without_a_check_from_the_file_fails() {
    // No `[expect]` key: our controller's run has only the `real_velocity` check every run of
    // ours gets, Rapier's none; neither proves anything about the scenario, so both fail.
    let dir = folder("no-checks");
    let bare = scenario(&dir, "bare", "");
    let out = kcc_sim(&["run", bare.to_str().unwrap(), "--controller", "both"]);
    assert_eq!(out.status.code(), Some(1), "{}", text(&out.stderr));
    let table = text(&out.stdout);
    let rows: Vec<&str> = table.lines().filter(|l| l.starts_with("bare")).collect();
    assert_eq!(rows.len(), 2, "{table}");
    for row in rows {
        assert!(row.contains("FAIL"), "{row}");
        assert!(row.contains("no check from [expect]"), "{row}");
    }
    // A budget at a step on a walk without a step has nothing to measure: it fails too.
    let stepless = scenario(&dir, "stepless", "max_step_tick_queries = 10\n");
    let out = kcc_sim(&["run", stepless.to_str().unwrap(), "--json"]);
    assert_eq!(out.status.code(), Some(1), "{}", text(&out.stderr));
    let runs: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let check = &runs[0]["checks"][0];
    assert_eq!(check["name"], "max_step_tick_queries", "{check}");
    assert_eq!(check["passed"], false, "{check}");
    assert!(check["value"].is_null(), "{check}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn exit_code_is_2_on_invalid_input_with_file_table_and_key() {
    let dir = folder("invalid");
    let good = scenario(&dir, "good", "");
    let broken = dir.join("broken.toml");
    std::fs::write(
        &broken,
        "name = \"x\"\nduration = 1\n[start]\nposition = [0, 0, 0]\n[character]\nmax_speed = nan\n",
    )
    .unwrap();
    // An invalid file stops the whole run before anything runs.
    let out = kcc_sim(&["run", good.to_str().unwrap(), broken.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
    let message = text(&out.stderr);
    assert!(
        message.contains("broken.toml: table [character], key `max_speed`"),
        "{message}"
    );
    assert!(text(&out.stdout).is_empty());

    for args in [
        vec!["run", good.to_str().unwrap(), "--tick-rate", "0"],
        vec!["run", good.to_str().unwrap(), "--tick-rate", "sixty"],
        vec!["run", good.to_str().unwrap(), "--controller", "havok"],
        vec!["run", "--no-such-flag", good.to_str().unwrap()],
        vec!["run"],
        vec!["run", dir.join("missing.toml").to_str().unwrap()],
        vec!["fly"],
    ] {
        let out = kcc_sim(&args);
        assert_eq!(
            out.status.code(),
            Some(2),
            "{args:?}: {}",
            text(&out.stderr)
        );
        assert!(!out.stderr.is_empty(), "{args:?}");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn json_has_every_required_field() {
    let dir = folder("json");
    let good = scenario(
        &dir,
        "good",
        "max_airborne_ticks = 0\nspeed_ratio_min = 0.5\n",
    );
    let out = kcc_sim(&[
        "run",
        good.to_str().unwrap(),
        "--json",
        "--tick-rate",
        "30,60",
        "--controller",
        "both",
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let runs: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let runs = runs.as_array().unwrap();
    assert_eq!(runs.len(), 4);
    for run in runs {
        for field in [
            "scenario",
            "controller",
            "tick_rate",
            "ticks",
            "final_position",
            "passed",
            "checks",
            "airborne_ticks",
            "grounded_ratio",
            "horizontal_speed",
            "steps_up",
            "steps_down",
            "max_step_per_tick",
            "max_penetration",
            "queries_per_tick",
            "ns_per_tick",
        ] {
            assert!(run.get(field).is_some(), "{field} missing in {run}");
        }
        assert_eq!(run["scenario"], "good");
        assert_eq!(run["final_position"].as_array().unwrap().len(), 3);
        for key in ["min", "mean", "max"] {
            assert!(run["horizontal_speed"][key].is_number(), "{run}");
        }
        assert!(run["ns_per_tick"]["median"].is_number());
        let checks = run["checks"].as_array().unwrap();
        // Our controller's runs also check Godot's own state of the body (the parry world's
        // imitation of it here): its real velocity is the one each tick reports.
        let ours = run["controller"] == "kcc";
        assert_eq!(checks.len(), if ours { 3 } else { 2 });
        if ours {
            assert_eq!(checks[2]["name"], "real_velocity");
            assert_eq!(checks[2]["value"], 0.0, "{run}");
            assert!(
                run["godot_state"]["real_velocity_error_max"]
                    .as_f64()
                    .unwrap()
                    < 1e-3
            );
        } else {
            assert!(run["godot_state"].is_null());
        }
        for check in checks {
            for field in ["name", "passed", "value", "limit"] {
                assert!(check.get(field).is_some(), "{field} missing in {check}");
            }
        }
        assert_eq!(checks[0]["name"], "max_airborne_ticks");
        assert_eq!(checks[0]["limit"], 0.0);
        match run["controller"].as_str().unwrap() {
            // On flat ground: the probe for a step, and the slide (its two iterations: the
            // floor under the tick's fall, then the rest along it) and floor snap; on the tick
            // it lands, the look for a body under it (its weight's, `kcc::push::press_floor`).
            "kcc" => assert!(run["queries_per_tick"]["max"].as_f64().unwrap() <= 5.0),
            "rapier" => assert!(run["queries_per_tick"]["mean"].is_null()),
            other => panic!("controller {other}"),
        }
    }
    assert_eq!(runs[0]["tick_rate"], 30.0);
    assert_eq!(runs[0]["ticks"], 15);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn trace_and_plot_are_written() {
    let dir = folder("files");
    let good = scenario(&dir, "good", "max_airborne_ticks = 0\n");
    let traces = dir.join("traces");
    let plots = dir.join("plots");
    let out = kcc_sim(&[
        "run",
        good.to_str().unwrap(),
        "--trace",
        traces.to_str().unwrap(),
        "--plot",
        plots.to_str().unwrap(),
        "--controller",
        "both",
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    for controller in ["kcc", "rapier"] {
        let csv =
            std::fs::read_to_string(traces.join(format!("good_60hz_{controller}.csv"))).unwrap();
        let lines: Vec<&str> = csv.lines().collect();
        assert_eq!(lines[0], kcc_sim::trace::HEADER);
        assert_eq!(lines.len(), 1 + 30);
        let columns = lines[0].split(',').count();
        assert!(lines.iter().all(|l| l.split(',').count() == columns));
        // The input of every tick, last: the stick pushed straight ahead, no jump, no crouch.
        assert!(lines[0].ends_with(",wish_x,wish_y,wish_z,jump,crouch"));
        assert!(
            lines[1..].iter().all(|l| l.ends_with(",0,0,-1,0,0")),
            "{}",
            lines[1]
        );
        let svg =
            std::fs::read_to_string(plots.join(format!("good_60hz_{controller}.svg"))).unwrap();
        assert!(
            svg.starts_with("<svg") && svg.contains("distance travelled"),
            "{controller}"
        );
    }
    // An output folder that cannot be made is an error, exit 2.
    let blocker = dir.join("file");
    std::fs::write(&blocker, "").unwrap();
    let out = kcc_sim(&[
        "run",
        good.to_str().unwrap(),
        "--trace",
        blocker.join("x").to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(2));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn demo_runs_a_course_with_every_controller_and_writes_plots() {
    let dir = folder("demo");
    let course = dir.join("course");
    std::fs::create_dir_all(&course).unwrap();
    scenario(&course, "walk", "max_airborne_ticks = 0\n");
    let out = dir.join("out");
    let result = kcc_sim(&[
        "demo",
        "--scenarios",
        course.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
    ]);
    assert_eq!(result.status.code(), Some(0), "{}", text(&result.stderr));
    let stdout = text(&result.stdout);
    assert!(
        stdout.contains("runs passed: kcc 4 of 4, rapier"),
        "{stdout}"
    );
    assert!(stdout.contains("walk_60hz_kcc.svg"), "{stdout}");
    let controllers: Vec<&str> = std::iter::once("kcc")
        .chain(ControllerKind::PEERS.iter().map(|k| k.name()))
        .collect();
    let runs = 4 * controllers.len();
    assert!(
        text(&result.stderr).contains(&format!("[{runs:>3}/{runs}]")),
        "{}",
        text(&result.stderr)
    );
    for controller in controllers {
        assert!(
            out.join(format!("plots/walk_60hz_{controller}.svg"))
                .is_file()
        );
        assert!(
            out.join(format!("traces/walk_60hz_{controller}.csv"))
                .is_file()
        );
    }
    let empty = dir.join("empty");
    std::fs::create_dir_all(&empty).unwrap();
    let result = kcc_sim(&["demo", "--scenarios", empty.to_str().unwrap()]);
    assert_eq!(result.status.code(), Some(2));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn flat_base_flag_sets_every_file_s_base() {
    // stairs_030: 5 risers up and 5 down, one `stepped` per riser each way with the flat base
    // (the default); stairs_030_rolling is the same walk with `flat_base = false`, where the
    // capsule rolls and reports no step down at 60 Hz. The flag overrides either file.
    let file = |name: &str| format!("{}/../../scenarios/{name}.toml", env!("CARGO_MANIFEST_DIR"));
    let steps = |name: &str, flat: Option<&str>| {
        let file = file(name);
        let mut args = vec!["run", file.as_str(), "--json", "--tick-rate", "60"];
        if let Some(flat) = flat {
            args.extend(["--flat-base", flat]);
        }
        let out = kcc_sim(&args);
        let runs: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        let run = &runs.as_array().unwrap()[0];
        (
            out.status.code(),
            run["steps_up"].as_u64().unwrap(),
            run["steps_down"].as_u64().unwrap(),
        )
    };
    assert_eq!(steps("stairs_030", None), (Some(0), 5, 5));
    assert_eq!(steps("stairs_030_rolling", Some("true")), (Some(0), 5, 5));
    let (code, _, down) = steps("stairs_030_rolling", None);
    assert_eq!(code, Some(0));
    assert_ne!(down, 5);
    // Rolling, stairs_030 fails its own `steps_per_riser` check: the run says so.
    let (code, _, down) = steps("stairs_030", Some("false"));
    assert_eq!(code, Some(1));
    assert_ne!(down, 5);
}

#[test]
fn a_physics_engine_that_does_not_exist_is_a_clear_error_naming_the_choices() {
    let dir = folder("physics");
    let file = scenario(&dir, "flat", "never_above = 0.1\n");
    let file = file.to_str().unwrap();
    let out = kcc_sim(&["run", file, "--world", "godot", "--physics", "bullet"]);
    assert_eq!(out.status.code(), Some(2));
    let message = text(&out.stderr);
    assert!(
        message.contains("bullet") && message.contains("jolt") && message.contains("godot"),
        "{message}"
    );
    // The engine is the Godot world's: asked of the parry world, it is an error too.
    let out = kcc_sim(&["run", file, "--physics", "godot"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("--physics needs --world godot"));
}

#[test]
fn known_failures_pass_only_when_exactly_the_listed_runs_fail() {
    let dir = folder("known");
    let passes = scenario(&dir, "passes", "never_above = 1.0\n");
    let fails = scenario(&dir, "fails", "never_above = -1.0\n");
    let list = dir.join("known.txt");
    let run = |list_text: &str| {
        std::fs::write(&list, list_text).unwrap();
        kcc_sim(&[
            "run",
            passes.to_str().unwrap(),
            fails.to_str().unwrap(),
            "--tick-rate",
            "60",
            "--known-failures",
            list.to_str().unwrap(),
        ])
    };
    // Exactly the failing run listed (with its reason): passes.
    let out = run("fails 60   # never above -1 m: it stands at 0\n");
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert!(text(&out.stderr).contains("1 run(s) failed as"));
    // Nothing listed: the failure is a new one.
    let out = run("# none\n");
    assert_eq!(out.status.code(), Some(1));
    assert!(
        text(&out.stderr).contains("failed and not in"),
        "{}",
        text(&out.stderr)
    );
    // A listed run that passes must come off the list.
    let out = run("fails 60\npasses 60\n");
    assert_eq!(out.status.code(), Some(1));
    assert!(text(&out.stderr).contains("(take it out): passes@60"));
    // A line that is not a run is invalid input.
    let out = run("fails sixty\n");
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out.stderr).contains("line 1"),
        "{}",
        text(&out.stderr)
    );
}

/// `kcc-sim bench` prints its ratios first (ours over each peer on the course, in a crowd and
/// on the worst scenario, and the core alone), then the table of every scenario.
#[test]
fn bench_prints_the_ratios_first_then_every_scenario() {
    let dir = folder("bench");
    scenario(&dir, "walk_a", "max_airborne_ticks = 0");
    scenario(&dir, "walk_b", "max_airborne_ticks = 0");
    let out = kcc_sim(&[
        "bench",
        "--scenarios",
        dir.to_str().unwrap(),
        "--repeats",
        "1",
        "--characters",
        "3",
        "--ticks",
        "2",
    ]);
    let stdout = text(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{stdout}{}", text(&out.stderr));
    let lines: Vec<&str> = stdout.lines().collect();
    assert!(lines[0].starts_with("Ratios"), "{stdout}");
    for peer in ControllerKind::PEERS {
        let name = peer.name();
        let line = lines
            .iter()
            .position(|l| l.trim_start().starts_with(&format!("kcc/{name}: course ")))
            .unwrap_or_else(|| panic!("no ratio for {name}: {stdout}"));
        assert!(line < 4, "{stdout}");
        assert!(lines[line].contains("3 characters at once"), "{stdout}");
        assert!(lines[line].contains("worst scenario walk_"), "{stdout}");
    }
    assert!(
        lines[1..5].iter().any(|l| l.contains("core alone")),
        "{stdout}"
    );
    let table = lines
        .iter()
        .position(|l| l.starts_with("scenario "))
        .unwrap();
    assert!(lines[table + 1].starts_with("walk_a"), "{stdout}");
    assert!(lines[table + 2].starts_with("walk_b"), "{stdout}");
}
