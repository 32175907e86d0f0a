//! What the peer controllers (Rapier's, Jolt's) share ([`PeerMover`]): our movement model's
//! velocity for the tick, the velocity carried to the next, and how their stair steps and
//! overlaps are measured with our own geometry (they report neither), so their records compare
//! with ours. Each peer is an [`Engine`] that moves the body for a tick.

use glam::Vec3;
use kcc::floor::horizontal;
use kcc::movement::{horizontal_velocity, vertical_speed};
use kcc::surface::slope_angle;
use kcc::{ControllerSettings, JumpState, KinematicBody};
use kcc_parry::ParryBody;

use crate::run::{Command, Moved, Mover};
use crate::scenario::{OtherCharacter, Scenario};

/// A tick counts as a stair step for a peer (which reports none) when the body is on the floor
/// before and after and its vertical move exceeds, by more than this (m), what the steeper of the
/// floors under it before and after explains over the horizontal distance moved. Our
/// controller's own rule for steps down uses the same 1 cm.
pub const STEP_TOLERANCE: f32 = 0.01;

/// The shape of the scenario's character while crouched (the crouch's height, never taller
/// than standing; its bottom stays where it was) and its step height then, m: what a peer
/// that crouches changes its shape and steps to.
pub(crate) fn crouched(scenario: &Scenario) -> (kcc_parry::CharacterShape, f32) {
    let character = &scenario.character;
    let standing = character.body.shape;
    let settings = character.controller;
    let height = settings.crouch.height.min(standing.height());
    (
        standing.with_height(height),
        settings.while_crouched().stairs.max_step_height,
    )
}

/// `scenario` seen from its other character `spec`: the same character and world, starting
/// where that one starts, at rest.
#[cfg(feature = "jolt")]
pub(crate) fn as_other(scenario: &Scenario, spec: &OtherCharacter) -> Scenario {
    let mut other = scenario.clone();
    other.start.position = spec.start;
    other.start.velocity = Vec3::ZERO;
    other
}

/// The velocity our movement model asks of a peer for one tick, m/s.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct Wish {
    /// Horizontal velocity, m/s.
    pub(crate) run: Vec3,
    /// Vertical speed (gravity, a jump), m/s, positive up.
    pub(crate) rise: f32,
}

/// Our movement model's velocity for a tick of `dt` s of `command`, from the `velocity` (m/s)
/// carried from the last tick, on the floor or in the air (`grounded`), with the jump's memory
/// `jumps` (coyote time, jump buffer, variable height, as our controller's).
pub(crate) fn wish(
    settings: &ControllerSettings,
    command: &Command,
    velocity: Vec3,
    grounded: bool,
    jumps: &mut JumpState,
    dt: f32,
) -> Wish {
    let movement = &settings.movement;
    let curve = if grounded {
        &movement.ground
    } else {
        &movement.air
    };
    let wish = horizontal(command.wish, Vec3::Y).clamp_length_max(1.0);
    let run = horizontal_velocity(horizontal(velocity, Vec3::Y), wish, curve, dt);
    let starts = jumps.start(command.jump, grounded, dt, &settings.jump);
    let (rise, _) = vertical_speed(velocity.y, starts, &settings.gravity, dt);
    let rise = jumps.cut(rise, &settings.jump);
    Wish { run, rise }
}

/// The velocity carried to the next tick after a peer moved the body by `translation` (m) in
/// `dt` (s), ending on the floor or not (`grounded`): horizontally, the movement model's own
/// (peers return a translation, not a slid velocity); vertically, zero on the floor, the rise
/// made when a jump was cut short by a ceiling, and the asked-for speed otherwise.
fn carried(wish: Wish, translation: Vec3, grounded: bool, dt: f32) -> Vec3 {
    let made_rise = translation.y / dt;
    let vertical = if wish.rise > 0.0 {
        wish.rise.min(made_rise.max(0.0))
    } else if grounded {
        0.0
    } else {
        wish.rise
    };
    wish.run + Vec3::Y * vertical
}

/// What a peer engine's move of one tick made: the translation (m) and whether the body ends
/// standing on walkable floor; or why the engine refused.
pub type EngineMove = Result<(Vec3, bool), String>;

/// A peer controller's own collision, stair and slide handling.
pub trait Engine {
    /// Moves the body, its bottom at `position` (m), with `velocity` (m/s) for `dt` (s): the
    /// translation it made (m) and whether it ends standing on walkable floor. The error says
    /// why the engine refused (the run ends with it).
    fn move_body(&mut self, position: Vec3, velocity: Vec3, dt: f32) -> EngineMove;

    /// Crouches (`wanted`) or stands up, the body's bottom at `position` (m), changing the
    /// shape to the crouch's height and back as the engine's users do; standing up only where
    /// the standing shape fits. Returns whether the body is crouched afterwards. An engine
    /// without it never crouches.
    fn set_crouched(&mut self, _wanted: bool, _position: Vec3) -> bool {
        false
    }

    /// The engine moves the scenario's platforms (their motions, tick by tick); otherwise they
    /// stand still where they start, and the body is measured against them there.
    fn moves_platforms(&self) -> bool {
        false
    }

