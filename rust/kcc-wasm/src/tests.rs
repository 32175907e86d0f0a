//! The ABI on the native target: the module's exported functions, with the imports answered
//! by a parry world the way the page answers them (vectors written into the mailbox), checked
//! against the same core driving the same world directly.

use std::cell::RefCell;
use std::sync::Arc;

use glam::Vec3;
use kcc::{
    CharacterState, Controller, ControllerSettings, KinematicBody, MotionTest, TickInput,
    TickReport,
};
use kcc_parry::{BodySettings, CharacterShape, ParryBody, World, geometry};

use crate::abi::*;
use crate::host;
use crate::mailbox::{self, report};

thread_local! {
    /// The page's bodies, by id (the id is the index).
    static BODIES: RefCell<Vec<ParryBody>> = const { RefCell::new(Vec::new()) };
}

fn with_body<R>(id: u32, call: impl FnOnce(&mut ParryBody) -> R) -> R {
    BODIES.with_borrow_mut(|bodies| call(&mut bodies[id as usize]))
}

fn answer(v: Vec3) {
    mailbox::put(host::VECTOR, &v.to_array());
}

// The imports, as the page provides them.
#[unsafe(no_mangle)]
extern "C" fn host_position(body: u32) {
    answer(with_body(body, |b| b.position()));
}
#[unsafe(no_mangle)]
extern "C" fn host_set_position(body: u32, x: f32, y: f32, z: f32) {
    with_body(body, |b| b.set_position(Vec3::new(x, y, z)));
}
#[unsafe(no_mangle)]
extern "C" fn host_test_move(
    body: u32,
    fx: f32,
    fy: f32,
    fz: f32,
    mx: f32,
    my: f32,
    mz: f32,
) -> i32 {
    let found = with_body(body, |b| {
        b.test_move(Vec3::new(fx, fy, fz), Vec3::new(mx, my, mz))
    });
    put_motion_test(found)
}
/// Writes a motion test where `host_test_move` leaves its answer; 1 when it hit.
fn put_motion_test(found: MotionTest) -> i32 {
    mailbox::put(host::test_move::TRAVEL, &found.travel.to_array());
    mailbox::put(host::test_move::REMAINDER, &found.remainder.to_array());
    match found.contact {
        Some(contact) => {
            mailbox::put(host::test_move::NORMAL, &contact.normal.to_array());
            mailbox::put(host::test_move::POINT, &contact.point.to_array());
            mailbox::put(host::test_move::DEPTH, &[contact.depth]);
            1
        }
        None => 0,
    }
}
#[unsafe(no_mangle)]
extern "C" fn host_move_and_slide(body: u32, vx: f32, vy: f32, vz: f32, dt: f32) {
    answer(with_body(body, |b| {
        b.move_and_slide(Vec3::new(vx, vy, vz), dt)
    }));
}
#[unsafe(no_mangle)]
extern "C" fn host_slide_collision(body: u32, index: u32) -> i32 {
    match with_body(body, |b| b.slide_collision(index as usize)) {
        Some(found) => put_motion_test(found),
        None => 0,
    }
}
#[unsafe(no_mangle)]
extern "C" fn host_slide_collision_count(body: u32) -> i32 {
    with_body(body, |b| b.slide_collision_count() as i32)
}
#[unsafe(no_mangle)]
extern "C" fn host_touched_body(body: u32, index: u32) -> i32 {
    let touched = with_body(body, |b| b.touched_body(index as usize));
    put_touched(touched)
}
#[unsafe(no_mangle)]
extern "C" fn host_floor_body(body: u32) -> i32 {
    let touched = with_body(body, |b| b.floor_body());
    put_touched(touched)
}
#[unsafe(no_mangle)]
extern "C" fn host_press_floor_body(
    body: u32,
    ix: f32,
    iy: f32,
    iz: f32,
    px: f32,
    py: f32,
    pz: f32,
) {
    with_body(body, |b| {
        b.press_floor_body(Vec3::new(ix, iy, iz), Vec3::new(px, py, pz));
    });
}
/// Writes `touched` where the host's answer goes: 1, or 0 when there is none.
fn put_touched(touched: Option<kcc::Touched>) -> i32 {
    let Some(touched) = touched else {
        return 0;
    };
    mailbox::put(host::touched::ID, &[(touched.id & 0xff_ffff) as f32]);
    mailbox::put(host::touched::NORMAL, &touched.normal.to_array());
    mailbox::put(host::touched::POINT, &touched.point.to_array());
    mailbox::put(host::touched::MASS, &[touched.mass]);
    mailbox::put(host::touched::VELOCITY, &touched.velocity.to_array());
    1
}
#[unsafe(no_mangle)]
extern "C" fn host_push_body(body: u32, index: u32, x: f32, y: f32, z: f32) {
    with_body(body, |b| b.push_body(index as usize, Vec3::new(x, y, z)));
}
#[unsafe(no_mangle)]
extern "C" fn host_is_on_floor(body: u32) -> i32 {
    with_body(body, |b| b.is_on_floor()).into()
}
#[unsafe(no_mangle)]
extern "C" fn host_is_on_wall(body: u32) -> i32 {
    with_body(body, |b| b.is_on_wall()).into()
}
#[unsafe(no_mangle)]
extern "C" fn host_wall_normal(body: u32) {
    answer(with_body(body, |b| b.wall_normal()));
}
#[unsafe(no_mangle)]
extern "C" fn host_floor_normal(body: u32) {
    answer(with_body(body, |b| b.floor_normal()));
}
#[unsafe(no_mangle)]
extern "C" fn host_apply_floor_snap(body: u32) {
    with_body(body, |b| b.apply_floor_snap());
}
#[unsafe(no_mangle)]
extern "C" fn host_up_direction(body: u32) {
    answer(with_body(body, |b| b.up_direction()));
}
#[unsafe(no_mangle)]
extern "C" fn host_floor_max_angle(body: u32) -> f32 {
    with_body(body, |b| b.floor_max_angle())
}
#[unsafe(no_mangle)]
extern "C" fn host_safe_margin(body: u32) -> f32 {
    with_body(body, |b| b.safe_margin())
}
#[unsafe(no_mangle)]
extern "C" fn host_shape_height(body: u32) -> f32 {
    with_body(body, |b| b.shape_height())
}
#[unsafe(no_mangle)]
extern "C" fn host_shape_radius(body: u32) -> f32 {
    with_body(body, |b| b.shape_radius())
}
#[unsafe(no_mangle)]
extern "C" fn host_set_shape_height(body: u32, height: f32) {
    with_body(body, |b| b.set_shape_height(height));
}

