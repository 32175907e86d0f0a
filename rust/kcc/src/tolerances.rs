//! The lengths, speeds and shares the controller judges motion by, in one place.
//!
//! None of them is a tuning knob: each says how far apart two answers of the engine may be and
//! still mean the same thing. Each one's doc says what it is measured against; a length that
//! does not grow with the character says why it must not (the engines' margins and float
//! rounding are the same for a mouse and a giant).

/// Motions shorter than this are not made, m: float rounding at the scale of a level.
pub const MIN_MOTION: f32 = 1e-6;

/// Smallest height gain that counts as a step, m. Below it the sweeps only found the floor the
/// body already stands on: the difference is the engines' recovery (a safe margin or two), which
/// does not grow with the character.
pub const MIN_STEP_RISE: f32 = 0.002;

/// A drop larger than what the floor's slope explains by more than this counts as a step down
/// (and moves the camera smoother), m: the max step height (m) over 40 (1 cm for 0.4 m).
/// Following a ramp down is not a step. The engines' snap and recovery make up the difference,
/// and the edges' rounding, which grows with the stairs as the max step height does.
pub fn step_down_tolerance(max_step_height: f32) -> f32 {
    max_step_height.max(0.0) / 40.0
}

/// How far from the height a body stood at (or the top of the step it climbed) an edge's
/// contact may be and still hold it, m; also the smallest drop that counts as a step when a
/// held body walks off its edge: the max step height (m) over 20 (2 cm for 0.4 m). It is the
/// rounding an engine gives a box's edges (Jolt rounds them by the shape margin, at most 8 % of
/// the box's smallest half extent: 1.2 cm for 0.3 m deep steps, 4 cm for 1 m deep ones), which
/// grows with the stairs, as the max step height set for them does; and it stays well below
/// their risers.
pub fn edge_tolerance(max_step_height: f32) -> f32 {
    max_step_height.max(0.0) / 20.0
}

/// How far from the feet's height the edge under a held body may be beyond the safe margin
/// (a body the engine put down on an edge keeps that far above it), m: the engines' recovery.
pub const HELD_TOLERANCE: f32 = 5e-4;

/// How far toward the rounding under a floating flat bottom the look for the tread goes, m: the
/// max step height (m) over 10 (4 cm for 0.4 m), past the rounding Jolt gives a box edge
/// (see [`edge_tolerance`]).
pub fn tread_look(max_step_height: f32) -> f32 {
    max_step_height.max(0.0) / 10.0
}

/// How far short of its touch a sweep may stop beyond the safe margin, m: an engine's search of
/// a motion ends within a step of the touch (Jolt halves the motion down to about a
/// millimetre, up to 2 mm). A body a step down or a slide put on an edge may stand this far
/// above it. The engines' precision, not the character's size.
pub const SWEEP_SLACK: f32 = 2e-3;

/// How far above the feet of a body the flat base holds on a stair's edge the probe for a riser
/// starts, m, with the feet at `feet` (m): 10 um, or 8 ulps of the feet's largest coordinate
/// where f32 positions are coarser (beyond 10 m from the origin). The feet are at the edge's height,
/// level with the tread a walk crosses: the motion grazes the tread, and whether Jolt counts
/// that touch is the last bit of its f32 geometry (a touch whose contact does not oppose the
/// motion ends Jolt's cast, and the whole motion is answered free, through the next step's
/// nosing). A hair above, it never touches. Also how far beyond the safe margin a slide made
/// again short of a wall stops from it (`slide::remade_short`). Float rounding, not the
/// character's size.
pub fn graze_clearance(feet: glam::Vec3) -> f32 {
    let coarse = 8.0 * f32::EPSILON * feet.abs().max_element();
    1e-5f32.max(if coarse.is_finite() { coarse } else { 0.0 })
}

/// Smallest drop below the base that is worth holding back, m: float rounding.
pub const MIN_HOLD: f32 = 1e-5;

/// Shortest walk of a held body, m, over which a contact normal that did not turn tells a
/// slope's face from an edge: over an edge the normal turns by about the walk over the shape's
/// radius (1 mm over a radius of 1 m: 1e-3 rad), well clear of the
/// [`SAME_NORMAL_SINE`](crate::surface::SAME_NORMAL_SINE) below which two normals count as one
/// surface's. A shorter walk (a body coming to a stop) stays held.
pub const FACE_TEST_WALK: f32 = 1e-3;

/// How far toward its contact the second look that tells a slope's face from an edge moves,
/// m: over an edge the normal then turns by this over the shape's radius (5e-3 rad for 1 m).
pub const FACE_SHIFT: f32 = 5e-3;

/// How far past the safe margin the second probe of a step down starts from the first, m: clear
/// of the engine's margin around the side of the step just walked off.
pub const NUDGE: f32 = 1e-3;

