//! Scenario files (TOML): the model, its validation, and errors that name the file, the table
//! and the key. `scenarios/README.md` documents the format.
//!
//! Loading runs in three passes, each with precise errors: TOML syntax (line and column), then
//! a walk over every number (NaN and infinity are refused), then the typed model with
//! `deny_unknown_fields` (unknown keys, wrong types, missing keys), then the meaning (ranges,
//! one kind per solid, settings the controller accepts, geometry that can be built).

use std::path::Path;
use std::sync::Arc;

use glam::{Vec2, Vec3};
use kcc::movement::INPUT_DEAD_ZONE;
use kcc::{ConfigError, ControllerSettings, GroundFollow, MotionMode};
use kcc_parry::{BodySettings, CharacterShape, PlatformMotion, Solid, World};
use serde::Deserialize;
use thiserror::Error;

use crate::course;

mod scale;

/// Highest tick rate a scenario may ask for, Hz.
pub const MAX_TICK_RATE: f64 = 10_000.0;

/// Godot's default `Shape3D.margin`, m: what a scenario's boxes and hulls get unless it says
/// otherwise. Jolt rounds their edges by it (see `kcc_parry::Solid::with_margin`).
pub const DEFAULT_SHAPE_MARGIN: f32 = 0.04;

/// Longest simulated time of a scenario, s.
pub const MAX_DURATION: f64 = 3_600.0;

/// Most ticks one run may have (duration times tick rate): a run keeps a record of every tick.
pub const MAX_TICKS: u64 = 2_000_000;

/// Fastest a platform may move, m/s.
pub const MAX_PLATFORM_SPEED: f32 = 100.0;

/// Fastest a platform may turn, degrees/s.
pub const MAX_PLATFORM_TURN_DEG: f32 = 3_600.0;

/// A scenario that cannot be used. Every variant names the file; the `Invalid` variant also
/// names the table (`top level`, `character`, `start`, `solid #2`, `input #1`, `expect`) and the
/// key inside it.
#[derive(Debug, Clone, PartialEq, Error)]
pub enum ScenarioError {
    /// The file could not be read.
    #[error("{file}: cannot read the file: {message}")]
    Read {
        /// The scenario file.
        file: String,
        /// What the operating system said.
        message: String,
    },
    /// The file is not valid TOML.
    #[error("{file}: TOML syntax error at line {line}, column {column}: {message}")]
    Syntax {
        /// The scenario file.
        file: String,
        /// Line of the error, counted from 1.
        line: usize,
        /// Column of the error, counted from 1.
        column: usize,
        /// What the parser said.
        message: String,
    },
    /// A key is unknown, missing, of the wrong type, not finite or out of range.
    #[error("{file}: table [{table}], key `{key}`: {message}")]
    Invalid {
        /// The scenario file.
        file: String,
        /// The table: `top level`, `character`, `start`, `solid #N`, `input #N` or `expect`
        /// (N counts the `[[solid]]` or `[[input]]` tables from 1).
        table: String,
        /// The key inside the table; a dotted path inside inline tables (`box.size`).
        key: String,
        /// What is wrong.
        message: String,
    },
}

/// A validated scenario, ready to run: settings the controller accepts, the world built from the
/// solids, the input timeline and the expectations.
#[derive(Clone)]
pub struct Scenario {
    /// Name from the file.
    pub name: String,
    /// Tick rate asked for by the file, Hz (60 when absent).
    pub tick_rate: f64,
    /// Simulated time, s.
    pub duration: f64,
    /// The character: shape, controller and body settings, camera smoothing.
    pub character: Character,
    /// Where and how the character starts.
    pub start: Start,
    /// Godot's `Shape3D.margin` of every static box and hull, m (default
    /// [`DEFAULT_SHAPE_MARGIN`]); both worlds round their edges by it as Jolt does.
    pub shape_margin: f32,
    /// The static solids, with their margin.
    pub world: Arc<World>,
    /// Input segments, in order.
    pub input: Vec<InputSegment>,
    /// Other characters: the same character (shape, controller and body settings) with a
    /// start and an input of their own, moved by the same controller after the character
    /// each tick. They block each other and the character as walls do.
    pub others: Vec<OtherCharacter>,
    /// Checks to run on the result.
    pub expect: Expectations,
}

/// The character of a scenario.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Character {
    /// Controller settings (movement curves, stairs, gravity).
    pub controller: ControllerSettings,
    /// Body settings (shape, margin, floor angle, slide options).
    pub body: BodySettings,
    /// Decay rate of the step-smoothing camera, 1/s.
    pub camera_decay: f32,
}

/// Start state of the character.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Start {
    /// Bottom of the shape, m.
    pub position: Vec3,
    /// Initial velocity, m/s.
    pub velocity: Vec3,
}

/// One input segment: held for `duration` seconds.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct InputSegment {
    /// How long it is held, s.
    pub duration: f64,
    /// World-space wish direction: across the ground as long as the stick is pushed (0..1),
    /// and up by the segment's `rise` (which only a floating character follows).
    pub wish: Vec3,
    /// Jump held.
    pub jump: bool,
    /// Crouch held.
    pub crouch: bool,
}

/// Another character of a scenario (`[[other_character]]`).
#[derive(Debug, Clone, PartialEq)]
pub struct OtherCharacter {
    /// Bottom of its shape at the start, m.
    pub start: Vec3,
    /// Its input segments, in order.
    pub input: Vec<InputSegment>,
}

impl OtherCharacter {
    /// The input segment held at `time` (s), if any.
    pub fn input_at(&self, time: f64) -> Option<&InputSegment> {
        segment_at(&self.input, time)
    }
}

/// The segment of `input` held at `time` (s), if any. A tick whose start lies within
/// [`TIME_ROUNDING`] of a segment's end starts the next segment: a tick's time is its index
/// times the tick's length, which at 70 Hz puts tick 154 at 2.1999999999999997 s, and the
/// walk of `wedge_v_60` went on for a tick after its 2.2 s (ending 7 cm further on).
fn segment_at(input: &[InputSegment], time: f64) -> Option<&InputSegment> {
    let mut end = 0.0;
    input.iter().find(|segment| {
        end += segment.duration;
        time < end - TIME_ROUNDING
    })
}

/// Times closer than this (s) are the same time: far above the rounding of a tick's time (a
/// few 1e-16 s), far below any tick (1/1000 s at most here).
const TIME_ROUNDING: f64 = 1e-9;

