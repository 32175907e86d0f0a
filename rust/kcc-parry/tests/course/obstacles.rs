//! What must not be climbed, ceilings over steps, and sliding along a wall.

use crate::common::*;
use glam::Vec3;
use kcc::{Controller, KinematicBody};
use kcc_parry::geometry;

/// Walks 2 s toward -Z at 4 m/s and returns the highest point the body reached, where it
/// ended, and the gap ahead of it there (see [`gap_ahead`]).
fn highest(
    world: &std::sync::Arc<kcc_parry::World>,
    shape: kcc_parry::CharacterShape,
) -> (f32, Vec3, f32) {
    let controller = Controller::new(settings(4.0)).unwrap();
    let mut body = body(world, shape, Vec3::ZERO);
    settle(&controller, &mut body, 60.0);
    let trace = walk(&controller, &mut body, Vec3::NEG_Z, 60.0, 120);
    let top = trace.iter().map(|t| t.after.y).fold(0.0, f32::max);
    let end = body.position();
    (top, end, gap_ahead(&mut body, end))
}

/// How far the body at `end` could still move toward -Z before it touches something, m (1 m
/// when nothing is that close). A "not climbed" test also checks that the body got to what it
/// did not climb: it stands against it (a gap of at most a centimetre), so a body that never
/// moved, or stopped short, fails.
fn gap_ahead(body: &mut kcc_parry::ParryBody, end: Vec3) -> f32 {
    let probe = body.test_move(end, Vec3::NEG_Z);
    if probe.collided() {
        probe.travel.dot(Vec3::NEG_Z)
    } else {
        1.0
    }
}

/// Largest gap between a body stopped by an obstacle and the obstacle, m: the safe margin
/// (1 mm) and what the last tick's slide left of its push.
const AGAINST: f32 = 0.01;

#[test]
fn riser_higher_than_max_step_is_not_climbed() {
    // Max step height is 0.4 m by default; this riser is 0.45 m.
    let world = world(vec![
        geometry::aabb_box(Vec3::new(0.0, 0.225, -2.0), Vec3::new(4.0, 0.45, 2.0)).unwrap(),
    ]);
    for shape in [capsule(), cylinder()] {
        let (top, end, gap) = highest(&world, shape);
        assert!(top < 0.01, "{shape:?} climbed to {top}");
        assert!(end.z > -1.0 + 0.0, "{shape:?} passed the riser: {end}");
        assert!(
            gap < AGAINST,
            "{shape:?} stopped {gap} m short of the riser: {end}"
        );
    }
    // The same riser at 0.35 m is climbed.
    let world = crate::common::world(vec![
        geometry::aabb_box(Vec3::new(0.0, 0.175, -2.0), Vec3::new(4.0, 0.35, 2.0)).unwrap(),
    ]);
    for shape in [capsule(), cylinder()] {
        let (top, _, _) = highest(&world, shape);
        assert!(top > 0.34, "{shape:?} did not climb 0.35 m: {top}");
    }
}

#[test]
fn a_body_held_against_a_riser_too_high_gives_up_at_its_edge() {
    // Against the 0.45 m riser (max step 0.4 m), every tick's climb lifted the body, looked
    // ahead and dropped twice onto the riser's edge before it measured the riser too high (7
    // queries a tick for the capsule, counting the slide's own and the look for a body under
    // it): the first drop's edge, higher above the feet than a riser may be, already says so.
    let world = world(vec![
        geometry::aabb_box(Vec3::new(0.0, 0.225, -2.0), Vec3::new(4.0, 0.45, 2.0)).unwrap(),
    ]);
    stays_against(&world, Vec3::ZERO, 0.01, 7.0);
}