/// Floor, five 0.2 m x 0.3 m steps going -Z from z = -0.6, a landing 1 m high and 10 m long
/// beyond, and a bar to crouch under on the floor at z = +2.5.
fn course() -> Arc<World> {
    let mut world = World::new();
    world.add(geometry::aabb_box(Vec3::new(0.0, -0.5, 0.0), Vec3::new(40.0, 1.0, 40.0)).unwrap());
    world.extend(
        geometry::stairs(Vec3::new(0.0, 0.0, -0.6), Vec3::NEG_Z, 5, 0.2, 0.3, 4.0).unwrap(),
    );
    world.add(geometry::aabb_box(Vec3::new(0.0, 0.5, -7.1), Vec3::new(4.0, 1.0, 10.0)).unwrap());
    world.add(geometry::aabb_box(Vec3::new(0.0, 1.5, 3.0), Vec3::new(4.0, 0.2, 1.0)).unwrap());
    Arc::new(world)
}

fn body(shape: CharacterShape) -> ParryBody {
    let settings = BodySettings {
        shape,
        ..BodySettings::default()
    };
    ParryBody::new(course(), settings, Vec3::new(0.0, 0.02, 0.0)).unwrap()
}

/// Puts a body on the page; its id.
fn add_body(body: ParryBody) -> u32 {
    BODIES.with_borrow_mut(|bodies| {
        bodies.push(body);
        (bodies.len() - 1) as u32
    })
}

