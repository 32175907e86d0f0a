//! The course's staircases walked by characters of other sizes and at rates the course does not
//! run: up and back down, the invariants of a character that walks stairs on every tick.
//!
//! - Any rate: 15 to 300 Hz, walking at 1 to 6 m/s.
//! - Any size: the staircase, the character, its speeds, gravity and every length of its
//!   settings multiplied by a factor from 0.25 to 5 (a 0.45 m creature to a 9 m giant), times
//!   kept: the same walk magnified.
//! - Both kinds of edges: the steps' edges rounded by Godot's default shape margin, as Jolt
//!   rounds a box's, or sharp (margin 0), as a triangle mesh's (since 2026-12-01).
//!
//! The invariants: on the floor on every tick, no overlap beyond the safe margin and the
//! engines' tolerance, at most [`STEP_QUERY_BUDGET`] motion queries a move on a tick that
//! stepped, and one `stepped` per riser each way, each as high as the riser (2 cm at the
//! course's size, scaled; a tick that walks most of a tread may climb two in its sub-steps).
//!
//! The shapes: a cylinder of radius 0.4 m on all four staircases; a capsule of radius 0.3 m
//! (0.25 m for any size) on the 0.15 m and 0.2 m risers. A capsule's flat base judges the edges
//! under it with probes of its own round bottom, which meets an edge `d` from its middle
//! `r - sqrt(r² - d²)` below its feet. Where that hang reaches a riser's height within a
//! tread's length (`sqrt(2 r h - h²) >= run`: radius 0.4 m on any of these staircases, any
//! radius on 0.3 m risers with 0.3 m treads) it touches two steps at once, and which one a
//! probe meets first is a matter of the engine's last millimetre: at some rates and speeds it
//! then takes a riser in two steps or rolls down it. The course's own files walk those
//! staircases with a 0.4 m capsule at its four rates (`scenarios/`); see docs/flat-base.md.
//!
//! Cases: `PROPTEST_CASES` (default 48), from a fixed seed as in `properties.rs`. Other seeds
//! still find walks that break an invariant. On 2026-11-30 (fourth session), 300 cases of each
//! test for the seeds 11 to 99 and 2375111379: seed 11 passes; the others find a step tick over
//! the budget (11 or 12 queries; 16 for a quarter-size capsule at 59 Hz, seed 99): a cylinder
//! walking down off a step's edge at 190 to 290 Hz (its side hugs the riser below, and the
//! step down probes again a nudge further along the walk), or a capsule at 20 to 60 Hz
//! whose climb follows the rounding of the edge it is held on before it meets the riser; and
//! seed 2375111379 a capsule at 50.7 Hz and 5.6 m/s 4.8 mm inside the next step's edge, where
//! the parry world's motion test along the tread the body stands on answers free for the
//! whole 11 cm move (its search stops on a touch of that tread at 1 cm, whose contact does not
//! oppose the motion), through 3.5 cm of the next step's edge (not looked into further). A
//! survey of 10 000 walks drawn as both tests draw them (a throwaway test, 5 seeds) found 40
//! over the budget before `slide::walked_to_edge` and `settle::snapped_from`, 22 after (none
//! new for the two seeds whose lists were compared). On 2026-12-01 the walks carry the
//! character's memory (`tick_with`, as the node does), and after that day's changes (see
//! docs/tick.md) the survey of 5 seeds of 2000 found 4 (29 before): a capsule at 21 Hz and at
//! 229 to 237 Hz over the budget (11 and 12 queries), a quarter-size capsule at 194 Hz (14).
//! `PROPTEST_CASES=2000` with `PROPTEST_RNG_SEED=123456` found two more: a 0.3 m capsule at
//! 119.4 Hz and 4.6 m/s 4.5 mm inside the next step's nosing (its level walk from the rounding
//! of the edge it was held on grazed the tread after the recovery and was answered free through
//! the nosing, by Jolt as by this world; `stairs::up::rose_off_an_edge` since 2026-12-01), and a
//! quarter-size capsule at 33 Hz in 12 queries; that seed passed since, until the walks drew
//! sharp edges too: it then finds a 0.25 m capsule at 215.7 Hz (1.08 times the course's size,
//! rounded edges) in 14 queries. A survey of 60 000 walks
//! (15 seeds) on 2026-12-01 found 35 over the budget (11 to 14 queries on a step tick, none
//! a cylinder's): most a 0.3 m capsule on the 0.2 m risers at 130 to 290 Hz whose slide stops
//! dead against the next nosing, within the safe margin beyond the probe's reach (13 queries),
//! and capsules of other sizes in the nook between two edges; with the steps' margins 0 (sharp
//! edges, as a triangle mesh has them) 15, all of them such nooks. Other seeds still find one
//! or two of them in 2000 cases. On 2026-12-02 a survey of 20 000 walks (ChaCha seeds 1 to 5,
//! 2000 draws of each test, as the tests draw them) found 11, all over the budget on a step
//! tick, none off the floor or off a riser: a 0.3 m capsule on the rounded 0.2 m risers at 96
//! to 216 Hz climbing from the rounding of the edge below (13 queries: the probe for a riser
//! before the slide answers free, as a motion test that ends within the safe margin of the
//! next nosing does, its test again from a margin higher too, the slide then meets the
//! nosing, and the climb, the slide across and the set-down follow), 0.3 m capsules on sharp
//! 0.15 m risers at 31 to 46 Hz (13 and 14: the set-down's probe meets the tread a riser below,
//! which a round bottom 0.26 m past the climbed edge touches with it, and the step down and the
//! hold find the edge again), and capsules of 0.31 to 2.55 times the course's size (11 to 14).
//! A set-down probe a millimetre along the walk fixes the second kind but moves a climb that
//! was undone on a tick of 17 queries without a step (the next tick stepped in 9) onto the
//! step's own tick, in 13: 15 over the budget, and it was left out. Again on 2026-12-02
//! (second session, the same 20 000 draws): 9, eight over the budget on a step tick, five of
//! them a 0.3 m capsule on the rounded 0.2 m risers at 170 to 290 Hz (13 queries: its probe
//! for the riser, from a margin above the rounding it was held on, answers free; the slide
//! then ends within the safe margin of the next nosing, which a slide that began with a
//! recovery reports as Godot's does, and the climb follows), and one a capsule rolling down
//! the rounding of a 0.15 m riser at 59 Hz over three ticks, on the floor, with no `stepped`
//! (9 steps for 10 risers). Probing a held body's walk two margins further (what the slide
//! reports) removes the five but puts 21 others over the budget (25 in all: climbs begun a
//! tick early, for a riser the walk does not reach); the retry from a margin above probing
//! two margins further, 71. Neither was kept. The walks that once failed are kept below.

