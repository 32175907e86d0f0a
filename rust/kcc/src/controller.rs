//! One physics tick of the character, as a sequence of named stages.
//!
//! [`Controller::tick`]: sanitize the input, wish direction to horizontal velocity (ADSR),
//! gravity and jump, then [`Controller::move_and_step`]: step up, move (horizontal pass, then
//! vertical pass, on the floor; one pass in the air), step down, report.

use glam::Vec3;

use crate::body::{Contact, KinematicBody, MotionTest};
use crate::crouch::CrouchState;
use crate::error::ConfigError;
use crate::flat_base::{self, SetDown};
use crate::floor::{horizontal, unit_up, vertical};
use crate::ground::{self, Ground};
use crate::jump::JumpState;
use crate::movement::{along_floor, horizontal_velocity, vertical_speed};
use crate::settings::{ControllerSettings, GroundFollow, StepDetection};
use crate::stairs::{Ahead, MIN_STEP_RISE, STEP_DOWN_TOLERANCE, step_down, step_up};
use crate::surface::{is_gentle, is_level, same_normal, same_slope, supports};

/// Longest simulated time of one sub-step, s. A longer delta is split.
pub const MAX_SUBSTEP: f32 = 0.05;

/// Longest delta a tick simulates, s. A longer hitch (a 2 s freeze, say) is clamped to this,
/// so the character never jumps through the world after a stall.
pub const MAX_DELTA: f32 = 0.25;

/// Fastest velocity a tick accepts, m/s (10 km/s: far beyond any game); a longer one is
/// shortened to it, so a tick's motion can never overflow.
pub const MAX_VELOCITY: f32 = 1.0e4;

/// Farthest a body may be from the world's origin on any axis, m (10 000 km). Beyond it `f32`
/// positions have no useful precision left, and the body is not moved.
pub const MAX_COORDINATE: f32 = 1.0e7;

/// Motions shorter than this are not made, m.
const MIN_MOTION: f32 = 1e-6;

/// What the player or game code asks of the character this tick.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct TickInput {
    /// Where to go, world space: direction, and length for how far the stick is pushed (0..1;
    /// longer is clamped to 1). Its vertical part is ignored.
    pub wish_direction: Vec3,
    /// Jump if standing on floor.
    pub jump: bool,
    /// The character's velocity before the tick, m/s (Godot's `velocity` property).
    pub velocity: Vec3,
    /// Crouch while held; stand up once released and there is room (see [`crate::crouch`]).
    /// Only [`Controller::tick_with`] crouches: it keeps the standing height.
    pub crouch: bool,
}

/// What a character remembers between ticks besides its velocity: the jump's timers and its
/// crouch. Start with `CharacterState::default()` and pass the same value to every tick
/// ([`Controller::tick_with`]).
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct CharacterState {
    /// Coyote time, jump buffer and the rising jump (see [`crate::jump`]).
    pub jump: JumpState,
    /// Whether the body crouches, and its standing height (see [`crate::crouch`]).
    pub crouch: CrouchState,
}

/// Which inputs of a tick were unusable and replaced (see [`Controller::tick`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Sanitized {
    /// The wish direction was NaN or infinite and counted as no input.
    pub wish_direction: bool,
    /// The velocity was NaN or infinite (reset to zero) or faster than [`MAX_VELOCITY`]
    /// (shortened to it).
    pub velocity: bool,
    /// The delta was zero, negative or not finite: nothing moved.
    pub delta: bool,
    /// The delta was longer than [`MAX_DELTA`] and was clamped.
    pub delta_clamped: bool,
    /// The body's position was not finite or beyond [`MAX_COORDINATE`]: nothing moved.
    pub position: bool,
}

impl Sanitized {
    /// True when any input was replaced.
    pub fn any(&self) -> bool {
        self.wish_direction || self.velocity || self.delta || self.delta_clamped || self.position
    }
}

/// What happened during a tick.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct TickReport {
    /// Velocity after the tick, m/s; write it back to the body. As Godot's `velocity` after
    /// `move_and_slide`, it is the body's own: horizontal on a ramp, without a platform's.
    pub velocity: Vec3,
    /// How fast the body really moved this tick, m/s: its displacement over the tick's delta
    /// (zero when nothing moved). On a tick without a stair step this is what Godot's
    /// `get_real_velocity()` says after the tick; on a ramp it follows the slope, on a platform
    /// it includes the ride.
    pub real_velocity: Vec3,
    /// Height gained by stepping up this tick, m (0 or more).
    pub step_up: f32,
    /// Height lost by stepping down this tick, m (0 or less), including drops that only follow
    /// a sloped floor. A step down that found the floor right where the body was can report a
    /// fraction of a millimetre up: the engine's recovery out of that floor.
    pub step_down: f32,
    /// Vertical travel of the stair steps this tick, m, for the `stepped` signal and the camera:
    /// step ups plus those step downs that were steps. `None` when there was no step.
    pub stepped: Option<f32>,
    /// The body stood on floor when the tick began.
    pub was_on_floor: bool,
    /// The body stands on floor after the tick.
    pub on_floor: bool,
    /// A jump started this tick.
    pub jumped: bool,
    /// The body is crouched after the tick (its shape shrunk to the crouch height).
    pub crouched: bool,
    /// Number of sub-steps the delta was split into.
    pub substeps: u32,
    /// Inputs that were unusable and replaced.
    pub sanitized: Sanitized,
}

impl TickReport {
    /// The body came down on floor this tick.
    pub fn landed(&self) -> bool {
        !self.was_on_floor && self.on_floor
    }

    /// The body left the floor this tick (walked off a ledge or jumped).
    pub fn left_floor(&self) -> bool {
        self.was_on_floor && !self.on_floor
    }

    fn absorb(&mut self, part: &TickReport) {
        self.velocity = part.velocity;
        self.step_up += part.step_up;
        self.step_down += part.step_down;
        self.stepped = match (self.stepped, part.stepped) {
            (Some(a), Some(b)) => Some(a + b),
            (a, b) => a.or(b),
        };
        self.on_floor = part.on_floor;
        self.jumped |= part.jumped;
        self.crouched = part.crouched;
        self.substeps += 1;
    }
}

