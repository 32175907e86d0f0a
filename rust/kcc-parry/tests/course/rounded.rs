//! Solids rounded by a margin, as Godot on Jolt rounds a `BoxShape3D` or a
//! `ConvexPolygonShape3D` with `Shape3D.margin`: faces in place, edges rounded with the convex
//! radius (an edge of a box is a quarter cylinder of radius r whose axis is r inside both
//! faces). Checked against the geometry worked out by hand, then on the Jolt stairs.

use std::sync::Arc;

use crate::common::*;
use glam::Vec3;
use kcc::{Controller, KinematicBody, MotionTest, TickInput};
use kcc_parry::world::{bisect, bisection_steps};
use kcc_parry::{CharacterShape, Solid, World, geometry};

/// Capsule radius, m (the common capsule: radius 0.4, height 1.8).
const R: f32 = 0.4;
/// The body's safe margin, m (`BodySettings::default`).
const MARGIN: f32 = 0.001;

/// Where Jolt's binary search stops a motion of `length` (m) that first touches the solid
/// after `touch` (m): the safe and unsafe distances along it (m). The travel is the safe one,
/// short of the touch by less than the last step tried, never past it; contacts are gathered
/// at the unsafe one, just past the touch.
fn jolt_stop(touch: f32, length: f32) -> (f32, f32) {
    let found = bisect(f64::from(touch / length), bisection_steps(length));
    let (safe, unsafe_) = (found.safe * length, found.unsafe_fraction * length);
    assert!(found.hit && safe < touch && touch <= unsafe_, "{found:?}");
    // About a millimetre of precision (1000 x length is at most 2^(steps + 1)).
    assert!(unsafe_ - safe <= 2e-3, "{found:?}");
    (safe, unsafe_)
}

fn alone(solids: Vec<Solid>) -> Arc<World> {
    let mut world = World::new();
    world.extend(solids);
    Arc::new(world)
}

/// A step 4 m wide, 0.3 m high, from z = -1 to z = 1 (front edge at y = 0.3, z = 1), with
/// `margin`.
fn step(margin: f32) -> Solid {
    geometry::aabb_box(Vec3::new(0.0, 0.15, 0.0), Vec3::new(4.0, 0.3, 2.0))
        .unwrap()
        .with_margin(margin)
        .unwrap()
}

/// A block 4 m wide, 2 m high, from z = -1 to z = 1, with `margin`.
fn block(margin: f32) -> Solid {
    geometry::aabb_box(Vec3::new(0.0, 1.0, 0.0), Vec3::new(4.0, 2.0, 2.0))
        .unwrap()
        .with_margin(margin)
        .unwrap()
}

fn contact(test: &MotionTest) -> kcc::Contact {
    test.contact.expect("a contact")
}

/// Where the capsule's bottom sphere (centre `R` above the origin) comes to rest when it falls
/// at `z` onto an edge along x at height `edge_y`, depth `edge_z` (the edge of the rounded box
/// is the axis `r` inside both faces; a sharp edge has r = 0): (origin height, normal).
fn falls_on_edge(z: f32, edge_y: f32, edge_z: f32, r: f32) -> (f32, Vec3) {
    let axis = Vec3::new(0.0, edge_y - r, edge_z - r);
    let horizontal = z - axis.z;
    let vertical = ((R + r).powi(2) - horizontal.powi(2)).sqrt();
    let normal = Vec3::new(0.0, vertical, horizontal) / (R + r);
    (axis.y + vertical - R, normal)
}