fn new_character(body: u32, settings: &str) -> u32 {
    // SAFETY: the text lives across the call.
    unsafe { kcc_character_new(body, settings.as_ptr(), settings.len() as u32) }
}

fn last_error() -> String {
    let (ptr, len) = (kcc_error_ptr(), kcc_error_len() as usize);
    // SAFETY: the module's error text, read before any other call.
    let bytes = unsafe { std::slice::from_raw_parts(ptr, len) };
    String::from_utf8(bytes.to_vec()).unwrap()
}

/// The report the last tick left in the mailbox, read back slot by slot as the page does.
fn read_report() -> TickReport {
    let flag = |slot| mailbox::get(slot) != 0.0;
    let bits = mailbox::get(report::SANITIZED) as u32;
    TickReport {
        velocity: mailbox::vec3(report::VELOCITY),
        real_velocity: mailbox::vec3(report::REAL_VELOCITY),
        step_up: mailbox::get(report::STEP_UP),
        step_down: mailbox::get(report::STEP_DOWN),
        stepped: flag(report::STEPPED_FLAG).then(|| mailbox::get(report::STEPPED)),
        was_on_floor: flag(report::WAS_ON_FLOOR),
        on_floor: flag(report::ON_FLOOR),
        jumped: flag(report::JUMPED),
        crouched: flag(report::CROUCHED),
        substeps: mailbox::get(report::SUBSTEPS) as u32,
        // The page's world has no other character to be moved out of: not in the mailbox.
        separated: Vec3::ZERO,
        sanitized: kcc::Sanitized {
            wish_direction: bits & 1 != 0,
            velocity: bits & 2 != 0,
            delta: bits & 4 != 0,
            delta_clamped: bits & 8 != 0,
            position: bits & 16 != 0,
        },
    }
}

/// What a tick asks: wish, jump, crouch.
type Ask = (Vec3, bool, bool);

/// Walks one body through the ABI and a twin body through the core directly, tick by tick with
/// the same input: every report and every position must be the same, bit for bit.
fn walk_both(
    shape: CharacterShape,
    settings: &str,
    rate: f32,
    asks: &[Ask],
) -> Vec<(Vec3, TickReport)> {
    let mut twin = body(shape);
    let id = add_body(body(shape));
    let handle = new_character(id, settings);
    assert_ne!(handle, 0, "{}", last_error());
    let parsed: ControllerSettings = if settings.is_empty() {
        ControllerSettings::default()
    } else {
        serde_json::from_str(settings).unwrap()
    };
    let controller = Controller::new(parsed).unwrap();
    let mut state = CharacterState::default();
    let (mut velocity, mut twin_velocity) = (Vec3::ZERO, Vec3::ZERO);
    let dt = 1.0 / rate;
    let mut trace = Vec::new();
    for (tick, &(wish, jump, crouch)) in asks.iter().enumerate() {
        let v = velocity;
        let done = kcc_tick(
            handle,
            wish.x,
            wish.y,
            wish.z,
            jump.into(),
            crouch.into(),
            v.x,
            v.y,
            v.z,
            dt,
        );
        assert_eq!(done, 1);
        let through_abi = read_report();
        velocity = through_abi.velocity;
        let input = TickInput {
            wish_direction: wish,
            jump,
            velocity: twin_velocity,
            crouch,
        };
        let direct = controller.tick_with(&mut twin, &input, &mut state, dt);
        twin_velocity = direct.velocity;
        let position = with_body(id, |b| b.position());
        assert_eq!(through_abi, direct, "tick {tick}: the report differs");
        assert_eq!(
            position,
            twin.position(),
            "tick {tick}: the position differs"
        );
        trace.push((position, through_abi));
    }
    assert_eq!(kcc_character_free(handle), 1);
    trace
}

fn hold(wish: Vec3, ticks: usize) -> Vec<Ask> {
    vec![(wish, false, false); ticks]
}

const CAPSULE: CharacterShape = CharacterShape::Capsule {
    radius: 0.4,
    height: 1.8,
};
const CYLINDER: CharacterShape = CharacterShape::Cylinder {
    radius: 0.4,
    height: 1.8,
};