/// The character controller: settings plus the tick. It keeps no state between ticks; the
/// velocity lives on the body and the curve position is recovered from it.
#[derive(Debug, Clone, PartialEq)]
pub struct Controller {
    settings: ControllerSettings,
}

impl Default for Controller {
    /// A controller with [`ControllerSettings::default`].
    fn default() -> Self {
        Self {
            settings: ControllerSettings::default(),
        }
    }
}

impl Controller {
    /// A controller with validated settings.
    pub fn new(settings: ControllerSettings) -> Result<Self, ConfigError> {
        settings.validate()?;
        Ok(Self { settings })
    }

    /// The settings in use.
    pub fn settings(&self) -> &ControllerSettings {
        &self.settings
    }

    /// Replaces the settings if they are valid; otherwise keeps the old ones.
    pub fn set_settings(&mut self, settings: ControllerSettings) -> Result<(), ConfigError> {
        settings.validate()?;
        self.settings = settings;
        Ok(())
    }

    /// Runs one physics tick of `dt` seconds.
    ///
    /// Unusable input is sanitized, never trusted: a non-finite wish direction counts as no
    /// input; a non-finite velocity becomes zero; a zero, negative or non-finite `dt`, or a
    /// non-finite body position, moves nothing; a `dt` above [`MAX_DELTA`] is clamped to it; a
    /// `dt` above [`MAX_SUBSTEP`] is split into equal sub-steps.
    ///
    /// Without a [`CharacterState`] carried between ticks, a jump starts on every tick the
    /// button is held on the floor and the crouch input is ignored; [`tick_with`](Self::tick_with)
    /// adds coyote time, the jump buffer, a jump height that follows how long the button is held,
    /// and crouching.
    pub fn tick<B: KinematicBody + ?Sized>(
        &self,
        body: &mut B,
        input: &TickInput,
        dt: f32,
    ) -> TickReport {
        let input = TickInput {
            crouch: false,
            ..*input
        };
        self.tick_with(body, &input, &mut CharacterState::default(), dt)
    }

    /// [`tick`](Self::tick) with the character's memory `state` carried from tick to tick
    /// (start with `CharacterState::default()`): a jump starts on a press of the button, on the
    /// floor or within `coyote_time` of walking off it; a press in the air jumps on landing
    /// within `buffer_time`; releasing the button while rising cuts the jump (see
    /// [`crate::jump`]). Holding crouch shrinks the shape and walks with the crouch's speed and
    /// step height; releasing it stands up where there is room (see [`crate::crouch`]).
    pub fn tick_with<B: KinematicBody + ?Sized>(
        &self,
        body: &mut B,
        input: &TickInput,
        state: &mut CharacterState,
        dt: f32,
    ) -> TickReport {
        let mut sanitized = Sanitized::default();
        let wish = if input.wish_direction.is_finite() {
            input.wish_direction
        } else {
            sanitized.wish_direction = true;
            Vec3::ZERO
        };
        let crouching = Self {
            settings: self.settings.while_crouched(),
        };
        let crouch = self.settings.crouch_of_shape();
        let mut report = self.run(body, input.velocity, dt, sanitized, |body, velocity, dt| {
            let crouched = state.crouch.update(body, input.crouch, &crouch);
            let active = if crouched { &crouching } else { self };
            let mut report = active.substep(body, wish, input.jump, &mut state.jump, velocity, dt);
            report.crouched = crouched;
            report
        });
        report.crouched = state.crouch.crouched();
        report
    }

    /// Moves the body with `velocity` (m/s) for `dt` (s) with stair stepping: a drop-in for
    /// `move_and_slide` that also steps up and down. No stepping happens while moving up (a
    /// jump), and stepping down only follows floor the body stood on at the start. Unusable
    /// velocity and delta are sanitized as in [`tick`](Self::tick).
    pub fn move_and_step<B: KinematicBody + ?Sized>(
        &self,
        body: &mut B,
        velocity: Vec3,
        dt: f32,
    ) -> TickReport {
        self.run(
            body,
            velocity,
            dt,
            Sanitized::default(),
            |body, velocity, dt| match self.ground_under(body, velocity) {
                Floating::Yes(ground) => self.move_floating(body, velocity, dt, ground),
                Floating::No => {
                    let stand = stand_of(body, velocity, self.flat_reach());
                    self.move_once(body, velocity, dt, stand)
                }
            },
        )
    }

    /// Sanitizes the velocity, delta and position, then runs `step` once per sub-step.
    fn run<B: KinematicBody + ?Sized>(
        &self,
        body: &mut B,
        velocity: Vec3,
        dt: f32,
        mut sanitized: Sanitized,
        mut step: impl FnMut(&mut B, Vec3, f32) -> TickReport,
    ) -> TickReport {
        let mut velocity = if !velocity.is_finite() {
            sanitized.velocity = true;
            Vec3::ZERO
        } else if velocity.length() > MAX_VELOCITY {
            sanitized.velocity = true;
            velocity.clamp_length_max(MAX_VELOCITY)
        } else {
            velocity
        };
        let on_floor = body.is_on_floor();
        let mut report = TickReport {
            velocity,
            was_on_floor: on_floor,
            on_floor,
            ..TickReport::default()
        };
        let split = split_delta(dt, &mut sanitized);
        if !usable_position(body.position()) {
            sanitized.position = true;
        }
        report.sanitized = sanitized;
        let Some((substeps, step_dt)) = split.filter(|_| !sanitized.position) else {
            return report;
        };
        let start = body.position();
        for substep in 0..substeps {
            let part = step(body, velocity, step_dt);
            if substep == 0 {
                report.was_on_floor = part.was_on_floor;
            }
            velocity = part.velocity;
            report.absorb(&part);
        }
        let real_velocity = (body.position() - start) / (step_dt * substeps as f32);
        if real_velocity.is_finite() {
            report.real_velocity = real_velocity;
        }
        report
    }