#[test]
fn a_capsule_falling_on_a_rounded_edge_rests_on_the_quarter_cylinder() {
    for (margin, r) in [(0.0, 0.0), (0.04, 0.04)] {
        // A 2 m high block: its smallest half extent (1 m) allows the full 0.04 m.
        let world = alone(vec![block(margin)]);
        assert_eq!(world.solids()[0].convex_radius(), r);
        let mut body = crate::common::body(&world, capsule(), Vec3::ZERO);
        for past in [0.05f32, 0.2, 0.35] {
            let from = Vec3::new(0.0, 3.0, 1.0 + past);
            let test = body.test_move(from, Vec3::new(0.0, -2.0, 0.0));
            let (rest, normal) = falls_on_edge(from.z, 2.0, 1.0, r);
            let c = contact(&test);
            let stop = from.y + test.travel.y;
            // The cast stops where Jolt's binary search does, short of the touch.
            let (safe, unsafe_) = jolt_stop(from.y - rest, 2.0);
            assert!(
                (stop - (from.y - safe)).abs() < 1e-6,
                "margin {margin}, {past} m past the edge: stops at {stop}, expected {}",
                from.y - safe
            );
            // Contacts are gathered at the unsafe fraction, where the sphere overlaps the edge:
            // the normal points from the edge's axis to the sphere's centre there.
            let axis = Vec3::new(0.0, 2.0 - r, 1.0 - r);
            let sphere = Vec3::new(0.0, from.y - unsafe_ + R, from.z);
            let there = (sphere - axis).normalize();
            // It turned from the normal at the touch by at most the overshoot over R + r.
            let overshoot = unsafe_ - (from.y - rest);
            assert!(there.distance(normal) <= overshoot / (R + r) + 1e-6);
            assert!(
                c.normal.distance(there) < 1e-5,
                "margin {margin}: normal {} vs {there}",
                c.normal
            );
            // The point is on the rounded edge, r from its axis toward the sphere; the depth is
            // the overlap there plus the safe margin.
            let overlap = R + r - sphere.distance(axis);
            assert!((0.0..2e-3).contains(&overlap), "{overlap}");
            assert!(c.point.distance(axis + there * r) < 2e-5, "{:?}", c.point);
            assert!(
                (c.depth - (MARGIN + overlap)).abs() < 2e-6,
                "depth {} vs {}",
                c.depth,
                MARGIN + overlap
            );
            assert!(test.travel.x.abs() < 1e-6 && test.travel.z.abs() < 1e-6);
        }
    }
}

#[test]
fn rounded_and_sharp_edges_differ_as_jolt_and_sharp_boxes_do() {
    // 0.2 m past the edge: on the sharp edge the capsule rests 1.76 cm higher, its normal
    // tilted 30 degrees; on the rounded one 33 degrees.
    let (sharp, sharp_normal) = falls_on_edge(1.2, 2.0, 1.0, 0.0);
    let (rounded, rounded_normal) = falls_on_edge(1.2, 2.0, 1.0, 0.04);
    assert!(
        (sharp - rounded - 0.017_63).abs() < 1e-4,
        "{sharp} {rounded}"
    );
    assert!((sharp_normal.z - 0.5).abs() < 1e-6);
    assert!((rounded_normal.z - 0.24 / 0.44).abs() < 1e-6);
    let sharp_world = alone(vec![block(0.0)]);
    let rounded_world = alone(vec![block(0.04)]);
    let from = Vec3::new(0.0, 3.0, 1.2);
    let motion = Vec3::new(0.0, -2.0, 0.0);
    let a = crate::common::body(&sharp_world, capsule(), Vec3::ZERO).test_move(from, motion);
    let b = crate::common::body(&rounded_world, capsule(), Vec3::ZERO).test_move(from, motion);
    // Each stops where Jolt's search stops short of its own touch.
    let stop = |rest: f32| from.y - jolt_stop(from.y - rest, 2.0).0;
    assert!((from.y + a.travel.y - stop(sharp)).abs() < 1e-6);
    assert!((from.y + b.travel.y - stop(rounded)).abs() < 1e-6);
}

