//! Stage 2 of a move, plan: what the move will try, from the footing and the velocity, with no
//! query ([`Plan`]).

use glam::Vec3;

use crate::body::KinematicBody;
use crate::floor::{horizontal, up_of, vertical};
use crate::footing::Footing;
use crate::movement::along_floor;
use crate::stairs::Stance;
use crate::surface::is_level;

/// One move as planned: where it starts, its velocity split the way the slide will make it,
/// and what the stair sweeps may do on the way.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct Plan {
    /// Where the move begins, m.
    pub(crate) start: Vec3,
    /// The body's unit up.
    pub(crate) up: Vec3,
    /// What the body stands on.
    pub(crate) footing: Footing,
    /// Horizontal velocity, m/s.
    pub(crate) run: Vec3,
    /// The body's own vertical speed as the move begins (gravity, a jump), m/s.
    pub(crate) rise: f32,
    /// The vertical speed the slide pushes with, m/s: the body's own, but none on floor that
    /// the move follows or on an edge (the engine would slide that push downhill, faster than
    /// the walk).
    pub(crate) push: f32,
    /// Vertical speed that follows the floor's slope, m/s (0 off slopes).
    pub(crate) slope: f32,
    /// Duration, s.
    pub(crate) dt: f32,
    /// Supported and not moving up: the stair sweeps may run.
    pub(crate) grounded: bool,
    /// On floor (or held) with `constant_horizontal_speed`: the move follows the floor's slope.
    pub(crate) follow: bool,
    /// How the body stands as the move begins: on level floor, held over an edge, or
    /// elsewhere (see [`crate::stairs::step_up`]).
    pub(crate) stance: Stance,
    /// The probe for a riser ran already this move and found none.
    pub(crate) probed: bool,
    /// Horizontal unit direction the input steers the body toward (zero without input): a
    /// slide along a riser bends `run` away from it (see [`crate::stairs::step_up`]).
    pub(crate) aim: Vec3,
}

impl Plan {
    /// The move of a body standing on `footing` with `velocity` (m/s) over `dt` (s) from
    /// `start` (m: where the move began, before any climb it already made); `keep_speed`: the move follows the floor's slope
    /// ([`MovementSettings::constant_horizontal_speed`](crate::MovementSettings)); `probed`:
    /// the probe for a riser already ran and found none. It has no `aim` (see [`Plan::aimed`]).
    ///
    /// On floor, the move follows the floor's slope, and gravity does not push into it: the
    /// engine would slide that push downhill, faster than the walk, and a push that meets the
    /// floor early in the move leaves the engine's floor state set even when the move ends past
    /// an edge (the engine's floor snap, made at the end, then finds out). Held over an edge,
    /// the move is level, and follows the slope the slide meets (the rounding of the edge's
    /// top, walking onto the tread) like a move on floor.
    pub(crate) fn new<B: KinematicBody + ?Sized>(
        body: &B,
        start: Vec3,
        footing: Footing,
        velocity: Vec3,
        dt: f32,
        keep_speed: bool,
        probed: bool,
    ) -> Self {
        let up = up_of(body);
        let run = horizontal(velocity, up);
        let rise = vertical(velocity, up);
        let grounded = footing.supported() && rise <= 0.0;
        let held = footing.held();
        let follow = grounded && (footing.on_floor() || held) && keep_speed;
        let slope = if follow && !held {
            along_floor(run, body.floor_normal(), up, body.floor_max_angle())
        } else {
            0.0
        };
        let stance = match footing {
            Footing::Floor | Footing::AtRiser => Stance::on(is_level(body.floor_normal(), up)),
            Footing::LevelFloor => Stance::Level,
            Footing::Held(contact) => Stance::Held {
                edge: Some(contact.point),
            },
            Footing::OverTread => Stance::Held { edge: None },
            Footing::Edge | Footing::Air | Footing::Unsure { .. } => Stance::Other,
        };
        let on_edge = matches!(footing, Footing::Edge) || held;
        Self {
            start,
            up,
            footing,
            run,
            rise,
            push: if on_edge || follow { 0.0 } else { rise },
            slope,
            dt,
            grounded,
            follow,
            stance,
            probed,
            aim: Vec3::ZERO,
        }
    }

    /// The plan steered along `aim`, the horizontal unit direction of the input (or zero).
    pub(crate) fn aimed(self, aim: Vec3) -> Self {
        Self { aim, ..self }
    }

    /// The move's horizontal motion, m.
    pub(crate) fn walk(&self) -> Vec3 {
        self.run * self.dt
    }
}
