//! The Godot world end to end: a real Godot 4.6 + Jolt in headless Chromium answers the port.
//!
//! These tests need Chromium and the pinned web template (`scripts/godot-web/setup.sh`); without
//! them they fail, saying what is missing. `KCC_SKIP_GODOT=1` skips them, and each skip prints a
//! `SKIPPED` line among the test results (written to the stderr handle itself, which libtest
//! does not capture: a passing test's `eprintln!` would be hidden).

use std::io::Write;
use std::path::Path;
use std::time::{Duration, Instant};

use glam::Vec3;
use kcc::KinematicBody;
use kcc_godot::protocol::{BodyDesc, SceneDesc, ShapeDesc, SolidDesc};
use kcc_godot::{Engine, GodotBody, GodotError, GodotSession, PhysicsEngine, Timeouts, browser};

fn root() -> &'static Path {
    Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../.."))
}

/// A session, or `None` (with a note) when the Godot world is missing and KCC_SKIP_GODOT=1;
/// `test` names the test in the note.
fn session(test: &str) -> Option<GodotSession> {
    let required = !std::env::var("KCC_SKIP_GODOT").is_ok_and(|v| v == "1");
    let parts = browser::find().and_then(|chromium| Ok((chromium, Engine::locate(root())?)));
    match parts {
        Ok((chromium, engine)) => Some(
            GodotSession::start(&engine, &chromium, Timeouts::default(), PhysicsEngine::Jolt)
                .unwrap_or_else(|e| panic!("{e}")),
        ),
        Err(e) if !required => {
            // Not `eprintln!`: libtest captures it and shows it only for a failing test. One write
            // of a whole line, on a line of its own among the results of tests running beside it.
            let note = format!(
                "\nSKIPPED godot_world::{test} (KCC_SKIP_GODOT=1, it reports ok without running): {e}\n"
            );
            let _ = std::io::stderr().write_all(note.as_bytes());
            None
        }
        Err(e) => panic!(
            "{e}\n(the Godot world is set up by scripts/godot-web/setup.sh; KCC_SKIP_GODOT=1 skips these tests)"
        ),
    }
}

fn capsule_body() -> BodyDesc {
    BodyDesc {
        floating: false,
        shape: ShapeDesc::Capsule {
            radius: 0.4,
            height: 1.8,
        },
        shape_margin: 0.001,
        safe_margin: 0.001,
        floor_max_angle: 45f32.to_radians(),
        max_slides: 6,
        floor_snap_length: 0.1,
        wall_min_slide_angle: 15f32.to_radians(),
        floor_stop_on_slope: true,
        floor_block_on_wall: true,
        floor_constant_speed: false,
        slide_on_ceiling: true,
        up_direction: [0.0, 1.0, 0.0],
        float_height: 0.0,
    }
}

fn block(center: [f32; 3], size: [f32; 3]) -> SolidDesc {
    SolidDesc::Box {
        center,
        size,
        rotation: [0.0, 0.0, 0.0, 1.0],
        margin: None,
    }
}

/// A floor with its top at y = 0 and a 0.2 m step from x = 1.
fn step_scene(tick_rate: f64) -> SceneDesc {
    SceneDesc {
        tick_rate,
        solids: vec![
            block([0.0, -0.5, 0.0], [20.0, 1.0, 20.0]),
            block([2.0, 0.1, 0.0], [2.0, 0.2, 4.0]),
        ],
        platforms: Vec::new(),
        rigid_bodies: Vec::new(),
        body: capsule_body(),
        start: [0.0, 0.0, 0.0],
        others: Vec::new(),
    }
}