#[test]
fn a_capsule_sweeping_into_a_rounded_step_edge_gets_the_tilted_normal() {
    // The capsule stands at floor height (no floor: nothing else to touch) and walks along -Z
    // into the step's front edge: its bottom sphere (centre 0.4 m up) meets the rounded edge,
    // whose axis is at y = 0.3 - r, z = 1 - r.
    for (margin, r) in [(0.0f32, 0.0f32), (0.04, 0.012)] {
        // The step is 0.3 m high: its radius is clamped to 0.08 x 0.15 m = 1.2 cm.
        let world = alone(vec![step(margin)]);
        assert!((world.solids()[0].convex_radius() - r).abs() < 1e-9);
        let mut body = crate::common::body(&world, capsule(), Vec3::ZERO);
        let from = Vec3::new(0.0, 0.0, 2.0);
        let test = body.test_move(from, Vec3::new(0.0, 0.0, -1.5));
        let axis_y = 0.3 - r;
        let vertical = R - axis_y;
        let horizontal = ((R + r).powi(2) - vertical.powi(2)).sqrt();
        let normal = Vec3::new(0.0, vertical, horizontal) / (R + r);
        let touch = (1.0 - r) + horizontal;
        let (safe, unsafe_) = jolt_stop(from.z - touch, 1.5);
        let expected = from.z - safe;
        let stop = from.z + test.travel.z;
        assert!(
            (stop - expected).abs() < 1e-6,
            "margin {margin}: stops at z = {stop}, expected {expected}"
        );
        // The normal where contacts are gathered, at the unsafe fraction.
        let c = contact(&test);
        let axis = Vec3::new(0.0, axis_y, 1.0 - r);
        let there = (Vec3::new(0.0, R, from.z - unsafe_) - axis).normalize();
        let overshoot = unsafe_ - (from.z - touch);
        assert!(there.distance(normal) <= overshoot / (R + r) + 1e-6);
        assert!(
            c.normal.distance(there) < 1e-5,
            "margin {margin}: {} vs {there}",
            c.normal
        );
        assert!(test.remainder.z < 0.0 && test.travel.y.abs() < 1e-6);
    }
}

#[test]
fn a_margin_above_the_fraction_is_clamped_as_jolt_does() {
    // Jolt: r = min(margin, 0.08 x smallest half extent), in f32.
    for (size, margin, expected) in [
        (Vec3::new(4.0, 0.3, 2.0), 0.04, 0.15f32 * 0.08),
        (Vec3::new(4.0, 0.3, 2.0), 0.01, 0.01),
        (Vec3::new(4.0, 2.0, 2.0), 0.04, 0.04),
        (Vec3::new(0.1, 2.0, 2.0), 0.04, 0.05f32 * 0.08),
        (Vec3::new(4.0, 2.0, 2.0), 0.5, 1.0 * 0.08),
    ] {
        let solid = geometry::aabb_box(Vec3::ZERO, size)
            .unwrap()
            .with_margin(margin)
            .unwrap();
        assert_eq!(solid.margin(), margin);
        assert_eq!(solid.convex_radius(), expected, "{size} {margin}");
    }
    // The clamped radius is the one the queries use: on a 0.3 m step, a capsule falling
    // 0.1 m past the edge rests on an edge of radius 1.2 cm.
    let world = alone(vec![step(0.04)]);
    let r = 0.15f32 * 0.08;
    let test = crate::common::body(&world, capsule(), Vec3::ZERO)
        .test_move(Vec3::new(0.0, 1.0, 1.1), Vec3::new(0.0, -1.0, 0.0));
    let (rest, _) = falls_on_edge(1.1, 0.3, 1.0, r);
    let (safe, unsafe_) = jolt_stop(1.0 - rest, 1.0);
    let stop = 1.0 + test.travel.y;
    assert!(
        (stop - (1.0 - safe)).abs() < 1e-6,
        "{stop} vs {}",
        1.0 - safe
    );
    let center = Vec3::new(0.0, 1.0 - unsafe_ + R, 1.1);
    let there = (center - Vec3::new(0.0, 0.3 - r, 1.0 - r)).normalize();
    assert!(contact(&test).normal.distance(there) < 1e-5);
}

