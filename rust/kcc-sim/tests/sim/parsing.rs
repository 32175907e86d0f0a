//! Scenario files: a valid file with every kind of solid loads, and every kind of mistake is an
//! error that names the file, the table and the key.

use std::path::{Path, PathBuf};

use glam::Vec3;
use kcc_sim::scenario::{Scenario, ScenarioError};

const FILE: &str = "course/test.toml";

/// A minimal valid scenario; `extra` is appended (more tables, or keys of `[expect]`).
fn with(extra: &str) -> String {
    format!(
        "name = \"t\"\nduration = 1.0\n[start]\nposition = [0, 0.02, 0]\n\
         [[solid]]\nbox = {{ center = [0, -0.5, 0], size = [10, 1, 10] }}\n{extra}"
    )
}

/// The minimal valid scenario with `keys` added at the top level.
fn top(keys: &str) -> String {
    format!("{keys}\n{}", with(""))
}

fn parse(text: &str) -> Result<Scenario, ScenarioError> {
    Scenario::parse(Path::new(FILE), text)
}

/// The error of `text`, which must name the file, `table` and `key`.
fn invalid(text: &str, table: &str, key: &str) -> String {
    let error = match parse(text) {
        Ok(_) => panic!("accepted:\n{text}"),
        Err(e) => e,
    };
    match &error {
        ScenarioError::Invalid {
            file,
            table: t,
            key: k,
            ..
        } => {
            assert_eq!(file, FILE);
            assert_eq!((t.as_str(), k.as_str()), (table, key), "{error}");
        }
        other => panic!("not an Invalid error: {other}"),
    }
    let message = error.to_string();
    assert!(message.starts_with(FILE), "{message}");
    assert!(message.contains(&format!("[{table}]")), "{message}");
    assert!(message.contains(&format!("`{key}`")), "{message}");
    message
}

#[test]
fn the_issue_example_loads_with_every_kind_of_solid() {
    let dir = std::env::temp_dir().join(format!("kcc-sim-parse-{}", std::process::id()));
    std::fs::create_dir_all(dir.join("meshes")).unwrap();
    std::fs::write(
        dir.join("meshes/level.obj"),
        "v -1 0 -1\nv 1 0 -1\nv 1 0 1\nv -1 0 1\nf 1 2 3 4\n",
    )
    .unwrap();
    let text = r#"
name = "stairs_up"
tick_rate = 60
duration = 4.0

[character]
shape = "capsule"
radius = 0.4
height = 1.8
max_step_height = 0.5

[start]
position = [0.0, 0.0, 0.0]
velocity = [0.0, 0.0, 0.0]

[[solid]]
box = { center = [0, -0.5, 0], size = [20, 1, 20], rotation_deg = [0, 0, 0] }
[[solid]]
stairs = { origin = [0, 0, -2], direction = [0, 0, -1], count = 10, rise = 0.3, run = 0.3, width = 4 }
[[solid]]
spiral = { center = [5, 0, 0], inner_radius = 0.5, outer_radius = 2.0, count = 16, rise = 0.2, step_angle_deg = 22.5 }
[[solid]]
ramp = { origin = [-5, 0, 0], direction = [0, 0, -1], angle_deg = 30, length = 6, width = 3 }
[[solid]]
convex = { points = [[0,0,0], [1,0,0], [0,1,0], [0,0,1]] }
[[solid]]
mesh = { obj = "meshes/level.obj", offset = [0, 0, 0] }

[[input]]
duration = 2.0
move = [0.0, -1.0]
yaw_deg = 0.0
jump = false

[expect]
reach = { position = [0, 3, -5], radius = 0.5 }
never_above = 0.35
max_airborne_ticks = 0
min_grounded_ratio = 0.95
speed_ratio_min = 0.9
max_step_per_tick = 0.5
"#;
    let scenario = Scenario::parse(&dir.join("example.toml"), text).unwrap();
    std::fs::remove_dir_all(&dir).unwrap();
    assert_eq!(scenario.name, "stairs_up");
    assert_eq!(scenario.ticks(60.0), 240);
    // 1 box + 10 steps + 16 spiral steps + ramp + hull + mesh.
    assert_eq!(scenario.world.solids().len(), 30);
    assert_eq!(scenario.character.controller.stairs.max_step_height, 0.5);
    assert_eq!(scenario.input.len(), 1);
    assert_eq!(scenario.input[0].wish, Vec3::NEG_Z);
    assert!(scenario.input_at(1.99).is_some() && scenario.input_at(2.0).is_none());
    assert_eq!(scenario.expect.max_airborne_ticks, Some(0));
}