use std::sync::Arc;

use crate::common::ground;
use glam::Vec3;
use kcc::{CharacterState, Controller, ControllerSettings, KinematicBody, TickInput};
use kcc_parry::{BodySettings, CharacterShape, ParryBody, World, geometry};
use proptest::prelude::*;

/// Godot's default `Shape3D.margin`, m: Jolt rounds the steps' edges by it (at most 8 % of a
/// box's smallest half extent), as the course's scenarios have it.
const SHAPE_MARGIN: f32 = 0.04;

/// Overlap allowed beyond the safe margin, m (see `properties.rs`).
const OVERLAP_TOLERANCE: f32 = 0.003;

/// How far a step may be from its riser's height, m at the course's size: the rounding of the
/// steps' edges, which a held body's feet may sit on.
const RISER_TOLERANCE: f32 = 0.02;

/// Most motion queries of a move on a tick with a step (the course's budget).
const STEP_QUERY_BUDGET: u64 = 10;

/// The course's straight staircases: risers, rise and run, m.
const STAIRCASES: [(u32, f32, f32); 4] = [
    (10, 0.15, 0.3),
    (8, 0.2, 0.3),
    (5, 0.3, 0.3),
    (10, 0.3, 0.3),
];

/// One walk up a staircase and back down: its geometry, the character and how it moves.
#[derive(Debug, Clone, Copy)]
struct Walk {
    /// Index into [`STAIRCASES`].
    stairs: usize,
    /// The character's shape at the course's size; its height is 1.8 m.
    shape: Shape,
    /// Tick rate, Hz.
    rate: f32,
    /// Walking speed at the course's size, m/s.
    speed: f32,
    /// Size factor: lengths, speeds and accelerations are multiplied by it.
    scale: f32,
    /// The steps' edges are sharp (shape margin 0, as a triangle mesh's), not rounded by
    /// [`SHAPE_MARGIN`].
    sharp: bool,
}