#[test]
fn flat_faces_stay_where_the_sharp_faces_are() {
    for shape in [capsule(), cylinder()] {
        let mut heights = Vec::new();
        for margin in [0.0, 0.04] {
            let world = alone(vec![block(margin)]);
            let mut body = crate::common::body(&world, shape, Vec3::ZERO);
            // Falls onto the middle of the top face (first touch after 1.1 m of 2 m).
            let from = Vec3::new(0.3, 3.1, -0.2);
            let test = body.test_move(from, Vec3::new(0.0, -2.0, 0.0));
            let c = contact(&test);
            assert!(c.normal.distance(Vec3::Y) < 1e-6, "{shape:?} {}", c.normal);
            heights.push(from.y + test.travel.y);
            // The controller settles on it at the same height.
            let controller = Controller::new(settings(4.0)).unwrap();
            let mut body = crate::common::body(&world, shape, Vec3::new(0.3, 2.05, -0.2));
            settle(&controller, &mut body, 60.0);
            heights.push(body.position().y);
            assert!(
                body.penetration() < 1e-6,
                "{shape:?}: {}",
                body.penetration()
            );
        }
        let top = 3.1 - jolt_stop(1.1, 2.0).0;
        assert!((heights[0] - top).abs() < 1e-6, "{shape:?} {heights:?}");
        assert!(
            (heights[0] - heights[2]).abs() < 1e-6,
            "{shape:?}: test_move"
        );
        assert!((heights[1] - heights[3]).abs() < 1e-6, "{shape:?}: settled");
        // Against the side face too.
        let mut stops = Vec::new();
        for margin in [0.0, 0.04] {
            let world = alone(vec![block(margin)]);
            let test = crate::common::body(&world, shape, Vec3::ZERO)
                .test_move(Vec3::new(0.0, 0.5, 2.0), Vec3::new(0.0, 0.0, -1.5));
            assert!(contact(&test).normal.distance(Vec3::Z) < 1e-6);
            stops.push(2.0 + test.travel.z);
        }
        let side = 2.0 - jolt_stop(2.0 - (1.0 + R), 1.5).0;
        assert!((stops[0] - side).abs() < 1e-6, "{stops:?}");
        assert!((stops[0] - stops[1]).abs() < 1e-6, "{shape:?}: side face");
    }
}

#[test]
fn penetration_is_the_depth_below_a_rounded_face_at_any_depth() {
    // Shallower than R + r the cores are apart and the rounded distance is exact; deeper, the
    // sharp box is measured (as Jolt's EPA does): the depth under a face is the same either way.
    let world = alone(vec![block(0.04)]);
    for shape in [capsule(), cylinder()] {
        let mut body = crate::common::body(&world, shape, Vec3::ZERO);
        for i in 1..80 {
            let depth = i as f32 * 0.01;
            body.set_position(Vec3::new(0.3, 2.0 - depth, -0.2));
            let measured = body.penetration();
            assert!(
                (measured - depth).abs() < 1e-5,
                "{shape:?}: {measured} m for {depth} m deep"
            );
        }
    }
}

#[test]
fn a_rounded_ramp_keeps_its_face_planes() {
    let angle = 30f32.to_radians();
    let build = |margin| {
        geometry::ramp(Vec3::ZERO, Vec3::NEG_Z, angle, 4.0, 3.0)
            .unwrap()
            .with_margin(margin)
            .unwrap()
    };
    let rounded = build(0.04);
    // Jolt lowers the radius for the 30 degree tip edge: at the tip corner the bottom, slope
    // and side planes meet, and moving them in by r moves the corner by
    // r sqrt(cot(15 deg)^2 + 2); Jolt allows 0.05 m more than r: r = 0.05 / (that - 1).
    let cot = 1.0 / 15f32.to_radians().tan();
    let expected = 0.05 / ((cot * cot + 2.0).sqrt() - 1.0);
    assert!(
        (rounded.convex_radius() - expected).abs() < 1e-6,
        "{} vs {expected}",
        rounded.convex_radius()
    );
    let slope_normal = Vec3::new(0.0, angle.cos(), angle.sin());
    for shape in [capsule(), cylinder()] {
        let mut stops = Vec::new();
        for solid in [build(0.0), rounded.clone()] {
            let world = alone(vec![solid]);
            // Falls onto the middle of the slope.
            let from = Vec3::new(0.2, 4.0, -1.7);
            let test = crate::common::body(&world, shape, Vec3::ZERO)
                .test_move(from, Vec3::new(0.0, -4.0, 0.0));
            let c = contact(&test);
            stops.push(from.y + test.travel.y);
            if matches!(shape, CharacterShape::Capsule { .. }) {
                assert!(c.normal.distance(slope_normal) < 1e-5, "{}", c.normal);
            }
        }
        assert!(
            (stops[0] - stops[1]).abs() < 1e-5,
            "{shape:?}: {} on the sharp ramp, {} on the rounded one",
            stops[0],
            stops[1]
        );
    }
    // The capsule rests where the sphere touches the plane: height of the slope under its
    // centre plus R (1 / cos - 1), for the capsule's centre 1.7 m along.
    let world = alone(vec![rounded]);
    let test = crate::common::body(&world, capsule(), Vec3::ZERO)
        .test_move(Vec3::new(0.2, 4.0, -1.7), Vec3::new(0.0, -4.0, 0.0));
    let rest = 1.7 * angle.tan() + R / angle.cos() - R;
    let expected = 4.0 - jolt_stop(4.0 - rest, 4.0).0;
    assert!((4.0 + test.travel.y - expected).abs() < 1e-6);
}