#[test]
fn through_the_abi_a_character_climbs_the_stairs_as_the_core_does() {
    for shape in [CAPSULE, CYLINDER] {
        for rate in [60.0, 144.0] {
            let ticks = (1.5 * rate) as usize;
            let trace = walk_both(shape, "", rate, &hold(Vec3::NEG_Z, ticks));
            let (end, last) = trace.last().unwrap();
            assert!(
                end.y > 0.99 && end.z < -2.2,
                "{shape:?} at {rate} Hz ended at {end}"
            );
            assert!(last.on_floor);
            let steps = trace.iter().filter(|(_, r)| r.stepped.is_some()).count();
            assert!(
                steps >= 5,
                "{shape:?} at {rate} Hz: {steps} stepped reports for 5 risers"
            );
            // The body starts 2 cm above the floor: on it from its first landing on.
            let landed = trace.iter().position(|(_, r)| r.on_floor).unwrap();
            let off: Vec<usize> = (landed..trace.len())
                .filter(|&i| !trace[i].1.on_floor)
                .collect();
            assert!(
                off.is_empty(),
                "{shape:?} at {rate} Hz off the floor at ticks {off:?}"
            );
        }
    }
}

#[test]
fn the_demo_settings_stand_a_capsule_flat_on_each_edge() {
    // The demo's player: the core's defaults ({}), the flat base among them. Up the 5 risers
    // of 0.2 m, the capsule reports exactly one step per riser, each the riser's height within
    // 2 cm.
    let demo = "{}";
    for rate in [60.0, 144.0] {
        let ticks = (1.5 * rate) as usize;
        let trace = walk_both(CAPSULE, demo, rate, &hold(Vec3::NEG_Z, ticks));
        let steps: Vec<f32> = trace.iter().filter_map(|(_, r)| r.stepped).collect();
        assert_eq!(steps.len(), 5, "{rate} Hz: {steps:?}");
        assert!(
            steps.iter().all(|dy| (dy - 0.2).abs() < 0.02),
            "{rate} Hz: {steps:?}"
        );
    }
}

#[test]
fn settings_from_json_reach_the_core() {
    let slow =
        r#"{"movement": {"ground": {"max_speed": 2.0, "attack_time": 0.1, "release_time": 0.1}}}"#;
    let trace = walk_both(CAPSULE, slow, 60.0, &hold(Vec3::X, 60));
    let speed = trace.last().unwrap().1.velocity.length();
    assert!(
        (speed - 2.0).abs() < 1e-3,
        "top speed {speed} m/s with max_speed 2"
    );
}

#[test]
fn jump_and_crouch_go_through() {
    let mut asks = hold(Vec3::ZERO, 10);
    asks.extend(vec![(Vec3::ZERO, true, false); 30]);
    asks.extend(hold(Vec3::ZERO, 60));
    asks.extend(vec![(Vec3::Z, false, true); 60]);
    let trace = walk_both(CAPSULE, "", 60.0, &asks);
    assert!(trace.iter().any(|(_, r)| r.jumped));
    assert!(trace.iter().any(|(p, _)| p.y > 0.5), "the jump rose");
    assert!(trace.last().unwrap().1.crouched);
}

#[test]
fn move_and_step_goes_through() {
    let id = add_body(body(CAPSULE));
    let mut twin = body(CAPSULE);
    let handle = new_character(id, "");
    let controller = Controller::default();
    for tick in 0..120 {
        assert_eq!(kcc_move_and_step(handle, 0.0, -9.8, -3.0, 1.0 / 60.0), 1);
        let direct = controller.move_and_step(&mut twin, Vec3::new(0.0, -9.8, -3.0), 1.0 / 60.0);
        assert_eq!(read_report(), direct, "tick {tick}");
    }
    let end = with_body(id, |b| b.position());
    assert_eq!(end, twin.position());
    assert!(end.y > 0.99, "on the landing: {end}");
}