#[test]
fn godot_with_jolt_answers_the_port() {
    let Some(mut session) = session("godot_with_jolt_answers_the_port") else {
        return;
    };
    let hello = session.hello().clone();
    assert!(hello.jolt, "{hello:?}");
    assert!((hello.major, hello.minor) >= (4, 4), "{hello:?}");

    let mut body = GodotBody::new(&mut session, step_scene(60.0)).unwrap();
    assert!((body.scene().physics_delta - 1.0 / 60.0).abs() < 1e-9);
    assert_eq!(body.position(), Vec3::ZERO);
    assert_eq!(body.safe_margin(), 0.001);
    assert!((body.floor_max_angle() - 45f32.to_radians()).abs() < 1e-6);

    // Into the step: Jolt's binary search stops within a few mm of the touch at x = 0.6, and
    // the capsule meets the step's rounded edge, so the normal tilts up.
    let test = body.test_move(Vec3::new(0.0, 0.0, 0.0), Vec3::new(1.5, 0.0, 0.0));
    let contact = test.contact.expect("the step blocks the motion");
    assert!((test.travel.x - 0.6).abs() < 0.06, "{test:?}");
    assert!((test.travel + test.remainder - Vec3::new(1.5, 0.0, 0.0)).length() < 0.01);
    assert!(
        contact.normal.x < -0.5 && contact.normal.y > 0.1,
        "{contact:?}"
    );
    assert!((contact.point.x - 1.0).abs() < 0.01, "{contact:?}");

    // Walking: a slide moves the body, lands it on the floor, and a set position is applied
    // before the next query.
    let velocity = body.move_and_slide(Vec3::new(2.0, -1.0, 0.0), 1.0 / 60.0);
    assert!(body.is_on_floor());
    assert!(
        (body.position().x - 2.0 / 60.0).abs() < 1e-4,
        "{:?}",
        body.position()
    );
    assert!(velocity.x > 1.99, "{velocity}");
    body.set_position(Vec3::new(3.0, 0.2, 0.0));
    let down = body.test_move(Vec3::new(3.0, 0.2, 0.0), Vec3::new(0.0, -0.5, 0.0));
    assert!(down.collided());
    assert!(down.travel.y.abs() < 0.01, "stands on the step: {down:?}");
    let observed = body.observe().unwrap();
    assert_eq!(observed.state.position, [3.0, 0.2, 0.0]);
    assert!(observed.overlap < 1e-3, "{observed:?}");
    assert!(body.take_error().is_none());

    // A new scene at another rate: Godot's physics tick follows.
    let body = GodotBody::new(&mut session, step_scene(240.0)).unwrap();
    assert!((body.scene().physics_delta - 1.0 / 240.0).abs() < 1e-9);
    assert_eq!(session.round_trips(), 6, "one round trip per answer");
}

#[test]
fn an_overlap_is_measured_by_jolt() {
    let Some(mut session) = session("an_overlap_is_measured_by_jolt") else {
        return;
    };
    let mut scene = step_scene(60.0);
    // 5 cm down into the floor.
    scene.start = [0.0, -0.05, 0.0];
    let mut body = GodotBody::new(&mut session, scene).unwrap();
    let observed = body.observe().unwrap();
    assert!((observed.overlap - 0.05).abs() < 0.005, "{observed:?}");
}

#[test]
fn a_browser_that_dies_mid_run_is_a_clear_error_and_leaves_nothing_behind() {
    let Some(mut session) =
        session("a_browser_that_dies_mid_run_is_a_clear_error_and_leaves_nothing_behind")
    else {
        return;
    };
    let group = nix::unistd::Pid::from_raw(session.browser_pid() as i32);
    let mut body = GodotBody::new(&mut session, step_scene(60.0)).unwrap();
    nix::sys::signal::killpg(group, nix::sys::signal::Signal::SIGKILL).unwrap();
    let clock = Instant::now();
    let test = body.test_move(Vec3::ZERO, Vec3::X);
    assert!(!test.collided(), "a failed call reports nothing");
    let error = body.take_error().expect("the call fails");
    assert!(
        matches!(
            error,
            GodotError::BrowserExited { .. } | GodotError::Oracle { .. }
        ),
        "{error}"
    );
    assert!(
        clock.elapsed() < Duration::from_secs(20),
        "{:?}",
        clock.elapsed()
    );
    drop(body);
    drop(session);
    assert_eq!(
        nix::sys::signal::killpg(group, None),
        Err(nix::errno::Errno::ESRCH)
    );
}

#[test]
fn another_character_blocks_the_body_and_the_port_can_move_it() {
    let Some(mut session) = session("another_character_blocks_the_body_and_the_port_can_move_it")
    else {
        return;
    };
    let scene = SceneDesc {
        others: vec![[0.0, 0.0, -2.0]],
        ..step_scene(60.0)
    };
    let mut body = GodotBody::new(&mut session, scene).unwrap();
    // The other capsule, 2 m ahead, stops the character's motion 0.8 m (two radii) short of it.
    let test = body.test_move(Vec3::ZERO, Vec3::new(0.0, 0.0, -3.0));
    assert!(test.collided(), "{test:?}");
    assert!((test.travel.z + 1.2).abs() < 0.02, "{test:?}");
    // A slide into it is blocked there and says it met a character.
    for _ in 0..60 {
        body.move_and_slide(Vec3::new(0.0, -1.0, -3.0), 1.0 / 60.0);
    }
    assert!(
        (body.position().z + 1.2).abs() < 0.03,
        "{:?}",
        body.position()
    );
    let met = (0..body.slide_collision_count()).any(|i| body.touched_character(i));
    assert!(met, "{:?}", body.state());
    // The port's calls go to the other character once selected, and back.
    body.select(1).unwrap();
    assert_eq!(body.position(), Vec3::new(0.0, 0.0, -2.0));
    body.move_and_slide(Vec3::new(0.0, -1.0, -3.0), 1.0 / 60.0);
    assert!(body.position().z < -2.04, "{:?}", body.position());
    body.select(0).unwrap();
    assert!(
        (body.position().z + 1.2).abs() < 0.03,
        "{:?}",
        body.position()
    );
    assert!(body.take_error().is_none());
}
