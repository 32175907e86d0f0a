//! The tick loop: feeds a scenario's input to a character tick by tick and records what
//! happened. Our controller in the parry world ([`KccMover`]) or in the Godot world
//! ([`crate::godot::GodotMover`]) and Rapier's ([`crate::rapier::RapierMover`]) are driven by
//! the same loop, so their records are comparable.

use std::time::Instant;

use glam::Vec3;
use kcc::hooked::{BodyHooks, Hooked};
use kcc::{CharacterState, Controller, KinematicBody, MotionTest, StepSmoother, TickInput};
use kcc_godot::PhysicsEngine;
use kcc_parry::{BodySettings, ParryBody, World};
use std::sync::Arc;

use crate::dynamics::Dynamics;
use crate::godot::{GodotMover, GodotWorld};
use crate::plain::PlainDriver;
use crate::rapier::RapierMover;
use crate::scenario::{InputSegment, OtherCharacter, Scenario};

/// Which world answers the controller's physics queries.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum WorldKind {
    /// `kcc-parry`: our imitation of Godot's queries on parry3d (fast, exact).
    Parry,
    /// A real Godot 4.6 in headless Chromium (`kcc-godot`), on the physics engine given.
    Godot(PhysicsEngine),
}

impl WorldKind {
    /// Name used in tables, JSON and file names.
    pub fn name(self) -> &'static str {
        match self {
            Self::Parry => "parry",
            Self::Godot(_) => "godot",
        }
    }

    /// The Godot world's physics engine as the JSON names it (`jolt`, `godot_physics`);
    /// `None` for the parry world.
    pub fn physics(self) -> Option<&'static str> {
        match self {
            Self::Parry => None,
            Self::Godot(PhysicsEngine::Jolt) => Some("jolt"),
            Self::Godot(PhysicsEngine::GodotPhysics) => Some("godot_physics"),
        }
    }

    /// How summaries name the world: `parry`, `godot` (Jolt), `godot, Godot Physics`.
    pub fn label(self) -> &'static str {
        match self {
            Self::Godot(PhysicsEngine::GodotPhysics) => "godot, Godot Physics",
            _ => self.name(),
        }
    }
}

/// Which controller moves the character.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ControllerKind {
    /// Our controller (`kcc`) in the parry world (`kcc-parry`).
    Kcc,
    /// Godot's plain `CharacterBody3D` fed by our movement model, without this addon: one
    /// `move_and_slide` a tick with its floor snap, no stair stepping ([`crate::plain`]); in
    /// the world asked (the parry world's imitation of Godot, or a real Godot).
    Plain,
    /// Rapier's `KinematicCharacterController` fed by our movement model.
    Rapier,
    /// Jolt's `CharacterVirtual` fed by our movement model (cargo feature `jolt`).
    #[cfg(feature = "jolt")]
    Jolt,
}

impl ControllerKind {
    /// Name used in tables, JSON and file names.
    pub fn name(self) -> &'static str {
        match self {
            Self::Kcc => "kcc",
            Self::Plain => "plain",
            Self::Rapier => "rapier",
            #[cfg(feature = "jolt")]
            Self::Jolt => "jolt",
        }
    }

    /// The other controllers ours is measured against, in this build: Rapier's, and Jolt's
    /// when built with the feature `jolt`.
    pub const PEERS: &[ControllerKind] = &[
        Self::Rapier,
        #[cfg(feature = "jolt")]
        Self::Jolt,
    ];
}

/// What one tick asks of a character.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Command {
    /// World-space wish direction, length 0..1.
    pub wish: Vec3,
    /// Jump held.
    pub jump: bool,
    /// Crouch held.
    pub crouch: bool,
}

impl Command {
    /// What the input `segment` held asks; nothing asked when there is none.
    pub fn of(segment: Option<&InputSegment>) -> Self {
        segment.map_or(
            Command {
                wish: Vec3::ZERO,
                jump: false,
                crouch: false,
            },
            |segment| Command {
                wish: segment.wish,
                jump: segment.jump,
                crouch: segment.crouch,
            },
        )
    }
}