    /// One sub-step: velocity from input, then the move.
    fn substep<B: KinematicBody + ?Sized>(
        &self,
        body: &mut B,
        wish: Vec3,
        jump: bool,
        jumps: &mut JumpState,
        velocity: Vec3,
        dt: f32,
    ) -> TickReport {
        let up = up_of(body);
        let floating = self.ground_under(body, velocity);
        let stand = match floating {
            Floating::Yes(Some(_)) => Stand::Floor,
            Floating::Yes(None) => Stand::Air,
            Floating::No => stand_of(body, velocity, self.flat_reach()),
        };
        let on_floor = stand != Stand::Air;
        let curve = if on_floor {
            &self.settings.movement.ground
        } else {
            &self.settings.movement.air
        };
        let wish = horizontal(wish, up).clamp_length_max(1.0);
        let before = horizontal(velocity, up);
        let mut run = horizontal_velocity(before, wish, curve, dt);
        let target = wish * curve.max_speed;
        if body.is_on_wall() {
            // Last tick's slide left the velocity along the wall.
            run = along_wall(run, before, before, target);
        }
        let starts = jumps.start(jump, on_floor, dt, &self.settings.jump);
        let (rise, jumped) =
            vertical_speed(vertical(velocity, up), starts, &self.settings.gravity, dt);
        let rise = jumps.cut(rise, &self.settings.jump);
        let mut report = match floating {
            // A jump leaves the ground: no probe catches it.
            Floating::Yes(ground) => {
                let ground = ground.filter(|_| rise <= 0.0);
                self.move_floating(body, run + up * rise, dt, ground)
            }
            Floating::No => self.move_once(body, run + up * rise, dt, stand),
        };
        jumps.end(report.on_floor, dt);
        if body.is_on_wall() {
            let slid = horizontal(report.velocity, up);
            report.velocity += along_wall(slid, slid, before, target) - slid;
        }
        report.jumped = jumped;
        report
    }