/// `steps_per_riser` in `[expect]`: the stairs' risers and how many are walked each way.
#[derive(Debug, Clone, Copy, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Risers {
    /// Height of every riser, m.
    pub rise: f32,
    /// Risers climbed.
    pub up: u32,
    /// Risers walked down.
    pub down: u32,
    /// How far a step may be from the riser's height and still be its one step, m
    /// ([`RISER_TOLERANCE`](crate::checks::RISER_TOLERANCE) when absent).
    pub tolerance: Option<f32>,
}

/// The `[expect]` table: each present key is one named check.
#[derive(Debug, Clone, PartialEq, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Expectations {
    /// The body comes within `radius` of `position` at some tick (before `before` s if given).
    pub reach: Option<Reach>,
    /// The body ends within `radius` of `position`.
    pub end_near: Option<Near>,
    /// The bottom of the shape stays below this height, m.
    pub never_above: Option<f32>,
    /// The bottom of the shape rises above this height at some tick, m.
    pub rises_above: Option<f32>,
    /// At most this many ticks off the floor, counted after the first tick on it.
    pub max_airborne_ticks: Option<u32>,
    /// At least this share (0..1) of the ticks on the floor, counted from the first tick on it.
    pub min_grounded_ratio: Option<f32>,
    /// Horizontal speed at least this share of the target speed while input is held, after
    /// the attack time.
    pub speed_ratio_min: Option<f32>,
    /// Horizontal speed at most this share of the target speed while input is held, after the
    /// attack time.
    pub speed_ratio_max: Option<f32>,
    /// Largest vertical move of one tick, m.
    pub max_step_per_tick: Option<f32>,
    /// Deepest overlap of the shape with any solid after a tick, m.
    pub max_penetration: Option<f32>,
    /// The limits of runs that Godot Physics answers, where Godot Physics itself cannot do
    /// better than the file's: what Godot's own plain body leaves on the same file there.
    pub godot_physics: Option<GodotPhysicsLimits>,
    /// At most this many steps (up and down) reported.
    pub max_steps: Option<u32>,
    /// Exactly one `stepped` per riser: this many up and down, each within
    /// [`RISER_TOLERANCE`](crate::checks::RISER_TOLERANCE) of the riser's height.
    pub steps_per_riser: Option<Risers>,
    /// At most this many motion queries on any tick with a stair step (a `stepped`): in the
    /// parry world each slide iteration and snap, in the Godot world each call into Godot (our
    /// controller only: the peers' queries are not counted).
    pub max_step_tick_queries: Option<u32>,
    /// From this time on (s), while input is held, every tick leaves the body on a wall
    /// (`is_on_wall()`) with a wall among its slide collisions (our controller only: Godot's
    /// own state of the body, or the parry world's imitation of it).
    pub on_wall_from: Option<f64>,
    /// The body is crouched (true) or standing (false) after the last tick (our controller
    /// only: the peers do not crouch).
    pub crouched_at_end: Option<bool>,
    /// A rigid body pushed ahead: its horizontal speed over a window, as a share of the
    /// character's top walking speed.
    pub pushed_speed: Option<PushedSpeed>,
    /// Farthest any rigid body's centre of mass gets from where it started, m (horizontally
    /// and vertically).
    pub body_travel_max: Option<f32>,
    /// A rigid body's centre ends within `radius` of `position`.
    pub body_end_near: Option<BodyNear>,
    /// A rigid body ends turned from where it started by between `min` and `max` degrees (a
    /// seesaw that tipped).
    pub body_end_turn: Option<BodyTurn>,
    /// Another character (`[[other_character]]`) ends with the bottom of its shape within
    /// `radius` of `position`.
    pub other_end_near: Option<OtherNear>,
    /// From `time` (s) to the end the character stays within `radius` (m) of where it was at
    /// `time`: blocked, it stands still instead of jittering.
    pub rest_after: Option<RestAfter>,
    /// At most `max` ticks end with the character overlapping something deeper than `depth`
    /// (m): an overlap the next tick undoes (two characters meeting), not one that lasts.
    pub overlap_ticks: Option<OverlapTicks>,
}

/// `godot_physics = { max_penetration, end_near_radius, body_end_near_radius }` in `[expect]`:
/// limits for the runs that Godot Physics answers (`--world godot --physics godot`), each in
/// place of the file's own, only where Godot Physics itself cannot do better: each is the worst
/// that Godot's own plain body (`--controller plain`) measures on the same file on Godot
/// Physics at the course's four rates, written in a comment next to it. Never used on Jolt or
/// in the parry world.
#[derive(Debug, Clone, Copy, PartialEq, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GodotPhysicsLimits {
    /// `max_penetration` on Godot Physics: the deepest overlap, m.
    pub max_penetration: Option<f32>,
    /// `end_near`'s radius on Godot Physics: how far from its target the character may end, m.
    pub end_near_radius: Option<f32>,
    /// `body_end_near`'s radius on Godot Physics: how far from its target the rigid body may
    /// end, m.
    pub body_end_near_radius: Option<f32>,
}

/// `overlap_ticks = { depth, max }`: how many ticks may end in an overlap.
#[derive(Debug, Clone, Copy, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct OverlapTicks {
    /// Overlaps deeper than this count, m.
    pub depth: f32,
    /// Most ticks that may end in one.
    pub max: u32,
}

/// `other_end_near = { other, position, radius }`: where another character ends.
#[derive(Debug, Clone, Copy, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct OtherNear {
    /// Which `[[other_character]]`, counted from 0 (0 when absent).
    #[serde(default)]
    pub other: usize,
    /// Target for the bottom of its shape, m.
    pub position: [f32; 3],
    /// Largest distance from the target that counts, m.
    pub radius: f32,
}

/// `rest_after = { time, radius }`: the character stands still from `time` on.
#[derive(Debug, Clone, Copy, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RestAfter {
    /// From when, s.
    pub time: f64,
    /// Largest distance from where it was then, m.
    pub radius: f32,
}

/// `body_end_near = { body, position, radius }`: where a rigid body ends.
#[derive(Debug, Clone, Copy, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BodyNear {
    /// Which `[[rigid_body]]`, counted from 0 (0 when absent).
    #[serde(default)]
    pub body: usize,
    /// Target for its centre, m.
    pub position: [f32; 3],
    /// Largest distance from the target that counts, m.
    pub radius: f32,
}

/// `body_end_turn = { body, min, max }`: how far a rigid body ends turned from where it began.
#[derive(Debug, Clone, Copy, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BodyTurn {
    /// Which `[[rigid_body]]`, counted from 0 (0 when absent).
    #[serde(default)]
    pub body: usize,
    /// Least turn that counts, degrees.
    pub min: f32,
    /// Most turn that counts, degrees.
    pub max: f32,
}