/// What a character reports after one tick.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Moved {
    /// Velocity after the tick, m/s.
    pub velocity: Vec3,
    /// How fast the body really moved during the tick, as the controller reports it, m/s.
    pub real_velocity: Vec3,
    /// Standing on floor after the tick.
    pub on_floor: bool,
    /// The controller moved the body up or down a step, or down onto a slope, outside the
    /// engine's slide this tick: the engine's real velocity then describes only the slide.
    pub stair_moved: bool,
    /// Crouched after the tick.
    pub crouched: bool,
    /// Sub-steps the tick was split into (1 for a tick made whole; the engine's state then
    /// describes the last one).
    pub substeps: u32,
}

/// A character that a controller moves through a course one tick at a time. Only
/// [`tick`](Self::tick) is timed; the other methods observe and may run queries of their own.
pub trait Mover {
    /// Bottom of the shape, m.
    fn position(&self) -> Vec3;
    /// Runs one tick of `dt` s.
    fn tick(&mut self, command: &Command, dt: f32) -> Moved;
    /// Vertical travel of the stair steps of the last tick, m (positive up), for the camera.
    fn stepped(&mut self) -> Option<f32>;
    /// Deepest overlap of the shape with any solid right now, m.
    fn penetration(&mut self) -> f32;
    /// Motion queries run so far, when the controller counts them (in the Godot world: the
    /// port calls that query physics, `test_move`, `move_and_slide` and `apply_floor_snap`).
    fn queries(&self) -> Option<u64>;
    /// Measurements of every tick that arrive only after the run, replacing what
    /// [`penetration`](Self::penetration) said during it: the deepest overlap (m) and Godot's
    /// own state of the body, per tick in order (the Godot world sends a tick's observation
    /// with the next tick's first call, to save a round trip). `None` for other worlds.
    fn late_observations(&mut self) -> Result<Option<Vec<(f32, GodotTick)>>, String> {
        Ok(None)
    }
    /// The body's own state after the last tick, when the world keeps one as Godot does (the
    /// parry world's imitation); the Godot world sends it later (see
    /// [`late_observations`](Self::late_observations)).
    fn body_state(&self) -> Option<GodotTick> {
        None
    }
    /// Round trips to the engine so far (Godot world only).
    fn round_trips(&self) -> Option<u64> {
        None
    }
    /// Time Godot spent in the port's calls so far, by Godot's own clock, us (Godot world
    /// only): what the controller's physics calls cost inside a game.
    fn godot_physics_us(&self) -> Option<u64> {
        None
    }
    /// Centre of mass of each rigid body of the world after the last tick, m, in the order of
    /// the file's `[[rigid_body]]` tables (empty when it has none, or the world does not
    /// simulate them).
    fn movables(&self) -> Vec<Vec3> {
        Vec::new()
    }
    /// How far each rigid body of the world has turned from where it started, after the last
    /// tick, rad, in the order of [`Mover::movables`] (empty as it is).
    fn movable_turns(&self) -> Vec<f32> {
        Vec::new()
    }
    /// Moves the scenario's other characters (`[[other_character]]`) one tick of `dt` s each,
    /// by their input at `time` (s), after the character's own tick (untimed), and returns
    /// where each is then (bottom of its shape, m), in the file's order. Empty when there are
    /// none, or the controller does not move them (the peers: their worlds have no other
    /// character).
    fn move_others(&mut self, time: f64, dt: f32) -> Vec<Vec3> {
        let _ = (time, dt);
        Vec::new()
    }
    /// What stopped the mover, if something did (a Godot world that stopped answering); the
    /// run ends with this error.
    fn failure(&mut self) -> Option<String> {
        None
    }
}

/// One `test_move` of a recorded run: where from, how far, and what the world answered.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct RecordedMove {
    /// Start of the body's origin, m.
    pub from: Vec3,
    /// Motion, m.
    pub motion: Vec3,
    /// Height of the body's shape when it was asked (a crouch shrinks it), m.
    pub shape_height: f32,
    /// The answer.
    pub result: MotionTest,
}