#[test]
fn thin_ledge_against_a_wall_is_not_climbed() {
    // A ledge 0.3 m high and 0.05 m deep in front of a 3 m wall.
    let world = world(vec![
        geometry::aabb_box(Vec3::new(0.0, 0.15, -1.025), Vec3::new(4.0, 0.3, 0.05)).unwrap(),
        geometry::aabb_box(Vec3::new(0.0, 1.5, -1.55), Vec3::new(4.0, 3.0, 1.0)).unwrap(),
    ]);
    for shape in [capsule(), cylinder()] {
        let (top, end, gap) = highest(&world, shape);
        assert!(top < 0.01, "{shape:?} climbed the thin ledge to {top}");
        assert!(
            gap < AGAINST,
            "{shape:?} stopped {gap} m short of the ledge: {end}"
        );
    }
}

#[test]
fn stairs_with_treads_too_shallow_are_not_climbed() {
    // Jolt's "no stairs": 0.3 m risers with 0.05 m treads.
    let world = world(
        geometry::stairs(Vec3::new(0.0, 0.0, -1.0), Vec3::NEG_Z, 10, 0.3, 0.05, 4.0).unwrap(),
    );
    for shape in [capsule(), cylinder()] {
        let (top, end, gap) = highest(&world, shape);
        assert!(top < 0.01, "{shape:?} climbed to {top}");
        assert!(
            gap < AGAINST,
            "{shape:?} stopped {gap} m short of the stairs: {end}"
        );
    }
    // With deeper treads than the minimum step depth they are climbed.
    let world = crate::common::world(
        geometry::stairs(Vec3::new(0.0, 0.0, -1.0), Vec3::NEG_Z, 3, 0.3, 0.15, 4.0).unwrap(),
    );
    let (top, _, _) = highest(&world, cylinder());
    assert!(top > 0.89, "did not climb 0.15 m treads: {top}");
}

#[test]
fn step_onto_a_surface_steeper_than_floor_max_angle_is_not_taken() {
    // A 0.2 m riser whose top is a 60 degree slope going up (a wedge), followed by nothing.
    let wedge = geometry::convex_hull(&[
        Vec3::new(-2.0, 0.0, -1.0),
        Vec3::new(2.0, 0.0, -1.0),
        Vec3::new(-2.0, 0.2, -1.0),
        Vec3::new(2.0, 0.2, -1.0),
        Vec3::new(-2.0, 0.0, -2.5),
        Vec3::new(2.0, 0.0, -2.5),
        Vec3::new(-2.0, 0.2 + 1.5 * 60f32.to_radians().tan(), -2.5),
        Vec3::new(2.0, 0.2 + 1.5 * 60f32.to_radians().tan(), -2.5),
    ])
    .unwrap();
    let world = world(vec![wedge]);
    for shape in [capsule(), cylinder()] {
        let controller = Controller::new(settings(4.0)).unwrap();
        let mut body = body(&world, shape, Vec3::ZERO);
        settle(&controller, &mut body, 60.0);
        let trace = walk(&controller, &mut body, Vec3::NEG_Z, 60.0, 120);
        assert!(
            trace.iter().all(|t| t.report.step_up == 0.0),
            "{shape:?} stepped onto the steep face"
        );
        let end = body.position();
        assert!(end.y < 0.01, "{shape:?} ended at {end}");
        let gap = gap_ahead(&mut body, end);
        assert!(
            gap < AGAINST,
            "{shape:?} stopped {gap} m short of the wedge: {end}"
        );
    }
}

/// A 0.3 m step from z = -1 to -3 under a ceiling whose underside is `ceiling` m up, from
/// z = 0 to -3.
fn step_under_ceiling(ceiling: f32) -> std::sync::Arc<kcc_parry::World> {
    world(vec![
        geometry::aabb_box(Vec3::new(0.0, 0.15, -2.0), Vec3::new(4.0, 0.3, 2.0)).unwrap(),
        geometry::aabb_box(
            Vec3::new(0.0, ceiling + 0.5, -1.5),
            Vec3::new(4.0, 1.0, 3.0),
        )
        .unwrap(),
    ])
}