#[test]
fn yaw_turns_forward_like_godot() {
    let scenario = parse(&with(
        "[[input]]\nduration = 1\nmove = [0, -1]\nyaw_deg = 90\n",
    ))
    .unwrap();
    assert!(scenario.input[0].wish.distance(Vec3::NEG_X) < 1e-6);
    let scenario = parse(&with(
        "[[input]]\nduration = 1\nmove = [1, 0]\nyaw_deg = 180\n",
    ))
    .unwrap();
    assert!(scenario.input[0].wish.distance(Vec3::NEG_X) < 1e-6);
}

#[test]
fn syntax_errors_name_the_file_and_line() {
    let error = parse("name = \"t\"\nduration = = 1\n").err().unwrap();
    match &error {
        ScenarioError::Syntax { file, line, .. } => {
            assert_eq!(file, FILE);
            assert_eq!(*line, 2);
        }
        other => panic!("{other}"),
    }
    assert!(
        error
            .to_string()
            .starts_with("course/test.toml: TOML syntax error at line 2")
    );
}

#[test]
fn unknown_keys_are_named() {
    let message = invalid(&top("colour = \"red\""), "top level", "colour");
    assert!(message.contains("unknown field"), "{message}");
    invalid(
        &with("[character]\nmax_step_hieght = 0.3\n"),
        "character",
        "max_step_hieght",
    );
    invalid(&with("[expect]\nreach_it = 1\n"), "expect", "reach_it");
    invalid(
        &with("[[solid]]\nbox = { centre = [0, 0, 0], size = [1, 1, 1] }\n"),
        "solid #2",
        "box.centre",
    );
    invalid(
        &with("[[input]]\nduration = 1\nmovement = [0, 1]\n"),
        "input #1",
        "movement",
    );
}

#[test]
fn missing_keys_are_named() {
    invalid(
        "name = \"t\"\n[start]\nposition = [0, 0, 0]\n",
        "top level",
        "duration",
    );
    invalid("name = \"t\"\nduration = 1\n", "top level", "start");
    invalid(
        "name = \"t\"\nduration = 1\n[start]\nvelocity = [0, 0, 0]\n",
        "start",
        "position",
    );
    invalid(
        &with("[[solid]]\nbox = { center = [0, 0, 0] }\n"),
        "solid #2",
        "box.size",
    );
    invalid(&with("[[input]]\nmove = [0, 1]\n"), "input #1", "duration");
    invalid(
        &with("[expect]\nreach = { radius = 1 }\n"),
        "expect",
        "reach.position",
    );
}

#[test]
fn wrong_types_are_named() {
    invalid(
        "name = \"t\"\nduration = \"long\"\n[start]\nposition = [0, 0, 0]\n",
        "top level",
        "duration",
    );
    invalid(
        &with("[character]\nshape = \"sphere\"\n"),
        "character",
        "shape",
    );
    invalid(
        &with("[character]\nsweep_iterations = -1\n"),
        "character",
        "sweep_iterations",
    );
    invalid(
        &with(
            "[[solid]]\nstairs = { origin = [0, 0, 0], direction = [0, 0, -1], count = 2.5, rise = 0.2, run = 0.3, width = 1 }\n",
        ),
        "solid #2",
        "stairs.count",
    );
    invalid(
        &with("[[input]]\nduration = 1\njump = \"yes\"\n"),
        "input #1",
        "jump",
    );
    invalid(
        &with("[[solid]]\nbox = { center = [0, 0], size = [1, 1, 1] }\n"),
        "solid #2",
        "box.center",
    );
}