/// `pushed_speed = { body, from, to, min, max }`: how fast a rigid body goes while pushed.
#[derive(Debug, Clone, Copy, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PushedSpeed {
    /// Which `[[rigid_body]]`, counted from 0 (0 when absent).
    #[serde(default)]
    pub body: usize,
    /// Start of the window, s.
    pub from: f64,
    /// End of the window, s.
    pub to: f64,
    /// Least share of the top walking speed the body's mean horizontal speed over the window
    /// may be.
    pub min: f32,
    /// Largest share.
    pub max: f32,
}

/// A place to reach at some tick.
#[derive(Debug, Clone, Copy, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Reach {
    /// Target for the bottom of the shape, m.
    pub position: [f32; 3],
    /// Largest distance from the target that counts, m.
    pub radius: f32,
    /// Latest simulated time that counts, s (the whole run when absent).
    pub before: Option<f64>,
}

/// A place to end near.
#[derive(Debug, Clone, Copy, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Near {
    /// Target for the bottom of the shape, m.
    pub position: [f32; 3],
    /// Largest distance from the target that counts, m.
    pub radius: f32,
}

/// One `[[solid]]` table after the check that it has exactly one kind.
#[derive(Debug, Clone, PartialEq)]
pub enum SolidSpec {
    /// `box = { center, size, rotation_deg }`.
    Box(BoxSpec),
    /// `stairs = { origin, direction, count, rise, run, width }`.
    Stairs(StairsSpec),
    /// `spiral = { center, inner_radius, outer_radius, count, rise, step_angle_deg }`.
    Spiral(SpiralSpec),
    /// `ramp = { origin, direction, angle_deg, length, width }`.
    Ramp(RampSpec),
    /// `convex = { points }`.
    Convex(ConvexSpec),
    /// `mesh = { obj, offset }`.
    Mesh(MeshSpec),
    /// `ball = { center, radius }`.
    Ball(BallSpec),
}

/// A box.
#[derive(Debug, Clone, Copy, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BoxSpec {
    /// Centre, m.
    pub center: [f32; 3],
    /// Full size, m.
    pub size: [f32; 3],
    /// Rotation as Godot's `rotation_degrees` (Euler angles applied in Y, X, Z order), degrees.
    pub rotation_deg: Option<[f32; 3]>,
}

/// A ball (a boulder; a ball the character may push as a `[[rigid_body]]`).
#[derive(Debug, Clone, Copy, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BallSpec {
    /// Centre, m.
    pub center: [f32; 3],
    /// Radius, m.
    pub radius: f32,
}

/// Straight stairs.
#[derive(Debug, Clone, Copy, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct StairsSpec {
    /// Middle of the bottom edge of the first riser, m.
    pub origin: [f32; 3],
    /// Horizontal direction the stairs go up along.
    pub direction: [f32; 3],
    /// Number of steps.
    pub count: u32,
    /// Height of each step, m.
    pub rise: f32,
    /// Depth of each step, m.
    pub run: f32,
    /// Width, m.
    pub width: f32,
}

/// A spiral staircase.
#[derive(Debug, Clone, Copy, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SpiralSpec {
    /// Centre of the bottom, m.
    pub center: [f32; 3],
    /// Radius of the hole in the middle, m.
    pub inner_radius: f32,
    /// Outer radius of the steps, m.
    pub outer_radius: f32,
    /// Number of steps.
    pub count: u32,
    /// Height of each step, m.
    pub rise: f32,
    /// Angle of each step, degrees; the first starts at +X, going counter-clockwise from above.
    pub step_angle_deg: f32,
}

/// A ramp (solid wedge).
#[derive(Debug, Clone, Copy, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RampSpec {
    /// Middle of its bottom edge, m.
    pub origin: [f32; 3],
    /// Horizontal direction it goes up along.
    pub direction: [f32; 3],
    /// Slope, degrees.
    pub angle_deg: f32,
    /// Length along the slope, m.
    pub length: f32,
    /// Width, m.
    pub width: f32,
}

/// A convex hull.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ConvexSpec {
    /// Points, m.
    pub points: Vec<[f32; 3]>,
}

/// A triangle mesh from a Wavefront OBJ file.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MeshSpec {
    /// Path of the OBJ file, relative to the scenario file.
    pub obj: String,
    /// Added to every vertex, m.
    pub offset: Option<[f32; 3]>,
    /// Every vertex is multiplied by it before the offset is added (1 when absent).
    pub scale: Option<f32>,
}

/// Character shapes a scenario can ask for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
enum ShapeKind {
    Capsule,
    Cylinder,
    Box,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawScenario {
    name: String,
    tick_rate: Option<f64>,
    duration: f64,
    shape_margin: Option<f32>,
    #[serde(default)]
    character: RawCharacter,
    start: RawStart,
    #[serde(default)]
    solid: Vec<RawSolid>,
    #[serde(default)]
    platform: Vec<RawPlatform>,
    #[serde(default)]
    rigid_body: Vec<RawRigidBody>,
    #[serde(default)]
    input: Vec<RawInput>,
    #[serde(default)]
    other_character: Vec<RawOther>,
    #[serde(default)]
    expect: Expectations,
}

/// `[[other_character]]`: another character, the scenario's own (its shape and settings), with
/// a start and an input of its own.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawOther {
    position: [f32; 3],
    #[serde(default)]
    input: Vec<RawInput>,
}