/// Keeps every `test_move` a body answers (see [`Hooked`]).
struct Recording<'a> {
    moves: &'a mut Vec<RecordedMove>,
}

impl BodyHooks<ParryBody> for Recording<'_> {
    fn test_move(&mut self, body: &mut ParryBody, from: Vec3, motion: Vec3) -> MotionTest {
        let result = body.test_move(from, motion);
        self.moves.push(RecordedMove {
            from,
            motion,
            shape_height: body.shape_height(),
            result,
        });
        result
    }
}

/// What Godot's `CharacterBody3D` says of itself after a tick: the state a script using the
/// body would read (in the parry world, its imitation of it).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct GodotTick {
    /// `is_on_floor()`.
    pub on_floor: bool,
    /// `is_on_wall()`.
    pub on_wall: bool,
    /// `get_real_velocity()`, m/s.
    pub real_velocity: Vec3,
    /// `get_slide_collision_count()`.
    pub slide_collisions: u32,
    /// One of the slide collisions (`get_slide_collision(i)`) was with a wall.
    pub slide_hit_wall: bool,
}

/// What moves a world's body each tick, through the port: our controller, or Godot's plain
/// body as a script without this addon drives it ([`PlainDriver`]).
pub enum Driver {
    /// Our controller.
    Ours(Box<OurDriver>),
    /// Godot's plain `CharacterBody3D`.
    Plain(Box<PlainDriver>),
}

impl Driver {
    /// The scenario's character for controller `kind`, with its start velocity: Godot's plain
    /// body for [`ControllerKind::Plain`], ours otherwise.
    pub fn new(scenario: &Scenario, kind: ControllerKind) -> Self {
        match kind {
            ControllerKind::Plain => Self::Plain(Box::new(PlainDriver::new(scenario))),
            _ => Self::Ours(Box::new(OurDriver::new(scenario))),
        }
    }

    /// The scenario's other character `other` for controller `kind`, from rest at its start.
    pub fn other(scenario: &Scenario, kind: ControllerKind, other: &OtherCharacter) -> Self {
        let own = Scenario {
            start: crate::scenario::Start {
                position: other.start,
                velocity: Vec3::ZERO,
            },
            ..scenario.clone()
        };
        Self::new(&own, kind)
    }

    /// Runs one tick of `dt` s of `command` on `body`.
    pub fn tick<B: KinematicBody + ?Sized>(
        &mut self,
        body: &mut B,
        command: &Command,
        dt: f32,
    ) -> Moved {
        match self {
            Self::Ours(driver) => driver.tick(body, command, dt),
            Self::Plain(driver) => driver.tick(body, command, dt),
        }
    }

    /// Vertical travel of the stair steps of the last tick, m (call once a tick).
    pub fn stepped(&mut self) -> Option<f32> {
        match self {
            Self::Ours(driver) => driver.stepped,
            Self::Plain(driver) => driver.stepped(),
        }
    }
}

/// Our controller with what it carries from tick to tick, for any world's body.
pub struct OurDriver {
    controller: Controller,
    velocity: Vec3,
    state: CharacterState,
    stepped: Option<f32>,
}

impl OurDriver {
    /// The scenario's controller, with its start velocity.
    pub fn new(scenario: &Scenario) -> Self {
        // Validated when the scenario was loaded.
        let controller =
            Controller::new(scenario.character.controller).expect("validated settings");
        Self {
            controller,
            velocity: scenario.start.velocity,
            state: CharacterState::default(),
            stepped: None,
        }
    }

    /// Runs one tick of `dt` s of `command` on `body`.
    pub fn tick<B: KinematicBody + ?Sized>(
        &mut self,
        body: &mut B,
        command: &Command,
        dt: f32,
    ) -> Moved {
        let input = TickInput {
            wish_direction: command.wish,
            jump: command.jump,
            velocity: self.velocity,
            crouch: command.crouch,
        };
        let report = self.controller.tick_with(body, &input, &mut self.state, dt);
        self.velocity = report.velocity;
        self.stepped = report.stepped;
        Moved {
            velocity: report.velocity,
            real_velocity: report.real_velocity,
            on_floor: report.on_floor,
            stair_moved: report.step_up > 0.0
                || report.step_down != 0.0
                || report.stepped.is_some(),
            crouched: report.crouched,
            substeps: report.substeps,
        }
    }
}