#[test]
fn nan_and_infinity_are_named() {
    let message = invalid(
        "name = \"t\"\nduration = nan\n[start]\nposition = [0, 0, 0]\n",
        "top level",
        "duration",
    );
    assert!(message.contains("not a finite number"), "{message}");
    invalid(
        &with("[[solid]]\nbox = { center = [0, nan, 0], size = [1, 1, 1] }\n"),
        "solid #2",
        "box.center[1]",
    );
    invalid(
        &with("[character]\nmax_speed = inf\n"),
        "character",
        "max_speed",
    );
    invalid(
        &with("[expect]\nnever_above = -inf\n"),
        "expect",
        "never_above",
    );
}

/// A number TOML reads as a finite f64 but f32 cannot hold (found by the fuzzer: a start 5.6e124
/// m away became an infinite position).
#[test]
fn numbers_beyond_f32_are_named() {
    let message = invalid(
        "name = \"t\"\nduration = 1\n[start]\nposition = [5.6e124, 0.02, 0]\n",
        "start",
        "position[0]",
    );
    assert!(message.contains("too large"), "{message}");
}

#[test]
fn a_solid_needs_exactly_one_kind() {
    let message = invalid(
        &with("[[solid]]\n"),
        "solid #2",
        "box | stairs | spiral | ramp | convex | mesh | ball",
    );
    assert!(message.contains("found none"), "{message}");
    let message = invalid(
        &with(
            "[[solid]]\nbox = { center = [0, 0, 0], size = [1, 1, 1] }\nramp = { origin = [0, 0, 0], direction = [1, 0, 0], angle_deg = 10, length = 2, width = 1 }\n",
        ),
        "solid #2",
        "box | stairs | spiral | ramp | convex | mesh | ball",
    );
    assert!(message.contains("found box and ramp"), "{message}");
}

#[test]
fn values_out_of_range_are_named() {
    invalid(&top("tick_rate = 0"), "top level", "tick_rate");
    invalid(
        "name = \"t\"\nduration = 3000\ntick_rate = 1000\n[start]\nposition = [0, 0, 0]\n",
        "top level",
        "duration",
    );
    invalid(
        "name = \"\"\nduration = 1\n[start]\nposition = [0, 0, 0]\n",
        "top level",
        "name",
    );
    invalid(
        &with("[character]\nattack_time = 0\n"),
        "character",
        "attack_time",
    );
    invalid(
        &with("[character]\nair_release_time = -1\n"),
        "character",
        "air_release_time",
    );
    invalid(
        &with("[character]\nmax_step_height = -0.1\n"),
        "character",
        "max_step_height",
    );
    invalid(
        &with("[character]\nfloor_max_angle_deg = 95\n"),
        "character",
        "floor_max_angle_deg",
    );
    invalid(
        &with("[character]\nshape = \"box\"\nradius = 0.3\n"),
        "character",
        "radius",
    );
    invalid(
        &with("[character]\nshape = \"box\"\nsize = [0.5, 0, 0.5]\n"),
        "character",
        "size",
    );
    invalid(
        &with("[character]\nradius = 1\nheight = 1\n"),
        "character",
        "height",
    );
    invalid(
        &with("[character]\ncamera_decay = 0\n"),
        "character",
        "camera_decay",
    );
    invalid(
        &with("[[input]]\nduration = 1\nmove = [1, 1]\n"),
        "input #1",
        "move",
    );
    invalid(&with("[[input]]\nduration = 0\n"), "input #1", "duration");
    invalid(
        &with("[expect]\nmin_grounded_ratio = 1.5\n"),
        "expect",
        "min_grounded_ratio",
    );
    invalid(
        &with("[expect]\nreach = { position = [0, 0, 0], radius = 0 }\n"),
        "expect",
        "reach.radius",
    );
    invalid(
        &with("[expect]\ngodot_physics = { end_near_radius = 0 }\n"),
        "expect",
        "godot_physics.end_near_radius",
    );
    invalid(
        &with("[expect]\ngodot_physics = { max_penetration = -0.001 }\n"),
        "expect",
        "godot_physics.max_penetration",
    );
}