#[derive(Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawCharacter {
    motion_mode: Option<MotionMode>,
    shape: Option<ShapeKind>,
    radius: Option<f32>,
    height: Option<f32>,
    size: Option<[f32; 3]>,
    max_speed: Option<f32>,
    attack_time: Option<f32>,
    release_time: Option<f32>,
    air_max_speed: Option<f32>,
    air_attack_time: Option<f32>,
    air_release_time: Option<f32>,
    constant_horizontal_speed: Option<bool>,
    step_up_enabled: Option<bool>,
    step_down_enabled: Option<bool>,
    max_step_height: Option<f32>,
    min_step_depth: Option<f32>,
    min_step_forward: Option<f32>,
    step_forward_test: Option<f32>,
    sweep_iterations: Option<u32>,
    ground_follow: Option<GroundFollow>,
    step_onto_bodies: Option<bool>,
    gravity: Option<f32>,
    terminal_speed: Option<f32>,
    jump_velocity: Option<f32>,
    coyote_time: Option<f32>,
    jump_buffer_time: Option<f32>,
    jump_release_cut: Option<f32>,
    crouch_height: Option<f32>,
    crouch_max_speed: Option<f32>,
    crouch_max_step_height: Option<f32>,
    push_strength: Option<f32>,
    mass: Option<f32>,
    weight_on_bodies: Option<bool>,
    safe_margin: Option<f32>,
    floor_max_angle_deg: Option<f32>,
    max_slides: Option<u32>,
    floor_snap_length: Option<f32>,
    wall_min_slide_angle_deg: Option<f32>,
    floor_stop_on_slope: Option<bool>,
    floor_block_on_wall: Option<bool>,
    floor_constant_speed: Option<bool>,
    slide_on_ceiling: Option<bool>,
    camera_decay: Option<f32>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawStart {
    position: [f32; 3],
    velocity: Option<[f32; 3]>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawSolid {
    #[serde(rename = "box")]
    cuboid: Option<BoxSpec>,
    stairs: Option<StairsSpec>,
    spiral: Option<SpiralSpec>,
    ramp: Option<RampSpec>,
    convex: Option<ConvexSpec>,
    mesh: Option<MeshSpec>,
    ball: Option<BallSpec>,
}

/// A `[[platform]]` table: a box that moves (a Godot `AnimatableBody3D` moved every tick).
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawPlatform {
    #[serde(rename = "box")]
    cuboid: BoxSpec,
    velocity: Option<[f32; 3]>,
    angular_velocity_deg: Option<f32>,
    reverse_every: Option<f32>,
}

/// A `[[rigid_body]]` table: a box or a ball the engine simulates (a Godot `RigidBody3D`,
/// friction 1 as Godot's default material), which the character can push.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawRigidBody {
    #[serde(rename = "box")]
    cuboid: Option<BoxSpec>,
    ball: Option<BallSpec>,
    /// kg.
    mass: f32,
    /// m/s.
    velocity: Option<[f32; 3]>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawInput {
    duration: f64,
    #[serde(rename = "move")]
    stick: Option<[f32; 2]>,
    rise: Option<f32>,
    yaw_deg: Option<f32>,
    jump: Option<bool>,
    crouch: Option<bool>,
}

/// The kinds a `[[solid]]` table may hold, as the keys are spelled.
pub const SOLID_KINDS: [&str; 7] = ["box", "stairs", "spiral", "ramp", "convex", "mesh", "ball"];

impl Scenario {
    /// Reads, parses, validates and builds the scenario in `path`.
    pub fn load(path: &Path) -> Result<Self, ScenarioError> {
        let file = path.display().to_string();
        let text = std::fs::read_to_string(path).map_err(|e| ScenarioError::Read {
            file: file.clone(),
            message: e.to_string(),
        })?;
        Self::parse(path, &text)
    }

    /// Parses and validates scenario `text` as if read from `path` (mesh paths are relative to
    /// its folder).
    pub fn parse(path: &Path, text: &str) -> Result<Self, ScenarioError> {
        let file = path.display().to_string();
        let invalid = |table: &str, key: &str, message: String| ScenarioError::Invalid {
            file: file.clone(),
            table: table.to_string(),
            key: key.to_string(),
            message,
        };

        let table = checked_table(path, text)?;
        let base = path.parent().unwrap_or(Path::new("."));
        if table.contains_key("scaled") {
            let scaled: RawScaled = typed(table, &invalid)?;
            return Self::magnified(&scaled, base, &invalid);
        }
        let raw: RawScenario = typed(table, &invalid)?;
        build(raw, base, &invalid)
    }

    /// The scenario of a file with `scaled = { from, by }`: the file `from` (relative to
    /// `base`) with every length, speed and acceleration multiplied by `by` (see the module
    /// `scale`), under the name `scaled.name`.
    fn magnified(
        scaled: &RawScaled,
        base: &Path,
        invalid: &dyn Fn(&str, &str, String) -> ScenarioError,
    ) -> Result<Self, ScenarioError> {
        const TOP: &str = "top level";
        let by = scaled.scaled.by;
        if !(MIN_SCALE..=MAX_SCALE).contains(&by) {
            let message = format!("must be between {MIN_SCALE} and {MAX_SCALE}, got {by}");
            return Err(invalid(TOP, "scaled.by", message));
        }
        if let Some(margin) = scaled.scaled.shape_margin.filter(|m| *m < 0.0) {
            let message = format!("must be 0 m or more, got {margin}");
            return Err(invalid(TOP, "scaled.shape_margin", message));
        }
        let path = base.join(&scaled.scaled.from);
        // What is wrong with the original is this file's `scaled.from`: the message names both.
        Self::original_magnified(&path, &scaled.scaled, &scaled.name)
            .map_err(|error| invalid(TOP, "scaled.from", error.to_string()))
    }

    /// The original scenario at `path`, every length, speed and acceleration multiplied by
    /// `scaled.by` (its boxes and hulls given `scaled.shape_margin` when there is one), under the
    /// name `name`. An original that is scaled itself is refused.
    fn original_magnified(
        path: &Path,
        scaled: &ScaledFrom,
        name: &str,
    ) -> Result<Self, ScenarioError> {
        let file = path.display().to_string();
        let text = std::fs::read_to_string(path).map_err(|e| ScenarioError::Read {
            file: file.clone(),
            message: e.to_string(),
        })?;
        let of_original = |table: &str, key: &str, message: String| ScenarioError::Invalid {
            file: file.clone(),
            table: table.to_string(),
            key: key.to_string(),
            message,
        };
        let table = checked_table(path, &text)?;
        if table.contains_key("scaled") {
            let message = "a scaled file: start from an original".to_string();
            return Err(of_original("top level", "scaled", message));
        }
        let mut raw: RawScenario = typed(table, &of_original)?;
        raw = raw.scaled(scaled.by);
        raw.name = name.to_string();
        raw.shape_margin = scaled.shape_margin.or(raw.shape_margin);
        build(raw, path.parent().unwrap_or(Path::new(".")), &of_original)
    }

    /// Gives every box and hull of the world `margin` (m, Godot's `Shape3D.margin`) instead of
    /// the file's, in both worlds. The error names what cannot take it.
    pub fn set_shape_margin(&mut self, margin: f32) -> Result<(), String> {
        let mut world = World::new();
        let platforms = self.world.platforms();
        for (index, solid) in self.world.solids().iter().enumerate() {
            let moves = platforms.iter().any(|p| p.index == index);
            if moves || self.world.movable_of(index).is_some() {
                continue;
            }
            let solid = solid
                .clone()
                .with_margin(margin)
                .map_err(|e| format!("{}: solid {}: {e}", self.name, index + 1))?;
            world.add(solid);
        }
        for (index, platform) in platforms.iter().enumerate() {
            let solid = platform
                .rest
                .clone()
                .with_margin(margin)
                .map_err(|e| format!("{}: platform {}: {e}", self.name, index + 1))?;
            world.add_platform(solid, platform.motion);
        }
        for (index, body) in self.world.movables().iter().enumerate() {
            let solid = body
                .rest
                .clone()
                .with_margin(margin)
                .map_err(|e| format!("{}: rigid body {}: {e}", self.name, index + 1))?;
            world.add_movable(solid, body.center, body.mass, body.velocity);
        }
        self.world = Arc::new(world);
        self.shape_margin = margin;
        Ok(())
    }

    /// Number of ticks the scenario runs at `rate` Hz.
    pub fn ticks(&self, rate: f64) -> u64 {
        (self.duration * rate).round().max(1.0) as u64
    }

    /// The input segment active at `time` (s), or `None` after the last one.
    pub fn input_at(&self, time: f64) -> Option<&InputSegment> {
        segment_at(&self.input, time)
    }
}

/// Smallest factor a scaled scenario may magnify by.
pub const MIN_SCALE: f32 = 0.01;

/// Largest factor a scaled scenario may magnify by.
pub const MAX_SCALE: f32 = 100.0;

/// A file that scales another: `name` and `scaled = { from, by, shape_margin }`, nothing else.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawScaled {
    name: String,
    scaled: ScaledFrom,
}

