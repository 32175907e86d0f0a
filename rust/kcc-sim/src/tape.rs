//! The controller alone: every answer the parry world gives our controller during a run is
//! recorded once ([`record`]), then replayed to the core in the same order ([`Replay`]), so a
//! replayed run times the core's own logic with no world behind it (`kcc-sim bench`). The core
//! is deterministic: given the same answers it asks the same questions, and a replay that
//! would ask something else says so ([`CoreCost::diverged`]).

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::{Cell, RefCell};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::Instant;

use glam::Vec3;
use kcc::{KinematicBody, MotionTest, Touched};
use kcc_parry::ParryBody;

use crate::run::{Command, OurDriver};
use crate::scenario::Scenario;

/// One answer of the port, in the order the controller asked.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Answer {
    /// A position, a velocity, a normal or the up direction.
    Vector(Vec3),
    /// A motion test.
    Move(MotionTest),
    /// One of the slide's collisions.
    Collision(Option<MotionTest>),
    /// A floor or wall flag.
    Flag(bool),
    /// An angle, margin, height or radius.
    Scalar(f32),
    /// How many collisions the last slide had.
    Count(usize),
    /// A slide collision's body to push, if it was one.
    Body(Option<Touched>),
}

/// A parry body that writes down every answer it gives.
struct Taping<'a> {
    body: &'a mut ParryBody,
    answers: RefCell<Vec<Answer>>,
}

impl Taping<'_> {
    fn keep<T>(&self, value: T, answer: impl FnOnce(&T) -> Answer) -> T {
        self.answers.borrow_mut().push(answer(&value));
        value
    }
}

impl KinematicBody for Taping<'_> {
    fn position(&self) -> Vec3 {
        self.keep(self.body.position(), |v| Answer::Vector(*v))
    }
    fn set_position(&mut self, position: Vec3) {
        self.body.set_position(position);
    }
    fn test_move(&mut self, from: Vec3, motion: Vec3) -> MotionTest {
        let test = self.body.test_move(from, motion);
        self.keep(test, |t| Answer::Move(*t))
    }
    fn move_and_slide(&mut self, velocity: Vec3, dt: f32) -> Vec3 {
        let slid = self.body.move_and_slide(velocity, dt);
        self.keep(slid, |v| Answer::Vector(*v))
    }
    fn slide_collision(&self, index: usize) -> Option<MotionTest> {
        self.keep(self.body.slide_collision(index), |f| Answer::Collision(*f))
    }
    fn slide_collision_count(&self) -> usize {
        self.keep(self.body.slide_collision_count(), |n| Answer::Count(*n))
    }
    fn touched_body(&self, index: usize) -> Option<Touched> {
        self.keep(self.body.touched_body(index), |t| Answer::Body(*t))
    }
    fn touched_character(&self, index: usize) -> bool {
        self.keep(self.body.touched_character(index), |f| Answer::Flag(*f))
    }
    fn push_body(&mut self, index: usize, impulse: Vec3) {
        self.body.push_body(index, impulse);
    }
    fn floor_body(&mut self) -> Option<Touched> {
        let found = self.body.floor_body();
        self.keep(found, |t| Answer::Body(*t))
    }
    fn press_floor_body(&mut self, impulse: Vec3, point: Vec3) {
        self.body.press_floor_body(impulse, point);
    }
    fn is_on_floor(&self) -> bool {
        self.keep(self.body.is_on_floor(), |f| Answer::Flag(*f))
    }
    fn is_on_wall(&self) -> bool {
        self.keep(self.body.is_on_wall(), |f| Answer::Flag(*f))
    }
    fn wall_normal(&self) -> Vec3 {
        self.keep(self.body.wall_normal(), |v| Answer::Vector(*v))
    }
    fn floor_normal(&self) -> Vec3 {
        self.keep(self.body.floor_normal(), |v| Answer::Vector(*v))
    }
    fn apply_floor_snap(&mut self) {
        self.body.apply_floor_snap();
    }
    fn up_direction(&self) -> Vec3 {
        self.keep(self.body.up_direction(), |v| Answer::Vector(*v))
    }
    fn floor_max_angle(&self) -> f32 {
        self.keep(self.body.floor_max_angle(), |s| Answer::Scalar(*s))
    }
    fn safe_margin(&self) -> f32 {
        self.keep(self.body.safe_margin(), |s| Answer::Scalar(*s))
    }
    fn shape_height(&self) -> f32 {
        self.keep(self.body.shape_height(), |s| Answer::Scalar(*s))
    }
    fn shape_radius(&self) -> f32 {
        self.keep(self.body.shape_radius(), |s| Answer::Scalar(*s))
    }
    fn set_shape_height(&mut self, height: f32) {
        self.body.set_shape_height(height);
    }
}

