//! Numbers that describe a run: floor contact, speed, steps, penetration, cost.

use glam::Vec3;

use crate::run::{GodotTick, Run, TickRecord};
use crate::scenario::Scenario;

/// Smallest, mean and largest of a series.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Spread {
    /// Smallest value.
    pub min: f64,
    /// Mean value.
    pub mean: f64,
    /// Largest value.
    pub max: f64,
}

impl Spread {
    /// The spread of `values`, `None` when there are none.
    pub fn of(values: impl IntoIterator<Item = f64>) -> Option<Self> {
        let mut count = 0usize;
        let mut spread = Self {
            min: f64::INFINITY,
            mean: 0.0,
            max: f64::NEG_INFINITY,
        };
        for value in values {
            count += 1;
            spread.min = spread.min.min(value);
            spread.max = spread.max.max(value);
            spread.mean += value;
        }
        (count > 0).then(|| Self {
            mean: spread.mean / count as f64,
            ..spread
        })
    }
}

/// What a run measured.
#[derive(Debug, Clone, PartialEq)]
pub struct Metrics {
    /// Ticks run.
    pub ticks: usize,
    /// Bottom of the shape after the last tick, m.
    pub final_position: Vec3,
    /// Ticks off the floor after the first tick on it (every tick if it never stood on floor).
    pub airborne_ticks: usize,
    /// Share of ticks on the floor from the first tick on it (0 if it never stood on floor).
    pub grounded_ratio: f64,
    /// Horizontal speed (distance moved per tick over the tick time) while input is held,
    /// after the ground attack time, m/s. `None` when no tick qualifies.
    pub horizontal_speed: Option<Spread>,
    /// The same ticks' speed as a share of the target speed (ground `max_speed` times how far
    /// the stick is pushed).
    pub speed_ratio: Option<Spread>,
    /// Ticks with a step up.
    pub steps_up: usize,
    /// Ticks with a step down.
    pub steps_down: usize,
    /// Largest vertical move of one tick, m.
    pub max_step_per_tick: f64,
    /// Deepest overlap with any solid after a tick, m.
    pub max_penetration: f64,
    /// Highest the bottom of the shape went, m.
    pub highest: f64,
    /// Largest change of the smoothed camera's height in one tick (the body's height plus the
    /// camera's offset), m: how smooth the view is.
    pub camera_max_change: f64,
    /// Motion queries per tick, when the controller counts them.
    pub queries_per_tick: Option<Spread>,
    /// Round trips to the engine per tick (Godot world only).
    pub round_trips_per_tick: Option<Spread>,
    /// Median time Godot spent in the port's calls of a tick, by Godot's own clock, us (Godot
    /// world only): the controller's physics cost inside a game. The median, as the first
    /// ticks of a scene pay for warming up (tens of ms).
    pub godot_physics_us_median: Option<f64>,
    /// The same over the ticks with a step (up or down), us.
    pub godot_physics_us_step_median: Option<f64>,
    /// How Godot's own state of the body followed the controller (Godot world only).
    pub godot_state: Option<GodotState>,
    /// Median wall time of one tick, ns.
    pub ns_per_tick_median: u64,
}

/// How Godot's `CharacterBody3D` state looked after each tick of a run of our controller: what
/// a script reading the body would see (in the parry world, its imitation of Godot's state).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct GodotState {
    /// Largest difference between `get_real_velocity()` and the real velocity the tick
    /// reports (`kcc::TickReport::real_velocity`: its displacement over the tick time), over
    /// the ticks the controller did not move the body by a step outside the slide, m/s.
    pub real_velocity_error_max: f64,
    /// Ticks of those where that difference is above 5 % of the motion's speed and above
    /// [`REAL_VELOCITY_TOLERANCE`].
    pub real_velocity_disagreements: usize,
    /// Ticks after which `is_on_wall()` was true.
    pub on_wall_ticks: usize,
    /// Ticks whose slide collisions include a wall.
    pub wall_collision_ticks: usize,
    /// Largest `get_slide_collision_count()` after a tick.
    pub slide_collisions_max: u32,
    /// Share of ticks after which `is_on_floor()` says what the controller says of the body
    /// (`kcc::TickReport::on_floor`), 0 to 1: what an animation tree keyed on Godot's floor
    /// state sees of the controller's.
    pub floor_agreement: f64,
    /// The ticks after which `is_on_floor()` said otherwise than the controller, by why.
    pub floor_differences: FloorDifferences,
}