/// A character's shape at the course's size: its radius, m.
#[derive(Debug, Clone, Copy)]
enum Shape {
    Capsule(f32),
    Cylinder(f32),
}

impl Walk {
    fn at_course_size(stairs: usize, shape: Shape, rate: f32, speed: f32) -> Self {
        Self {
            stairs,
            shape,
            rate,
            speed,
            scale: 1.0,
            sharp: false,
        }
    }

    fn rise(&self) -> f32 {
        STAIRCASES[self.stairs].1 * self.scale
    }

    fn run(&self) -> f32 {
        STAIRCASES[self.stairs].2 * self.scale
    }

    fn risers(&self) -> u32 {
        STAIRCASES[self.stairs].0
    }

    /// The staircase along -Z from z = -1 (scaled), its top tread part of a 6 m (scaled)
    /// landing (no seam between the last step and the landing).
    fn world(&self) -> Arc<World> {
        let k = self.scale;
        let count = self.risers();
        let top = self.rise() * count as f32;
        let end = -k - self.run() * count as f32;
        let mut solids = geometry::stairs(
            Vec3::new(0.0, 0.0, -k),
            Vec3::NEG_Z,
            count,
            self.rise(),
            self.run(),
            4.0 * k,
        )
        .unwrap();
        solids.push(
            geometry::aabb_box(
                Vec3::new(0.0, 0.5 * top, end - 3.0 * k + 0.5 * self.run()),
                Vec3::new(4.0 * k, top, 6.0 * k + self.run()),
            )
            .unwrap(),
        );
        let mut world = World::new();
        world.add(ground());
        for solid in solids {
            let margin = if self.sharp { 0.0 } else { SHAPE_MARGIN };
            world.add(solid.with_margin(margin).unwrap());
        }
        Arc::new(world)
    }

    /// The controller's defaults with every length, speed and acceleration scaled.
    fn settings(&self) -> ControllerSettings {
        let k = self.scale;
        let mut s = ControllerSettings::default();
        s.movement.ground.max_speed = self.speed * k;
        s.movement.air.max_speed = self.speed * k;
        s.stairs.max_step_height *= k;
        s.stairs.min_step_depth *= k;
        s.stairs.min_step_forward *= k;
        s.stairs.step_forward_test *= k;
        s.gravity.gravity *= k;
        s.gravity.terminal_speed *= k;
        s
    }

    fn body(&self, world: &Arc<World>) -> ParryBody {
        let height = 1.8 * self.scale;
        let shape = match self.shape {
            Shape::Capsule(radius) => CharacterShape::Capsule {
                radius: radius * self.scale,
                height,
            },
            Shape::Cylinder(radius) => CharacterShape::Cylinder {
                radius: radius * self.scale,
                height,
            },
        };
        let defaults = BodySettings::default();
        let settings = BodySettings {
            shape,
            floor_snap_length: defaults.floor_snap_length * self.scale,
            ..defaults
        };
        ParryBody::new(world.clone(), settings, Vec3::ZERO).unwrap()
    }
}

/// The steps a walk reported, up and down, m.
#[derive(Debug, Default)]
struct Steps {
    up: Vec<f32>,
    down: Vec<f32>,
}

/// Walks up the staircase until 1 m (scaled) onto the landing, then back down until 1 m
/// (scaled) past its foot, checking the per-tick invariants; the steps it reported. The
/// character's memory is carried from tick to tick, as the node carries it.
fn walk(w: &Walk) -> Result<Steps, TestCaseError> {
    let world = w.world();
    let controller = Controller::new(w.settings()).unwrap();
    let mut body = w.body(&world);
    let k = w.scale;
    let margin = body.safe_margin();
    let top_z = -k - w.run() * w.risers() as f32;
    let mut velocity = Vec3::ZERO;
    let mut steps = Steps::default();
    let mut state = CharacterState::default();
    let mut landed = false;
    for (wish, done) in [(Vec3::NEG_Z, top_z - k), (Vec3::Z, k)] {
        let mut ticks = 0;
        while (body.position().z - done) * wish.z < 0.0 {
            ticks += 1;
            let at = body.position();
            prop_assert!(ticks < (60.0 * w.rate) as u32, "{w:?}: stuck at {at}");
            let queries = body.queries();
            let input = TickInput {
                wish_direction: wish,
                velocity,
                ..TickInput::default()
            };
            let report = controller.tick_with(&mut body, &input, &mut state, 1.0 / w.rate);
            velocity = report.velocity;
            let at = body.position();
            landed |= report.on_floor;
            prop_assert!(!landed || report.on_floor, "{w:?}: off the floor at {at}");
            let overlap = body.penetration();
            prop_assert!(
                overlap <= margin + OVERLAP_TOLERANCE,
                "{w:?}: {overlap} m inside at {at}"
            );
            if let Some(dy) = report.stepped {
                let moves = u64::from(report.substeps.max(1));
                let per_move = (body.queries() - queries).div_ceil(moves);
                prop_assert!(
                    per_move <= STEP_QUERY_BUDGET,
                    "{w:?}: {per_move} queries a move on a step at {at}"
                );
                if dy > 0.0 {
                    &mut steps.up
                } else {
                    &mut steps.down
                }
                .push(dy);
            }
        }
    }
    Ok(steps)
}