/// `scaled = { from, by, shape_margin }`.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ScaledFrom {
    /// The scenario file it scales, relative to this one.
    from: String,
    /// The factor every length, speed and acceleration is multiplied by.
    by: f32,
    /// The level's shape margin (Godot's `Shape3D.margin` of its boxes and hulls), m, in place
    /// of the original's, which is kept otherwise: the margin a game sets for a character of
    /// this size (see the addon's README). Not scaled.
    shape_margin: Option<f32>,
}

/// `text` (read from `path`) as a TOML table with every number finite.
fn checked_table(path: &Path, text: &str) -> Result<toml::Table, ScenarioError> {
    let file = path.display().to_string();
    let table: toml::Table = text.parse().map_err(|e: toml::de::Error| {
        let (line, column) = line_and_column(text, e.span().map_or(0, |s| s.start));
        ScenarioError::Syntax {
            file: file.clone(),
            line,
            column,
            message: e.message().trim().to_string(),
        }
    })?;
    let mut path_so_far = Vec::new();
    if let Some((segments, value)) = first_non_finite(&table, &mut path_so_far) {
        let (table, key) = table_and_key(&segments);
        return Err(ScenarioError::Invalid {
            file,
            table,
            key,
            message: if value.is_finite() {
                format!("{value} is too large (the simulation's numbers end near 3.4e38)")
            } else {
                format!("{value} is not a finite number")
            },
        });
    }
    Ok(table)
}

/// `table` as the typed model `T`, with errors that name the table and key.
fn typed<T: serde::de::DeserializeOwned>(
    table: toml::Table,
    invalid: &dyn Fn(&str, &str, String) -> ScenarioError,
) -> Result<T, ScenarioError> {
    serde_path_to_error::deserialize(toml::Value::Table(table)).map_err(|e| {
        let mut segments = path_segments(e.path());
        let message = e.inner().message().trim().to_string();
        // A missing key is reported at the table that lacks it: add the key's name.
        if let Some(field) = missing_field(&message) {
            segments.push(Segment::Key(field.to_string()));
        }
        let (table, key) = table_and_key(&segments);
        invalid(&table, &key, message)
    })
}

/// The input segments of `raw` (the `[[input]]` tables, or an other character's), validated;
/// errors name the table as `name #n`.
fn segments(
    raw: &[RawInput],
    name: &str,
    invalid: &dyn Fn(&str, &str, String) -> ScenarioError,
) -> Result<Vec<InputSegment>, ScenarioError> {
    let mut input = Vec::new();
    for (index, segment) in raw.iter().enumerate() {
        let table = format!("{name} #{}", index + 1);
        if segment.duration <= 0.0 {
            return Err(invalid(
                &table,
                "duration",
                format!("must be greater than 0 s, got {}", segment.duration),
            ));
        }
        let stick = Vec2::from(segment.stick.unwrap_or([0.0, 0.0]));
        if stick.length() > 1.0 + 1e-4 {
            return Err(invalid(
                &table,
                "move",
                format!("must have a length of at most 1, got {}", stick.length()),
            ));
        }
        let rise = segment.rise.unwrap_or(0.0);
        if !(-1.0..=1.0).contains(&rise) {
            return Err(invalid(
                &table,
                "rise",
                format!("must be between -1 and 1, got {rise}"),
            ));
        }
        let yaw = segment.yaw_deg.unwrap_or(0.0).to_radians();
        // Godot: basis (rotation.y = yaw) times (x, 0, y) of Input.get_vector; `rise` is the
        // up part (a floating character's).
        let wish = glam::Quat::from_rotation_y(yaw) * Vec3::new(stick.x, rise, stick.y);
        let wish = if wish.length() <= INPUT_DEAD_ZONE {
            Vec3::ZERO
        } else {
            wish
        };
        input.push(InputSegment {
            duration: segment.duration,
            wish,
            jump: segment.jump.unwrap_or(false),
            crouch: segment.crouch.unwrap_or(false),
        });
    }
    Ok(input)
}