    /// One move of a sub-step, from where the body `stand`s: the slide, a step up when a wall
    /// stopped it, a step down when it left the floor.
    ///
    /// Every move ends the engine's state with a slide (as a script calling `move_and_slide`
    /// expects): the slide's real velocity, position delta, wall and slide collisions describe
    /// the move. A grounded move slides first; only when the slide met a wall (a riser, say)
    /// are the stair sweeps run from where the move began. When they find a step, the body is
    /// put back, lifted onto the step (see [`climb`](Self::climb)), and slides again, so the
    /// last slide carries it across the tread with the tick's own horizontal velocity.
    ///
    /// A body resting on a stair's edge ([`Stand::Edge`]) moves as on floor, without pushing
    /// down into the edge (the engine would slide it off ahead of its motion).
    fn move_once<B: KinematicBody + ?Sized>(
        &self,
        body: &mut B,
        velocity: Vec3,
        dt: f32,
        stand: Stand,
    ) -> TickReport {
        let up = up_of(body);
        let was_on_floor = stand != Stand::Air;
        let start = body.position();
        let run = horizontal(velocity, up);
        let rise = vertical(velocity, up);
        let mut report = TickReport {
            was_on_floor,
            substeps: 1,
            ..TickReport::default()
        };

        let grounded = was_on_floor && rise <= 0.0;
        // Held or on a slope's face: the probe for a riser first, as for a held body; when it
        // finds none, one more probe tells.
        let mut probed = false;
        let mut lifted = None;
        let stand = match stand {
            Stand::Unsure { contact, reach } => {
                let held = Stand::Held(contact.normal);
                let climb = if grounded {
                    self.climb(body, start, run * dt, true, None)
                } else {
                    Climb::Blocked
                };
                match climb {
                    Climb::Lifted(lift) => {
                        lifted = Some(lift);
                        held
                    }
                    _ => {
                        probed = true;
                        if flat_base::looks_like_face(body, start, &contact, reach) {
                            Stand::Floor
                        } else {
                            held
                        }
                    }
                }
            }
            other => other,
        };
        // On floor, the move follows the floor's slope (see
        // `MovementSettings::constant_horizontal_speed`), and gravity does not push into it:
        // the engine would slide that push downhill, faster than the walk, and a push that
        // meets the floor early in the move leaves the engine's floor state set even when the
        // move ends past an edge (the engine's floor snap, made at the end, then finds out).
        // Held over an edge, the move is level, and follows the slope the slide meets (the
        // rounding of the edge's top, walking onto the tread) like a move on floor.
        let held = matches!(stand, Stand::Held(_) | Stand::Over);
        let follow = grounded && (stand == Stand::Floor || held) && self.keeps_speed();
        let slope = if follow && !held {
            along_floor(run, body.floor_normal(), up, body.floor_max_angle())
        } else {
            0.0
        };
        let level = match stand {
            Stand::Floor => is_level(body.floor_normal(), up),
            Stand::Held(_) | Stand::Over => true,
            Stand::Edge | Stand::Air | Stand::Unsure { .. } => false,
        };
        let push = if matches!(stand, Stand::Edge | Stand::Held(_) | Stand::Over) || follow {
            0.0
        } else {
            rise
        };
        let slid = if let Some(lift) = lifted {
            Slid {
                velocity: run,
                slope,
                lift: Some(lift),
            }
        } else {
            self.slide_and_climb(
                body,
                Move {
                    start,
                    run,
                    push,
                    slope,
                    dt,
                    grounded,
                    follow,
                    level,
                    held,
                    probed,
                },
            )
        };
        let (mut after, slope) = (slid.velocity, slid.slope);
        if let Some(lift) = slid.lift {
            // On the step: gravity does not accumulate while the slide carries the body across
            // the tread (or over the edge it then rests on). The lift already carried it
            // `ahead`: the slide makes only the rest of the tick's motion.
            report.step_up = lift.height;
            let motion = (run * dt).length();
            let share = (1.0 - lift.ahead / motion).clamp(0.0, 1.0);
            let slid = body.move_and_slide(run * share, dt);
            after = if share > MIN_SHARE { slid / share } else { run };
        }
        let walk = run;
        let run = horizontal(after, up);
        // The slope's part is the floor's, not the body's: as Godot's, the velocity of a body on
        // floor is horizontal, and one that left the slope keeps only its own vertical speed.
        let mut rise = if report.step_up > 0.0 || slope == 0.0 {
            vertical(after, up)
        } else if body.is_on_floor() {
            0.0
        } else {
            (vertical(after, up) - slope).min(0.0)
        };
        let mut on_edge = false;
        let mut caught = false;
        let mut landed = None;
        // Where the slide left the body, for the flat base's look down (see below).
        let slid_to = body.position();
        let flat = self.flat_reach().filter(|_| grounded && rise <= 0.0);
        // A flat bottom over the rounding of the step it climbed (`Lift::over`,
        // `Stand::Over`) that the slide carried on level, at the tread's height: it stays
        // there, held by the tread (the step down would drop it onto the rounding).
        let (floats, height) = match slid.lift {
            Some(lift) => (lift.over, lift.height),
            None => (stand == Stand::Over, 0.0),
        };
        let level_slide =
            (vertical(slid_to - start, up) - height).abs() <= body.safe_margin().max(0.0);
        let over = flat.is_some() && floats && level_slide;
        if over {
            on_edge = true;
            caught = true;
            rise = 0.0;
        }
        // With a flat base, a body lifted over a step's edge is put down held on that edge at
        // once (see `flat_base::set_down`); the step down follows when it is not.
        let here = vertical(start, up);
        let set_down = match (flat, slid.lift) {
            (Some(reach), Some(lift)) if !over && !body.is_on_floor() => {
                flat_base::set_down(body, here + lift.tread, reach)
            }
            _ => SetDown::NoEdge,
        };
        let set = set_down == SetDown::Held;
        let rests = set_down == SetDown::Resting
            && stand == Stand::Floor
            && flat_base::rest_on_edge(body, start);
        if rests {
            on_edge = true;
            caught = true;
            rise = 0.0;
        }
        if !set && !rests && !over && grounded && rise <= 0.0 && !body.is_on_floor() {
            let travelled = horizontal(body.position() - start, up);
            if let Some(step) = step_down(body, &self.settings.stairs, travelled) {
                report.step_down = step.height;
                // After a lift over an edge, the drop back onto it is part of the climb; after
                // a move up a slope, so is the drop back onto its crest.
                let overshoot = slope.max(0.0) * dt + STEP_DOWN_TOLERANCE;
                if step.is_step && report.step_up <= 0.0 && -step.height > overshoot {
                    report.stepped = Some(step.height);
                }
                on_edge = step.on_edge;
                caught = true;
                landed = Some((step.contact, step.is_step));
                // Standing on floor again: gravity does not accumulate (as Godot's slide).
                rise = 0.0;
            }
        }
        // A flat base (see `crate::flat_base`): a rounded bottom stands on the edge still under
        // it at the height its feet stood at (the floor or edge under it, or the top of the
        // step it climbed), or on the lower edge a step down came down on.
        // The lower edge a step down came down on, from an edge or level floor the body stood
        // on (not from a slope's face: the face it came down on is no edge to stand on).
        let stood = level || matches!(stand, Stand::Held(_));
        let lower = landed
            .filter(|(_, is_step)| *is_step && stood)
            .map(|(contact, _)| vertical(contact.point, up))
            .filter(|top| here - top > flat_base::EDGE_TOLERANCE);
        let walked = horizontal(body.position() - start, up).length() > flat_base::FACE_TEST_WALK;
        let base = match (slid.lift, lower, stand) {
            (Some(lift), _, _) => Some((here + lift.tread, None)),
            // Come down on a slope's face, not a lower step's edge: a second probe tells.
            (None, Some(top), _) => Some((top, Some(flat_base::Face::Look))),
            // A body that (almost) did not move is on the same edge whatever the normal says.
            (None, None, Stand::Held(normal)) => {
                Some((here, Some(flat_base::Face::Was(normal)).filter(|_| walked)))
            }
            (None, None, _) if level => Some((here, None)),
            (None, None, _) => None,
        };
        let held = match (set_down, flat, base) {
            _ if over => None,
            // Already held on the edge of the step it climbed (the climb's rise is below).
            (SetDown::Held, _, _) => Some(0.0),
            // A flat bottom the step down stood on the rounding of the step's edge.
            (SetDown::Resting, _, _) => None,
            // A flat bottom lifted to float at the tread's height that the engine's slide put
            // down on the rounding (its floor snap): its rim rests there at its feet, and no
            // edge under it is higher.
            _ if floats && body.is_on_floor() => None,
            (SetDown::NoEdge, Some(reach), Some((base, before))) => {
                flat_base::stand(body, slid_to, base, before, reach)
            }
            _ => None,
        };
        let moved = body.position() - start;
        if let Some(raised) = held {
            report.step_up += raised;
            on_edge = true;
            caught = true;
            rise = 0.0;
            if slid.lift.is_none() {
                // A step only when the edge it now stands on is a lower one.
                let drop = vertical(moved, up);
                report.stepped = (drop < -flat_base::EDGE_TOLERANCE).then_some(drop);
            }
        } else if let Some(reach) = flat.filter(|_| {
            !over && slid.lift.is_none() && (matches!(stand, Stand::Held(_)) || landed.is_some())
        }) {
            // Walked off the edge (or the level floor) it stood on: the tick's whole drop is
            // the step (see `flat_base::come_down`).
            // No second look for a hold on the lower edge the step down came down on: the
            // hold above just looked for it.
            if let Some(came) = flat_base::come_down(body, start, reach, stood, lower.is_none()) {
                report.stepped = came.stepped;
                on_edge |= came.held;
            }
        }
        if slid.lift.is_some() {
            let rise = vertical(body.position() - start, up);
            report.step_up = rise.max(0.0);
            // With a flat base a climb that ends a hair above where it began (the step's edge
            // not yet under the body; the next tick climbs it) is no step; nor is the rest of
            // a climb that left a flat bottom on the rounding of the step's edge, below the
            // tread by less than the rounding: it meets the rounding, not a riser.
            let rest = slid.lift.is_some_and(|lift| lift.tilted_obstacle);
            let least = match flat {
                None => 0.0,
                Some(_) if rest => flat_base::EDGE_TOLERANCE,
                Some(_) => MIN_STEP_RISE,
            };
            report.stepped = (rise > least).then_some(rise);
        }
        report.on_floor = body.is_on_floor() || on_edge;
        // Caught by the step down, the body has not left the floor it walks on: keep the walk's
        // own velocity, without what the engine adds when a slide leaves a moving platform
        // (Godot's `platform_on_leave`), unless a wall changed it.
        let run = if caught && !body.is_on_wall() {
            walk
        } else {
            run
        };
        report.velocity = run + up * rise;
        report
    }