/// Ticks after which Godot's `is_on_floor()` said otherwise than the controller's own floor
/// state, sorted by why (see `docs/floor-state.md`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct FloorDifferences {
    /// Ticks with a stair move (a climb, a step down): the engine's floor flag is its last
    /// slide's, and that slide's last contact was the riser, or nothing under a body the climb
    /// put level over the step's edge.
    pub step_ticks: usize,
    /// Other ticks on which the controller has the body standing where the engine sees no
    /// floor: held over a stair's edge by the flat base (the node's `GROUND_ON_EDGE`), or
    /// floating above the ground with `ground_follow = Smooth`.
    pub standing_unseen: usize,
    /// Ticks on which the engine says floor and the controller does not: none is expected.
    pub engine_only: usize,
}

impl FloorDifferences {
    /// The differences of `ticks`: each with the controller's tick and Godot's state after it.
    fn of(ticks: &[(&TickRecord, GodotTick)]) -> Self {
        let mut differences = Self::default();
        for (tick, godot) in ticks.iter().filter(|(t, g)| g.on_floor != t.on_floor) {
            if tick.stair_moved || tick.stepped.is_some() {
                differences.step_ticks += 1;
            } else if tick.on_floor && !godot.on_floor {
                differences.standing_unseen += 1;
            } else {
                differences.engine_only += 1;
            }
        }
        differences
    }
}

/// Smallest difference between `get_real_velocity()` and a tick's reported real velocity that counts as a
/// disagreement, m/s.
pub const REAL_VELOCITY_TOLERANCE: f64 = 0.05;

/// Share of the motion's speed by which `get_real_velocity()` may differ from it.
pub const REAL_VELOCITY_SHARE: f64 = 0.05;

impl GodotState {
    /// The state of the ticks of `run` (`None` when the world kept none: Rapier's runs).
    pub fn of(run: &Run) -> Option<Self> {
        let ticks: Vec<_> = run
            .ticks
            .iter()
            .map(|t| t.godot.map(|g| (t, g)))
            .collect::<Option<_>>()?;
        if ticks.is_empty() {
            return None;
        }
        // (error, whether it is a disagreement) of each tick without a step, made whole: the
        // engine's state after a tick split into sub-steps is its last sub-step's.
        let errors: Vec<(f64, bool)> = ticks
            .iter()
            .filter(|(t, _)| !t.stair_moved && t.substeps <= 1)
            .map(|(t, g)| {
                let motion = t.real_velocity.as_dvec3();
                let error = g.real_velocity.as_dvec3().distance(motion);
                let allowed = (motion.length() * REAL_VELOCITY_SHARE).max(REAL_VELOCITY_TOLERANCE);
                (error, error > allowed)
            })
            .collect();
        Some(Self {
            real_velocity_error_max: errors.iter().map(|e| e.0).fold(0.0, f64::max),
            real_velocity_disagreements: errors.iter().filter(|e| e.1).count(),
            on_wall_ticks: ticks.iter().filter(|(_, g)| g.on_wall).count(),
            wall_collision_ticks: ticks.iter().filter(|(_, g)| g.slide_hit_wall).count(),
            slide_collisions_max: ticks
                .iter()
                .map(|(_, g)| g.slide_collisions)
                .max()
                .unwrap_or(0),
            floor_agreement: ticks
                .iter()
                .filter(|(t, g)| g.on_floor == t.on_floor)
                .count() as f64
                / ticks.len() as f64,
            floor_differences: FloorDifferences::of(&ticks),
        })
    }
}