/// How far past a riser's face the side of a body lifted over it must be for the step down to
/// find the step's top under it, m: float rounding beyond the safe margin.
pub const OVER_RISER: f32 = 2e-4;

/// How far below the safe margin the probe for an edge under a body reaches, m: the engines'
/// recovery.
pub const EDGE_PROBE: f32 = 1e-3;

/// How far below the feet of `body` something still touches it, m: two safe margins (the
/// engine keeps the body one margin clear and its recovery may leave another) and the
/// [`EDGE_PROBE`]. A probe down that falls further has left the body's support.
pub fn touch_reach<B: crate::KinematicBody + ?Sized>(body: &B) -> f32 {
    2.0 * body.safe_margin().max(0.0) + EDGE_PROBE
}

/// Vertical speed below which a body off the engine's floor may be resting on an edge, m/s. A
/// step down onto an edge leaves exactly none; one tick of gravity is far more.
pub const EDGE_REST_SPEED: f32 = 1e-4;

/// Smallest share of the tick's motion left to the slide after a lift whose velocity is scaled
/// back up to the body's; below it the body keeps the velocity it had.
pub const MIN_SHARE: f32 = 0.01;

/// Share of the walk a slide on floor may fall short by, or go beyond, before it is made again
/// along the floor's new slope.
pub const WALK_SHARE: f32 = 0.02;

/// Share of the walk below which a push out of a safe margin is left in the walk, not worth a
/// query to take back: the slide's push beyond the walk on a step down (see
/// `settle::keep_to_walk`), and the riser's push after it, which the next move measures only
/// when a whole margin is more than this share of its walk (see [`Landing`](crate::Landing)).
/// Godot's 1 mm margin is 0.75 % of a 4 m/s walk at 30 Hz and 7.5 % at 300 Hz; the course's
/// speed checks allow 5 %.
pub const MARGIN_PUSH_SHARE: f32 = 0.02;

/// Share of its horizontal speed below which a slide counts as stopped by a wall.
pub const STOPPED_SHARE: f32 = 0.5;

/// Share of the shape's radius one sub-step may move the body across the ground when it does
/// not stand on level floor: a longer move (a low tick rate with a fast walk) is split into
/// sub-steps. A flat base holds the body on an edge while the edge is within its radius, and a
/// tread may be shorter than the radius: a move of more than about half the radius could carry
/// the body past a whole tread, and the drop after it would be two risers (a capsule of radius
/// 0.4 m walking down 0.2 m risers at 6 m/s lost one at 25 Hz with 0.6 of it, at 15 Hz with 0.5).
pub const SUBSTEP_RADII: f32 = 0.4;

/// Most sub-steps one tick is split into, however fast the body moves.
pub const MAX_SUBSTEPS: u32 = 16;

/// The lengths the controller sizes by the body's shape: they grow with the character.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct BodyScale {
    /// The shape's reach across up, m (0 when the engine does not tell).
    radius: f32,
    /// Sine of the steepest floor's angle from up.
    max_sine: f32,
}

impl BodyScale {
    /// The scale of `body`: its shape's radius (an unusable one counts as unknown) and its
    /// floor max angle.
    pub fn of<B: crate::KinematicBody + ?Sized>(body: &B) -> Self {
        let radius = body.shape_radius();
        let max_angle = body.floor_max_angle();
        Self {
            radius: if radius.is_finite() && radius > 0.0 {
                radius.min(crate::sanitize::MAX_COORDINATE)
            } else {
                0.0
            },
            max_sine: if max_angle.is_finite() {
                max_angle.clamp(0.0, std::f32::consts::FRAC_PI_2).sin()
            } else {
                0.0
            },
        }
    }

    /// How far past where a round bottom lands on a step's edge the look for the tread behind
    /// it reaches, m: `setting` (the step forward test; 0 turns the look off), and at least as
    /// far as such a bottom resting on the edge at any tilt must move to stand on walkable
    /// ground: `radius * (1 - sin(floor max angle))` (0.29 of the radius at 45 degrees).
    pub fn tread_look(&self, setting: f32) -> f32 {
        if setting > 0.0 {
            setting.max(self.radius * (1.0 - self.max_sine))
        } else {
            0.0
        }
    }

    /// How many equal sub-steps a move of `motion` m across the ground takes, so that none
    /// moves further than [`SUBSTEP_RADII`] of the radius (1 when the radius is unknown; at
    /// most [`MAX_SUBSTEPS`]).
    pub fn substeps_for(&self, motion: f32) -> u32 {
        let longest = SUBSTEP_RADII * self.radius;
        if !(longest > 0.0 && motion.is_finite() && motion > longest) {
            return 1;
        }
        ((motion / longest).ceil() as u32).clamp(1, MAX_SUBSTEPS)
    }

    /// How far below its feet a round bottom can meet an edge with its rim, m: the shape's
    /// radius (0 when the engine does not tell it).
    pub fn bottom_hang(&self) -> f32 {
        self.radius
    }
}