#[test]
fn margin_zero_gives_the_sharp_results_exactly() {
    let build = |margin: Option<f32>| {
        let mut solids = geometry::stairs(Vec3::ZERO, Vec3::NEG_Z, 4, 0.3, 0.3, 2.0).unwrap();
        solids.push(geometry::ramp(Vec3::new(3.0, 0.0, 0.0), Vec3::X, 0.4, 2.0, 1.0).unwrap());
        solids.push(ground());
        let solids = match margin {
            Some(m) => solids
                .into_iter()
                .map(|s| s.with_margin(m).unwrap())
                .collect(),
            None => solids,
        };
        alone(solids)
    };
    let (plain, zero) = (build(None), build(Some(0.0)));
    for solid in zero.solids() {
        assert_eq!((solid.margin(), solid.convex_radius()), (0.0, 0.0));
    }
    let mut seed = 0x2545_f491_4f6c_dd1du64;
    let mut next = move || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        (seed >> 40) as f32 / (1u64 << 24) as f32 * 2.0 - 1.0
    };
    for shape in [capsule(), cylinder()] {
        let mut a = crate::common::body(&plain, shape, Vec3::ZERO);
        let mut b = crate::common::body(&zero, shape, Vec3::ZERO);
        let mut hits = 0;
        for _ in 0..3000 {
            let from = Vec3::new(next() * 2.0 + 1.0, next().abs() * 1.5, next() * 2.0 - 0.5);
            let motion = Vec3::new(next(), next(), next());
            let (x, y) = (a.test_move(from, motion), b.test_move(from, motion));
            assert_eq!(x, y, "{from} {motion}");
            hits += usize::from(x.contact.is_some());
        }
        assert!(hits > 300, "{hits}");
    }
}

/// How the stairs' steps are built.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Steps {
    /// The Jolt stairs' boxes: each step 0.3 m deep from the ground up, so Jolt clamps their
    /// radius to 0.08 x 0.15 m = 1.2 cm whatever the margin.
    Jolt,
    /// The same treads and risers from boxes at least 1 m in every direction (1 m deep, from
    /// 1 m under the ground), so a margin of 0.04 m rounds their edges by the full 4 cm.
    Deep,
}

/// Stairs of 10 steps of 0.3 x 0.3 m, 4 m wide, along -Z from z = -1, and a landing at the
/// top, every box with `margin`, on a ground with `margin`.
fn rounded_stairs(margin: f32, steps: Steps, landing: bool) -> Arc<World> {
    let mut solids = match steps {
        Steps::Jolt => {
            geometry::stairs(Vec3::new(0.0, 0.0, -1.0), Vec3::NEG_Z, 10, 0.3, 0.3, 4.0).unwrap()
        }
        Steps::Deep => (0..10)
            .map(|i| {
                let top = (i + 1) as f32 * 0.3;
                let front = -1.0 - i as f32 * 0.3;
                geometry::aabb_box(
                    Vec3::new(0.0, (top - 1.0) * 0.5, front - 0.5),
                    Vec3::new(4.0, top + 1.0, 1.0),
                )
                .unwrap()
            })
            .collect(),
    };
    if landing {
        solids
            .push(geometry::aabb_box(Vec3::new(0.0, 1.5, -6.0), Vec3::new(4.0, 3.0, 4.0)).unwrap());
    }
    solids.push(ground());
    alone(
        solids
            .into_iter()
            .map(|s| s.with_margin(margin).unwrap())
            .collect(),
    )
}

#[test]
fn climbs_rounded_stairs_at_60_hz() {
    for steps in [Steps::Jolt, Steps::Deep] {
        let world = rounded_stairs(0.04, steps, false);
        let radius = if steps == Steps::Jolt { 0.012 } else { 0.04 };
        for step in &world.solids()[..10] {
            assert!((step.convex_radius() - radius).abs() < 1e-9);
        }
        for shape in [capsule(), cylinder()] {
            climb_jolt_stairs(&world, shape, 60.0, &format!("{steps:?} {shape:?} rounded"));
        }
    }
}