/// Turns the raw model into a validated scenario.
fn build(
    raw: RawScenario,
    base: &Path,
    invalid: &dyn Fn(&str, &str, String) -> ScenarioError,
) -> Result<Scenario, ScenarioError> {
    const TOP: &str = "top level";
    if raw.name.trim().is_empty() {
        return Err(invalid(TOP, "name", "must not be empty".into()));
    }
    let tick_rate = raw.tick_rate.unwrap_or(60.0);
    if !(tick_rate > 0.0 && tick_rate <= MAX_TICK_RATE) {
        return Err(invalid(
            TOP,
            "tick_rate",
            format!("must be greater than 0 Hz and at most {MAX_TICK_RATE} Hz, got {tick_rate}"),
        ));
    }
    if !(raw.duration > 0.0 && raw.duration <= MAX_DURATION) {
        return Err(invalid(
            TOP,
            "duration",
            format!(
                "must be greater than 0 s and at most {MAX_DURATION} s, got {}",
                raw.duration
            ),
        ));
    }
    if raw.duration * tick_rate > MAX_TICKS as f64 {
        return Err(invalid(
            TOP,
            "duration",
            format!(
                "{} s at {tick_rate} Hz is more than {MAX_TICKS} ticks",
                raw.duration
            ),
        ));
    }
    let character =
        character(&raw.character).map_err(|(key, message)| invalid("character", &key, message))?;

    let shape_margin = raw.shape_margin.unwrap_or(DEFAULT_SHAPE_MARGIN);
    if shape_margin < 0.0 {
        return Err(invalid(
            TOP,
            "shape_margin",
            format!("must be 0 m or more, got {shape_margin}"),
        ));
    }
    let mut world = World::new();
    for (index, solid) in raw.solid.into_iter().enumerate() {
        let table = format!("solid #{}", index + 1);
        let spec = solid_kind(solid)
            .map_err(|message| invalid(&table, &SOLID_KINDS.join(" | "), message))?;
        let solids = course::build(&spec, base).map_err(|e| invalid(&table, &e.key, e.message))?;
        for solid in solids {
            let solid = solid
                .with_margin(shape_margin)
                .map_err(|e| invalid(&table, "shape_margin", e.to_string()))?;
            world.add(solid);
        }
    }

    for (index, platform) in raw.platform.into_iter().enumerate() {
        let table = format!("platform #{}", index + 1);
        let motion = platform_motion(&platform).map_err(|(key, m)| invalid(&table, key, m))?;
        let spec = SolidSpec::Box(platform.cuboid);
        let solid = moving_solid(spec, base, shape_margin, &table, invalid)?;
        world.add_platform(solid, motion);
    }

    for (index, body) in raw.rigid_body.into_iter().enumerate() {
        let table = format!("rigid_body #{}", index + 1);
        if body.mass <= 0.0 {
            let message = format!("must be greater than 0 kg, got {}", body.mass);
            return Err(invalid(&table, "mass", message));
        }
        let (spec, center) = match (body.cuboid, body.ball) {
            (Some(cuboid), None) => (SolidSpec::Box(cuboid), cuboid.center),
            (None, Some(ball)) => (SolidSpec::Ball(ball), ball.center),
            _ => {
                let message = "a rigid body is one box or one ball".to_string();
                return Err(invalid(&table, "box", message));
            }
        };
        let velocity = Vec3::from(body.velocity.unwrap_or_default());
        let solid = moving_solid(spec, base, shape_margin, &table, invalid)?;
        world.add_movable(solid, Vec3::from(center), body.mass, velocity);
    }

    let input = segments(&raw.input, "input", invalid)?;
    let mut others = Vec::new();
    for (index, other) in raw.other_character.iter().enumerate() {
        let table = format!("other_character #{}", index + 1);
        if !world.movables().is_empty() {
            let message = "other characters and rigid bodies in one file are not supported yet \
                           (only the character's own world would move the bodies)";
            return Err(invalid(&table, "position", message.into()));
        }
        others.push(OtherCharacter {
            start: Vec3::from(other.position),
            input: segments(&other.input, &format!("{table} input"), invalid)?,
        });
    }

    validate_expectations(&raw.expect).map_err(|(key, message)| invalid("expect", key, message))?;

    Ok(Scenario {
        name: raw.name,
        tick_rate,
        duration: raw.duration,
        shape_margin,
        character,
        start: Start {
            position: Vec3::from(raw.start.position),
            velocity: Vec3::from(raw.start.velocity.unwrap_or([0.0; 3])),
        },
        world: Arc::new(world),
        input,
        others,
        expect: raw.expect,
    })
}

/// The box (or ball) of a `[[platform]]` or `[[rigid_body]]` table (`table`), with the shape
/// margin.
fn moving_solid(
    spec: SolidSpec,
    base: &Path,
    shape_margin: f32,
    table: &str,
    invalid: &dyn Fn(&str, &str, String) -> ScenarioError,
) -> Result<Solid, ScenarioError> {
    let solids = course::build(&spec, base).map_err(|e| invalid(table, &e.key, e.message))?;
    let solid = solids
        .into_iter()
        .next()
        .ok_or_else(|| invalid(table, "box", "builds no solid".into()))?;
    solid
        .with_margin(shape_margin)
        .map_err(|e| invalid(table, "shape_margin", e.to_string()))
}

/// The motion of a `[[platform]]`: it turns about the vertical axis through its box's centre.
/// Errors are `(key, message)`.
fn platform_motion(raw: &RawPlatform) -> Result<PlatformMotion, (&'static str, String)> {
    let velocity = Vec3::from(raw.velocity.unwrap_or([0.0; 3]));
    let turn = raw.angular_velocity_deg.unwrap_or(0.0);
    if !velocity.is_finite() || velocity.length() > MAX_PLATFORM_SPEED {
        return Err((
            "velocity",
            format!("must be finite and at most {MAX_PLATFORM_SPEED} m/s, got {velocity}"),
        ));
    }
    if !turn.is_finite() || turn.abs() > MAX_PLATFORM_TURN_DEG {
        return Err((
            "angular_velocity_deg",
            format!("must be finite and at most {MAX_PLATFORM_TURN_DEG} degrees/s, got {turn}"),
        ));
    }
    if let Some(every) = raw.reverse_every
        && !(every.is_finite() && every > 0.0)
    {
        return Err((
            "reverse_every",
            format!("must be greater than 0 s, got {every}"),
        ));
    }
    Ok(PlatformMotion {
        velocity,
        angular_velocity: turn.to_radians(),
        pivot: Vec3::from(raw.cuboid.center),
        reverse_every: raw.reverse_every,
    })
}

/// The one kind a `[[solid]]` table holds, or a message saying how many it had.
fn solid_kind(solid: RawSolid) -> Result<SolidSpec, String> {
    let mut kinds = Vec::new();
    if let Some(s) = solid.cuboid {
        kinds.push(("box", SolidSpec::Box(s)));
    }
    if let Some(s) = solid.stairs {
        kinds.push(("stairs", SolidSpec::Stairs(s)));
    }
    if let Some(s) = solid.spiral {
        kinds.push(("spiral", SolidSpec::Spiral(s)));
    }
    if let Some(s) = solid.ramp {
        kinds.push(("ramp", SolidSpec::Ramp(s)));
    }
    if let Some(s) = solid.convex {
        kinds.push(("convex", SolidSpec::Convex(s)));
    }
    if let Some(s) = solid.mesh {
        kinds.push(("mesh", SolidSpec::Mesh(s)));
    }
    if let Some(s) = solid.ball {
        kinds.push(("ball", SolidSpec::Ball(s)));
    }
    match kinds.len() {
        1 => Ok(kinds.remove(0).1),
        0 => Err(format!(
            "a solid needs exactly one kind, one of {}; found none",
            SOLID_KINDS.join(", ")
        )),
        _ => {
            let names: Vec<_> = kinds.iter().map(|(name, _)| *name).collect();
            Err(format!(
                "a solid needs exactly one kind; found {}",
                names.join(" and ")
            ))
        }
    }
}