#[test]
fn a_scaled_file_may_give_the_level_its_own_shape_margin() {
    let scenarios = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../scenarios");
    let small = Scenario::load(&scenarios.join("ramp_30_60cm.toml")).unwrap();
    assert_eq!(small.shape_margin, 0.001);
    // Every box and hull of the level takes it: the ramp's top keeps no 4 cm rounding.
    for solid in small.world.solids() {
        assert!(solid.convex_radius() <= 0.001, "{:?}", solid.primitive());
    }
    let text = "name = \"x\"\nscaled = { from = \"ramp_30.toml\", by = 0.5, shape_margin = -1 }\n";
    let Err(error) = Scenario::parse(&scenarios.join("x.toml"), text) else {
        panic!("a negative shape margin was taken");
    };
    assert!(error.to_string().contains("scaled.shape_margin"), "{error}");
}

#[test]
fn godot_physics_limits_scale_as_the_keys_they_stand_for() {
    let scenarios = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../scenarios");
    let original = Scenario::load(&scenarios.join("crate_slides_into_character.toml")).unwrap();
    let text =
        "name = \"x2\"\nscaled = { from = \"crate_slides_into_character.toml\", by = 2.0 }\n";
    let scaled = Scenario::parse(&scenarios.join("scaled.toml"), text).unwrap();
    let (a, b) = (
        original.expect.godot_physics.unwrap(),
        scaled.expect.godot_physics.unwrap(),
    );
    assert_eq!(b.end_near_radius, a.end_near_radius.map(|r| 2.0 * r));
    assert_eq!(
        b.body_end_near_radius,
        a.body_end_near_radius.map(|r| 2.0 * r)
    );
    // An overlap is the engines' precision: kept.
    assert_eq!(b.max_penetration, a.max_penetration);
}

#[test]
fn geometry_that_cannot_be_built_is_named() {
    let message = invalid(
        &with(
            "[[solid]]\nstairs = { origin = [0, 0, 0], direction = [0, 0, -1], count = 3, rise = 0, run = 0.3, width = 1 }\n",
        ),
        "solid #2",
        "stairs",
    );
    assert!(message.contains("rise"), "{message}");
    invalid(
        &with("[[solid]]\nconvex = { points = [[0, 0, 0], [1, 0, 0], [0, 1, 0]] }\n"),
        "solid #2",
        "convex.points",
    );
    invalid(
        &with(
            "[[solid]]\nramp = { origin = [0, 0, 0], direction = [0, 1, 0], angle_deg = 10, length = 2, width = 1 }\n",
        ),
        "solid #2",
        "ramp",
    );
    let message = invalid(
        &with("[[solid]]\nmesh = { obj = \"missing.obj\" }\n"),
        "solid #2",
        "mesh.obj",
    );
    assert!(message.contains("missing.obj"), "{message}");
}

#[test]
fn unreadable_files_are_named() {
    let path = PathBuf::from("no/such/scenario.toml");
    let error = Scenario::load(&path).err().unwrap();
    assert!(matches!(error, ScenarioError::Read { .. }));
    assert!(
        error
            .to_string()
            .starts_with("no/such/scenario.toml: cannot read")
    );
}

#[test]
fn boxes_and_hulls_get_godots_default_shape_margin_or_the_files() {
    let scenario = parse(&with(
        "[[solid]]\nramp = { origin = [0, 0, -2], direction = [0, 0, -1], angle_deg = 30, length = 4, width = 2 }\n",
    ))
    .unwrap();
    assert_eq!(scenario.shape_margin, 0.04);
    for solid in scenario.world.solids() {
        assert_eq!(solid.margin(), 0.04);
        assert!(solid.convex_radius() > 0.0 && solid.convex_radius() <= 0.04);
    }
    let sharp = parse(&top("shape_margin = 0")).unwrap();
    assert_eq!(sharp.world.solids()[0].convex_radius(), 0.0);

    // `--shape-margin` replaces the file's margin on every solid.
    let mut changed = parse(&top("shape_margin = 0")).unwrap();
    changed.set_shape_margin(0.02).unwrap();
    assert_eq!(changed.shape_margin, 0.02);
    assert_eq!(changed.world.solids()[0].margin(), 0.02);
    assert!(changed.set_shape_margin(-1.0).is_err());
}