#[test]
fn low_ceiling_over_a_step_is_never_entered() {
    // A 0.3 m step under a ceiling at 2.0 m: 1.7 m of room over the step, too little for the
    // 1.8 m body, which must stay below and never overlap the ceiling.
    let world = step_under_ceiling(2.0);
    for shape in [capsule(), cylinder()] {
        let controller = Controller::new(settings(4.0)).unwrap();
        let mut body = body(&world, shape, Vec3::new(0.0, 0.0, 1.5));
        settle(&controller, &mut body, 60.0);
        let trace = walk(&controller, &mut body, Vec3::NEG_Z, 60.0, 120);
        for t in &trace {
            assert!(
                t.penetration < 0.002,
                "{shape:?} overlaps by {} at {}",
                t.penetration,
                t.after
            );
            assert!(
                t.after.y + 1.8 <= 2.0 + 0.002,
                "{shape:?} head in the ceiling at {}",
                t.after
            );
        }
        // A capsule may roll part way up the step's edge under the ceiling, never onto it.
        let end = body.position();
        assert!(end.y < 0.29, "{shape:?} squeezed onto the step: {end}");
        let gap = gap_ahead(&mut body, end);
        assert!(
            gap < AGAINST,
            "{shape:?} stopped {gap} m short of the step: {end}"
        );
    }
    // With enough headroom (ceiling at 2.2 m: 1.9 m over the step), the step is climbed.
    let world = step_under_ceiling(2.2);
    let controller = Controller::new(settings(4.0)).unwrap();
    let mut body = body(&world, cylinder(), Vec3::new(0.0, 0.0, 1.5));
    settle(&controller, &mut body, 60.0);
    let trace = walk(&controller, &mut body, Vec3::NEG_Z, 60.0, 120);
    assert!(trace.iter().all(|t| t.penetration < 0.002));
    let top = trace.iter().map(|t| t.after.y).fold(0.0, f32::max);
    assert!(top > 0.29, "did not climb under the ceiling: {top}");
}

#[test]
fn a_body_held_against_a_step_with_no_room_over_it_gives_up_after_the_lift() {
    // The low ceiling over the step above: once the body stands against the step, the lift
    // meets the ceiling 0.2 m up, below the step's edge (0.3 m), and the climb gives up there.
    // It went on to look ahead, slide along the edge and drop twice, every tick (9 queries a
    // tick here, counting the slide's own; about 4 now).
    stays_against(
        &step_under_ceiling(2.0),
        Vec3::new(0.0, 0.0, 1.5),
        0.29,
        5.0,
    );
}

/// Walks each shape from `start` (m) along -Z at 60 Hz for a second, into what stops it, and
/// for one more: that second costs fewer than `most` motion queries a tick on average
/// (counting the slide's own and the look for a body underfoot), no tick ends `climbed` (m) up
/// or higher, and the body ends against what stopped it.
fn stays_against(world: &std::sync::Arc<kcc_parry::World>, start: Vec3, climbed: f32, most: f32) {
    for shape in [capsule(), cylinder()] {
        let controller = Controller::new(settings(4.0)).unwrap();
        let mut body = body(world, shape, start);
        settle(&controller, &mut body, 60.0);
        walk(&controller, &mut body, Vec3::NEG_Z, 60.0, 60);
        let before = body.queries();
        let trace = walk(&controller, &mut body, Vec3::NEG_Z, 60.0, 60);
        let per_tick = (body.queries() - before) as f32 / 60.0;
        let end = body.position();
        assert!(
            per_tick < most,
            "{shape:?}: {per_tick} queries a tick at {end}"
        );
        let top = trace.iter().map(|t| t.after.y).fold(0.0, f32::max);
        assert!(top < climbed, "{shape:?} climbed to {top}");
        let gap = gap_ahead(&mut body, end);
        assert!(gap < AGAINST, "{shape:?} stopped {gap} m short: {end}");
    }
}