#[test]
fn walks_down_rounded_stairs_on_the_floor_every_tick() {
    // From z = -4.5 the cylinder's rim ends tick 18 1.1 um from the side of a rounded edge,
    // where Jolt drops the only contact of the step down's first probe (see
    // `a_filtered_deepest_contact_is_no_collision_as_on_jolt`); the step down then probes
    // again a little further along the walk.
    for steps in [Steps::Jolt, Steps::Deep] {
        let world = rounded_stairs(0.04, steps, true);
        for shape in [capsule(), cylinder()] {
            descend_jolt_stairs(&world, shape, 60.0, &format!("{steps:?} {shape:?} rounded"));
        }
    }
}

#[test]
fn a_filtered_deepest_contact_is_no_collision_as_on_jolt() {
    // A cylinder on the Jolt stairs' top step, its rim 1.1 um past the step's flat top, over
    // the rounded edge (radius 1.2 cm), sweeps down toward the next tread 0.3 m below. Its
    // first touch is the rounded edge, 10 mm down. Jolt collides at the unsafe fraction, where
    // the rim has slid past that edge's side: the one contact kept (max_collisions 1) is
    // horizontal, does not oppose the motion and is dropped, so the motion counts as free and
    // travels all the way into the tread. Real Godot 4.6 with Jolt answers the same for these
    // three sweeps (replayed in the Godot world: the whole motion, no contact).
    let world = rounded_stairs(0.04, Steps::Jolt, true);
    let from = Vec3::new(0.0, 2.998_277_7, -3.300_001_1);
    let mut body = crate::common::body(&world, cylinder(), from);
    for length in [0.1, 0.3, 0.4] {
        let motion = Vec3::new(0.0, -length, 0.0);
        let down = body.test_move(from, motion);
        assert_eq!(down.contact, None, "{length}: {down:?}");
        assert_eq!(down.travel, motion);
    }
    // So the travel ends 10 cm inside the tread below (its top at y = 2.7).
    body.set_position(from - Vec3::Y * 0.4);
    assert!(body.penetration() > 0.09, "{}", body.penetration());
}

/// Every solid of `solids` with `margin`, on a ground with `margin`.
fn with_margin(solids: Vec<Solid>, margin: f32) -> Arc<World> {
    alone(
        solids
            .into_iter()
            .chain([ground()])
            .map(|s| s.with_margin(margin).unwrap())
            .collect(),
    )
}

#[test]
fn rounded_spiral_staircase_is_climbed() {
    // As `slopes.rs`: 16 wedge steps of 20 degrees, 0.2 m rise, between radii 0.5 and 2.5 m.
    let steps = geometry::spiral_stairs(Vec3::ZERO, 0.5, 2.5, 16, 0.2, 20f32.to_radians()).unwrap();
    let world = with_margin(steps, 0.04);
    for step in &world.solids()[..16] {
        assert!(step.convex_radius() > 0.0);
    }
    let controller = Controller::new(settings(3.0)).unwrap();
    let radius = 1.5;
    let start = Vec3::new(
        radius * 22f32.to_radians().cos(),
        0.0,
        radius * 22f32.to_radians().sin(),
    );
    let mut body = crate::common::body(&world, cylinder(), start);
    settle(&controller, &mut body, 60.0);
    let mut velocity = Vec3::ZERO;
    for tick in 0..60 * 20 {
        let p = body.position();
        let angle = (-p.z).atan2(p.x);
        let tangent = Vec3::new(-angle.sin(), 0.0, -angle.cos());
        let here = Vec3::new(p.x, 0.0, p.z);
        let pull = here.normalize() * (radius - here.length());
        let input = TickInput {
            wish_direction: (tangent + pull).normalize(),
            jump: false,
            velocity,
            crouch: false,
        };
        velocity = controller.tick(&mut body, &input, 1.0 / 60.0).velocity;
        assert!(
            body.penetration() < 0.002,
            "inside a step at {} (tick {tick})",
            body.position()
        );
        if body.position().y > 3.19 {
            return;
        }
    }
    panic!("rounded spiral not climbed: ended at {}", body.position());
}