#[test]
fn platforms_are_read_and_keep_moving_under_another_shape_margin() {
    let mut scenario = parse(&with(
        "[[platform]]\nbox = { center = [0, 0.1, -3], size = [2, 0.2, 2] }\nvelocity = [0, 1, 0]\nangular_velocity_deg = 90\nreverse_every = 2\n",
    ))
    .unwrap();
    let check = |scenario: &kcc_sim::scenario::Scenario, margin: f32| {
        let platforms = scenario.world.platforms();
        assert_eq!(platforms.len(), 1);
        let motion = platforms[0].motion;
        assert_eq!(motion.velocity, glam::Vec3::Y);
        assert!((motion.angular_velocity - std::f32::consts::FRAC_PI_2).abs() < 1e-6);
        assert_eq!(motion.reverse_every, Some(2.0));
        assert_eq!(motion.pivot, glam::Vec3::new(0.0, 0.1, -3.0));
        assert_eq!(platforms[0].rest.margin(), margin);
        assert_eq!(platforms[0].index, scenario.world.solids().len() - 1);
    };
    check(&scenario, 0.04);
    scenario.set_shape_margin(0.0).unwrap();
    check(&scenario, 0.0);
    for bad in [
        "velocity = [0, 1000, 0]",
        "angular_velocity_deg = 5000",
        "reverse_every = 0",
    ] {
        let text = with(&format!(
            "[[platform]]\nbox = {{ center = [0, 0.1, -3], size = [2, 0.2, 2] }}\n{bad}\n"
        ));
        let Err(error) = parse(&text) else {
            panic!("{bad} was accepted");
        };
        let error = error.to_string();
        assert!(error.contains("platform #1"), "{bad}: {error}");
    }
}

#[test]
fn a_negative_shape_margin_names_its_key() {
    let message = invalid(&top("shape_margin = -0.01"), "top level", "shape_margin");
    assert!(message.contains("0 m or more"), "{message}");
}

#[test]
fn a_scaled_file_is_its_original_magnified() {
    let scenarios = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../scenarios");
    let original = Scenario::load(&scenarios.join("stairs_020.toml")).unwrap();
    let text = "name = \"stairs_020_x3\"\nscaled = { from = \"stairs_020.toml\", by = 3.0 }\n";
    let scaled = Scenario::parse(&scenarios.join("scaled.toml"), text).unwrap();
    assert_eq!(scaled.name, "stairs_020_x3");
    // Lengths, speeds and accelerations three times the original's; times kept.
    assert_eq!(scaled.duration, original.duration);
    assert_eq!(scaled.start.position, original.start.position * 3.0);
    let (a, b) = (&original.character, &scaled.character);
    assert_eq!(b.body.shape.radius(), 3.0 * a.body.shape.radius());
    assert_eq!(b.body.shape.height(), 3.0 * a.body.shape.height());
    let (ca, cb) = (&a.controller, &b.controller);
    assert_eq!(
        cb.movement.ground.max_speed,
        3.0 * ca.movement.ground.max_speed
    );
    assert_eq!(
        cb.movement.ground.attack_time,
        ca.movement.ground.attack_time
    );
    assert_eq!(cb.stairs.max_step_height, 3.0 * ca.stairs.max_step_height);
    assert_eq!(cb.stairs.min_step_depth, 3.0 * ca.stairs.min_step_depth);
    assert_eq!(cb.gravity.gravity, 3.0 * ca.gravity.gravity);
    assert_eq!(b.body.floor_snap_length, 3.0 * a.body.floor_snap_length);
    assert_eq!(b.body.safe_margin, a.body.safe_margin);
    assert_eq!(scaled.shape_margin, original.shape_margin);
    // The world: every box three times as large and three times as far from the origin.
    let boxes = |s: &Scenario| -> Vec<(Vec3, Vec3)> {
        s.world
            .solids()
            .iter()
            .filter_map(|solid| match solid.primitive() {
                kcc_parry::Primitive::Cuboid { center, size, .. } => Some((*center, *size)),
                _ => None,
            })
            .collect()
    };
    let (before, after) = (boxes(&original), boxes(&scaled));
    assert_eq!(before.len(), after.len());
    for ((c0, s0), (c1, s1)) in before.iter().zip(&after) {
        assert!((*c1 - *c0 * 3.0).length() < 1e-4 && (*s1 - *s0 * 3.0).length() < 1e-4);
    }
    // The expectations: positions and the risers scaled, the step tolerance with them.
    let (ea, eb) = (&original.expect, &scaled.expect);
    let (ra, rb) = (ea.reach.unwrap(), eb.reach.unwrap());
    assert_eq!(rb.position, ra.position.map(|x| x * 3.0));
    assert_eq!(rb.radius, 3.0 * ra.radius);
    let (sa, sb) = (ea.steps_per_riser.unwrap(), eb.steps_per_riser.unwrap());
    assert_eq!(sb.rise, 3.0 * sa.rise);
    assert_eq!(sb.tolerance, Some(3.0 * kcc_sim::checks::RISER_TOLERANCE));
    assert_eq!(eb.max_penetration, ea.max_penetration);
    assert_eq!(eb.max_step_tick_queries, ea.max_step_tick_queries);
}