/// Our controller, or Godot's plain body, moving a [`ParryBody`].
pub struct KccMover {
    driver: Driver,
    body: ParryBody,
    /// The rigid bodies' simulation, when the world has any.
    dynamics: Option<Dynamics>,
    recorded: Option<Vec<RecordedMove>>,
    /// Ticks run so far.
    ticks: u64,
    /// The scenario's other characters.
    others: Vec<OtherMover>,
    /// Where every character stood when the tick began (the character first): where Godot's
    /// physics server has them for the whole tick (see [`KccMover::move_others`]).
    frame: Vec<Vec3>,
}

/// Another character of a scenario in the parry world: the same controller moving a body of
/// its own, whose world holds the character (first) and the other characters but itself.
struct OtherMover {
    driver: Driver,
    body: ParryBody,
    spec: OtherCharacter,
}

/// `world` with another character's body for each of `starts` (bottom of its shape, m), of
/// `settings`, in order.
pub(crate) fn with_characters(
    world: &World,
    settings: &BodySettings,
    starts: &[Vec3],
) -> Arc<World> {
    let mut world = world.clone();
    let (shape, lift) = kcc_parry::character_collider(settings);
    for start in starts {
        // Validated with the character's own shape when the scenario was loaded.
        let _ = world.add_character(shape, *start + Vec3::Y * lift);
    }
    Arc::new(world)
}

impl KccMover {
    /// The scenario's character at its start, moved by our controller.
    pub fn new(scenario: &Scenario) -> Self {
        Self::driven(scenario, ControllerKind::Kcc)
    }

    /// The scenario's character at its start, moved by controller `kind` (ours, or Godot's
    /// plain body: see [`Driver::new`]).
    pub fn driven(scenario: &Scenario, kind: ControllerKind) -> Self {
        // Validated when the scenario was loaded.
        let settings = scenario.character.body;
        let starts: Vec<Vec3> = scenario.others.iter().map(|o| o.start).collect();
        let world = match starts.is_empty() {
            true => scenario.world.clone(),
            false => with_characters(&scenario.world, &settings, &starts),
        };
        let body = ParryBody::new(world, settings, scenario.start.position)
            .expect("validated body settings");
        let others = scenario
            .others
            .iter()
            .enumerate()
            .map(|(index, spec)| {
                // The character first, then the others but this one.
                let mut around = vec![scenario.start.position];
                around.extend(
                    starts
                        .iter()
                        .enumerate()
                        .filter(|(j, _)| *j != index)
                        .map(|(_, s)| *s),
                );
                let world = with_characters(&scenario.world, &settings, &around);
                OtherMover {
                    driver: Driver::other(scenario, kind, spec),
                    body: ParryBody::new(world, settings, spec.start)
                        .expect("validated body settings"),
                    spec: spec.clone(),
                }
            })
            .collect();
        Self {
            driver: Driver::new(scenario, kind),
            dynamics: Dynamics::of(&body),
            body,
            recorded: None,
            ticks: 0,
            others,
            frame: Vec::new(),
        }
    }

    /// The scenario's character at its start, keeping every `test_move` it makes (see
    /// [`take_recorded`](Self::take_recorded)).
    pub fn recording(scenario: &Scenario) -> Self {
        Self {
            recorded: Some(Vec::new()),
            ..Self::new(scenario)
        }
    }

    /// The `test_move`s made so far by a recording mover, in order (empty otherwise).
    pub fn take_recorded(&mut self) -> Vec<RecordedMove> {
        self.recorded
            .as_mut()
            .map(std::mem::take)
            .unwrap_or_default()
    }
}

impl Mover for KccMover {
    fn position(&self) -> Vec3 {
        self.body.position()
    }