#[test]
fn stepping_along_a_wall_gains_no_speed() {
    // Jolt's "stair walk along wall": velocity (5, 0, -1) against a wall at z = -0.5 for 1 s.
    let world = world(vec![
        geometry::aabb_box(Vec3::new(0.0, 1.5, -1.0), Vec3::new(40.0, 3.0, 1.0)).unwrap(),
    ]);
    for shape in [capsule(), cylinder()] {
        let controller = Controller::new(settings(6.0)).unwrap();
        let mut body = body(&world, shape, Vec3::new(0.0, 0.0, -0.05));
        settle(&controller, &mut body, 60.0);
        let start = body.position();
        drive(&controller, &mut body, Vec3::new(5.0, 0.0, -1.0), 60.0, 60);
        let end = body.position();
        assert!(
            (end.x - start.x - 5.0).abs() < 0.01,
            "{shape:?} moved {} along the wall",
            end.x - start.x
        );
        assert!(end.y.abs() < 0.01, "{shape:?} climbed the wall: {end}");
        assert!(end.z > -0.5 + 0.0, "{shape:?} went into the wall: {end}");
    }
}

#[test]
fn pushing_into_a_wall_gains_no_speed_along_it() {
    // The stick pushes (5, -1) m/s (full stick at 5.099 m/s) into a wall at z = -0.5: the
    // movement model slides along it no faster than the push's part along it, 5 m/s (the body's
    // velocity exactly; its moves within 0.5 %, the recovery out of the wall's margin).
    let world = world(vec![
        geometry::aabb_box(Vec3::new(0.0, 1.5, -1.0), Vec3::new(40.0, 3.0, 1.0)).unwrap(),
    ]);
    let push = Vec3::new(5.0, 0.0, -1.0);
    for shape in [capsule(), cylinder()] {
        for rate in [30.0, 60.0, 240.0] {
            let controller = Controller::new(settings(push.length())).unwrap();
            let mut body = body(&world, shape, Vec3::new(0.0, 0.0, -0.05));
            settle(&controller, &mut body, rate);
            let trace = walk(
                &controller,
                &mut body,
                push / push.length(),
                rate,
                rate as u32,
            );
            let fastest = trace
                .iter()
                .map(|t| (t.after.x - t.before.x) * rate)
                .fold(0.0, f32::max);
            assert!(
                fastest <= 5.0 * 1.005,
                "{shape:?} {rate} Hz: {fastest} m/s along the wall"
            );
            let velocity = trace
                .iter()
                .map(|t| t.report.velocity.x)
                .fold(0.0, f32::max);
            assert!(
                velocity <= 5.0 + 1e-4,
                "{shape:?} {rate} Hz: velocity {velocity} m/s along the wall"
            );
            assert!(fastest > 4.99, "{shape:?} {rate} Hz: only {fastest} m/s");
            assert!(trace.iter().all(|t| t.after.z > -0.5), "{shape:?} went in");
        }
    }
}

#[test]
fn a_boulder_stops_the_walk_at_its_surface_and_is_not_climbed() {
    // A ball of radius 1 m sunk 0.4 m into the floor: a dome 1.6 m high in the way.
    let center = Vec3::new(0.0, 0.6, -2.5);
    let world = world(vec![geometry::ball(center, 1.0).unwrap()]);
    for shape in [capsule(), cylinder()] {
        let (top, end, gap) = highest(&world, shape);
        assert!(top < 0.01, "{shape:?} climbed to {top}");
        assert!(gap < AGAINST, "{shape:?} stopped {gap} m short: {end}");
        // Against the dome's widest part (at the ball's centre height, along the shape's
        // straight side): the ball's radius and the shape's apart, and the safe margin.
        let reach = center.z + 1.0 + 0.4;
        assert!(
            end.z >= reach && end.z - reach < AGAINST,
            "{shape:?} ended at {end}"
        );
    }
}