/// A recorded run: the commands of every tick and every answer the parry world gave.
pub struct Tape {
    commands: Vec<Command>,
    answers: Vec<Answer>,
    dt: f32,
}

/// Runs `scenario` at its own rate with our controller in the parry world and records it.
pub fn record(scenario: &Scenario) -> Tape {
    let rate = scenario.tick_rate;
    let commands = crate::bench::commands(scenario, rate, scenario.ticks(rate));
    // Validated when the scenario was loaded.
    let mut parry = ParryBody::new(
        scenario.world.clone(),
        scenario.character.body,
        scenario.start.position,
    )
    .expect("validated body settings");
    let mut taping = Taping {
        body: &mut parry,
        answers: RefCell::new(Vec::new()),
    };
    let mut driver = OurDriver::new(scenario);
    let dt = (1.0 / rate) as f32;
    for command in &commands {
        driver.tick(&mut taping, command, dt);
    }
    Tape {
        commands,
        answers: taping.answers.into_inner(),
        dt,
    }
}

/// A body that gives the recorded answers back in order.
pub struct Replay<'a> {
    answers: &'a [Answer],
    next: Cell<usize>,
    diverged: Cell<bool>,
}

impl<'a> Replay<'a> {
    /// The next answer, when it is of the kind `pick` takes; otherwise the replay has diverged
    /// and `fallback` stands in.
    fn take<T>(&self, pick: impl FnOnce(Answer) -> Option<T>, fallback: T) -> T {
        let index = self.next.get();
        self.next.set(index + 1);
        match self.answers.get(index).copied().and_then(pick) {
            Some(value) => value,
            None => {
                self.diverged.set(true);
                fallback
            }
        }
    }

    fn vector(&self) -> Vec3 {
        self.take(
            |a| {
                if let Answer::Vector(v) = a {
                    Some(v)
                } else {
                    None
                }
            },
            Vec3::ZERO,
        )
    }

    fn flag(&self) -> bool {
        self.take(
            |a| {
                if let Answer::Flag(f) = a {
                    Some(f)
                } else {
                    None
                }
            },
            false,
        )
    }

    fn scalar(&self) -> f32 {
        self.take(
            |a| {
                if let Answer::Scalar(s) = a {
                    Some(s)
                } else {
                    None
                }
            },
            0.0,
        )
    }
}

impl KinematicBody for Replay<'_> {
    fn position(&self) -> Vec3 {
        self.vector()
    }
    fn set_position(&mut self, _: Vec3) {}
    fn test_move(&mut self, _: Vec3, motion: Vec3) -> MotionTest {
        let still = MotionTest {
            travel: Vec3::ZERO,
            remainder: motion,
            contact: None,
        };
        self.take(
            |a| {
                if let Answer::Move(m) = a {
                    Some(m)
                } else {
                    None
                }
            },
            still,
        )
    }
    fn move_and_slide(&mut self, _: Vec3, _: f32) -> Vec3 {
        self.vector()
    }
    fn slide_collision(&self, _: usize) -> Option<MotionTest> {
        self.take(
            |a| {
                if let Answer::Collision(f) = a {
                    Some(f)
                } else {
                    None
                }
            },
            None,
        )
    }
    fn slide_collision_count(&self) -> usize {
        self.take(
            |a| {
                if let Answer::Count(n) = a {
                    Some(n)
                } else {
                    None
                }
            },
            0,
        )
    }
    fn touched_body(&self, _: usize) -> Option<Touched> {
        self.take(
            |a| {
                if let Answer::Body(t) = a {
                    Some(t)
                } else {
                    None
                }
            },
            None,
        )
    }
    fn touched_character(&self, _: usize) -> bool {
        self.flag()
    }
    fn floor_body(&mut self) -> Option<Touched> {
        self.touched_body(0)
    }
    fn is_on_floor(&self) -> bool {
        self.flag()
    }
    fn is_on_wall(&self) -> bool {
        self.flag()
    }
    fn wall_normal(&self) -> Vec3 {
        self.vector()
    }
    fn floor_normal(&self) -> Vec3 {
        self.vector()
    }
    fn apply_floor_snap(&mut self) {}
    fn up_direction(&self) -> Vec3 {
        self.vector()
    }
    fn floor_max_angle(&self) -> f32 {
        self.scalar()
    }
    fn safe_margin(&self) -> f32 {
        self.scalar()
    }
    fn shape_height(&self) -> f32 {
        self.scalar()
    }
    fn shape_radius(&self) -> f32 {
        self.scalar()
    }
    fn set_shape_height(&mut self, _: f32) {}
}