    fn tick(&mut self, command: &Command, dt: f32) -> Moved {
        self.frame = std::iter::once(self.body.position())
            .chain(self.others.iter().map(|o| o.body.position()))
            .collect();
        let moved = match &mut self.recorded {
            Some(moves) => {
                let mut body = Hooked::new(&mut self.body, Recording { moves });
                self.driver.tick(&mut body, command, dt)
            }
            None => self.driver.tick(&mut self.body, command, dt),
        };
        // The engine's physics step then moves the platforms to where they are when the next
        // tick begins.
        self.ticks += 1;
        if !self.body.world().platforms().is_empty() {
            self.body.set_time(self.ticks as f64 * f64::from(dt));
        }
        if let Some(dynamics) = &mut self.dynamics {
            dynamics.step(&mut self.body, dt);
        }
        moved
    }

    fn movables(&self) -> Vec<Vec3> {
        let world = self.body.world();
        world.movables().iter().map(|m| m.center_now()).collect()
    }

    fn movable_turns(&self) -> Vec<f32> {
        let world = self.body.world();
        world.movables().iter().map(|m| m.turn_now()).collect()
    }

    /// Each other character meets the others where they stood when the tick began, as in
    /// Godot: a `CharacterBody3D` is a kinematic body, whose moves reach the physics server's
    /// queries only in the physics step after the frame, so a character moving later in a
    /// frame meets one that moved earlier where it stood before (and the character, moving
    /// first, meets the others where the last step left them).
    fn move_others(&mut self, time: f64, dt: f32) -> Vec<Vec3> {
        let settings = *self.body.settings();
        let frame = std::mem::take(&mut self.frame);
        for (index, other) in self.others.iter_mut().enumerate() {
            // The character first, then the other characters but this one.
            let around = frame
                .iter()
                .enumerate()
                .filter(|(j, _)| *j != index + 1)
                .map(|(_, p)| *p);
            for (which, position) in around.enumerate() {
                other.body.place_character(which, &settings, position);
            }
            let command = Command::of(other.spec.input_at(time));
            other.driver.tick(&mut other.body, &command, dt);
            if !other.body.world().platforms().is_empty() {
                other.body.set_time(self.ticks as f64 * f64::from(dt));
            }
        }
        // The physics step after the frame hands every place to the server: the character's
        // world has the others where they went.
        let places: Vec<Vec3> = self.others.iter().map(|o| o.body.position()).collect();
        for (which, position) in places.iter().enumerate() {
            self.body.place_character(which, &settings, *position);
        }
        places
    }

    fn stepped(&mut self) -> Option<f32> {
        self.driver.stepped()
    }

    fn penetration(&mut self) -> f32 {
        self.body.penetration()
    }

    fn queries(&self) -> Option<u64> {
        Some(self.body.queries())
    }

    fn body_state(&self) -> Option<GodotTick> {
        let state = self.body.contact_state();
        Some(GodotTick {
            on_floor: state.on_floor,
            on_wall: state.on_wall,
            real_velocity: state.real_velocity,
            slide_collisions: state.slide_collisions,
            slide_hit_wall: state.slide_hit_wall,
        })
    }
}

/// A character of `kind` for `scenario`, at its start.
pub fn mover(scenario: &Scenario, kind: ControllerKind) -> Box<dyn Mover> {
    match kind {
        ControllerKind::Kcc | ControllerKind::Plain => Box::new(KccMover::driven(scenario, kind)),
        ControllerKind::Rapier => Box::new(RapierMover::new(scenario)),
        #[cfg(feature = "jolt")]
        ControllerKind::Jolt => Box::new(crate::jolt::JoltMover::new(scenario)),
    }
}