/// One `stepped` per riser each way, each as high as the riser; when a tick walks most of a
/// tread or more (a low rate, a fast walk), a tick's sub-steps may climb more than one riser
/// and its `stepped` adds them up: each is then a whole number of risers, and they add up to
/// the stairs' height.
fn one_step_per_riser(w: &Walk, steps: &Steps) -> Result<(), TestCaseError> {
    let tolerance = RISER_TOLERANCE * w.scale;
    let walk = w.speed * w.scale / w.rate;
    for (way, found) in [("up", &steps.up), ("down", &steps.down)] {
        if walk < 0.9 * w.run() {
            prop_assert_eq!(
                found.len() as u32,
                w.risers(),
                "{:?} {}: {:?}",
                w,
                way,
                found
            );
        }
        let mut risers = 0;
        for dy in found {
            let n = (dy.abs() / w.rise()).round().max(1.0);
            risers += n as u32;
            prop_assert!(
                (dy.abs() - n * w.rise()).abs() <= n * tolerance,
                "{w:?}: a step {way} of {dy} for risers of {}: {found:?}",
                w.rise()
            );
        }
        prop_assert_eq!(risers, w.risers(), "{:?} {}: {:?}", w, way, found);
    }
    Ok(())
}

fn check(w: &Walk) -> Result<(), TestCaseError> {
    let steps = walk(w)?;
    one_step_per_riser(w, &steps)
}

/// Seed of the cases `cargo test` checks when `PROPTEST_RNG_SEED` is not set.
const SEED: u64 = 0x6b63_635f_7369_7a65;

fn config() -> ProptestConfig {
    crate::common::proptest_config("tests/course/generality.proptest-regressions", SEED)
}

/// A staircase and a shape that keep the invariants (see the module docs): the cylinder on
/// any of the four, the capsule (of `capsule` m) on the 0.15 m and 0.2 m risers.
fn stairs_and_shape(capsule: f32) -> impl Strategy<Value = (usize, Shape)> {
    prop_oneof![
        (0usize..4).prop_map(|stairs| (stairs, Shape::Cylinder(0.4))),
        (0usize..2).prop_map(move |stairs| (stairs, Shape::Capsule(capsule))),
    ]
}

proptest! {
    #![proptest_config(config())]

    /// Any rate from 15 to 300 Hz and any walk from 1 to 6 m/s, at the course's size, the
    /// steps' edges rounded or sharp.
    #[test]
    fn the_course_staircases_at_any_rate(
        (stairs, shape) in stairs_and_shape(0.3),
        rate in 15.0f32..300.0,
        speed in 1.0f32..6.0,
        sharp in any::<bool>(),
    ) {
        check(&Walk { sharp, ..Walk::at_course_size(stairs, shape, rate, speed) })?;
    }

    /// Any size from a quarter to five times the course's, at 30 to 240 Hz, at 4 m/s scaled,
    /// the steps' edges rounded or sharp.
    #[test]
    fn the_course_staircases_at_any_size(
        (stairs, shape) in stairs_and_shape(0.25),
        rate in 30.0f32..240.0,
        scale in 0.25f32..5.0,
        sharp in any::<bool>(),
    ) {
        check(&Walk { stairs, shape, rate, speed: 4.0, scale, sharp })?;
    }
}

/// Checks the walks of `shape` at the course's size, each a staircase, a rate (Hz) and a
/// speed (m/s).
fn check_at_course_size(shape: Shape, walks: &[(usize, f32, f32)]) {
    for &(stairs, rate, speed) in walks {
        check(&Walk::at_course_size(stairs, shape, rate, speed)).unwrap();
    }
}