/// The character's settings: the defaults of `kcc` and `kcc-parry` with the file's keys on top,
/// validated by the core. Errors are `(key, message)`.
fn character(raw: &RawCharacter) -> Result<Character, (String, String)> {
    let shape = match raw.shape.unwrap_or(ShapeKind::Capsule) {
        ShapeKind::Box => {
            if let Some(key) = [("radius", raw.radius), ("height", raw.height)]
                .iter()
                .find_map(|(key, value)| value.map(|_| *key))
            {
                return Err((
                    key.into(),
                    "a box is sized by `size`, not radius and height".into(),
                ));
            }
            CharacterShape::Box {
                size: Vec3::from(raw.size.unwrap_or([0.8, 1.8, 0.8])),
            }
        }
        kind => {
            if raw.size.is_some() {
                return Err((
                    "size".into(),
                    "`size` is for a box; a capsule or cylinder takes radius and height".into(),
                ));
            }
            let radius = raw.radius.unwrap_or(0.4);
            let height = raw.height.unwrap_or(1.8);
            if kind == ShapeKind::Capsule {
                CharacterShape::Capsule { radius, height }
            } else {
                CharacterShape::Cylinder { radius, height }
            }
        }
    };

    let mut controller = ControllerSettings::default();
    set(&mut controller.motion_mode, raw.motion_mode);
    let movement = &mut controller.movement;
    set(&mut movement.ground.max_speed, raw.max_speed);
    set(&mut movement.ground.attack_time, raw.attack_time);
    set(&mut movement.ground.release_time, raw.release_time);
    set(&mut movement.air.max_speed, raw.air_max_speed);
    set(&mut movement.air.attack_time, raw.air_attack_time);
    set(&mut movement.air.release_time, raw.air_release_time);
    set(
        &mut movement.constant_horizontal_speed,
        raw.constant_horizontal_speed,
    );
    let stairs = &mut controller.stairs;
    set(&mut stairs.step_up_enabled, raw.step_up_enabled);
    set(&mut stairs.step_down_enabled, raw.step_down_enabled);
    set(&mut stairs.max_step_height, raw.max_step_height);
    set(&mut stairs.min_step_depth, raw.min_step_depth);
    set(&mut stairs.min_step_forward, raw.min_step_forward);
    set(&mut stairs.step_forward_test, raw.step_forward_test);
    set(&mut stairs.sweep_iterations, raw.sweep_iterations);
    set(&mut stairs.ground_follow, raw.ground_follow);
    set(&mut stairs.step_onto_bodies, raw.step_onto_bodies);
    let gravity = &mut controller.gravity;
    set(&mut gravity.gravity, raw.gravity);
    set(&mut gravity.terminal_speed, raw.terminal_speed);
    set(&mut gravity.jump_velocity, raw.jump_velocity);
    let jump = &mut controller.jump;
    set(&mut jump.coyote_time, raw.coyote_time);
    set(&mut jump.buffer_time, raw.jump_buffer_time);
    set(&mut jump.release_cut, raw.jump_release_cut);
    let crouch = &mut controller.crouch;
    set(&mut crouch.height, raw.crouch_height);
    set(&mut crouch.max_speed, raw.crouch_max_speed);
    set(&mut crouch.max_step_height, raw.crouch_max_step_height);
    set(&mut controller.push.strength, raw.push_strength);
    set(&mut controller.push.mass, raw.mass);
    set(&mut controller.push.weight_on_bodies, raw.weight_on_bodies);

    let mut body = BodySettings {
        shape,
        motion_mode: controller.motion_mode,
        ..BodySettings::default()
    };
    set(&mut body.safe_margin, raw.safe_margin);
    set(
        &mut body.floor_max_angle,
        raw.floor_max_angle_deg.map(f32::to_radians),
    );
    set(&mut body.max_slides, raw.max_slides);
    set(&mut body.floor_snap_length, raw.floor_snap_length);
    set(
        &mut body.wall_min_slide_angle,
        raw.wall_min_slide_angle_deg.map(f32::to_radians),
    );
    set(&mut body.floor_stop_on_slope, raw.floor_stop_on_slope);
    set(&mut body.floor_block_on_wall, raw.floor_block_on_wall);
    set(&mut body.floor_constant_speed, raw.floor_constant_speed);
    set(&mut body.slide_on_ceiling, raw.slide_on_ceiling);
    body.float_height = controller.float_height();

    controller
        .validate()
        .and_then(|()| body.validate())
        .map_err(|e| (character_key(&e), e.to_string()))?;

    let camera_decay = raw.camera_decay.unwrap_or(20.0);
    if camera_decay <= 0.0 {
        return Err((
            "camera_decay".into(),
            format!("must be greater than 0 per second, got {camera_decay}"),
        ));
    }
    Ok(Character {
        controller,
        body,
        camera_decay,
    })
}

/// Overwrites `target` with `value` when the file gave one.
fn set<T>(target: &mut T, value: Option<T>) {
    if let Some(value) = value {
        *target = value;
    }
}

/// The `[character]` key a core configuration error is about.
fn character_key(error: &ConfigError) -> String {
    let setting = match error {
        ConfigError::NotFinite { setting, .. }
        | ConfigError::NonPositiveSpeed { setting, .. }
        | ConfigError::NonPositiveTime { setting, .. }
        | ConfigError::NonPositiveRate { setting, .. }
        | ConfigError::NegativeLength { setting, .. }
        | ConfigError::NegativeTime { setting, .. }
        | ConfigError::ShapeSize { setting, .. } => *setting,
        ConfigError::ReleaseCut { .. } => "jump.release_cut",
        ConfigError::NegativeStepHeight { .. } => "max_step_height",
        ConfigError::NoSweepIterations => "sweep_iterations",
        ConfigError::NegativeGravity { .. } => "gravity",
        ConfigError::NonPositiveTerminalSpeed { .. } => "terminal_speed",
        ConfigError::NegativeJumpVelocity { .. } => "jump_velocity",
        ConfigError::FloorMaxAngle { .. } => "floor_max_angle",
        ConfigError::SafeMargin { .. } => "safe_margin",
        ConfigError::UpDirection { .. } => "up_direction",
        ConfigError::NoSlides => "max_slides",
        ConfigError::NegativeForce { .. } => "push_strength",
        ConfigError::NonPositiveMass { .. } => "mass",
    };
    // The core names settings by path ("movement.air.attack_time", "shape.size.x"); the file
    // uses flat names, with `air_` for the air curve and `_deg` for angles.
    let setting = setting.split(' ').next().unwrap_or(setting);
    if setting.starts_with("shape.size") {
        return "size".into();
    }
    let name = setting.rsplit('.').next().unwrap_or(setting);
    match name {
        "floor_max_angle" | "wall_min_slide_angle" => format!("{name}_deg"),
        _ if setting.starts_with("movement.air.") => format!("air_{name}"),
        "buffer_time" | "release_cut" if setting.starts_with("jump.") => format!("jump_{name}"),
        _ if setting.starts_with("crouch.") => format!("crouch_{name}"),
        _ => name.into(),
    }
}