/// One recorded tick.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct TickRecord {
    /// Simulated time at the end of the tick, s.
    pub time: f64,
    /// Bottom of the shape after the tick, m.
    pub position: Vec3,
    /// Velocity after the tick, m/s.
    pub velocity: Vec3,
    /// How fast the body really moved during the tick, as the controller reports it, m/s.
    pub real_velocity: Vec3,
    /// On floor after the tick.
    pub on_floor: bool,
    /// Stair step of the tick, m (positive up).
    pub stepped: Option<f32>,
    /// The controller moved the body up or down a step, or onto a slope below, outside the
    /// engine's slide (see [`Moved::stair_moved`]).
    pub stair_moved: bool,
    /// Crouched after the tick.
    pub crouched: bool,
    /// Sub-steps the tick was split into (see [`Moved::substeps`]).
    pub substeps: u32,
    /// Offset of the smoothed camera from its resting place after the tick, m.
    pub camera_offset: f32,
    /// How long the input had been held when the tick began, s (`None` with no input).
    pub input_held: Option<f64>,
    /// How far the stick was pushed (0..1).
    pub input_strength: f32,
    /// Deepest overlap with any solid after the tick, m.
    pub penetration: f32,
    /// Motion queries of the tick, when counted.
    pub queries: Option<u64>,
    /// Round trips to the engine during the tick (Godot world only).
    pub round_trips: Option<u64>,
    /// Time Godot spent in the port's calls of the tick, by its own clock, us (Godot world
    /// only; a placement at a tick's end may be sent, and counted, with the next tick's first
    /// call).
    pub godot_physics_us: Option<u64>,
    /// Godot's own state after the tick (Godot world only).
    pub godot: Option<GodotTick>,
    /// Wall time of the controller's tick, ns.
    pub nanos: u64,
    /// The input of the tick (what a replay elsewhere feeds the same controller).
    pub command: Command,
}

/// A scenario run by one controller at one tick rate.
#[derive(Debug, Clone, PartialEq)]
pub struct Run {
    /// Scenario name.
    pub scenario: String,
    /// Which controller moved the character.
    pub controller: ControllerKind,
    /// Which world answered its queries.
    pub world: WorldKind,
    /// Tick rate, Hz.
    pub tick_rate: f64,
    /// Bottom of the shape before the first tick, m.
    pub start: Vec3,
    /// Every tick, in order.
    pub ticks: Vec<TickRecord>,
    /// Centre of mass of each rigid body after each tick, m: one list per tick, in the order
    /// of the file's `[[rigid_body]]` tables.
    pub bodies: Vec<Vec<Vec3>>,
    /// How far each rigid body has turned from where it started after the last tick, rad, in
    /// the order of [`Run::bodies`].
    pub body_turns: Vec<f32>,
    /// Where each other character is after each tick (bottom of its shape, m): one list per
    /// tick, in the order of the file's `[[other_character]]` tables (empty lists when the
    /// controller moved none).
    pub others: Vec<Vec<Vec3>>,
}

impl Run {
    /// A file name stem for this run: `<scenario>_<rate>hz_<controller>` (and `_godot` in the
    /// Godot world), with every character of the scenario name other than letters, digits,
    /// `-` and `_` replaced by `_`.
    pub fn file_stem(&self) -> String {
        let name: String = self
            .scenario
            .chars()
            .map(|c| {
                if c.is_ascii_alphanumeric() || c == '-' || c == '_' {
                    c
                } else {
                    '_'
                }
            })
            .collect();
        let world = match self.world {
            WorldKind::Parry => "",
            WorldKind::Godot(PhysicsEngine::Jolt) => "_godot",
            WorldKind::Godot(PhysicsEngine::GodotPhysics) => "_godot_physics",
        };
        format!(
            "{name}_{}hz_{}{world}",
            self.tick_rate,
            self.controller.name()
        )
    }
}

/// Runs `scenario` with controller `kind` at `rate` Hz: ours in the parry world, the peers
/// (Rapier's, Jolt's) in their own. The error says why a peer could not run (Jolt refused a
/// solid, say); the parry world always answers.
pub fn run(scenario: &Scenario, kind: ControllerKind, rate: f64) -> Result<Run, String> {
    let mut mover = mover(scenario, kind);
    record(scenario, kind, WorldKind::Parry, rate, mover.as_mut())
}