// Walks that once broke an invariant, each kept with what went wrong.

#[test]
fn a_fast_walk_at_a_low_rate_steps_down_every_riser() {
    // 0.24 m a tick over 0.3 m treads: held on one edge until it was past the next step's
    // middle, a capsule dropped two risers and rolled down three more (5 steps for 8 risers
    // at 25 Hz); at 15 Hz (0.33 m a tick) it lost 0.2 m of stepped height. Sub-steps keep
    // each move within 0.4 of the radius.
    for (stairs, rate, speed) in [(1, 25.0, 6.0), (1, 15.0, 5.0), (2, 25.0, 5.0)] {
        check(&Walk::at_course_size(
            stairs,
            Shape::Capsule(0.4),
            rate,
            speed,
        ))
        .unwrap();
    }
}

#[test]
fn a_cylinder_climbing_with_its_rim_at_the_risers_face_floats_over_the_tread() {
    // At 166 Hz and 1 m/s a cylinder climbed with its rim 0.8 mm past the riser's face: the
    // probe under it met the face, no edge, and it counted as in the air for a tick.
    check(&Walk::at_course_size(0, Shape::Cylinder(0.4), 166.0, 1.0)).unwrap();
}

#[test]
fn a_capsule_rolling_over_an_edge_is_held_again_on_the_next_one() {
    // Walking down 0.2 m risers at 39.4 Hz, a capsule's hold let go on the landing's edge
    // and it rolled down six risers with no step: only a body that stood held or on level
    // floor was held on the lower edge a step down met.
    check(&Walk::at_course_size(
        1,
        Shape::Capsule(0.4),
        39.405_975,
        4.629_06,
    ))
    .unwrap();
}

#[test]
fn a_partial_lift_up_a_tilted_edge_is_set_down_within_the_budget() {
    // A capsule lifted only part of the way up an edge (its contact tilted) and left on the
    // rounding by the slide: the set-down's probe could not find the edge below its feet, and
    // the step down and the hold after it took 11 queries on each step at 36.4 Hz.
    check(&Walk::at_course_size(
        0,
        Shape::Capsule(0.3),
        36.399_223,
        2.478_690_1,
    ))
    .unwrap();
}

#[test]
fn a_small_capsule_stepped_down_by_a_sweep_is_held_on_the_edge() {
    // A 0.74 m capsule stepped down onto a tread stood 1.65 mm above the edge at its end (the
    // safe margin and the last step of the engine's search): the hold wanted it within half a
    // millimetre of the margin, and it rolled down the next riser.
    let w = Walk {
        stairs: 0,
        shape: Shape::Capsule(0.25),
        rate: 58.356_3,
        speed: 4.0,
        scale: 0.545_735,
        sharp: false,
    };
    check(&w).unwrap();
}

#[test]
fn a_cylinder_walking_off_a_held_edge_steps_down_within_the_budget() {
    // At 219 Hz and 1.77 m/s down 0.3 m risers, a cylinder held on the edge it walked off
    // ended the slide hugging that step's riser, where the probe down is answered free through
    // the tread below and is made again a little further on: with the probe for a riser up
    // ahead before the slide, the step down took 11 queries. Walking off an edge, the next
    // riser up is a tread away, and that probe no longer runs.
    check(&Walk::at_course_size(
        3,
        Shape::Cylinder(0.4),
        219.328_41,
        1.771_931_8,
    ))
    .unwrap();
}

#[test]
fn a_cylinder_hugging_the_step_it_walked_off_steps_down_within_the_budget() {
    // Walking down at 1.2 to 1.9 m/s at 280 to 292 Hz, a cylinder held on an edge walks off it
    // with its rim against the side of that step: the probe down is answered free through the
    // tread, the longer look meets the side, and the step down probes again a nudge further on
    // and takes the nudge back. Then the flat base looked down once more for the level tread
    // the step down had just stood it on (11 queries), and the walk's push out of the margin
    // was tested back into the side it hugs (12).
    check_at_course_size(
        Shape::Cylinder(0.4),
        &[(1, 291.937, 1.225_746_4), (0, 280.701_8, 1.907_831_5)],
    );
}