/// Ranges of the `[expect]` values. Errors are `(key, message)`.
fn validate_expectations(expect: &Expectations) -> Result<(), (&'static str, String)> {
    for (key, radius) in [
        ("reach.radius", expect.reach.map(|r| r.radius)),
        ("end_near.radius", expect.end_near.map(|r| r.radius)),
        (
            "other_end_near.radius",
            expect.other_end_near.map(|r| r.radius),
        ),
        ("rest_after.radius", expect.rest_after.map(|r| r.radius)),
        (
            "godot_physics.end_near_radius",
            expect.godot_physics.and_then(|g| g.end_near_radius),
        ),
        (
            "godot_physics.body_end_near_radius",
            expect.godot_physics.and_then(|g| g.body_end_near_radius),
        ),
    ] {
        if let Some(radius) = radius.filter(|r| *r <= 0.0) {
            return Err((key, format!("must be greater than 0 m, got {radius}")));
        }
    }
    if let Some(before) = expect.reach.and_then(|r| r.before).filter(|t| *t <= 0.0) {
        return Err((
            "reach.before",
            format!("must be greater than 0 s, got {before}"),
        ));
    }
    if let Some(ratio) = expect
        .min_grounded_ratio
        .filter(|r| !(0.0..=1.0).contains(r))
    {
        return Err((
            "min_grounded_ratio",
            format!("must be between 0 and 1, got {ratio}"),
        ));
    }
    for (key, value) in [
        ("speed_ratio_min", expect.speed_ratio_min),
        ("speed_ratio_max", expect.speed_ratio_max),
        ("max_step_per_tick", expect.max_step_per_tick),
        ("max_penetration", expect.max_penetration),
        (
            "godot_physics.max_penetration",
            expect.godot_physics.and_then(|g| g.max_penetration),
        ),
    ] {
        if let Some(value) = value.filter(|v| *v < 0.0) {
            return Err((key, format!("must be 0 or more, got {value}")));
        }
    }
    Ok(())
}

/// One step of a path into the TOML document.
#[derive(Debug, Clone, PartialEq)]
enum Segment {
    Key(String),
    Index(usize),
}

/// Depth-first search for a NaN or infinite float, or one too large for the `f32` the
/// simulation uses (it would become infinite there); returns its path and value.
fn first_non_finite(table: &toml::Table, path: &mut Vec<Segment>) -> Option<(Vec<Segment>, f64)> {
    for (key, value) in table {
        path.push(Segment::Key(key.clone()));
        if let Some(found) = non_finite_in(value, path) {
            return Some(found);
        }
        path.pop();
    }
    None
}

fn non_finite_in(value: &toml::Value, path: &mut Vec<Segment>) -> Option<(Vec<Segment>, f64)> {
    match value {
        toml::Value::Float(f) if !(*f as f32).is_finite() => Some((path.clone(), *f)),
        toml::Value::Table(table) => first_non_finite(table, path),
        toml::Value::Array(items) => {
            for (index, item) in items.iter().enumerate() {
                path.push(Segment::Index(index));
                if let Some(found) = non_finite_in(item, path) {
                    return Some(found);
                }
                path.pop();
            }
            None
        }
        _ => None,
    }
}

/// The path of a deserialization error as segments.
fn path_segments(path: &serde_path_to_error::Path) -> Vec<Segment> {
    path.iter()
        .filter_map(|segment| match segment {
            serde_path_to_error::Segment::Map { key } => Some(Segment::Key(key.clone())),
            serde_path_to_error::Segment::Seq { index } => Some(Segment::Index(*index)),
            serde_path_to_error::Segment::Enum { variant } => Some(Segment::Key(variant.clone())),
            serde_path_to_error::Segment::Unknown => None,
        })
        .collect()
}

/// Splits a path into the table (`top level`, `character`, `solid #2`, ...) and the key inside
/// it (dotted, with `[i]` for array elements counted from 0).
fn table_and_key(segments: &[Segment]) -> (String, String) {
    let (table, rest) = match segments {
        [
            Segment::Key(name),
            Segment::Index(i),
            Segment::Key(input),
            Segment::Index(j),
            rest @ ..,
        ] if name == "other_character" && input == "input" => {
            (format!("{name} #{} input #{}", i + 1, j + 1), rest)
        }
        [Segment::Key(name), Segment::Index(i), rest @ ..]
            if [
                "solid",
                "platform",
                "rigid_body",
                "input",
                "other_character",
            ]
            .contains(&name.as_str()) =>
        {
            (format!("{name} #{}", i + 1), rest)
        }
        [Segment::Key(name), rest @ ..]
            if ["character", "start", "expect"].contains(&name.as_str()) && !rest.is_empty() =>
        {
            (name.clone(), rest)
        }
        _ => ("top level".to_string(), segments),
    };
    let mut key = String::new();
    for segment in rest {
        match segment {
            Segment::Key(k) => {
                if !key.is_empty() {
                    key.push('.');
                }
                key.push_str(k);
            }
            Segment::Index(i) => key.push_str(&format!("[{i}]")),
        }
    }
    (table, key)
}

/// The field named by serde's "missing field `x`" message.
fn missing_field(message: &str) -> Option<&str> {
    let rest = message.strip_prefix("missing field `")?;
    rest.split('`').next()
}

/// Line and column (from 1) of byte `offset` in `text`.
fn line_and_column(text: &str, offset: usize) -> (usize, usize) {
    let before = &text[..offset.min(text.len())];
    let line = before.matches('\n').count() + 1;
    let column = before.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
    (line, column)
}