/// Runs `scenario` with controller `kind` at `rate` Hz: our controller in `godot` when given
/// (the peers, Rapier's and Jolt's, always in their own worlds). The error says why the Godot
/// world stopped, or why a peer could not run.
pub fn run_in(
    scenario: &Scenario,
    kind: ControllerKind,
    rate: f64,
    godot: Option<&mut GodotWorld>,
) -> Result<Run, String> {
    match (kind, godot) {
        (ControllerKind::Kcc | ControllerKind::Plain, Some(world)) => {
            let physics = world.physics();
            let mut mover = GodotMover::new(scenario, rate, world, kind)?;
            record(scenario, kind, WorldKind::Godot(physics), rate, &mut mover)
        }
        _ => run(scenario, kind, rate),
    }
}

/// Runs the tick loop of `scenario` at `rate` Hz with `mover` (controller `kind` in `world`)
/// and records every tick. The error says why the mover stopped.
pub fn record(
    scenario: &Scenario,
    kind: ControllerKind,
    world: WorldKind,
    rate: f64,
    mover: &mut dyn Mover,
) -> Result<Run, String> {
    let dt = 1.0 / rate;
    let mut camera = StepSmoother::new(scenario.character.camera_decay);
    let mut held_since: Option<f64> = None;
    let start = mover.position();
    let count = scenario.ticks(rate);
    let mut ticks = Vec::with_capacity(count as usize);
    let mut bodies = Vec::with_capacity(count as usize);
    let mut others = Vec::with_capacity(count as usize);
    for index in 0..count {
        let time = index as f64 * dt;
        let command = Command::of(scenario.input_at(time));
        let strength = command.wish.length();
        held_since = match (strength > 0.0, held_since) {
            (false, _) => None,
            (true, None) => Some(time),
            (true, since) => since,
        };
        let queries_before = mover.queries();
        let trips_before = mover.round_trips();
        let physics_before = mover.godot_physics_us();
        let clock = Instant::now();
        let moved = mover.tick(&command, dt as f32);
        let nanos = clock.elapsed().as_nanos() as u64;
        // The other characters move in the same frame, after the character (untimed).
        let others_now = mover.move_others(time, dt as f32);
        if let Some(failure) = mover.failure() {
            return Err(format!(
                "{} at {rate} Hz, tick {}: {failure}",
                scenario.name,
                index + 1
            ));
        }
        let queries = mover.queries().zip(queries_before).map(|(a, b)| a - b);
        let round_trips = mover.round_trips().zip(trips_before).map(|(a, b)| a - b);
        let godot_physics_us = mover
            .godot_physics_us()
            .zip(physics_before)
            .map(|(a, b)| a - b);
        let stepped = mover.stepped();
        if let Some(dy) = stepped {
            camera.on_step(dy);
        }
        let camera_offset = camera.update(dt as f32);
        ticks.push(TickRecord {
            time: time + dt,
            position: mover.position(),
            velocity: moved.velocity,
            real_velocity: moved.real_velocity,
            on_floor: moved.on_floor,
            stepped,
            stair_moved: moved.stair_moved,
            crouched: moved.crouched,
            substeps: moved.substeps,
            camera_offset,
            input_held: held_since.map(|since| time - since),
            input_strength: strength.min(1.0),
            penetration: mover.penetration(),
            queries,
            round_trips,
            godot_physics_us,
            godot: mover.body_state(),
            nanos,
            command,
        });
        bodies.push(mover.movables());
        others.push(others_now);
    }
    if let Some(late) = mover.late_observations()? {
        if late.len() != ticks.len() {
            return Err(format!(
                "{} at {rate} Hz: {} observations for {} ticks",
                scenario.name,
                late.len(),
                ticks.len()
            ));
        }
        for (tick, (penetration, godot)) in ticks.iter_mut().zip(late) {
            tick.penetration = penetration;
            tick.godot = Some(godot);
        }
    }
    Ok(Run {
        scenario: scenario.name.clone(),
        controller: kind,
        world,
        tick_rate: rate,
        start,
        ticks,
        bodies,
        body_turns: mover.movable_turns(),
        others,
    })
}