    /// For [`GroundFollow::Smooth`], the ground under the body moving with `velocity` (none
    /// while it rises); [`Floating::No`] for the stair sweeps.
    fn ground_under<B: KinematicBody + ?Sized>(&self, body: &mut B, velocity: Vec3) -> Floating {
        if self.settings.stairs.ground_follow != GroundFollow::Smooth {
            return Floating::No;
        }
        if vertical(velocity, up_of(body)) > EDGE_REST_SPEED {
            return Floating::Yes(None);
        }
        let stairs = &self.settings.stairs;
        Floating::Yes(ground::probe(
            body,
            stairs.max_step_height,
            0.0,
            stairs.step_forward_test,
        ))
    }

    /// One move of a body whose shape floats above its feet ([`GroundFollow::Smooth`], see
    /// [`crate::ground`]): on the `ground` found at the start, a slide without gravity;
    /// otherwise a slide with it. Then, unless it rises, a probe for the ground: found, the
    /// vertical speed is cancelled and the feet move toward its height at the follow speed.
    fn move_floating<B: KinematicBody + ?Sized>(
        &self,
        body: &mut B,
        velocity: Vec3,
        dt: f32,
        ground: Option<Ground>,
    ) -> TickReport {
        let up = up_of(body);
        let run = horizontal(velocity, up);
        let push = if ground.is_some() {
            0.0
        } else {
            vertical(velocity, up)
        };
        let mut report = TickReport {
            was_on_floor: ground.is_some(),
            substeps: 1,
            ..TickReport::default()
        };
        // How far the feet still were above the ground they stood on.
        let lag = ground.map_or(0.0, |g| vertical(body.position(), up) - g.height);
        let after = body.move_and_slide(run + up * push, dt);
        let mut rise = vertical(after, up);
        if rise <= 0.0 {
            let stairs = &self.settings.stairs;
            let reach = stairs.max_step_height;
            let found = ground::probe(body, reach, lag, stairs.step_forward_test);
            if let Some(found) = found {
                let here = vertical(body.position(), up);
                let eased = ground::follow(here, found.height, stairs.ground_follow_speed, dt);
                let mut moved = eased - here;
                if moved > 0.0 {
                    // Rising toward the ground's height: only as far as the room above allows.
                    let room = body.test_move(body.position(), up * moved);
                    moved = vertical(room.travel, up).clamp(0.0, moved);
                }
                if moved.is_finite() {
                    body.set_position(body.position() + up * moved);
                    report.step_up = moved.max(0.0);
                    report.step_down = moved.min(0.0);
                }
                rise = 0.0;
                report.on_floor = true;
            }
        }
        report.velocity = horizontal(after, up) + up * rise;
        report
    }

    /// The reach of the flat base's probes (the max step height, m) when rounded bottoms stand
    /// flat on stair edges (see [`crate::flat_base`]); `None` when they roll over them.
    fn flat_reach(&self) -> Option<f32> {
        let stairs = &self.settings.stairs;
        (stairs.flat_base && stairs.max_step_height > 0.0).then_some(stairs.max_step_height)
    }

    /// True when moves on a slope keep their horizontal speed.
    fn keeps_speed(&self) -> bool {
        self.settings.movement.constant_horizontal_speed
    }

    /// The slide of `step` (see [`Move`]), and, when a grounded slide met a wall, the climb onto
    /// the step there. With [`StepDetection::Probe`], a grounded move first probes its motion
    /// for a step and climbs one it finds without the slide; when it finds none, the move goes
    /// on as with [`StepDetection::Contacts`] (a slide bent onto a step still climbs it). So
    /// does a body held on a stair's edge by its flat base, whatever the setting: the next
    /// riser is near, and a climb found first saves the slide that would meet it (2 to 3
    /// queries, where a probe that finds nothing costs 1).
    ///
    /// Following the slope can run the body into a wall that the walk itself does not reach (the
    /// arc of an edge being rolled over rises fastest): the move is then made again as Godot's
    /// own slide would. A move on floor that the engine bent onto a new slope (a ramp's foot,
    /// the rounding of a step's edge), falling short of the walk, is made again along that
    /// slope.
    fn slide_and_climb<B: KinematicBody + ?Sized>(&self, body: &mut B, step: Move) -> Slid {
        let Move {
            start,
            run,
            push,
            mut slope,
            dt,
            grounded,
            follow,
            level,
            held,
            probed,
        } = step;
        let up = up_of(body);
        let probe = self.settings.stairs.step_detection == StepDetection::Probe;
        if grounded && (probe || held) && !probed {
            // The probe first: a step found is climbed before the engine's slide touches it.
            let motion = (run + up * slope) * dt;
            if let Climb::Lifted(lift) = self.climb(body, start, motion, level, None) {
                return Slid {
                    velocity: run,
                    slope,
                    lift: Some(lift),
                };
            }
        }
        let before = body.floor_normal();
        let mut velocity = body.move_and_slide(run + up * (push + slope), dt);
        if follow && body.is_on_floor() && !body.is_on_wall() {
            // The floor's slope changed under the move (a ramp's foot, the rounding of a step's
            // edge) and the engine's slide bent the move onto it, short of the walk: move again
            // along the new slope.
            let normal = body.floor_normal();
            let walked = horizontal(body.position() - start, up).length();
            let wanted = (run * dt).length();
            let short = walked < wanted * (1.0 - WALK_SHARE);
            let long = walked > wanted * (1.0 + WALK_SHARE);
            if (short || long) && !same_slope(normal, before) {
                let again = along_floor(run, normal, up, body.floor_max_angle());
                if again != slope {
                    slope = again;
                    body.set_position(start);
                    velocity = body.move_and_slide(run + up * slope, dt);
                }
            }
        }
        if !grounded || !body.is_on_wall() {
            return Slid {
                velocity,
                slope,
                lift: None,
            };
        }
        let stopped = |v: Vec3| horizontal(v, up).length() < run.length() * STOPPED_SHARE;
        // The slide's first motion was the climb's when gravity did not push it down.
        let motion = (run + up * slope) * dt;
        let met = slide_met(body, motion).filter(|_| push == 0.0);
        let mut climb = self.climb(body, start, motion, level, met);
        if matches!(climb, Climb::Free) && self.flat_reach().is_some() && stopped(velocity) {
            // With a flat base, the slide made the whole walk and ended against the next riser,
            // which the climb's probe (as long as the walk) finds just beyond it: the next tick
            // climbs it, and the body keeps the walk's speed.
            let walked = horizontal(body.position() - start, up).length();
            if walked >= (run * dt).length() * (1.0 - WALK_SHARE) {
                velocity = run + up * vertical(velocity, up);
            }
        }
        if !matches!(climb, Climb::Lifted(_)) && slope != 0.0 && stopped(velocity) {
            slope = 0.0;
            body.set_position(start);
            velocity = body.move_and_slide(run + up * push, dt);
            climb = if body.is_on_wall() {
                let met = slide_met(body, run * dt).filter(|_| push == 0.0);
                self.climb(body, start, run * dt, level, met)
            } else {
                Climb::Blocked
            };
        }
        Slid {
            velocity,
            slope,
            lift: match climb {
                Climb::Lifted(lift) => Some(lift),
                _ => None,
            },
        }
    }