#[test]
fn bad_settings_give_a_reason_not_a_character() {
    for (text, reason) in [
        ("{", "EOF"),
        (
            r#"{"stairs": {"max_step_height": -0.3}}"#,
            "stairs.max_step_height",
        ),
        (
            r#"{"stairs": {"step_hieght": 0.3}}"#,
            "unknown field `step_hieght`",
        ),
        (
            r#"{"movement": {"ground": {"attack_time": 0.0, "max_speed": 5, "release_time": 0.1}}}"#,
            "attack_time",
        ),
        (
            r#"{"stairs": {"ground_follow": {"mode": "snap", "detection": "sideways"}}}"#,
            "sideways",
        ),
    ] {
        assert_eq!(new_character(0, text), 0, "{text}");
        let error = last_error();
        assert!(
            error.starts_with("settings: ") && error.contains(reason),
            "{text}: {error}"
        );
    }
    let not_utf8 = [0xff_u8, 0xfe];
    // SAFETY: two readable bytes.
    assert_eq!(unsafe { kcc_character_new(0, not_utf8.as_ptr(), 2) }, 0);
    assert!(last_error().contains("UTF-8"));
}

#[test]
fn unknown_handles_are_refused() {
    for handle in [0, 7, u32::MAX] {
        assert_eq!(
            kcc_tick(handle, 0.0, 0.0, -1.0, 0, 0, 0.0, 0.0, 0.0, 1.0 / 60.0),
            0
        );
        assert_eq!(last_error(), format!("no character with handle {handle}"));
        assert_eq!(kcc_move_and_step(handle, 0.0, 0.0, 0.0, 1.0 / 60.0), 0);
        assert_eq!(kcc_character_free(handle), 0);
    }
    let id = add_body(body(CAPSULE));
    let handle = new_character(id, "");
    assert_eq!(kcc_character_free(handle), 1);
    assert_eq!(kcc_character_free(handle), 0, "freed twice");
    assert_eq!(
        kcc_tick(handle, 0.0, 0.0, -1.0, 0, 0, 0.0, 0.0, 0.0, 1.0 / 60.0),
        0
    );
    // A freed slot is used again.
    assert_eq!(new_character(id, ""), handle);
}

#[test]
fn unusable_numbers_are_sanitized_and_never_reach_the_body() {
    let id = add_body(body(CAPSULE));
    let handle = new_character(id, "");
    let start = with_body(id, |b| b.position());
    let nan = f32::NAN;
    for (wish, velocity, dt, bit) in [
        (Vec3::NEG_Z, Vec3::ZERO, nan, 4),
        (Vec3::NEG_Z, Vec3::ZERO, -1.0, 4),
        (Vec3::NEG_Z, Vec3::ZERO, 0.0, 4),
        (Vec3::splat(nan), Vec3::ZERO, 1.0 / 60.0, 1),
        (
            Vec3::NEG_Z,
            Vec3::new(f32::INFINITY, 0.0, 0.0),
            1.0 / 60.0,
            2,
        ),
        (Vec3::NEG_Z, Vec3::ZERO, 100.0, 8),
    ] {
        let (w, v) = (wish, velocity);
        assert_eq!(kcc_tick(handle, w.x, w.y, w.z, 0, 0, v.x, v.y, v.z, dt), 1);
        let report = read_report();
        assert_ne!(
            mailbox::get(report::SANITIZED) as u32 & bit,
            0,
            "{wish} {velocity} {dt}"
        );
        assert!(report.velocity.is_finite());
        let position = with_body(id, |b| b.position());
        assert!(
            position.is_finite() && position.distance(start) < 3.0,
            "{position}"
        );
    }
}

#[test]
fn text_memory_is_lent_and_given_back() {
    let text = br#"{"stairs": {"max_step_height": 0.25}}"#;
    let ptr = kcc_alloc(text.len() as u32);
    // SAFETY: `ptr` holds `text.len()` bytes lent by the module.
    unsafe {
        std::ptr::copy_nonoverlapping(text.as_ptr(), ptr, text.len());
        assert_ne!(
            kcc_character_new(add_body(body(CAPSULE)), ptr, text.len() as u32),
            0
        );
        kcc_release(ptr, text.len() as u32);
        kcc_release(std::ptr::null_mut(), 0);
    }
    assert_eq!(kcc_mailbox(), mailbox::address());
}