    /// The scenario's rigid bodies where the engine's simulation has them after the last tick:
    /// each one's centre of mass (m), rotation from where it started, velocity (m/s) and
    /// angular velocity (rad/s), in the file's order. Empty when the engine does not simulate
    /// them (they stand still where they start, as the peer meets them).
    fn movables(&self) -> Vec<(Vec3, glam::DQuat, Vec3, Vec3)> {
        Vec::new()
    }
}

/// A peer controller fed our movement model's velocities, measured with our geometry.
pub struct PeerMover<E> {
    /// The engine, or why it could not be made or stopped (the run then ends with it).
    engine: Result<E, String>,
    settings: ControllerSettings,
    position: Vec3,
    velocity: Vec3,
    grounded: bool,
    crouched: bool,
    jumps: JumpState,
    observer: Observer,
    /// The scenario's other characters, each moved by an engine of the same kind in the same
    /// world (empty when the engine has no characters meeting each other).
    others: Vec<(PeerMover<E>, OtherCharacter)>,
}

impl<E: Engine> PeerMover<E> {
    /// The scenario's character at its start, moved by `engine` (or never moved, the run
    /// ending with the error).
    pub fn with_engine(scenario: &Scenario, engine: Result<E, String>) -> Self {
        Self {
            engine,
            settings: scenario.character.controller,
            position: scenario.start.position,
            velocity: scenario.start.velocity,
            grounded: false,
            crouched: false,
            jumps: JumpState::default(),
            observer: Observer::new(scenario),
            others: Vec::new(),
        }
    }

    /// This mover with the scenario's other characters, moved by `engines` (one per
    /// `[[other_character]]`, in order, each in this engine's world): the observer then
    /// measures this character against them. Jolt's peer has them (Rapier's controller has no
    /// characters meeting each other).
    #[cfg(feature = "jolt")]
    pub(crate) fn with_others(
        mut self,
        scenario: &Scenario,
        engines: Vec<Result<E, String>>,
    ) -> Self {
        self.observer = Observer::among(scenario);
        self.others = scenario
            .others
            .iter()
            .zip(engines)
            .map(|(spec, engine)| {
                let other = as_other(scenario, spec);
                (PeerMover::with_engine(&other, engine), spec.clone())
            })
            .collect();
        self
    }
}

impl<E: Engine> Mover for PeerMover<E> {
    fn position(&self) -> Vec3 {
        self.position
    }

    fn tick(&mut self, command: &Command, dt: f32) -> Moved {
        if command.crouch != self.crouched
            && let Ok(engine) = &mut self.engine
        {
            self.crouched = engine.set_crouched(command.crouch, self.position);
            let shape = if self.crouched {
                self.observer.crouched
            } else {
                self.observer.standing
            };
            self.observer.probe.set_shape_height(shape.height());
        }
        let settings = if self.crouched {
            self.settings.while_crouched()
        } else {
            self.settings
        };
        let wish = wish(
            &settings,
            command,
            self.velocity,
            self.grounded,
            &mut self.jumps,
            dt,
        );
        let velocity = wish.run + Vec3::Y * wish.rise;
        let moved = match &mut self.engine {
            Ok(engine) => engine.move_body(self.position, velocity, dt),
            Err(error) => Err(error.clone()),
        };
        match moved {
            Ok((translation, grounded)) => {
                self.observer.moved(translation, self.grounded);
                if self.engine.as_ref().is_ok_and(|e| e.moves_platforms()) {
                    self.observer.advance(dt);
                }
                self.position += translation;
                if let Ok(engine) = &self.engine {
                    self.observer.place_movables(engine.movables());
                }
                self.grounded = grounded;
                self.jumps.end(grounded, dt);
                self.velocity = carried(wish, translation, grounded, dt);
                Moved {
                    velocity: self.velocity,
                    real_velocity: translation / dt,
                    on_floor: grounded,
                    stair_moved: false,
                    crouched: self.crouched,
                    substeps: 1,
                }
            }
            Err(error) => {
                self.engine = Err(error);
                Moved {
                    velocity: self.velocity,
                    real_velocity: Vec3::ZERO,
                    on_floor: self.grounded,
                    stair_moved: false,
                    crouched: self.crouched,
                    substeps: 1,
                }
            }
        }
    }

    fn stepped(&mut self) -> Option<f32> {
        self.observer.stepped(self.position, self.grounded)
    }

    fn penetration(&mut self) -> f32 {
        self.observer.penetration(self.position)
    }

    fn queries(&self) -> Option<u64> {
        None
    }

    fn movables(&self) -> Vec<Vec3> {
        self.observer.movables(|m| m.center_now())
    }

    fn move_others(&mut self, time: f64, dt: f32) -> Vec<Vec3> {
        let mut places = Vec::with_capacity(self.others.len());
        for (mover, spec) in &mut self.others {
            mover.tick(&Command::of(spec.input_at(time)), dt);
            places.push(mover.position);
        }
        self.observer.place_characters(&places);
        places
    }