    /// If a step blocks the `motion` (m: horizontal, or along the floor's slope) of a move from
    /// `from` (m), puts the body where a slide by `motion` lands it on the step: `from` lifted by
    /// the step's height. For a rounded bottom landing on the step's edge or on a tread that is
    /// not level under it, `from` lifted clear of the edge: the slide carries it over by its
    /// own motion, and the step down after it stands it on the edge. A flat bottom whose level
    /// landing lies beyond `motion` (the minimum forward step) is lifted to the tread's height
    /// and floats there with the flat base ([`Lift::over`]); without it, it is moved ahead to
    /// that landing. Says what it found otherwise, and leaves the body alone.
    /// `level`: the body stands at `from` on level floor; `met`: what the slide that made
    /// `motion` from `from` met first (see [`step_up`]).
    fn climb<B: KinematicBody + ?Sized>(
        &self,
        body: &mut B,
        from: Vec3,
        motion: Vec3,
        level: bool,
        met: Option<MotionTest>,
    ) -> Climb {
        let up = up_of(body);
        if !motion.is_finite() || horizontal(motion, up).length() <= MIN_MOTION {
            return Climb::Blocked;
        }
        // How far along the motion the slide before the climb (if any) already took the body.
        let slid = horizontal(body.position() - from, up).length();
        let step = match step_up(body, from, motion, &self.settings.stairs, level, met) {
            Ahead::Stepped(step) => step,
            Ahead::Free => return Climb::Free,
            Ahead::Blocked => return Climb::Blocked,
        };
        let across = horizontal(step.displacement, up);
        let flat = horizontal(motion, up);
        let direction = flat.normalize();
        let beyond = (across.dot(direction) - flat.length()).max(0.0);
        // With the flat base, a flat bottom floats at the tread's height when its level landing
        // lies beyond the tick's motion, or when its rim lands on the rounding of the edge.
        let over = self.flat_reach().is_some()
            && ((beyond > 0.0 && step.level_landing) || step.rim_on_edge);
        let rounded = !over && (step.on_edge || (beyond > 0.0 && !step.level_landing));
        // A rounded bottom whose motion ends less than the safe margin past where it meets
        // the step's edge, and that the slide already took the whole way: lifted and moved on,
        // it would rest on that edge within the margin of the floor it stands on, and the
        // drop after the lift would find the floor, where the slide left it.
        let margin = body.safe_margin().max(0.0);
        let at_edge = step.past_obstacle < margin && slid >= flat.length() * (1.0 - WALK_SHARE);
        if (rounded || over) && step.past_obstacle < 0.0 || rounded && at_edge {
            // The probe found the step beyond this tick's motion (or its edge at its end): the
            // slide makes the move, and a later tick climbs.
            return Climb::Free;
        }
        // Lifted clear or to the tread's height, moved ahead only as far as the body's side
        // must pass the riser to be over it.
        let need = body.safe_margin().max(0.0) + OVER_RISER;
        let short = (need - step.past_obstacle).clamp(0.0, beyond);
        let (lifted, ahead) = if rounded {
            // A rounded bottom: lifted clear of the step's top, the slide carries the body by
            // the tick's own motion, and the step down stands it on the edge (or the tread),
            // over which it rolls in the next ticks.
            (from + up * step.clearance + direction * short, short)
        } else if over {
            // A flat bottom short of its level landing (a slow walk, a high tick rate, stairs
            // walked at an angle): lifted to the tread's height, the slide carries it by its
            // own motion, floating over the rounding of the step's edge, and the tread holds it
            // there until it is under the body (see `Stand::Over`). Resting flat on the
            // rounding instead, the engine's slide takes the rounding for a wall and Jolt's
            // recovery sinks the body into it.
            (from + up * step.tread_height + direction * short, short)
        } else {
            (from + up * step.height + direction * beyond, beyond)
        };
        if !usable_position(lifted) {
            return Climb::Blocked;
        }
        body.set_position(lifted);
        Climb::Lifted(Lift {
            height: if over { step.tread_height } else { step.height },
            tread: step.tread,
            ahead,
            tilted_obstacle: step.tilted_obstacle,
            over,
        })
    }

    /// Building block for scripts with their own order: if a step blocks the horizontal part of
    /// `velocity` (m/s) over `dt` (s), lifts the body onto it and returns the height gained (m);
    /// the script's `move_and_slide` with the same velocity then carries it across the tread.
    /// Returns 0 and leaves the body alone when it is not on floor, is moving up, or nothing
    /// steppable is ahead. Call it right before the move.
    pub fn stair_step_up<B: KinematicBody + ?Sized>(
        &self,
        body: &mut B,
        velocity: Vec3,
        dt: f32,
    ) -> f32 {
        let up = up_of(body);
        if !dt.is_finite()
            || dt <= 0.0
            || !velocity.is_finite()
            || velocity.length() > MAX_VELOCITY
            || !usable_position(body.position())
            || !body.is_on_floor()
            || vertical(velocity, up) > 0.0
        {
            return 0.0;
        }
        let from = body.position();
        let level = is_level(body.floor_normal(), up);
        match self.climb(body, from, horizontal(velocity, up) * dt, level, None) {
            Climb::Lifted(lift) => lift.height,
            Climb::Free | Climb::Blocked => 0.0,
        }
    }