#[test]
fn a_capsule_the_climb_rests_on_the_rounding_below_its_top_is_held_within_the_budget() {
    // At 24 to 25 Hz and 4.9 to 5.6 m/s up 0.15 and 0.2 m risers, the climb dropped a 0.3 m
    // capsule onto the rounding of the step's edge with its feet below the edge's top, where
    // its round bottom rests: the set-down's probe met the edge above the feet and left the
    // body to the step down (a probe and a snap onto the same edge) and the hold after it (a
    // raise and a probe): 11 queries. The set-down now raises it onto the edge itself.
    check_at_course_size(
        Shape::Capsule(0.3),
        &[(1, 24.580_952, 5.626_034_3), (0, 24.823_77, 4.909_887_3)],
    );
}

#[test]
fn a_fast_capsule_walking_down_from_edge_to_edge_steps_down_every_riser() {
    // At 20 to 21 Hz and 5.6 to 5.8 m/s (0.28 m a tick over 0.3 m treads) down 0.15 m
    // risers, a 0.3 m capsule held on one edge after another: the step down's floor snap met
    // the lower tread before the hold put the body back on the edge, the engine told of that
    // level floor, and the next tick went unsplit from edge to edge. Three risers came as one
    // step of 0.24 m and two drops that were none (8 steps of 1.17 m for 10 risers of 1.5 m).
    check_at_course_size(
        Shape::Capsule(0.3),
        &[
            (0, 20.936_243, 5.803_081),
            (0, 20.925_78, 5.724_946_5),
            (0, 20.346_142, 5.640_776),
        ],
    );
}

#[test]
fn a_giant_cylinder_held_on_the_rounding_of_an_edge_walks_onto_the_tread_without_a_step() {
    // 3.06 times the course's size at 39 Hz (seed 22): the climb left the cylinder's rim on
    // the rounding of the second step's edge, and the engine's slide of the next level move
    // followed the rounding's tilt 4 cm into the air over the tread; the step down back was
    // an 11th `stepped` for 10 risers. The settle now puts it down on the tread.
    check(&Walk {
        stairs: 0,
        shape: Shape::Cylinder(0.4),
        rate: 39.077_347,
        speed: 4.0,
        scale: 3.060_998_4,
        sharp: false,
    })
    .unwrap();
}

#[test]
fn a_capsule_whose_slide_walks_up_to_a_step_climbs_it_within_the_budget() {
    // At 244.6 Hz and 4.4 m/s (the survey of 2026-11-30): the slide made the whole walk and
    // touched the fourth step's edge at its end; the climb's sweep, made again without it,
    // stopped 1.1 mm short and lifted the body there, and the probe down after the slide
    // across the tread fell past the edge to the tread below (the round bottom reaches it at
    // that tread's height): the step down and the hold then stood it on the edge, 14 queries.
    // The climb now comes on the next tick, from against the edge (9 queries).
    check(&Walk::at_course_size(
        0,
        Shape::Capsule(0.3),
        244.579_71,
        4.413_685_3,
    ))
    .unwrap();
}

#[test]
fn a_capsule_the_floor_snap_puts_on_the_next_edge_after_a_climb_stands_within_the_budget() {
    // At 40.1 Hz and 4.5 m/s (the survey of 2026-11-30): lifted clear of the ninth step's
    // edge, the slide across the tread (11 cm a tick) came down 9 cm by the engine's floor
    // snap onto the rounding of that edge, and the hold raised the body again before its
    // probe down: 11 queries. The probe now starts at the lift's height, which the snap came
    // straight down from (10).
    check(&Walk::at_course_size(
        0,
        Shape::Capsule(0.3),
        40.113_33,
        4.495_125,
    ))
    .unwrap();
}

#[test]
fn a_capsule_walking_level_off_the_rounding_of_an_edge_finds_the_next_nosing() {
    // Held on a step's edge a fraction of a millimetre below the tread's top, a 0.3 m capsule
    // walks level: the recovery lifts its feet off the edge's rounding to the tread's top, the
    // motion grazes the tread, and the probe was answered free through the next step's nosing.
    // At 119.4 Hz and 4.6 m/s the slide then ended 4.5 mm inside that nosing; at 54.2 Hz and
    // 5.9 m/s (11 cm a tick) it went 69 mm into it, the step down pushed the body out onto the
    // nosing's edge (13 queries), and the next tick climbed the rest as a step of 0.167 m.
    check_at_course_size(
        Shape::Capsule(0.3),
        &[(1, 119.361_37, 4.618_505_5), (1, 54.247_53, 5.901_397_7)],
    );
}