/// What the core alone cost on one recorded run.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct CoreCost {
    /// Ticks replayed.
    pub ticks: u64,
    /// Wall time of the fastest replay, ns.
    pub nanos: u64,
    /// Heap allocations during one replay; `None` when the program does not count them (see
    /// [`CountingAllocator`]).
    pub allocations: Option<u64>,
    /// The replay asked something the recording did not answer, or asked less or more: the
    /// time is not the run's.
    pub diverged: bool,
}

/// Replays `tape` to a fresh controller of `scenario` `repeats` times; the fastest counts.
pub fn replay(scenario: &Scenario, tape: &Tape, repeats: u32) -> CoreCost {
    let mut best = u64::MAX;
    let mut allocations = None;
    let mut diverged = false;
    for _ in 0..repeats.max(1) {
        let mut driver = OurDriver::new(scenario);
        let mut body = Replay {
            answers: &tape.answers,
            next: Cell::new(0),
            diverged: Cell::new(false),
        };
        let allocated = allocations_so_far();
        let clock = Instant::now();
        for command in &tape.commands {
            driver.tick(&mut body, command, tape.dt);
        }
        best = best.min(clock.elapsed().as_nanos() as u64);
        allocations = allocations_so_far()
            .zip(allocated)
            .map(|(after, before)| after - before);
        diverged |= body.diverged.get() || body.next.get() != tape.answers.len();
    }
    CoreCost {
        ticks: tape.commands.len() as u64,
        nanos: best,
        allocations,
        diverged,
    }
}

static ALLOCATIONS: AtomicU64 = AtomicU64::new(0);
static COUNTING: AtomicBool = AtomicBool::new(false);

/// The system allocator, counting allocations: a program that makes it its
/// `#[global_allocator]` (the `kcc-sim` binary does) has [`CoreCost::allocations`] measured.
pub struct CountingAllocator;

// SAFETY: every call is passed on to the system allocator unchanged.
unsafe impl GlobalAlloc for CountingAllocator {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        ALLOCATIONS.fetch_add(1, Ordering::Relaxed);
        COUNTING.store(true, Ordering::Relaxed);
        // SAFETY: the caller's layout goes to the system allocator as it came.
        unsafe { System.alloc(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: `ptr` came from `alloc` above, that is from the system allocator.
        unsafe { System.dealloc(ptr, layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        ALLOCATIONS.fetch_add(1, Ordering::Relaxed);
        // SAFETY: as for `alloc` and `dealloc`.
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

/// Allocations so far, when the program counts them.
fn allocations_so_far() -> Option<u64> {
    COUNTING
        .load(Ordering::Relaxed)
        .then(|| ALLOCATIONS.load(Ordering::Relaxed))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scenario(name: &str) -> Scenario {
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../../scenarios")
            .join(format!("{name}.toml"));
        Scenario::load(&path).unwrap()
    }

    #[test]
    fn a_replay_asks_exactly_what_the_recording_answered() {
        for name in ["jolt_stairs", "crouch_stand_after_bar", "float_swim"] {
            let scenario = scenario(name);
            let tape = record(&scenario);
            assert!(tape.answers.len() > tape.commands.len(), "{name}");
            let cost = replay(&scenario, &tape, 1);
            assert!(!cost.diverged, "{name}");
            assert_eq!(cost.ticks, scenario.ticks(scenario.tick_rate));
        }
    }

    #[test]
    fn a_replay_of_another_run_says_it_diverged() {
        let stairs = record(&scenario("jolt_stairs"));
        assert!(replay(&scenario("flat_ground"), &stairs, 1).diverged);
    }
}