/// Measures `run` of `scenario`.
pub fn measure(scenario: &Scenario, run: &Run) -> Metrics {
    let ticks = &run.ticks;
    let dt = 1.0 / run.tick_rate;
    let (airborne_ticks, grounded_ratio) = match ticks.iter().position(|t| t.on_floor) {
        Some(first) => {
            let window = &ticks[first..];
            let airborne = window.iter().filter(|t| !t.on_floor).count();
            let ratio = (window.len() - airborne) as f64 / window.len() as f64;
            (airborne, ratio)
        }
        None => (ticks.len(), 0.0),
    };

    let ground = scenario.character.controller.movement.ground;
    let mut before = run.start;
    let mut speeds = Vec::new();
    let mut ratios = Vec::new();
    let mut max_step = 0.0f64;
    let mut camera = f64::from(run.start.y);
    let mut camera_max_change = 0.0f64;
    for tick in ticks {
        let view = f64::from(tick.position.y + tick.camera_offset);
        camera_max_change = camera_max_change.max((view - camera).abs());
        camera = view;
        let moved = tick.position - before;
        before = tick.position;
        max_step = max_step.max(f64::from(moved.y.abs()));
        let after_attack = tick
            .input_held
            .is_some_and(|held| held >= f64::from(ground.attack_time));
        if after_attack && tick.input_strength > 0.0 {
            let speed = f64::from(moved.with_y(0.0).length()) / dt;
            speeds.push(speed);
            ratios.push(speed / f64::from(ground.max_speed * tick.input_strength));
        }
    }

    let mut nanos: Vec<u64> = ticks.iter().map(|t| t.nanos).collect();
    nanos.sort_unstable();
    let queries: Option<Vec<f64>> = ticks.iter().map(|t| t.queries.map(|q| q as f64)).collect();
    let round_trips: Option<Vec<f64>> = ticks
        .iter()
        .map(|t| t.round_trips.map(|q| q as f64))
        .collect();
    let physics_us: Vec<u64> = ticks.iter().filter_map(|t| t.godot_physics_us).collect();
    let step_physics_us: Vec<u64> = ticks
        .iter()
        .filter(|t| t.stepped.is_some())
        .filter_map(|t| t.godot_physics_us)
        .collect();

    Metrics {
        ticks: ticks.len(),
        final_position: ticks.last().map_or(run.start, |t| t.position),
        airborne_ticks,
        grounded_ratio,
        horizontal_speed: Spread::of(speeds),
        speed_ratio: Spread::of(ratios),
        steps_up: ticks
            .iter()
            .filter(|t| t.stepped.is_some_and(|dy| dy > 0.0))
            .count(),
        steps_down: ticks
            .iter()
            .filter(|t| t.stepped.is_some_and(|dy| dy < 0.0))
            .count(),
        max_step_per_tick: max_step,
        max_penetration: ticks
            .iter()
            .map(|t| f64::from(t.penetration))
            .fold(0.0, f64::max),
        highest: ticks
            .iter()
            .map(|t| f64::from(t.position.y))
            .fold(f64::from(run.start.y), f64::max),
        camera_max_change,
        queries_per_tick: queries.and_then(Spread::of),
        round_trips_per_tick: round_trips.and_then(Spread::of),
        godot_physics_us_median: median(physics_us),
        godot_physics_us_step_median: median(step_physics_us),
        godot_state: GodotState::of(run),
        ns_per_tick_median: nanos.get(nanos.len() / 2).copied().unwrap_or(0),
    }
}

/// The median of `values` (the mean of the middle two for an even count), `None` when empty.
fn median(mut values: Vec<u64>) -> Option<f64> {
    values.sort_unstable();
    let n = values.len();
    match n {
        0 => None,
        _ if n % 2 == 1 => Some(values[n / 2] as f64),
        _ => Some((values[n / 2 - 1] + values[n / 2]) as f64 / 2.0),
    }
}