    /// Building block for scripts with their own order: after the move, if the body stood on
    /// floor before it (`was_on_floor`), is not moving up (`velocity`, m/s) and has lost the
    /// floor, moves it down onto floor within the max step height. `horizontal_travel` is how
    /// far it moved horizontally this tick (m). Returns the vertical travel for the `stepped`
    /// signal (m, negative), or `None` when there was no step (a ramp followed down is not one).
    pub fn stair_step_down<B: KinematicBody + ?Sized>(
        &self,
        body: &mut B,
        was_on_floor: bool,
        velocity: Vec3,
        horizontal_travel: f32,
    ) -> Option<f32> {
        let up = up_of(body);
        if !was_on_floor
            || !velocity.is_finite()
            || vertical(velocity, up) > 0.0
            || !usable_position(body.position())
            || body.is_on_floor()
        {
            return None;
        }
        let distance = if horizontal_travel.is_finite() {
            horizontal_travel.max(0.0)
        } else {
            0.0
        };
        let travelled = horizontal(velocity, up).normalize_or_zero() * distance;
        let step = step_down(body, &self.settings.stairs, travelled)?;
        step.is_step.then_some(step.height)
    }
}

/// The horizontal velocity `run` (m/s) of a body sliding along a wall, no faster along the wall
/// (the way `along` points) than the push's part that way: the wish's `target` velocity (m/s)
/// projected on it. The curve turns the velocity back into the wall each tick and the wall
/// takes away only that part, so without this limit the release of the rest would add speed
/// along the wall. Speed the body had that way before the tick (`before`, m/s) is kept:
/// turning along a wall slows by the curve.
fn along_wall(run: Vec3, along: Vec3, before: Vec3, target: Vec3) -> Vec3 {
    let Some(direction) = along.try_normalize() else {
        return run;
    };
    let speed = run.dot(direction);
    let limit = target.dot(direction).max(before.dot(direction)).max(0.0);
    if speed > limit {
        run - direction * (speed - limit)
    } else {
        run
    }
}

/// A lift onto a step made by [`Controller::climb`].
#[derive(Debug, Clone, Copy, PartialEq)]
struct Lift {
    /// Height gained, m.
    height: f32,
    /// Height of the step's top where the body lands, above where the climb began, m.
    tread: f32,
    /// How far the lift moved the body ahead, on top of the tick's motion, m.
    ahead: f32,
    /// What stopped the motion was tilted, not a riser's face (see
    /// [`StepUp::tilted_obstacle`](crate::stairs::StepUp::tilted_obstacle)).
    tilted_obstacle: bool,
    /// A flat bottom lifted to the tread's height short of its level landing: it floats over
    /// the rounding of the step's edge (see [`Stand::Over`]).
    over: bool,
}

/// What [`Controller::climb`] found.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Climb {
    /// A step: the body was lifted onto it.
    Lifted(Lift),
    /// Nothing in the way of the motion.
    Free,
    /// Something in the way that is not a step.
    Blocked,
}

/// One move on its way to the engine's slide (see [`Controller::slide_and_climb`]).
#[derive(Debug, Clone, Copy, PartialEq)]
struct Move {
    /// Where the move begins, m.
    start: Vec3,
    /// Horizontal velocity, m/s.
    run: Vec3,
    /// Vertical speed of the body's own (gravity, a jump), m/s.
    push: f32,
    /// Vertical speed that follows the floor's slope, m/s (0 off slopes).
    slope: f32,
    /// Duration, s.
    dt: f32,
    /// On floor or an edge, and not moving up: the stair sweeps may run.
    grounded: bool,
    /// On floor with `constant_horizontal_speed`: the move follows the floor's slope.
    follow: bool,
    /// On level floor, the body's bottom on it (see [`step_up`]).
    level: bool,
    /// Held over a stair's edge by its flat base ([`Stand::Held`]): the next riser is near.
    held: bool,
    /// The probe for a riser ran already this move and found none.
    probed: bool,
}

/// The outcome of [`Controller::slide_and_climb`].
#[derive(Debug, Clone, Copy, PartialEq)]
struct Slid {
    /// Velocity after the slide, m/s.
    velocity: Vec3,
    /// Vertical speed of the slope the slide followed, m/s (0 when it did not).
    slope: f32,
    /// The climb onto a step, when there was one.
    lift: Option<Lift>,
}

/// Smallest share of the tick's motion left to the slide after a lift whose velocity is scaled
/// back up to the body's; below it the body keeps the velocity it had.
const MIN_SHARE: f32 = 0.01;

/// Share of the walk a slide on floor may fall short by, or go beyond, before it is made again
/// along the floor's new slope.
const WALK_SHARE: f32 = 0.02;

/// Share of its horizontal speed below which a slide counts as stopped by a wall.
const STOPPED_SHARE: f32 = 0.5;

/// What the body stands on as a move begins.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Stand {
    /// Floor, as the engine says.
    Floor,
    /// Held over the edge of a stair with its feet at the edge's height (see
    /// [`crate::flat_base`]); the edge's contact normal.
    Held(Vec3),
    /// A flat bottom floating at the height of the level tread of the step it climbed, short of
    /// resting on it (see [`crate::flat_base::over_tread`]). It moves as when held, level,
    /// until the tread is under it.
    Over,
    /// The edge of a stair it is rolling over, where the last step down left it (see
    /// [`crate::stairs::StepDown::on_edge`]): no floor for the engine, but it supports the body.
    Edge,
    /// Nothing: in the air.
    Air,
    /// On the engine's floor with the very normal of the contact under its feet, walking up
    /// into it: held over an edge's rounding, or on a slope's face. The probe for a riser runs
    /// first, as for a held body; one more probe (`reach` long, m) tells only when it finds
    /// none.
    Unsure {
        /// The contact under the feet.
        contact: Contact,
        /// Length of the probe that tells, m (the one [`stand_of`] made).
        reach: f32,
    },
}

/// How far past a riser's face the side of a body lifted over it must be for the step down to
/// find the step's top under it, m.
const OVER_RISER: f32 = 2e-4;

/// Vertical speed below which a body off the engine's floor may be resting on an edge, m/s. A
/// step down onto an edge leaves exactly none; one tick of gravity is far more.
const EDGE_REST_SPEED: f32 = 1e-4;