    fn movable_turns(&self) -> Vec<f32> {
        self.observer.movables(|m| m.turn_now())
    }

    fn failure(&mut self) -> Option<String> {
        self.engine.as_ref().err().cloned()
    }
}

/// Measures a peer's body with our geometry: a body in the parry world follows it, so floor
/// slopes and overlaps are read as our controller would see them.
pub(crate) struct Observer {
    probe: ParryBody,
    /// The body's standing shape and its crouched one (see [`crouched`]): the probe's.
    standing: kcc_parry::CharacterShape,
    crouched: kcc_parry::CharacterShape,
    /// Time of the platforms' places in the probe's world, s.
    time: f64,
    reach: f32,
    /// The last tick's move, m, and whether it began on the floor.
    last_move: (Vec3, bool),
    /// Slope of the floor under the body after the last tick, rad.
    slope: f32,
    /// The engine placed the rigid bodies of the probe's world (it simulates them).
    moved_bodies: bool,
}

impl Observer {
    /// An observer of the scenario's character, at its start.
    pub(crate) fn new(scenario: &Scenario) -> Self {
        let character = &scenario.character;
        let probe = ParryBody::new(
            scenario.world.clone(),
            character.body,
            scenario.start.position,
        )
        .expect("validated body settings");
        Self {
            standing: character.body.shape,
            crouched: crouched(scenario).0,
            probe,
            time: 0.0,
            reach: character.controller.stairs.max_step_height.max(0.1),
            last_move: (Vec3::ZERO, false),
            slope: 0.0,
            moved_bodies: false,
        }
    }

    /// An observer of the scenario's character among its other characters (where they start):
    /// the probe's world holds them, and [`Observer::place_characters`] moves them.
    #[cfg(feature = "jolt")]
    pub(crate) fn among(scenario: &Scenario) -> Self {
        let mut observer = Self::new(scenario);
        let body = scenario.character.body;
        let starts: Vec<Vec3> = scenario.others.iter().map(|o| o.start).collect();
        let world = crate::run::with_characters(&scenario.world, &body, &starts);
        observer.probe =
            ParryBody::new(world, body, scenario.start.position).expect("validated body settings");
        observer
    }

    /// Puts the other characters of the probe's world (see [`Observer::among`]) where they
    /// stand now (bottom of the shape, m), in the file's order.
    pub(crate) fn place_characters(&mut self, places: &[Vec3]) {
        let settings = *self.probe.settings();
        for (which, place) in places.iter().enumerate() {
            self.probe.place_character(which, &settings, *place);
        }
    }

    /// Moves the platforms of the probe's world on by a tick of `dt` (s), as the engine moved
    /// its own.
    pub(crate) fn advance(&mut self, dt: f32) {
        self.time += f64::from(dt);
        self.probe.set_time(self.time);
    }

    /// Puts the rigid bodies of the probe's world where the engine's simulation has them (see
    /// [`Engine::movables`]); nothing when it does not simulate them.
    pub(crate) fn place_movables(&mut self, places: Vec<(Vec3, glam::DQuat, Vec3, Vec3)>) {
        if !places.is_empty() {
            self.probe.place_movables(places);
            self.moved_bodies = true;
        }
    }

    /// What `of` says of each rigid body of the probe's world, in the file's order: empty when
    /// the engine did not move any (a peer that does not simulate them).
    fn movables<T>(&self, of: impl Fn(&kcc_parry::Movable) -> T) -> Vec<T> {
        if !self.moved_bodies {
            return Vec::new();
        }
        self.probe.world().movables().iter().map(of).collect()
    }

    /// Records a tick's move: `translation` (m), begun on the floor or not (`was_grounded`).
    pub(crate) fn moved(&mut self, translation: Vec3, was_grounded: bool) {
        self.last_move = (translation, was_grounded);
    }

    /// Vertical travel of the last tick's stair step, m, for a body now at `position` (m) and on
    /// the floor or not (`grounded`); see [`STEP_TOLERANCE`].
    pub(crate) fn stepped(&mut self, position: Vec3, grounded: bool) -> Option<f32> {
        let (translation, was_grounded) = self.last_move;
        let slope_before = self.slope;
        self.slope = self.floor_slope(position);
        if !(was_grounded && grounded) {
            return None;
        }
        let distance = horizontal(translation, Vec3::Y).length();
        let explained = distance * slope_before.max(self.slope).tan();
        (translation.y.abs() > explained + STEP_TOLERANCE).then_some(translation.y)
    }

    /// Deepest overlap of the body at `position` (m) with any solid, m.
    fn penetration(&mut self, position: Vec3) -> f32 {
        self.probe.set_position(position);
        self.probe.penetration()
    }

    /// Slope of the floor under the body at `position` (m), rad (0 when there is none in
    /// reach).
    fn floor_slope(&mut self, position: Vec3) -> f32 {
        self.probe.set_position(position);
        self.probe
            .test_move(position, Vec3::NEG_Y * self.reach)
            .contact
            .and_then(|c| slope_angle(c.normal, Vec3::Y))
            .unwrap_or(0.0)
    }
}