#[test]
fn a_shrunk_file_shrinks_the_safe_margin_and_a_grown_one_keeps_it() {
    let scenarios = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../scenarios");
    let original = Scenario::load(&scenarios.join("stairs_020.toml")).unwrap();
    let margin = |by: f32| {
        let text = format!("name = \"x\"\nscaled = {{ from = \"stairs_020.toml\", by = {by} }}\n");
        let scaled = Scenario::parse(&scenarios.join("scaled.toml"), &text).unwrap();
        scaled.character.body.safe_margin
    };
    let default = original.character.body.safe_margin;
    assert!(default > 0.0);
    assert!((margin(0.25) - 0.25 * default).abs() < 1e-9);
    assert_eq!(margin(1.0), default);
    assert_eq!(margin(5.0), default);
}

#[test]
fn a_scaled_file_names_what_is_wrong() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../scenarios");
    let file = dir.join("scaled.toml");
    let error = |text: &str| {
        Scenario::parse(&file, text)
            .err()
            .expect("refused")
            .to_string()
    };
    let far = error("name = \"x\"\nscaled = { from = \"stairs_020.toml\", by = 1000.0 }\n");
    assert!(far.contains("scaled.by") && far.contains("1000"), "{far}");
    // What is wrong with the original is named with this file's `scaled.from`.
    let missing = error("name = \"x\"\nscaled = { from = \"no_such_file.toml\", by = 2.0 }\n");
    let both = ["scaled.toml", "scaled.from", "no_such_file.toml"];
    assert!(both.iter().all(|name| missing.contains(name)), "{missing}");
    let twice = error("name = \"x\"\nscaled = { from = \"stairs_020_6m.toml\", by = 2.0 }\n");
    let both = [
        "scaled.toml",
        "stairs_020_6m.toml",
        "start from an original",
    ];
    assert!(both.iter().all(|name| twice.contains(name)), "{twice}");
    let extra =
        error("name = \"x\"\nduration = 1.0\nscaled = { from = \"stairs_020.toml\", by = 2.0 }\n");
    assert!(extra.contains("duration"), "{extra}");
}

#[test]
fn a_scaled_ball_is_the_original_magnified() {
    let scenarios = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../scenarios");
    let text =
        "name = \"ball_x2\"\nscaled = { from = \"ball_rolls_into_character.toml\", by = 2.0 }\n";
    let scaled = Scenario::parse(&scenarios.join("scaled.toml"), text).unwrap();
    let ball = &scaled.world.movables()[0];
    // Its centre and radius doubled, its mass the volume's eight times.
    assert_eq!(ball.center, glam::Vec3::new(0.0, 0.6, -6.0));
    assert_eq!(ball.mass, 40.0);
    match ball.rest.primitive() {
        kcc_parry::Primitive::Ball { radius, .. } => assert_eq!(*radius, 0.6),
        other => panic!("not a ball: {other:?}"),
    }
}