#[test]
fn rounded_ramp_of_30_degrees_is_walked_up_and_down() {
    // As `slopes.rs`: a 6 m ramp at 30 degrees along -Z from z = -1, 4 m wide, a flat top.
    let angle = 30f32.to_radians();
    let (length, width) = (6.0, 4.0);
    let run = length * angle.cos();
    let height = length * angle.sin();
    let ramp =
        geometry::ramp(Vec3::new(0.0, 0.0, -1.0), Vec3::NEG_Z, angle, length, width).unwrap();
    let top = geometry::aabb_box(
        Vec3::new(0.0, height * 0.5, -1.0 - run - 2.0),
        Vec3::new(4.0, height, 4.0),
    )
    .unwrap();
    let world = with_margin(vec![ramp, top], 0.04);
    assert!(world.solids()[0].convex_radius() > 0.01);
    let controller = Controller::new(settings(4.0)).unwrap();
    let mut body = crate::common::body(&world, capsule(), Vec3::ZERO);
    settle(&controller, &mut body, 60.0);
    // 140 ticks at 4 m/s (the horizontal speed is kept on the ramp): on the flat top.
    let trace = walk(&controller, &mut body, Vec3::NEG_Z, 60.0, 140);
    assert!(
        body.position().y > height - 0.01,
        "went up to {}",
        body.position()
    );
    for (tick, t) in trace.iter().enumerate() {
        assert!(
            t.report.on_floor,
            "left the ramp going up at tick {}: {}",
            tick + 1,
            t.after
        );
        assert!(
            t.report.stepped.is_none(),
            "a step on the ramp at tick {}",
            tick + 1
        );
    }
    let controller = Controller::new(settings(10.0)).unwrap();
    let mut velocity = Vec3::new(0.0, 0.0, 10.0);
    let mut ticks = 0;
    while body.position().z < 0.5 {
        let report = controller.tick(
            &mut body,
            &TickInput {
                wish_direction: Vec3::Z,
                jump: false,
                velocity,
                crouch: false,
            },
            1.0 / 60.0,
        );
        velocity = report.velocity;
        ticks += 1;
        assert!(
            report.on_floor,
            "left the floor going down at tick {ticks}: {}",
            body.position()
        );
        assert!(
            report.stepped.is_none(),
            "a step going down at tick {ticks}"
        );
        assert!(ticks < 600);
    }
    assert!(body.position().y < 0.01);
}

#[test]
fn a_slow_capsule_climbs_rounded_stairs_no_faster_than_it_walks() {
    // 0.5 m/s at 144 and 240 Hz: 3.5 and 2.1 mm a tick, far less than the 2 cm the step looks
    // ahead for the tread. The step tick lifts the capsule clear of the edge and lets its own
    // motion carry it over, so no tick moves it further than its walk (before: 4.5 m/s on
    // the step ticks at 240 Hz).
    let world = rounded_stairs(0.04, Steps::Jolt, false);
    let speed = 0.5;
    let controller = Controller::new(settings(speed)).unwrap();
    for rate in [144.0, 240.0] {
        let mut body = crate::common::body(&world, capsule(), Vec3::ZERO);
        settle(&controller, &mut body, rate);
        // 1.6 m to the third tread's middle: 3.2 s of walking, and the attack.
        let trace = walk(
            &controller,
            &mut body,
            Vec3::NEG_Z,
            rate,
            (3.6 * rate) as u32,
        );
        let top = body.position();
        assert!(top.y > 0.89, "{rate} Hz: not on the third tread: {top}");
        let longest = speed / rate * 1.05;
        for (tick, t) in trace.iter().enumerate() {
            let moved = Vec3::new(t.after.x - t.before.x, 0.0, t.after.z - t.before.z).length();
            assert!(
                moved <= longest,
                "{rate} Hz: tick {tick} moved {moved} m (at most {longest}), {} -> {}",
                t.before,
                t.after
            );
            assert!(t.report.on_floor, "{rate} Hz: off floor at tick {tick}");
            assert!(t.penetration < 0.002, "{rate} Hz: inside at tick {tick}");
        }
    }
}