#[test]
fn through_the_abi_a_character_pushes_a_crate_as_the_core_does() {
    // A 10 kg crate 1.5 m ahead on the floor, walked into for a second: each tick's impulses
    // through the imports are the core's own on a twin body, and there are some.
    let mut world = World::new();
    world.add(geometry::aabb_box(Vec3::new(0.0, -0.5, 0.0), Vec3::new(40.0, 1.0, 40.0)).unwrap());
    let crate_box = geometry::aabb_box(Vec3::new(0.0, 0.35, -1.5), Vec3::new(1.0, 0.7, 1.0));
    world.add_movable(
        crate_box.unwrap(),
        Vec3::new(0.0, 0.35, -1.5),
        10.0,
        Vec3::ZERO,
    );
    let world = Arc::new(world);
    let make = || ParryBody::new(world.clone(), BodySettings::default(), Vec3::ZERO).unwrap();
    let mut twin = make();
    let id = add_body(make());
    let handle = new_character(id, "");
    assert_ne!(handle, 0, "{}", last_error());
    let controller = Controller::new(ControllerSettings::default()).unwrap();
    let mut state = CharacterState::default();
    let (mut velocity, mut twin_velocity) = (Vec3::ZERO, Vec3::ZERO);
    let mut pushed = 0;
    for tick in 0..60 {
        let v = velocity;
        assert_eq!(
            kcc_tick(handle, 0.0, 0.0, -1.0, 0, 0, v.x, v.y, v.z, 1.0 / 60.0),
            1
        );
        velocity = read_report().velocity;
        let input = TickInput {
            wish_direction: Vec3::NEG_Z,
            velocity: twin_velocity,
            ..TickInput::default()
        };
        twin_velocity = controller
            .tick_with(&mut twin, &input, &mut state, 1.0 / 60.0)
            .velocity;
        let through_abi = with_body(id, |b| b.take_pushes());
        assert_eq!(through_abi, twin.take_pushes(), "tick {tick}");
        pushed += through_abi.len();
    }
    assert!(pushed > 10, "{pushed} pushes");
    assert_eq!(kcc_character_free(handle), 1);
}

#[test]
fn through_the_abi_a_character_presses_the_board_it_stands_on_as_the_core_does() {
    // A 20 kg board 0.1 m thick on the floor, stood on for half a second: each tick's weight
    // through the imports (`host_floor_body`, `host_press_floor_body`) is the core's own on a
    // twin body, at a point on the board.
    let mut world = World::new();
    world.add(geometry::aabb_box(Vec3::new(0.0, -0.5, 0.0), Vec3::new(40.0, 1.0, 40.0)).unwrap());
    let center = Vec3::new(0.0, 0.05, 0.0);
    let board = geometry::aabb_box(center, Vec3::new(2.0, 0.1, 2.0)).unwrap();
    world.add_movable(board, center, 20.0, Vec3::ZERO);
    let world = Arc::new(world);
    let start = Vec3::new(0.0, 0.11, 0.0);
    let make = || ParryBody::new(world.clone(), BodySettings::default(), start).unwrap();
    let mut twin = make();
    let id = add_body(make());
    let handle = new_character(id, "");
    assert_ne!(handle, 0, "{}", last_error());
    let controller = Controller::new(ControllerSettings::default()).unwrap();
    let mut state = CharacterState::default();
    let mut pressed = 0;
    for tick in 0..30 {
        assert_eq!(
            kcc_tick(handle, 0.0, 0.0, 0.0, 0, 0, 0.0, 0.0, 0.0, 1.0 / 60.0),
            1
        );
        controller.tick_with(&mut twin, &TickInput::default(), &mut state, 1.0 / 60.0);
        let through_abi = with_body(id, |b| b.take_pushes());
        assert_eq!(through_abi, twin.take_pushes(), "tick {tick}");
        pressed += through_abi.iter().filter(|p| p.point.is_some()).count();
    }
    assert!(pressed >= 25, "{pressed} presses");
    assert_eq!(kcc_character_free(handle), 1);
}