/// Whether a move floats ([`GroundFollow::Smooth`]), and the ground found under it then.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Floating {
    /// Stair sweeps: the engine's floor state says where the body stands.
    No,
    /// A floating shape, over this ground (`None`: in the air or rising).
    Yes(Option<Ground>),
}

/// Where the body with `velocity` (m/s) stands. A body the engine has off the floor rests on an
/// edge when the last move left it there (it has no vertical speed) and it still touches
/// something below it. With a flat base (`flat`: the reach of its probe, m), a body on tilted
/// floor or off the floor, not rising, may stand held over an edge (see
/// [`crate::flat_base::held`]). One probe down, made only in those cases; one more when the
/// engine's floor has the very normal of that contact (an edge or a slope's face), unless the
/// body walks up into a gentle one: then it is [`Stand::Unsure`], for the move to tell.
fn stand_of<B: KinematicBody + ?Sized>(body: &mut B, velocity: Vec3, flat: Option<f32>) -> Stand {
    let up = up_of(body);
    let on_floor = body.is_on_floor();
    let fallback = if on_floor { Stand::Floor } else { Stand::Air };
    if !velocity.is_finite() {
        return fallback;
    }
    let speed = vertical(velocity, up);
    let level = on_floor && is_level(body.floor_normal(), up);
    let look_edge = !on_floor && speed.abs() <= EDGE_REST_SPEED;
    let look_held = flat.is_some() && !level && (look_edge || on_floor && speed <= EDGE_REST_SPEED);
    if !look_held && !look_edge {
        return fallback;
    }
    let touch = 2.0 * body.safe_margin().max(0.0) + EDGE_PROBE;
    let reach = flat
        .filter(|_| look_held)
        .map_or(touch, |reach| reach.max(touch));
    let here = body.position();
    let below = body.test_move(here, -up * reach);
    if look_held && look_edge && flat_base::over_tread(body, &below, here, velocity) {
        return Stand::Over;
    }
    if look_held && let Some(normal) = flat_base::held(&below, here, up, body.safe_margin()) {
        // A flat bottom on a slope touches it with its rim at the feet's height, and the
        // engine has the body on floor with the very normal of that contact. So may a held
        // body whose slide touched the edge; one that floats above it (the probe fell before
        // it touched) is held: otherwise one more probe tells a slope's face from an edge.
        let resting = -vertical(below.travel, up) <= touch;
        let unsure = on_floor && resting && same_normal(body.floor_normal(), normal);
        let rising = horizontal(-normal, up).dot(horizontal(velocity, up)) > 0.0;
        let gentle = is_gentle(normal, up);
        if let Some(contact) = below.contact.filter(|_| unsure && rising && gentle) {
            return Stand::Unsure { contact, reach };
        }
        let face = unsure
            && below
                .contact
                .is_some_and(|contact| flat_base::looks_like_face(body, here, &contact, reach));
        return if face {
            Stand::Floor
        } else {
            Stand::Held(normal)
        };
    }
    match below.contact {
        Some(contact)
            if look_edge
                && supports(contact.normal, up)
                && -vertical(below.travel, up) <= touch =>
        {
            Stand::Edge
        }
        _ => fallback,
    }
}

/// How far below the safe margin the edge probe of [`stand_of`] reaches, m.
const EDGE_PROBE: f32 = 1e-3;

/// The first collision of the slide just made (see [`KinematicBody::first_slide_collision`])
/// when it is what a test of `motion` (m) from where the slide began finds: travel and
/// remainder add up to `motion` (but for a push out of an overlap within the safe margin), and
/// something stopped it short of its end.
fn slide_met<B: KinematicBody + ?Sized>(body: &B, motion: Vec3) -> Option<MotionTest> {
    let margin = body.safe_margin().max(0.0);
    let met = body.first_slide_collision()?;
    let made = met.travel + met.remainder;
    let same = (made - motion).length() <= margin + MIN_MOTION;
    let stopped = met.remainder.length() > MIN_MOTION;
    // A motion within the margin could be mistaken for another one.
    let long = motion.length() > margin + MIN_MOTION;
    (met.contact.is_some() && same && stopped && long).then_some(met)
}

/// True when `position` (m) is finite and within [`MAX_COORDINATE`] of the origin.
fn usable_position(position: Vec3) -> bool {
    position.is_finite() && position.abs().max_element() <= MAX_COORDINATE
}

/// The body's up direction as a unit vector; +Y when the body reports a degenerate one.
fn up_of<B: KinematicBody + ?Sized>(body: &B) -> Vec3 {
    unit_up(body.up_direction())
}

/// Splits a tick's delta into sub-steps: `None` when nothing should move.
fn split_delta(dt: f32, sanitized: &mut Sanitized) -> Option<(u32, f32)> {
    if !dt.is_finite() || dt <= 0.0 {
        sanitized.delta = true;
        return None;
    }
    let dt = if dt > MAX_DELTA {
        sanitized.delta_clamped = true;
        MAX_DELTA
    } else {
        dt
    };
    let substeps = (dt / MAX_SUBSTEP).ceil().max(1.0) as u32;
    Some((substeps, dt / substeps as f32))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn delta_is_split_and_clamped() {
        let mut s = Sanitized::default();
        assert_eq!(split_delta(1.0 / 60.0, &mut s), Some((1, 1.0 / 60.0)));
        assert!(!s.any());
        let (n, step) = split_delta(0.12, &mut s).unwrap();
        assert_eq!(n, 3);
        assert!((step - 0.04).abs() < 1e-6);
        let (n, step) = split_delta(2.0, &mut s).unwrap();
        assert!(s.delta_clamped);
        assert!((n as f32 * step - MAX_DELTA).abs() < 1e-6);
        for bad in [0.0, -1.0, f32::NAN, f32::INFINITY] {
            let mut s = Sanitized::default();
            assert_eq!(split_delta(bad, &mut s), None);
            assert!(s.delta);
        }
    }

    #[test]
    fn invalid_settings_are_refused() {
        let mut settings = ControllerSettings::default();
        settings.stairs.max_step_height = -0.1;
        assert_eq!(
            Controller::new(settings),
            Err(ConfigError::NegativeStepHeight { value: -0.1 })
        );
        let mut controller = Controller::new(ControllerSettings::default()).unwrap();
        assert!(controller.set_settings(settings).is_err());
        assert_eq!(controller.settings(), &ControllerSettings::default());
    }
}
